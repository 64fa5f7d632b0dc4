from __future__ import annotations

import compileall
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from tests import services

# The terminal speaks the language gettext reads from the environment; the tests read English
# unless one asks for another (LANGUAGE wins over LANG, as in gettext).
os.environ["LANGUAGE"] = "en"

# JAX in the tests (the vector games, the solver's JAX port, the alphazero scripts the tests run
# as subprocesses, which inherit this): XLA's backend optimisations off, set before JAX starts.
# The tests' batches are small, so compiling is most of their time; the vector tests' main
# functions already compiled this way (tests/vector/engine_check.py's FAST_COMPILE), this covers
# every other jit as well: 130.4 -> 118.3 CPU s for test_coin_age, test_flipwars,
# test_stack_a_cash_jax and test_pgx_contract (43 tests, run side by side, 2026-12-06).
FAST_XLA = "--xla_backend_optimization_level=0"
if FAST_XLA not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} {FAST_XLA}".strip()


def pytest_configure(config: pytest.Config) -> None:
    """Compile the package's bytecode once, before the workers start, where Python keeps it
    (``__pycache__`` beside each module, as a first import does unless told not to).

    Where ``PYTHONDONTWRITEBYTECODE`` is set (this project's development and CI machines set
    it) nothing ever writes the editable install's bytecode, so the test workers and every
    ``pocketarena`` process the tests start (a few hundred: CLI commands, servers, clusters)
    compiled all of its sources again: 2.3 -> 2.0 CPU s to import the server and the CLI,
    10.2 -> 8.3 for tests/cli/test_terminal.py and test_languages.py (2026-12-07)."""
    if not sys.dont_write_bytecode or hasattr(config, "workerinput"):
        return  # Python writes it itself, or the controller did it already
    compileall.compile_dir(Path(pa.__file__).parent, quiet=2)


def all_variants() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with every option set it declares as a variant."""
    out: list[tuple[str, dict[str, Any]]] = []
    for game_id in sorted(pa.GAMES):
        for options in pa.GAMES[game_id].VARIANTS:
            out.append((game_id, dict(options)))
    return out


def variant_id(variant: tuple[str, dict[str, Any]]) -> str:
    game_id, options = variant
    if not options:
        return game_id
    return (
        game_id
        + "["
        + ",".join(f"{k}={json.dumps(v, sort_keys=True)}" for k, v in sorted(options.items()))
        + "]"
    )


# -- services: PostgreSQL, Redis and Chromium, found or started (see tests/services.py) --------
def found_or_started(
    name: str, url: str, why: str | None, start: Callable[[], tuple[str, Callable[[], None]]]
) -> Iterator[str]:
    """``url`` if the service answers there (``why`` is None), else one started by ``start``
    (its URL and how to let it go), released when the run ends."""
    if why is None:
        yield url
        return
    try:
        started, release = start()
    except Exception as e:
        services.unavailable(f"no {name} at {url} ({why}), and none could be started: {e}")
    try:
        yield started
    finally:
        release()


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A PostgreSQL URL (SQLAlchemy form): the configured server if it answers, else a
    throwaway one started for this run. Tests make a schema of their own in it."""

    def start() -> tuple[str, Callable[[], None]]:
        url, server = services.start_postgres(services.shared_folder(tmp_path_factory, "pg"))
        return url, server.cleanup

    url = services.configured_postgres()
    services.ensure_database(url)
    yield from found_or_started("PostgreSQL", url, services.postgres_answers(url), start)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A Redis URL: the configured server if it answers, else a throwaway one started for this
    run. Redis is shared: give every key a prefix of your test's own."""

    def start() -> tuple[str, Callable[[], None]]:
        server = services.RedisServer.start(services.shared_folder(tmp_path_factory, "redis"))
        return server.url, server.leave

    url = services.configured_redis()
    yield from found_or_started("Redis", url, services.redis_answers(url), start)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    """The Chromium executable for Playwright (skipped outside CI when there is none)."""
    found = services.chromium()
    if found is None:
        services.unavailable(
            "no Chromium found: set POCKETARENA_CHROMIUM, `playwright install chromium` "
            "or install the system's (apt-get install chromium)"
        )
    assert found is not None
    return found


# -- the order of the files: the longest first ----------------------------------------------
# `pytest -n 2` runs each file on one worker (--dist loadfile) in the order collected here
# (--no-loadscope-reorder: xdist's own order puts the files with the most tests first, which
# leaves these one-test files of a minute, mostly spent waiting on servers, for the end: one
# worker runs one while the other has nothing left). Longest first, the short files fill in at
# the end. Seconds: in a quiet full run with -n 2. Replayed from a full run's times (junit
# XML) in xdist's way of handing out files, this order ended the run about 50 s sooner.
LONGEST_FIRST = (
    "tests/server/test_cluster_tournament.py",  # 78 s with a minute's arena (half a minute now)
    "tests/server/test_faults.py",  # 44 s
    "tests/server/test_cluster_presence.py",  # 39 s
    "tests/test_lint.py",  # 38 s (mypy)
    "tests/server/test_load_benchmarks.py",  # 36 s (cluster_load)
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of LONGEST_FIRST first, in that order; then the others, the files with the
    most tests first (xdist's order), each file's tests in their own order."""
    files: dict[str, list[pytest.Item]] = {}
    for item in items:
        files.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    order = sorted(files, key=lambda f: (rank.get(f, len(rank)), -len(files[f])))
    items[:] = [item for f in order for item in files[f]]


def pytest_report_header(config: pytest.Config) -> list[str]:
    """Say what the run uses, so a throwaway server or a missing browser is no surprise."""
    lines = []
    services.ensure_database(services.configured_postgres())
    for name, url, why in (
        ("PostgreSQL", services.configured_postgres(), services.postgres_answers),
        ("Redis", services.configured_redis(), services.redis_answers),
    ):
        problem = why(url)
        lines.append(
            f"{name}: {url}"
            if problem is None
            else f"{name}: a throwaway server when a test asks (nothing answers at {url})"
        )
    browser = services.chromium()
    lines.append(f"Chromium: {browser or 'none found (browser tests are skipped outside CI)'}")
    axe = services.AXE_SCRIPT
    lines.append(
        f"axe-core: {services.axe_version(axe)} (tests/node_modules)"
        if axe.exists()
        else "axe-core: installed from npm by the first test that needs it"
    )
    return lines
