"""Coin Race as a flat vector seen by one seat: shape ``(5,)``.

rows  block      size  meaning
0     own_total  1     the observing seat's total / goal
1     opp_total  1     the opponent's total / goal
2     own_turn   1     the observing seat is to flip or run
3     opp_turn   1     the opponent is
4     heads      1     this turn's flip came up heads (3 steps allowed)
"""

from __future__ import annotations

import numpy as np

from pocketarena.core import TERMINAL, Game, State
from pocketarena.observe.layout import Block, Layout

LAYOUT = Layout(
    [
        Block("own_total", (1,), "the observing seat's total / goal", "opp_total"),
        Block("opp_total", (1,), "the opponent's total / goal", "own_total"),
        Block("own_turn", (1,), "the observing seat is to flip or run", "opp_turn"),
        Block("opp_turn", (1,), "the opponent is", "own_turn"),
        Block("heads", (1,), "this turn's flip came up heads (3 steps allowed)"),
    ]
)


def layout(game: Game) -> Layout:
    return LAYOUT


def write(state: State, seat: int, out: np.ndarray) -> None:
    """Fill the zeroed ``out`` with ``seat``'s view of ``state``."""
    pos = state.position()
    goal = state.game.options["goal"]
    out[0] = min(pos["totals"][seat], goal) / goal
    out[1] = min(pos["totals"][1 - seat], goal) / goal
    if state.current_player != TERMINAL:
        out[2 if pos["mover"] == seat else 3] = 1.0
    out[4] = 1.0 if pos["heads"] else 0.0
