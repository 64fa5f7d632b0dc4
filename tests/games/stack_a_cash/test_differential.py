"""The engine against the plain reference model of reference.py, over thousands of seeded
random positions: same legal actions, same end, same winner and scores."""

from __future__ import annotations

import random
from collections import Counter

import pytest

import pocketarena as pa

from .reference import RefState


def _pick(state: pa.State, rng: random.Random, quiet: float, again: bool) -> pa.Action:
    """A random legal action; with probability ``quiet`` one that keeps the game going (and,
    with ``again``, preferably one back to a position seen before), so that long games,
    repetitions and the 200-ply limit are reached too."""
    legal = list(state.legal_actions())
    if rng.random() < quiet:
        rng.shuffle(legal)
        calm = [a for a in legal if state.child(a).winner() is None]
        if again:
            calm.sort(key=lambda a: -state.child(a).position()["repetitions"])
        if calm:
            return calm[0]
    return rng.choice(legal)


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_engine_matches_the_reference_model(protect: str) -> None:
    game = pa.load("stack-a-cash", protect=protect)
    endings: Counter[str] = Counter()
    positions = 0
    for seed in range(160):
        rng = random.Random(seed)
        quiet = (0.0, 0.9, 0.995, 0.8)[seed % 4]
        state = game.new_initial_state()
        ref = RefState.initial(protect)
        while True:
            positions += 1
            engine_legal = {a.text for a in state.legal_actions()}
            assert engine_legal == ref.legal(), (
                f"seed {seed} after {[a.text for a in state.history]}"
            )
            assert state.is_terminal() == (ref.result is not None)
            if state.is_terminal():
                break
            action = _pick(state, rng, quiet, again=seed % 4 == 3)
            state.apply(action)
            ref = ref.play(action.text)
        assert state.winner() == ref.winner()
        assert state.scores() == tuple(1.0 if ref.winner() == s else 0.0 for s in (0, 1))
        draw = state.position()["draw"]
        endings[
            "win" if ref.winner() is not None else ("repetition" if "third" in draw else "plies")
        ] += 1
    assert positions > 3000
    # Every way a game can end was exercised.
    assert endings["win"] and endings["repetition"] and endings["plies"], endings
