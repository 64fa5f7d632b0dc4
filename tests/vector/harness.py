"""Differential playouts of the games without chance (Stack-a-Cash, FlipWars): a batch of
vector games from ``init`` beside as many new engine games, played by a policy and compared
after every step by :func:`tests.vector.engine_check.playouts` (see its docstring for what is
compared: every game every step on the mask, the mover, rewards, termination, the observation
and the converted state; a rotating sample on the round trip through ``from_engine``)."""

from __future__ import annotations

import importlib.util
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from pocketarena.core import Game, State
from tests.services import unavailable


def require_jax() -> None:
    """Skip the calling test module when JAX is absent (fail in CI, where it is installed)."""
    if importlib.util.find_spec("jax") is None:
        unavailable(
            "JAX is not installed (pip install -e '.[jax]'): the vector tests need it", module=True
        )


# A policy gives each legal action a weight: (game index, legal ids, engine state) -> weights.
Policy = Callable[[int, np.ndarray, State], np.ndarray]


def by_policy(policy: Policy) -> Any:
    """A chooser (see ``engine_check``) asking ``policy`` game by game."""

    def choose(mask: np.ndarray, engines: list[State], rng: np.random.Generator) -> np.ndarray:
        actions = np.zeros(len(mask), np.int32)
        for i, engine in enumerate(engines):
            if not engine.is_terminal():
                legal = np.flatnonzero(mask[i])
                weights = policy(i, legal, engine)
                actions[i] = legal[rng.choice(len(legal), p=weights / weights.sum())]
        return actions

    return choose


def playouts(
    env: Any,
    game: Game,
    n_games: int,
    seed: int,
    policy: Policy | None = None,
    same: Callable[[State, State], Any] | None = None,
    skip: tuple[str, ...] = (),
    max_steps: int = 2000,
    atol: float = 1e-6,
) -> Counter[str]:
    """Play ``n_games`` games both ways at once, uniformly at random among the legal actions
    unless a ``policy`` is given; return how they ended (``ending``'s words). ``same`` compares
    the converted state beyond its position; the round trip skips the fields in ``skip``. The
    observation's fractions (the ply, the repetitions) may differ from the engine's by
    ``atol``: XLA divides in float32."""
    import jax

    from tests.vector import engine_check

    init, _, _ = engine_check.compiled(env)
    first = init(jax.random.key(seed), n_games)
    engines = [game.new_initial_state() for _ in range(n_games)]
    if policy is None:
        choose = engine_check.by_weights(np.ones(env.num_actions))
    else:
        choose = by_policy(policy)
    extra: dict[str, Any] = {} if same is None else {"same": same}
    engine_check.playouts(
        env, engines, first, choose, seed, max_steps, skip=skip, atol=atol, **extra
    )
    return Counter(ending(e) for e in engines)


def ending(engine: State) -> str:
    if engine.winner() is not None:
        return "win"
    return str(engine.position().get("draw") or "draw")


def check_illegal_and_finished(env: Any, n: int) -> None:
    """pgx's shared rules: an illegal action ends the game against the mover; a finished game
    does not change. ``n``: the batch size of the playouts of ``env`` (whose compiled step this
    one uses)."""
    import jax

    from tests.vector.engine_check import Single

    game = Single(env, n)
    step = game.step
    state = game.init(jax.random.PRNGKey(0))
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
