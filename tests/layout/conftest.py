"""The example games, for the tests of how a game is added (see tests/example_games.py)."""

from tests.example_games import bare_race, coin_race  # noqa: F401
