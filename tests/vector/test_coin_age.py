"""Coin Age in JAX against the engine: 1,000 batched random playouts (200 on each map, and 200
started near the turn limit), the slaps each vector step threw replayed on the engine, and
every game compared after every step: the legal mask, the mover, rewards, the end and the
observation as batch arrays, the converted state game by game, the round trip through
``from_engine`` on a rotating sample (see ``tests/vector/engine_check.py``). Playing styles and
starts near the turn limit reach the rarer rules: pays, moves, captures, a turn with nothing to
do, a full map, an empty bank and the turn limit."""

from __future__ import annotations

import doctest
import functools
import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import pocketarena as pa
from pocketarena.core import CHANCE, State
from pocketarena.games.coin_age import MAP_NAMES, MAX_TURNS
from tests.services import unavailable

try:
    import jax

    from pocketarena.games.coin_age import vector

    from . import engine_check
    from .engine_check import Single, by_weights, compare, compiled, one, playouts, stack
except ImportError:  # the jax extra is not installed
    jax = None  # type: ignore[assignment]

RECORD = ("slaps_drawn",)  # what the last call drew, not part of the position
GAMES = 200  # a batch: every test of a map runs the batched functions compiled for this size


@functools.cache
def env_for(map_name: str = "classic") -> Any:
    """One environment per map for the session (its compiled functions with it)."""
    return vector.make(map=map_name)


@pytest.fixture(autouse=True)
def needs_jax() -> None:
    if jax is None:
        unavailable("jax is not installed: pip install -e '.[jax]' to test the JAX games")


def slap_action(game: Any, thrown: int, heads: int) -> pa.Action:
    return next(a for a, _ in game.outcomes_for[thrown] if game.arg_b[a.id] == heads)


def replay_slaps(engine: State, v: Any) -> None:
    """The slaps the vector call threw, on the engine: every one but the last allowed nothing
    (so all its coins showed the other side), the last is the state's own."""
    game = engine.game
    drawn = int(v.slaps_drawn)
    for i in range(drawn):
        assert engine.current_player == CHANCE, "the engine needs no slap now"
        if i < drawn - 1:
            thrown = engine.bank_mask(engine.mover)
            action = slap_action(game, thrown, thrown if engine.mover == 1 else 0)
        else:
            action = slap_action(game, int(v.thrown), int(v.heads))
        engine.apply(action)
    assert engine.current_player != CHANCE, "the engine still slaps after the vector's slaps"


def style(env: Any, **weights: float) -> np.ndarray:
    """Per-action weights by verb (1 for a verb not named)."""
    return np.array([weights.get(a.verb, 1.0) for a in env.game.decisions], float)


def new_games(env: Any, n: int, seed: int) -> tuple[list[State], Any]:
    """``n`` games started by the vector env, and the engine states its slaps lead to."""
    init, _, _ = compiled(env)
    states = init(jax.random.key(seed), n)
    engines = []
    for i in range(n):
        engine = env.game.new_initial_state()
        replay_slaps(engine, one(states, i))
        engines.append(engine)
    return engines, states


def near_the_limit(env: Any, n: int, seed: int) -> tuple[list[State], Any]:
    """``n`` games a few random moves in, with the turn set a few turns short of the limit."""
    rng = random.Random(seed)
    engines = []
    while len(engines) < n:
        engine = env.game.new_initial_state()
        for _ in range(rng.randrange(2, 20)):
            if engine.is_terminal():
                break
            engine.apply_random(rng)
        if engine.is_terminal() or engine.current_player == CHANCE:
            continue
        engine.turn = MAX_TURNS - rng.randrange(0, 4)
        engines.append(engine)
    return engines, stack([env.from_engine(e) for e in engines])


CASES = [
    # map, verb weights, start near the turn limit, what it must meet
    ("classic", {"pay": 30.0}, False, {"pay", "move", "capture", "board full"}),
    ("mint-isle", {"end": 0.2, "capture": 4.0}, False, {"capture", "bank empty"}),
    ("sterling-strait", {"place": 0.3}, False, {"move", "capture"}),
    ("five-fiefs", {"end": 0.5, "pay": 30.0}, False, {"pay", "board full"}),
    ("classic", {"end": 30.0}, True, {"turn limit"}),
]


@pytest.mark.parametrize(
    ("map_name", "weights", "limit", "must_meet"),
    CASES,
    ids=[f"{c[0]}{'-near-the-limit' if c[2] else ''}" for c in CASES],
)
def test_batched_playouts_match_the_engine(
    map_name: str, weights: dict[str, float], limit: bool, must_meet: set[str]
) -> None:
    env = env_for(map_name)
    seed = len(map_name) + 10 * limit
    batch = GAMES
    engines, states = near_the_limit(env, batch, seed) if limit else new_games(env, batch, seed)
    met: Counter[str] = Counter()

    def watch(before: State, after: State) -> None:
        new = after.history[len(before.history) :]
        met[new[0].verb] += 1
        if sum(a.chance for a in new) > 1:
            met["no act"] += 1  # a slap that allowed nothing: the turn passed at once
        if after.is_terminal():
            met[after.end_reason() or "?"] += 1

    choose = by_weights(style(env, **weights))
    compared = playouts(env, engines, states, choose, seed, 1500, replay_slaps, RECORD, watch=watch)
    assert compared > batch, compared
    assert all(e.is_terminal() for e in engines)
    assert must_meet <= set(met), met


def test_the_slaps_have_the_engines_odds() -> None:
    """Heads' first slap in 20,000 games: each of the 16 ways four coins land, 1/16 each."""
    env = env_for()
    init, _, _ = compiled(env)
    n = 20_000
    batches = [init(jax.random.key(7 + b), GAMES) for b in range(n // GAMES)]
    states = jax.tree.map(lambda *xs: np.concatenate(xs), *jax.device_get(batches))
    first = np.asarray(states.slaps_drawn) == 1
    heads = np.asarray(states.heads)[first]
    assert (np.asarray(states.thrown)[first] == 15).all()
    counts = np.bincount(heads, minlength=16)
    # heads 0 allows nothing on the empty map (the turn passes), so it is never a first slap
    assert counts[0] == 0
    p = 1 / 16
    assert abs(np.mean(~first) - p) < 4 * np.sqrt(p * (1 - p) / n)
    for face in range(1, 16):
        assert abs(counts[face] / n - p) < 4 * np.sqrt(p * (1 - p) / n), (face, counts)
    # Games whose first turns passed with nothing to do replay on the engine, turn by turn.
    drawn = np.asarray(states.slaps_drawn)
    for i in [*np.flatnonzero(drawn == 2)[:3], *np.flatnonzero(drawn >= 3)[:2]]:
        engine = env.game.new_initial_state()
        replay_slaps(engine, one(states, i))
        assert engine.turn == drawn[i]
        compare(env, engine, one(states, i), f"game {i}")


@pytest.mark.parametrize("map_name", ["classic", "five-fiefs"])
def test_every_new_game_init_looks_up_is_the_engines(map_name: str) -> None:
    """``init`` looks a new game up in a table (one row for each number of slaps that allowed
    nothing, 0-8, and each nonzero set of coins the next one matched): every row, observation
    and mask included, is the engine's position after those slaps; and ``init`` over many keys
    gives what ``_init`` makes from the same key."""
    env = env_for(map_name)
    games = env._new_games()
    for failed in range(vector.FIRST_SLAPS):
        for matched in range(1, 16):
            row = one(games, failed * 16 + matched)
            assert int(row.slaps_drawn) == failed + 1 and int(row.matched) == matched
            engine = env.game.new_initial_state()
            replay_slaps(engine, row)
            compare(env, engine, row, f"{failed} failed slaps, then {matched:04b}")
    engine_check.init_looks_up_what_it_would_make(env)


def test_an_illegal_action_loses_and_a_finished_game_stays_put() -> None:
    env = env_for("mint-isle")
    single = Single(env, GAMES)
    state = single.init(jax.random.key(3))
    step = single.step
    seat = int(state.current_player)
    capture = next(a.id for a in env.game.decisions if a.verb == "capture")
    assert not bool(state.legal_action_mask[capture])  # nothing on the map to capture
    lost = step(state, capture, jax.random.key(4))
    assert bool(lost.terminated)
    assert lost.rewards.tolist() == ([-1.0, 1.0] if seat == 0 else [1.0, -1.0])
    assert bool(lost.legal_action_mask.all())
    again = step(lost, env.num_actions - 1, jax.random.key(5))
    assert again.rewards.tolist() == [0.0, 0.0]
    np.testing.assert_array_equal(again.kinds, lost.kinds)
    assert bool(step(state, -1, jax.random.key(4)).terminated)


@pytest.mark.parametrize("map_name", MAP_NAMES)
def test_action_ids_are_the_openspiel_ids(map_name: str) -> None:
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the rl extra) is not installed")
    import pocketarena.interop.openspiel  # noqa: F401  (registers the games)

    env = vector.make(map=map_name)
    spiel = pyspiel.load_game("pocketarena_coin_age", {"map": map_name})
    assert spiel.num_distinct_actions() == env.num_actions
    state = spiel.new_initial_state()
    names = [state.action_to_string(0, a) for a in range(env.num_actions)]
    assert names == [a.text for a in env.game.decisions]


def test_a_random_map_is_fixed_by_its_seed() -> None:
    env = vector.make(map="random", seed=5)
    assert env.game.options["map"] in MAP_NAMES
    assert env.num_actions == vector.make(map=env.game.options["map"]).num_actions
    with pytest.raises(ValueError, match="seed"):
        vector.make(map="random")
    with pytest.raises(ValueError, match="map"):
        vector.make(map="atlantis")


def test_from_engine_refuses_a_slap_and_another_map() -> None:
    env = vector.make()
    with pytest.raises(ValueError, match="at a slap"):
        env.from_engine(env.game.new_initial_state())
    other = pa.load("coin-age", map="five-fiefs").new_initial_state()
    other.apply("slap Q:H N:H P:H D:H")
    with pytest.raises(ValueError, match="options"):
        env.from_engine(other)


def test_jit_and_vmap_keep_the_shapes() -> None:
    env = env_for("sterling-strait")
    init, _, _ = compiled(env)  # jit(vmap(init)), as the playouts use it
    states = init(jax.random.key(1), GAMES)
    assert states.observation.shape == (GAMES, 340) == (GAMES, *env.observation_shape)
    assert states.legal_action_mask.shape == (GAMES, env.num_actions)
    assert str(states.current_player.dtype) == "int32"
    compare(env, env.to_engine(one(states, 0)), one(states, 0), "converted")


def test_the_docstring_examples_run() -> None:
    result = doctest.testmod(vector)
    assert result.attempted > 0 and result.failed == 0
