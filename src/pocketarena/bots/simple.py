"""The simple bots: uniformly random, and greedy (best immediate gain by the game's heuristic)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pocketarena.core import Action, Game, State

from .base import Bot
from .evaluation import heuristic_for

# Values closer than this are a tie (heuristics are sums of floats).
_TIE = 1e-9


class RandomBot(Bot):
    """Plays a uniformly random legal decision."""

    name = "random"

    def choose(self, state: State) -> Action:
        return self.rng.choice(self.legal_decisions(state))


class GreedyBot(Bot):
    """Plays the decision whose resulting state looks best for the mover, one ply deep.

    A decision that ends the game is worth its result (+1 won, 0 drawn, -1 lost); otherwise
    the game's heuristic ``evaluate(state, seat)`` judges the state it leads to, even when
    that state waits for coins to be thrown. Ties are broken by the bot's own rng.
    """

    name = "greedy"

    def __init__(self, game: Game, *, seed: int | str | None = None, **budget: Any) -> None:
        super().__init__(game, seed=seed, **budget)
        evaluate = heuristic_for(game)
        if evaluate is None:
            raise ValueError(f"the greedy bot needs a heuristic for {game.ID}, and there is none")
        self.evaluate: Callable[[State, int], float] = evaluate

    def value(self, state: State, seat: int) -> float:
        if state.is_terminal():
            return state.returns()[seat]
        return self.evaluate(state, seat)

    def choose(self, state: State) -> Action:
        legal = self.legal_decisions(state)
        seat = state.current_player
        best: list[Action] = []
        best_value = float("-inf")
        for action in legal:
            value = self.value(state.pushed(action), seat)
            if value > best_value + _TIE:
                best, best_value = [action], value
            elif value >= best_value - _TIE:
                best.append(action)
        return self.rng.choice(best)
