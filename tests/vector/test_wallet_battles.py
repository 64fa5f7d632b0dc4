"""Wallet Battles in JAX against the engine: 1,000 batched random playouts (250 in each of four
cases: both maps, both ends, two sizes of piles, starts near the flip guard), the flips each
vector step threw replayed on the engine, and every game compared after every step: the legal
mask, the seat to decide, rewards, the end and the observation as batch arrays, the converted
state game by game, the round trip through ``from_engine`` on a rotating sample (see
``tests/vector/engine_check.py``). Playing styles and starts near the flip guard reach the
rarer rules: recalls (the Confederacy's second one too), emptied piles, the map's end by either
reading and the guard."""

from __future__ import annotations

import doctest
import functools
import json
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import pocketarena as pa
from pocketarena.core import CHANCE, State
from pocketarena.games.wallet_battles.rules import FLIP_LIMIT, FLIP_TEXTS
from tests.services import unavailable

try:
    import jax

    from pocketarena.games.wallet_battles import vector

    from . import engine_check
    from .engine_check import Single, by_weights, compare, compiled, one, playouts, stack
except ImportError:  # the jax extra is not installed
    jax = None  # type: ignore[assignment]

SMALL = {"Q": 2, "N": 2, "P": 2, "D": 2}
RECORD = ("odd_drawn", "face_drawn")  # what the last call drew, not part of the position
GAMES = 250  # a batch: every test of a case runs the batched functions compiled for this size


@functools.cache
def _env(options: str) -> Any:
    return vector.make(**json.loads(options))


def env_for(**options: Any) -> Any:
    """One environment per set of options for the session (its compiled functions with it)."""
    return _env(json.dumps(options, sort_keys=True))


@pytest.fixture(autouse=True)
def needs_jax() -> None:
    if jax is None:
        unavailable("jax is not installed: pip install -e '.[jax]' to test the JAX games")


def replay_flips(engine: State, v: Any) -> None:
    """The flips the vector call threw, on the engine: it must need exactly these."""
    faces = ["flip odd"] * int(v.odd_drawn)
    if int(v.face_drawn) >= 0:
        faces.append("flip " + FLIP_TEXTS[int(v.face_drawn)])
    for face in faces:
        assert engine.current_player == CHANCE, f"the engine needs no {face!r} now"
        engine.apply(face)
    assert engine.current_player != CHANCE, "the engine still flips after the vector's run"


def style(env: Any, capture: float = 1.0, pass_: float = 1.0) -> np.ndarray:
    """Per-action weights: 1 for a place or recall, ``capture`` and ``pass_`` for those."""
    verbs = [a.verb for a in env.game.decisions]
    return np.array(
        [capture if v == "capture" else pass_ if v == "pass" else 1.0 for v in verbs], float
    )


def new_games(env: Any, n: int, seed: int) -> tuple[list[State], Any]:
    """``n`` games started by the vector env, and the engine states its flips lead to."""
    init, _, _ = compiled(env)
    states = init(jax.random.key(seed), n)
    engines = []
    for i in range(n):
        engine = env.game.new_initial_state()
        replay_flips(engine, one(states, i))
        engines.append(engine)
    return engines, states


def near_the_guard(env: Any, n: int, seed: int) -> tuple[list[State], Any]:
    """``n`` games a few random moves in, with the flip count set a few flips short of the
    guard (so its ending, and what comes just before it, meet every style)."""
    rng = random.Random(seed)
    engines = []
    while len(engines) < n:
        engine = env.game.new_initial_state()
        for _ in range(rng.randrange(4, 30)):
            if engine.is_terminal():
                break
            engine.apply_random(rng)
        if engine.is_terminal() or engine.current_player == CHANCE:
            continue
        engine.flips = FLIP_LIMIT - rng.randrange(1, 6)
        engines.append(engine)
    return engines, stack([env.from_engine(e) for e in engines])


CASES = [
    # options, styles (capture, pass weights), start near the guard, rules it must meet
    ({"map": "gettysburg"}, (3.0, 1.0), False, {"recall", "second recall", "used"}),
    ({"map": "antietam", "end": "occupied"}, (3.0, 0.3), False, {"recall", "occupied"}),
    ({"map": "antietam", "coins": SMALL}, (1.0, 1.0), False, {"pile", "used"}),
    ({"map": "gettysburg", "end": "occupied"}, (1.0, 30.0), True, {"guard", "recall"}),
]


@pytest.mark.parametrize(
    ("options", "weights", "guard", "must_meet"),
    CASES,
    ids=["gettysburg-used", "antietam-occupied", "antietam-small-piles", "near-the-guard"],
)
def test_batched_playouts_match_the_engine(
    options: dict[str, Any],
    weights: tuple[float, float],
    guard: bool,
    must_meet: set[str],
) -> None:
    env = env_for(**options)
    seed = len(str(options))
    batch = GAMES
    engines, states = near_the_guard(env, batch, seed) if guard else new_games(env, batch, seed)
    met: Counter[str] = Counter()

    def watch(before: State, after: State) -> None:
        decided = [a for a in after.history[len(before.history) :] if not a.chance]
        if decided and decided[0].verb == "recall":
            met["recall"] += 1
            if before.current_player == 1:
                met["second recall"] += 1
        if after.is_terminal():
            met[after.ending or "?"] += 1

    choose = by_weights(style(env, *weights))
    compared = playouts(env, engines, states, choose, seed, 1200, replay_flips, RECORD, watch=watch)
    assert compared > batch, compared
    assert all(e.is_terminal() for e in engines)
    assert must_meet <= set(met), met


@pytest.mark.parametrize("map_name", ["gettysburg", "antietam"])
def test_every_new_game_init_looks_up_is_the_engines(map_name: str) -> None:
    """``init`` looks a new game up in a table (one row for each number of odd flips, 0-32,
    and HH or TT): every row, observation and mask included, is the engine's position after
    those flips (or its end by the guard); and ``init`` over many keys gives what ``_init``
    makes from the same key."""
    env = env_for(map=map_name)
    games = env._new_games()
    for row_id in range(2 * vector._ODD_DRAWS):
        row = one(games, row_id)
        engine = env.game.new_initial_state()
        replay_flips(engine, row)
        compare(env, engine, row, f"row {row_id}")
    engine_check.init_looks_up_what_it_would_make(env)


def test_the_flips_have_the_engines_odds() -> None:
    """The first run of flips of 20,000 games: HH first 1/4, TT first 1/4, one odd and then
    HH or TT 1/8 each, ... (the engine's 1/4, 1/4, 1/2 per flip)."""
    env = env_for(map="gettysburg")  # the default options
    init, _, _ = compiled(env)
    n = 20_000
    batches = [init(jax.random.key(7 + b), GAMES) for b in range(n // GAMES)]
    states = jax.tree.map(lambda *xs: np.concatenate(xs), *jax.device_get(batches))
    odd = np.asarray(states.odd_drawn)
    face = np.asarray(states.face_drawn)
    assert (face >= 0).all()  # nobody holds coins yet: no recall, the run ends on HH or TT
    for k, p in ((0, 0.25), (1, 0.125), (2, 0.0625), (3, 0.03125)):
        for f in (0, 1):
            share = np.mean((odd == k) & (face == f))
            assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / n), (k, f, share)
    assert (np.asarray(states.current_player) == face).all()
    assert (np.asarray(states.flips) == odd + 1).all()


def test_an_illegal_action_loses_and_a_finished_game_stays_put() -> None:
    env = env_for(map="antietam", end="occupied")
    single = Single(env, GAMES)
    state = single.init(jax.random.key(3))
    step = single.step
    seat = int(state.current_player)
    recall = next(a.id for a in env.game.decisions if a.verb == "recall")
    assert not bool(state.legal_action_mask[recall])
    lost = step(state, recall, jax.random.key(4))
    assert bool(lost.terminated)
    assert lost.rewards.tolist() == ([-1.0, 1.0] if seat == 0 else [1.0, -1.0])
    assert bool(lost.legal_action_mask.all())
    again = step(lost, 0, jax.random.key(5))
    assert again.rewards.tolist() == [0.0, 0.0]
    assert bool(again.terminated)
    np.testing.assert_array_equal(again.stacks, lost.stacks)
    out_of_range = step(state, env.num_actions, jax.random.key(4))
    assert bool(out_of_range.terminated) and out_of_range.rewards.tolist() == lost.rewards.tolist()


def test_action_ids_are_the_openspiel_ids() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the rl extra) is not installed")
    import pocketarena.interop.openspiel  # noqa: F401  (registers the games)

    for options, params in (
        ({"map": "gettysburg"}, {"map": "gettysburg"}),
        ({"map": "antietam", "end": "occupied"}, {"map": "antietam", "end": "occupied"}),
    ):
        env = vector.make(**options)
        spiel = pyspiel.load_game("pocketarena_wallet_battles", params)
        assert spiel.num_distinct_actions() == env.num_actions
        state = spiel.new_initial_state()
        while state.is_chance_node():
            state.apply_action(spiel.num_distinct_actions() + 0)  # flip HH
        names = [state.action_to_string(0, a) for a in range(env.num_actions)]
        assert names == [a.text for a in env.game.decisions]


def test_from_engine_refuses_a_flip_and_another_game() -> None:
    env = vector.make()
    with pytest.raises(ValueError, match="at a flip"):
        env.from_engine(env.game.new_initial_state())
    other = pa.load("wallet-battles", map="antietam").new_initial_state()
    other.apply("flip HH")
    with pytest.raises(ValueError, match="options"):
        env.from_engine(other)
    init, _, _ = compiled(env_for(map="gettysburg"))
    with pytest.raises(ValueError, match="one state"):
        env.to_engine(init(jax.random.key(0), GAMES))


def test_jit_and_vmap_keep_the_shapes() -> None:
    env = env_for(map="gettysburg")
    init, _, _ = compiled(env)  # jit(vmap(init)), as the playouts use it
    states = init(jax.random.key(1), GAMES)
    assert states.observation.shape == (GAMES, *env.observation_shape)
    assert states.legal_action_mask.shape == (GAMES, env.num_actions)
    assert states.rewards.shape == (GAMES, 2)
    assert str(states.current_player.dtype) == "int32"
    compare(env, env.to_engine(one(states, 0)), one(states, 0), "converted")


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(vector)
    assert result.attempted > 0 and result.failed == 0
