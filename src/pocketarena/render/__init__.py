"""Drawing games, shared by the terminal, the web pages and the docs.

One module per game, named after the game id with underscores (``render/flipwars.py``), offers:

- ``rich_board(state, last=None) -> rich renderable``: the terminal picture;
- ``svg_board(state, last=None) -> str``: a standalone SVG; every clickable place carries a
  ``data-place`` attribute with its notation name (``b2``, ``stone-rock``) so the web client
  can map clicks to notation;
- ``describe(action) -> str``: a short human sentence for an action or chance outcome.

Rules never import this package; this package imports rules freely.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from pocketarena.core import Action, State


def module_for(game_id: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")


def rich_board(state: State, last: Action | None = None) -> Any:
    return module_for(state.game.ID).rich_board(state, last=last)


def svg_board(state: State, last: Action | None = None) -> str:
    result: str = module_for(state.game.ID).svg_board(state, last=last)
    return result


def describe(game_id: str, action: Action) -> str:
    result: str = module_for(game_id).describe(action)
    return result
