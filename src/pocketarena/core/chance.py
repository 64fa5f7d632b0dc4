"""Chance, always explicit: outcomes sampled from a seeded generator, chance sources that
derive every throw from a seed, and fresh seeds for callers that were given none.

Nothing in the rules draws randomness: a chance node lists its outcomes with their
probabilities, and whoever runs the game (a match, the server, an adapter) picks one.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from .action import Action

SEED_BITS = 31  # fits every integer option and OpenSpiel's 32-bit parameters


def fresh_seed() -> int:
    """A new seed, for a caller that was given none (it then keeps it: in the record, in the
    game's options). The only place Pocket Arena draws unseeded randomness for a game."""
    return secrets.randbits(SEED_BITS)


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


class ChanceNode(Protocol):
    """What a chance source reads of a state (every ``State`` is one): whether it is at a chance
    node, its outcomes, and how many actions led to it. (A protocol, so that this module needs
    nothing of ``state``, which samples with it.)"""

    @property
    def ply(self) -> int: ...

    def is_chance_node(self) -> bool: ...

    def chance_outcomes(self) -> list[tuple[Action, float]]: ...


@runtime_checkable
class ChanceSource(Protocol):
    """Where a chance node's outcome comes from. ``state`` is at a chance node."""

    def outcome(self, state: ChanceNode) -> Action: ...


class SeededChance:
    """Throws derived from (seed, ply) only: the same state always gets the same throw, so
    taking moves back and playing them again throws the same coins, and a record that keeps
    the seed replays bit for bit. The server's fair coins follow the same protocol."""

    def __init__(self, seed: int | str) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise TypeError(f"a seed is an integer or text, got {seed!r}")
        self.seed = seed

    def outcome(self, state: ChanceNode) -> Action:
        if not state.is_chance_node():
            raise ValueError(f"no coins to throw: {state!r} is not at a chance node")
        # A string seed goes through SHA-512 in random.Random, so it is stable across runs
        # and Python processes (unlike hash()).
        return sample_outcome(state.chance_outcomes(), random.Random(f"{self.seed}:{state.ply}"))

    def __repr__(self) -> str:
        return f"SeededChance({self.seed!r})"
