"""FlipWars in JAX against the scalar engine, every mode (Tactical War as a series and as one
round): 200 random batched playouts per mode (1,000 in all), every game compared after every
step (legal mask, player to move, rewards, termination, the observation and the converted
state; the round trip through ``from_engine`` on a rotating sample: see
``tests/vector/engine_check.py``)."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pytest

import pocketarena as pa
from tests.vector.harness import check_illegal_and_finished, playouts, require_jax

require_jax()

import jax  # noqa: E402

import pocketarena.vector as pv  # noqa: E402
from tests.vector.engine_check import Single  # noqa: E402

VARIANTS = [dict(v) for v in pa.GAMES["flipwars"].VARIANTS]
GAMES = 200  # per mode


def label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in options.items())


@functools.cache
def env_for(text: str) -> Any:
    options = next(v for v in VARIANTS if label(v) == text)
    return pv.make("flipwars", **options)


@pytest.mark.parametrize("options", VARIANTS, ids=label)
def test_random_playouts_match_the_engine(options: dict[str, Any]) -> None:
    env = env_for(label(options))
    game = pa.load("flipwars", **options)
    endings = playouts(env, game, n_games=GAMES, seed=11)
    assert sum(endings.values()) == GAMES


def test_every_action_id_is_openspiel_s() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import pocketarena.interop.openspiel  # noqa: F401

    for options in VARIANTS:
        env = env_for(label(options))
        params = ",".join(f"{k}={str(v).lower()}" for k, v in options.items())
        spiel = pyspiel.load_game(f"pocketarena_flipwars({params})")
        assert spiel.num_distinct_actions() == env.num_actions
        state = spiel.new_initial_state()
        texts = [state.action_to_string(0, a) for a in range(env.num_actions)]
        assert texts == [a.text for a in env.game.decisions]


def test_a_series_round_ends_with_the_loser_choosing() -> None:
    env = env_for("mode=tactical")
    single = Single(env, GAMES)
    step = single.step
    game = env.game
    engine = game.new_initial_state()
    state = single.init(jax.random.PRNGKey(0))
    rng = np.random.default_rng(3)
    while engine.phase == 0:  # the first round, placed at random
        action = int(rng.choice(np.flatnonzero(np.asarray(state.legal_action_mask))))
        state = step(state, action, jax.random.PRNGKey(0))
        engine.apply(game.actions[action])
    assert env.to_engine(state).position() == engine.position()
    assert int(state.current_player) == engine.current_player
    for move in ["block a1", "first red"]:
        state = step(state, game.action(move).id, jax.random.PRNGKey(0))
        engine.apply(move)
        assert env.to_engine(state).position() == engine.position()
    assert int(state.current_player) == 1 and int(state.round) == 2


def test_illegal_actions_and_finished_games() -> None:
    check_illegal_and_finished(
        env_for("mode=flag"), GAMES
    )  # the flag goes first: others are illegal
