"""Coin Race: the example game of docs/contributing.md, laid out like every game of
``pocketarena/games/``. The tests register it (``tests/example_games.py``) so that the shared
machinery (records, matches, bots, the CLI, the server, the research adapters) is tested on a
game of its own as well as on the four real ones.
"""

from .rules import CoinRace, RaceState

GAME = CoinRace

__all__ = ["GAME", "CoinRace", "RaceState"]
