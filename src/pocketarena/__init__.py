"""Pocket Arena: play, solve and study pocket-change micro board games.

>>> import pocketarena as pa
>>> game = pa.load("stack-a-cash")
>>> state = game.new_initial_state()
>>> state.apply("place L b2")
>>> str(state.history[-1])
'place L b2'
"""

from .core import (
    CHANCE,
    GAMES,
    TERMINAL,
    Action,
    ActionError,
    Game,
    GameInfo,
    IllegalActionError,
    NotationError,
    Option,
    RecordError,
    State,
    load,
    sample_outcome,
)
from .games import load_all as _load_all_games
from .messages import render as _render  # noqa: F401  (installs the English wording)

_load_all_games()

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "Action",
    "ActionError",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "Option",
    "RecordError",
    "State",
    "load",
    "sample_outcome",
]
