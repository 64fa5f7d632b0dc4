"""Batched random playouts of a JAX game beside the scalar engine: the vector step draws the
chance outcomes, the engine replays them, and everything is compared after every step."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import numpy as np

from pocketarena.core import State as EngineState
from pocketarena.observe import observation_tensor

# Replays the chance outcomes a vector state records on the engine state (which has just had
# the same decision applied), asserting the engine leaves chance exactly when they run out.
Replay = Callable[[EngineState, Any], None]
# Per-action weights of a playing style, times the legal mask, make the policy.
Weights = np.ndarray


def one(batch: Any, i: int) -> Any:
    """Game ``i`` of a batch on the host, as numpy arrays (the batch brought over once)."""
    return jax.tree.map(lambda x: x[i], jax.device_get(batch))


def pick(mask: np.ndarray, weights: Weights, rng: np.random.Generator) -> np.ndarray:
    """One action per game, drawn in proportion to ``weights`` among the legal ones."""
    w = mask * weights[None, :]
    cum = np.cumsum(w, axis=1)
    u = rng.random(len(mask)) * cum[:, -1]
    return (cum <= u[:, None]).sum(axis=1).astype(np.int32)


def compare(env: Any, engine: EngineState, v: Any, ended_now: bool, where: str) -> None:
    """The vector state ``v`` against the engine state it should be."""
    over = engine.is_terminal()
    assert bool(v.terminated) == over, where
    assert not bool(v.truncated), where
    if over:
        assert v.legal_action_mask.all(), where
    else:
        assert int(v.current_player) == engine.current_player, where
        expected = np.zeros(env.num_actions, bool)
        expected[[a.id for a in engine.legal_actions()]] = True
        np.testing.assert_array_equal(v.legal_action_mask, expected, err_msg=where)
    rewards = engine.returns() if ended_now else (0.0, 0.0)
    np.testing.assert_array_equal(v.rewards, np.array(rewards, np.float32), err_msg=where)
    seen = observation_tensor(engine, int(v.current_player))
    np.testing.assert_array_equal(v.observation, seen, err_msg=where)
    converted = env.to_engine(v)
    assert converted.position() == engine.position(), where
    assert converted.current_player == engine.current_player, where
    assert converted.scores() == engine.scores(), where


_OBSERVE: dict[int, Any] = {}


def compare_back(env: Any, engine: EngineState, v: Any, where: str, skip: tuple[str, ...]) -> None:
    """``from_engine`` gives ``v`` back, every field but the record of the last draws; the
    other seat's view is the engine's too."""
    observe = _OBSERVE.setdefault(id(env), jax.jit(env.observe))
    other = 1 - int(v.current_player)
    np.testing.assert_array_equal(
        observe(v, other), observation_tensor(engine, other), err_msg=where + "other seat's view"
    )
    back = jax.tree.map(np.asarray, env.from_engine(engine))
    for name in type(v)._fields:
        if name in skip or (name == "rewards" and not engine.is_terminal()):
            continue
        np.testing.assert_array_equal(getattr(back, name), getattr(v, name), err_msg=where + name)


def playouts(
    env: Any,
    starts: list[EngineState],
    first: Any,
    replay: Replay,
    weights: Weights,
    seed: int,
    max_steps: int,
    skip: tuple[str, ...],
    watch: Callable[[EngineState, EngineState], None] = lambda before, after: None,
) -> int:
    """Play the batch ``first`` (whose games are the engine states ``starts``) to the end by
    random decisions; returns the decisions compared. ``watch`` sees each engine step."""
    rng = np.random.default_rng(seed)
    key = jax.random.key(seed)
    step = jax.jit(jax.vmap(env.step))
    states = first
    host = jax.device_get(states)
    for i, engine in enumerate(starts):
        compare(env, engine, one(host, i), False, f"start {i}")
        compare_back(env, engine, one(host, i), f"start {i}: ", skip)
    compared = 0
    for t in range(max_steps):
        live = ~np.asarray(states.terminated)
        if not live.any():
            return compared
        actions = pick(np.asarray(states.legal_action_mask), weights, rng)
        key, sub = jax.random.split(key)
        states = step(states, actions, jax.random.split(sub, len(starts)))
        host = jax.device_get(states)
        for i in np.flatnonzero(live):
            engine = starts[i]
            before = engine.clone()
            engine.apply(engine.game.actions[int(actions[i])])
            v = one(host, i)
            replay(engine, v)
            where = f"game {i} step {t} after {engine.game.actions[int(actions[i])].text!r}: "
            compare(env, engine, v, engine.is_terminal(), where)
            if i < 2 or engine.is_terminal():
                compare_back(env, engine, v, where, skip)
            watch(before, engine)
            compared += 1
    raise AssertionError(f"games still running after {max_steps} decisions")
