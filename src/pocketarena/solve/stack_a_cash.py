"""Stack-a-Cash solved: the game-theoretic value of every reachable position.

>>> import pocketarena as pa
>>> from pocketarena.solve.stack_a_cash import solve
>>> solution = solve("touched")
>>> opening = pa.load("stack-a-cash").new_initial_state()
>>> solution.value(opening), solution.plies(opening)  # Heads wins in 15 plies
(1, 15)
>>> sorted(a.text for a in solution.best_actions(opening))
['place M a1', 'place M a3', 'place M b2', 'place M c1', 'place M c3']

A *position* is what the repetition rule compares: the board (every stack, with faces), the
side to move and the protected coin. Values are over positions, not histories: a position from
which neither side can force a line is a draw ("repetition = draw"). That is exact for the
real rules too: a forced win never repeats a position (its distance shrinks every ply), and a
defender who can hold the draw can always take a repetition. Values are for the side to move,
with the length of the game under best play: the winner hurries, the loser delays.

How it is computed
------------------
- Positions are stored side-to-move relative (a face bit 0 means "the mover's side"): swapping
  Heads and Tails together with the side to move gives the same game, and so do the board's
  eight symmetries. Each class of positions is kept once, as its smallest 58-bit key: 54 bits
  of board as in ``games/stack_a_cash/board.py``, then the protected cell (9 = none).
- Breadth first from the empty board, every action of every class is generated with numpy
  over thousands of classes at a time. An action either wins at once, loses at once (it shows
  the opponent's line) or leads to another class; finished games are never stored. The sorted
  key array is the index (``np.searchsorted``); successors form a CSR table.
- Retrograde analysis then runs backwards from the immediate wins and forced losses, ply by
  ply, over the reversed table: a class is won in ``n + 1`` when it has a successor lost in
  ``n``; lost in ``n + 1`` when the last of its successors turns out won in ``n``. Whatever
  is never decided is a draw.

The result (keys as gaps and signed distances, about 1 MB per option) ships with the package
in ``solve/data``; without it, it is built on first use (a minute or two) and cached in the
user's cache folder (``platformdirs``, or ``$POCKETARENA_CACHE``). The shipped files were made
with ``pocketarena solve stack-a-cash --protect P --rebuild`` and copied from the cache, or
equally ``save(build(P), Path("src/pocketarena/solve/data"))``.
"""

from __future__ import annotations

import contextlib
import os
import random
import resource
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

import pocketarena as pa
from pocketarena.core import TERMINAL, Action, Message, State, message
from pocketarena.games.stack_a_cash import StackACashState
from pocketarena.games.stack_a_cash import board as R

__all__ = [
    "PROTECT_OPTIONS",
    "Solution",
    "build",
    "cache_dir",
    "progress_bar",
    "random_positions",
    "solve",
]

FORMAT = 1  # bump when the file layout or the key changes: old cache files are then rebuilt
PROTECT_OPTIONS = ("touched", "placed")
PROT_SHIFT = 54
NO_PROT = 9
BOARD_MASK = (1 << PROT_SHIFT) - 1
PRESENCE = R.PRESENCE_MASK
CHUNK = 4096  # classes expanded at a time: small enough for the arrays to stay in cache

I64 = npt.NDArray[np.int64]
I32 = npt.NDArray[np.int32]
# (what is being done: a message, worded where it is shown, or a plain note; done, total)
Progress = Callable[[str | Message, int, int], None]


# -- tables over the 64 stack codes and the 8 board symmetries --------------------------------
_TOP = np.array(R.TOP_SIZE, dtype=np.int64)
_TOPFACE = np.array(R.TOP_FACE, dtype=np.int64)
_POP = np.array(R.POP, dtype=np.int64)
_TURN = np.array(R.TURN_TOP, dtype=np.int64)
_HAS_LINE = np.array(R.HAS_LINE, dtype=bool)
_SYM = np.array(R.SYMMETRIES, dtype=np.int64)  # (8, 9): where cell i goes
_SYM_PROT = np.concatenate([_SYM, np.full((8, 1), NO_PROT)], axis=1)  # cell 9 = none stays
_CELL_SHIFT = np.arange(9, dtype=np.int64) * R.CELL_BITS
_BIT = np.int64(1) << np.arange(9, dtype=np.int64)


# Symmetry g moves cell c's six bits to shift _SHIFT_OF[g, c], and the protected cell p to the
# key bits _PROT_OF[g, p] (p = 9, no protected coin, stays 9). Arrays are symmetry-major (8, n)
# so that the minimum over symmetries is an elementwise minimum of 8 rows.
_SHIFT_OF = _SYM * R.CELL_BITS
_PROT_OF = _SYM_PROT << PROT_SHIFT


def _decode(keys: I64) -> tuple[I64, I64]:
    """Stack codes (n, 9) and protected cells (n,) of a key array."""
    codes = ((keys & BOARD_MASK)[:, None] >> _CELL_SHIFT) & 63
    return codes, keys >> PROT_SHIFT


def _permuted(codes: I64) -> I64:
    """The board under each of the 8 symmetries, (8, n)."""
    out = np.zeros((8, codes.shape[0]), dtype=np.int64)
    for g in range(8):
        out[g] = (codes << _SHIFT_OF[g]).sum(axis=1)
    return out


def _canonical(boards: I64, prot: I64) -> I64:
    """Smallest key over the symmetries of new positions. ``boards`` is (8, m), the board under
    each symmetry with faces still from the old mover's side; ``prot`` the protected cells."""
    boards ^= (boards & PRESENCE) << 1  # the new mover's side is the other face
    boards |= _PROT_OF[:, prot]
    result: I64 = np.minimum.reduce(boards, axis=0)
    return result


@dataclass
class _Actions:
    """Every legal action of a chunk of positions, as arrays (one entry per action)."""

    pos: I64  # which position of the chunk
    a: I64  # first changed cell (the one touched for a place or flip; the origin of a move)
    b: I64  # second changed cell (= a for a place or flip)
    da: I64  # change of cell a's code
    db: I64  # change of cell b's code (0 for a place or flip)
    prot: I64  # protected cell after the action (9 = none)


def _legal(codes: I64, prot: I64, touched: bool) -> _Actions:
    """The legal actions of each position, in the engine's rules (checked against it in tests)."""
    top = _TOP[codes]
    on_board = np.stack([((codes >> (2 * s)) & 1).sum(axis=1) for s in range(3)], axis=1)
    parts: list[tuple[I64, ...]] = []
    cells = np.arange(9, dtype=np.int64)
    # Place: a supply coin, the mover's side up (face bit 0), on an empty or larger top coin.
    for s in range(3):
        ok = (on_board[:, s] < R.COINS_PER_SIZE)[:, None] & (top < s)
        p, c = np.nonzero(ok)
        delta = np.full(p.shape, 1 << (2 * s), dtype=np.int64)
        parts.append((p, c, c, delta, np.zeros_like(delta), c))
    movable = (top >= 0) & (cells[None, :] != prot[:, None])
    protect_after = cells if touched else np.full(9, NO_PROT, dtype=np.int64)
    # Flip a top coin that is not protected.
    p, c = np.nonzero(movable)
    old = codes[p, c]
    parts.append((p, c, c, _TURN[old] - old, np.zeros_like(old), protect_after[c]))
    # Move it onto an empty cell or a larger top coin, with or without a flip.
    ok = movable[:, :, None] & (top[:, None, :] < top[:, :, None])
    ok[:, cells, cells] = False
    p, a, b = np.nonzero(ok)
    old_a = codes[p, a]
    size = _TOP[old_a]
    for turn in (0, 1):
        face = _TOPFACE[old_a] ^ turn
        added = (1 | face << 1) << (2 * size)
        parts.append((p, a, b, _POP[old_a] - old_a, added, protect_after[b]))
    cols = [np.concatenate([part[i] for part in parts]).astype(np.int64) for i in range(6)]
    return _Actions(*cols)


@dataclass
class _Expanded:
    pos: I64  # position (in the chunk) of each successor that goes on
    succ: I64  # its canonical key
    win: npt.NDArray[np.bool_]  # per position: some action wins on the spot


def _expand(keys: I64, touched: bool) -> _Expanded:
    """Successors of a chunk of positions (keys), with immediate wins set apart. Actions that
    show the opponent's line lose on the spot and lead nowhere."""
    codes, prot = _decode(keys)
    acts = _legal(codes, prot, touched)
    p, a, b = acts.pos, acts.a, acts.b
    tf = _TOPFACE[codes]
    mover = ((tf == 0) * _BIT).sum(axis=1)
    other = ((tf == 1) * _BIT).sum(axis=1)
    fa, fb = _TOPFACE[codes[p, a] + acts.da], _TOPFACE[codes[p, b] + acts.db]
    clear = ~(_BIT[a] | _BIT[b])
    m = (mover[p] & clear) | ((fa == 0) * _BIT[a]) | ((fb == 0) * _BIT[b])
    o = (other[p] & clear) | ((fa == 1) * _BIT[a]) | ((fb == 1) * _BIT[b])
    loses = _HAS_LINE[o]  # the opponent's line decides first
    wins = ~loses & _HAS_LINE[m]
    go = ~(loses | wins)
    gp, ga, gb = p[go], a[go], b[go]
    perm = _permuted(codes)[:, gp]
    perm += acts.da[go] << _SHIFT_OF[:, ga]
    perm += acts.db[go] << _SHIFT_OF[:, gb]
    win = np.zeros(keys.shape[0], dtype=bool)
    win[p[wins]] = True
    return _Expanded(gp, _canonical(perm, acts.prot[go]), win)


# -- exploring: every reachable class, with its successors -------------------------------------
INITIAL_KEY = NO_PROT << PROT_SHIFT  # the empty board, nothing protected


@dataclass
class _Graph:
    keys: I64  # sorted canonical keys of every reachable class
    sides: npt.NDArray[np.uint8]  # bit 0: reached with Heads to move, bit 1: with Tails to move
    win: npt.NDArray[np.bool_]  # some action wins on the spot
    offsets: I64  # successors of class i: targets[offsets[i]:offsets[i + 1]]
    targets: I32


def _contains(sorted_keys: I64, keys: I64) -> npt.NDArray[np.bool_]:
    if sorted_keys.size == 0:
        return np.zeros(keys.shape, dtype=bool)
    idx = np.searchsorted(sorted_keys, keys)
    idx[idx >= sorted_keys.size] = 0
    hit: npt.NDArray[np.bool_] = sorted_keys[idx] == keys
    return hit


def _unique(values: I64) -> I64:
    """Sorted distinct values (np.unique, without its hashing detour for int64)."""
    values = np.sort(values)
    keep = np.ones(values.size, dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    result: I64 = values[keep]
    return result


def _explore(touched: bool, progress: Progress) -> _Graph:
    """Every class reachable from the empty board, breadth first, with its successors."""
    reached: I64 = np.array([INITIAL_KEY], dtype=np.int64)
    frontier = reached
    parts: list[tuple[I64, I64, I64]] = []  # (chunk keys, position in chunk, successor key)
    won: list[I64] = []
    depth = 0
    while frontier.size:
        found: list[I64] = []
        for lo in range(0, frontier.size, CHUNK):
            chunk = frontier[lo : lo + CHUNK]
            ex = _expand(chunk, touched)
            order = np.argsort(ex.succ)
            succ = ex.succ[order]
            parts.append((chunk, ex.pos[order].astype(np.int16), succ))
            won.append(chunk[ex.win])
            keep = np.ones(succ.size, dtype=bool)
            keep[1:] = succ[1:] != succ[:-1]
            found.append(succ[keep])
            progress(
                message("solve.exploring", depth=depth),
                reached.size,
                reached.size + frontier.size - lo,
            )
        fresh = _unique(np.concatenate(found))
        frontier = fresh[~_contains(reached, fresh)]
        # Two sorted, disjoint arrays: a stable sort merges their runs in linear time, where
        # np.union1d hashes (a fifth of the whole build in numpy 2.4).
        reached = np.sort(np.concatenate((reached, frontier)), kind="stable")
        depth += 1
    keys = reached
    win = _contains(np.sort(np.concatenate(won)), keys)
    # The successor table in the order of the sorted keys (CSR): each edge as one int64
    # (source index << 32 | target index), so a single in-place sort orders them. Two actions
    # reaching the same class (symmetric ones, 1.5% of them) stay two edges: the retrograde
    # analysis counts successors and predecessors alike, so they cancel out.
    edges = np.empty(sum(part[1].size for part in parts), dtype=np.int64)
    filled = 0
    while parts:
        chunk, pos, succ = parts.pop()
        src = np.searchsorted(keys, chunk)[pos]
        edges[filled : filled + pos.size] = src << 32 | np.searchsorted(keys, succ)
        filled += pos.size
    edges.sort()
    offsets = np.searchsorted(edges, np.arange(keys.size + 1, dtype=np.int64) << 32)
    targets = np.empty(edges.size, dtype=np.int32)
    step = 1 << 22
    for lo in range(0, edges.size, step):
        targets[lo : lo + step] = edges[lo : lo + step] & 0xFFFFFFFF
    del edges
    sides = _sides_to_move(offsets, targets, int(np.searchsorted(keys, INITIAL_KEY)))
    return _Graph(keys, sides, win, offsets, targets)


def _sides_to_move(offsets: I64, targets: I32, start: int) -> npt.NDArray[np.uint8]:
    """Which sides can be to move in each class (bit 0 Heads, bit 1 Tails): the colour swap
    forgets it, and the count of real positions needs it. Breadth first over (class, side)."""
    sides = np.zeros(offsets.size - 1, dtype=np.uint8)
    sides[start] = 1
    frontier, side = np.array([start], dtype=np.int64), 0
    while frontier.size:
        side ^= 1
        found = []
        for lo in range(0, frontier.size, 64 * CHUNK):
            nxt = _gather(offsets, targets, frontier[lo : lo + 64 * CHUNK])
            found.append(_unique(nxt[sides[nxt] & (1 << side) == 0]))
        frontier = _unique(np.concatenate(found))
        sides[frontier] |= 1 << side
    return sides


def _orbit_sizes(keys: I64) -> I64:
    """How many distinct positions each class stands for under the board's 8 symmetries."""
    codes, prot = _decode(keys)
    images = _permuted(codes) | _PROT_OF[:, prot]
    images.sort(axis=0)
    sizes: I64 = 1 + (np.diff(images, axis=0) != 0).sum(axis=0)
    return sizes


# -- the retrograde analysis ---------------------------------------------------------------------
def _retrograde(graph: _Graph, progress: Progress) -> npt.NDArray[np.int16]:
    """Signed distance to the end for the side to move: +n won in n plies, -n lost in n plies,
    0 drawn. Ply by ply backwards from the classes decided on the spot, so every class is
    decided at its true distance: the winner takes the shortest win, the loser the longest."""
    n = graph.keys.size
    win = graph.win
    # Classes won on the spot are settled: their actions play no part.
    degree = np.where(win, 0, np.diff(graph.offsets))
    targets = graph.targets[np.repeat(~win, np.diff(graph.offsets))]
    # Reverse the successor table: for each class, the classes with an action leading to it.
    order = np.argsort(targets, kind="stable")
    parents = np.repeat(np.arange(n, dtype=np.int32), degree)[order]
    del order
    parent_offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(targets, minlength=n), out=parent_offsets[1:])

    dtw = np.zeros(n, dtype=np.int16)
    unresolved = degree.copy()  # successors not yet known to be won by their mover
    lost = ~win & (degree == 0)  # every action shows the opponent's line
    dtw[win] = 1
    dtw[lost] = -1
    new_won, new_lost = np.nonzero(win)[0], np.nonzero(lost)[0]
    depth, decided = 1, int(new_won.size + new_lost.size)
    while new_won.size or new_lost.size:
        progress(message("solve.retrograde-depth", depth=depth), decided, n)
        # A class with a successor lost in `depth` is won in depth + 1.
        candidates = _gather(parent_offsets, parents, new_lost)
        next_won = _unique(candidates[dtw[candidates] == 0])
        dtw[next_won] = depth + 1
        # A class is lost in depth + 1 once its last successor turns out won in `depth`.
        candidates = _gather(parent_offsets, parents, new_won)
        hit = np.bincount(candidates[dtw[candidates] == 0], minlength=n)
        unresolved -= hit
        next_lost = np.nonzero((hit > 0) & (unresolved == 0))[0]
        dtw[next_lost] = -(depth + 1)
        new_won, new_lost = next_won, next_lost
        decided += int(new_won.size + new_lost.size)
        depth += 1
    progress(message("solve.retrograde"), n, n)
    return dtw


def _gather(offsets: I64, items: I32, rows: I64) -> I64:
    """Concatenated ``items[offsets[r]:offsets[r + 1]]`` for every row r, without a loop."""
    starts, ends = offsets[rows], offsets[rows + 1]
    lengths = ends - starts
    total = int(lengths.sum())
    if total == 0:
        return np.zeros(0, dtype=np.int64)
    run_starts = np.repeat(starts - np.cumsum(lengths) + lengths, lengths)
    index = run_starts + np.arange(total, dtype=np.int64)
    result: I64 = items[index].astype(np.int64)
    return result


# -- the public side ---------------------------------------------------------------------------
def _state_key(cells: list[int], protected: int, to_move: int) -> int:
    """The class key of an engine position (faces turned to the mover's side, then the
    smallest of the 8 symmetric keys)."""
    codes = [R.SWAP_FACES[c] for c in cells] if to_move == 1 else cells
    prot = NO_PROT if protected < 0 else protected
    best = -1
    for perm in R.SYMMETRIES:
        key = 0
        for i in range(R.NUM_CELLS):
            key |= codes[i] << (R.CELL_BITS * perm[i])
        key |= (NO_PROT if prot == NO_PROT else perm[prot]) << PROT_SHIFT
        if best < 0 or key < best:
            best = key
    return best


@dataclass(frozen=True, eq=False)  # arrays inside: identity is the only sensible equality
class Solution:
    """Every reachable Stack-a-Cash position for one ``protect`` option, solved.

    ``value(state)`` is 1 (the side to move wins with best play), 0 (draw) or -1 (loses);
    ``plies(state)`` how many more plies the game lasts when the winner hurries and the loser
    delays (0 for a draw); ``best_actions(state)`` the actions that keep the best value.
    """

    protect: str
    keys: I64  # sorted class keys
    dtw: npt.NDArray[np.int8]  # +n won in n plies, -n lost in n plies, 0 drawn (side to move)
    positions: int  # reachable positions (board, side to move, protected coin), game not over
    seconds: float  # time the solve took when it was built
    peak_mb: float  # the building process's peak memory

    @property
    def classes(self) -> int:
        """Positions kept, one per class of symmetric positions."""
        return int(self.keys.size)

    def _check(self, state: State) -> StackACashState:
        if not isinstance(state, StackACashState):
            raise ValueError(f"the Stack-a-Cash solution cannot judge a {state.game.ID} state")
        if state.game.options["protect"] != self.protect:
            raise ValueError(
                f"this solution is for protect={self.protect!r}; the state is played with "
                f"protect={state.game.options['protect']!r}"
            )
        return state

    def _distance(self, cells: list[int], protected: int, to_move: int) -> int:
        key = _state_key(cells, protected, to_move)
        i = int(np.searchsorted(self.keys, key))
        if i >= self.keys.size or int(self.keys[i]) != key:
            raise ValueError("this position cannot be reached from the start of a game")
        return int(self.dtw[i])

    def value(self, state: State, seat: int | None = None) -> int:
        """1, 0 or -1: the result with best play, for ``seat`` (by default the side to move).
        A finished game gives its actual result (then ``seat`` is needed)."""
        sac = self._check(state)
        if sac.current_player == TERMINAL:
            if seat is None:
                raise ValueError("the game is over: say whose view you want (seat=0 or 1)")
            winner = sac.winner()
            return 0 if winner is None else (1 if winner == seat else -1)
        d = self._distance(sac.cells, sac.protected, sac.current_player)
        v = (d > 0) - (d < 0)
        return v if seat is None or seat == sac.current_player else -v

    def plies(self, state: State) -> int:
        """Plies left with best play: the winner hurries, the loser delays; 0 for a draw or a
        finished game."""
        sac = self._check(state)
        if sac.current_player == TERMINAL:
            return 0
        return abs(self._distance(sac.cells, sac.protected, sac.current_player))

    def outcomes(self, state: State) -> list[tuple[Action, int, int]]:
        """Every legal action with (value, plies) for the side to move after playing it.
        An action that ends the game by repetition or the 200-ply limit counts as a draw."""
        sac = self._check(state)
        mover = sac.current_player
        out: list[tuple[Action, int, int]] = []
        for action in sac.legal_actions():
            child = sac.pushed(action)
            assert isinstance(child, StackACashState)
            if child.winner_seat >= 0:
                out.append((action, 1 if child.winner_seat == mover else -1, 1))
            elif child.current_player == TERMINAL:
                out.append((action, 0, 1))
            else:
                d = self._distance(child.cells, child.protected, child.current_player)
                out.append((action, -((d > 0) - (d < 0)), abs(d) + 1 if d else 0))
        return out

    def best_actions(self, state: State) -> list[Action]:
        """The actions that keep the best result: the fastest wins, else the draws, else the
        slowest losses. Empty for a finished game."""
        if self._check(state).current_player == TERMINAL:
            return []
        scored = self.outcomes(state)
        best = max(v for _, v, _ in scored)
        pool = [(a, p) for a, v, p in scored if v == best]
        if best == 1:
            fastest = min(p for _, p in pool)
            return [a for a, p in pool if p == fastest]
        if best == -1:
            slowest = max(p for _, p in pool)
            return [a for a, p in pool if p == slowest]
        return [a for a, _ in pool]

    def summary(self) -> dict[str, int | float | str]:
        """The opening's value for Heads, its length with best play, and the counts."""
        opening = pa.load("stack-a-cash", protect=self.protect).new_initial_state()
        return {
            "protect": self.protect,
            "value": self.value(opening),
            "plies": self.plies(opening),
            "positions": self.positions,
            "classes": self.classes,
            "won": int((self.dtw > 0).sum()),
            "drawn": int((self.dtw == 0).sum()),
            "lost": int((self.dtw < 0).sum()),
            "longest": int(np.abs(self.dtw).max()),
            "seconds": round(self.seconds, 1),
            "peak_mb": round(self.peak_mb),
        }


def random_positions(protect: str, games: int, rng: random.Random) -> list[State]:
    """Distinct positions (games not over) of ``games`` games of random play, in the order
    first met: a sample to grade an agent or check a table on."""
    game = pa.load("stack-a-cash", protect=protect)
    seen: dict[str, State] = {}
    for _ in range(games):
        state = game.new_initial_state()
        while state.current_player != TERMINAL:
            seen.setdefault(str(state), state.clone())
            state = state.child(rng.choice(state.legal_actions()))
    return list(seen.values())


def cache_dir() -> Path:
    """Where solutions are kept: ``$POCKETARENA_CACHE`` or the user's cache folder."""
    override = os.environ.get("POCKETARENA_CACHE")
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("pocketarena", appauthor=False))


def _peak_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1 << 20) if sys.platform == "darwin" else peak / 1024


def build(protect: str, progress: Progress | None = None) -> Solution:
    """Solve from scratch (no cache): explore, count, then run the retrograde analysis."""
    if protect not in PROTECT_OPTIONS:
        raise ValueError(f"protect={protect!r} is not valid; choose one of: touched, placed")
    report: Progress = progress or (lambda what, done, total: None)
    start = time.perf_counter()
    graph = _explore(protect == "touched", report)
    # Real positions: each class stands for its symmetric images, once per side to move.
    sides = (graph.sides & 1).astype(np.int64) + (graph.sides >> 1)
    positions = int((_orbit_sizes(graph.keys) * sides).sum())
    dtw = _retrograde(graph, report)
    if np.abs(dtw).max() > 127:
        raise AssertionError("a distance does not fit in int8; widen the stored type")
    return Solution(
        protect, graph.keys, dtw.astype(np.int8), positions, time.perf_counter() - start, _peak_mb()
    )


def _path(folder: Path, protect: str) -> Path:
    return folder / f"stack-a-cash-{protect}-v{FORMAT}.npz"


def save(solution: Solution, folder: Path) -> Path:
    """Write a solution (keys stored as differences, which compress well); atomic."""
    folder.mkdir(parents=True, exist_ok=True)
    path = _path(folder, solution.protect)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    with open(tmp, "wb") as f:
        np.savez_compressed(
            f,
            first=solution.keys[:1],
            gaps=np.diff(solution.keys),
            dtw=solution.dtw,
            meta=np.array([FORMAT, solution.positions]),
            timing=np.array([solution.seconds, solution.peak_mb]),
            protect=np.array(solution.protect),
        )
    os.replace(tmp, path)
    return path


def load(protect: str, folder: Path) -> Solution | None:
    """A saved solution, or None when there is none (or it is unreadable or outdated)."""
    return _read(_path(folder, protect), protect)


def shipped(protect: str) -> Solution | None:
    """The solution shipped with the package (``solve/data``), if it is there and current."""
    ref = resources.files(__package__) / "data" / _path(Path(), protect).name
    with resources.as_file(ref) as path:
        return _read(path, protect)


def _read(path: Path, protect: str) -> Solution | None:
    if not path.is_file():
        return None
    try:
        with np.load(path) as data:
            keys = np.concatenate([data["first"], data["gaps"]]).cumsum()
            dtw = data["dtw"]
            fmt, positions = (int(x) for x in data["meta"])
            seconds, peak = (float(x) for x in data["timing"])
            saved_for = str(data["protect"])
    except (OSError, ValueError, KeyError):
        return None
    if fmt != FORMAT or saved_for != protect or keys.size != dtw.size:
        return None
    if not _contains(keys, np.array([INITIAL_KEY], dtype=np.int64))[0]:
        return None
    return Solution(protect, keys.astype(np.int64), dtw.astype(np.int8), positions, seconds, peak)


_SOLVED: dict[str, Solution] = {}


@contextlib.contextmanager
def progress_bar(protect: str) -> Iterator[Progress]:
    """A rich progress bar on stderr, as a ``Progress`` callback, in the reader's language."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from pocketarena.messages import speak

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=False) as bar:
        solving = speak(message("solve.solving", protect=protect))
        task = bar.add_task(escape(solving), total=None)

        def update(what: str | Message, done: int, total: int) -> None:
            said = speak(what) if isinstance(what, Message) else what
            bar.update(task, description=escape(f"{protect}: {said}"), completed=done, total=total)

        yield update


def solve(
    protect: str = "touched",
    *,
    progress: bool | Progress = True,
    cache: Path | None = None,
    use_cache: bool = True,
) -> Solution:
    """The solution for a ``protect`` option: from memory, from the cache folder (a rebuild),
    shipped with the package, or else built (a minute or two, with a progress bar on stderr unless
    ``progress=False``; a callable receives the progress instead) and then cached.
    ``use_cache=False`` always builds afresh and stores nothing."""
    if protect not in PROTECT_OPTIONS:
        raise ValueError(f"protect={protect!r} is not valid; choose one of: touched, placed")
    if use_cache and protect in _SOLVED:
        return _SOLVED[protect]
    folder = cache or cache_dir()
    # The user's own rebuild (solve --rebuild) first, then the one shipped with the package.
    solution = (load(protect, folder) or shipped(protect)) if use_cache else None
    if solution is None:
        if progress is True:
            with progress_bar(protect) as update:
                solution = build(protect, update)
        else:
            solution = build(protect, progress or None)
        if use_cache:
            with contextlib.suppress(OSError):  # a read-only cache only costs a rebuild
                save(solution, folder)
    if use_cache:
        _SOLVED[protect] = solution
    return solution
