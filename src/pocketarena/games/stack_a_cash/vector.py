"""Stack-a-Cash in JAX (see :mod:`pocketarena.vector`): ``make(protect="touched"|"placed")``.

The position is the nine stack codes of ``board.py`` (six bits a cell: for each size a coin bit
and a Tails bit), the supply per size, the protected cell, the ply and the positions seen since
the last placement (the repetition rule: a placement can never be undone, so the engine forgets
earlier positions there too).

A seen position is one int32: each size has at most two coins on the board, one per cell, so a
size's coins are one of the 46 sets of at most two cells with the face of the lower and of the
higher cell (46 x 4 = 184 codes); three sizes, the side to move and the protected cell (or none)
make 184**3 * 2 * 10 < 2**31 keys, exactly, without hashing.
"""

from __future__ import annotations

import functools
from collections import Counter
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from pocketarena.core import TERMINAL, Game
from pocketarena.vector import Env, State, dataclass, field, rewards_for

from .board import CELL_BITS, LINES, NUM_CELLS
from .rules import (
    FLIP,
    MAX_PLIES,
    MOVE_FLIP,
    PLACE,
    REPETITIONS_FOR_DRAW,
    StackACash,
    StackACashState,
)

HISTORY = MAX_PLIES + 1  # positions since the last placement, at most (the start included)
COINS = 2  # of each size
SUBSETS = [m for m in range(512) if m.bit_count() <= 2]  # sets of at most two cells
SUBSET_INDEX = np.zeros(512, np.int32)
SUBSET_INDEX[SUBSETS] = np.arange(len(SUBSETS))
HIGH_BIT = np.array([1 << (m.bit_length() - 1) if m else 0 for m in range(512)], np.int32)
SIZE_CODES = len(SUBSETS) * 4  # 184
CELL_WEIGHTS = 1 << np.arange(NUM_CELLS, dtype=np.int32)
# Ids of the moves a -> b (a != b) in action-table order: row-major over the 9x9 pairs.
OFF_DIAGONAL = np.array([a * 9 + b for a in range(9) for b in range(9) if a != b], np.int32)


@dataclass
class StackACashVectorState(State):
    """pgx's fields (:class:`pocketarena.vector.State`), then the position's."""

    cells: jax.Array  # int32 (9,): stack codes
    supply: jax.Array  # int32 (3,): coins of L, M, S off the board
    protected: jax.Array  # int32: the cell the mover may not touch, -1 none
    plies: jax.Array  # int32
    history: jax.Array  # int32 (HISTORY,): position keys since the last placement
    history_len: jax.Array  # int32: how many of them are valid
    repeats: jax.Array  # int32: occurrences of the current position
    winner: jax.Array  # int32: -1 while nobody has won
    _game: Game | None = field(pytree_node=False, default=None)


def position_key(xp: Any, cells: Any, to_move: Any, protected: Any) -> Any:
    """The exact int32 key of a position (see the module docstring); ``xp`` is numpy or
    jax.numpy."""
    key = 0
    for s in range(3):
        present = (cells >> (2 * s)) & 1
        tails = (cells >> (2 * s + 1)) & 1
        weights = xp.asarray(CELL_WEIGHTS)
        p = (present * weights).sum()
        t = (tails * weights).sum()
        low = p & -p
        high = xp.asarray(HIGH_BIT)[p]
        code = xp.asarray(SUBSET_INDEX)[p] * 4 + ((t & low) != 0) * 2 + ((t & high) != 0)
        key = key * SIZE_CODES + code
    return (key * 2 + to_move) * 10 + (protected + 1)


@functools.lru_cache(maxsize=1 << 16)
def engine_key(key: int) -> int:
    """The engine's own key (``StackACashState.key``) of a position key (cached: a game's
    history converts again at every step)."""
    protected = key % 10 - 1
    key //= 10
    to_move = key % 2
    key //= 2
    cells = [0] * NUM_CELLS
    for s in (2, 1, 0):
        code = key % SIZE_CODES
        key //= SIZE_CODES
        subset = SUBSETS[code // 4]
        cells_here = [c for c in range(NUM_CELLS) if subset >> c & 1]
        faces = [code >> 1 & 1, code & 1][: len(cells_here)]
        for c, face in zip(cells_here, faces, strict=True):
            cells[c] |= (1 | face << 1) << (2 * s)
    board = sum(code << (CELL_BITS * c) for c, code in enumerate(cells))
    return board | to_move << 54 | (protected + 1) << 55


@functools.lru_cache(maxsize=1 << 16)
def vector_key(board_key: int) -> int:
    """The position key of the engine's own key: ``engine_key``'s inverse (cached)."""
    cells = np.array([board_key >> (CELL_BITS * c) & 63 for c in range(NUM_CELLS)], np.int32)
    to_move = board_key >> 54 & 1
    protected = (board_key >> 55) - 1
    return int(position_key(np, cells, to_move, protected))


def _top_size(cells: jax.Array) -> jax.Array:
    """Size index of each cell's top coin (the smallest present), -1 when empty."""
    return jnp.where(cells & 16, 2, jnp.where(cells & 4, 1, jnp.where(cells & 1, 0, -1)))


def _top_face(cells: jax.Array) -> jax.Array:
    """Face of each cell's top coin (0 Heads, 1 Tails), -1 when empty."""
    top = _top_size(cells)
    return jnp.where(top >= 0, (cells >> (2 * jnp.maximum(top, 0) + 1)) & 1, -1)


def _has_line(shown: jax.Array) -> jax.Array:
    return jnp.any(jnp.all(shown[jnp.asarray(LINES)], axis=1))


class StackACashEnv(Env[StackACashVectorState, StackACashState]):
    game: StackACash
    _state_class = StackACashVectorState

    def __init__(self, game: StackACash) -> None:
        super().__init__(game)
        self.observation_shape = (16, 3, 3)
        self.protect_touched = game.protect_touched
        self._kind = jnp.asarray(game.kind, jnp.int32)
        self._size = jnp.asarray(game.size, jnp.int32)
        self._src = jnp.asarray(
            [d if k == PLACE else s for k, s, d in zip(game.kind, game.src, game.dst, strict=True)],
            jnp.int32,
        )
        self._dst = jnp.asarray(game.dst, jnp.int32)

    # -- rules -----------------------------------------------------------------------------
    def _legal(self, cells: jax.Array, supply: jax.Array, protected: jax.Array) -> jax.Array:
        top = _top_size(cells)
        sizes = jnp.arange(3)
        place = (supply[:, None] > 0) & (top[None, :] < sizes[:, None])
        movable = (cells != 0) & (jnp.arange(NUM_CELLS) != protected)
        moves = (movable[:, None] & (top[None, :] < top[:, None])).reshape(-1)[OFF_DIAGONAL]
        return jnp.concatenate([place.reshape(-1), movable, moves, moves])

    def _init(self, key: jax.Array) -> StackACashVectorState:
        cells = jnp.zeros(NUM_CELLS, jnp.int32)
        supply = jnp.full(3, COINS, jnp.int32)
        protected = jnp.int32(-1)
        history = jnp.zeros(HISTORY, jnp.int32).at[0].set(position_key(jnp, cells, 0, protected))
        return StackACashVectorState(
            current_player=jnp.int32(0),
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            legal_action_mask=self._legal(cells, supply, protected),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            cells=cells,
            supply=supply,
            protected=protected,
            plies=jnp.int32(0),
            history=history,
            history_len=jnp.int32(1),
            repeats=jnp.int32(1),
            winner=jnp.int32(-1),
            _step_count=jnp.int32(0),
            _game=self.game,
        )

    def _step(
        self, state: StackACashVectorState, action: jax.Array, key: jax.Array
    ) -> StackACashVectorState:
        kind, size = self._kind[action], self._size[action]
        src, dst = self._src[action], self._dst[action]
        is_place, is_flip = kind == PLACE, kind == FLIP
        mover = state.current_player
        cells = state.cells
        ca, cb = cells[src], cells[dst]
        top_a = jnp.maximum(_top_size(ca), 0)
        face_a = (ca >> (2 * top_a + 1)) & 1
        s = jnp.where(is_place, size, top_a)
        face = jnp.where(is_place, mover, face_a ^ (kind == MOVE_FLIP))
        pushed = cb | ((1 | face << 1) << (2 * s))
        lifted = jnp.where(is_flip, ca ^ (2 << (2 * top_a)), ca & ~(3 << (2 * top_a)))
        at = jnp.arange(NUM_CELLS)
        cells = jnp.where(at == src, lifted, cells)
        cells = jnp.where(at == dst, jnp.where(is_flip, lifted, pushed), cells)
        supply = state.supply - (is_place & (jnp.arange(3) == size))
        touched_rule = is_place | self.protect_touched
        protected = jnp.where(touched_rule, dst, -1).astype(jnp.int32)
        plies = state.plies + 1
        opponent = 1 - mover
        position = position_key(jnp, cells, opponent, protected)
        length = jnp.where(is_place, 0, state.history_len)
        slots = jnp.arange(HISTORY)
        history = jnp.where(slots == length, position, state.history)
        length = length + 1
        repeats = jnp.sum((history == position) & (slots < length), dtype=jnp.int32)
        faces = _top_face(cells)
        winner = jnp.where(
            _has_line(faces == opponent), opponent, jnp.where(_has_line(faces == mover), mover, -1)
        ).astype(jnp.int32)
        draw = (repeats >= REPETITIONS_FOR_DRAW) | (plies >= MAX_PLIES)
        terminated = (winner >= 0) | draw
        return state.replace(
            current_player=opponent,
            legal_action_mask=self._legal(cells, supply, protected),
            rewards=rewards_for(winner),
            terminated=terminated,
            cells=cells,
            supply=supply,
            protected=protected,
            plies=plies,
            history=history,
            history_len=length,
            repeats=repeats,
            winner=winner,
        )

    def _observe(self, state: StackACashVectorState, seat: jax.Array | int) -> jax.Array:
        cells = state.cells
        sizes = jnp.arange(3)[:, None]
        present = (cells[None, :] >> (2 * sizes)) & 1
        tails = (cells[None, :] >> (2 * sizes + 1)) & 1
        own = present * (tails == seat)
        opp = present * (tails != seat)
        faces = _top_face(cells)
        running = ~state.terminated
        planes = jnp.concatenate(
            [
                own,
                opp,
                (faces == seat)[None],
                (faces == 1 - seat)[None],
                (jnp.arange(NUM_CELLS) == state.protected)[None],
                jnp.broadcast_to(state.supply[:, None] / COINS, (3, NUM_CELLS)),
                jnp.full((1, NUM_CELLS), running & (state.current_player == seat)),
                jnp.full((1, NUM_CELLS), running & (state.current_player != seat)),
                jnp.full((1, NUM_CELLS), jnp.minimum(state.repeats, REPETITIONS_FOR_DRAW) / 3.0),
                jnp.full((1, NUM_CELLS), jnp.minimum(state.plies, MAX_PLIES) / float(MAX_PLIES)),
            ]
        )
        return planes.astype(jnp.float32).reshape(self.observation_shape)

    # -- the engine --------------------------------------------------------------------------
    def to_engine(self, state: StackACashVectorState) -> StackACashState:
        s = jax.tree.map(np.asarray, state)
        out = self.game.new_initial_state()
        for c in range(NUM_CELLS):
            out._set(c, int(s.cells[c]))
        out.left = sum(int(n) << (2 * i) for i, n in enumerate(s.supply))
        out.protected = int(s.protected)
        out.plies = int(s.plies)
        out.repeats = int(s.repeats)
        out.winner_seat = int(s.winner)
        keys = s.history[: int(s.history_len)].tolist()
        out.seen = {engine_key(k): n for k, n in Counter(keys).items()}
        if bool(s.terminated):
            out.current_player = TERMINAL
            if out.winner_seat < 0:
                out.draw = (
                    "the same position came up a third time"
                    if out.repeats >= REPETITIONS_FOR_DRAW
                    else f"{MAX_PLIES} plies were played"
                )
        else:
            out.current_player = int(s.current_player)
        return out

    def _host(self, engine_state: StackACashState) -> dict[str, Any]:
        e = engine_state
        if e.game != self.game:
            raise ValueError(f"a state of {e.game!r} cannot become one of {self!r}")
        cells = np.array(e.cells, np.int32)
        history = np.zeros(HISTORY, np.int32)
        at = 0
        for board_key, count in e.seen.items():
            history[at : at + count] = vector_key(board_key)
            at += count
        terminated = e.current_player == TERMINAL
        host: dict[str, Any] = dict(  # numpy: one transfer into the compiled call
            current_player=np.int32(e.plies % 2),
            observation=np.zeros(self.observation_shape, np.float32),
            legal_action_mask=np.zeros(self.num_actions, bool),
            rewards=np.zeros(2, np.float32),
            terminated=np.bool_(terminated),
            truncated=np.bool_(False),
            cells=np.asarray(cells),
            supply=np.array(e.supply(), np.int32),
            protected=np.int32(e.protected),
            plies=np.int32(e.plies),
            history=np.asarray(history),
            history_len=np.int32(at),
            repeats=np.int32(e.repeats),
            winner=np.int32(e.winner_seat),
        )
        return host

    def _completed(self, state: StackACashVectorState) -> StackACashVectorState:
        """The derived fields (legal mask, rewards of a finished game, observation) filled in."""
        mask = self._legal(state.cells, state.supply, state.protected)
        state = state.replace(
            legal_action_mask=jnp.where(state.terminated, True, mask),
            rewards=jnp.where(state.terminated, rewards_for(state.winner), 0.0),
        )
        return state.replace(observation=self._observe(state, state.current_player))


def make(**options: Any) -> StackACashEnv:
    """Stack-a-Cash with the engine's options (``protect``)."""
    return StackACashEnv(StackACash(**options))
