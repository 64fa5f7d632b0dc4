"""FlipWars: place a tile, flip every tile it attacks (even your own); most tiles of your colour
wins. Modes standard, enclosed, flag (Capture the Flag) and tactical (a series with the block).
"""

from pocketarena.core import Placements

from .modes import MODES, SERIES_MAX_ROUNDS, SERIES_TARGET, Mode
from .rules import FlipWars, FlipWarsState
from .tiles import COLOURS, FLAG, KIND_BY_NAME, KINDS, TileKind, rotate

GAME = FlipWars

__all__ = [
    "GAME",
    "COLOURS",
    "FLAG",
    "KINDS",
    "KIND_BY_NAME",
    "MODES",
    "SERIES_MAX_ROUNDS",
    "SERIES_TARGET",
    "FlipWars",
    "FlipWarsState",
    "Mode",
    "Placements",
    "TileKind",
    "rotate",
]
