"""Faults injected into a running cluster, Jepsen-style, and what must hold afterwards.

Three ``pocketarena serve`` processes and two ``pocketarena worker`` processes (health on ports
of their own) over PostgreSQL and a Redis of this test's own, behind HAProxy configured by ``pocketarena haproxy-config``, started
as docs/deploy.md says (migrations once, servers healthy before
the balancer). Clients play through the balancer: friend games (rated, between accounts) and
bot games, untimed and timed, some timed ones left to run out of time. Meanwhile a schedule,
drawn from a seed printed at the start (``POCKETARENA_FAULT_SEED`` replays it), kills -9
servers and workers (started again a moment later), SIGSTOPs one for a while, restarts Redis
EMPTY and terminates the cluster's PostgreSQL connections.

Then: every acknowledged move is stored once, at its place; every stored history is legal;
no game waited on a bot more than 30 s after the last fault; every clock that ran out ended
its game once (the versions count each change once); every rated game changed its players'
ratings once.

The CI run is short (``POCKETARENA_FAULT_SECONDS``, 30 s of faults, SIGSTOP for 5 s);
``scripts/soak.py --minutes 30`` runs the same schedule longer with the full values.
"""

from __future__ import annotations

import contextlib
import os
import random
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from pocketarena.server.haproxy import render
from tests.services import OwnRedis, port_below_ephemeral, unavailable

from .test_cluster import Cluster, _haproxy

GAME = "stack-a-cash"
BOT_WAIT_LIMIT_S = 30.0  # no bot may keep a game waiting longer than this after the last fault
# A player's pause after each move of theirs. Without one the seven tables asked for views and
# moves back to back, and serving them was most of the test's CPU (both cores of a 2-core
# machine); at 0.1 s the faults still land among dozens of requests a second.
THINK_S = 0.1
SERVERS = ("s1", "s2", "s3")
WORKERS = ("w1", "w2")
LIMITS = {  # the clients all come through one balancer, from one address
    "WS_MESSAGES_PER_S": "1000",
    "WS_BURST": "1000",
    "HTTP_WRITES_PER_S": "1000",
    "HTTP_BURST": "1000",
    "ADDRESS_WRITES_PER_S": "1000",
    "ADDRESS_BURST": "1000",
    "GAMES_PER_MINUTE": "10000",
    "ADDRESS_GAMES_PER_MINUTE": "10000",
    "MAX_OPEN_GAMES": "1000",
    "ADDRESS_MAX_OPEN_GAMES": "1000",
    "ADDRESS_SESSIONS_PER_MINUTE": "10000",
    "ADDRESS_SIGN_INS_PER_MINUTE": "10000",
    "ADDRESS_MAX_SOCKETS": "1000",
    "ADDRESS_SOCKETS_PER_MINUTE": "10000",
}


# -- the schedule ---------------------------------------------------------------------------------
FAULT_KINDS = ("kill", "stop", "redis", "postgres")


@dataclass(frozen=True)
class Fault:
    at: float  # seconds after the play started
    kind: str  # kill | stop | redis | postgres
    target: str = ""  # the process (kill, stop)
    length: float = 0.0  # how long it lasts (down, stopped)

    def __str__(self) -> str:
        what = f" {self.target}" if self.target else ""
        return f"{self.at:5.1f}s {self.kind}{what}" + (
            f" {self.length:.1f}s" if self.length else ""
        )


def schedule(seed: int, seconds: float, stop_s: float) -> list[Fault]:
    """Faults over ``seconds``: each kind at least once, in a drawn order (the last of the four
    may start a little after ``seconds`` when the first were long: the play goes on after the
    last fault whatever its time), then more drawn at random, one every 3-6 s."""
    rng = random.Random(seed)
    kinds = list(FAULT_KINDS)
    rng.shuffle(kinds)
    faults: list[Fault] = []
    at = 3.0
    while at < seconds or kinds:
        kind = kinds.pop() if kinds else rng.choice(["kill", "kill", "stop", "redis", "postgres"])
        if kind == "kill":
            fault = Fault(at, kind, rng.choice(SERVERS + WORKERS), round(rng.uniform(0.5, 3.0), 1))
        elif kind == "stop":
            fault = Fault(at, kind, rng.choice(SERVERS + WORKERS), stop_s)
        elif kind == "redis":
            fault = Fault(at, kind, "", round(rng.uniform(0.0, 2.0), 1))
        else:
            fault = Fault(at, kind)
        faults.append(fault)
        at += fault.length + rng.uniform(3.0, 6.0)
    return faults


# -- the cluster ----------------------------------------------------------------------------------
class FaultCluster(Cluster):
    """Servers s1..s3 and workers w1, w2 (each answering health on its port), HAProxy, and a
    Redis of the test's own. Every port is below the kernel's ephemeral range: clients that
    reconnect to a port while its process is down could otherwise connect to themselves."""

    def __init__(self, tmp: Path, database_url: str, schema: str, redis: OwnRedis) -> None:
        super().__init__(tmp, database_url, schema, redis.url)
        self.redis = redis
        self.ports = {name: port_below_ephemeral() for name in SERVERS + WORKERS}
        self.balancer_port = port_below_ephemeral()
        self.env.update({f"POCKETARENA_{k}": v for k, v in LIMITS.items()})
        self.env.update(
            {
                "POCKETARENA_BOT_MIN_DELAY_MS": "100",
                "POCKETARENA_BOT_LEASE_S": "3",
                "POCKETARENA_BOT_JOBS": "false",  # bots think in the workers only
            }
        )
        self.stopped: set[str] = set()

    def start(self, name: str) -> None:
        if name in WORKERS:
            args = ["worker", "--health-port", str(self.ports[name])]
        else:
            args = ["serve", "--port", str(self.ports[name]), "--log-level", "warning"]
        with open(self.logs / f"{name}.log", "ab") as log:
            self.procs[name] = subprocess.Popen(
                [sys.executable, "-m", "pocketarena", *args],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def start_balancer(self) -> None:
        # As docs/deploy.md says: the configuration rendered for the servers that run.
        config = self.logs.parent / "haproxy.cfg"
        servers = [f"127.0.0.1:{self.ports[name]}" for name in SERVERS]
        config.write_text(render(servers, listen=f"127.0.0.1:{self.balancer_port}"))
        with open(self.logs / "haproxy.log", "ab") as log:
            self.procs["haproxy"] = subprocess.Popen(
                [_haproxy(), "-db", "-f", str(config)],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def print_logs(self) -> None:
        for name in (*SERVERS, *WORKERS, "haproxy"):
            with contextlib.suppress(Exception):
                print(f"--- {name}\n{self.log(name)}")


@contextlib.contextmanager
def fault_cluster(tmp_path: Path, postgres_url: str) -> Iterator[FaultCluster]:
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import make_engine, run_migrations

    _haproxy()
    try:
        redis = OwnRedis(tmp_path / "redis").start()
    except Exception as e:
        unavailable(f"no redis-server of the test's own could be started: {e}")
        raise
    schema = f"faults_{uuid.uuid4().hex[:10]}"
    app_name = f"faults-{schema}"  # marks the cluster's own PostgreSQL connections
    url = make_url(postgres_url).update_query_dict({"application_name": app_name})
    c = FaultCluster(tmp_path, url.render_as_string(hide_password=False), schema, redis)
    c.app_name = app_name  # type: ignore[attr-defined]
    engine = make_engine(  # migrations once, before any process starts (docs/deploy.md)
        Settings(database_url=postgres_url, database_schema=schema, data_dir=tmp_path / "data")
    )
    run_migrations(engine)
    engine.dispose()
    try:
        for name in SERVERS + WORKERS:
            c.start(name)
        for name in SERVERS + WORKERS:
            c.wait_healthy(name, timeout=120)
        c.start_balancer()  # once every server answers /healthz (docs/deploy.md)
        c.wait_healthy("haproxy")
        yield c
    finally:
        for name in list(c.stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(c.procs[name].pid, signal.SIGCONT)
        c.stop()
        redis.kill()
        cleanup = create_engine(postgres_url)
        with cleanup.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        cleanup.dispose()


def inject(c: FaultCluster, fault: Fault, postgres_url: str) -> None:
    """Carry out one fault (and undo it after its length: start again, continue)."""
    if fault.kind == "kill":
        c.kill(fault.target)
        time.sleep(fault.length)
        c.start(fault.target)
    elif fault.kind == "stop":
        pid = c.procs[fault.target].pid
        os.kill(pid, signal.SIGSTOP)
        c.stopped.add(fault.target)
        time.sleep(fault.length)
        os.kill(pid, signal.SIGCONT)
        c.stopped.discard(fault.target)
    elif fault.kind == "redis":
        c.redis.restart_empty(down_s=fault.length)
    elif fault.kind == "postgres":
        from sqlalchemy import create_engine, text

        admin = create_engine(postgres_url)
        try:
            with admin.begin() as conn:
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE application_name = :name"
                    ),
                    {"name": c.app_name},  # type: ignore[attr-defined]
                )
        finally:
            admin.dispose()


# -- the players ----------------------------------------------------------------------------------
class Client:
    """A person's browser: a cookie, requests through the balancer, patient with failures (a
    503, a connection cut: try again; nothing is acknowledged unless answered 200)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(timeout=8)

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        """One try: the response (any status), or a transport error's stand-in (status 0)."""
        try:
            return self.http.request(method, f"{self.base}{path}", json=body)
        except httpx.TransportError:
            return httpx.Response(0)

    def must(self, method: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
        """Until answered 200/201 (a creation asked twice makes two: harmless here)."""
        deadline = time.monotonic() + 90
        while True:
            r = self.call(method, path, body)
            if r.status_code in (200, 201):
                return dict(r.json())
            assert r.status_code in (0, 502, 503, 504), (method, path, r.status_code, r.text)
            assert time.monotonic() < deadline, f"{method} {path} never answered"
            time.sleep(0.3)

    def view(self, gid: str) -> dict[str, Any]:
        return self.must("GET", f"/api/games/{gid}?svg=false")

    def close(self) -> None:
        self.http.close()


@dataclass
class Ledger:
    """What the players saw, for the checks."""

    acks: list[tuple[str, int, str]] = field(default_factory=list)  # game, ply, move
    games: dict[str, str] = field(default_factory=dict)  # game -> its kind
    bot_waits: list[tuple[str, float, float | None]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    forfeits: int = 0  # games ended by time (counted by the checks)
    rated: int = 0  # rated games finished (counted by the checks)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, gid: str, ply: int, move: str) -> None:
        with self.lock:
            self.acks.append((gid, ply, move))


def play(
    client: Client,
    gid: str,
    seats: list[Client | None],
    ledger: Ledger,
    stop: threading.Event,
    moves_at_most: int,
    resign: bool,
) -> None:
    """Play ``gid`` until it ends, ``stop`` is set or the movers made ``moves_at_most``
    moves (then resign, or with ``resign`` False leave it: its clock runs out). ``seats``:
    the client of each seat, None for the bot."""
    made = 0
    waiting: tuple[int, float] | None = None  # the version a bot is to move at, since when
    while not stop.is_set():
        game = client.view(gid)
        if game["status"] != "active":
            break
        seat = game["to_move"]
        mover = seats[seat] if seat is not None else None
        if mover is None:  # the bot's turn: note how long it keeps us waiting
            if waiting is None or waiting[0] != game["version"]:
                if waiting is not None:
                    ledger.bot_waits.append((gid, waiting[1], time.monotonic()))
                waiting = (game["version"], time.monotonic())
            time.sleep(0.2)
            continue
        if waiting is not None:
            ledger.bot_waits.append((gid, waiting[1], time.monotonic()))
            waiting = None
        if made >= moves_at_most:
            if resign:
                r = mover.call("POST", f"/api/games/{gid}/resign", {})
                if r.status_code != 200:
                    # Asked again until answered. A 409 "not active" then means the game ended
                    # meanwhile: by this very resignation, whose answer a fault cut off (a
                    # resignation asked twice is refused the second time), or by the clock.
                    deadline = time.monotonic() + 90
                    while r.status_code != 200 and client.view(gid)["status"] == "active":
                        assert r.status_code in (0, 409, 502, 503, 504), (
                            gid,
                            r.status_code,
                            r.text,
                        )
                        assert time.monotonic() < deadline, f"resigning {gid} never answered"
                        time.sleep(0.3)
                        r = mover.call("POST", f"/api/games/{gid}/resign", {})
            break
        action = game["legal"][len(game["legal"]) // 2]["text"]
        r = mover.call(
            "POST", f"/api/games/{gid}/moves", {"action": action, "version": game["version"]}
        )
        if r.status_code == 200:
            ledger.ack(gid, len(game["history"]), action)
            made += 1
            time.sleep(THINK_S)
        elif r.status_code not in (0, 409, 502, 503, 504):
            ledger.errors.append(f"move in {gid}: {r.status_code} {r.text[:200]}")
        else:
            time.sleep(0.2)
    if waiting is not None:
        ledger.bot_waits.append((gid, waiting[1], None))


def account(base: str, name: str) -> Client:
    """A player with an account (registered, or signed in when a register whose answer was
    lost had made it)."""
    c = Client(base)
    body = {"username": name, "password": "fault-test-password"}
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        r = c.call("POST", "/api/auth/register", body)
        if r.status_code == 400 and "taken" in r.text:
            c.must("POST", "/api/auth/login", body)
            return c
        if r.status_code in (200, 201):
            return c
        assert r.status_code in (0, 502, 503, 504), r.text
        time.sleep(0.3)
    raise AssertionError(f"{name} could not register")


def guarded(ledger: Ledger, target: Any, *args: Any) -> threading.Thread:
    """A player's thread whose failure fails the test (not only a warning)."""

    def run() -> None:
        try:
            target(*args)
        except BaseException as e:
            ledger.errors.append(f"{target.__name__}: {type(e).__name__}: {e}")
            raise

    return threading.Thread(target=run)


def friend_table(
    base: str,
    ledger: Ledger,
    stop: threading.Event,
    tag: str,
    clock: dict[str, int] | None,
    resign: bool,
    moves: int,
) -> None:
    a, b = account(base, f"a{tag}"), account(base, f"b{tag}")
    try:
        while not stop.is_set():
            created = a.must(
                "POST",
                "/api/games",
                {"game": GAME, "mode": "friend", "seat": 0, "rated": True, "clock": clock},
            )
            gid = created["id"]
            invite = parse_qs(urlparse(created["invite_url"]).query)["invite"][0]
            b.must("POST", f"/api/games/{gid}/join", {"invite": invite})
            ledger.games[gid] = "friend-timed" if clock else "friend"
            play(a, gid, [a, b], ledger, stop, moves, resign)
            if not resign:
                return  # one game left to its clock
    finally:
        a.close()
        b.close()


def bot_table(
    base: str, ledger: Ledger, stop: threading.Event, clock: dict[str, int] | None, moves: int
) -> None:
    a = Client(base)
    try:
        while not stop.is_set():
            created = a.must(
                "POST",
                "/api/games",
                {"game": GAME, "mode": "bot", "bot": "random", "seat": 0, "clock": clock},
            )
            gid = created["id"]
            ledger.games[gid] = "bot-timed" if clock else "bot"
            play(a, gid, [a, None], ledger, stop, moves, True)
    finally:
        a.close()


# -- the checks -----------------------------------------------------------------------------------
def check(c: FaultCluster, postgres_url: str, ledger: Ledger, last_fault: float) -> None:
    from sqlalchemy import create_engine, text

    from pocketarena.core.registry import load

    assert not ledger.errors, ledger.errors[:5]
    engine = create_engine(postgres_url)
    try:
        with engine.connect() as conn:
            conn.execute(text(f'SET search_path TO "{c.env["POCKETARENA_DATABASE_SCHEMA"]}"'))
            rows = {
                r.id: r
                for r in conn.execute(
                    text(
                        "SELECT id, game, options, mode, status, rated, history, version, "
                        "termination, rating_changes, seat0_id, seat1_id, result FROM games"
                    )
                ).all()
            }
            ratings = {
                (r.player_id, r.game): r.games
                for r in conn.execute(text("SELECT player_id, game, games FROM ratings")).all()
            }
    finally:
        engine.dispose()

    # Every acknowledged move is stored, once, where it was made.
    for gid, ply, move in ledger.acks:
        history = rows[gid].history
        assert ply < len(history) and history[ply] == move, (gid, ply, move, history)
    # Every history is legal, and each change was written once (the versions count them).
    for gid, kind in ledger.games.items():
        row = rows[gid]
        state = load(row.game, **(row.options or {})).new_initial_state()
        for move in row.history:
            state.apply(move)
        ended = 1 if row.status == "finished" and not state.is_terminal() else 0
        joined = 1 if kind.startswith("friend") else 0
        assert row.version == joined + len(row.history) + ended, (gid, kind, row.version, row)
        if kind == "friend-timed" and row.status == "finished" and row.termination != "resignation":
            assert row.termination == "time forfeit", row
    # The clocks left to run out did, once (above: the version counts the end once).
    left = [
        g for g, k in ledger.games.items() if k == "friend-timed" and rows[g].status == "active"
    ]
    assert not left, f"clocks that never ended: {left}"
    # Ratings: changed once per rated game that finished.
    rated: dict[tuple[str, str], int] = {}
    for row in rows.values():
        if row.rated and row.status == "finished" and row.result:
            assert row.rating_changes, row
            for pid in (row.seat0_id, row.seat1_id):
                rated[(pid, row.game)] = rated.get((pid, row.game), 0) + 1
    for key, count in rated.items():
        assert ratings.get(key) == count, (key, ratings.get(key), count)
    ledger.forfeits = sum(1 for r in rows.values() if r.termination == "time forfeit")
    ledger.rated = sum(rated.values()) // 2
    # No bot kept a game waiting more than BOT_WAIT_LIMIT_S after the last fault.
    for gid, since, until in ledger.bot_waits:
        end = until if until is not None else time.monotonic()
        waited_after = end - max(since, last_fault)
        assert waited_after <= BOT_WAIT_LIMIT_S, (gid, waited_after, since, until, last_fault)


def await_bots(c: FaultCluster, postgres_url: str, ledger: Ledger, last_fault: float) -> None:
    """Every bot game still waiting on its bot when play stopped gets its move, at the latest
    ``BOT_WAIT_LIMIT_S`` after the last fault (else: what the cluster knows of it, and fail)."""
    viewer = Client(c.url("lb"))
    try:
        for gid, kind in list(ledger.games.items()):
            if not kind.startswith("bot"):
                continue
            first = viewer.view(gid)
            if first["status"] != "active" or first["to_move"] != 1:
                continue
            while True:
                now = viewer.view(gid)
                if now["version"] != first["version"] or now["status"] != "active":
                    break
                if time.monotonic() > last_fault + BOT_WAIT_LIMIT_S:
                    import redis as redis_client
                    from sqlalchemy import create_engine, text

                    r = redis_client.Redis.from_url(c.redis.url, decode_responses=True)
                    prefix = c.prefix
                    print("stream", r.xrange(f"{prefix}:botjobs"))
                    with contextlib.suppress(Exception):
                        print("pending", r.xpending(f"{prefix}:botjobs", "bots"))
                    print("mark", r.exists(f"{prefix}:botjob:{gid}:{now['version']}"))
                    engine = create_engine(postgres_url)
                    with engine.connect() as conn:
                        conn.execute(
                            text(f'SET search_path TO "{c.env["POCKETARENA_DATABASE_SCHEMA"]}"')
                        )
                        print(
                            "row",
                            conn.execute(
                                text(
                                    "SELECT version, status, turn_id, updated_at, seat0_id, seat1_id FROM games WHERE id = :g"
                                ),
                                {"g": gid},
                            ).all(),
                        )
                    engine.dispose()
                    for name in WORKERS:
                        with contextlib.suppress(Exception):
                            print(name, httpx.get(f"{c.url(name)}/healthz", timeout=5).text)
                    raise AssertionError(f"bot game {gid} waits on its bot at {now['version']}")
                time.sleep(0.3)
    finally:
        viewer.close()


def run_faults(
    tmp_path: Path, postgres_url: str, seed: int, seconds: float, stop_s: float, tables: int = 2
) -> dict[str, Any]:
    """Start the cluster, play through the schedule, check; what happened (for the soak)."""
    faults = schedule(seed, seconds, stop_s)
    print(f"\nPOCKETARENA_FAULT_SEED={seed} ({seconds:g} s of faults, SIGSTOP {stop_s:g} s):")
    for fault in faults:
        print(f"  {fault}")
    with fault_cluster(tmp_path, postgres_url) as c:
        ledger, stop = Ledger(), threading.Event()
        base = c.url("lb")
        tag = uuid.uuid4().hex[:6]
        workers = []
        for i in range(tables):
            workers += [
                guarded(ledger, friend_table, base, ledger, stop, f"{tag}f{i}", None, True, 12),
                guarded(ledger, bot_table, base, ledger, stop, None, 10),
                guarded(ledger, bot_table, base, ledger, stop, {"initial_s": 600}, 10),
            ]
        # timed games left to run out (10 s each) while the faults go on
        workers.append(
            guarded(
                ledger, friend_table, base, ledger, stop, f"{tag}t", {"initial_s": 10}, False, 3
            )
        )
        began = time.monotonic()
        try:
            for w in workers:
                w.start()
            last_fault = began
            for fault in faults:
                time.sleep(max(0.0, began + fault.at - time.monotonic()))
                inject(c, fault, postgres_url)
                last_fault = time.monotonic()
            # after the last fault: play on a while, so bots waited on are answered
            for name in SERVERS + WORKERS:
                c.wait_healthy(name, timeout=60)
            time.sleep(max(0.0, 5.0 - (time.monotonic() - last_fault)))
            stop.set()
            for w in workers:
                w.join(timeout=120)
            # the timed games left to their clocks end, whatever was killed meanwhile
            deadline = time.monotonic() + 30
            viewer = Client(base)
            try:
                for gid, kind in list(ledger.games.items()):
                    if kind != "friend-timed":
                        continue
                    while viewer.view(gid)["status"] == "active" and time.monotonic() < deadline:
                        time.sleep(0.3)
            finally:
                viewer.close()
            await_bots(c, postgres_url, ledger, last_fault)
            check(c, postgres_url, ledger, last_fault)
        except BaseException:
            stop.set()
            c.print_logs()
            raise
        return {
            "seed": seed,
            "faults": len(faults),
            "acknowledged": len(ledger.acks),
            "games": len(ledger.games),
            "bot_waits": len(ledger.bot_waits),
            "time_forfeits": ledger.forfeits,
            "rated_finished": ledger.rated,
            # (began, lasted, kind, still waiting at the end) as a client saw them, its own
            # stalls included (a request to a stopped process waits out its timeout)
            "longest_waits_on_bots": sorted(
                (
                    (
                        round(s - began, 1),
                        round((u or time.monotonic()) - s, 1),
                        ledger.games.get(g),
                        u is None,
                    )
                    for g, s, u in ledger.bot_waits
                ),
                key=lambda w: -w[1],
            )[:3],
            "seconds": time.monotonic() - began,
        }


def test_every_schedule_has_each_kind_of_fault() -> None:
    """The seeds first found where the fourth kind did not fit in the CI's 30 s (4 in 200,000),
    then a run of others."""
    seeds = [52052, 68144, 144278, 154997, *range(1, 5001)]
    short = [s for s in seeds if {f.kind for f in schedule(s, 30, 5)} != set(FAULT_KINDS)]
    assert short == []


@pytest.mark.slow
def test_the_cluster_keeps_every_promise_through_faults(tmp_path: Path, postgres_url: str) -> None:
    seed = int(os.environ.get("POCKETARENA_FAULT_SEED") or random.randrange(1, 10**9))
    seconds = float(os.environ.get("POCKETARENA_FAULT_SECONDS") or 30)
    stop_s = float(os.environ.get("POCKETARENA_FAULT_STOP_S") or 5)
    result = run_faults(tmp_path, postgres_url, seed, seconds, stop_s)
    print(f"fault run: {result}")
    assert result["acknowledged"] > 0 and result["games"] > 0
    assert result["time_forfeits"] > 0 and result["rated_finished"] > 0  # both were checked
