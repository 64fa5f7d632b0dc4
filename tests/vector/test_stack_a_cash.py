"""Stack-a-Cash in JAX against the scalar engine: 500 random batched playouts per protection
rule (1,000 in all), every game compared after every step (legal mask, player to move, rewards,
termination, the observation and the converted state with its repetition record; the round
trip through ``from_engine`` on a rotating sample: see ``tests/vector/engine_check.py``), the
repetition rule and the ply limit included."""

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
from pocketarena.core import State  # noqa: E402
from pocketarena.games.stack_a_cash.rules import StackACashState  # noqa: E402
from tests.vector.engine_check import Single  # noqa: E402


@functools.cache
def env_for(protect: str) -> Any:
    return pv.make("stack-a-cash", protect=protect)


def same_seen(a: object, b: object) -> None:
    assert isinstance(a, StackACashState) and isinstance(b, StackACashState)
    assert a.seen == b.seen
    assert a.repeats == b.repeats
    assert a.left == b.left
    assert a.scores() == b.scores()


GAMES = 500  # per protection rule
# The positions seen since the last placement are one record kept in order by the vector state
# (stale slots past ``history_len`` left as they were) and as counts by the engine: the round
# trip compares them through ``same_seen`` on the converted state, not slot by slot.
SKIP = ("history",)


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_random_playouts_match_the_engine(protect: str) -> None:
    env = env_for(protect)
    game = pa.load("stack-a-cash", protect=protect)
    endings = playouts(env, game, n_games=GAMES, seed=7, policy=varied, same=same_seen, skip=SKIP)
    assert sum(endings.values()) == GAMES
    assert endings["win"] > 0
    assert endings["the same position came up a third time"] > 0, endings
    assert endings["200 plies were played"] > 0, endings


def varied(i: int, legal: np.ndarray, engine: State) -> np.ndarray:
    """Most games (14 in 16) play uniformly at random; the others avoid making a line, one of
    them repeating its move of two plies ago when it can (flips back and forth: the repetition
    rule), the other not (long games: the ply limit)."""
    weights = np.zeros(len(legal))
    if i % 16 > 1:
        return weights + 1.0
    assert isinstance(engine, StackACashState)
    rng = np.random.default_rng([i, engine.plies])
    order = list(rng.permutation(len(legal)))
    if i % 16 == 1 and engine.plies >= 2:
        again = np.flatnonzero(legal == engine.history[-2].id)
        order = list(again) + order
    for j in order[:8]:
        after = engine.clone()
        after.apply(engine.game.actions[legal[j]])
        if after.winner_seat < 0:
            break
    weights[j] = 1.0
    return weights


def test_repetition_draws_on_the_third_occurrence() -> None:
    env = env_for("placed")
    single = Single(env, GAMES)
    step = single.step
    game = env.game
    state = single.init(jax.random.PRNGKey(0))
    engine = game.new_initial_state()
    # Two coins placed, then both sides flip a coin each, back and forth: the position after
    # the first flip comes back after the fifth and the ninth.
    for move in ["place L a1", "place L c3"] + ["flip a1", "flip c3"] * 4 + ["flip a1"]:
        assert not bool(state.terminated), move
        state = step(state, game.action(move).id, jax.random.PRNGKey(1))
        engine.apply(move)
    assert engine.position()["draw"] == "the same position came up a third time"
    assert bool(state.terminated) and int(state.repeats) == 3
    assert state.rewards.tolist() == [0.0, 0.0]
    assert env.to_engine(state).position() == engine.position()


def test_ids_are_openspiel_ids() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    import pocketarena.interop.openspiel  # noqa: F401

    for protect in ("touched", "placed"):
        env = env_for(protect)
        spiel = pyspiel.load_game(f"pocketarena_stack_a_cash(protect={protect})")
        assert spiel.num_distinct_actions() == env.num_actions
        state = spiel.new_initial_state()
        texts = [state.action_to_string(0, a) for a in range(env.num_actions)]
        assert texts == [a.text for a in env.game.decisions]
        assert texts[4] == "place L b2"


def test_illegal_actions_and_finished_games() -> None:
    check_illegal_and_finished(env_for("touched"), GAMES)


def test_make_says_what_is_wrong() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        pv.make("chess")
    with pytest.raises(ValueError, match="protect"):
        pv.make("stack-a-cash", protect="everything")
    assert "stack-a-cash" in pv.games()


def test_the_module_example_runs() -> None:
    import doctest

    result = doctest.testmod(pv)
    assert result.attempted > 0 and result.failed == 0
