"""Stack-a-Cash as planes over the 3x3 board, seen by one seat: shape ``(16, 3, 3)``.

Indexed ``[plane, rank - 1, file]`` (``[p, 0, 0]`` is a1, ``[p, 2, 2]`` is c3). "Own" coins show
the observing seat's side (Heads for seat 0, Tails for seat 1), "opp" coins the other side: a
coin belongs to nobody in this game, only its face counts.

rows  block       size      meaning
0-2   own_coins   3 planes  a coin of size L, M, S lies in the cell showing own side
3-5   opp_coins   3 planes  the same for coins showing the opponent's side
6     own_top     1 plane   the cell's top coin shows own side
7     opp_top     1 plane   the cell's top coin shows the opponent's side
8     protected   1 plane   the coin the mover may not move or flip this turn
9-11  supply      3 planes  coins of size L, M, S still in the supply / 2
12    own_turn    1 plane   the observing seat is to move
13    opp_turn    1 plane   the opponent is to move
14    repetition  1 plane   occurrences of this position so far / 3
15    ply         1 plane   plies played / 200
"""

from __future__ import annotations

import numpy as np

from pocketarena.core import Game, State
from pocketarena.observe.layout import Block, Layout

SIZES = ("L", "M", "S")
FACES = ("H", "T")  # face of seat 0, of seat 1
MAX_PLIES = 200
REPETITIONS_FOR_DRAW = 3
COINS_PER_SIZE = 2

LAYOUT = Layout(
    [
        Block(
            "own_coins",
            (3,),
            "a coin of size L, M, S lies in the cell showing own side",
            "opp_coins",
        ),
        Block("opp_coins", (3,), "the same for coins showing the opponent's side", "own_coins"),
        Block("own_top", (1,), "the cell's top coin shows own side", "opp_top"),
        Block("opp_top", (1,), "the cell's top coin shows the opponent's side", "own_top"),
        Block("protected", (1,), "the coin the mover may not move or flip this turn"),
        Block("supply", (3,), "coins of size L, M, S still in the supply / 2"),
        Block("own_turn", (1,), "the observing seat is to move", "opp_turn"),
        Block("opp_turn", (1,), "the opponent is to move", "own_turn"),
        Block("repetition", (1,), "occurrences of this position so far / 3"),
        Block("ply", (1,), "plies played / 200"),
    ],
    board=(3, 3),
)
_ROW = {b.name: LAYOUT.start(b.name) for b in LAYOUT}


def layout(game: Game) -> Layout:
    return LAYOUT


def write(state: State, seat: int, out: np.ndarray) -> None:
    """Fill the zeroed ``out`` with ``seat``'s view of ``state``."""
    pos = state.position()
    own_face = FACES[seat]
    flat = out.reshape(out.shape[0], 9)
    for name, coins in pos["stacks"].items():
        cell = (int(name[1]) - 1) * 3 + "abc".index(name[0])
        for coin in coins:
            base = _ROW["own_coins"] if coin["face"] == own_face else _ROW["opp_coins"]
            flat[base + SIZES.index(coin["size"]), cell] = 1.0
        if coins:
            top = _ROW["own_top"] if coins[-1]["face"] == own_face else _ROW["opp_top"]
            flat[top, cell] = 1.0
    protected = pos["protected"]
    if protected:
        flat[_ROW["protected"], (int(protected[1]) - 1) * 3 + "abc".index(protected[0])] = 1.0
    for s, size in enumerate(SIZES):
        out[_ROW["supply"] + s] = pos["supply"][size] / COINS_PER_SIZE
    to_move = pos["to_move"]
    if to_move is not None:
        mover = state.game.SEATS.index(to_move)
        out[_ROW["own_turn"] if mover == seat else _ROW["opp_turn"]] = 1.0
    out[_ROW["repetition"]] = min(pos["repetitions"], REPETITIONS_FOR_DRAW) / REPETITIONS_FOR_DRAW
    out[_ROW["ply"]] = min(pos["ply"], MAX_PLIES) / MAX_PLIES
