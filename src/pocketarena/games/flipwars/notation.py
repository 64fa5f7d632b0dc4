"""FlipWars' notation beyond the action table: the other spellings it reads (any rotation,
tile nicknames) and what it says about text that is no action, or an action the rules refuse.

``place grenade c3 r90`` is canonical; ``place grenade c3`` reads as r0, ``place rocket c3 r90``
as ``place rocket c3 r0`` (a rocket attacks the same cells whichever way it is turned) and
``place t-rex c3`` as ``place trex c3 r0``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pocketarena.core import Action, Message, comma_list, message, normalize_notation, seat_name

from .modes import CHOOSE_BLOCK, PLACING
from .tiles import KIND_BY_NAME, KINDS, ROTATION_WORDS, TILE_ALIASES

if TYPE_CHECKING:
    from .rules import FlipWars, FlipWarsState

EXAMPLE = "'place grenade c3 r90'"
SHAPES = {"place": "place TILE CELL ROTATION", "block": "block CELL", "first": "first blue|red"}


def aliases(game: FlipWars) -> Iterator[tuple[str, Action]]:
    """Any rotation (or none, meaning r0) reads as the canonical one with the same effect."""
    stride = len(game.combos)
    names = {k.index: [k.name] for k in game.kinds}
    for alias, name in TILE_ALIASES.items():
        names[KIND_BY_NAME[name].index].append(alias)
    combo_at = {c: i for i, c in enumerate(game.combos)}
    for cell, cell_name in enumerate(game.cell_names):
        for kind in game.kinds:
            canonical = kind.canonical
            for word in names[kind.index]:
                for q in range(4):
                    action = game.actions[cell * stride + combo_at[(kind.index, canonical[q])]]
                    yield f"place {word} {cell_name} {ROTATION_WORDS[q]}", action
                    if q == 0:
                        yield f"place {word} {cell_name}", action


def _explain_cell(game: FlipWars, word: str) -> Message | None:
    if word in game.cell_index:
        return None
    return message("flipwars.not-a-cell", word=word, size=game.size, last=game.cell_names[-1])


def _explain_tile(game: FlipWars, word: str) -> Message | None:
    if word in TILE_ALIASES or any(word == k.name for k in game.kinds):
        return None
    if word == "flag":
        return message("flipwars.flag-only")
    names = [k.name for k in game.kinds]
    close = difflib.get_close_matches(word, names + list(TILE_ALIASES), n=1)
    if close:
        return message(
            "flipwars.not-a-tile-close", word=word, close=close[0], tiles=comma_list(names)
        )
    return message("flipwars.not-a-tile", word=word, tiles=comma_list(names))


def explain_unreadable(game: FlipWars, text: str) -> Message:
    """Why ``text`` is no action of ``game``: the first word that is wrong, and how to write it."""
    words = normalize_notation(text).split()
    shown = " ".join(words)
    if not words:
        return message("flipwars.empty")
    verb, rest = words[0], words[1:]
    verbs = ["place", "block", "first"] if game.series else ["place"]
    if verb == "place":
        if len(rest) < 2:
            return message("flipwars.incomplete", text=shown)
        problem = _explain_tile(game, rest[0]) or _explain_cell(game, rest[1])
        if problem:
            return problem
        if len(rest) >= 3 and rest[2] not in ROTATION_WORDS:
            return message("flipwars.not-a-rotation", word=rest[2])
        return message("flipwars.extra-words", text=shown)
    if verb in ("block", "first") and not game.series:
        return message("flipwars.series-only", word=verb)
    if verb == "block":
        if len(rest) != 1:
            return message("flipwars.write-block", text=shown)
        return _explain_cell(game, rest[0]) or message("flipwars.write-block", text=shown)
    if verb == "first":
        return message("flipwars.write-first", text=shown)
    if verb in game.cell_index or verb in KIND_BY_NAME:
        return message("flipwars.needs-verb", text=shown)
    return message("core.unknown-verb", text=shown, word=verb, verbs=comma_list(verbs))


# -- why the rules refuse an action ------------------------------------------------------------
# The rules say what is legal once, in the legal actions (every empty cell times the tiles the
# mover may place; the flag first); these say why an action is not, in the order a player checks.


def why_refused(state: FlipWarsState, action: Action) -> Message:
    """Why ``action`` is not legal in ``state`` (asked only when it is not)."""
    game = state.game
    info = game.placement(action)
    if info is None or state.phase != PLACING:
        return _why_not_now(state, action)
    seat = state.current_player
    cell, kind = info[0], info[1]
    if (state.blue | state.red) >> cell & 1 or cell == state.block:
        return why_taken(state, cell)
    if not (state.stock[seat] >> (2 * kind)) & 3:
        return why_no_tile(state, seat, kind)
    return message("flipwars.flag-first", seat=seat_name(game.SEATS[seat]))


def _why_not_now(state: FlipWarsState, action: Action) -> Message:
    """A placement between rounds, or a series' choice (block, first) at the wrong moment."""
    game = state.game
    phase = state.phase
    who = seat_name(game.SEATS[state.current_player])
    if action.verb == "place":
        if phase == CHOOSE_BLOCK:
            return message("flipwars.choose-block", round=state.round, seat=who)
        return message("flipwars.choose-first", round=state.round - 1, seat=who)
    if action.verb == "block":
        if phase == PLACING:
            return message("flipwars.block-between-rounds")
        return message("flipwars.block-placed", place=game.cell_names[state.block])
    if phase == PLACING:
        return message("flipwars.first-between-rounds")
    return message("flipwars.block-before-first", seat=who)


def why_taken(state: FlipWarsState, cell: int) -> Message:
    """A tile (or the block) is on ``cell`` already."""
    name = state.game.cell_names[cell]
    if cell == state.block:
        return message("flipwars.block-there", place=name)
    code = state.tiles[cell]
    colour = "blue" if state.blue >> cell & 1 else "red"
    kind = KINDS[code // 4].name
    # ``tile`` in notation (what the API's params always held), ``name`` as the board says it.
    said = message(f"flipwars.tile.{kind}")
    return message(f"flipwars.taken-{colour}", place=name, tile=kind, name=said)


def why_no_tile(state: FlipWarsState, seat: int, kind: int) -> Message:
    """``seat`` has no tile of ``kind`` left to place."""
    game = state.game
    name = KINDS[kind].name
    who = seat_name(game.SEATS[seat])
    if name == "flag":
        return message("flipwars.flag-placed", seat=who)
    left = [k.name for k in game.kinds if (state.stock[seat] >> (2 * k.index)) & 3]
    return message(
        "flipwars.none-left-1" if game.mode.copies == 1 else "flipwars.none-left-2",
        seat=who,
        tile=name,
        left=comma_list(left),
    )
