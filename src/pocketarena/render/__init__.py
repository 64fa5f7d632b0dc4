"""Drawing games, shared by the terminal, the web pages and the docs.

Each game draws itself in ``render.py`` in its folder (``games/flipwars/render.py``), which
offers:

- ``rich_board(state, last=None, width=80) -> rich renderable``: the terminal picture for a
  terminal ``width`` columns wide, a compact form below 80 (``width`` may be left out of the
  signature by a game whose picture fits 40 columns);
- ``svg_board(state, last=None) -> str``: a standalone SVG; every clickable place carries a
  ``data-place`` attribute with its notation name (``b2``, ``stone-rock``) so the web client
  can map clicks to notation;
- ``describe(action) -> str``: a short human sentence for an action or chance outcome
  (``describe(action, state=None)`` to name the mover and places from the state it is played
  in);
- optionally ``read_move(state, text) -> str``: a move typed with the picture's own labels
  (Coin Age's space numbers) in notation.

This module finds it (:func:`pocketarena.core.for_game`) and stands in for a game that has no
drawing yet: the position's facts as a card, and the notation for a description, so such a
game stays playable everywhere. Rules never import drawing; drawing imports rules freely.
"""

from __future__ import annotations

import functools
import html
import inspect
import json
from collections.abc import Callable
from typing import Any

from pocketarena.core import Action, Game, Message, State, for_game
from pocketarena.core.errors import SAID
from pocketarena.messages import speak


def rich_board(state: State, last: Action | None = None, width: int = 80) -> Any:
    """The game's terminal picture for a terminal ``width`` columns wide (its compact form
    below 80), or the raw position when the game has no drawing."""
    module = for_game(state.game.ID, "render")
    if module is None:
        # Only for a game without a drawing: rich.pretty brings attrs (40 ms at every start).
        from rich.panel import Panel
        from rich.pretty import Pretty

        return Panel(Pretty(state.position()), title=f"{state.game.TITLE} (no board drawing yet)")
    if "width" in inspect.signature(module.rich_board).parameters:
        return module.rich_board(state, last=last, width=width)
    return module.rich_board(state, last=last)


def svg_board(state: State, last: Action | None = None) -> str:
    """The game's SVG board, or a plain card with the position's main facts (every choice then
    appears as a button below it on the web page)."""
    module = for_game(state.game.ID, "render")
    if module is not None:
        return str(module.svg_board(state, last=last))
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


def describe(game_id: str, action: Action, before: State | None = None) -> str:
    """The game's sentence for an action or throw; its notation when the game has none.
    ``before``, the state the action is played in, lets a game whose ``describe`` takes a
    ``state`` name the mover and the places as players say them."""
    # A game's sentence is a message worded in the reader's language (or its own text).
    return speak(describe_message(game_id, action, before))


def describe_message(game_id: str, action: Action, before: State | None = None) -> Message:
    """What :func:`describe` says, as a message (a game's own text is said as it is), so it
    can be kept once and worded for each reader."""
    module = for_game(game_id, "render")
    if module is None:
        return Message(SAID, {"text": action.text})
    # A game's ``describe_message`` gives the message itself; its ``describe`` may word it.
    fn = getattr(module, "describe_message", None) or module.describe
    said = fn(action, state=before) if before is not None and _takes_state(fn) else fn(action)
    return said if isinstance(said, Message) else Message(SAID, {"text": str(said)})


@functools.cache
def _takes_state(describe_fn: Callable[..., Any]) -> bool:
    """Does a game's ``describe`` take the ``state``? Asked once per game: reading a
    signature costs more than describing a move, and every move is described."""
    return "state" in inspect.signature(describe_fn).parameters


def read_move(state: State, text: str) -> str:
    """A move as typed, in notation: a game whose picture numbers its places (Coin Age's
    map) offers ``read_move`` to read those numbers too (``place Q 3``)."""
    module = for_game(state.game.ID, "render")
    reader = getattr(module, "read_move", None)
    return text if reader is None else str(reader(state, text))


def place_names(game: Game) -> dict[str, str]:
    """The names a board shows for its places by notation id (``{"gentle-wood": "Gentle
    Wood"}``); empty for a game whose places are named by their notation (cells)."""
    module = for_game(game.ID, "render")
    names = getattr(module, "place_names", None)
    return {} if names is None else dict(names(game))


def has_svg(game_id: str) -> bool:
    """Does the game draw its own SVG board (rather than the stand-in card)?"""
    return for_game(game_id, "render") is not None
