"""The game's own drawing (``games/<game>/render.py``) with a plain fallback, for play and
replay."""

from __future__ import annotations

from typing import Any

import pocketarena as pa
from pocketarena import render


def board(state: pa.State, last: pa.Action | None = None, width: int | None = None) -> Any:
    """The game's rich board, or the raw position when the game ships no drawing, drawn for
    a terminal ``width`` columns wide (the console's by default): below 80 columns a game
    draws its compact form."""
    if width is None:
        from .common import console

        width = console.width
    return render.rich_board(state, last=last, width=width)


def describe(game: pa.Game, action: pa.Action, before: pa.State | None = None) -> str:
    """The game's sentence for an action or throw, to show beside its notation; empty when
    the game has none or it would only repeat the notation. ``before`` (the state the action
    is played in) lets a game name the mover and the places as players say them."""
    text = render.describe(game.ID, action, before)
    return "" if text == action.text else text


def read_move(state: pa.State, text: str) -> str:
    """A move as typed, in the game's notation (Coin Age: ``place Q 3`` by the map's numbers)."""
    return render.read_move(state, text)
