"""Load test of the web platform: N concurrent bot-vs-bot games through the WebSocket API.

Starts ``pocketarena serve`` on a free loopback port (a fresh SQLite database in a temporary
folder, or ``--database-url``), then:

1. the anchor: one connection per game, each sending ``ping`` at the games' pace and timing
   its ``pong`` (a trivial echo through the same server, sockets, JSON and machine);
2. the games: N games at once between pairs of API clients (guests), each player answering
   every position where it is to act with a random legal action (or the throw) the moment the
   state arrives. A finished game is replaced by a new one, so N stay in play.

A move's latency is the time from sending it to receiving the state that contains it: the
server's checking, saving, broadcasting and the network. The bots' thinking (a random pick) is
outside it. Prints moves per second and p50/p99 latency beside the echo's, and with
``--write`` puts the figures into docs/benchmarks.md between its markers.

    python benchmarks/server_load.py                     # 200 games, 20 s, every game
    python benchmarks/server_load.py --games 50 --seconds 10 --game stack-a-cash
    python benchmarks/server_load.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB \
        --sqlite-anchor --runs 3 --count --write   # PostgreSQL beside SQLite, work per move counted

The measurement starts once every game's two players are connected (their guests and sessions
made), then ``--warmup`` seconds later: it holds moves and games ending and starting again, not
the start. ``--count`` runs the server under ``db_counts.py`` (beside this script), which counts
its database statements, transactions, round trips and pool waits; they are reported per move.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import markdown_section  # benchmarks/markdown_section.py, beside this script
import websockets

ROOT = Path(__file__).resolve().parent.parent
# The clients offer permessage-deflate, as browsers do, unless --no-compression.
COMPRESSION: list[str | None] = ["deflate"]
# The players ask for no ack of their moves, as the site's pages do, unless --acks.
ACKS = [False]
START = "<!-- server:start -->"
END = "<!-- server:end -->"
DB_START = "<!-- server-db:start -->"
DB_END = "<!-- server-db:end -->"
DOCS = ROOT / "docs" / "benchmarks.md"
GAMES = ("coin-age", "flipwars", "stack-a-cash", "wallet-battles")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    moves: int = 0
    messages: int = 0  # every message the players received while recording
    message_bytes: int = 0  # their size as JSON text (before compression)
    kinds: dict[str, int] = field(default_factory=dict)  # the messages by "type"
    games_finished: int = 0
    errors: dict[str, int] = field(default_factory=dict)


class Player:
    """One API client: its own cookie (a guest), its own WebSocket."""

    def __init__(self, base: str) -> None:
        self.http = httpx.AsyncClient(base_url=base, timeout=30)
        self.ws: Any = None

    async def connect(self, ws_url: str) -> None:
        await self.http.get("/api/me")  # the first visit sets the guest cookie
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        self.ws = await websockets.connect(
            ws_url,
            additional_headers={"Cookie": cookie},
            max_size=2**24,
            compression=COMPRESSION[0],
            # Connecting is not measured: on a busy machine the last of 400 handshakes can
            # take longer than the library's 10 s, and a slot that failed it would stall the run.
            open_timeout=120,
        )
        hello = json.loads(await self.ws.recv())
        assert hello["type"] == "hello" and hello["player"]

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        await self.http.aclose()


async def start_game(a: Player, b: Player, game: str) -> str:
    # Without the SVG board in the answers (?svg=false): the players read their state from the
    # socket, as the site's pages do.
    r = await a.http.post(
        "/api/games?svg=false", json={"game": game, "mode": "friend", "seat": 0, "rated": False}
    )
    r.raise_for_status()
    created = r.json()
    invite = created["invite_url"].split("invite=")[1]
    (
        await b.http.post(f"/api/games/{created['id']}/join?svg=false", json={"invite": invite})
    ).raise_for_status()
    return str(created["id"])


async def play_side(
    player: Player,
    gid: str,
    svg: bool,
    think: float,
    rng: random.Random,
    stats: Stats,
    state: dict[str, bool],
) -> bool:
    """Play one seat of game ``gid`` until it ends; True if it finished normally."""
    await player.ws.send(json.dumps({"type": "watch", "game": gid, "svg": svg}))
    sent_at: float | None = None
    sent_version = -1
    while True:
        raw = await player.ws.recv()
        msg = json.loads(raw)
        if state["record"]:
            stats.messages += 1
            stats.message_bytes += len(raw)
        kind = msg["type"]
        if state["record"]:
            stats.kinds[kind] = stats.kinds.get(kind, 0) + 1
        if kind == "error":
            stats.errors[msg["code"]] = stats.errors.get(msg["code"], 0) + 1
            sent_at = None
            continue
        if kind != "state" or msg["game"]["id"] != gid:
            continue
        view, you = msg["game"], msg["you"]
        if sent_at is not None and view["version"] > sent_version:
            if state["record"]:
                stats.latencies_ms.append((time.perf_counter() - sent_at) * 1000)
                stats.moves += 1
            sent_at = None
        if view["status"] != "active":
            await player.ws.send(json.dumps({"type": "unwatch", "game": gid}))
            return bool(view["status"] == "finished")
        if sent_at is not None:
            continue
        if view["node"] == "chance" and view["thrower"] in you:
            out = {"type": "throw", "game": gid, "version": view["version"]}
        elif view["node"] == "decision" and view["to_move"] in you:
            out = {
                "type": "move",
                "game": gid,
                "action": rng.choice(msg["legal"]),
                "version": view["version"],
            }
        else:
            continue
        if not ACKS[0]:  # as the site's pages: the state message says the move was made
            out["ack"] = False
        if think:  # the bot's thinking: not timed (messages meanwhile stay queued)
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
        sent_version = view["version"]
        sent_at = time.perf_counter()
        await player.ws.send(json.dumps(out))


async def game_slot(
    base: str,
    ws_url: str,
    games: list[str],
    svg: bool,
    think: float,
    seed: int,
    stop: asyncio.Event,
    stats: Stats,
    state: dict[str, bool],
    ready: asyncio.Semaphore,
) -> None:
    rng = random.Random(seed)
    a, b = Player(base), Player(base)
    await a.connect(ws_url)
    await b.connect(ws_url)
    ready.release()
    try:
        while not stop.is_set():
            gid = await start_game(a, b, games[seed % len(games)])
            results = await asyncio.gather(
                play_side(a, gid, svg, think, rng, stats, state),
                play_side(b, gid, svg, think, rng, stats, state),
            )
            if all(results) and state["record"]:
                stats.games_finished += 1
            seed += 1
    finally:
        await a.close()
        await b.close()


async def echo_anchor(
    base: str,
    ws_url: str,
    connections: int,
    seconds: float,
    think: float,
    server_pid: int | None = None,
    seed: int = 7,
) -> tuple[list[float], float, float]:
    """Ping/pong on ``connections`` sockets paced like the games (one message in flight per
    socket, ``think`` seconds apart on average): round-trip times (ms), pings per second and
    the server's CPU per ping (ms; nan without ``server_pid``): what receiving one message and
    sending one costs it, the floor under a move's work."""
    players = [Player(base) for _ in range(connections)]
    await asyncio.gather(*(p.connect(ws_url) for p in players))
    rtts: list[float] = []
    deadline = time.perf_counter() + seconds
    rng = random.Random(seed)

    async def loop(p: Player) -> None:
        while time.perf_counter() < deadline:
            if think:
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
            t0 = time.perf_counter()
            await p.ws.send('{"type":"ping"}')
            while json.loads(await p.ws.recv())["type"] != "pong":
                pass
            rtts.append((time.perf_counter() - t0) * 1000)

    started = time.perf_counter()
    cpu0 = cpu_seconds(server_pid) if server_pid else float("nan")
    await asyncio.gather(*(loop(p) for p in players))
    elapsed = time.perf_counter() - started
    cpu1 = cpu_seconds(server_pid) if server_pid else float("nan")
    await asyncio.gather(*(p.close() for p in players))
    return rtts, len(rtts) / elapsed, (cpu1 - cpu0) * 1000 / max(1, len(rtts))


def pg_counters(url: str | None) -> dict[str, int]:
    """PostgreSQL's own counters for the benchmark's database: transactions committed and
    rolled back (a read ends with a rollback), rows updated and inserted, server processes
    (connections) started. Empty on SQLite."""
    if not url:
        return {}
    import psycopg
    from sqlalchemy.engine import make_url

    u = make_url(url)
    with psycopg.connect(
        host=u.host, port=u.port, user=u.username, password=u.password, dbname=u.database
    ) as conn:
        conn.execute("SELECT pg_stat_clear_snapshot()")
        row = conn.execute(
            "SELECT xact_commit, xact_rollback, tup_updated, tup_inserted, sessions"
            " FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    assert row is not None
    names = ("commits", "rollbacks", "rows_updated", "rows_inserted", "connections")
    return dict(zip(names, row, strict=True))


def db_counts(args: argparse.Namespace, pid: int | None) -> dict[str, float]:
    """With ``--count``: the server's database work so far, as ``db_counts.py`` counted it
    (asked for with SIGUSR1, which also starts or stops its profiler). Empty otherwise."""
    path = getattr(args, "counts_file", None)
    if path is None or pid is None:
        return {}
    path.unlink(missing_ok=True)
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 10
    while not path.exists():
        if time.monotonic() > deadline:
            raise SystemExit("the server did not report its database counts")
        time.sleep(0.05)
    counts: dict[str, float] = json.loads(path.read_text())
    return counts


def rss_mb(pid: int | None) -> float:
    """Resident memory of the server process (MiB), from /proc; nan when unknown."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError, TypeError):
        pass
    return float("nan")


def cpu_seconds(pid: int | None, main_thread: bool = False) -> float:
    """CPU time used so far by a process (this one when ``pid`` is None), from /proc;
    ``main_thread``: by its main thread alone (the server's event loop; nan without ``pid``)."""
    if pid is None:
        if main_thread:
            return float("nan")
        t = os.times()
        return t.user + t.system
    stat = f"/proc/{pid}/task/{pid}/stat" if main_thread else f"/proc/{pid}/stat"
    try:
        fields = Path(stat).read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def run(
    args: argparse.Namespace, base: str, ws_url: str, server_pid: int | None
) -> dict[str, Any]:
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    rss_idle = rss_mb(server_pid)  # before any socket or game
    # One socket per game: in a game one move at a time is in flight, as one ping is here.
    rtts, pings_per_s, ping_cpu_ms = await echo_anchor(
        base, ws_url, args.games, args.echo_seconds, args.think, server_pid
    )
    stats = Stats()
    stop = asyncio.Event()
    state = {"record": False}
    ready = asyncio.Semaphore(0)  # released by each slot once its two players are connected
    slots = [
        asyncio.create_task(
            game_slot(base, ws_url, args.game, args.svg, args.think, i, stop, stats, state, ready)
        )
        for i in range(args.games)
    ]
    # Every slot's players connected (the guests and sessions made) before the warm-up: on a
    # busy machine that takes longer than the warm-up, and the window would count it as moves'.
    for _ in slots:
        await asyncio.wait_for(ready.acquire(), timeout=300)
    await asyncio.sleep(args.warmup)  # games get going before the clock starts
    lags: list[float] = []

    async def lag_monitor() -> None:  # is the measuring side itself keeping up?
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append((time.perf_counter() - t0 - 0.01) * 1000)

    monitor = asyncio.create_task(lag_monitor())
    state["record"] = True
    started = time.perf_counter()
    cpu0 = (cpu_seconds(server_pid), cpu_seconds(None))
    loop0 = cpu_seconds(server_pid, main_thread=True)
    pg0 = await asyncio.to_thread(pg_counters, args.database_url)
    db0 = await asyncio.to_thread(db_counts, args, server_pid)
    await asyncio.sleep(args.seconds)
    state["record"] = False
    monitor.cancel()
    elapsed = time.perf_counter() - started
    cpu1 = (cpu_seconds(server_pid), cpu_seconds(None))
    loop1 = cpu_seconds(server_pid, main_thread=True)
    rss_games = rss_mb(server_pid)  # with 2 sockets and 1 live game per game slot
    db1 = await asyncio.to_thread(db_counts, args, server_pid)
    # PostgreSQL publishes its counters when a backend's transaction ends (at most every
    # half second): wait that out so the window's last writes are counted.
    await asyncio.sleep(1.0 if args.database_url else 0)
    pg1 = await asyncio.to_thread(pg_counters, args.database_url)
    stop.set()
    for task in slots:
        task.cancel()
    await asyncio.gather(*slots, return_exceptions=True)
    lat = stats.latencies_ms
    return {
        "games": args.games,
        "think": args.think,
        "load": load,
        "seconds": round(elapsed, 1),
        "moves": stats.moves,
        "moves_per_s": stats.moves / elapsed,
        "p50_ms": percentile(lat, 0.50),
        "p99_ms": percentile(lat, 0.99),
        "mean_ms": statistics.fmean(lat) if lat else float("nan"),
        "games_finished": stats.games_finished,
        "errors": stats.errors,
        "echo_p50_ms": percentile(rtts, 0.50),
        "echo_p99_ms": percentile(rtts, 0.99),
        "echo_per_s": pings_per_s,
        "echo_server_cpu_ms": ping_cpu_ms,
        "client_lag_p99_ms": percentile(lags, 0.99),
        "server_cpu": (cpu1[0] - cpu0[0]) / elapsed,  # cores busy
        "client_cpu": (cpu1[1] - cpu0[1]) / elapsed,
        # per move: the server's CPU, the messages each player received, the database's work
        "server_cpu_ms_per_move": (cpu1[0] - cpu0[0]) * 1000 / max(1, stats.moves),
        # of it, the event loop's thread and the others (the database's, the thread pools'):
        # a wall-clock profile of the loop alone missed a third of the CPU on the database thread
        "server_loop_cpu_ms_per_move": (loop1 - loop0) * 1000 / max(1, stats.moves),
        "server_threads_cpu_ms_per_move": (cpu1[0] - cpu0[0] - (loop1 - loop0))
        * 1000
        / max(1, stats.moves),
        "messages_per_move": stats.messages / max(1, stats.moves),
        "message_bytes": stats.message_bytes / max(1, stats.messages),
        "message_kinds": {k: n / max(1, stats.moves) for k, n in sorted(stats.kinds.items())},
        "rss_idle_mb": rss_idle,
        "rss_games_mb": rss_games,
        **{f"pg_{k}_per_move": (pg1[k] - pg0[k]) / max(1, stats.moves) for k in pg0},
        # --count: the server's own statements, transactions and round trips
        "db_counts": {
            k: (db1[k] - db0.get(k, 0)) / max(1, stats.moves)
            for k in sorted(db1)
            if db1[k] != db0.get(k, 0)
        },
        # the second reading's own connection is not the server's
        **(
            {
                "pg_connections_per_move": (pg1["connections"] - pg0["connections"] - 1)
                / max(1, stats.moves)
            }
            if pg0
            else {}
        ),
    }


def start_server(
    args: argparse.Namespace, port: int, data_dir: str, src: Path = ROOT / "src"
) -> subprocess.Popen[str]:
    """``pocketarena serve`` with the limits lifted, importing the package from ``src``."""
    env = {
        **os.environ,
        "PYTHONPATH": str(src) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "POCKETARENA_DATA_DIR": data_dir,
        # Every client here is one process on loopback (one address): lift the per-client
        # and per-address limits.
        **{
            f"POCKETARENA_{name}": "100000"
            for name in (
                "WS_MESSAGES_PER_S",
                "WS_BURST",
                "HTTP_WRITES_PER_S",
                "HTTP_BURST",
                "ADDRESS_WRITES_PER_S",
                "ADDRESS_BURST",
                "GAMES_PER_MINUTE",
                "ADDRESS_GAMES_PER_MINUTE",
                "MAX_OPEN_GAMES",
                "ADDRESS_MAX_OPEN_GAMES",
                "ADDRESS_SESSIONS_PER_MINUTE",
                "ADDRESS_MAX_SOCKETS",
                "ADDRESS_SOCKETS_PER_MINUTE",
            )
        },
    }
    if args.counts_file is not None:  # the same server, its database work counted
        profile = ["--profile", str(args.profile)] if args.profile else []
        run = [sys.executable, str(ROOT / "benchmarks" / "db_counts.py"), str(args.counts_file)]
        run += [*profile, "--"]
    else:
        run = [sys.executable, "-m", "pocketarena"]
    cmd = [
        *run,
        "serve",
        "--port",
        str(port),
        "--log-level",
        "warning",
    ]
    if args.redis_url:  # a cluster's process (one of them): its bus and limits on Redis
        env["POCKETARENA_REDIS_URL"] = args.redis_url
    if args.no_compression:
        env["POCKETARENA_WS_COMPRESSION"] = "false"
    if args.database_url:
        cmd += ["--database-url", args.database_url]
        env["POCKETARENA_DATABASE_SCHEMA"] = args.schema  # its own tables, dropped afterwards
    return subprocess.Popen(
        cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def drop_schema(url: str, schema: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    engine.dispose()


def wait_ready(base: str, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server stopped: {proc.stderr.read() if proc.stderr else ''}")
        try:
            if httpx.get(f"{base}/api/catalog", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start within 60 s")


def section(result: dict[str, Any], command: str, database: str) -> str:
    ratio50 = result["p50_ms"] / result["echo_p50_ms"]
    ratio99 = result["p99_ms"] / result["echo_p99_ms"]
    goal = "met" if result["games"] >= 200 and result["p99_ms"] < 100 else "not met"
    cpus = os.cpu_count()
    return "\n".join(
        [
            START,
            "## Web platform under load",
            "",
            f"`{command}` — {result['games']} concurrent bot-vs-bot games over the WebSocket API on "
            f"loopback, {database}, one Uvicorn worker; {cpus} CPU cores shared by the server and the "
            f"clients (Python {platform.python_version()}); load average {result['load']} when the run "
            f"began (other work on the machine). Each bot thinks {result['think']} s on average "
            "(untimed); during the measurement the server kept "
            f"{result['server_cpu']:.2f} cores busy and the clients {result['client_cpu']:.2f}.",
            "",
            "| measure | games | echo anchor (same server, same sockets) | ratio |",
            "| --- | --- | --- | --- |",
            f"| messages | {result['moves_per_s']:,.0f} moves/s | {result['echo_per_s']:,.0f} pings/s | "
            f"{result['moves_per_s'] / result['echo_per_s']:.2f} |",
            f"| p50 latency | {result['p50_ms']:.1f} ms | {result['echo_p50_ms']:.1f} ms | {ratio50:.1f}× |",
            f"| p99 latency | {result['p99_ms']:.1f} ms | {result['echo_p99_ms']:.1f} ms | {ratio99:.1f}× |",
            "",
            f"{result['moves']:,} moves in {result['seconds']} s, {result['games_finished']} games finished, "
            f"errors: {result['errors'] or 'none'}. A move's latency runs from sending it to receiving the "
            "state that contains it (checked by the engine, saved to the database, broadcast); the bots' "
            f"pick is not timed; the clients' own event-loop lag (p99 {result['client_lag_p99_ms']:.0f} ms) "
            "is part of it. The anchor paces one socket per game like the games. "
            "Goal (200 concurrent games, p99 under 100 ms): "
            f"**{goal}**.",
            END,
        ]
    )


def counted(result: dict[str, Any]) -> str:
    """The server's own count of its database work per move (``--count``), as a sentence."""
    c = result["db_counts"]
    if not c:
        return ""
    statements = ", ".join(
        f"{v:.3f} {k.removeprefix('statement ')}"
        for k, v in sorted(c.items(), key=lambda kv: -kv[1])
        if k.startswith("statement ") and v >= 0.001
    )
    return (
        f"Counted in the server (`--count`), per move: {c.get('statements', 0):.2f} statements "
        f"({statements}), {c.get('round_trips', 0):.2f} round trips, "
        f"{c.get('transactions', 0):.3f} transactions with BEGIN, "
        f"{c.get('statement_s', 0) * 1000:.1f} ms in statements, "
        f"{c.get('pool_wait_s', 0) * 1000:.2f} ms waiting for a pooled connection, "
        f"{c.get('statements_on_event_loop', 0):.0f} statements on the event loop's thread. "
    )


def db_section(sqlite: dict[str, Any], pg: dict[str, Any], runs: int, command: str) -> str:
    """The PostgreSQL figures beside SQLite's, measured alternately in the same run."""

    def row(name: str, r: dict[str, Any]) -> str:
        p99s = ", ".join(f"{x:.0f}" for x in r["p99_runs_ms"])
        return (
            f"| {name} | {r['moves_per_s']:,.0f} | {r['p50_ms']:.1f} | {r['p99_ms']:.1f} ({p99s}) | "
            f"{r['echo_p99_ms']:.1f} | {r['server_cpu_ms_per_move']:.2f} |"
        )

    goal = "met" if pg["games"] >= 200 and pg["p99_ms"] < 100 else "not met"
    per = (
        f"{pg['pg_commits_per_move']:.2f} commits, {pg['pg_rollbacks_per_move']:.2f} rollbacks "
        f"(reads), {pg['pg_rows_updated_per_move']:.2f} rows updated, "
        f"{pg['pg_rows_inserted_per_move']:.3f} rows inserted and "
        f"{pg['pg_connections_per_move']:.4f} new connections per move"
    )
    return "\n".join(
        [
            DB_START,
            "### The same load on PostgreSQL",
            "",
            f"`{command}` — {pg['games']} games, {runs} runs, each measuring SQLite and then "
            f"PostgreSQL on the same machine one after the other; "
            f"medians of the runs (p99 of each run in brackets). {os.cpu_count()} CPU cores shared "
            f"with other work (load average {sqlite['load']} when the first run began).",
            "",
            "| database | moves/s | p50 ms | p99 ms (runs) | echo p99 ms | server CPU ms/move |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
            row("SQLite (WAL)", sqlite),
            row("PostgreSQL", pg),
            "",
            f"PostgreSQL p99 / SQLite p99: {pg['p99_ms'] / sqlite['p99_ms']:.2f}. "
            f"PostgreSQL's own counters: {per}. {counted(pg)}"
            f"Goal (200 games, p99 under 100 ms on PostgreSQL): **{goal}**.",
            DB_END,
        ]
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="concurrent games (default 200)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured time (default 20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured start (default 3)")
    parser.add_argument("--echo-seconds", type=float, default=10.0, help="anchor time (default 10)")
    parser.add_argument(
        "--game", action="append", choices=GAMES, help="game(s) to play (default: all, in turn)"
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.5,
        help="a bot's mean thinking time per move in seconds, not timed (default 0.5; 0: as fast as possible)",
    )
    parser.add_argument(
        "--svg",
        action="store_true",
        help="ask for the SVG board in every update, as a browser does",
    )
    parser.add_argument(
        "--database-url", help="e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test"
    )
    parser.add_argument(
        "--url", help="measure a server already running there (e.g. under a profiler)"
    )
    parser.add_argument(
        "--redis-url", help="run the server as a process of a cluster on this Redis"
    )
    parser.add_argument(
        "--write", action="store_true", help=f"write the figures into {DOCS.relative_to(ROOT)}"
    )
    parser.add_argument(
        "--count",
        action="store_true",
        help="count the server's statements, transactions and round trips per move "
        "(benchmarks/db_counts.py; a little slower)",
    )
    parser.add_argument(
        "--profile",
        type=Path,
        help="with --count: cProfile the server's event loop during the measurement into this file",
    )
    parser.add_argument(
        "--no-compression",
        action="store_true",
        help="WebSocket messages uncompressed (the server's WS_COMPRESSION=false; the clients "
        "offer no permessage-deflate): what compressing each socket's messages costs",
    )
    parser.add_argument(
        "--acks",
        action="store_true",
        help="the players get an ack for each move besides its state message (an API client's "
        "default; the site's pages ask for none, and so do the players without this)",
    )
    parser.add_argument(
        "--runs", type=int, default=1, help="measure this many times and report medians (default 1)"
    )
    parser.add_argument(
        "--sqlite-anchor",
        action="store_true",
        help="with --database-url: measure SQLite too, alternating with PostgreSQL in every run",
    )
    args = parser.parse_args(argv)
    args.game = args.game or list(GAMES)
    if args.no_compression:
        COMPRESSION[0] = None
    ACKS[0] = args.acks
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    if args.sqlite_anchor and not args.database_url:
        parser.error("--sqlite-anchor compares with --database-url; give one")
    if args.profile and not args.count:
        parser.error("--profile needs --count")
    if args.count and args.url:
        parser.error("--count counts a server this script starts; leave out --url")
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    urls = ([None] if args.sqlite_anchor else []) + [args.database_url]
    runs: dict[str | None, list[dict[str, Any]]] = {url: [] for url in urls}
    for n in range(args.runs):
        for url in urls:
            result = measure(args, url)
            runs[url].append(result)
            name = "PostgreSQL" if url else "SQLite"
            print(f"-- run {n + 1} of {args.runs}, {name}")
            report(result)
    medians = {url: median_result(results) for url, results in runs.items()}
    if args.runs > 1:
        for url, result in medians.items():
            print(f"== median of {args.runs} runs, {'PostgreSQL' if url else 'SQLite'}")
            report(result)
    command = "python benchmarks/server_load.py " + " ".join(
        argv if argv is not None else sys.argv[1:]
    )
    command = command.replace(" --write", "").strip()
    if args.write and args.sqlite_anchor:
        markdown_section.write_section(
            DOCS,
            db_section(medians[None], medians[args.database_url], args.runs, command),
            DB_START,
            DB_END,
        )
        print(f"wrote {DOCS.relative_to(ROOT)}")
    elif args.write:
        database = "PostgreSQL" if args.database_url else "SQLite (WAL)"
        markdown_section.write_section(
            DOCS, section(medians[args.database_url], command, database), START, END
        )
        print(f"wrote {DOCS.relative_to(ROOT)}")
    return 0


def measure(args: argparse.Namespace, database_url: str | None) -> dict[str, Any]:
    """One measurement: a fresh server (or the one at ``--url``) on ``database_url``."""
    args = argparse.Namespace(**{**vars(args), "database_url": database_url})
    args.schema = f"load_{os.getpid()}"
    if args.url:
        base = args.url.rstrip("/")
        ws_url = base.replace("http", "ws", 1) + "/ws"
        return asyncio.run(run(args, base, ws_url, None))
    port = free_port()
    base, ws_url = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}/ws"
    with tempfile.TemporaryDirectory() as data_dir:
        args.counts_file = Path(data_dir) / "db_counts.json" if args.count else None
        if args.profile:  # one profile per database
            args.profile = Path(f"{args.profile}.{'postgresql' if database_url else 'sqlite'}")
        proc = start_server(args, port, data_dir)
        try:
            wait_ready(base, proc)
            return asyncio.run(run(args, base, ws_url, proc.pid))
        finally:
            proc.terminate()
            proc.wait(timeout=15)
            if database_url:
                drop_schema(database_url, args.schema)


def median_result(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Each number the median over the runs (the other fields from the first run)."""
    out = dict(results[0])
    for key, value in results[0].items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[key] = statistics.median(r[key] for r in results)
    out["db_counts"] = {
        k: statistics.median(r["db_counts"].get(k, 0.0) for r in results)
        for k in results[0]["db_counts"]
    }
    out["p99_runs_ms"] = [r["p99_ms"] for r in results]
    out["p50_runs_ms"] = [r["p50_ms"] for r in results]
    return out


def report(result: dict[str, Any]) -> None:
    print(
        f"{result['games']} games, {result['seconds']} s: {result['moves']:,} moves, {result['moves_per_s']:,.0f} moves/s"
    )
    print(
        f"move latency  p50 {result['p50_ms']:.1f} ms  p99 {result['p99_ms']:.1f} ms  (mean {result['mean_ms']:.1f})"
    )
    print(
        f"echo anchor   p50 {result['echo_p50_ms']:.1f} ms  p99 {result['echo_p99_ms']:.1f} ms  ({result['echo_per_s']:,.0f} pings/s)"
    )
    print(f"echo anchor   server CPU {result['echo_server_cpu_ms']:.2f} ms a ping")
    print(f"games finished {result['games_finished']}, errors {result['errors'] or 'none'}")
    print(f"client event-loop lag p99 {result['client_lag_p99_ms']:.1f} ms")
    print(
        f"cores busy: server {result['server_cpu']:.2f}, clients {result['client_cpu']:.2f} (of {os.cpu_count()})"
    )
    per_move = {
        k.removesuffix("_per_move"): v for k, v in result.items() if k.endswith("_per_move")
    }
    print("per move: " + ", ".join(f"{k} {v:.2f}" for k, v in per_move.items()))
    if result["db_counts"]:
        print(
            "database work per move (counted in the server): "
            + ", ".join(f"{k} {v:.3f}" for k, v in result["db_counts"].items())
        )
    kinds = ", ".join(f"{k} {v:.2f}" for k, v in result["message_kinds"].items())
    print(f"messages a player received per move, by type: {kinds}")
    print(f"mean message size {result['message_bytes']:.0f} bytes of JSON")
    print(
        f"server memory: {result['rss_idle_mb']:.0f} MiB idle, {result['rss_games_mb']:.0f} MiB "
        f"with {result['games']} games and {2 * result['games']} sockets"
    )


if __name__ == "__main__":
    markdown_section.run(main)
