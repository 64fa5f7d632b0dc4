"""Wallet Battles (``wallet-battles``): flip for the right to act, then place, stack and capture
coins on the locations of a Civil War battlefield (Gettysburg or Antietam)."""

from .rules import (
    COIN_NAMES,
    COINS,
    FLIP_LIMIT,
    MAPS,
    BattleMap,
    Location,
    WalletBattles,
    WalletBattlesState,
    flip_seat,
    load_map,
    location_names,
)

GAME = WalletBattles

__all__ = [
    "GAME",
    "COINS",
    "COIN_NAMES",
    "FLIP_LIMIT",
    "MAPS",
    "BattleMap",
    "Location",
    "WalletBattles",
    "WalletBattlesState",
    "flip_seat",
    "load_map",
    "location_names",
]
