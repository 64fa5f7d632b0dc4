"""PostgreSQL: the games' batched writes sent from the event loop, on connections of their own.

A move's write went to a database thread and back: the thread pool's hand-over (a queue, a
condition's wake-up, the result posted back to the loop), the interpreter lock taken back and
forth between the thread and the loop, and psycopg's blocking calls on the thread: 28% of the
server's interpreter time under the load benchmark, 20% sent from the loop (docs/scaling.md).
psycopg's asynchronous connection sends the same statement (``Store.batch_sql``: one
statement, one round trip, committed whole in autocommit mode) and the loop goes on with other
sockets until PostgreSQL answers.

The connections are set aside from the process's ``database_pool_size`` (``core.db``), so a
process never holds more than that. One batch at a time uses a connection; a batch that finds
every one busy (the writer keeps up to four batches in flight, a small pool sets fewer
connections aside) goes SQLAlchemy's way.

A connection found dropped (PostgreSQL restarted, the backend terminated, any operational
error) is thrown away with every idle one, and ``save`` answers None: the caller writes the
batch through SQLAlchemy's path, which knows a dropped connection when it sees one and retries
once. Nothing was written by the failed attempt (an autocommit statement commits whole or not
at all), and one whose answer was lost with the connection finds its versions moved on when
retried, so the retry reports a conflict rather than writing twice. While PostgreSQL refuses
new connections, every batch goes SQLAlchemy's way for a second before the next try.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Sequence
from typing import Any

import psycopg
from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from .core.db import loop_writes_of

log = logging.getLogger(__name__)

RETRY_CONNECT_S = 1.0  # after a failed connect, SQLAlchemy's path writes until then


class LoopWrites:
    def __init__(self, connect_kwargs: dict[str, Any], limit: int) -> None:
        self._connect_kwargs = {**connect_kwargs, "autocommit": True}
        self.limit = limit
        # Each idle connection's cursor, used again batch after batch (a new one for each
        # statement was a tenth of the time psycopg took for it).
        self._idle: list[psycopg.AsyncCursor[Any]] = []
        self._count = 0  # connections open: idle or writing
        self._retry_at = 0.0  # monotonic time of the next connect after one failed
        self.closed = False

    @classmethod
    def for_engine(cls, engine: Engine) -> LoopWrites | None:
        """The writes on the loop for ``engine``'s database; None where it has none set aside
        (SQLite, or a pool too small to spare any)."""
        found = loop_writes_of(engine)
        return cls(*found) if found is not None else None

    async def save(self, query: str, params: Sequence[Any]) -> set[int] | None:
        """The numbers the statement returned (the writes that happened), or None when it
        could not be sent here (dropped, no connection to be had, closed): write it another
        way. A statement PostgreSQL refused raises SQLAlchemy's error, as the other paths
        do."""
        cursor = await self._take()
        if cursor is None:
            return None
        try:
            await cursor.execute(query, params)
            saved = {row[0] for row in await cursor.fetchall()}
        except BaseException as e:
            # Never used again after an error (or a cancel mid-statement), whatever it was.
            dropped = isinstance(e, psycopg.OperationalError) or cursor.connection.broken
            self._count -= 1
            await self._discard(cursor)
            if dropped:
                await self._drop_idle()  # opened before the restart too, most likely
                return None
            if isinstance(e, psycopg.Error):  # the statement itself failed
                raise DBAPIError.instance(query, params, e, psycopg.Error) from e
            raise
        if self.closed:
            self._count -= 1
            await self._discard(cursor)
        else:
            self._idle.append(cursor)
        return saved

    async def _take(self) -> psycopg.AsyncCursor[Any] | None:
        if self.closed:
            return None
        if self._idle:
            return self._idle.pop()
        if self._count >= self.limit or time.monotonic() < self._retry_at:
            return None
        self._count += 1
        try:
            conn = await psycopg.AsyncConnection.connect(**self._connect_kwargs)
        except BaseException as e:
            self._count -= 1
            if isinstance(e, psycopg.Error):
                self._retry_at = time.monotonic() + RETRY_CONNECT_S
                log.info("games' writes on the event loop: no connection (%s)", e)
                return None
            raise
        return conn.cursor()

    async def _drop_idle(self) -> None:
        idle, self._idle = self._idle, []
        self._count -= len(idle)
        for cursor in idle:
            await self._discard(cursor)

    @staticmethod
    async def _discard(cursor: psycopg.AsyncCursor[Any]) -> None:
        with contextlib.suppress(Exception):  # already gone: nothing to hand back
            await cursor.connection.close()

    async def close(self) -> None:
        """Close the idle connections; one writing now is closed when its batch is done."""
        self.closed = True
        await self._drop_idle()
