"""The perfect Stack-a-Cash bot: it plays from the exact solution (``pocketarena.solve``).

It wins whenever the position is won (by the fastest win), draws whenever it can draw, and
otherwise loses as slowly as possible; among equally good actions it picks at random (seeded).
Its evaluations are exact, which makes it the analyst of choice for Stack-a-Cash records.
"""

from __future__ import annotations

from typing import Any

from pocketarena.core import Action, Game, State

from .base import Bot
from .evaluation import ActionValue


class PerfectBot(Bot):
    """Plays Stack-a-Cash perfectly from the solved game (built on first use, then cached)."""

    name = "perfect"

    def __init__(self, game: Game, *, seed: int | str | None = None, **budget: Any) -> None:
        super().__init__(game, seed=seed, **budget)
        if game.ID != "stack-a-cash":
            raise ValueError(f"there is no perfect bot for {game.ID}: only Stack-a-Cash is solved")
        from pocketarena.solve.stack_a_cash import solve

        self.solution = solve(game.options["protect"], progress=False)

    def choose(self, state: State) -> Action:
        self.legal_decisions(state)
        return self.rng.choice(self.solution.best_actions(state))

    def action_values(self, state: State, *, include: str | None = None) -> list[ActionValue]:
        """Every legal action with its exact value for the mover (1 win, 0 draw, -1 loss),
        best first; faster wins and slower losses first within a value (so ``include`` is
        always there)."""
        self.legal_decisions(state)
        scored = self.solution.outcomes(state)
        scored.sort(key=lambda avp: (-avp[1], avp[2] if avp[1] > 0 else -avp[2]))
        return [ActionValue(action, float(value), None) for action, value, _ in scored]

    def state_value(self, state: State, seat: int) -> float:
        return float(self.solution.value(state, seat))
