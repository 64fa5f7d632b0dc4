"""Seeded sampling of chance outcomes. Nothing in the engine draws hidden randomness."""

from __future__ import annotations

import random
from collections.abc import Sequence

from .action import Action


def sample_outcome(outcomes: Sequence[tuple[Action, float]], rng: random.Random) -> Action:
    """Pick one outcome with its probability, using only ``rng`` (so a seed replays it)."""
    r = rng.random()
    acc = 0.0
    for action, probability in outcomes:
        acc += probability
        if r < acc:
            return action
    return outcomes[-1][0]


def outcome_from_unit(outcomes: Sequence[tuple[Action, float]], unit: float) -> Action:
    """The outcome whose cumulative-probability interval contains ``unit`` in [0, 1)."""
    if not 0.0 <= unit < 1.0:
        raise ValueError(f"unit must lie in [0, 1), got {unit}")
    acc = 0.0
    for action, probability in outcomes:
        acc += probability
        if unit < acc:
            return action
    return outcomes[-1][0]
