"""FlipWars as planes over the board, seen by one seat: ``(46, 5, 5)``, or ``(46, 4, 4)`` in the
enclosed mode.

Indexed ``[plane, rank - 1, file]``. "Own" tiles show the observing seat's colour (blue for
seat 0): a tile changes sides whenever it is flipped, so colour is all that counts. Tile kinds
are always the nine of the notation, in its order (the flag plane stays empty outside Capture
the Flag), so every mode on a board of one size has the same layout. Rotations are the
canonical ones of the notation (a rocket is always r0, a tank r0 or r90).

rows   block       size      meaning
0      own_tiles   1 plane   a tile showing own colour
1      opp_tiles   1 plane   a tile showing the opponent's colour
2-10   kind        9 planes  the tile is a tank, rocket, grenade, paratrooper, sniper, foxhole, twin, trex, flag
11-14  rotation    4 planes  the tile is turned r0, r90, r180, r270
15     block       1 plane   the block (nothing goes there; attacks pass over it)
16     empty       1 plane   an empty cell: a tile can go there
17-25  own_supply  9 planes  own tiles of each kind still to place / 2
26-34  opp_supply  9 planes  the opponent's tiles still to place / 2
35     own_turn    1 plane   the observing seat decides now
36     opp_turn    1 plane   the opponent decides now
37     own_first   1 plane   the observing seat moved first in this round
38     opp_first   1 plane   the opponent moved first in this round
39-42  phase       4 planes  place a tile, move the block, choose who starts, over
43     own_wins    1 plane   own round wins in a tactical series / 3 (the target)
44     opp_wins    1 plane   the opponent's round wins / 3
45     round       1 plane   round number / 9 (a series has at most 9)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pocketarena.core import Game, State
from pocketarena.observe.layout import Block, Layout

KINDS = ("tank", "rocket", "grenade", "paratrooper", "sniper", "foxhole", "twin", "trex", "flag")
COLOURS = ("blue", "red")
ROTATIONS = ("r0", "r90", "r180", "r270")
PHASES = ("place", "block", "first", "over")
MOST_COPIES = 2  # tiles of one kind a player starts with, at most
SERIES_TARGET = 3  # round wins that take a series
SERIES_MAX_ROUNDS = 9


@cache
def _layout(size: int) -> Layout:
    return Layout(
        [
            Block("own_tiles", (1,), "a tile showing own colour", "opp_tiles"),
            Block("opp_tiles", (1,), "a tile showing the opponent's colour", "own_tiles"),
            Block("kind", (9,), "the tile is a " + ", ".join(KINDS)),
            Block("rotation", (4,), "the tile is turned " + ", ".join(ROTATIONS)),
            Block("block", (1,), "the block (nothing goes there; attacks pass over it)"),
            Block("empty", (1,), "an empty cell: a tile can go there"),
            Block("own_supply", (9,), "own tiles of each kind still to place / 2", "opp_supply"),
            Block("opp_supply", (9,), "the opponent's tiles still to place / 2", "own_supply"),
            Block("own_turn", (1,), "the observing seat decides now", "opp_turn"),
            Block("opp_turn", (1,), "the opponent decides now", "own_turn"),
            Block("own_first", (1,), "the observing seat moved first in this round", "opp_first"),
            Block("opp_first", (1,), "the opponent moved first in this round", "own_first"),
            Block("phase", (4,), "place a tile, move the block, choose who starts, over"),
            Block("own_wins", (1,), "own round wins in a tactical series / 3", "opp_wins"),
            Block("opp_wins", (1,), "the opponent's round wins / 3", "own_wins"),
            Block("round", (1,), "round number / 9"),
        ],
        board=(size, size),
    )


def layout(game: Game) -> Layout:
    size: int = game.size  # type: ignore[attr-defined]
    return _layout(size)


def write(state: State, seat: int, out: np.ndarray) -> None:
    """Fill the zeroed ``out`` with ``seat``'s view of ``state``."""
    pos = state.position()
    size = pos["size"]
    lay = _layout(size)
    rows = {b.name: lay.view(out, b.name) for b in lay}
    own_colour = COLOURS[seat]
    for name, tile in pos["cells"].items():
        at = (int(name[1:]) - 1, ord(name[0]) - ord("a"))
        if tile is None:
            rows["empty"][0][at] = 1.0
            continue
        rows["own_tiles" if tile["colour"] == own_colour else "opp_tiles"][0][at] = 1.0
        rows["kind"][KINDS.index(tile["tile"])][at] = 1.0
        rows["rotation"][ROTATIONS.index(tile["rotation"])][at] = 1.0
    block = pos["block"]
    if block is not None:
        at = (int(block[1:]) - 1, ord(block[0]) - ord("a"))
        rows["block"][0][at] = 1.0
        rows["empty"][0][at] = 0.0
    for colour, name in ((own_colour, "own_supply"), (COLOURS[1 - seat], "opp_supply")):
        for kind, count in pos["supply"][colour].items():
            rows[name][KINDS.index(kind)] = count / MOST_COPIES
    for key, own, opp in (("to_move", "own_turn", "opp_turn"), ("first", "own_first", "opp_first")):
        colour = pos[key]
        if colour is not None:
            rows[own if colour == own_colour else opp][0] = 1.0
    rows["phase"][PHASES.index(pos["phase"])] = 1.0
    series = pos["series"]
    if series is not None:
        wins = series["round_wins"]
        rows["own_wins"][0] = wins[own_colour] / SERIES_TARGET
        rows["opp_wins"][0] = wins[COLOURS[1 - seat]] / SERIES_TARGET
    rows["round"][0] = min(pos["round"], SERIES_MAX_ROUNDS) / SERIES_MAX_ROUNDS
