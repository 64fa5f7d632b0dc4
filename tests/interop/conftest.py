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


def assert_worded_in_every_language(error: Exception) -> None:
    """``error`` is refused as the engine refuses (a ``Refusal``: a message id and parameters,
    the English in ``str``), and each language's catalog words it."""
    from pocketarena import i18n
    from pocketarena.core.errors import SAID, Message
    from pocketarena.messages import speak

    said = getattr(error, "message", None)
    assert isinstance(said, Message) and said.id != SAID, error
    for code in i18n.LANGUAGES:
        with i18n.use_locale(code):
            worded = speak(said)
        assert worded and (worded == str(error)) == (code == i18n.DEFAULT), (code, worded)
