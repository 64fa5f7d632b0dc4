"""Scripted FlipWars positions shared by the scenario tests, written as notation."""

from __future__ import annotations

from typing import Any

import pocketarena as pa

# A "quiet" round on the tactical board (block on c3): the board is filled rank by rank from
# the top, left to right, and every tile attacks only cells that are still empty, off the board
# or the block, so nothing ever flips. The first mover places the odd moves.
QUIET_23 = [
    "place trex a5 r0",
    "place twin b5 r0",
    "place twin c5 r0",
    "place twin d5 r0",
    "place twin e5 r0",
    "place tank a4 r0",
    "place sniper b4 r270",
    "place foxhole c4 r270",
    "place sniper d4 r270",
    "place foxhole e4 r270",
    "place tank a3 r0",
    "place grenade b3 r270",
    "place foxhole d3 r270",
    "place grenade e3 r270",
    "place tank a2 r0",
    "place paratrooper b2 r180",
    "place foxhole c2 r270",
    "place paratrooper d2 r180",
    "place grenade e2 r270",
    "place tank a1 r0",
    "place grenade b1 r270",
    "place sniper c1 r270",
    "place paratrooper d1 r180",
]
# The second mover's last placement on e1 decides the round:
LAST_QUIET = "place sniper e1 r270"  # attacks off the board: 12-12, a drawn round
LAST_FIRST_WINS = "place sniper e1 r0"  # flips the second mover's own c1: 13-11
LAST_SECOND_WINS = "place rocket e1 r0"  # flips the first mover's d1 and e2: 10-14


def play(state: pa.State, moves: list[str]) -> pa.State:
    for move in moves:
        state.apply(move)
    return state


def colours(state: pa.State) -> dict[str, str]:
    """Cell -> colour shown, for the occupied cells."""
    cells: dict[str, Any] = state.position()["cells"]
    return {name: tile["colour"] for name, tile in cells.items() if tile is not None}


def new(**options: Any) -> pa.State:
    return pa.load("flipwars", **options).new_initial_state()
