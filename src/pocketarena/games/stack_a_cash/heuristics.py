"""How good a Stack-a-Cash position looks for a seat, in [-1, 1].

Counted on the top layer, for each side: threats (two of its faces in a line whose third cell
it could make its own by placing, flipping or moving a coin), a win in one (such a threat of
the side to move), flippable coins (top coins of the other side it may turn over) and top coins
shown. A win in one decides; otherwise the differences are weighed and squashed below 0.85.
"""

from __future__ import annotations

import math

from pocketarena.core import TERMINAL, State
from pocketarena.games.stack_a_cash import StackACashState
from pocketarena.games.stack_a_cash.board import LINES, TOP_SIZE

__all__ = ["evaluate", "features"]

WIN_IN_ONE = 0.9
THREAT = 0.3
FLIPPABLE = 0.05
TOPS = 0.04


def _can_take(state: StackACashState, cell: int, keep: list[int], to_move: bool) -> bool:
    """Could a side make ``cell`` show its face with one action, not touching ``keep``?"""
    code = state.cells[cell]
    top = TOP_SIZE[code]
    supply = state.supply()
    # Placing a smaller coin of its own covers or fills the cell.
    if any(supply[s] for s in range(top + 1, 3)):
        return True
    if top >= 0 and (not to_move or cell != state.protected):
        return True  # flip the opponent's coin there
    # Moving a smaller top coin in from elsewhere (flipped if need be).
    return any(
        TOP_SIZE[state.cells[c]] > top and (not to_move or c != state.protected)
        for c in range(9)
        if c != cell and c not in keep
    )


def features(state: StackACashState, seat: int) -> dict[str, float]:
    """The counts the evaluation weighs, for ``seat`` and its opponent."""
    shown = (state.heads, state.tails)
    to_move = state.current_player
    out: dict[str, float] = {}
    for side, name in ((seat, "own"), (1 - seat, "opp")):
        mine, theirs = shown[side], shown[1 - side]
        threats = wins = 0
        for line in LINES:
            have = [c for c in line if mine >> c & 1]
            if len(have) != 2:
                continue
            (third,) = [c for c in line if not mine >> c & 1]
            if not _can_take(state, third, have, to_move == side):
                continue
            threats += 1
            if to_move == side:
                wins += 1
        flippable = sum(
            1
            for c in range(9)
            if theirs >> c & 1 and not (to_move == side and c == state.protected)
        )
        out[f"{name}_threats"] = threats
        out[f"{name}_win_in_one"] = wins
        out[f"{name}_flippable"] = flippable
        out[f"{name}_tops"] = bin(mine).count("1")
    return out


def evaluate(state: State, seat: int) -> float:
    """Value of ``state`` for ``seat``: 1 won, -1 lost, 0 drawn; in between a guess."""
    if not isinstance(state, StackACashState):
        raise TypeError(f"not a Stack-a-Cash state: {state!r}")
    if state.current_player == TERMINAL:
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == seat else -1.0)
    f = features(state, seat)
    if f["own_win_in_one"]:
        return WIN_IN_ONE
    if f["opp_win_in_one"]:
        return -WIN_IN_ONE
    score = THREAT * (f["own_threats"] - f["opp_threats"])
    score += FLIPPABLE * (f["own_flippable"] - f["opp_flippable"])
    score += TOPS * (f["own_tops"] - f["opp_tops"])
    return 0.85 * math.tanh(score)
