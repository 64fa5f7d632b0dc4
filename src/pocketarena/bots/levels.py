"""Playing levels (``easy``, ``medium``, ``hard``, ``perfect``) and the per-game search settings.

A level is a recipe per game: which method and with what budget. The settings were chosen by
matches between candidates (see docs/benchmarks.md): ``hard`` is the strongest method we have
for the game that still thinks at most about 2 seconds a move on a laptop core, ``medium``
a fraction of a second, ``easy`` plays fast with a visible lack of foresight. ``perfect`` exists
where the game is solved.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from pocketarena.core import Game
from pocketarena.core.errors import Refusal

from .base import Bot

LEVEL_NAMES = ("easy", "medium", "hard", "perfect")

# MCTS knobs per game (``mcts:N`` and every MCTS-based level use them). Values are in [-1, 1],
# so ``c`` is about half of the usual UCT constant for rewards in [0, 1] when rollouts decide
# games; the chance games' heuristics give small differences between moves, hence smaller c.
TUNING: dict[str, dict[str, Any]] = {
    "stack-a-cash": {"c": 1.0, "rollout_depth": 2},
    "coin-age": {"c": 0.3, "rollout_depth": 3, "settle": True},
    "wallet-battles": {"c": 0.3, "rollout_depth": 0},
    "flipwars": {
        "c": 0.5,
        "rollout_depth": 4,
        "widen": 24,
        "widen_k": 3.0,
        "widen_alpha": 0.5,
        "order_visits": 8,
        "prior_weight": 0.5,
    },
}


def mcts_settings(game: Game) -> dict[str, Any]:
    """The tuned MCTS knobs for ``game`` (none for a game we have not tuned)."""
    return dict(TUNING.get(game.ID, {}))


@dataclass(frozen=True)
class Level:
    """How a level plays one game: a method (``mcts``, ``expectimax``, ``greedy``,
    ``perfect``), its budget and knobs, and (FlipWars) when the endgame solver takes over."""

    method: str
    settings: dict[str, Any] = field(default_factory=dict)
    # Empty cells at or below which the exact endgame solver plays, per FlipWars mode ("*":
    # any other mode); empty: never.
    endgame: dict[str, int] = field(default_factory=dict)

    def endgame_cells(self, game: Game) -> int:
        mode = str(game.options.get("mode", ""))
        return self.endgame.get(mode, self.endgame.get("*", 0))

    def describe(self, game: Game | None = None) -> str:
        budget = ", ".join(f"{k}={v}" for k, v in self.settings.items())
        text = f"{self.method}({budget})" if budget else self.method
        cells = (
            self.endgame_cells(game) if game is not None else max(self.endgame.values(), default=0)
        )
        if cells:
            text += f" + exact endgame from {cells} empty cells"
        return text


# Games not listed (new ones, test games) get these.
DEFAULT_LEVELS: dict[str, Level] = {
    "easy": Level("mcts", {"iterations": 60}),
    "medium": Level("mcts", {"seconds": 0.3}),
    "hard": Level("mcts", {"seconds": 1.5}),
}

LEVELS: dict[str, dict[str, Level]] = {
    "stack-a-cash": {
        "easy": Level("mcts", {"iterations": 60}),
        "medium": Level("mcts", {"seconds": 0.3}),
        "hard": Level("mcts", {"seconds": 1.5}),
        "perfect": Level("perfect"),
    },
    "coin-age": {
        "easy": Level("mcts", {"iterations": 60}),
        "medium": Level("greedy"),
        "hard": Level("mcts", {"seconds": 1.5}),
    },
    "wallet-battles": {
        "easy": Level("mcts", {"iterations": 60}),
        "medium": Level("expectimax", {"depth": 2}),
        "hard": Level("expectimax", {"seconds": 1.5}),
    },
    "flipwars": {
        "easy": Level("mcts", {"iterations": 60}),
        "medium": Level("mcts", {"seconds": 0.3}),
        # The solver takes about 0.1 s at 6 empty cells of a 5x5 board (up to 2 s at 7) and
        # 0.4 s at 8 of the 4x4 board (benchmarks/bots.py measures it).
        "hard": Level("mcts", {"seconds": 1.5}, endgame={"enclosed": 8, "*": 6}),
    },
}


# Clock budgets as counts, for a search whose result must not depend on the machine or its
# load (``analyze``: the same record and seed give the same judgement): about what one laptop
# core does in that time with the tuned settings (docs/benchmarks.md measures the rates).
SIMULATIONS_PER_SECOND = {"stack-a-cash": 8000, "coin-age": 8000, "wallet-battles": 12000}
DEFAULT_SIMULATIONS_PER_SECOND = 1000  # FlipWars (wide nodes, ordered by the heuristic), others
# The alphazero bot's search with the shipped network (three layers of 512): 27-33 ms of CPU a
# move for 256 simulations, twice the two layers of 256 shipped before (docs/research.md).
ALPHAZERO_SIMULATIONS_PER_SECOND = 8000


def counted(game: Game, method: str, settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with a thinking time replaced by a count worth about as much: simulations
    for MCTS and the alphazero bot's search, turns deep for expectimax (depth 2 takes a
    fraction of a second, depth 3 many seconds)."""
    seconds = settings.get("seconds")
    if seconds is None:
        return dict(settings)
    out = {k: v for k, v in settings.items() if k != "seconds"}
    if method == "expectimax":
        out.setdefault("depth", 1 if seconds < 0.1 else 2 if seconds < 10 else 3)
    elif method == "alphazero":
        out.setdefault("simulations", max(1, round(seconds * ALPHAZERO_SIMULATIONS_PER_SECOND)))
    else:
        rate = SIMULATIONS_PER_SECOND.get(game.ID, DEFAULT_SIMULATIONS_PER_SECOND)
        out.setdefault("iterations", max(1, round(seconds * rate)))
    return out


def levels_for(game: Game) -> dict[str, Level]:
    return LEVELS.get(game.ID, DEFAULT_LEVELS)


def make_level(
    game: Game,
    level: str,
    seed: int | str | None,
    *,
    seconds: float | None = None,
    reproducible: bool = False,
) -> Bot:
    """The bot playing ``level`` at ``game``; ValueError names the levels the game has.
    ``seconds`` replaces the level's thinking time (for levels that think against a clock);
    ``reproducible`` counts instead of timing (``counted``), so the same seed plays the same."""
    levels = levels_for(game)
    recipe = levels.get(level)
    if recipe is None:
        have = ", ".join(name for name in LEVEL_NAMES if name in levels)
        if level == "perfect":
            raise Refusal("bot.not-solved", game=game.ID, levels=have)
        raise Refusal("bot.no-level", game=game.ID, level=level, levels=have)
    name = level
    if seconds is not None:
        if "seconds" not in recipe.settings:
            raise Refusal(
                "bot.level-untimed", game=game.ID, level=level, recipe=recipe.describe(game)
            )
        recipe = replace(recipe, settings={**recipe.settings, "seconds": seconds})
        name = f"{level}:{seconds:g}s"
    if reproducible:
        recipe = replace(recipe, settings=counted(game, recipe.method, recipe.settings))
    return build(game, recipe, seed, name=name)


def build(game: Game, recipe: Level, seed: int | str | None, *, name: str | None = None) -> Bot:
    """The bot a recipe describes."""
    maker = _METHODS[recipe.method]
    bot = maker(game, seed, recipe.settings)
    cells = recipe.endgame_cells(game)
    if cells:
        from .endgame import EndgameBot

        bot = EndgameBot(game, bot, empty_cells=cells, seed=seed)
    if name is not None:
        bot.name = name  # type: ignore[misc]  # shown in records and the arena
    return bot


def _mcts(game: Game, seed: int | str | None, settings: dict[str, Any]) -> Bot:
    from .mcts import MCTSBot

    return MCTSBot(game, seed=seed, **mcts_settings(game), **settings)


def _expectimax(game: Game, seed: int | str | None, settings: dict[str, Any]) -> Bot:
    from .expectimax import ExpectimaxBot

    return ExpectimaxBot(game, seed=seed, **settings)


def _greedy(game: Game, seed: int | str | None, settings: dict[str, Any]) -> Bot:
    from .simple import GreedyBot

    return GreedyBot(game, seed=seed, **settings)


def _perfect(game: Game, seed: int | str | None, settings: dict[str, Any]) -> Bot:
    from .perfect import PerfectBot

    return PerfectBot(game, seed=seed, **settings)


_METHODS: dict[str, Callable[[Game, int | str | None, dict[str, Any]], Bot]] = {
    "mcts": _mcts,
    "expectimax": _expectimax,
    "greedy": _greedy,
    "perfect": _perfect,
}
