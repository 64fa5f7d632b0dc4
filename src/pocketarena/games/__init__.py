"""One package per game: pure rules plus the game's data (maps, attack patterns).

Every subpackage registers its Game class on import; ``load_all`` imports them all, so adding a
game means adding a folder here and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil


def load_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            importlib.import_module(f"{__name__}.{module.name}")
