"""Coin Age: slap your coins, then place, stack, move and capture to rule a tiny map.

>>> import pocketarena as pa
>>> state = pa.load("coin-age").new_initial_state()
>>> state.apply("slap Q:H N:H P:T D:T")
>>> state.apply("place Q stone-rock")
>>> state.apply("place N stone-rock")
>>> state.scores()
(14, 10)
"""

from .atlas import MAP_NAMES, CoinAgeMap, Region, Space, load_map
from .rules import (
    ALLOWANCE,
    COINS,
    MAX_TURNS,
    SLAP_ORDER,
    START_BANK,
    CoinAge,
    CoinAgeState,
    allowance_text,
    coin_text,
)

GAME = CoinAge

__all__ = [
    "GAME",
    "ALLOWANCE",
    "COINS",
    "MAP_NAMES",
    "MAX_TURNS",
    "SLAP_ORDER",
    "START_BANK",
    "CoinAge",
    "CoinAgeMap",
    "CoinAgeState",
    "Region",
    "Space",
    "allowance_text",
    "coin_text",
    "load_map",
]
