"""The alphazero bot: the shipped network loads, plays only legal moves and beats random play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.alphazero import shipped_network
from pocketarena.match import SeededChance, play_match

ROOT = Path(__file__).resolve().parents[2]


def test_shipped_network_is_small_and_fits_the_game() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    net = shipped_network()
    size = (ROOT / "src/pocketarena/bots/nets/stack_a_cash_az.npz").stat().st_size
    assert size < 2_000_000
    assert net.params["policy"]["kernel"].shape[1] == game.num_decisions
    logits, values = net.policy_value(np.zeros((3, 16, 3, 3), np.float32))
    assert logits.shape == (3, game.num_decisions) and values.shape == (3,)
    assert np.all(np.abs(values) <= 1)


def test_alphazero_beats_random_from_both_seats() -> None:
    game = pa.load("stack-a-cash", protect="touched")
    wins = 0
    for seed in range(6):
        seat = seed % 2
        bots = [make_bot("random", game, seed=seed), make_bot("random", game, seed=seed)]
        bots[seat] = make_bot("alphazero", game, seed=seed)
        record = play_match(game, bots, SeededChance(seed))  # raises on an illegal move
        wins += record.result == ("1-0" if seat == 0 else "0-1")
    assert wins >= 5


def test_alphazero_refuses_what_it_was_not_trained_for() -> None:
    with pytest.raises(ValueError, match="only Stack-a-Cash with protect=touched"):
        make_bot("alphazero", pa.load("stack-a-cash", protect="placed"))
    with pytest.raises(ValueError, match="only Stack-a-Cash"):
        make_bot("alphazero", pa.load("flipwars"))
    with pytest.raises(ValueError, match="takes no argument"):
        make_bot("alphazero:3", pa.load("stack-a-cash", protect="touched"))


needs_training_libs = pytest.mark.skipif(
    any(importlib.util.find_spec(m) is None for m in ("jax", "flax", "optax", "mctx")),
    reason="training needs the jax extra (jax, flax, optax, mctx)",
)


@needs_training_libs
def test_numpy_network_matches_the_flax_one() -> None:
    import jax
    import jax.numpy as jnp

    sys.path.insert(0, str(ROOT / "scripts"))
    from train_alphazero import MLP

    net = shipped_network()
    x = np.random.default_rng(0).integers(0, 2, (5, 16, 3, 3)).astype(np.float32)
    model = MLP(num_actions=net.params["policy"]["kernel"].shape[1], hidden=net.meta["hidden"])
    params = {"params": jax.tree.map(jnp.asarray, net.params)}
    logits, values = model.apply(params, jnp.asarray(x))
    np_logits, np_values = net.policy_value(x)
    np.testing.assert_allclose(np_logits, np.asarray(logits), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(np_values, np.asarray(values), rtol=1e-4, atol=1e-4)
