"""Per-game position heuristics, one module per game (named after the id with underscores).

Each offers ``evaluate(state, seat) -> float`` in [-1, 1]: how good the position looks for
``seat`` (1 = won, -1 = lost). The greedy bot plays the action with the best immediate value;
search bots use it at their horizon.
"""

from __future__ import annotations

import importlib
from types import ModuleType


def module_for(game_id: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{game_id.replace('-', '_')}")
