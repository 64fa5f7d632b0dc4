"""The engine against the plain reference model (reference.py), position by position over
thousands of seeded random positions on every map: the same legal actions, chance outcomes and
probabilities, whose turn, scores, end and winner."""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from pocketarena.games.coin_age import MAP_NAMES

from . import reference as ref

GAMES_PER_MAP = 300


def _compare(state: pa.State, model: ref.RefState) -> None:
    where = f"after {[a.text for a in state.history]}"
    assert state.current_player == model.current_player(), where
    assert sorted(a.text for a in state.legal_actions()) == sorted(model.legal()), where
    assert {a.text: p for a, p in state.chance_outcomes()} == pytest.approx(
        model.chance_outcomes()
    ), where
    assert list(state.scores()) == model.scores(), where
    assert state.is_terminal() == (model.phase == "over"), where
    assert state.winner() == model.winner(), where


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_engine_matches_reference_model(map_name: str) -> None:
    game = pa.load("coin-age", map=map_name)
    positions = 0
    endings = set()
    for seed in range(GAMES_PER_MAP):
        rng = random.Random(seed)
        state = game.new_initial_state()
        model = ref.RefState(ref.RefMap(map_name))
        _compare(state, model)
        while not state.is_terminal():
            action = state.apply_random(rng)
            model.apply(action.text)
            _compare(state, model)
            positions += 1
        endings.add(state.end_reason())
    assert positions > 4000
    assert endings >= {"board full", "bank empty"}


def test_reference_model_agrees_with_the_turn_limit() -> None:
    """Players who always end their turn at once reach the 200-turn guard in both models."""
    game = pa.load("coin-age")
    rng = random.Random(5)
    state = game.new_initial_state()
    model = ref.RefState(ref.RefMap("classic"))
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            action = state.apply_random(rng)
        else:
            action = game.action("end")
            state.apply(action)
        model.apply(action.text)
        _compare(state, model)
    assert state.end_reason() == "turn limit"
    assert state.turn == 200
