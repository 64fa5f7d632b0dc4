"""Helpers for the research-interface tests: every game and VARIANT, and seeded playouts."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pocketarena as pa
from pocketarena.core import State
from tests.example_games import bare_race  # noqa: F401


def playout(game: pa.Game, seed: int) -> Iterator[State]:
    """Every state of one random game, the initial and the final one included."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    yield state
    while not state.is_terminal():
        state.apply_random(rng)
        yield state
