"""The game's own drawing (``render/<game>.py``) with a plain fallback, for play and replay."""

from __future__ import annotations

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


def describe(game: pa.Game, action: pa.Action) -> str:
    """The game's sentence for an action or throw, to show beside its notation; empty when
    the game has none or it would only repeat the notation."""
    try:
        module = render.module_for(game.ID)
    except ModuleNotFoundError:
        return ""
    text: str = module.describe(action)
    return "" if text == action.text else text
