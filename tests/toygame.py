"""A tiny game with chance for testing shared machinery (records, matches, the CLI) without
depending on any real game. It is registered only inside the tests that use it.

Coin Race: each turn starts with a coin flip; then the mover adds 1 or 2 to their total, or 3
after heads. The first to 10 or more wins.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.core import CHANCE, TERMINAL, Action, IllegalActionError, registry


class CoinRace(pa.Game):
    ID = "coin-race"
    TITLE = "Coin Race"
    SEATS = ("Heads", "Tails")
    CHANCE = True
    OPTIONS = (pa.Option("goal", int, 10, "points to reach"),)

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        decisions = [Action(i, f"add {i + 1}", "add", (i + 1,)) for i in range(3)]
        outcomes = [
            Action(3, "flip H", "flip", ("H",), True),
            Action(4, "flip T", "flip", ("T",), True),
        ]
        return decisions, outcomes

    def _max_game_length(self) -> int:
        # Each turn (a flip and a decision) adds at least 1 to somebody's total.
        return 4 * int(self.options["goal"])

    def new_initial_state(self) -> RaceState:
        return RaceState(self)


class RaceState(pa.State):
    __slots__ = ("totals", "mover", "heads")

    def __init__(self, game: pa.Game) -> None:
        super().__init__(game)
        self.totals = [0, 0]
        self.mover = 0
        self.heads = False
        self.current_player = CHANCE

    def _legal_actions(self) -> Sequence[Action]:
        return self.game.decisions[: 3 if self.heads else 2]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(a, 0.5) for a in self.game.chance_actions]

    def _apply(self, action: Action) -> None:
        if action.chance:
            self.heads = action.args[0] == "H"
            self.current_player = self.mover
            return
        if action.args[0] == 3 and not self.heads:
            raise IllegalActionError("add 3 needs heads on this turn's flip")
        self.totals[self.mover] += action.args[0]
        if self.totals[self.mover] >= self.game.options["goal"]:
            self.current_player = TERMINAL
        else:
            self.mover = 1 - self.mover
            self.current_player = CHANCE

    def _copy(self) -> RaceState:
        c = RaceState.__new__(RaceState)
        c.game = self.game
        c.totals = self.totals.copy()
        c.mover = self.mover
        c.heads = self.heads
        c.current_player = self.current_player
        return c

    def scores(self) -> tuple[float, float]:
        return (float(self.totals[0]), float(self.totals[1]))

    def position(self) -> dict[str, Any]:
        return {"totals": list(self.totals), "mover": self.mover, "heads": self.heads}


@pytest.fixture(autouse=True)
def coin_race(monkeypatch: pytest.MonkeyPatch) -> pa.Game:
    """Coin Race, registered for the duration of each test of a folder whose conftest imports
    this fixture (so other suites never see it)."""
    monkeypatch.setitem(registry._GAMES, CoinRace.ID, CoinRace)
    return pa.load(CoinRace.ID)
