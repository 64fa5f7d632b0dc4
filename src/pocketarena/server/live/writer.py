"""Group commit for game writes: moves that arrive while the database is busy are written
together in the next transaction, so a burst of moves costs one commit instead of many.

A move is acknowledged only after its transaction commits, exactly as with one commit each.

SQLite has one writer at a time, so its batches go one after another. PostgreSQL takes several
at once (on different connections, flushing their commits to disk together): a move that
arrives while a batch is being written starts the next batch at once instead of waiting for
that one to finish. Batches in flight together never hold the same game: the hub writes a game
only under its lock, one write at a time."""

from __future__ import annotations

import asyncio
from concurrent.futures import Executor
from typing import Any

from ..store import ConflictError, Store

Write = tuple[str, int, dict[str, Any]]


class GameWriter:
    def __init__(
        self,
        store: Store,
        executor: Executor,
        max_batch: int = 256,
        max_in_flight: int | None = None,
    ) -> None:
        self.store = store
        self.executor = executor
        self.max_batch = max_batch
        if max_in_flight is None:
            max_in_flight = 1 if store.engine.dialect.name == "sqlite" else 4
        self.max_in_flight = max_in_flight
        # Each write's future: whether it was written (False: the stored version moved on).
        self._pending: list[tuple[Write, asyncio.Future[bool]]] = []
        self._flushing = 0  # batches being written now
        self.batches = 0  # for the benchmark and tests: how many transactions were needed
        self.writes = 0

    async def save(self, game_id: str, expected_version: int, values: dict[str, Any]) -> None:
        """Write once committed; ConflictError if the stored version moved on meanwhile."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self._pending.append(((game_id, expected_version, values), future))
        if self._flushing < self.max_in_flight:
            self._flushing += 1
            asyncio.ensure_future(self._flush())
        if not await future:  # raised here, in this request's language
            raise ConflictError(game_id)

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self._pending:
                batch, self._pending = (
                    self._pending[: self.max_batch],
                    self._pending[self.max_batch :],
                )
                writes = [w for w, _ in batch]
                try:
                    done = await loop.run_in_executor(self.executor, self.store.save_games, writes)
                except Exception as e:  # the whole transaction failed: nothing was written
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(e)
                    continue
                self.batches += 1
                self.writes += len(batch)
                for (_, future), ok in zip(batch, done, strict=True):
                    if not future.done():
                        future.set_result(ok)
        finally:
            self._flushing -= 1
