"""pocketarena.vector's environments are pgx environments: pgx's classes and attributes, its
helpers (``auto_reset``, ``act_randomly``) on our states, a chance game refusing a step without
a key as pgx's backgammon does, ``from_engine`` of a batch, drawing through our renderer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.vector.harness import require_jax

require_jax()

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import pgx.core  # noqa: E402
from pgx.experimental import act_randomly, auto_reset  # noqa: E402

import pocketarena as pa  # noqa: E402
import pocketarena.vector as pv  # noqa: E402
from tests.vector.engine_check import FAST_COMPILE, index  # noqa: E402

GAMES = pv.games()


def fast(fn: Any) -> Any:
    return jax.jit(fn, compiler_options=FAST_COMPILE)


@pytest.mark.parametrize("game_id", GAMES)
def test_env_and_state_are_pgx_classes_with_pgx_attributes(game_id: str) -> None:
    env = pv.make(game_id)
    assert isinstance(env, pgx.core.Env)
    assert env.id == game_id and env.version == pv.VERSION and env.num_players == 2
    state = jax.eval_shape(env.init, jax.random.PRNGKey(0))  # traced only: no compile
    assert isinstance(state, pgx.core.State) and state.env_id == game_id
    assert state.observation.shape == env.observation_shape
    assert state.legal_action_mask.shape == (env.num_actions,)
    assert state._step_count.shape == () and state._step_count.dtype == jnp.int32
    assert state.replace(_step_count=5)._step_count == 5  # pgx's .replace


def test_pgx_attributes_agree_with_pgx_own_definitions() -> None:
    """pgx derives num_actions and observation_shape from a state made by init."""
    env = pv.make("stack-a-cash")
    assert pgx.core.Env.num_actions.fget(env) == env.num_actions == 180
    assert pgx.core.Env.observation_shape.fget(env) == env.observation_shape == (16, 3, 3)


def test_auto_reset_and_act_randomly_drive_a_batch() -> None:
    """pgx's loop: act_randomly over the mask, auto_reset(step, init). An illegal action ends a
    game at once; auto_reset then hands back a new game that still says how the last one
    ended, and the next step plays it."""
    env = pv.make("stack-a-cash")
    n = 4
    init = fast(jax.vmap(env.init))
    step = fast(jax.vmap(auto_reset(env.step, env.init)))
    state = init(jax.random.split(jax.random.PRNGKey(0), n))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask[0]))[0])
    chosen = act_randomly(jax.random.PRNGKey(1), state.legal_action_mask)
    assert np.asarray(state.legal_action_mask)[np.arange(n), np.asarray(chosen)].all()
    actions = jnp.asarray(chosen).at[0].set(illegal)
    state = step(state, actions, jax.random.split(jax.random.PRNGKey(2), n))
    assert np.asarray(state.terminated).tolist() == [True, False, False, False]
    assert np.asarray(state.rewards[0]).tolist() == [-1.0, 1.0]  # seat 0 played it
    assert int(state._step_count[0]) == 0 and np.asarray(state._step_count[1:]).tolist() == [1] * 3
    fresh = index(jax.device_get(state), 0)
    assert env.to_engine(fresh.replace(terminated=np.bool_(False))).plies == 0
    state = step(
        state,
        act_randomly(jax.random.PRNGKey(3), state.legal_action_mask),
        jax.random.split(jax.random.PRNGKey(4), n),
    )
    assert not np.asarray(state.terminated).any()
    assert np.asarray(state._step_count).tolist() == [1, 2, 2, 2]


@pytest.mark.parametrize("game_id", ["coin-age", "wallet-battles"])
def test_a_chance_game_refuses_a_step_without_a_key(game_id: str) -> None:
    env = pv.make(game_id)
    assert env.chance
    state = jax.eval_shape(env.init, jax.random.PRNGKey(0))  # refused when traced: no compile
    with pytest.raises(ValueError, match="jax.random key"):
        jax.eval_shape(env.step, state, 0)
    batch = jax.eval_shape(jax.vmap(env.init), jax.random.split(jax.random.PRNGKey(0), 2))
    with pytest.raises(ValueError, match="jax.random key"):
        jax.eval_shape(jax.vmap(env.step), batch, jnp.zeros(2, jnp.int32))
    jax.eval_shape(env.step, state, 0, jax.random.PRNGKey(1))  # with a key: fine


def test_a_game_without_chance_steps_without_a_key() -> None:
    """As pgx's AlphaZero example steps in its search: ``jax.vmap(env.step)(state, action)``."""
    env = pv.make("stack-a-cash")
    assert not env.chance
    state = fast(jax.vmap(env.init))(jax.random.split(jax.random.PRNGKey(0), 2))
    state = fast(lambda s, a: jax.vmap(env.step)(s, a))(state, jnp.array([4, 0]))
    assert np.asarray(state._step_count).tolist() == [1, 1]
    stacks = env.to_engine(index(jax.device_get(state), 0)).position()["stacks"]
    assert stacks["b2"] == [{"size": "L", "face": "H"}]


def test_from_engine_takes_a_batch() -> None:
    env = pv.make("stack-a-cash", protect="placed")
    engine = pa.load("stack-a-cash", protect="placed")
    states = [engine.new_initial_state() for _ in range(3)]
    states[1].apply("place L b2")
    states[2].apply("place M a1")
    states[2].apply("place S a1")
    batch = jax.device_get(env.from_engine(states))
    assert batch.current_player.shape == (3,)
    for i, e in enumerate(states):
        single = jax.device_get(env.from_engine(e))
        for name in ("cells", "legal_action_mask", "observation", "current_player", "plies"):
            assert np.array_equal(getattr(batch, name)[i], getattr(single, name)), name
        assert env.to_engine(index(batch, i)).position() == e.position()
    with pytest.raises(ValueError, match="non-empty"):
        env.from_engine([])
    with pytest.raises(ValueError):
        env.from_engine([pa.load("stack-a-cash").new_initial_state()])  # other options


def test_states_draw_themselves_with_our_renderer(tmp_path: Path) -> None:
    env = pv.make("stack-a-cash")
    engine = pa.load("stack-a-cash").new_initial_state()
    engine.apply("place L b2")
    one = env.from_engine(engine)
    svg = one.to_svg()
    assert svg.startswith("<svg") and svg.count("<svg") == 2 and "Tails to move" in svg
    assert one._repr_html_() == svg  # notebooks, as pgx's states
    batch = env.from_engine([engine, engine, pa.load("stack-a-cash").new_initial_state()])
    assert batch.to_svg().count("<svg") == 4  # the grid and its three boards
    path = tmp_path / "board.svg"
    pv.save_svg(one, path, scale=0.5)
    assert path.read_text("utf-8").startswith("<svg")
    with pytest.raises(ValueError, match=".svg"):
        one.save_svg(tmp_path / "board.txt")
