"""The engine core: the contract every game fills in and every caller relies on."""

from .action import Action
from .chance import outcome_from_unit, sample_outcome
from .errors import IllegalActionError, NotationError, RecordError
from .game import Game, GameInfo, normalize_notation
from .options import Option, format_options, parse_option_pairs
from .perft import divide, perft
from .registry import GAMES, load, register
from .state import CHANCE, TERMINAL, State

__all__ = [
    "CHANCE",
    "GAMES",
    "TERMINAL",
    "Action",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "NotationError",
    "Option",
    "RecordError",
    "State",
    "load",
    "normalize_notation",
    "outcome_from_unit",
    "parse_option_pairs",
    "format_options",
    "perft",
    "divide",
    "register",
    "sample_outcome",
]
