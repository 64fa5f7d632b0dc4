"""Run ``pocketarena serve`` with its database work counted, for ``server_load.py --count``.

    python benchmarks/db_counts.py COUNTS.json [--profile PROFILE] -- serve --port 8000 ...

Every engine the server makes is watched through SQLAlchemy's events: statements by kind and
table, transactions (those that send BEGIN and COMMIT or ROLLBACK, and those in autocommit
mode, which send neither), round trips to the database, the time statements took, the time
threads waited for a pooled connection, and statements run on the event loop's thread (which
block every socket while they wait), and the CPU time of each of its threads. On SIGUSR1 the counts so far go to COUNTS.json; with
``--profile`` the first SIGUSR1 also starts cProfile on the event loop's thread and the second
writes its statistics to PROFILE (what the loop spent its time on during the window).
"""

from __future__ import annotations

import cProfile
import json
import os
import re
import signal
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import QueuePool

_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE)\s+\"?(\w+)\"?", re.IGNORECASE)
_lock = threading.Lock()
counts: Counter[str] = Counter()
times: Counter[str] = Counter()  # seconds
_main = threading.main_thread()


def kind(statement: str) -> str:
    """``SELECT sessions``, ``UPDATE games``, ``WITH games`` (the batched write) ..."""
    words = statement.lstrip().split(None, 1)
    verb = words[0].upper() if words else "?"
    table = _TABLE.search(statement)
    return f"{verb} {table.group(1) if table else '-'}"


def _autocommit(conn: Connection) -> bool:
    return bool(getattr(conn.connection.dbapi_connection, "autocommit", False))


def _count(key: str, n: int = 1) -> None:
    with _lock:
        counts[key] += n


@event.listens_for(Engine, "before_cursor_execute")
def _before(conn: Connection, _cursor: Any, statement: str, *_: Any) -> None:
    conn.info["pa_t0"] = time.perf_counter()
    _count("statements")
    _count("statement " + kind(statement))
    _count("round_trips")
    if threading.current_thread() is _main:
        _count("statements_on_event_loop")


@event.listens_for(Engine, "after_cursor_execute")
def _after(conn: Connection, *_: Any) -> None:
    t0 = conn.info.pop("pa_t0", None)
    if t0 is not None:
        with _lock:
            times["statement_s"] += time.perf_counter() - t0


@event.listens_for(Engine, "begin")
def _begin(conn: Connection) -> None:
    if _autocommit(conn):
        _count("autocommit_blocks")
    else:
        _count("transactions")
        _count("round_trips")  # psycopg sends BEGIN before the first statement


@event.listens_for(Engine, "commit")
def _commit(conn: Connection) -> None:
    if not _autocommit(conn):
        _count("commits")
        _count("round_trips")


@event.listens_for(Engine, "rollback")
def _rollback(conn: Connection) -> None:
    if not _autocommit(conn):
        _count("rollbacks")
        _count("round_trips")


def _count_kept_writes() -> None:
    """The games' batched writes on PostgreSQL go by psycopg's cursor on a connection the
    store keeps (``Store._save_games_kept``), past SQLAlchemy's events: counted here as the
    events would count them (one statement, one round trip, in autocommit mode)."""
    from pocketarena.server.store import Store

    kept = getattr(Store, "_save_games_kept", None)
    if kept is None:  # a checkout from before it
        return

    def counted(self: Store, writes: Any, now: Any) -> Any:
        t0 = time.perf_counter()
        saved = kept(self, writes, now)
        if saved is not None:  # None: nothing sent that counts; SQLAlchemy writes it
            _count("statements")
            _count("statement WITH games")
            _count("round_trips")
            _count("autocommit_blocks")
            with _lock:
                times["statement_s"] += time.perf_counter() - t0
        return saved

    Store._save_games_kept = counted  # type: ignore[method-assign]


_do_get = QueuePool._do_get


def _timed_get(self: QueuePool) -> Any:
    t0 = time.perf_counter()
    try:
        return _do_get(self)
    finally:
        waited = time.perf_counter() - t0
        with _lock:
            times["pool_wait_s"] += waited
            counts["checkouts"] += 1
            if waited > 0.005:
                counts["checkouts_waiting_over_5ms"] += 1


QueuePool._do_get = _timed_get  # type: ignore[method-assign]


_seen: dict[int, tuple[str, float]] = {}  # thread id -> its name and CPU (ms) when last read


def threads_cpu() -> dict[str, float]:
    """CPU time (ms) used so far by each of this process's threads, by thread name (threads of
    one pool share a name up to their number: ``ThreadPoolExecutor-0``), from /proc. A thread
    that ended keeps the CPU it was last seen with: AnyIO's worker threads end after 10 s
    idle, and without it their name's total went down between two readings."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path("/proc/self/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the thread ended meanwhile
            continue
        tid = int(task.name)
        name = names.get(tid, "(not a Python thread)")
        name = "event loop" if tid == _main.native_id else re.sub(r"_\d+$", "", name)
        _seen[tid] = (name, (int(fields[11]) + int(fields[12])) * 1000 / tick)
    out: Counter[str] = Counter()
    for name, ms in _seen.values():
        out["thread_cpu_ms " + name] += ms
    return dict(out)


def main() -> None:
    argv = sys.argv[1:]
    split = argv.index("--")
    own, rest = argv[:split], argv[split + 1 :]
    out = Path(own[0])
    profile_to = Path(own[own.index("--profile") + 1]) if "--profile" in own else None
    profiler: cProfile.Profile | None = None

    def snapshot(_sig: int, _frame: Any) -> None:
        nonlocal profiler
        with _lock:
            data = {**counts, **{k: round(v, 6) for k, v in times.items()}}
        data.update(threads_cpu() if sys.platform == "linux" else {})
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(data))
        tmp.replace(out)  # the reader never sees half a file
        if profile_to is None:
            return
        if profiler is None:
            # CPU time of the loop's thread, not wall time: on a shared machine a wall-clock
            # profile charges a function with the time the process was preempted inside it.
            profiler = cProfile.Profile(time.thread_time)
            profiler.enable()
        else:
            profiler.disable()
            profiler.dump_stats(str(profile_to))

    signal.signal(signal.SIGUSR1, snapshot)
    _count_kept_writes()
    sys.argv = ["pocketarena", *rest]
    from pocketarena.cli.main import main as cli

    cli()


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
