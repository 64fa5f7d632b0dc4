"""How good a Coin Age position looks for a seat.

The score margin (with region doubling and bank coins, as the game would score it now) is the
core; on top of it: the bank's value (coins still to place, and the tie-break), the exposure of
high coins that the opponent can cover with a smaller one or capture on their next turn, and
the regions whose majority is held or still open. Antisymmetric: evaluate(s, 0) = -evaluate(s, 1).
"""

from __future__ import annotations

import math

from pocketarena.core import TERMINAL, State
from pocketarena.games.coin_age import CoinAgeState

BANK_WEIGHT = 0.25  # per point of bank value (rank total)
EXPOSURE_WEIGHT = 0.6  # per expected point lost to a cover or capture
MAJORITY_WEIGHT = 1.0  # per region held with a strict majority
SCALE = 12.0  # margin that reads as a clear lead


def exposure(state: CoinAgeState, seat: int) -> float:
    """Expected points ``seat`` loses from its top coins on the opponent's next slap: a coin of
    rank r can be covered by any smaller coin of the opponent's that lands matching, and any
    coin can be captured after a slap with no match."""
    opponent = 1 - seat
    bank = state.banks[opponent]
    kinds_held = [k for k in range(4) if bank[k]]
    thrown = len(kinds_held)
    if thrown == 0:
        return 0.0
    p_capture = 0.5**thrown
    total = 0.0
    for top in state.tops:
        if top < 0 or top >> 2 != seat:
            continue
        kind = top & 3
        smaller = sum(1 for k in kinds_held if k < kind)
        p_cover = 1.0 - 0.5**smaller
        total += (kind + 1) * min(1.0, p_cover + p_capture)
    return total


def _majorities(state: CoinAgeState, seat: int) -> int:
    held = 0
    for spaces in state.game.region_spaces:
        mine = theirs = 0
        for s in spaces:
            top = state.tops[s]
            if top >= 0:
                if top >> 2 == seat:
                    mine += 1
                else:
                    theirs += 1
        held += (mine > theirs) - (theirs > mine)
    return held


def evaluate(state: State, seat: int) -> float:
    if not isinstance(state, CoinAgeState):
        raise TypeError(f"expected a Coin Age state, got {state.game.ID}")
    opponent = 1 - seat
    if state.current_player == TERMINAL:
        winner = state.winner()
        return 0.0 if winner is None else (1.0 if winner == seat else -1.0)
    scores = state.scores()
    x: float = scores[seat] - scores[opponent]
    x += BANK_WEIGHT * (state.bank_value(seat) - state.bank_value(opponent))
    x += EXPOSURE_WEIGHT * (exposure(state, opponent) - exposure(state, seat))
    x += MAJORITY_WEIGHT * _majorities(state, seat)
    # Strictly inside (-1, 1): only a finished game is certain.
    return 0.99 * math.tanh(x / SCALE)
