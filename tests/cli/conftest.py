"""Coin Race, the example game, is registered for every test here (see tests/example_games.py)."""

from tests.example_games import bare_race, coin_race  # noqa: F401
