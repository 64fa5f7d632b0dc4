"""FlipWars rules: place a tile, flip every tile it attacks (even your own), most tiles wins.

The board is a grid of cells ``a1``… (files left to right, ranks bottom to top). Cell ``i`` is
file ``i % size``, rank ``i // size``; a 5x5 board is numbered::

    5 | 20 21 22 23 24
    4 | 15 16 17 18 19
    3 | 10 11 12 13 14
    2 |  5  6  7  8  9
    1 |  0  1  2  3  4
        a  b  c  d  e

A position keeps the colours as two bit masks (``blue`` and ``red``: the cells whose tile shows
that colour), so a placement flips its attacked tiles with two XORs. Every placement's attacked
cells are precomputed per Game as a mask; the block and empty cells are never in ``blue | red``,
which is why they are never flipped while attacks still reach past them.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, overload

from pocketarena.core import (
    TERMINAL,
    Action,
    Game,
    IllegalActionError,
    Message,
    Option,
    State,
    comma_list,
    message,
    normalize_notation,
    seat_name,
)

# -- tiles and their attack patterns --------------------------------------------------------

COLOURS = ("blue", "red")
ROTATION_WORDS = ("r0", "r90", "r180", "r270")
# Other names players use for two tiles (the printed text does not name them).
TILE_ALIASES = {"twin-rifle": "twin", "t-rex": "trex"}
# One letter per tile for the ASCII picture: upper case shows blue, lower case red.
TILE_LETTERS = {
    "tank": "T",
    "rocket": "R",
    "grenade": "G",
    "paratrooper": "P",
    "sniper": "S",
    "foxhole": "H",
    "twin": "W",
    "trex": "X",
    "flag": "F",
}

Offset = tuple[int, int]


def rotate(offset: Offset, quarter_turns: int) -> Offset:
    """Turn an attack offset clockwise: r90 turns an attack to the left into one upwards."""
    x, y = offset
    for _ in range(quarter_turns % 4):
        x, y = y, -x
    return (x, y)


@dataclass(frozen=True)
class TileKind:
    """One kind of tile with its attack pattern in the printed orientation (r0)."""

    index: int
    name: str
    pattern: tuple[Offset, ...]

    def offsets(self, quarter_turns: int) -> frozenset[Offset]:
        return frozenset(rotate(o, quarter_turns) for o in self.pattern)

    @property
    def canonical(self) -> tuple[int, int, int, int]:
        """For each quarter turn, the smallest quarter turn with the same attacked offsets."""
        out = []
        for q in range(4):
            out.append(next(p for p in range(4) if self.offsets(p) == self.offsets(q)))
        return (out[0], out[1], out[2], out[3])

    @property
    def rotations(self) -> tuple[int, ...]:
        """The quarter turns that differ in effect, each by its smallest angle."""
        return tuple(sorted(set(self.canonical)))


def _load_kinds() -> tuple[TileKind, ...]:
    text = resources.files(__package__).joinpath("patterns.json").read_text(encoding="utf-8")
    tiles = json.loads(text)["tiles"]
    return tuple(
        TileKind(i, name, tuple((int(x), int(y)) for x, y in offsets))
        for i, (name, offsets) in enumerate(tiles.items())
    )


KINDS: tuple[TileKind, ...] = _load_kinds()
KIND_BY_NAME = {k.name: k for k in KINDS}
FLAG = KIND_BY_NAME["flag"].index
SOLDIERS = tuple(k for k in KINDS if k.name != "flag")  # the eight kinds of every mode


@dataclass(frozen=True)
class Mode:
    name: str
    size: int  # the board is size x size
    copies: int  # tiles of each of the eight kinds per player
    flag: bool  # Capture the Flag: one flag each, placed first
    block: str | None  # the block's cell in round 1
    blurb: str


MODES = {
    m.name: m
    for m in (
        Mode("standard", 5, 2, False, None, "5x5 board, two of each tile"),
        Mode("enclosed", 4, 1, False, None, "Enclosed Battle: 4x4 board, one of each tile"),
        Mode("flag", 5, 2, True, None, "Capture the Flag: a flag each, placed first, worth 2"),
        Mode("tactical", 5, 2, False, "c3", "Tactical War: the block on c3, a series of rounds"),
    )
}

SERIES_TARGET = 3  # round wins that take a series
SERIES_MAX_ROUNDS = 9

# Phases of a position.
PLACING, CHOOSE_BLOCK, CHOOSE_FIRST, OVER = 0, 1, 2, 3
PHASE_NAMES = ("place", "block", "first", "over")


def popcount(mask: int) -> int:
    return mask.bit_count()


# -- the game ---------------------------------------------------------------------------------


class FlipWars(Game):
    ID = "flipwars"
    TITLE = "FlipWars"
    SEATS = ("Blue", "Red")
    OPTIONS = (
        Option(
            "mode",
            str,
            "standard",
            "standard (5x5), enclosed (4x4, one of each tile), flag (Capture the Flag), "
            "tactical (the block on c3)",
            choices=tuple(MODES),
            label="Mode",
            choice_labels=(
                ("standard", "Standard (5×5)"),
                ("enclosed", "Enclosed (4×4, one of each tile)"),
                ("flag", "Capture the Flag"),
                ("tactical", "Tactical (the block on c3)"),
            ),
        ),
        Option(
            "series",
            bool,
            True,
            "Tactical mode only: play a series (first to 3 round wins, at most 9 rounds); "
            "the other modes are always one round",
            label="A series of rounds (first to 3 wins)",
            applies_when=("mode", ("tactical",)),
        ),
    )
    VARIANTS = (
        {"mode": "standard"},
        {"mode": "enclosed"},
        {"mode": "flag"},
        {"mode": "tactical"},
        {"mode": "tactical", "series": False},
    )
    PITCH = "Place a tile and flip every tile it attacks, even your own: most tiles of your colour wins."

    # Set by _resolve / _build_actions (typed here for mypy).
    mode: Mode
    series: bool
    size: int
    cell_names: tuple[str, ...]
    cell_index: dict[str, int]
    kinds: tuple[TileKind, ...]
    combos: tuple[tuple[int, int], ...]  # (kind index, quarter turns) in action-table order

    def _resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        mode = MODES[options["mode"]]
        # Only Tactical War has series rules (the loser moves the block between rounds), so the
        # other modes are single rounds whatever `series` says; they report series=False.
        series = bool(options["series"]) and mode.name == "tactical"
        self.mode = mode
        self.series = series
        self.size = n = mode.size
        files = "abcdefgh"[:n]
        self.cell_names = tuple(f"{files[i % n]}{i // n + 1}" for i in range(n * n))
        self.cell_index = {name: i for i, name in enumerate(self.cell_names)}
        self.kinds = SOLDIERS + ((KINDS[FLAG],) if mode.flag else ())
        self.combos = tuple((k.index, q) for k in self.kinds for q in k.rotations)
        return {"mode": mode.name, "series": series}

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        n = self.size
        stride = len(self.combos)
        actions: list[Action] = []
        # Per action id: (cell, kind, attacked-cells mask, tile code) for placements, else None.
        self._placing: list[tuple[int, int, int, int] | None] = []
        for cell, cell_name in enumerate(self.cell_names):
            f, r = cell % n, cell // n
            for kind_index, q in self.combos:
                kind = KINDS[kind_index]
                mask = 0
                for dx, dy in kind.offsets(q):
                    x, y = f + dx, r + dy
                    if 0 <= x < n and 0 <= y < n:
                        mask |= 1 << (y * n + x)
                word = ROTATION_WORDS[q]
                actions.append(
                    Action(
                        len(actions),
                        f"place {kind.name} {cell_name} {word}",
                        "place",
                        (kind.name, cell_name, q * 90),
                    )
                )
                self._placing.append((cell, kind_index, mask, kind_index * 4 + q))
        self._stride = stride
        self._block_of: dict[int, int] = {}
        self._first_of: dict[int, int] = {}
        if self.series:
            for cell, cell_name in enumerate(self.cell_names):
                self._block_of[len(actions)] = cell
                actions.append(Action(len(actions), f"block {cell_name}", "block", (cell_name,)))
                self._placing.append(None)
            for seat, colour in enumerate(COLOURS):
                self._first_of[len(actions)] = seat
                actions.append(Action(len(actions), f"first {colour}", "first", (colour,)))
                self._placing.append(None)
        self._block_actions = tuple(actions[i] for i in self._block_of)
        self._first_actions = tuple(actions[i] for i in self._first_of)
        # Initial supply per player: 2 bits per kind (counts 0..3).
        stock = sum(self.mode.copies << (2 * k.index) for k in SOLDIERS)
        if self.mode.flag:
            stock += 1 << (2 * FLAG)
        self._initial_stock = stock
        self._combos_by_stock: dict[int, tuple[int, ...]] = {}
        self.first_block = -1 if self.mode.block is None else self.cell_index[self.mode.block]
        return actions, []

    def _aliases(self) -> Iterable[tuple[str, Action]]:
        # Any rotation (or none, meaning r0) reads as the canonical one with the same effect.
        stride = self._stride
        names = {k.index: [k.name] for k in self.kinds}
        for alias, name in TILE_ALIASES.items():
            names[KIND_BY_NAME[name].index].append(alias)
        combo_at = {c: i for i, c in enumerate(self.combos)}
        for cell, cell_name in enumerate(self.cell_names):
            for kind in self.kinds:
                canonical = kind.canonical
                for word in names[kind.index]:
                    for q in range(4):
                        action = self.actions[cell * stride + combo_at[(kind.index, canonical[q])]]
                        yield f"place {word} {cell_name} {ROTATION_WORDS[q]}", action
                        if q == 0:
                            yield f"place {word} {cell_name}", action

    def _max_game_length(self) -> int:
        cells = self.size * self.size - (1 if self.mode.block else 0)
        if not self.series:
            return cells
        # Every round fills the board but the block; between rounds come `block` and `first`.
        return SERIES_MAX_ROUNDS * cells + (SERIES_MAX_ROUNDS - 1) * 2

    def new_initial_state(self) -> FlipWarsState:
        return FlipWarsState(self)

    # -- helpers used by states, bots and renderers ------------------------------------------
    def combos_for(self, stock: int) -> tuple[int, ...]:
        """Indexes into ``combos`` that a player with this supply may place now."""
        cached = self._combos_by_stock.get(stock)
        if cached is None:
            if self.mode.flag and (stock >> (2 * FLAG)) & 3:
                allowed = {FLAG}  # the flag must be the first placement
            else:
                allowed = {k.index for k in self.kinds if (stock >> (2 * k.index)) & 3}
            cached = tuple(i for i, (k, _) in enumerate(self.combos) if k in allowed)
            self._combos_by_stock[stock] = cached
        return cached

    def placement(self, action: Action) -> tuple[int, int, int, int] | None:
        """(cell, kind index, attacked-cells mask, tile code) of a placement, else None."""
        return self._placing[action.id]

    def place_action(self, kind: str, cell: str, rotation: int = 0) -> Action:
        """The canonical placement of ``kind`` on ``cell`` turned ``rotation`` degrees."""
        return self.parse_action(f"place {kind} {cell} r{rotation % 360}")

    def initial_stock(self) -> int:
        return self._initial_stock

    # -- messages -----------------------------------------------------------------------------
    def _example(self) -> str:
        return "'place grenade c3 r90'"

    def _explain_cell(self, word: str) -> Message | None:
        if word in self.cell_index:
            return None
        return message("flipwars.not-a-cell", word=word, size=self.size, last=self.cell_names[-1])

    def _explain_tile(self, word: str) -> Message | None:
        if word in TILE_ALIASES or any(word == k.name for k in self.kinds):
            return None
        if word == "flag":
            return message("flipwars.flag-only")
        names = [k.name for k in self.kinds]
        close = difflib.get_close_matches(word, names + list(TILE_ALIASES), n=1)
        if close:
            return message(
                "flipwars.not-a-tile-close", word=word, close=close[0], tiles=comma_list(names)
            )
        return message("flipwars.not-a-tile", word=word, tiles=comma_list(names))

    def explain_unreadable(self, text: str) -> Message:
        words = normalize_notation(text).split()
        shown = " ".join(words)
        if not words:
            return message("flipwars.empty")
        verb, rest = words[0], words[1:]
        verbs = ["place", "block", "first"] if self.series else ["place"]
        if verb == "place":
            if len(rest) < 2:
                return message("flipwars.incomplete", text=shown)
            problem = self._explain_tile(rest[0]) or self._explain_cell(rest[1])
            if problem:
                return problem
            if len(rest) >= 3 and rest[2] not in ROTATION_WORDS:
                return message("flipwars.not-a-rotation", word=rest[2])
            return message("flipwars.extra-words", text=shown)
        if verb in ("block", "first") and not self.series:
            return message("flipwars.series-only", word=verb)
        if verb == "block":
            if len(rest) != 1:
                return message("flipwars.write-block", text=shown)
            return self._explain_cell(rest[0]) or message("flipwars.write-block", text=shown)
        if verb == "first":
            return message("flipwars.write-first", text=shown)
        if verb in self.cell_index or verb in KIND_BY_NAME:
            return message("flipwars.needs-verb", text=shown)
        return message("core.unknown-verb", text=shown, word=verb, verbs=comma_list(verbs))

    def _shape(self, action: Action) -> str:
        return {
            "place": "place TILE CELL ROTATION",
            "block": "block CELL",
            "first": "first blue|red",
        }[action.verb]


# -- the legal placements, lazily -------------------------------------------------------------


class Placements(Sequence[Action]):
    """The legal placements: every empty cell (in cell order) times every (tile, rotation) the
    mover may place, which is the same for every empty cell. Length, indexing and ``in`` are
    O(1); nothing is built until asked for.
    """

    __slots__ = ("_game", "_table", "_stride", "_cells", "_combos", "_n", "_len")

    def __init__(self, game: FlipWars, cells: tuple[int, ...], combos: tuple[int, ...]) -> None:
        self._game = game
        self._table = game.actions
        self._stride = game._stride
        self._cells = cells
        self._combos = combos
        self._n = len(combos)
        self._len = len(cells) * self._n

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, i: int) -> Action: ...

    @overload
    def __getitem__(self, i: slice) -> list[Action]: ...

    def __getitem__(self, i: int | slice) -> Action | list[Action]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(self._len))]
        if i < 0:
            i += self._len
        if not 0 <= i < self._len:
            raise IndexError("legal action index out of range")
        q, r = divmod(i, self._n)
        return self._table[self._cells[q] * self._stride + self._combos[r]]

    def __iter__(self) -> Iterator[Action]:
        table, stride, combos = self._table, self._stride, self._combos
        for cell in self._cells:
            base = cell * stride
            for c in combos:
                yield table[base + c]

    def __contains__(self, item: object) -> bool:
        table = self._table
        if isinstance(item, Action):
            aid = item.id
            if not (0 <= aid < len(table) and table[aid].text == item.text):
                return False
        elif isinstance(item, str):
            action = self._game._by_key.get(normalize_notation(item))
            if action is None or action.text != item:
                return False
            aid = action.id
        else:
            return False
        if table[aid].verb != "place":
            return False
        cell, combo = divmod(aid, self._stride)
        return cell in self._cells and combo in self._combos

    def index(self, value: Any, start: int = 0, stop: int | None = None) -> int:
        if value in self:
            aid = self._game.action(value).id
            cell, combo = divmod(aid, self._stride)
            i = self._cells.index(cell) * self._n + self._combos.index(combo)
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{value!r} is not a legal action here")

    def count(self, value: Any) -> int:
        return 1 if value in self else 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Placements):
            return (
                self._table is other._table
                and self._cells == other._cells
                and self._combos == other._combos
            )
        if isinstance(other, Sequence) and not isinstance(other, str):
            return len(other) == self._len and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __bool__(self) -> bool:
        return self._len > 0

    def __repr__(self) -> str:
        shown = ", ".join(a.text for a in self[:3])
        more = f", … ({self._len} in all)" if self._len > 3 else ""
        return f"<legal placements: {shown}{more}>"


# -- the state --------------------------------------------------------------------------------

# One finished round of a series: (who moved first, block cell, blue's score, red's score,
# winner seat or -1 for a drawn round).
RoundResult = tuple[int, int, int, int, int]


class FlipWarsState(State):
    __slots__ = (
        "blue",
        "red",
        "flags",
        "tiles",
        "empty",
        "stock",
        "block",
        "phase",
        "first",
        "round",
        "wins",
        "results",
    )

    game: FlipWars
    blue: int  # cells whose tile shows blue
    red: int  # cells whose tile shows red
    flags: int  # cells holding a flag (either colour)
    tiles: list[int]  # per cell: kind * 4 + quarter turns, or -1
    empty: tuple[int, ...]  # empty cells in cell order (the block is not one)
    stock: tuple[int, int]  # each player's supply, 2 bits per kind
    block: int  # the block's cell, or -1
    phase: int
    first: int  # the seat that moved first in this round
    round: int  # 1-based
    wins: tuple[int, int]  # round wins in a series
    results: tuple[RoundResult, ...]  # finished rounds of a series

    def __init__(self, game: FlipWars) -> None:
        super().__init__(game)
        self.wins = (0, 0)
        self.results = ()
        self.round = 1
        self._start_round(game.first_block, first=0)

    def _start_round(self, block: int, first: int) -> None:
        game = self.game
        n = game.size * game.size
        self.blue = self.red = self.flags = 0
        self.tiles = [-1] * n
        self.block = block
        self.empty = tuple(c for c in range(n) if c != block)
        self.stock = (game._initial_stock, game._initial_stock)
        self.phase = PLACING
        self.first = first
        self.current_player = first

    # -- contract hooks ----------------------------------------------------------------------
    def _legal_actions(self) -> Sequence[Action]:
        if self.phase == PLACING:
            game = self.game
            return Placements(game, self.empty, game.combos_for(self.stock[self.current_player]))
        if self.phase == CHOOSE_BLOCK:
            return self.game._block_actions
        return self.game._first_actions

    def _apply(self, action: Action) -> None:
        game = self.game
        info = game._placing[action.id]
        if info is None or self.phase != PLACING:
            self._apply_between_rounds(action)
            return
        cell, kind, targets, code = info
        bit = 1 << cell
        blue, red = self.blue, self.red
        if (blue | red) & bit or cell == self.block:
            raise IllegalActionError(self._why_taken(cell))
        seat = self.current_player
        stock = self.stock[seat]
        shift = kind + kind
        if not (stock >> shift) & 3:
            raise IllegalActionError(self._why_no_tile(seat, kind))
        if game.mode.flag and kind != FLAG and (stock >> (FLAG + FLAG)) & 3:
            raise IllegalActionError("flipwars.flag-first", seat=seat_name(game.SEATS[seat]))
        # Legal: place, then flip every tile on an attacked cell (either colour).
        hit = targets & (blue | red)
        blue ^= hit
        red ^= hit
        if seat == 0:
            self.blue = blue | bit
            self.red = red
            self.stock = (stock - (1 << shift), self.stock[1])
        else:
            self.blue = blue
            self.red = red | bit
            self.stock = (self.stock[0], stock - (1 << shift))
        if kind == FLAG:
            self.flags |= bit
        self.tiles[cell] = code
        empty = self.empty
        i = empty.index(cell)
        self.empty = empty[:i] + empty[i + 1 :]
        if self.empty:
            self.current_player = 1 - seat
        else:
            self._end_round()

    def _apply_between_rounds(self, action: Action) -> None:
        game = self.game
        phase = self.phase
        if action.verb == "place":
            raise IllegalActionError(
                "flipwars.choose-block" if phase == CHOOSE_BLOCK else "flipwars.choose-first",
                round=self.round if phase == CHOOSE_BLOCK else self.round - 1,
                seat=seat_name(game.SEATS[self.current_player]),
            )
        if action.verb == "block":
            if phase == PLACING:
                raise IllegalActionError("flipwars.block-between-rounds")
            if phase == CHOOSE_FIRST:
                raise IllegalActionError("flipwars.block-placed", place=game.cell_names[self.block])
            # The board is cleared and the block set for the next round.
            self.round += 1
            self._start_round(game._block_of[action.id], first=self.current_player)
            self.phase = CHOOSE_FIRST
            return
        # `first blue` / `first red`
        if phase == PLACING:
            raise IllegalActionError("flipwars.first-between-rounds")
        if phase == CHOOSE_BLOCK:
            raise IllegalActionError(
                "flipwars.block-before-first", seat=seat_name(game.SEATS[self.current_player])
            )
        first = game._first_of[action.id]
        self.first = first
        self.current_player = first
        self.phase = PLACING

    def _end_round(self) -> None:
        game = self.game
        if not game.series:
            self.phase = OVER
            self.current_player = TERMINAL
            return
        s0, s1 = self.round_scores()
        winner = 0 if s0 > s1 else 1 if s1 > s0 else -1
        self.results = self.results + ((self.first, self.block, s0, s1, winner),)
        if winner >= 0:
            w = list(self.wins)
            w[winner] += 1
            self.wins = (w[0], w[1])
        if max(self.wins) >= SERIES_TARGET or self.round >= SERIES_MAX_ROUNDS:
            self.phase = OVER
            self.current_player = TERMINAL
            return
        # The loser moves the block and picks who starts; after a draw, the second mover does.
        self.phase = CHOOSE_BLOCK
        self.current_player = 1 - winner if winner >= 0 else 1 - self.first

    def _why_taken(self, cell: int) -> Message:
        game = self.game
        name = game.cell_names[cell]
        if cell == self.block:
            return message("flipwars.block-there", place=name)
        code = self.tiles[cell]
        colour = "blue" if self.blue >> cell & 1 else "red"
        return message(f"flipwars.taken-{colour}", place=name, tile=KINDS[code // 4].name)

    def _why_no_tile(self, seat: int, kind: int) -> Message:
        game = self.game
        name = KINDS[kind].name
        who = seat_name(game.SEATS[seat])
        if kind == FLAG:
            return message("flipwars.flag-placed", seat=who)
        left = [k.name for k in game.kinds if (self.stock[seat] >> (2 * k.index)) & 3]
        return message(
            "flipwars.none-left-1" if game.mode.copies == 1 else "flipwars.none-left-2",
            seat=who,
            tile=name,
            left=comma_list(left),
        )

    def _copy(self) -> FlipWarsState:
        c = FlipWarsState.__new__(FlipWarsState)
        c.game = self.game
        c.current_player = self.current_player
        c.blue = self.blue
        c.red = self.red
        c.flags = self.flags
        c.tiles = self.tiles.copy()
        c.empty = self.empty
        c.stock = self.stock
        c.block = self.block
        c.phase = self.phase
        c.first = self.first
        c.round = self.round
        c.wins = self.wins
        c.results = self.results
        return c

    # -- scores and views --------------------------------------------------------------------
    def round_scores(self) -> tuple[int, int]:
        """Tiles showing each colour in this round, a flag counting 2."""
        flags = self.flags
        return (
            popcount(self.blue) + popcount(self.blue & flags),
            popcount(self.red) + popcount(self.red & flags),
        )

    def scores(self) -> tuple[float, float]:
        """Round wins in a series; otherwise this round's tiles (a flag counts 2)."""
        if self.game.series:
            return self.wins
        return self.round_scores()

    def supply(self, seat: int) -> dict[str, int]:
        """Tiles ``seat`` still has to place, by kind."""
        stock = self.stock[seat]
        return {k.name: (stock >> (2 * k.index)) & 3 for k in self.game.kinds}

    def tile_at(self, cell: int) -> tuple[str, int, int] | None:
        """(kind, rotation in degrees, colour seat) of the tile on ``cell``, or None."""
        code = self.tiles[cell]
        if code < 0:
            return None
        return (KINDS[code // 4].name, (code % 4) * 90, 0 if self.blue >> cell & 1 else 1)

    def position(self) -> dict[str, Any]:
        game = self.game
        cells: dict[str, Any] = {}
        for cell, name in enumerate(game.cell_names):
            tile = self.tile_at(cell)
            cells[name] = (
                None
                if tile is None
                else {"tile": tile[0], "rotation": f"r{tile[1]}", "colour": COLOURS[tile[2]]}
            )
        s0, s1 = self.round_scores()
        player = self.current_player
        view: dict[str, Any] = {
            "mode": game.mode.name,
            "size": game.size,
            "cells": cells,
            "block": game.cell_names[self.block] if self.block >= 0 else None,
            "supply": {COLOURS[s]: self.supply(s) for s in (0, 1)},
            "to_move": COLOURS[player] if player >= 0 else None,
            "phase": PHASE_NAMES[self.phase],
            "must_place_flag": self.phase == PLACING
            and game.mode.flag
            and bool((self.stock[player] >> (2 * FLAG)) & 3),
            "round": self.round,
            "first": COLOURS[self.first] if self.phase != CHOOSE_FIRST else None,
            "score": {"blue": s0, "red": s1},
            "series": None,
        }
        if game.series:
            view["series"] = {
                "round_wins": {"blue": self.wins[0], "red": self.wins[1]},
                "target": SERIES_TARGET,
                "max_rounds": SERIES_MAX_ROUNDS,
                "rounds": [
                    {
                        "round": i + 1,
                        "first": COLOURS[first],
                        "block": game.cell_names[block] if block >= 0 else None,
                        "score": {"blue": b, "red": r},
                        "winner": COLOURS[w] if w >= 0 else None,
                    }
                    for i, (first, block, b, r, w) in enumerate(self.results)
                ],
            }
        return view

    def __str__(self) -> str:
        """A plain-ASCII picture: upper-case letters are blue tiles, lower-case red, ``#`` the
        block (T tank, R rocket, G grenade, P paratrooper, S sniper, H foxhole, W twin, X trex,
        F flag).
        """
        game = self.game
        n = game.size
        rows = []
        for rank in range(n - 1, -1, -1):
            marks = []
            for f in range(n):
                cell = rank * n + f
                tile = self.tile_at(cell)
                if cell == self.block:
                    marks.append("#")
                elif tile is None:
                    marks.append(".")
                else:
                    letter = TILE_LETTERS[tile[0]]
                    marks.append(letter if tile[2] == 0 else letter.lower())
            rows.append(f"{rank + 1} {' '.join(marks)}")
        rows.append("  " + " ".join("abcdefgh"[:n]))
        s0, s1 = self.round_scores()
        status = f"blue {s0} red {s1}"
        if game.series:
            status = f"round {self.round}, wins blue {self.wins[0]} red {self.wins[1]}; " + status
        if self.current_player >= 0:
            doing = {
                PLACING: "to place",
                CHOOSE_BLOCK: "to move the block",
                CHOOSE_FIRST: "to choose who starts",
            }
            status += f"; {game.SEATS[self.current_player]} {doing[self.phase]}"
        else:
            status += "; over"
        rows.append(status)
        return "\n".join(rows)
