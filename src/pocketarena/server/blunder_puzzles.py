"""Puzzles from the blunders of games finished on this server.

When a Stack-a-Cash or FlipWars game ends, the hub has ``find_in_game`` run in a bot worker (the
solvers never run in the server's own process, where their CPU would hold the interpreter lock
the event loop needs: measured in a thread, it raised the p99 of a move under load from 28 ms
to 177 ms) and stores what it found with ``store_found``. Every move that threw away a win where the position
had one best move (``pocketarena.puzzles.blunders``) becomes a row of ``blunder_puzzles``,
once per position; the puzzles page then draws from these as well as the shipped set, and
judges their answers by the solver like any other.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError

from pocketarena import puzzles
from pocketarena.explore import EXPLORABLE
from pocketarena.records import Record

from .models import BlunderPuzzleRow
from .store import Store

log = logging.getLogger(__name__)

POOL_LIMIT = 2000  # the newest blunder puzzles the page draws from
FIND_LIMIT_S = 120.0  # a scan past this is given up (the worker finishes it alone)


def find_in_game(
    game_id: str, game: str, options: dict[str, Any], moves: list[str]
) -> list[dict[str, Any]]:
    """The blunder puzzles of a finished game, as JSON (module-level and plain data, so a bot
    worker process can run it)."""
    if game not in EXPLORABLE:
        return []
    record = Record(game=game, options=dict(options), moves=list(moves))
    return [
        replace(p, source={**(p.source or {}), "replay": f"/g/{game_id}/replay"}).to_json()
        for p in puzzles.blunders(record, f"game {game_id}")
    ]


def store_found(store: Store, game_id: str, found: list[dict[str, Any]]) -> int:
    """Store puzzles ``find_in_game`` returned; how many were new. Positions already stored (from
    another game) are kept as they are."""
    new = 0
    for data in found:
        p = puzzles.Puzzle(**data)
        row = BlunderPuzzleRow(
            id=p.id, game_id=game_id, game=p.game_id, rating=p.rating, data=p.to_json()
        )
        try:
            with store.sessions.begin() as s:
                if s.get(BlunderPuzzleRow, p.id) is None:
                    s.add(row)
                    new += 1
        except IntegrityError:  # another node stored the same position just now
            continue
    return new


def collect(
    store: Store, game_id: str, game: str, options: dict[str, Any], moves: list[str]
) -> int:
    """``find_in_game`` and ``store_found`` in one call (scripts and tests); how many were new."""
    return store_found(store, game_id, find_in_game(game_id, game, options, moves))


def _puzzle(row: BlunderPuzzleRow) -> puzzles.Puzzle:
    return puzzles.Puzzle(**row.data)


def pool(store: Store, game: str | None) -> list[puzzles.Puzzle]:
    """The newest blunder puzzles (of ``game``, or both games)."""
    query = select(BlunderPuzzleRow).order_by(BlunderPuzzleRow.created_at.desc())
    if game is not None:
        query = query.where(BlunderPuzzleRow.game == game)
    with store.sessions() as s:
        return [_puzzle(r) for r in s.scalars(query.limit(POOL_LIMIT))]


def find(store: Store, puzzle_id: str) -> puzzles.Puzzle | None:
    """A puzzle by id: the shipped set's, else a stored blunder puzzle."""
    shipped = puzzles.by_id().get(puzzle_id)
    if shipped is not None:
        return shipped
    with store.sessions() as s:
        row = s.get(BlunderPuzzleRow, puzzle_id)
        return None if row is None else _puzzle(row)
