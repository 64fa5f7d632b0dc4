"""The server's CPU for each of the HTTP requests a game starts with, measured apart.

``server_load.py`` reports the server's CPU per move, which includes the two requests each of
its games starts with (one player creates it, the other joins it) spread over the game's
moves. This measures those requests alone: a real server started as ``server_load.py`` starts
one (``pocketarena serve``, the limits lifted, a fresh SQLite database or a schema of its own
on ``--database-url``), guests with their cookies (httpx clients), and in each round, phase by
phase, ``--games`` of

1. ``POST /api/games?svg=false`` (an unrated friend's game, the four games in turn),
2. ``POST /api/games/{id}/join?svg=false`` by the other player with the invite,
3. ``GET /api/games/{id}?svg=false`` by the creator,

``--concurrency`` requests in flight at a time; then the games are aborted (not measured).
The server's CPU (all its threads: the event loop and the database and worker threads) is read
from ``/proc/PID/stat`` before and after each phase. Prints the CPU per request of each phase,
the median of ``--rounds`` rounds after one unmeasured warm-up round.

``--src`` (given more than once) starts one server per checkout's ``src``, all at the same
time, and alternates their rounds (the order turned each round), so a before and an after are
measured under the same load on this shared machine:

    python benchmarks/http_costs.py                                   # this checkout
    python benchmarks/http_costs.py --src /other/checkout/src --src src --rounds 7
    python benchmarks/http_costs.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import markdown_section  # benchmarks/markdown_section.py, beside this script
import server_load  # its server start, free port, CPU reading and schema drop

ROOT = Path(__file__).resolve().parent.parent
PHASES = ("create", "join", "get")
# A pause before each reading: the server's work a phase left behind (the lobby's update, the
# game's first broadcast to nobody) belongs to it.
SETTLE_S = 0.2


@dataclass
class Server:
    src: Path
    proc: Any
    base: str
    schema: str
    folder: tempfile.TemporaryDirectory[str]
    players: list[httpx.AsyncClient] = field(default_factory=list)
    rounds: dict[str, list[float]] = field(default_factory=lambda: {p: [] for p in PHASES})


def start(src: Path, database_url: str | None, n: int) -> Server:
    folder = tempfile.TemporaryDirectory(prefix="http_costs_")
    schema = f"http_costs_{os.getpid()}_{n}"
    args = argparse.Namespace(
        counts_file=None,
        profile=None,
        redis_url=None,
        no_compression=False,
        database_url=database_url,
        schema=schema,
    )
    port = server_load.free_port()
    proc = server_load.start_server(args, port, folder.name, src)
    return Server(src, proc, f"http://127.0.0.1:{port}", schema, folder)


async def guests(server: Server, count: int) -> None:
    """``count`` players, each an httpx client holding its guest cookie."""
    while len(server.players) < count:
        # A new connection for each request, as a game's players make theirs in server_load.py
        # (a game's moves outlast the server's keep-alive); reusing one the server has just
        # closed as idle would fail the request.
        limits = httpx.Limits(keepalive_expiry=0)
        client = httpx.AsyncClient(base_url=server.base, timeout=60, limits=limits)
        (await client.get("/api/me")).raise_for_status()  # the first visit sets the cookie
        server.players.append(client)


def ok(r: httpx.Response) -> httpx.Response:
    if r.status_code >= 300:
        raise SystemExit(f"{r.request.method} {r.request.url}: {r.status_code} {r.text[:300]}")
    return r


async def one_round(
    server: Server, games: int, concurrency: int, names: list[str]
) -> dict[str, float]:
    """One round's CPU per request (ms) of each phase, on ``server``: games of ``names`` in
    turn."""
    limit = asyncio.Semaphore(concurrency)
    pid = server.proc.pid
    players = server.players

    async def limited(request: Any) -> httpx.Response:
        async with limit:
            return ok(await request)

    async def phase(requests: list[Any]) -> tuple[list[httpx.Response], float]:
        await asyncio.sleep(SETTLE_S)
        before = server_load.cpu_seconds(pid)
        answers = await asyncio.gather(*(limited(r) for r in requests))
        await asyncio.sleep(SETTLE_S)
        return answers, (server_load.cpu_seconds(pid) - before) * 1000 / len(requests)

    created, create_ms = await phase(
        [
            players[2 * i].post(
                "/api/games?svg=false",
                json={"game": names[i % len(names)], "mode": "friend", "seat": 0, "rated": False},
            )
            for i in range(games)
        ]
    )
    ids = [r.json()["id"] for r in created]
    invites = [r.json()["invite_url"].split("invite=")[1] for r in created]
    _, join_ms = await phase(
        [
            players[2 * i + 1].post(f"/api/games/{gid}/join?svg=false", json={"invite": invite})
            for i, (gid, invite) in enumerate(zip(ids, invites, strict=True))
        ]
    )
    _, get_ms = await phase(
        [players[2 * i].get(f"/api/games/{gid}?svg=false") for i, gid in enumerate(ids)]
    )
    # Not measured: the games end, so each round starts with the server as the last left it.
    await asyncio.gather(
        *(limited(players[2 * i].post(f"/api/games/{gid}/abort")) for i, gid in enumerate(ids))
    )
    return {"create": create_ms, "join": join_ms, "get": get_ms}


async def run(servers: list[Server], args: argparse.Namespace) -> None:
    for server in servers:
        server_load.wait_ready(server.base, server.proc)
        await guests(server, 2 * args.games)
        await one_round(
            server, args.games, args.concurrency, args.game
        )  # warm-up: lazy imports, caches
    for n in range(args.rounds):
        turn = n % len(servers)
        for server in servers[turn:] + servers[:turn]:
            for phase, ms in (
                await one_round(server, args.games, args.concurrency, args.game)
            ).items():
                server.rounds[phase].append(ms)
    for server in servers:
        await asyncio.gather(*(p.aclose() for p in server.players))


def report(servers: list[Server], args: argparse.Namespace) -> None:
    load = "/".join(f"{x:.1f}" for x in os.getloadavg())
    database = "PostgreSQL" if args.database_url else "SQLite"
    print(
        f"{database}, {args.games} games a round ({', '.join(args.game)}), "
        f"{args.concurrency} requests in flight, "
        f"median of {args.rounds} rounds; server CPU (all threads) per request, ms "
        f"(load average {load} at the end)"
    )
    print(f"  {'src':<40} " + " ".join(f"{p:>7}" for p in PHASES))
    for server in servers:
        medians = [statistics.median(server.rounds[p]) for p in PHASES]
        print(f"  {str(server.src):<40} " + " ".join(f"{m:7.2f}" for m in medians))
    for server in servers:
        for phase in PHASES:
            each = ", ".join(f"{ms:.2f}" for ms in server.rounds[phase])
            print(f"  rounds  {phase:<6} {each}  ({server.src})")
    if len(servers) > 1:
        first = servers[0]
        for server in servers[1:]:
            ratios = [
                statistics.median(server.rounds[p]) / statistics.median(first.rounds[p])
                if statistics.median(first.rounds[p])
                else float("nan")  # a tiny run: no tick of the server's CPU counted
                for p in PHASES
            ]
            print(
                f"  {server.src} / {first.src}: "
                + ", ".join(f"{p} {r:.2f}" for p, r in zip(PHASES, ratios, strict=True))
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument(
        "--src",
        action="append",
        type=Path,
        help="a checkout's src to run (more than once: one server each, rounds alternating; "
        "default: this checkout's)",
    )
    parser.add_argument("--database-url", help="default: SQLite in a temporary folder")
    parser.add_argument(
        "--game",
        action="append",
        choices=server_load.GAMES,
        help="the game(s) created, in turn (default: all four)",
    )
    parser.add_argument("--games", type=int, default=100, help="games a round (default 100)")
    parser.add_argument("--rounds", type=int, default=5, help="measured rounds (default 5)")
    parser.add_argument("--concurrency", type=int, default=8, help="requests in flight (default 8)")
    args = parser.parse_args()
    args.game = args.game or list(server_load.GAMES)
    if args.rounds < 1 or args.games < 1 or args.concurrency < 1:
        parser.error("--rounds, --games and --concurrency must be at least 1")
    sources = [src.resolve() for src in args.src or [ROOT / "src"]]
    servers = [start(src, args.database_url, n) for n, src in enumerate(sources)]
    try:
        asyncio.run(run(servers, args))
    finally:
        for server in servers:
            server.proc.terminate()
            server.proc.wait(timeout=15)
            server.folder.cleanup()
            if args.database_url:
                server_load.drop_schema(args.database_url, server.schema)
    report(servers, args)
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
