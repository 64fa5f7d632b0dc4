"""The engine core: the contract every game fills in and every caller relies on."""

from .action import Action
from .chance import ChanceSource, SeededChance, fresh_seed, outcome_from_unit, sample_outcome
from .errors import (
    ActionError,
    IllegalActionError,
    Message,
    NotationError,
    RecordError,
    UnreadableActionError,
    message,
)
from .game import Game, GameInfo, normalize_notation
from .options import Option, format_options, parse_option_pairs
from .perft import divide, perft
from .placements import Placements
from .registry import (
    GAMES,
    KINDS,
    Kind,
    for_game,
    game_class,
    load,
    load_shared,
    needs_seed,
    normalize_game_id,
    recorded_options,
    register,
    unregister,
    with_seed,
)
from .state import CHANCE, TERMINAL, State
from .words import and_list, comma_list, or_list, possessive, seat_name, seat_of

__all__ = [
    "ActionError",
    "Message",
    "UnreadableActionError",
    "and_list",
    "comma_list",
    "message",
    "or_list",
    "seat_name",
    "seat_of",
    "CHANCE",
    "GAMES",
    "KINDS",
    "TERMINAL",
    "Action",
    "ChanceSource",
    "Game",
    "GameInfo",
    "IllegalActionError",
    "Kind",
    "NotationError",
    "Option",
    "Placements",
    "RecordError",
    "SeededChance",
    "State",
    "divide",
    "for_game",
    "fresh_seed",
    "game_class",
    "load",
    "load_shared",
    "needs_seed",
    "normalize_game_id",
    "normalize_notation",
    "outcome_from_unit",
    "parse_option_pairs",
    "format_options",
    "perft",
    "possessive",
    "recorded_options",
    "register",
    "sample_outcome",
    "unregister",
    "with_seed",
]
