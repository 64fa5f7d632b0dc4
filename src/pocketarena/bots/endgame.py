"""A bot that hands FlipWars endgames to the exact solver.

While more than ``empty_cells`` cells are empty it asks its inner bot (MCTS at the ``hard``
level); from then on it plays the solver's move, which gets the best final margin of the round
against any defence (so it wins a won round, and draws a drawn one). Between rounds of a
tactical series (choosing the block and who starts) the inner bot decides.
"""

from __future__ import annotations

from typing import Any

from pocketarena.core import TERMINAL, Action, Game, State

from .base import Bot
from .evaluation import ActionValue


class EndgameBot(Bot):
    """``inner`` until few cells are empty, then the exact FlipWars endgame solver."""

    name = "endgame"

    def __init__(
        self,
        game: Game,
        inner: Bot,
        *,
        empty_cells: int,
        seed: int | str | None = None,
        **budget: Any,
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        if game.ID != "flipwars":
            raise ValueError(f"the endgame solver plays FlipWars, not {game.ID}")
        if empty_cells < 1:
            raise ValueError(f"empty_cells must be at least 1, got {empty_cells}")
        from pocketarena.games.flipwars import FlipWars

        from .flipwars_endgame import EndgameSolver

        assert isinstance(game, FlipWars)
        self.inner = inner
        self.empty_cells = empty_cells
        self.solver = EndgameSolver(game)
        self.solved_moves = 0  # moves the solver chose (for tests and reports)

    def in_endgame(self, state: State) -> bool:
        """Is this a placement with few enough empty cells for the solver?"""
        empty = getattr(state, "empty", None)
        if empty is None or state.current_player < 0:
            return False
        placing = all(a.verb == "place" for a in state.legal_actions())
        return placing and len(empty) <= self.empty_cells

    def choose(self, state: State) -> Action:
        self.legal_decisions(state)
        if not self.in_endgame(state):
            return self.inner.choose(state)
        _margin, action = self.solver.solve(state)
        self.solved_moves += 1
        return action

    def reset(self) -> None:
        self.inner.reset()

    def reseed(self, seed: int | str | None) -> None:
        super().reseed(seed)
        self.inner.reseed(seed)

    # -- analysis: exact where the solver plays, the inner bot's judgement elsewhere ----------
    def _exact(self, state: State) -> bool:
        """Exact values need the round to be the whole game (not a tactical series)."""
        return self.in_endgame(state) and not self.game.options.get("series", False)

    def action_values(self, state: State, *, include: str | None = None) -> list[ActionValue]:
        if not self._exact(state):
            return list(self.inner.action_values(state, include=include))  # type: ignore[attr-defined]
        mover = state.current_player
        out = []
        for action in state.legal_actions():
            child = state.pushed(action)
            out.append(ActionValue(action, self._child_value(child, mover), None))
        out.sort(key=lambda av: -av.value)
        return out

    def _child_value(self, child: State, seat: int) -> float:
        if child.current_player == TERMINAL:
            return child.returns()[seat]
        value = float(self.solver.sign(child))  # the round's result: won, drawn or lost
        return value if child.current_player == seat else -value

    def state_value(self, state: State, seat: int) -> float:
        if state.current_player == TERMINAL:
            return state.returns()[seat]
        if not self._exact(state):
            return float(self.inner.state_value(state, seat))  # type: ignore[attr-defined]
        return self._child_value(state, seat)
