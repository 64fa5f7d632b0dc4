"""Coin Age as a flat vector seen by one seat: shape ``(340,)`` on every map (ten spaces).

Spaces are in the map's notation order (``game.map.space_ids``); coin kinds in rank order
D P N Q. "Own" coins are the observing seat's (Heads coins for seat 0), "opp" the opponent's.
The map itself (regions and adjacency) is part of the vector, so one network can play every map.

rows     block      size     meaning
0-39     own_stack  10 x 4   the space's stack holds own coin of kind D P N Q
40-79    opp_stack  10 x 4   the same for the opponent's coins
80-119   own_top    10 x 4   the space's top coin is own coin of that kind
120-159  opp_top    10 x 4   the top coin is the opponent's coin of that kind
160-209  region     10 x 5   the space's region (one-hot, map order)
210-309  adjacent   10 x 10  the two spaces are adjacent
310-313  own_bank   4        own bank's D P N Q / all coins of that kind
314-317  opp_bank   4        the opponent's bank, likewise
318      own_mover  1        it is the observing seat's turn
319      opp_mover  1        it is the opponent's turn
320-322  phase      3        slap to throw, act, game over
323-326  thrown     4        this turn's slap threw a D P N Q
327-330  matched    4        ... and that coin shows the mover's side
331-334  unused     4        matched coins not yet placed or paid
335-338  allowance  4        places / 3, pays, moves, captures still allowed
339      turn       1        turn number / 200
"""

from __future__ import annotations

from functools import cache

import numpy as np

from pocketarena.core import Game, State
from pocketarena.games.coin_age import MAP_NAMES, MAX_TURNS, START_BANK, load_map
from pocketarena.observe.layout import Block, Layout

KINDS = "DPNQ"  # rank order
TOTAL = tuple(2 * n for n in START_BANK)  # coins of each kind in the whole game
SIDES = ("H", "T")
PHASES = ("slap", "act", "over")
ALLOWANCE = (("place", 3), ("pay", 1), ("move", 1), ("capture", 1))  # name, most ever allowed
REGION_SLOTS = max(len(load_map(name).regions) for name in MAP_NAMES)


@cache
def _layout(map_id: str) -> tuple[Layout, tuple[str, ...], np.ndarray]:
    """The layout for a map, its space ids, and the map rows (regions, adjacency) filled in."""
    game_map = load_map(map_id)
    ids = game_map.space_ids
    n = len(ids)
    layout = Layout(
        [
            Block(
                "own_stack", (n, 4), "the space's stack holds own coin of kind D P N Q", "opp_stack"
            ),
            Block("opp_stack", (n, 4), "the same for the opponent's coins", "own_stack"),
            Block("own_top", (n, 4), "the space's top coin is own coin of that kind", "opp_top"),
            Block("opp_top", (n, 4), "the top coin is the opponent's coin of that kind", "own_top"),
            Block("region", (n, REGION_SLOTS), "the space's region (one-hot, map order)"),
            Block("adjacent", (n, n), "the two spaces are adjacent"),
            Block("own_bank", (4,), "own bank's D P N Q / all coins of that kind", "opp_bank"),
            Block("opp_bank", (4,), "the opponent's bank, likewise", "own_bank"),
            Block("own_mover", (1,), "it is the observing seat's turn", "opp_mover"),
            Block("opp_mover", (1,), "it is the opponent's turn", "own_mover"),
            Block("phase", (3,), "slap to throw, act, game over"),
            Block("thrown", (4,), "this turn's slap threw a D P N Q"),
            Block("matched", (4,), "... and that coin shows the mover's side"),
            Block("unused", (4,), "matched coins not yet placed or paid"),
            Block("allowance", (4,), "places / 3, pays, moves, captures still allowed"),
            Block("turn", (1,), "turn number / 200"),
        ]
    )
    fixed = layout.zeros()
    region = layout.view(fixed, "region")
    index = {sid: i for i, sid in enumerate(ids)}
    for r, reg in enumerate(game_map.regions):
        for sid in reg.spaces:
            region[index[sid], r] = 1.0
    adjacent = layout.view(fixed, "adjacent")
    for a, b in game_map.adjacent:
        adjacent[index[a], index[b]] = adjacent[index[b], index[a]] = 1.0
    fixed.flags.writeable = False
    return layout, ids, fixed


def layout(game: Game) -> Layout:
    return _layout(game.options["map"])[0]


def write(state: State, seat: int, out: np.ndarray) -> None:
    """Fill the zeroed ``out`` with ``seat``'s view of ``state``."""
    pos = state.position()
    lay, ids, fixed = _layout(pos["map"])
    out += fixed
    own_side = SIDES[seat]
    rows = {b.name: lay.view(out, b.name) for b in lay}
    for s, sid in enumerate(ids):
        stack = pos["stacks"][sid]
        for coin in stack:  # "Q:H": kind and the side it shows (= its owner)
            which = "own_stack" if coin[2] == own_side else "opp_stack"
            rows[which][s, KINDS.index(coin[0])] = 1.0
        if stack:
            top = stack[-1]
            rows["own_top" if top[2] == own_side else "opp_top"][s, KINDS.index(top[0])] = 1.0
    seats = state.game.SEATS
    for who, name in ((seat, "own_bank"), (1 - seat, "opp_bank")):
        bank = pos["banks"][seats[who]]
        for k, kind in enumerate(KINDS):
            rows[name][k] = bank[kind] / TOTAL[k]
    phase = pos["phase"]
    rows["phase"][PHASES.index(phase)] = 1.0
    if phase != "over":
        mover = seats.index(pos["mover"])
        rows["own_mover" if mover == seat else "opp_mover"][0] = 1.0
    slap = pos["slap"]
    if slap is not None:
        mover_side = SIDES[seats.index(pos["mover"])]
        for word in slap.split()[1:]:  # "slap Q:H N:T ..."
            k = KINDS.index(word[0])
            rows["thrown"][k] = 1.0
            if word[2] == mover_side:
                rows["matched"][k] = 1.0
    for kind in pos["unused"]:
        rows["unused"][KINDS.index(kind)] = 1.0
    allowance = pos["allowance"]
    for i, (name, most) in enumerate(ALLOWANCE):
        rows["allowance"][i] = min(allowance[name], most) / most
    rows["turn"][0] = min(pos["turn"], MAX_TURNS) / MAX_TURNS
