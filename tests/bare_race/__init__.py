"""Bare Race: Coin Race's rules and nothing else in its folder (no drawing, observation or
heuristic), to test how everything copes with a game that has only its rules yet."""

from tests.coin_race.rules import CoinRace


class BareRace(CoinRace):
    ID = "bare-race"
    TITLE = "Bare Race"


GAME = BareRace

__all__ = ["GAME", "BareRace"]
