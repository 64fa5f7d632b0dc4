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

from sqlalchemy import Connection, Table, bindparam, select
from sqlalchemy.exc import IntegrityError

from pocketarena import puzzles
from pocketarena.explore import EXPLORABLE
from pocketarena.records import Record

from .models import BlunderPuzzleRow, utcnow
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
    another game) are kept as they are. One transaction for all of them, its statements built
    once (an ORM session for each puzzle cost the database thread most of a millisecond
    each); if another node stores one of the same positions meanwhile, one at a time."""
    rows: dict[str, dict[str, Any]] = {}
    for data in found:
        p = puzzles.Puzzle(**data)
        rows.setdefault(
            p.id,
            {"id": p.id, "game_id": game_id, "game": p.game_id, "rating": p.rating}
            | {"data": p.to_json(), "created_at": utcnow()},
        )
    if not rows:
        return 0
    try:
        with store.engine.begin() as conn:
            return _insert_new(conn, list(rows.values()))
    except IntegrityError:  # another node stored one of them just now
        new = 0
        for row in rows.values():
            try:
                with store.engine.begin() as conn:
                    new += _insert_new(conn, [row])
            except IntegrityError:
                continue
        return new


_TABLE: Table = BlunderPuzzleRow.__table__  # type: ignore[assignment]
_STORED = select(_TABLE.c.id).where(_TABLE.c.id.in_(bindparam("ids", expanding=True)))
_INSERT = _TABLE.insert()


def _insert_new(conn: Connection, rows: list[dict[str, Any]]) -> int:
    """Insert the rows whose id is not stored yet; how many."""
    stored = set(conn.scalars(_STORED, {"ids": [r["id"] for r in rows]}))
    new = [r for r in rows if r["id"] not in stored]
    if new:
        conn.execute(_INSERT, new)
    return len(new)


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
