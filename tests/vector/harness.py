"""Differential playouts: a batch of vector games stepped with jit(vmap(step)) beside the scalar
engine, compared after every step."""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from pocketarena.core import TERMINAL, Game, State
from pocketarena.observe import observation_tensor
from tests.services import unavailable


def require_jax() -> None:
    """Skip the calling test module when JAX is absent (fail in CI, where it is installed)."""
    if importlib.util.find_spec("jax") is None:
        unavailable(
            "JAX is not installed (pip install -e '.[jax]'): the vector tests need it", module=True
        )


# A policy gives each legal action a weight: (game index, legal ids, engine state) -> weights.
Policy = Callable[[int, np.ndarray, State], np.ndarray]


def uniform(i: int, legal: np.ndarray, engine: State) -> np.ndarray:
    return np.ones(len(legal))


_COMPILED: dict[int, tuple[Any, Any, Any]] = {}


def compiled(env: Any) -> tuple[Any, Any, Any]:
    """``jit(vmap(init))``, ``jit(vmap(step))`` and ``jit(step)`` of ``env``, compiled once per
    environment for the whole test session."""
    import jax

    if id(env) not in _COMPILED:
        _COMPILED[id(env)] = (
            jax.jit(jax.vmap(env.init)),
            jax.jit(jax.vmap(env.step)),
            jax.jit(env.step),
        )
    return _COMPILED[id(env)]


def rewards_of(engine: State) -> list[float]:
    if engine.current_player != TERMINAL:
        return [0.0, 0.0]
    winner = engine.winner()
    if winner is None:
        return [0.0, 0.0]
    return [1.0 if s == winner else -1.0 for s in (0, 1)]


def one(batch: Any, i: int) -> Any:
    """Game ``i`` of a batched (host) state."""
    return type(batch)(*(np.asarray(x)[i] for x in batch))


def check(
    env: Any, game: Game, vec: Any, engine: State, same: Callable[[State, State], Any]
) -> None:
    """The vector state ``vec`` (one game, on the host) is the engine state ``engine``."""
    over = engine.current_player == TERMINAL
    assert bool(vec.terminated) == over
    assert not bool(vec.truncated)
    if over:
        assert vec.legal_action_mask.all()
    else:
        assert int(vec.current_player) == engine.current_player
        legal = np.zeros(env.num_actions, bool)
        legal[[a.id for a in engine.legal_actions()]] = True
        assert (vec.legal_action_mask == legal).all(), (
            np.flatnonzero(vec.legal_action_mask != legal),
            str(engine),
        )
    converted = env.to_engine(vec)
    assert converted.position() == engine.position()
    assert converted.current_player == engine.current_player
    same(converted, engine)
    seat = int(vec.current_player)
    expected = observation_tensor(engine, seat)
    np.testing.assert_allclose(vec.observation, expected, rtol=0, atol=1e-6)


def playouts(
    env: Any,
    game: Game,
    n_games: int,
    seed: int,
    policy: Policy = uniform,
    same: Callable[[State, State], Any] = lambda a, b: None,
    round_trip_every: int = 13,
) -> Counter[str]:
    """Play ``n_games`` random games both ways at once; return how they ended (by
    ``engine.position()``'s own words, via ``ending``)."""
    import jax

    init, step, _ = compiled(env)
    rng = np.random.default_rng(seed)
    keys = jax.random.split(jax.random.PRNGKey(seed), n_games)
    state = init(keys)
    engines = [game.new_initial_state() for _ in range(n_games)]
    active = np.ones(n_games, bool)
    endings: Counter[str] = Counter()
    checked = 0
    while active.any():
        host = jax.device_get(state)
        actions = np.zeros(n_games, np.int32)
        for i in np.flatnonzero(active):
            vec = one(host, i)
            check(env, game, vec, engines[i], same)
            checked += 1
            if checked % round_trip_every == 0:
                back = jax.device_get(env.from_engine(engines[i]))
                again = env.to_engine(back)
                assert again.position() == engines[i].position()
                same(again, engines[i])
                assert (back.legal_action_mask == vec.legal_action_mask).all()
                np.testing.assert_allclose(back.observation, vec.observation, atol=1e-6)
            if engines[i].current_player == TERMINAL:
                active[i] = False
                endings[ending(engines[i])] += 1
                continue
            legal = np.flatnonzero(vec.legal_action_mask)
            weights = policy(int(i), legal, engines[i])
            actions[i] = rng.choice(legal, p=weights / weights.sum())
            engines[i].apply(game.actions[actions[i]])
        before = host
        keys = jax.random.split(jax.random.PRNGKey(int(rng.integers(2**31))), n_games)
        state = step(state, actions, keys)
        rewards = np.asarray(jax.device_get(state.rewards))
        for i in range(n_games):
            if bool(before.terminated[i]):
                assert (rewards[i] == 0).all()  # a finished game stays finished, unrewarded
            elif active[i]:
                assert rewards[i].tolist() == rewards_of(engines[i])
    return endings


def ending(engine: State) -> str:
    winner = engine.winner()
    position = engine.position()
    if winner is not None:
        return "win"
    return str(position.get("draw") or "draw")


def check_illegal_and_finished(env: Any) -> None:
    """pgx's shared rules: an illegal action ends the game against the mover; a finished game
    does not change."""
    import jax

    _, _, step = compiled(env)
    state = env.init(jax.random.PRNGKey(0))
    illegal = int(np.flatnonzero(~np.asarray(state.legal_action_mask))[0])
    for bad in (illegal, -1, env.num_actions):
        after = step(state, bad, jax.random.PRNGKey(1))
        assert bool(after.terminated)
        mover = int(state.current_player)
        assert after.rewards.tolist() == [(-1.0 if s == mover else 1.0) for s in (0, 1)]
        again = step(after, 0, jax.random.PRNGKey(2))
        assert bool(again.terminated)
        assert again.rewards.tolist() == [0.0, 0.0]
        assert np.asarray(again.legal_action_mask).all()
