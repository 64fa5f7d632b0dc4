"""Batched random playouts of a JAX game beside the scalar engine, compared after every step.

A batch of hundreds of games is stepped at once by ``jit(vmap(step))``; the engine plays the
same decisions (and replays the chance outcomes the vector step drew). After every step, for
*every* game of the batch:

- the legal mask, the player to move, the rewards, termination (and ``truncated`` never set)
  and the observation are compared as whole batch arrays (the engine's side written row by row
  into one array, then one comparison);
- the converted state: ``to_engine`` of the game's vector state has the engine's position,
  player to move and scores (plus what a game's ``same`` adds: the repetition record, ...);
- a game that was already over is unchanged by the step and gets zero rewards.

On a rotating sample (each game every ``SAMPLE_EVERY``-th step, every game at its end, one in
``SAMPLE_EVERY`` at the start) the round trip too: ``from_engine`` of the engine state gives the
vector state back field by field and converts back to the engine state, and the other seat's
view is the engine's.

Per game and step this costs about 0.1-0.3 ms of Python (the engine's step, its legal actions
and observation, ``to_engine``); the whole of ``tests/vector`` (4,000 playouts, some 120,000
game-steps compared) takes about two minutes of CPU, most of it compiling (docs/research.md).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Sequence
from typing import Any

import jax
import numpy as np

from pocketarena.core import State as EngineState
from pocketarena.observe import observation_tensor

SAMPLE_EVERY = 16  # a game's round trip (from_engine, the other seat's view): one step in this
# The tests' batched functions compile with XLA's backend optimisations off: that halves the
# compile time (Coin Age's init or step on one map: about 2 s with them, 1 s without) while a
# batch's step runs about 3x slower (1 -> 3 ms for 200 Coin Age games), and compiling is most
# of these tests' time.
FAST_COMPILE = {"xla_backend_optimization_level": 0}
# The explicit time bound: one ``playouts`` call (a batch, compiling included) may spend this
# much CPU of its process; it takes 2-10 s on the 2-core development machine (docs/research.md).
BUDGET_S = 60.0

# Replays the chance outcomes a vector state records on the engine state (which has just had
# the same decision applied), asserting the engine leaves chance exactly when they run out.
Replay = Callable[[EngineState, Any], None]
# Chooses each game's action from the batch's legal masks (finished games: any action).
Chooser = Callable[[np.ndarray, Sequence[EngineState], np.random.Generator], np.ndarray]
# Per-action weights of a playing style, times the legal mask, make the policy.
Weights = np.ndarray


def one(batch: Any, i: int) -> Any:
    """Game ``i`` of a batch, as numpy values (the batch brought to the host once)."""
    return index(jax.device_get(batch), i)


def index(batch: Any, i: Any) -> Any:
    """Game ``i`` of a host batch (or the games ``i``, an index array)."""
    return jax.tree.map(lambda x: np.asarray(x)[i], batch)


def field_names(state: Any) -> list[str]:
    """The array fields of a state (pgx's and the game's; not the static ``_game``)."""
    return [f.name for f in dataclasses.fields(state) if f.metadata.get("pytree_node", True)]


def pick(mask: np.ndarray, weights: Weights, rng: np.random.Generator) -> np.ndarray:
    """One action per game, drawn in proportion to ``weights`` among the legal ones."""
    w = mask * weights[None, :]
    cum = np.cumsum(w, axis=1)
    u = rng.random(len(mask)) * cum[:, -1]
    return np.minimum((cum <= u[:, None]).sum(axis=1), mask.shape[1] - 1).astype(np.int32)


def by_weights(weights: Weights) -> Chooser:
    """The chooser of a playing style: per-action weights among the legal actions."""
    return lambda mask, engines, rng: pick(mask, weights, rng)


def _same_scores(converted: EngineState, engine: EngineState) -> None:
    assert converted.scores() == engine.scores()


_COMPILED: dict[int, tuple[Any, Any, Any, Any]] = {}


def compiled(env: Any) -> tuple[Any, Any, Any]:
    """Batched ``init(key, n)``, ``step(states, actions, key)`` and ``observe(states, seats)``
    of ``env``, each compiled once per environment and batch size for the test session (the
    keys of the games split inside the compiled call)."""
    if id(env) not in _COMPILED:

        def init(key: jax.Array, n: int) -> Any:
            return jax.vmap(env.init)(jax.random.split(key, n))

        def step(states: Any, actions: jax.Array, key: jax.Array) -> Any:
            return jax.vmap(env.step)(states, actions, jax.random.split(key, actions.shape[0]))

        _COMPILED[id(env)] = (
            env,  # kept alive, so that its id is never another's
            jax.jit(init, static_argnums=1, compiler_options=FAST_COMPILE),
            jax.jit(step, compiler_options=FAST_COMPILE),
            jax.jit(jax.vmap(env.observe), compiler_options=FAST_COMPILE),
        )
    _, init_batch, step_batch, observe_batch = _COMPILED[id(env)]
    return init_batch, step_batch, observe_batch


def _typed(key: Any) -> Any:
    """A typed PRNG key (``jax.random.key``'s) of either kind of key: one compiled version."""
    if jax.dtypes.issubdtype(key.dtype, jax.dtypes.prng_key):
        return key
    return jax.random.wrap_key_data(key)


class Single:
    """``init`` and ``step`` of one game run through the batched functions of ``compiled``
    (the game copied ``n`` times, ``n`` the batch size the playouts of ``env`` use), so that a
    test of one game compiles nothing of its own; states come back on the host."""

    def __init__(self, env: Any, n: int) -> None:
        self.env, self.n = env, n
        self._init, self._step, _ = compiled(env)

    def init(self, key: Any) -> Any:
        return one(self._init(_typed(key), self.n), 0)

    def step(self, state: Any, action: Any, key: Any) -> Any:
        copies = jax.tree.map(lambda x: np.broadcast_to(x, (self.n, *np.shape(x))), state)
        actions = np.full(self.n, int(action), np.int32)
        return one(self._step(copies, actions, _typed(key)), 0)


class Mismatch(AssertionError):
    pass


def _fail(what: str, where: str, i: int, engine: EngineState, got: Any, expected: Any) -> None:
    moves = " ".join(a.text.replace(" ", "_") for a in engine.history[-12:])
    raise Mismatch(
        f"{where}: game {i}: {what} differs\n  vector: {got}\n  engine: {expected}\n"
        f"  last moves: {moves}\n{engine}"
    )


def _rows_equal(
    what: str,
    got: np.ndarray,
    expected: np.ndarray,
    idx: np.ndarray,
    engines: Sequence[Any],
    where: str,
) -> None:
    """``got`` and ``expected`` (row ``j`` belongs to game ``idx[j]``) are equal, else the first
    game that differs, with what differs."""
    if np.array_equal(got, expected):
        return
    diff = (got != expected).reshape(len(idx), -1).any(axis=1)
    j = int(np.flatnonzero(diff)[0])
    bad = np.flatnonzero((got[j] != expected[j]).reshape(-1))
    _fail(
        what,
        where,
        int(idx[j]),
        engines[idx[j]],
        f"{got[j].reshape(-1)[bad]} at {bad}",
        expected[j].reshape(-1)[bad],
    )


def check_batch(
    env: Any,
    engines: Sequence[EngineState],
    v: Any,
    idx: np.ndarray,
    ended_now: np.ndarray,
    where: str,
    same: Callable[[EngineState, EngineState], None] = _same_scores,
    atol: float = 0.0,
) -> None:
    """The games ``idx`` of the host batch ``v`` against their engine states ``engines[i]``:
    the cheap fields and the observation as batch arrays, the converted state game by game.
    ``ended_now[i]``: game ``i`` ended by the step that made ``v`` (its rewards are the
    engine's returns; otherwise zero). The observation is exactly the engine's, or within
    ``atol`` for a game whose fractions XLA divides in float32."""
    m = len(idx)
    mask = np.zeros((m, env.num_actions), bool)
    player = np.asarray(v.current_player)[idx].copy()
    over = np.zeros(m, bool)
    rewards = np.zeros((m, 2), np.float32)
    seen = np.empty((m, *env.observation_shape), np.float32)
    for j, i in enumerate(idx.tolist()):
        engine = engines[i]
        if engine.is_terminal():
            over[j] = True
            mask[j] = True
        else:
            player[j] = engine.current_player
            mask[j, [a.id for a in engine.legal_actions()]] = True
        if ended_now[i]:
            rewards[j] = engine.returns()
        single = index(v, i)
        observation_tensor(engine, int(single.current_player), out=seen[j])
        converted = env.to_engine(single)
        if converted.position() != engine.position():
            _fail(
                "the converted position", where, i, engine, converted.position(), engine.position()
            )
        if converted.current_player != engine.current_player:
            _fail(
                "the converted mover",
                where,
                i,
                engine,
                converted.current_player,
                engine.current_player,
            )
        try:
            same(converted, engine)
        except AssertionError as error:
            _fail(f"the converted state ({error})", where, i, engine, converted, engine)
    _rows_equal("terminated", np.asarray(v.terminated)[idx], over, idx, engines, where)
    _rows_equal("truncated", np.asarray(v.truncated)[idx], np.zeros(m, bool), idx, engines, where)
    _rows_equal(
        "the player to move", np.asarray(v.current_player)[idx], player, idx, engines, where
    )
    _rows_equal("the legal mask", np.asarray(v.legal_action_mask)[idx], mask, idx, engines, where)
    _rows_equal("the rewards", np.asarray(v.rewards)[idx], rewards, idx, engines, where)
    got = np.asarray(v.observation)[idx]
    if atol:  # within atol: snapped to the engine's where it is that close
        got = np.where(np.abs(got - seen) <= atol, seen, got)
    _rows_equal("the observation", got, seen, idx, engines, where)


def compare(env: Any, engine: EngineState, v: Any, where: str = "") -> None:
    """One game's state ``v`` (unbatched, on the host) against its engine state, as
    ``check_batch`` compares a batch's."""
    batch = jax.tree.map(lambda x: np.asarray(x)[None], v)
    check_batch(env, [engine], batch, np.arange(1), np.zeros(1, bool), where)


def check_round_trip(
    env: Any,
    engines: Sequence[EngineState],
    v: Any,
    other_views: np.ndarray,
    idx: np.ndarray,
    where: str,
    skip: tuple[str, ...],
    same: Callable[[EngineState, EngineState], None] = _same_scores,
    atol: float = 0.0,
) -> None:
    """For the games ``idx``: ``from_engine`` gives the vector state back, every field but those
    in ``skip`` (the record of the last draws, a record kept in another order), and that
    converts to the engine state again; the other seat's view (``other_views``, the batch's) is
    the engine's."""
    for i in idx.tolist():
        engine = engines[i]
        single = index(v, i)
        other = 1 - int(single.current_player)
        expected = observation_tensor(engine, other)
        if not np.allclose(other_views[i], expected, rtol=0, atol=atol):
            _fail("the other seat's view", where, i, engine, other_views[i], expected)
        back = jax.device_get(env.from_engine(engine))
        again = env.to_engine(back)
        if again.position() != engine.position():
            _fail(
                "to_engine(from_engine(...))", where, i, engine, again.position(), engine.position()
            )
        try:
            same(again, engine)
        except AssertionError as error:
            _fail(f"to_engine(from_engine(...)) ({error})", where, i, engine, again, engine)
        for name in field_names(v):
            if (
                name in skip
                or name == "_step_count"
                or (name == "rewards" and not engine.is_terminal())
            ):
                continue
            a, b = getattr(back, name), getattr(single, name)
            if not (np.array_equal(a, b) or name == "observation" and np.allclose(a, b, 0, atol)):
                _fail(f"from_engine's {name}", where, i, engine, b, a)


def init_looks_up_what_it_would_make(env: Any, games: int = 2_000) -> None:
    """``env.init`` (a game's own, reading a table of new games) gives over many keys exactly
    what the shared ``Env.init`` (``_init`` then the observation) makes from the same keys."""
    from pocketarena.vector import Env

    keys = jax.random.split(jax.random.key(11), games)
    looked_up = jax.jit(jax.vmap(env.init))(keys)
    made = jax.jit(jax.vmap(lambda k: Env.init(env, k)))(keys)
    for a, b in zip(jax.tree.leaves(looked_up), jax.tree.leaves(made), strict=True):
        assert np.array_equal(a, b)


def stack(states: Sequence[Any]) -> Any:
    """One host batch of single (unbatched) states."""
    host = [jax.device_get(s) for s in states]
    return jax.tree.map(lambda *xs: np.stack(xs), *host)


def playouts(
    env: Any,
    starts: list[EngineState],
    first: Any,
    choose: Chooser,
    seed: int,
    max_steps: int,
    replay: Replay | None = None,
    skip: tuple[str, ...] = (),
    same: Callable[[EngineState, EngineState], None] = _same_scores,
    watch: Callable[[EngineState, EngineState], None] | None = None,
    atol: float = 0.0,
) -> int:
    """Play the batch ``first`` (whose games are the engine states ``starts``, which are played
    on in place) to the end by ``choose``'s decisions, comparing every game after every step
    (see the module's docstring); returns the steps compared. ``watch`` sees each engine step
    (the state before and after); ``atol``: see ``check_batch``. Fails past ``BUDGET_S`` of
    CPU."""
    started = time.process_time()
    rng = np.random.default_rng(seed)
    key = jax.random.key(seed)
    _, step, observe = compiled(env)
    n = len(starts)
    states = first
    host = jax.device_get(states)
    everyone = np.arange(n)
    check_batch(env, starts, host, everyone, np.zeros(n, bool), "start", same, atol)
    others = np.asarray(observe(states, 1 - np.asarray(host.current_player)))
    check_round_trip(
        env, starts, host, others, everyone[everyone % SAMPLE_EVERY == 0], "start", skip, same, atol
    )
    compared = 0
    for t in range(max_steps):
        live = ~np.asarray(host.terminated)
        if not live.any():
            spent = time.process_time() - started
            assert spent < BUDGET_S, f"{n} playouts took {spent:.0f} s of CPU (BUDGET_S)"
            return compared
        actions = choose(np.asarray(host.legal_action_mask), starts, rng)
        key, sub = jax.random.split(key)
        states = step(states, actions, sub)
        new = jax.device_get(states)
        where = f"step {t}"
        idx = np.flatnonzero(live)
        for i in idx.tolist():
            engine = starts[i]
            before = engine.clone() if watch is not None else engine
            engine.apply(engine.game.actions[int(actions[i])])
            if replay is not None:
                replay(engine, index(new, i))
            if watch is not None:
                watch(before, engine)
        ended_now = live & np.asarray(new.terminated)
        check_batch(env, starts, new, idx, ended_now, where, same, atol)
        done = np.flatnonzero(~live)
        if len(done):  # a finished game stays as it was, unrewarded
            for name in field_names(new):
                if name != "rewards":
                    _rows_equal(
                        f"the finished game's {name}",
                        getattr(new, name)[done],
                        getattr(host, name)[done],
                        done,
                        starts,
                        where,
                    )
            _rows_equal(
                "a finished game's rewards",
                new.rewards[done],
                np.zeros((len(done), 2), np.float32),
                done,
                starts,
                where,
            )
        sample = idx[((idx + t) % SAMPLE_EVERY == 0) | ended_now[idx]]
        if len(sample):
            others = np.asarray(observe(states, 1 - np.asarray(new.current_player)))
            check_round_trip(env, starts, new, others, sample, where, skip, same, atol)
        compared += len(idx)
        host = new
    raise AssertionError(f"games still running after {max_steps} decisions")
