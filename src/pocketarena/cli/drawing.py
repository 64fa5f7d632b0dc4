"""The game's own drawing (``games/<game>/render.py``, or a plain stand-in), for play and replay."""

from __future__ import annotations

from typing import Any

import pocketarena as pa
from pocketarena import render


def board(state: pa.State, last: pa.Action | None = None) -> Any:
    """The game's rich board, or the raw position when the game ships no drawing."""
    return render.rich_board(state, last=last)


def describe(game: pa.Game, action: pa.Action) -> str:
    """The game's sentence for an action or throw, to show beside its notation; empty when
    the game has none or it would only repeat the notation."""
    text = render.describe(game.ID, action)
    return "" if text == action.text else text
