"""What the server needs to know about each game, gathered from the games, their renderers and
the bots: titles, pitches, options as form fields, bot levels, the board picture, who throws.

The games and renderers are used as they are; where a game needs a server-side decision that
the rules do not make (who presses "throw"), it is made here, in one place.
"""

from __future__ import annotations

import functools
import html
import importlib
import json
import logging
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

import pocketarena as pa
from pocketarena.bots import Bot
from pocketarena.bots import make_bot as _make_bot
from pocketarena.core import CHANCE, Action, Game, Option, State
from pocketarena.core.options import resolve_options
from pocketarena.match import deciders_after_throw

log = logging.getLogger(__name__)

# Bot levels in the order they are offered; a game gets those its bots support.
BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard", "perfect")
BOT_NAMES = {
    "random": "Randy (random)",
    "greedy": "Greta (greedy)",
    "easy": "Bot · easy",
    "medium": "Bot · medium",
    "hard": "Bot · hard",
    "perfect": "Bot · perfect",
}


def game_ids() -> list[str]:
    return sorted(pa.GAMES)


def game_class(game_id: str) -> type[Game]:
    cls = pa.GAMES.get(game_id)
    if cls is None:
        raise ValueError(
            f"unknown game {game_id!r}; valid games: {', '.join(game_ids()) or 'none'}"
        )
    return cls


def option_field(option: Option) -> dict[str, Any]:
    """An option as a form field description (JSON), for the new-game page and the API."""
    kind = {bool: "bool", int: "int", str: "str", dict: "dict", list: "list"}.get(
        option.type, "str"
    )
    return {
        "name": option.name,
        "label": option.title,
        "type": kind,
        "default": option.default,
        "help": option.help,
        "choices": list(option.choices) if option.choices is not None else None,
        "choice_labels": (
            [option.choice_title(c) for c in option.choices] if option.choices is not None else None
        ),
    }


def game_info(game_id: str) -> dict[str, Any]:
    cls = game_class(game_id)
    return {
        "id": cls.ID,
        "title": cls.TITLE,
        "pitch": cls.PITCH,
        "seats": list(cls.SEATS),
        "chance": cls.CHANCE,
        "options": [option_field(o) for o in cls.OPTIONS],
        "variants": [dict(v) for v in cls.VARIANTS],
        "bots": bot_levels(game_id),
        "rules": rules_available(game_id),
    }


# -- bots -----------------------------------------------------------------------------------
def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot:
    return _make_bot(spec, game, seed=seed)


@functools.cache
def bot_levels(game_id: str) -> list[str]:
    """The bot levels this game can be played against (those ``make_bot`` accepts)."""
    game = game_class(game_id)()
    out = []
    for level in BOT_LEVELS:
        try:
            make_bot(level, game, seed=0)
        except (ValueError, KeyError, NotImplementedError):
            continue
        out.append(level)
    return out


def bot_name(spec: str) -> str:
    return BOT_NAMES.get(spec, f"Bot · {spec}")


# -- drawing ----------------------------------------------------------------------------------
def _render_module(game_id: str) -> Any | None:
    try:
        return importlib.import_module(f"pocketarena.render.{game_id.replace('-', '_')}")
    except ImportError:
        return None


def svg_board(state: State, last: Action | None = None) -> str:
    module = _render_module(state.game.ID)
    if module is not None and hasattr(module, "svg_board"):
        return str(module.svg_board(state, last=last))
    # No renderer for this game: a plain card with the position's main facts, so the game
    # stays playable (every choice then appears as a button below the board).
    lines = [f"{state.game.TITLE}"]
    for key, value in state.position().items():
        text = json.dumps(value, separators=(",", ":"))
        lines.append(f"{key}: {text[:56]}{'…' if len(text) > 56 else ''}")
    lines = lines[:18]
    tspans = "".join(
        f'<tspan x="16" dy="{22 if i else 0}" font-weight="{700 if i == 0 else 400}">{html.escape(line)}</tspan>'
        for i, line in enumerate(lines)
    )
    height = 40 + 22 * len(lines)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 480 {height}" class="pa-fallback">'
        f'<rect width="480" height="{height}" rx="12" fill="#fbf6ea"/>'
        f'<text font-family="ui-monospace,monospace" font-size="13" fill="#1d2230" y="30">{tspans}</text></svg>'
    )


def describe(game_id: str, action: Action) -> str:
    module = _render_module(game_id)
    if module is not None and hasattr(module, "describe"):
        try:
            return str(module.describe(action))
        except Exception:  # a describe bug must not break the game page
            log.exception("describe(%s) failed in %s", action, game_id)
    return action.text


# -- actions as data --------------------------------------------------------------------------
def action_json(action: Action) -> dict[str, Any]:
    """An action with the structured fields the click-to-play client builds choices from:
    ``verb`` and ``tokens`` (the words after the verb, in notation order)."""
    words = action.text.split()
    return {"id": action.id, "text": action.text, "verb": action.verb, "tokens": words[1:]}


def legal_json(state: State) -> list[dict[str, Any]]:
    return [action_json(a) for a in state.legal_actions()]


def thrower(state: State) -> int | None:
    """The seat who throws the coins at this chance node in person, or None when the server
    throws at once. A throw is a person's when exactly one seat decides after it: Coin Age's
    slap starts the mover's turn; Wallet Battles' flips are both players' at once."""
    if state.current_player != CHANCE:
        return None
    seats = deciders_after_throw(state)
    return next(iter(seats)) if len(seats) == 1 else None


def max_plies(game: Game) -> int:
    return max(1, game.info.max_game_length)


_GAME_CACHE: OrderedDict[tuple[str, str], Game] = OrderedDict()
_GAME_CACHE_SIZE = 128
_BY_CHANCE: set[tuple[str, str]] = set()  # option sets that resolve differently each time


def _key(game_id: str, options: Mapping[str, Any]) -> tuple[str, str]:
    return (game_id, json.dumps(options, sort_keys=True, default=str))


def load_game(game_id: str, options: Mapping[str, Any]) -> Game:
    """``pa.load`` with the games shared: a Game is read-only once built, and building one
    (its action table) takes milliseconds that every new game would otherwise spend on the
    event loop. A game may resolve its options further (FlipWars' ``series`` follows its
    mode); options it resolves by chance (``map="random"``) build a new game every time,
    shared afterwards under the options it resolved to."""
    cls = game_class(game_id)
    asked = _key(cls.ID, resolve_options(cls.ID, cls.OPTIONS, dict(options)))  # ValueError if bad
    game = _GAME_CACHE.get(asked)
    if game is None:
        game = pa.load(cls.ID, **dict(options))
        resolved = _key(cls.ID, game.options)
        game = _GAME_CACHE.setdefault(resolved, game)
        if resolved != asked and asked not in _BY_CHANCE:
            # Resolved by rule or by chance? Building once more tells.
            if _key(cls.ID, pa.load(cls.ID, **dict(options)).options) == resolved:
                _GAME_CACHE[asked] = game
            else:
                _BY_CHANCE.add(asked)
    for key in (asked, _key(cls.ID, game.options)):
        if key in _GAME_CACHE:
            _GAME_CACHE.move_to_end(key)
    while len(_GAME_CACHE) > _GAME_CACHE_SIZE:
        _GAME_CACHE.popitem(last=False)
    return game


def load_state(game_id: str, options: dict[str, Any], history: Sequence[str]) -> State:
    """Rebuild a stored game (used when a game is resumed after a restart)."""
    game = load_game(game_id, options)
    state = game.new_initial_state()
    for text in history:
        state.apply(text)
    return state


# -- rules pages -------------------------------------------------------------------------------
def rules_text(game_id: str) -> str | None:
    from importlib import resources

    try:
        path = resources.files("pocketarena") / "rulebook" / f"{game_id}.md"
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (FileNotFoundError, NotADirectoryError):
        return None


def rules_available(game_id: str) -> bool:
    return rules_text(game_id) is not None
