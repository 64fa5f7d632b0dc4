"""What a FlipWars position looks like: JSON-safe data for services and viewers, and a
plain-ASCII picture for terminals and docstrings."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .modes import (
    CHOOSE_BLOCK,
    CHOOSE_FIRST,
    PHASE_NAMES,
    PLACING,
    SERIES_MAX_ROUNDS,
    SERIES_TARGET,
)
from .tiles import COLOURS, FLAG, TILE_LETTERS

if TYPE_CHECKING:
    from .rules import FlipWarsState


def position_json(state: FlipWarsState) -> dict[str, Any]:
    """The position as JSON-safe data: cells, block, supplies, whose turn, phase, scores and
    the series so far (``State.position``)."""
    game = state.game
    cells: dict[str, Any] = {}
    for cell, name in enumerate(game.cell_names):
        tile = state.tile_at(cell)
        cells[name] = (
            None
            if tile is None
            else {"tile": tile[0], "rotation": f"r{tile[1]}", "colour": COLOURS[tile[2]]}
        )
    s0, s1 = state.round_scores()
    player = state.current_player
    view: dict[str, Any] = {
        "mode": game.mode.name,
        "size": game.size,
        "cells": cells,
        "block": game.cell_names[state.block] if state.block >= 0 else None,
        "supply": {COLOURS[s]: state.supply(s) for s in (0, 1)},
        "to_move": COLOURS[player] if player >= 0 else None,
        "phase": PHASE_NAMES[state.phase],
        "must_place_flag": state.phase == PLACING
        and game.mode.flag
        and bool((state.stock[player] >> (2 * FLAG)) & 3),
        "round": state.round,
        "first": COLOURS[state.first] if state.phase != CHOOSE_FIRST else None,
        "score": {"blue": s0, "red": s1},
        "series": None,
    }
    if game.series:
        view["series"] = {
            "round_wins": {"blue": state.wins[0], "red": state.wins[1]},
            "target": SERIES_TARGET,
            "max_rounds": SERIES_MAX_ROUNDS,
            "rounds": [
                {
                    "round": i + 1,
                    "first": COLOURS[first],
                    "block": game.cell_names[block] if block >= 0 else None,
                    "score": {"blue": b, "red": r},
                    "winner": COLOURS[w] if w >= 0 else None,
                }
                for i, (first, block, b, r, w) in enumerate(state.results)
            ],
        }
    return view


def ascii_picture(state: FlipWarsState) -> str:
    """A plain-ASCII picture: upper-case letters are blue tiles, lower-case red, ``#`` the
    block (T tank, R rocket, G grenade, P paratrooper, S sniper, H foxhole, W twin, X trex,
    F flag).
    """
    game = state.game
    n = game.size
    rows = []
    for rank in range(n - 1, -1, -1):
        marks = []
        for f in range(n):
            cell = rank * n + f
            tile = state.tile_at(cell)
            if cell == state.block:
                marks.append("#")
            elif tile is None:
                marks.append(".")
            else:
                letter = TILE_LETTERS[tile[0]]
                marks.append(letter if tile[2] == 0 else letter.lower())
        rows.append(f"{rank + 1} {' '.join(marks)}")
    rows.append("  " + " ".join("abcdefgh"[:n]))
    s0, s1 = state.round_scores()
    status = f"blue {s0} red {s1}"
    if game.series:
        status = f"round {state.round}, wins blue {state.wins[0]} red {state.wins[1]}; " + status
    if state.current_player >= 0:
        doing = {
            PLACING: "to place",
            CHOOSE_BLOCK: "to move the block",
            CHOOSE_FIRST: "to choose who starts",
        }
        status += f"; {game.SEATS[state.current_player]} {doing[state.phase]}"
    else:
        status += "; over"
    rows.append(status)
    return "\n".join(rows)
