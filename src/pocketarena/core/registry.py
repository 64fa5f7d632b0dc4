"""Games register themselves by id; ``load`` finds them with options."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, TypeVar

from .game import Game

_GAMES: dict[str, type[Game]] = {}
GAMES = MappingProxyType(_GAMES)  # id -> Game class, read-only

G = TypeVar("G", bound=type[Game])


def register(cls: G) -> G:
    """Class decorator: make a Game findable by ``pa.load(cls.ID)``."""
    if cls.ID in _GAMES and _GAMES[cls.ID] is not cls:
        raise ValueError(f"a game with id {cls.ID!r} is already registered")
    _GAMES[cls.ID] = cls
    return cls


def load(game_id: str, **options: Any) -> Game:
    """The game ``game_id`` with ``options``; unknown ids or options raise ValueError naming
    the valid ones."""
    key = str(game_id).strip().lower().replace("_", "-")
    cls = _GAMES.get(key)
    if cls is None:
        raise ValueError(f"unknown game {game_id!r}; valid games: {', '.join(sorted(_GAMES))}")
    return cls(**options)


def recorded_options(game_id: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The options a stored game of ``game_id`` (a record, a saved game) was played with: the
    ones it names, and for an option it predates, the value every game had then. Unknown
    games keep their options as given (loading them says what is wrong)."""
    cls = _GAMES.get(str(game_id).strip().lower().replace("_", "-"))
    return dict(options) if cls is None else cls.recorded_options(options)
