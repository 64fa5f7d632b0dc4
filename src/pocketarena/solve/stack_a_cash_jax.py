"""Stack-a-Cash's exact solution inside JAX: jittable, vmappable lookups on the states of
:mod:`pocketarena.vector`, to grade or train an agent without leaving the accelerator.

>>> import jax
>>> import pocketarena.vector as pv
>>> from pocketarena.solve.stack_a_cash_jax import exact_table
>>> env = pv.make("stack-a-cash", protect="touched")
>>> table = exact_table("touched")
>>> state = jax.jit(env.init)(jax.random.PRNGKey(0))
>>> int(table.value(state)), int(table.plies(state))  # Heads to move wins in 15 plies
(1, 15)
>>> best = jax.jit(table.action_values, static_argnums=0)(env, state)  # 1 keeps the win, -2 illegal
>>> sorted(env.to_engine(state).game.action(i).text for i in range(180) if best[i] == 1)
['place M a1', 'place M a3', 'place M b2', 'place M c1', 'place M c3']

The table is :func:`pocketarena.solve.stack_a_cash.solve`'s, re-keyed for JAX: one int32 key
per class of positions (the side to move's faces turned to Heads, then the smallest of the
board's 8 symmetric keys, each the exact int32 key of ``games/stack_a_cash/vector.py``) beside
its signed distance to the end (+n won in n plies, -n lost in n, 0 drawn). About 10 MB a
``protect`` option; built from the solution on first use (seconds, with a progress bar) and
cached beside it. A lookup is a binary search (``jnp.searchsorted``): ``jax.vmap`` and
``jax.jit`` take it as they take ``env.step``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from pocketarena.games.stack_a_cash import board as R
from pocketarena.games.stack_a_cash.vector import (
    CELL_WEIGHTS,
    HIGH_BIT,
    SIZE_CODES,
    SUBSET_INDEX,
)

from .stack_a_cash import (
    FORMAT,
    NO_PROT,
    PROTECT_OPTIONS,
    _decode,
    cache_dir,
    progress_bar,
    solve,
)

__all__ = ["ExactTable", "ILLEGAL", "exact_table"]

ILLEGAL = -2  # action_values of an action that is not legal
CHUNK = 1 << 18  # classes re-keyed at a time while building (keeps the arrays small)
_SWAP = np.array(R.SWAP_FACES, np.int32)
# Gathering with the inverse permutation puts cell i's stack where symmetry g sends it.
_PERM = np.array(R.SYMMETRIES, np.int32)  # (8, 9): where cell i goes
_INVERSE = np.argsort(_PERM, axis=1).astype(np.int32)


def class_keys(xp: Any, cells: Any, protected: Any, to_move: Any) -> Any:
    """The int32 class key of positions (any leading shape; ``xp`` is numpy or jax.numpy):
    faces turned to the mover's side, then the smallest key over the 8 symmetries."""
    cells = xp.where(xp.asarray(to_move)[..., None] == 1, xp.asarray(_SWAP)[cells], cells)
    best = None
    for g in range(8):
        moved = cells[..., xp.asarray(_INVERSE[g])]
        prot = xp.where(protected >= 0, xp.asarray(_PERM[g])[xp.maximum(protected, 0)], -1)
        key = _position_keys(xp, moved, prot)
        best = key if best is None else xp.minimum(best, key)
    return best


def _position_keys(xp: Any, cells: Any, protected: Any) -> Any:
    """``vector.position_key`` over a batch, Heads to move (the faces are mover-relative)."""
    weights = xp.asarray(CELL_WEIGHTS)
    key = xp.zeros(protected.shape, xp.int32)
    for s in range(3):
        p = (((cells >> (2 * s)) & 1) * weights).sum(axis=-1)
        t = (((cells >> (2 * s + 1)) & 1) * weights).sum(axis=-1)
        low = p & -p
        high = xp.asarray(HIGH_BIT)[p]
        code = xp.asarray(SUBSET_INDEX)[p] * 4 + ((t & low) != 0) * 2 + ((t & high) != 0)
        key = key * SIZE_CODES + code.astype(xp.int32)
    return (key * 2) * 10 + (protected + 1)


@dataclass(frozen=True, eq=False)  # arrays inside: identity is the only sensible equality
class ExactTable:
    """Every reachable Stack-a-Cash position of one ``protect`` option, for JAX. Methods take
    one ``pocketarena.vector`` state (``jax.vmap`` them for a batch)."""

    protect: str
    keys: jax.Array  # int32 (classes,), sorted
    distances: jax.Array  # int8 (classes,): +n won in n plies, -n lost, 0 drawn (side to move)

    def _index(self, state: Any) -> tuple[jax.Array, jax.Array]:
        key = class_keys(jnp, state.cells, state.protected, state.current_player)
        i = jnp.minimum(jnp.searchsorted(self.keys, key), self.keys.shape[0] - 1)
        return i, self.keys[i] == key

    def known(self, state: Any) -> jax.Array:
        """True for a position reachable from the start (every one a legal game reaches) and
        not over."""
        found: jax.Array = self._index(state)[1] & ~state.terminated
        return found

    def distance(self, state: Any) -> jax.Array:
        """int32: +n the side to move wins in n plies with best play (the winner hurries, the
        loser delays), -n it loses in n, 0 a draw; 0 for a finished or unknown position."""
        i, found = self._index(state)
        d = self.distances[i].astype(jnp.int32)
        return jnp.where(found & ~state.terminated, d, 0)

    def value(self, state: Any) -> jax.Array:
        """int32 1, 0 or -1: the result with best play for the side to move."""
        return jnp.sign(self.distance(state))

    def plies(self, state: Any) -> jax.Array:
        """int32: plies left with best play (0 for a draw)."""
        return jnp.abs(self.distance(state))

    def action_values(self, env: Any, state: Any) -> jax.Array:
        """int32 per action id: the result with best play for the side to move after playing
        it (1, 0, -1; an action that ends the game by repetition or the ply limit is 0), and
        ``ILLEGAL`` for actions that are not legal."""
        mover = state.current_player
        actions = jnp.arange(state.legal_action_mask.shape[-1], dtype=jnp.int32)
        children = jax.vmap(env.step, in_axes=(None, 0))(state, actions)

        def after(child: Any) -> jax.Array:
            ended = child.rewards[mover].astype(jnp.int32)
            return jnp.where(child.terminated, ended, -self.value(child))

        values = jax.vmap(after)(children)
        return jnp.where(state.legal_action_mask & ~state.terminated, values, ILLEGAL)


def _file(protect: str) -> Path:
    return cache_dir() / f"stack-a-cash-{protect}-jax-v{FORMAT}.npz"


def _build(protect: str) -> tuple[np.ndarray, np.ndarray]:
    """Re-key the solution's classes (its keys are 58-bit, for numpy) as int32 class keys."""
    solution = solve(protect)
    keys = np.empty(solution.classes, np.int32)
    with progress_bar(protect) as report:
        for start in range(0, solution.classes, CHUNK):
            codes, prot = _decode(solution.keys[start : start + CHUNK])
            prot = np.where(prot == NO_PROT, -1, prot)
            cells = codes.astype(np.int32)
            keys[start : start + CHUNK] = class_keys(np, cells, prot, np.zeros_like(prot))
            report("keys for JAX", start + len(cells), solution.classes)
    order = np.argsort(keys, kind="stable")
    keys = keys[order]
    if np.any(keys[1:] == keys[:-1]):
        raise AssertionError("two classes of positions share an int32 key")
    return keys, solution.dtw[order]


@functools.cache
def exact_table(protect: str = "touched") -> ExactTable:
    """The table for ``protect`` ("touched" or "placed"), from the cache or built now."""
    if protect not in PROTECT_OPTIONS:
        raise ValueError(f"protect must be one of {', '.join(PROTECT_OPTIONS)}, got {protect!r}")
    path = _file(protect)
    try:
        with np.load(path) as data:
            keys, distances = data["keys"], data["distances"]
    except (OSError, KeyError, ValueError):  # not built yet, or a damaged file: build it again
        keys, distances = _build(protect)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(".part.npz")
        np.savez(partial, keys=keys, distances=distances)
        partial.replace(path)  # whole or not at all, for a process reading it meanwhile
    return ExactTable(protect, jnp.asarray(keys), jnp.asarray(distances))
