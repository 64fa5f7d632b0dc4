"""What one move costs the shared services of a cluster: PostgreSQL's write, Redis's message.

The capacity model in docs/scaling.md multiplies these by the moves per second a number of
games makes. Measured here, on this machine, through the server's own code paths:

1. PostgreSQL (``--database-url``, in a schema of its own, dropped afterwards): the game rows
   of ``--games`` games with a typical history, then ``Store.save_games`` as the hub calls it
   (one move's write; a batch of 16) and several writers at once, as the processes of a
   cluster would: latency, writes per second, WAL bytes per write. Anchor: ``SELECT 1`` on the
   same connections (one round trip that does nothing).
2. Redis (``--redis-url``): a message published to a channel with a subscriber on it, of the
   size of a cluster's change notice (a game's id and new version; ``--message-bytes``):
   messages per second through one Redis into one Python subscriber. Anchor: ``PING``.

    python benchmarks/move_costs.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import markdown_section  # benchmarks/markdown_section.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))
DOCS = ROOT / "docs" / "benchmarks.md"
START = "<!-- move-costs:start -->"
END = "<!-- move-costs:end -->"
HISTORY = ["place L b2", "place S a1", "move b2 c3", "slap P:H D:H"] * 10  # 40 moves


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def postgres(url: str, games: int, seconds: float, writers: int) -> dict[str, Any]:
    from sqlalchemy import Table, text, update

    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import make_engine, run_migrations, session_factory
    from pocketarena.server.models import GameRecord, Player
    from pocketarena.server.store import Store

    schema = f"costs_{os.getpid()}"
    settings = Settings(database_url=url, database_schema=schema, database_pool_size=writers + 1)
    engine = make_engine(settings)
    try:
        run_migrations(engine)
        store = Store(engine, session_factory(engine))
        table: Table = GameRecord.__table__  # type: ignore[assignment]
        with store.sessions() as s:
            s.add(Player(id="p" * 32, name="load", kind="guest"))
            s.flush()
            s.add_all(
                GameRecord(
                    id=f"g{i:05d}",
                    game="coin-age",
                    options={},
                    mode="friend",
                    status="active",
                    creator_id="p" * 32,
                    seat0_id="p" * 32,
                    history=HISTORY,
                    version=0,
                )
                for i in range(games)
            )
            s.commit()
        versions = [0] * games
        lock = threading.Lock()
        turn = [0]

        def next_games(k: int) -> list[tuple[str, int, dict[str, Any]]]:
            with lock:  # distinct games, each at its stored version (as the hub's locks make)
                picked = [(turn[0] + j) % games for j in range(k)]
                turn[0] += k
                for g in picked:
                    versions[g] += 1
            return [
                (f"g{g:05d}", versions[g] - 1, {"history": HISTORY, "version": versions[g]})
                for g in picked
            ]

        def timed(fn: Any, n: int) -> list[float]:
            out = []
            for _ in range(n):
                t0 = time.perf_counter()
                fn()
                out.append((time.perf_counter() - t0) * 1000)
            return out

        def select_one() -> None:
            with engine.connect() as conn:
                conn.execute(text("SELECT 1"))

        def write(k: int) -> None:
            assert all(store.save_games(next_games(k)))

        def write_in_transaction(k: int) -> None:
            """The same writes as a transaction (BEGIN, each UPDATE, COMMIT: k + 2 round
            trips), as the server wrote them before."""
            with engine.begin() as conn:
                for gid, expected, values in next_games(k):
                    done = conn.execute(
                        update(table)
                        .where(table.c.id == gid, table.c.version == expected)
                        .values(**values)
                    )
                    assert done.rowcount == 1

        def connect() -> None:
            """What a connection opened for one use (and closed after) costs."""
            raw = engine.raw_connection()
            raw.invalidate()  # closed, not returned to the pool

        def wal() -> int:
            with engine.connect() as conn:
                return int(conn.execute(text("SELECT pg_current_wal_lsn() - '0/0'")).scalar_one())

        timed(select_one, 50)
        anchor = timed(select_one, 500)
        timed(lambda: write(1), 50)
        wal0 = wal()
        one, transaction = [], []
        for _ in range(250):  # alternately, so the machine's load hits both alike
            one += timed(lambda: write(1), 2)
            transaction += timed(lambda: write_in_transaction(1), 2)
        wal_per_write = (wal() - wal0) / 1000
        connects = timed(connect, 50)
        sixteen, sixteen_transaction = [], []
        for _ in range(50):
            sixteen += timed(lambda: write(16), 2)
            sixteen_transaction += timed(lambda: write_in_transaction(16), 2)

        def writer(deadline: float) -> int:
            done = 0
            while time.perf_counter() < deadline:
                write(8)
                done += 8
            return done

        deadline = time.perf_counter() + seconds
        started = time.perf_counter()
        with ThreadPoolExecutor(writers) as pool:
            total = sum(pool.map(writer, [deadline] * writers))
        elapsed = time.perf_counter() - started
        return {
            "select_p50_ms": percentile(anchor, 0.5),
            "select_p99_ms": percentile(anchor, 0.99),
            "write1_p50_ms": percentile(one, 0.5),
            "write1_p99_ms": percentile(one, 0.99),
            "transaction_p50_ms": percentile(transaction, 0.5),
            "transaction_p99_ms": percentile(transaction, 0.99),
            "connect_p50_ms": percentile(connects, 0.5),
            "connect_p99_ms": percentile(connects, 0.99),
            "write16_p50_ms": percentile(sixteen, 0.5),
            "write16_p99_ms": percentile(sixteen, 0.99),
            "transaction16_p50_ms": percentile(sixteen_transaction, 0.5),
            "transaction16_p99_ms": percentile(sixteen_transaction, 0.99),
            "wal_bytes_per_write": wal_per_write,
            "writers": writers,
            "writes_per_s": total / elapsed,
        }
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        engine.dispose()


def redis_costs(url: str, size: int, count: int) -> dict[str, Any]:
    import redis

    client = redis.Redis.from_url(url)
    channel = f"move-costs-{os.getpid()}"
    payload = b"x" * size
    pings = []
    for _ in range(500):
        t0 = time.perf_counter()
        client.ping()
        pings.append((time.perf_counter() - t0) * 1000)
    sub = redis.Redis.from_url(url).pubsub(ignore_subscribe_messages=True)
    sub.subscribe(channel)
    while sub.get_message(timeout=1.0) is None and not sub.subscribed:
        pass
    received = [0]

    def listen() -> None:
        while received[0] < count:
            if sub.get_message(timeout=5.0) is None:
                break
            received[0] += 1

    listener = threading.Thread(target=listen)
    listener.start()
    publishes = []
    started = time.perf_counter()
    pipe_at = 100
    for i in range(0, count, pipe_at):
        t0 = time.perf_counter()
        pipe = client.pipeline(transaction=False)
        for _ in range(min(pipe_at, count - i)):
            pipe.publish(channel, payload)
        pipe.execute()
        publishes.append((time.perf_counter() - t0) * 1000 / pipe_at)
    listener.join()
    elapsed = time.perf_counter() - started
    sub.close()
    single = []
    for _ in range(500):
        t0 = time.perf_counter()
        client.publish(channel, payload)
        single.append((time.perf_counter() - t0) * 1000)
    client.close()
    return {
        "ping_p50_ms": percentile(pings, 0.5),
        "publish_p50_ms": percentile(single, 0.5),
        "publish_p99_ms": percentile(single, 0.99),
        "delivered_per_s": received[0] / elapsed,
        "delivered": received[0],
        "sent": count,
        "size": size,
    }


def section(pg: dict[str, Any], rd: dict[str, Any] | None, command: str) -> str:
    lines = [
        START,
        "## What a move costs PostgreSQL and Redis",
        "",
        f"`{command}` — {os.cpu_count()} CPU cores shared with other work (load average "
        f"{'/'.join(f'{x:.1f}' for x in os.getloadavg())}), Python {platform.python_version()}; "
        "the game rows hold a 40-move history; writes go through `Store.save_games` as the "
        "server makes them (one statement per batch, autocommit).",
        "",
        "Writes of one move and of the same write as a transaction alternate, so the "
        "machine's load hits both alike.",
        "",
        "| measure | p50 | p99 | anchor p50 | ratio |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| PostgreSQL: one move's write | {pg['write1_p50_ms']:.2f} ms | {pg['write1_p99_ms']:.2f} ms "
        f"| {pg['select_p50_ms']:.2f} ms (SELECT 1) | {pg['write1_p50_ms'] / pg['select_p50_ms']:.1f}× |",
        f"| PostgreSQL: the same write as a transaction (BEGIN, UPDATE, COMMIT) | "
        f"{pg['transaction_p50_ms']:.2f} ms | {pg['transaction_p99_ms']:.2f} ms | "
        f"{pg['write1_p50_ms']:.2f} ms (one statement) | "
        f"{pg['transaction_p50_ms'] / pg['write1_p50_ms']:.1f}× |",
        f"| PostgreSQL: opening a connection | {pg['connect_p50_ms']:.2f} ms | "
        f"{pg['connect_p99_ms']:.2f} ms | {pg['select_p50_ms']:.2f} ms (SELECT 1) | "
        f"{pg['connect_p50_ms'] / pg['select_p50_ms']:.0f}× |",
        f"| PostgreSQL: a batch of 16 moves (one statement) | {pg['write16_p50_ms']:.2f} ms | "
        f"{pg['write16_p99_ms']:.2f} ms | {pg['select_p50_ms']:.2f} ms | "
        f"{pg['write16_p50_ms'] / pg['select_p50_ms']:.1f}× |",
        f"| PostgreSQL: the same 16 as a transaction | {pg['transaction16_p50_ms']:.2f} ms | "
        f"{pg['transaction16_p99_ms']:.2f} ms | {pg['write16_p50_ms']:.2f} ms (one statement) | "
        f"{pg['transaction16_p50_ms'] / pg['write16_p50_ms']:.1f}× |",
    ]
    if rd is not None:
        lines.append(
            f"| Redis: publish one change notice ({rd['size']} bytes, one subscriber) | "
            f"{rd['publish_p50_ms']:.3f} ms | {rd['publish_p99_ms']:.3f} ms | "
            f"{rd['ping_p50_ms']:.3f} ms (PING) | {rd['publish_p50_ms'] / rd['ping_p50_ms']:.1f}× |"
        )
    lines += [
        "",
        f"PostgreSQL with {pg['writers']} writers at once, batches of 8: "
        f"**{pg['writes_per_s']:,.0f} move writes/s**; {pg['wal_bytes_per_write']:,.0f} bytes of "
        "WAL per move written alone.",
    ]
    if rd is not None:
        lines.append(
            f"Redis, pipelined publishes to a channel with one subscriber (redis-py, in one "
            f"Python process like a server's): **{rd['delivered_per_s']:,.0f} messages/s** "
            f"delivered ({rd['delivered']:,} of {rd['sent']:,})."
        )
    lines.append(END)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="a PostgreSQL URL")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--no-redis", action="store_true", help="measure PostgreSQL only")
    parser.add_argument("--games", type=int, default=2000, help="game rows (default 2000)")
    parser.add_argument("--seconds", type=float, default=10.0, help="throughput run (default 10)")
    parser.add_argument("--writers", type=int, default=4, help="writers at once (default 4)")
    parser.add_argument(
        "--message-bytes",
        type=int,
        default=100,
        help="size of a message on the bus (default 100: a game's id and version, as the "
        "cluster's change notices)",
    )
    parser.add_argument("--messages", type=int, default=50000, help="Redis messages (50000)")
    parser.add_argument("--write", action="store_true", help=f"write into {DOCS.name}")
    args = parser.parse_args(argv)
    pg = postgres(args.database_url, args.games, args.seconds, args.writers)
    for k, v in pg.items():
        print(f"postgresql {k}: {v:,.3f}")
    rd = None if args.no_redis else redis_costs(args.redis_url, args.message_bytes, args.messages)
    for k, v in (rd or {}).items():
        print(f"redis {k}: {v:,.3f}")
    if args.write:
        command = "python benchmarks/move_costs.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if a != "--write"
        )
        markdown_section.write_section(DOCS, section(pg, rd, command.strip()), START, END)
        print(f"wrote {DOCS.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
