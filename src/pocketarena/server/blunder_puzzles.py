"""Puzzles from the blunders of games finished on this server.

When a Stack-a-Cash or FlipWars game ends, the hub hands it to ``collect`` on its own thread
(the solvers never run on the event loop). Every move that threw away a win where the position
had one best move (``pocketarena.puzzles.blunders``) becomes a row of ``blunder_puzzles``,
once per position; the puzzles page then draws from these as well as the shipped set, and
judges their answers by the solver like any other.
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor
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
# One thread, games one after another: a FlipWars endgame takes a fraction of a second of CPU,
# and a burst of finished games queues here rather than crowding the threads others share.
EXECUTOR = ThreadPoolExecutor(max_workers=1, thread_name_prefix="blunder-puzzles")


def collect(
    store: Store, game_id: str, game: str, options: dict[str, Any], moves: list[str]
) -> int:
    """Store the blunder puzzles of a finished game; how many were new. Positions already
    stored (from another game) are kept as they are."""
    if game not in EXPLORABLE:
        return 0
    record = Record(game=game, options=dict(options), moves=list(moves))
    found = puzzles.blunders(record, f"game {game_id}")
    new = 0
    for p in found:
        p = replace(p, source={**(p.source or {}), "replay": f"/g/{game_id}/replay"})
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


def collect_quietly(
    store: Store, game_id: str, game: str, options: dict[str, Any], moves: list[str]
) -> None:
    """``collect`` for the hub: a failure is logged, never raised into the game."""
    try:
        count = collect(store, game_id, game, options, moves)
    except Exception:
        log.exception("blunder puzzles of game %s failed", game_id)
        return
    if count:
        log.info("game %s gave %d blunder puzzle(s)", game_id, count)


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
