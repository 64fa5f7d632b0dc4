"""Wallet Battles as a flat vector seen by one seat: ``(8L + 20,)`` for a map of L locations,
so (92,) on Gettysburg and (76,) on Antietam.

Locations are in the map's notation order (``game.location_ids``); coin kinds in the order
Q N P D (largest first, as stacks grow). "Own" coins are the observing seat's. The table is
for Gettysburg (L = 9); on Antietam (L = 7) the rows after the stacks move up by 16.

rows   block       size   meaning
0-35   own_stack   9 x 4  own coin of kind Q N P D in the location's stack
36-71  opp_stack   9 x 4  the same for the opponent's coins
72-75  own_pile    4      own pile's Q N P D / all coins of that kind
76-79  opp_pile    4      the opponent's pile, likewise
80     own_to_act  1      the observing seat decides now (act or recall)
81     opp_to_act  1      the opponent decides now
82     own_union   1      the observing seat is the Union (acts on HH, recalls first)
83     opp_union   1      the opponent is the Union
84-87  phase       4      flip to make, act, recall, game over
88-90  odd         3      odd flips in a row: 0, 1, 2 (one-hot)
91     flips       1      flips made / 500 (the game ends there)
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pocketarena.core import Game, State
from pocketarena.games.wallet_battles import FLIP_LIMIT, load_map
from pocketarena.observe.layout import Block, Layout

KINDS = "QNPD"
PHASES = ("flip", "act", "recall", "over")
ODD_STEPS = 3  # odd flips in a row: 0, 1 or 2 (the third one recalls)


@cache
def _layout(map_id: str) -> Layout:
    n = len(load_map(map_id).locations)
    return Layout(
        [
            Block(
                "own_stack", (n, 4), "own coin of kind Q N P D in the location's stack", "opp_stack"
            ),
            Block("opp_stack", (n, 4), "the same for the opponent's coins", "own_stack"),
            Block("own_pile", (4,), "own pile's Q N P D / all coins of that kind", "opp_pile"),
            Block("opp_pile", (4,), "the opponent's pile, likewise", "own_pile"),
            Block(
                "own_to_act", (1,), "the observing seat decides now (act or recall)", "opp_to_act"
            ),
            Block("opp_to_act", (1,), "the opponent decides now", "own_to_act"),
            Block(
                "own_union",
                (1,),
                "the observing seat is the Union (acts on HH, recalls first)",
                "opp_union",
            ),
            Block("opp_union", (1,), "the opponent is the Union", "own_union"),
            Block("phase", (4,), "flip to make, act, recall, game over"),
            Block("odd", (3,), "odd flips in a row: 0, 1, 2 (one-hot)"),
            Block("flips", (1,), "flips made / 500 (the game ends there)"),
        ]
    )


def layout(game: Game) -> Layout:
    return _layout(game.options["map"])


def write(state: State, seat: int, out: np.ndarray) -> None:
    """Fill the zeroed ``out`` with ``seat``'s view of ``state``."""
    pos = state.position()
    lay = _layout(pos["map"])
    rows = {b.name: lay.view(out, b.name) for b in lay}
    for i, loc in enumerate(pos["locations"]):
        holder = loc["holder"]
        if holder is not None:
            stack = rows["own_stack" if holder == seat else "opp_stack"]
            for kind in loc["stack"]:
                stack[i, KINDS.index(kind)] = 1.0
    coins = state.game.options["coins"]
    for who, name in ((seat, "own_pile"), (1 - seat, "opp_pile")):
        pile = pos["piles"][who]
        for k, kind in enumerate(KINDS):
            rows[name][k] = pile[kind] / max(1, 2 * coins[kind])
    to_move = pos["to_move"]
    if to_move is not None:
        rows["own_to_act" if to_move == seat else "opp_to_act"][0] = 1.0
    rows["own_union" if seat == 0 else "opp_union"][0] = 1.0
    rows["phase"][PHASES.index(pos["phase"])] = 1.0
    rows["odd"][min(pos["odd_in_a_row"], ODD_STEPS - 1)] = 1.0
    rows["flips"][0] = min(pos["flips"], FLIP_LIMIT) / FLIP_LIMIT
