"""What the search bots share: judging a position at the search horizon, keys for
transposition tables, and the protocol a bot follows to explain its choice (for analysis).

Values are always in [-1, 1] from one seat's view: 1 a won game, -1 a lost one, 0 a draw or
an even position. The *expected score* of a value is ``(value + 1) / 2`` (1 win, 1/2 draw).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from pocketarena.core import TERMINAL, Action, Game, State, for_game

Evaluate = Callable[[State, int], float]


def heuristic_for(game: Game) -> Evaluate | None:
    """The game's own heuristic ``evaluate(state, seat)`` (``heuristics.py`` in its folder), or
    None when it has none."""
    module = for_game(game.ID, "heuristics")
    if module is None:
        return None
    evaluate: Evaluate = module.evaluate
    return evaluate


def score_margin(state: State, seat: int) -> float:
    """A fallback judgement for games without a heuristic: the lead in points so far, relative
    to the points on the table, squashed into (-1, 1)."""
    scores = state.scores()
    mine, theirs = scores[seat], scores[1 - seat]
    return math.tanh(2.0 * (mine - theirs) / (abs(mine) + abs(theirs) + 1.0))


def leaf_evaluation(game: Game) -> Evaluate:
    """How search bots judge a state they stop at: the exact result once the game is over,
    otherwise the game's heuristic (or the score margin if it has none), clamped to [-1, 1]."""
    guess = heuristic_for(game) or score_margin

    def evaluate(state: State, seat: int) -> float:
        if state.current_player == TERMINAL:
            return state.returns()[seat]
        value = guess(state, seat)
        return -1.0 if value < -1.0 else 1.0 if value > 1.0 else value

    return evaluate


def expected_score(value: float) -> float:
    """A value in [-1, 1] as an expected score in [0, 1] (win 1, draw 1/2, loss 0)."""
    return (value + 1.0) / 2.0


def position_key(state: State) -> Hashable:
    """A hashable key for the position a state is in, history left out: two states with equal
    keys have the same future. A game's heuristics (``heuristics.py`` in its folder) may define its own
    ``position_key`` (to merge positions its rules cannot tell apart); otherwise the key is
    the state's own ``position_key()``, so transpositions (the same coins placed in another
    order) share a key."""
    kind = type(state)
    if kind not in _OWN_KEYS:
        module = for_game(state.game.ID, "heuristics")
        _OWN_KEYS[kind] = getattr(module, "position_key", None) if module is not None else None
    own = _OWN_KEYS[kind]
    return own(state) if own is not None else state.position_key()


# Per state class: its game's own key function, or None for the generic one.
_OWN_KEYS: dict[type, Callable[[State], Hashable] | None] = {}


@dataclass(frozen=True)
class ActionValue:
    """A searched action: its value for the mover, and how much evidence stands behind it
    (simulations for MCTS, the depth for expectimax, ``None`` for an exact value)."""

    action: Action
    value: float
    support: int | None = None


@runtime_checkable
class Analyst(Protocol):
    """A bot that can explain itself: the value of each action it looked at (best first) and
    the value of any state for a seat. The analysis command asks the strongest bot this.

    ``include`` names an action (notation) that must be among the values, measured as well as
    the best one, from the same search: the move a player chose, to be judged beside the
    bot's choice."""

    def action_values(
        self, state: State, *, include: str | None = None
    ) -> Sequence[ActionValue]: ...

    def state_value(self, state: State, seat: int) -> float: ...
