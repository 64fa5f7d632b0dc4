"""How good a Wallet Battles position looks for a seat, in [-1, 1].

The score margin so far, adjusted by what the next act is likely to bring: the next HH or TT
is as likely to go to either side, so each side's best single action counts half (its best
place, including topping a 2-stack up to the doubled 3-coin stack, or its best capture of an
exposed top coin). A small term for exposure (every enemy capture that would hurt) and one for
pile coins still to play round it off. Cheap: one pass over the locations.

A lead counts for more the nearer the end: the scale shrinks with the places left before the
map ends the game (empty locations by the ``occupied`` end, never-used ones by ``used``) or a
pile runs out, and the value shrinks a little with them (``HASTE``), so a leader hurries the
end, even far ahead where the value barely moves, and a trailer holds it off. Greedy with this
scale beat greedy without it 0.59-0.64 (200 games a variant, seats and flips mirrored) by the
``used`` end and 0.53-0.65 (100 games) by ``occupied``; the haste left greedy as strong as
before (0.50, 200 games a variant by ``used``) and keeps a strong side that is far ahead from
passing until the flip guard instead of ending the game.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

from pocketarena.core import TERMINAL, State
from pocketarena.games.wallet_battles import WalletBattlesState

SCALE = 12.0  # a margin of about a dozen points is a comfortable lead
EXPOSURE_WEIGHT = 0.15
PILE_WEIGHT = 0.05
END_SCALE = 0.3  # at the very end the scale is this fraction of SCALE
HASTE = 0.05  # a value shrinks by this fraction when the end is a whole map away


def _value(n: int) -> int:
    """What holding a stack of ``n`` coins scores (2 + n, coins doubled from 3, as the rules page states)."""
    if n == 0:
        return 0
    return 2 + (2 * n if n >= 3 else n)


def _capture_swing(n: int) -> int:
    """Margin gained by capturing the top of an enemy stack of ``n`` coins (the coin joins
    the capturer's pile). A 3-stack losing its doubling is the juiciest target."""
    return _value(n) - _value(n - 1) + 1


# By stack height (a stack holds at most one coin of each of the 4 kinds): what topping it up
# gains its holder (the new coin's value less the pile point), and what capturing its top
# gains the enemy. Tables, since search calls the heuristic tens of thousands of times a move.
_HEIGHTS = range(5)
_TOP_UP = tuple(_value(n + 1) - _value(n) - 1 for n in _HEIGHTS)
_SWING = (0, *(_capture_swing(n) for n in _HEIGHTS[1:]))


def _features(board: WalletBattlesState) -> tuple[list[int], list[int]]:
    """Per seat: its best single-action gain, and its exposure (the sum of what capturing
    each of its top coins would gain the enemy). One pass over the locations."""
    piles = board.piles
    # The smallest coin kind each seat still has (the largest index), -1 for an empty pile.
    smallest = [-1, -1]
    for seat in (0, 1):
        for c in (3, 2, 1, 0):
            if piles[4 * seat + c]:
                smallest[seat] = c
                break
    open_location = 2 if board.empty else 0  # a coin there: +3 held, -1 pile
    best = [open_location if smallest[0] >= 0 else 0, open_location if smallest[1] >= 0 else 0]
    exposure = [0, 0]
    stacks = board.stacks
    for loc, h in enumerate(board.holder):
        if h < 0:
            continue
        stack = stacks[loc]
        n = len(stack)
        if smallest[h] > stack[-1] and _TOP_UP[n] > best[h]:
            best[h] = _TOP_UP[n]  # a smaller coin can go on top
        swing = _SWING[n]
        exposure[h] += swing
        if swing > best[1 - h]:
            best[1 - h] = swing
    return best, exposure


def places_left(board: WalletBattlesState) -> int:
    """Places before the game's end at the latest: before the map ends it (by the end rule in
    play) or the smaller pile runs out."""
    on_map = board.unused if board.game.ends_when_used else board.empty
    return min(on_map, board.pile_total[0], board.pile_total[1])


def scale(board: WalletBattlesState) -> float:
    """The margin that counts as a comfortable lead here: SCALE while the end is a whole map
    away, shrinking to END_SCALE * SCALE as it nears."""
    far = min(1.0, places_left(board) / len(board.holder))
    return SCALE * (END_SCALE + (1.0 - END_SCALE) * far)


def evaluate(state: State, seat: int) -> float:
    if not isinstance(state, WalletBattlesState):
        raise TypeError(f"a Wallet Battles state is needed, got {type(state).__name__}")
    if state.current_player == TERMINAL:
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == seat else -1.0)
    other = 1 - seat
    scores = state.scores()
    margin = scores[seat] - scores[other]
    best, exposure = _features(state)
    my_best, their_best = best[seat], best[other]
    my_exposure, their_exposure = exposure[seat], exposure[other]
    x = (
        margin
        + 0.5 * (my_best - their_best)
        + EXPOSURE_WEIGHT * (their_exposure - my_exposure)
        + PILE_WEIGHT * (state.pile_total[seat] - state.pile_total[other])
    )
    # Sooner is better for the side ahead, later for the side behind, by the places the side
    # ahead needs to end the game itself. Without this a side far ahead (its value all but 1
    # either way) is indifferent between ending the game and passing until the flip guard
    # ends it: a win for it, and a long wait for a person.
    leader = seat if x > 0 else other
    to_end = min(
        state.unused if state.game.ends_when_used else state.empty, state.pile_total[leader]
    )
    haste = 1.0 - HASTE * to_end / len(state.holder)
    return math.tanh(x / scale(state)) * haste


def position_key(state: State) -> Hashable:
    """A key for search tables under which positions that differ only in *which* locations
    hold what are one: no rule tells locations apart (no adjacency, equal worth), so the same
    stacks on other locations have the same future. Searches share their values and skip the
    moves that lead to such twins (the same coin onto either of two empty locations)."""
    if not isinstance(state, WalletBattlesState):
        raise TypeError(f"a Wallet Battles state is needed, got {type(state).__name__}")
    ever = state.ever if state.game.ends_when_used else 0  # used only matters by that end
    sites = sorted(
        (h, stack, ever >> loc & 1)
        for loc, (h, stack) in enumerate(zip(state.holder, state.stacks, strict=True))
    )
    return (
        state.current_player,
        state.recalling,
        tuple(sites),
        tuple(state.piles),
        state.odd,
        state.flips,
    )
