"""PostgreSQL: the games' batched writes sent from the event loop (``server.loop_writes``) on
connections set aside from the pool: written, refused and replaced as the other paths are."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from sqlalchemy import Engine, text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import QueuePool

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import loop_writes_of, make_engine, run_migrations, session_factory
from pocketarena.server.live.writer import GameWriter
from pocketarena.server.loop_writes import LoopWrites
from pocketarena.server.store import ConflictError, Store

from .conftest import make_settings
from .test_storage import game_row


def threads_counted(settings: Settings) -> tuple[Engine, Store, list[int]]:
    """A store whose batches written on the database thread (``save_games``) are counted:
    the size of each, in order."""
    engine = make_engine(settings)
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    threaded: list[int] = []
    save_games = store.save_games

    def counted(writes: Sequence[tuple[str, int, dict[str, Any]]]) -> list[bool]:
        threaded.append(len(writes))
        return save_games(writes)

    store.save_games = counted  # type: ignore[method-assign]
    return engine, store, threaded


def test_sqlite_and_a_small_pool_set_nothing_aside(tmp_path: Path, postgres_url: str) -> None:
    engine = make_engine(make_settings(tmp_path))
    assert loop_writes_of(engine) is None and LoopWrites.for_engine(engine) is None
    engine.dispose()
    small = make_settings(tmp_path, database_url=postgres_url, database_pool_size=4)
    engine = make_engine(small)
    assert loop_writes_of(engine) is None
    assert isinstance(engine.pool, QueuePool) and engine.pool.size() == 4
    engine.dispose()


def test_the_connections_on_the_loop_come_out_of_the_pool_size(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """A process never holds more than ``database_pool_size`` connections: those of the
    writes on the loop are taken from it (a fifth, at most four)."""
    for size, aside in ((20, 4), (10, 2), (5, 1)):
        settings = make_settings(
            tmp_path, database_url=postgres_url, database_schema=pg_schema, database_pool_size=size
        )
        engine = make_engine(settings)
        found = loop_writes_of(engine)
        assert found is not None and found[1] == aside
        assert isinstance(engine.pool, QueuePool) and engine.pool.size() == size - aside
        engine.dispose()


def test_batches_are_written_on_the_loop_and_a_dropped_connection_is_replaced(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """The writer's batches go by the loop's connections, not the database thread; a batch
    whose connection PostgreSQL dropped (backend terminated, as in a restart) is written all
    the same, by SQLAlchemy's path, and the next one on a new connection; a conflict and a
    statement PostgreSQL refuses are reported as on the other paths, nothing written."""
    engine, store, threaded = threads_counted(
        make_settings(tmp_path, database_url=postgres_url, database_schema=pg_schema)
    )
    creator = store.ensure_guest("l" * 32).id
    for gid in ("L1", "L2", "L3"):
        store.insert_game(game_row(gid, creator))
    on_loop = LoopWrites.for_engine(engine)
    assert on_loop is not None

    async def scenario() -> None:
        with ThreadPoolExecutor(2) as executor:
            writer = GameWriter(store, executor, on_loop=on_loop)
            for v in range(4):  # two games' moves at once: batches in flight together
                await asyncio.gather(
                    writer.save("L1", v, {"version": v + 1, "history": ["a"] * (v + 1)}),
                    writer.save("L2", v, {"version": v + 1}),
                )
            assert threaded == [] and writer.writes == 8
            assert 1 <= on_loop._count <= on_loop.limit and len(on_loop._idle) == on_loop._count
            with pytest.raises(ConflictError):
                await writer.save("L1", 0, {"version": 9})
            assert threaded == []

            pids = [c.connection.info.backend_pid for c in on_loop._idle]
            with engine.connect() as conn:
                for pid in pids:
                    conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
            await writer.save("L1", 4, {"version": 5})  # written SQLAlchemy's way
            assert threaded == [1]
            assert on_loop._idle == [] and on_loop._count == 0
            await writer.save("L1", 5, {"version": 6})  # and on the loop again
            assert threaded == [1] and on_loop._count == 1
            assert on_loop._idle[0].connection.info.backend_pid not in pids

            with pytest.raises(DBAPIError, match="not a number"):
                await writer.save("L3", 0, {"version": "not a number"})
            assert on_loop._count == 0  # never used again after an error
            await writer.save("L3", 0, {"version": 1})
            await writer.close()
            assert on_loop._idle == [] and on_loop._count == 0 and on_loop.closed

    try:
        asyncio.run(scenario())
        assert store.game_versions(["L1", "L2", "L3"]) == {"L1": 6, "L2": 4, "L3": 1}
        assert store.load_game("L1").history == ["a"] * 4  # type: ignore[union-attr]
    finally:
        store.close()
        engine.dispose()


def test_while_no_connection_can_be_made_the_batches_go_the_other_way(
    tmp_path: Path, postgres_url: str, pg_schema: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """PostgreSQL refusing new connections: the batch is written SQLAlchemy's way (which
    reports the database away, if it is), and the loop tries a new connection again only a
    second later, not once per move."""
    engine = make_engine(
        make_settings(tmp_path, database_url=postgres_url, database_schema=pg_schema)
    )
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    creator = store.ensure_guest("m" * 32).id
    store.insert_game(game_row("M1", creator))
    found = loop_writes_of(engine)
    assert found is not None
    kwargs, limit = found
    on_loop = LoopWrites({**kwargs, "port": 1}, limit)  # nothing listens there
    tries: list[float] = []
    connect = psycopg.AsyncConnection.connect

    async def counted(*args: Any, **kw: Any) -> Any:
        tries.append(1)
        return await connect(*args, **kw)

    monkeypatch.setattr(psycopg.AsyncConnection, "connect", counted)

    async def scenario() -> None:
        with ThreadPoolExecutor(1) as executor:
            writer = GameWriter(store, executor, on_loop=on_loop)
            for v in range(3):
                await writer.save("M1", v, {"version": v + 1})
            assert len(tries) == 1 and on_loop._count == 0
            on_loop._retry_at = 0.0  # a second later
            await writer.save("M1", 3, {"version": 4})
            assert len(tries) == 2
            await writer.close()

    try:
        asyncio.run(scenario())
        assert store.game_versions(["M1"]) == {"M1": 4}
    finally:
        store.close()
        engine.dispose()


def test_a_batch_that_finds_every_connection_busy_goes_the_other_way(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """A pool of 5 sets one connection aside: a batch that starts while the one before it is
    being sent from the loop goes by the database thread, and both are written."""
    engine, store, threaded = threads_counted(
        make_settings(
            tmp_path, database_url=postgres_url, database_schema=pg_schema, database_pool_size=5
        )
    )
    creator = store.ensure_guest("n" * 32).id
    store.insert_game(game_row("N1", creator))
    store.insert_game(game_row("N2", creator))
    on_loop = LoopWrites.for_engine(engine)
    assert on_loop is not None and on_loop.limit == 1

    async def scenario() -> None:
        with ThreadPoolExecutor(2) as executor:
            writer = GameWriter(store, executor, on_loop=on_loop)
            first = asyncio.ensure_future(writer.save("N1", 0, {"version": 1}))
            while on_loop._count == 0:  # its batch is on its way, on the one connection
                await asyncio.sleep(0)
            await asyncio.gather(first, writer.save("N2", 0, {"version": 1}))
            assert threaded == [1] and writer.batches == 2
            await writer.close()

    try:
        asyncio.run(scenario())
        assert store.game_versions(["N1", "N2"]) == {"N1": 1, "N2": 1}
    finally:
        store.close()
        engine.dispose()
