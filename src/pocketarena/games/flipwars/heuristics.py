"""How good a FlipWars position looks for a seat, in [-1, 1].

A tile can still change colour only if some empty cell can attack it with a tile that someone
still has to place. So the colour margin is split: *settled* tiles (no remaining tile of either
player can reach them from an empty cell) count in full, *exposed* tiles count half; and the
side to move gets a tempo bonus for the opponent's tiles it can reach right now. A flag
is worth 2 in the score and so weighs double in both parts: a flag left where the opponent can
flip it is a 4-point swing waiting to happen. Placing last is an edge (no reply), so the side
that will make the round's last placement gets a small bonus. In a tactical series the round
wins come first and the current round adds to them.

Antisymmetric: ``evaluate(s, 0) == -evaluate(s, 1)``.
"""

from __future__ import annotations

import math

from pocketarena.core import TERMINAL, State
from pocketarena.games.flipwars import FLAG, KINDS, FlipWars, FlipWarsState
from pocketarena.games.flipwars.modes import PLACING

__all__ = ["evaluate", "exposure_masks", "features"]

EXPOSED = 0.5  # an exposed tile may still flip: half its value
TEMPO = 0.5  # per opponent tile (up to TEMPO_CAP) the side to move can reach right now
TEMPO_CAP = 3
LAST_PLACER = 0.6  # points for making the round's last placement
SCALE = 6.0  # a margin of this many points reads as a clear lead
SERIES_WEIGHT = 0.7  # share of a series' value carried by round wins

# (board size, kinds mask) -> per cell, the cells from which those kinds (any rotation)
# attack it.
_REACH: dict[tuple[int, int], tuple[int, ...]] = {}


def exposure_masks(game: FlipWars, kinds_mask: int) -> tuple[int, ...]:
    """Per cell: the cells from which a tile of a kind in ``kinds_mask`` (bit k for kind k),
    turned any way, attacks it."""
    key = (game.size, kinds_mask)
    cached = _REACH.get(key)
    if cached is None:
        n = game.size
        reach = [0] * (n * n)
        for kind in KINDS:
            if not kinds_mask >> kind.index & 1:
                continue
            for q in range(4):
                for dx, dy in kind.offsets(q):
                    for cell in range(n * n):
                        x, y = cell % n - dx, cell // n - dy  # the attacker's cell
                        if 0 <= x < n and 0 <= y < n:
                            reach[cell] |= 1 << (y * n + x)
        cached = tuple(reach)
        _REACH[key] = cached
    return cached


_KINDS_MASKS: dict[int, int] = {}  # supply -> kinds mask: a few dozen supplies a game


def _kinds_mask(stock: int) -> int:
    """Bit k for each kind k the supply still holds."""
    mask = _KINDS_MASKS.get(stock)
    if mask is None:
        mask = 0
        k = 0
        rest = stock
        while rest:
            if rest & 3:
                mask |= 1 << k
            rest >>= 2
            k += 1
        _KINDS_MASKS[stock] = mask
    return mask


def features(state: FlipWarsState, seat: int) -> dict[str, float]:
    """The terms of the round evaluation, each as a margin for ``seat``."""
    game = state.game
    n2 = game.size * game.size
    occupied = state.blue | state.red
    empty = ((1 << n2) - 1) & ~occupied & ~(1 << state.block if state.block >= 0 else 0)
    mine = state.blue if seat == 0 else state.red
    theirs = occupied & ~mine
    to_move = state.current_player
    any_reach = exposure_masks(game, _kinds_mask(state.stock[0]) | _kinds_mask(state.stock[1]))
    mover_kinds = 0
    if to_move >= 0:
        # What the mover may place now (only the flag, at first, in Capture the Flag): the
        # kinds of game.combos_for(stock), every kind having its combos.
        stock = state.stock[to_move]
        flag_first = game.mode.flag and stock >> (2 * FLAG) & 3
        mover_kinds = 1 << FLAG if flag_first else _kinds_mask(stock)
    mover_reach = exposure_masks(game, mover_kinds)
    # The tiles some empty cell can still attack (exposed; the others are settled), and of
    # those the ones the side to move can attack on this move. The MCTS bots evaluate every
    # leaf here: one pass over the tiles as bits, the sums by counting bits.
    exposed_cells = reachable_now = 0
    rest = occupied
    while rest:
        bit = rest & -rest
        rest ^= bit
        cell = bit.bit_length() - 1
        if any_reach[cell] & empty:
            exposed_cells |= bit
            if mover_reach[cell] & empty:
                reachable_now |= bit
    settled_cells = occupied & ~exposed_cells
    flags = state.flags

    def margin(cells: int) -> float:
        """Tiles of ``seat`` less the opponent's among ``cells``, a flag counting 2."""
        return float(
            (cells & mine).bit_count()
            + (cells & mine & flags).bit_count()
            - (cells & theirs).bit_count()
            - (cells & theirs & flags).bit_count()
        )

    # The side to move can turn some of the opponent's exposed tiles right now.
    targets = (reachable_now & (theirs if to_move == seat else mine)).bit_count()
    tempo = min(targets, TEMPO_CAP) if to_move >= 0 else 0
    if to_move != seat:
        tempo = -tempo
    # Who places last: the empty cells alternate starting with the side to move.
    cells_left = len(state.empty)
    last = 0.0
    if to_move >= 0 and cells_left:
        last_placer = to_move if cells_left % 2 else 1 - to_move
        last = 1.0 if last_placer == seat else -1.0
    return {
        "settled": margin(settled_cells),
        "exposed": margin(exposed_cells),
        "tempo": float(tempo),
        "last": last,
    }


def _round_value(state: FlipWarsState, seat: int) -> float:
    f = features(state, seat)
    x = f["settled"] + EXPOSED * f["exposed"] + TEMPO * f["tempo"] + LAST_PLACER * f["last"]
    return math.tanh(x / SCALE)


def evaluate(state: State, seat: int) -> float:
    if not isinstance(state, FlipWarsState):
        raise TypeError(f"expected a FlipWars state, got {state.game.ID}")
    if state.current_player == TERMINAL:
        winner = state.winner()
        return 0.0 if winner is None else (1.0 if winner == seat else -1.0)
    if not state.game.series:
        return 0.99 * _round_value(state, seat)
    wins = state.wins[seat] - state.wins[1 - seat]
    series = wins / 3.0
    # Between rounds the board shows the finished round: it no longer counts.
    current = _round_value(state, seat) if state.phase == PLACING else 0.0
    return 0.99 * max(-1.0, min(1.0, SERIES_WEIGHT * series + (1 - SERIES_WEIGHT) * current))
