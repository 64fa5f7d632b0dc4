"""The exact Stack-a-Cash table inside JAX agrees with the solver's Python API
(``solve(protect).value``/``plies``/``outcomes``) on positions of random games, under
``jax.jit(jax.vmap(...))``, for both protection rules."""

from __future__ import annotations

import doctest
import random

import numpy as np
import pytest

from pocketarena.core import State
from tests.vector.harness import require_jax

require_jax()

import jax  # noqa: E402

import pocketarena.vector as pv  # noqa: E402
from pocketarena.solve import stack_a_cash_jax  # noqa: E402
from pocketarena.solve.stack_a_cash import random_positions, solve  # noqa: E402
from pocketarena.solve.stack_a_cash_jax import ILLEGAL, class_keys, exact_table  # noqa: E402


def positions(protect: str, games: int, seed: int) -> list[State]:
    return random_positions(protect, games, random.Random(seed))


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_values_and_plies_agree_with_the_solver(protect: str) -> None:
    env = pv.make("stack-a-cash", protect=protect)
    table, solution = exact_table(protect), solve(protect)
    sample = positions(protect, games=30, seed=7)
    batch = env.from_engine(sample)
    values = np.asarray(jax.jit(jax.vmap(table.value))(batch))
    plies = np.asarray(jax.jit(jax.vmap(table.plies))(batch))
    known = np.asarray(jax.jit(jax.vmap(table.known))(batch))
    assert known.all() and len(sample) > 300
    assert values.tolist() == [solution.value(s) for s in sample]
    assert plies.tolist() == [solution.plies(s) for s in sample]
    assert set(values.tolist()) == {-1, 0, 1}  # the sample has wins, draws and losses


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_action_values_agree_with_the_solver(protect: str) -> None:
    env = pv.make("stack-a-cash", protect=protect)
    table, solution = exact_table(protect), solve(protect)
    sample = positions(protect, games=3, seed=11)[:40]
    got = np.asarray(
        jax.jit(jax.vmap(lambda s: table.action_values(env, s)))(env.from_engine(sample))
    )
    for state, row in zip(sample, got, strict=True):
        want = np.full(env.num_actions, ILLEGAL)
        for action, value, _ in solution.outcomes(state):
            want[action.id] = value
        assert row.tolist() == want.tolist(), str(state)


def test_every_symmetric_view_of_a_position_has_one_key() -> None:
    """The class key is the same for the 8 symmetric boards and for the colours swapped with
    the side to move: what lets one entry stand for all of them."""
    from pocketarena.games.stack_a_cash import board as R

    state = positions("touched", games=1, seed=3)[6]
    cells = np.array(state.cells, np.int32)  # type: ignore[attr-defined]
    protected = np.int32(state.protected)  # type: ignore[attr-defined]
    mover = np.int32(state.current_player)
    key = class_keys(np, cells, protected, mover)
    for perm in R.SYMMETRIES:
        moved = np.zeros(9, np.int32)
        moved[list(perm)] = cells
        prot = np.int32(perm[protected] if protected >= 0 else -1)
        assert class_keys(np, moved, prot, mover) == key
        swapped = np.array([R.SWAP_FACES[c] for c in moved], np.int32)
        assert class_keys(np, swapped, prot, 1 - mover) == key


def test_a_bad_protection_rule_is_refused() -> None:
    with pytest.raises(ValueError, match="protect must be one of touched, placed"):
        exact_table("nothing")


def test_the_module_examples_run() -> None:
    result = doctest.testmod(stack_a_cash_jax)
    assert result.attempted > 0 and result.failed == 0
