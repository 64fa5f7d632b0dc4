"""The engine against the reference model of tests/games/flipwars/reference.py over thousands of
seeded random positions in every variant: same legal notation, same player to move, same
colours on every cell, same scores, end and winner."""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from tests.games.flipwars.reference import Reference

VARIANTS = [
    ("standard", True),
    ("enclosed", True),
    ("flag", True),
    ("tactical", True),
    ("tactical", False),
]
POSITIONS = 2000  # per variant


def _compare(state: pa.State, ref: Reference, expected: set[str], rng: random.Random) -> None:
    assert state.current_player == ref.current_player()
    legal = state.legal_actions()
    texts = [a.text for a in legal]
    assert len(legal) == len(texts) == len(expected)
    assert set(texts) == expected
    cells = state.position()["cells"]
    assert {c: t["colour"] for c, t in cells.items() if t is not None} == ref.colours()
    assert tuple(state.scores()) == ref.scores()
    assert state.is_terminal() == ref.over
    assert state.winner() == ref.winner()
    # A few table actions: listed exactly when the reference allows them, refused otherwise.
    for action in rng.sample(state.game.actions, 4):
        assert (action in legal) == (action.text in expected)
        if action.text not in expected:
            with pytest.raises(pa.IllegalActionError):
                state.clone().apply(action)


@pytest.mark.parametrize(("mode", "series"), VARIANTS)
def test_engine_matches_reference(mode: str, series: bool) -> None:
    game = pa.load("flipwars", mode=mode, series=series)
    seen = 0
    seed = 0
    while seen < POSITIONS:
        rng = random.Random(seed)
        state = game.new_initial_state()
        ref = Reference(mode, series)
        while True:
            expected = ref.legal()
            _compare(state, ref, expected, rng)
            seen += 1
            if ref.over:
                break
            move = rng.choice(sorted(expected))
            state.apply(move)
            ref.apply(move)
        seed += 1
    assert seen >= POSITIONS
