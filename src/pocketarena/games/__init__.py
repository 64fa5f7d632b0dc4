"""One folder per game, all laid out alike::

    games/<name>/
        __init__.py    names the game (GAME = TheGame) and what it offers to import
        rules.py       the Game and State classes: pure rules, no drawing, no bots
        ...            the game's data beside them (maps, attack patterns, bit tables)
        render.py      drawing for the terminal, the web and the docs   (optional)
        observe.py     the observation tensor for learning              (optional)
        heuristics.py  how good a position looks, for the bots          (optional)

``load_all`` registers every folder's ``GAME``; the optional parts are found by
:func:`pocketarena.core.for_game` when someone asks for them, and the rules never import them.
Adding a game means adding a folder here (docs/contributing.md walks through one).
"""

from __future__ import annotations

import importlib
import pkgutil

from pocketarena.core.game import Game
from pocketarena.core.registry import register


def load_all() -> None:
    for module in pkgutil.iter_modules(__path__):
        if module.ispkg:
            package = importlib.import_module(f"{__name__}.{module.name}")
            game = getattr(package, "GAME", None)
            if not (isinstance(game, type) and issubclass(game, Game)):
                raise TypeError(f"{package.__name__} must name its Game class as GAME")
            register(game)
