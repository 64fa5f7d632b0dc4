"""Coin Race's rules: each turn starts with a coin flip; then the mover adds 1 or 2 to their
total, or 3 after heads. The first to reach the goal (10 unless the ``goal`` option says
otherwise) wins.

A game is a Game class (what the game is, as data, and its table of actions) and a State class
(a position and the hooks the engine calls). The engine does the rest: notation, illegal
actions refused with the state unchanged, history, JSON, chance nodes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pocketarena.core import CHANCE, TERMINAL, Action, Game, Option, State


def _at_least_one(goal: int) -> str | None:
    return None if goal >= 1 else "must be at least 1"


class CoinRace(Game):
    ID = "coin-race"  # lowercase words joined by hyphens; the folder is the id with underscores
    TITLE = "Coin Race"
    SEATS = ("Heads", "Tails")  # seat 0 moves first
    CHANCE = True  # the game has chance nodes (the flip)
    PITCH = "Flip, then run 1, 2 or (after heads) 3 steps: first to the goal wins."
    OPTIONS = (Option("goal", int, 10, "points to reach", check=_at_least_one),)
    VARIANTS = ({}, {"goal": 3})  # the option sets the conformance suite plays

    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        # Every decision, then every chance outcome, with ids 0, 1, 2... in that order: the ids
        # are what bots, records and the research adapters exchange.
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


class RaceState(State):
    __slots__ = ("totals", "mover", "heads")

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.totals = [0, 0]
        self.mover = 0
        self.heads = False
        self.current_player = CHANCE  # a turn starts with the flip

    def _legal_actions(self) -> Sequence[Action]:
        return self.game.decisions[: 3 if self.heads else 2]

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(a, 0.5) for a in self.game.chance_actions]

    def _apply(self, action: Action) -> None:
        # Only legal actions come here: State.apply checks them against _legal_actions.
        if action.chance:
            self.heads = action.args[0] == "H"
            self.current_player = self.mover
            return
        self.totals[self.mover] += action.args[0]
        if self.totals[self.mover] >= self.game.options["goal"]:
            self.current_player = TERMINAL
        else:
            self.mover = 1 - self.mover
            self.current_player = CHANCE

    def _why_illegal(self, action: Action) -> str:
        # Asked only for an action _legal_actions left out: here, add 3 after tails.
        return "add 3 needs heads on this turn's flip"

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

    def __str__(self) -> str:
        a, b = self.totals
        return f"Heads {a} · Tails {b} (goal {self.game.options['goal']})"
