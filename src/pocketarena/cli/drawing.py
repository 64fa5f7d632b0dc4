"""The game's own drawing (``render/<game>.py``) with a plain fallback, for play and replay."""

from __future__ import annotations

import inspect
from typing import Any

from rich.panel import Panel
from rich.pretty import Pretty

import pocketarena as pa
from pocketarena import render


def board(state: pa.State, last: pa.Action | None = None) -> Any:
    """The game's rich board, or the raw position when the game ships no renderer."""
    try:
        module = render.module_for(state.game.ID)
    except ModuleNotFoundError:
        return Panel(Pretty(state.position()), title=f"{state.game.TITLE} (no board drawing yet)")
    return module.rich_board(state, last=last)


def describe(game: pa.Game, action: pa.Action, before: pa.State | None = None) -> str:
    """The game's sentence for an action or throw, to show beside its notation; empty when
    the game has none or it would only repeat the notation. ``before`` (the state the action
    is played in) lets a game name the mover and the places as players say them."""
    try:
        module = render.module_for(game.ID)
    except ModuleNotFoundError:
        return ""
    takes_state = "state" in inspect.signature(module.describe).parameters
    text: str = (
        module.describe(action, before) if takes_state and before else module.describe(action)
    )
    return "" if text == action.text else text


def read_move(state: pa.State, text: str) -> str:
    """A move as typed, in the game's notation: a game whose picture numbers its places (Coin
    Age's map) reads those numbers too (``place Q 3``)."""
    try:
        module = render.module_for(state.game.ID)
    except ModuleNotFoundError:
        return text
    reader = getattr(module, "read_move", None)
    return text if reader is None else str(reader(state, text))
