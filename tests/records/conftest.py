"""Coin Race, a toy game with chance, is registered for every test here (see tests/toygame.py)."""

from tests.toygame import coin_race  # noqa: F401
