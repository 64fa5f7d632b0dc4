"""How good a Wallet Battles position looks for a seat, in [-1, 1].

The score margin so far, adjusted by what the next act is likely to bring: the next HH or TT
is as likely to go to either side, so each side's best single action counts half (its best
place, including topping a 2-stack up to the doubled 3-coin stack, or its best capture of an
exposed top coin). A small term for exposure (every enemy capture that would hurt) and one for
pile coins still to play round it off. Cheap: one pass over the locations.
"""

from __future__ import annotations

import math

from pocketarena.core import TERMINAL, State
from pocketarena.games.wallet_battles import WalletBattlesState

SCALE = 12.0  # a margin of about a dozen points is a comfortable lead
EXPOSURE_WEIGHT = 0.15
PILE_WEIGHT = 0.05


def _value(n: int) -> int:
    """What holding a stack of ``n`` coins scores (SPEC: 2 + n, coins doubled from 3)."""
    if n == 0:
        return 0
    return 2 + (2 * n if n >= 3 else n)


def _capture_swing(n: int) -> int:
    """Margin gained by capturing the top of an enemy stack of ``n`` coins (the coin joins
    the capturer's pile). A 3-stack losing its doubling is the juiciest target."""
    return _value(n) - _value(n - 1) + 1


def _features(board: WalletBattlesState, seat: int) -> tuple[int, int]:
    """``seat``'s best single-action gain, and the exposure of the enemy: the sum of what
    capturing each enemy top coin would gain ``seat``."""
    piles = board.piles
    smallest_in_pile = max((c for c in range(4) if piles[4 * seat + c]), default=-1)
    best = 0  # passing gains nothing
    if smallest_in_pile >= 0 and board.empty:
        best = 2  # a coin on an empty location: +3 held, -1 pile
    exposure = 0
    for loc, h in enumerate(board.holder):
        if h < 0:
            continue
        n = len(board.stacks[loc])
        if h == seat:
            # A smaller coin can go on top: +value gained, -1 from the pile.
            if smallest_in_pile > board.stacks[loc][-1]:
                best = max(best, _value(n + 1) - _value(n) - 1)
        else:
            swing = _capture_swing(n)
            best = max(best, swing)
            exposure += swing
    return best, exposure


def evaluate(state: State, seat: int) -> float:
    if not isinstance(state, WalletBattlesState):
        raise TypeError(f"a Wallet Battles state is needed, got {type(state).__name__}")
    if state.current_player == TERMINAL:
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == seat else -1.0)
    other = 1 - seat
    scores = state.scores()
    margin = scores[seat] - scores[other]
    my_best, their_exposure = _features(state, seat)
    their_best, my_exposure = _features(state, other)
    x = (
        margin
        + 0.5 * (my_best - their_best)
        + EXPOSURE_WEIGHT * (their_exposure - my_exposure)
        + PILE_WEIGHT * (state.pile_total[seat] - state.pile_total[other])
    )
    return math.tanh(x / SCALE)
