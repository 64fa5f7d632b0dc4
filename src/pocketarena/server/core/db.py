"""The database: engine (SQLite or PostgreSQL), sessions, and migrations run at start."""

from __future__ import annotations

import logging
import os
import re
import threading
from importlib import resources
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from pocketarena.i18n import N_

from .config import Settings, private_dir

log = logging.getLogger(__name__)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,62}")


# What a person is told when it is (a 503, a WebSocket error), worded where it is answered.
DATABASE_AWAY = N_("the database is away for a moment; try again")


def database_away(e: BaseException) -> bool:
    """Whether ``e`` says the database cannot be reached right now (down, restarting, its
    connections terminated, the pool exhausted), not that a statement was wrong: the caller
    answers 503 with ``Retry-After``. A connection found dropped has been thrown away by then
    (SQLAlchemy invalidates it, and the pool's older ones), so the next try gets a new one."""
    if isinstance(e, (OperationalError, InterfaceError, PoolTimeout)):
        return True
    return isinstance(e, DBAPIError) and bool(e.connection_invalidated)


class DatabaseConfigError(ValueError):
    """A database URL or schema that cannot be used, with the reason."""


def make_engine(settings: Settings) -> Engine:
    """An engine for ``settings.database_url``: SQLite (file or memory) or PostgreSQL (psycopg 3)."""
    try:
        url = make_url(settings.database_url)
    except ArgumentError:
        raise DatabaseConfigError(
            f"cannot read the database URL {settings.database_url!r}; use e.g. "
            "sqlite:///path/to/file.sqlite3 or postgresql+psycopg://user@host:5432/dbname"
        ) from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        if settings.database_schema:
            raise DatabaseConfigError("database_schema applies to PostgreSQL only")
        database = url.database or ""
        if database in ("", ":memory:"):
            engine = create_engine(
                url, connect_args={"check_same_thread": False}, poolclass=StaticPool
            )
        else:
            _private_file(Path(database).expanduser())
            engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    if backend == "postgresql":
        if url.drivername == "postgresql":
            url = url.set(drivername="postgresql+psycopg")  # psycopg 3 is the driver we ship
        connect_args: dict[str, Any] = {}
        schema = settings.database_schema
        if schema:
            if not _IDENTIFIER.fullmatch(schema):
                raise DatabaseConfigError(f"database schema {schema!r} must be a plain identifier")
            connect_args["options"] = f"-csearch_path={schema}"
        # No ping before each use (a round trip per move); a dropped connection is noticed by
        # the failing statement, thrown away, and the write retried (Store.save_game).
        # A fixed set of connections, none opened beyond it: a connection opened for a burst
        # and closed when handed back (an "overflow" one) costs a new server process, 10 ms
        # to over 100 ms on a busy machine, and under load the pool did that hundreds of
        # times a minute. A thread that finds every connection busy waits for one instead
        # (statements take a millisecond or two).
        engine = create_engine(
            url,
            pool_size=settings.database_pool_size,
            max_overflow=0,
            pool_timeout=30,
            connect_args=connect_args,
        )
        if schema:
            with engine.begin() as conn:
                conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{schema}"'))
        return engine
    raise DatabaseConfigError(
        f"unsupported database {backend!r}; Pocket Arena runs on SQLite or PostgreSQL"
    )


def _private_file(path: Path) -> None:
    """Create the database file readable by its owner only (it holds password hashes and the
    seeds of games in play); SQLite gives its -wal and -shm files the same permissions."""
    private_dir(path.parent)
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    # WAL: readers never block the writer; NORMAL sync is durable across application crashes.
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    # Checkpoints (copying the WAL into the database file, with a disk flush) run in the
    # background (SqliteCheckpointer), not inside whichever move's commit crosses the limit.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


class SqliteCheckpointer:
    """Checkpoints an SQLite WAL every few seconds from a thread of its own. PASSIVE mode never
    waits for (or blocks) the writers, so a move's commit never pays for a checkpoint."""

    def __init__(self, engine: Engine, interval_s: float = 2.0) -> None:
        self.engine = engine
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sqlite-checkpoint", daemon=True)

    def start(self) -> SqliteCheckpointer:
        if self.engine.dialect.name == "sqlite" and self.engine.url.database not in (
            None,
            "",
            ":memory:",
        ):
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str) -> None:
        try:
            with self.engine.connect() as conn:
                conn.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # a busy or closing database: the next round will do it
            log.debug("WAL checkpoint skipped", exc_info=True)

    def stop(self) -> None:
        if self._thread.is_alive():
            self._stop.set()
            self._thread.join(timeout=10)
            self.checkpoint("TRUNCATE")  # leave a small WAL behind


def session_factory(engine: Engine) -> sessionmaker[Session]:
    return sessionmaker(engine, expire_on_commit=False)


def alembic_config() -> Config:
    cfg = Config()
    location = resources.files("pocketarena.server") / "migrations"
    cfg.set_main_option("script_location", str(location))
    return cfg


def run_migrations(engine: Engine) -> None:
    """Bring the schema to the newest revision (a no-op when it already is)."""
    cfg = alembic_config()
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Processes of a cluster starting together migrate one after the other (the lock
            # lasts until this transaction ends); the later ones find nothing left to do.
            connection.execute(text("SELECT pg_advisory_xact_lock(7064916)"))
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")
