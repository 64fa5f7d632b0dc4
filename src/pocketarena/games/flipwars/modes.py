"""FlipWars' modes (board size, tiles per player, the flag, the block), the series of rounds in
Tactical War, and the phases a position goes through.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mode:
    name: str
    size: int  # the board is size x size
    copies: int  # tiles of each of the eight kinds per player
    flag: bool  # Capture the Flag: one flag each, placed first
    block: str | None  # the block's cell in round 1
    blurb: str


MODES = {
    m.name: m
    for m in (
        Mode("standard", 5, 2, False, None, "5x5 board, two of each tile"),
        Mode("enclosed", 4, 1, False, None, "Enclosed Battle: 4x4 board, one of each tile"),
        Mode("flag", 5, 2, True, None, "Capture the Flag: a flag each, placed first, worth 2"),
        Mode("tactical", 5, 2, False, "c3", "Tactical War: the block on c3, a series of rounds"),
    )
}

SERIES_TARGET = 3  # round wins that take a series
SERIES_MAX_ROUNDS = 9

# Phases of a position.
PLACING, CHOOSE_BLOCK, CHOOSE_FIRST, OVER = 0, 1, 2, 3
PHASE_NAMES = ("place", "block", "first", "over")
