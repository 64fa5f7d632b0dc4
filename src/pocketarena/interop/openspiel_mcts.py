"""OpenSpiel's own Python MCTS (``open_spiel.python.algorithms.mcts.MCTSBot`` with one random
rollout per leaf) as a Pocket Arena bot, through the OpenSpiel adapter: the reference our MCTS
is measured against (``pocketarena arena GAME --bots mcts:0.2s,openspiel-mcts:0.2s``).

Needs the ``rl`` extra (``pip install 'pocketarena[rl]'``). The bot sits here, above the bots
package, because it plays through the adapter; ``make_bot`` finds it through the entry point
``openspiel-mcts`` of group ``pocketarena.bots`` (pyproject.toml). OpenSpiel's bot counts simulations
only; for a time budget its search loop's ``range`` is swapped, for the duration of one move,
for one that stops at the deadline, so the algorithm itself is untouched.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Mapping
from typing import Any

from pocketarena.bots.base import Bot
from pocketarena.bots.registry import parse_budget
from pocketarena.core import Action, Game, State
from pocketarena.core.errors import Refusal, message

UCT_C = 2.0  # OpenSpiel's examples use 2 with returns in [-1, 1]


def spiel_parameters(game: Game) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters (dicts in the adapter's text form)."""
    from .openspiel import encode_mapping

    out: dict[str, Any] = {}
    for name, value in game.options.items():
        if value is None:
            continue  # the adapter's default stands for "none"
        out[name] = encode_mapping(value) if isinstance(value, Mapping) else value
    return out


class OpenSpielMCTSBot(Bot):
    """OpenSpiel's MCTSBot (UCT ``uct_c``, random rollouts, MCTS-solver on) playing our game
    through the adapter. Budget: ``iterations`` (simulations) and/or ``seconds``."""

    name = "openspiel-mcts"
    BUDGET = ("iterations", "seconds")

    def __init__(
        self, game: Game, *, seed: int | str | None = None, uct_c: float = UCT_C, **budget: Any
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        try:
            import numpy as np
            import pyspiel  # type: ignore[import-not-found]
            from open_spiel.python.algorithms import mcts  # type: ignore[import-untyped]

            from .openspiel import spiel_name
        except ImportError:
            raise Refusal("bot.needs-openspiel") from None
        iterations = budget.get("iterations")
        seconds = budget.get("seconds")
        if iterations is None and seconds is None:
            iterations = 1000
        self.seconds: float | None = float(seconds) if seconds is not None else None
        self.spiel_game = pyspiel.load_game(spiel_name(game.ID), spiel_parameters(game))
        numbers = self._numbers = np.random.RandomState(_numpy_seed(seed))
        self._mcts = mcts
        self.bot = mcts.MCTSBot(
            self.spiel_game,
            uct_c,
            iterations if iterations is not None else 1 << 40,
            mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numbers),
            random_state=numbers,
        )
        self.last_iterations = 0
        self.last_seconds = 0.0

    def reseed(self, seed: int | str | None) -> None:
        super().reseed(seed)
        self._numbers.seed(_numpy_seed(seed))  # the generator OpenSpiel's search and rollouts share

    def spiel_state(self, state: State) -> Any:
        """The OpenSpiel state with the same history as ``state``."""
        spiel = self.spiel_game.new_initial_state()
        for action in state.history:
            spiel.apply_action(action.id)
        return spiel

    def choose(self, state: State) -> Action:
        self.legal_decisions(state)
        spiel = self.spiel_state(state)
        start = time.perf_counter()
        deadline = start + self.seconds if self.seconds is not None else float("inf")
        count = [0]
        search_loop = self.bot.max_simulations

        def timed_range(n: int) -> Iterator[int]:
            # The rollout evaluator's own range(1) comes through here too: it runs in full,
            # and only the search loop's iterations are counted. Two simulations at least:
            # OpenSpiel's first one only evaluates the root, the second gives it children.
            i = 0
            while i < n and (i < 2 or n != search_loop or time.perf_counter() < deadline):
                if n == search_loop:
                    count[0] += 1
                yield i
                i += 1

        module = self._mcts
        module.range = timed_range  # shadows the builtin in OpenSpiel's mcts module only
        try:
            action_id = self.bot.step(spiel)
        finally:
            del module.range
        self.last_iterations = count[0]
        self.last_seconds = time.perf_counter() - start
        return self.game.actions[int(action_id)]


def _numpy_seed(seed: int | str | None) -> int:
    return random.Random(seed).randrange(2**32)


def make(game: Game, seed: int | str | None, argument: str | None) -> Bot:
    """The bot for ``openspiel-mcts[:N|:Ns]`` (N simulations, or N seconds a move)."""
    budget = parse_budget(
        "openspiel-mcts", argument, "iterations", message("bot.count.simulations"), 1000
    )
    return OpenSpielMCTSBot(game, seed=seed, **budget)
