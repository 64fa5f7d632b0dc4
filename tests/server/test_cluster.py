"""A cluster, for real: three ``pocketarena serve`` processes and a ``pocketarena worker`` on
PostgreSQL and Redis, behind HAProxy configured by ``pocketarena haproxy-config``.

Two players on different processes and a spectator on a third play a friend game; one
process is killed (``kill -9``) right after a move was sent to it, another in mid-game, the one
keeping a clock just before it runs out, and the one thinking for a bot. Clients reconnect
through the balancer and carry on; every history ends equal to what was acknowledged, with
nothing played twice, and the clock nobody kept still ends its game, once.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from pocketarena.bots import make_bot
from pocketarena.server import catalog
from pocketarena.server.haproxy import render
from pocketarena.server.live.bots import bot_seed
from tests import services
from tests.services import port_below_ephemeral, unavailable

from .serving import SRC

GAME = {"game": "stack-a-cash"}


def _haproxy() -> str:
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if os.access("/usr/sbin/haproxy", os.X_OK) else None
    )
    if found is None:
        unavailable("no haproxy found: the cluster test needs it (apt-get install haproxy)")
    assert found is not None
    return found


class Cluster:
    """Server processes s1..s3, a worker and HAProxy; every process in a group of its own."""

    def __init__(self, tmp: Path, database_url: str, schema: str, redis_url: str) -> None:
        self.prefix = f"test-cluster-{uuid.uuid4().hex[:8]}"
        self.redis_url = redis_url
        self.env = {
            **os.environ,
            "PYTHONPATH": str(SRC),
            "POCKETARENA_DATA_DIR": str(tmp / "data"),
            "POCKETARENA_DATABASE_URL": database_url,
            "POCKETARENA_DATABASE_SCHEMA": schema,
            "POCKETARENA_REDIS_URL": redis_url,
            "POCKETARENA_REDIS_PREFIX": self.prefix,
            "POCKETARENA_SECRET_KEY": uuid.uuid4().hex,
            "POCKETARENA_BOT_EXECUTOR": "thread",
            "POCKETARENA_BOT_WORKERS": "1",
            "POCKETARENA_BOT_MIN_DELAY_MS": "1500",  # time to kill whoever thinks
            "POCKETARENA_BOT_LEASE_S": "2",
            "POCKETARENA_WS_COMPRESSION": "false",
        }
        # Ports below the kernel's outgoing range: HAProxy checks a killed process's port
        # every second, and a check from a port of that range can be connected to itself,
        # holding the port the process is started again on.
        self.ports = {f"s{i}": port_below_ephemeral() for i in (1, 2, 3)}
        self.balancer_port = port_below_ephemeral()
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        # What runs a server, before its --port (a test may run one of its own making).
        self.serve = [sys.executable, "-m", "pocketarena", "serve"]
        self.logs = tmp / "logs"
        self.logs.mkdir()

    def url(self, name: str = "lb") -> str:
        port = self.balancer_port if name in ("lb", "haproxy") else self.ports[name]
        return f"http://127.0.0.1:{port}"

    def start(self, name: str) -> None:
        if name == "worker":
            command = [sys.executable, "-m", "pocketarena", "worker"]
        else:
            command = [*self.serve, "--port", str(self.ports[name]), "--log-level", "warning"]
        with open(self.logs / f"{name}.log", "ab") as log:
            self.procs[name] = subprocess.Popen(
                command,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def start_balancer(self) -> None:
        # As docs/deploy.md says: the configuration rendered for the servers that run.
        config = self.logs.parent / "haproxy.cfg"
        servers = [f"127.0.0.1:{port}" for port in self.ports.values()]
        config.write_text(render(servers, listen=f"127.0.0.1:{self.balancer_port}"))
        with open(self.logs / "haproxy.log", "ab") as log:
            self.procs["haproxy"] = subprocess.Popen(
                [_haproxy(), "-db", "-f", str(config)],
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_healthy(self, name: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            proc = self.procs[name]
            assert proc.poll() is None, f"{name} stopped: {self.log(name)}"
            try:
                r = httpx.get(f"{self.url(name)}/healthz", timeout=2)
                if r.status_code == 200:
                    return
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, f"{name} never became healthy: {self.log(name)}"
            time.sleep(0.1)

    def kill(self, name: str) -> None:
        proc = self.procs[name]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)

    def pid_of(self, name: str) -> int:
        return self.procs[name].pid

    def log(self, name: str) -> str:
        return (self.logs / f"{name}.log").read_text(errors="replace")[-3000:]

    def print_logs(self) -> None:
        """Every process's last lines (when a test failed)."""
        for name in ("s1", "s2", "s3", "worker", "haproxy"):
            with contextlib.suppress(Exception):
                print(f"--- {name}\n{self.log(name)}")

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)


@pytest.fixture
def cluster(tmp_path: Path, postgres_url: str, redis_url: str) -> Iterator[Cluster]:
    with running_cluster(tmp_path, postgres_url, redis_url) as c:
        yield c


@contextlib.contextmanager
def running_cluster(
    tmp_path: Path,
    postgres_url: str,
    redis_url: str,
    serve: list[str] | None = None,
    worker: bool = True,
    **env: str,
) -> Iterator[Cluster]:
    """A cluster started (``env``: more settings of every process; ``serve``: what runs a
    server instead of ``pocketarena serve``; ``worker``: whether a ``pocketarena worker``
    runs beside the servers, which take bot jobs themselves too), stopped and cleaned up
    afterwards. A test with no bot game leaves the worker out: its start costs 2.5 s of CPU."""
    from sqlalchemy import create_engine, text

    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import make_engine, run_migrations

    _haproxy()
    schema = f"cluster_{uuid.uuid4().hex[:10]}"
    c = Cluster(tmp_path, postgres_url, schema, redis_url)
    c.env.update(env)
    if serve is not None:
        c.serve = serve
    # Migrations run once, before any process starts (as docs/deploy.md says).
    engine = make_engine(
        Settings(database_url=postgres_url, database_schema=schema, data_dir=tmp_path / "data")
    )
    run_migrations(engine)
    engine.dispose()
    try:
        for name in ("s1", "s2", "s3", "worker") if worker else ("s1", "s2", "s3"):
            c.start(name)
        for name in ("s1", "s2", "s3"):
            c.wait_healthy(name)
        c.start_balancer()  # after the servers: its first checks find them all up
        c.wait_healthy("haproxy")
        yield c
    finally:
        c.stop()
        import redis

        r = redis.Redis.from_url(redis_url)
        keys = list(r.scan_iter(f"{c.prefix}:*"))
        if keys:
            r.delete(*keys)
        r.close()
        cleanup = create_engine(postgres_url)
        with cleanup.begin() as conn:
            conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        cleanup.dispose()


class Player:
    """A person with a session cookie (HTTP through any address) and, at times, a socket."""

    def __init__(self, cluster: Cluster, name: str) -> None:
        self.cluster = cluster
        self.name = name
        self.http = httpx.Client(timeout=30)
        self.ws: ClientConnection | None = None
        self.state: dict[str, Any] | None = None  # the last state message
        self.acks: list[dict[str, Any]] = []
        self.games: list[str] = []

    def post(self, path: str, body: dict[str, Any], at: str = "lb") -> dict[str, Any]:
        r = self.http.post(f"{self.cluster.url(at)}{path}", json=body)
        assert r.status_code in (200, 201), r.text
        return dict(r.json())

    def view(self, gid: str, at: str = "lb") -> dict[str, Any]:
        r = self.http.get(f"{self.cluster.url(at)}/api/games/{gid}?svg=false")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def connect(self, at: str, gid: str) -> None:
        """A socket to ``at`` (a server or the balancer) watching ``gid``; reconnects a while
        if the balancer has not yet noticed that a process died."""
        cookie = "; ".join(f"{k}={v}" for k, v in self.http.cookies.items())
        host = self.cluster.url(at).replace("http://", "ws://")
        deadline = time.monotonic() + 30
        while True:
            try:
                if self.ws is not None:
                    with contextlib.suppress(Exception):
                        self.ws.close()
                self.ws = connect(
                    f"{host}/ws",
                    additional_headers={"Cookie": cookie} if cookie else None,
                    open_timeout=5,
                ).__enter__()
                self.ws.send(json.dumps({"type": "watch", "game": gid, "svg": False}))
                self.until(lambda m: m["type"] == "state" and m["game"]["id"] == gid)
                return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                assert time.monotonic() < deadline, f"{self.name} could not reconnect via {at}"
                time.sleep(0.2)

    def send(self, **msg: Any) -> None:
        assert self.ws is not None
        self.ws.send(json.dumps(msg))

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 15) -> dict[str, Any]:
        assert self.ws is not None
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name}: nothing awaited arrived; last {self.state}")
            try:
                msg = json.loads(self.ws.recv(timeout=left))
            except TimeoutError:
                raise TimeoutError(
                    f"{self.name}: nothing awaited came; last {self.state}"
                ) from None
            if msg["type"] == "state":
                self.state = msg
            elif msg["type"] == "ack":
                self.acks.append(msg)
            if pred(msg):
                return dict(msg)

    def sees(self, gid: str, version: int) -> dict[str, Any]:
        """The first state of ``gid`` at ``version`` or later (already received, or awaited)."""
        last = self.state
        if last is not None and last["game"]["id"] == gid and last["game"]["version"] >= version:
            return last
        return self.until(
            lambda m: (
                m["type"] == "state" and m["game"]["id"] == gid and m["game"]["version"] >= version
            )
        )

    def close(self) -> None:
        if self.ws is not None:
            with contextlib.suppress(Exception):
                self.ws.close()
        self.http.close()


def legal_move(view: dict[str, Any]) -> str:
    """A legal move for the player to act (the first one offered: a short, definite game)."""
    legal = view["legal"]
    assert legal, view
    return str(legal[len(legal) // 2]["text"])


# The bot game's game: one that cannot end within the turns the test plays, whatever the
# random bot answers (a FlipWars round ends only when its board is full). Stack-a-Cash, played
# before, could: the bot won by its second reply in about 2 % of games, and the next view then
# offered no move (the test's flake).
BOT_GAME = {"game": "flipwars"}
BOT_TURNS = 3


def a_bot_game_lasts(game_id: str, seed: str) -> bool:
    """Whether the bot game, as the test plays it (A the middle legal move, the random bot as
    the server seeds it for game ``seed``), goes on for ``BOT_TURNS`` turns of A's."""
    game = catalog.load_game(game_id, {})
    state = game.new_initial_state()
    for _turn in range(BOT_TURNS):
        if state.is_terminal():
            return False
        legal = state.legal_actions()
        state.apply(legal[len(legal) // 2])
        if state.is_terminal():
            return False
        bot = make_bot("random", game, seed=bot_seed(seed, len(state.history)))
        state.apply(bot.choose(state))
    return True


def test_the_bot_game_lasts_whatever_the_bot_answers() -> None:
    seeds = [f"g{i:09d}" for i in range(300)]
    assert all(a_bot_game_lasts(BOT_GAME["game"], s) for s in seeds)
    assert not all(a_bot_game_lasts("stack-a-cash", s) for s in seeds)  # the flake's cause


def is_ack(ref: str, msg: dict[str, Any]) -> bool:
    return bool(msg["type"] == "ack" and msg.get("ref") == ref)


def histories(player: Player, gid: str) -> list[str]:
    return [e["text"] for e in player.view(gid)["history"]]


@pytest.mark.slow
def test_a_cluster_survives_kill_9_of_any_process(cluster: Cluster) -> None:
    a, b, spectator = Player(cluster, "A"), Player(cluster, "B"), Player(cluster, "C")
    try:
        _play(cluster, a, b, spectator)
    except BaseException:
        cluster.print_logs()
        raise
    finally:
        for p in (a, b, spectator):
            p.close()


def _play(cluster: Cluster, a: Player, b: Player, spectator: Player) -> None:
    # A timed game kept by s3 alone (nobody watches it): its clock will run out after s3 died.
    clock_game = a.post("/api/games", {**GAME, "mode": "local", "clock": {"initial_s": 10}}, "s3")
    clock_id = clock_game["id"]
    clock_started = time.monotonic()
    moved = a.post(
        f"/api/games/{clock_id}/moves",
        {"action": legal_move(clock_game["game"]), "version": 0},
        "s3",
    )
    assert moved["version"] == 1

    # A friend game: A on s1, B on s2, the spectator on s3.
    created = a.post("/api/games", {**GAME, "mode": "friend", "seat": 0}, "s1")
    gid = created["id"]
    invite = parse_qs(urlparse(created["invite_url"]).query)["invite"][0]
    b.post(f"/api/games/{gid}/join", {"invite": invite}, "s2")
    a.connect("s1", gid)
    b.connect("s2", gid)
    spectator.connect("s3", gid)
    players = [a, b]
    acknowledged: list[str] = []

    def ply(kill_after_send: str | None = None) -> None:
        """The player to act moves over their socket; everyone sees it (on every process)."""
        view = a.view(gid)
        version = view["version"]
        mover = players[view["to_move"]]
        action = legal_move(mover.view(gid))
        mover.send(type="move", game=gid, action=action, version=version, ref=version)
        if kill_after_send is not None:
            cluster.kill(kill_after_send)  # the move may or may not have been written
            everyone_reconnects()
            assert mover.state is not None
            now = mover.state["game"]["version"]
            assert now in (version, version + 1)
            if now == version:  # not written before the kill: the player sends it again
                mover.send(type="move", game=gid, action=action, version=version, ref=version)
                answer = mover.until(
                    lambda m: m["type"] in ("ack", "error") and m.get("ref") == version
                )
                assert answer["type"] == "ack", answer
        else:
            mover.until(lambda m: m["type"] == "ack" and m.get("ref") == version)
        acknowledged.append(action)
        for p in (a, b, spectator):  # on every process
            assert p.sees(gid, version + 1)["game"]["plies"] == len(acknowledged)

    def everyone_reconnects() -> None:
        for p in (a, b, spectator):
            p.connect("lb", gid)

    ply()
    ply()
    ply()
    # s1 dies right after A (or B) sent a move to it: A reconnects through the balancer.
    to_move = a.view(gid)["to_move"]
    if to_move != 0:
        ply()
    ply(kill_after_send="s1")
    cluster.start("s1")  # back later; meanwhile the others carry the load
    ply()
    cluster.wait_healthy("s1")  # it carries the game alone after s2 and s3 die
    # s2 dies in mid-game, between moves: B reconnects through the balancer.
    cluster.kill("s2")
    everyone_reconnects()
    ply()
    # The clock of the game s3 keeps is about to run out: s3 dies (the spectator moves on).
    time.sleep(max(0.0, clock_started + 9.0 - time.monotonic()))
    cluster.kill("s3")
    everyone_reconnects()
    ply()
    ply()
    cluster.start("s2")
    a.send(type="resign", game=gid, ref="resign")
    a.until(lambda m: m["type"] == "ack" and m.get("ref") == "resign")
    final = spectator.until(lambda m: m["type"] == "state" and m["game"]["status"] == "finished")
    assert final["game"]["termination"] == "resignation"

    # Every acknowledged move once, in order, and nothing else.
    assert histories(a, gid) == acknowledged
    view = a.view(gid)
    assert view["version"] == 1 + len(acknowledged) + 1  # the join, the moves, the resignation

    # The clock game ended by time, once, though nobody watched it and s3 was dead.
    deadline = time.monotonic() + 15
    while (clock_view := a.view(clock_id))["status"] != "finished":
        assert time.monotonic() < deadline, clock_view
        time.sleep(0.2)
    assert clock_view["termination"] == "time forfeit"
    assert clock_view["version"] == 2  # the move, then the end: written once

    _bot_game(cluster, a, spectator)


def _bot_game(cluster: Cluster, a: Player, spectator: Player) -> None:
    """A bot game, A on s1 and a spectator on s2: the process thinking for the bot dies (a
    server or the worker, whoever took the job); the bot still moves, once, and both see every
    move."""
    import redis

    r = redis.Redis.from_url(cluster.redis_url, decode_responses=True)
    for name in ("s1", "s2"):
        cluster.wait_healthy(name)
    created = a.post("/api/games", {**BOT_GAME, "mode": "bot", "bot": "random", "seat": 0}, "s1")
    gid = created["id"]
    a.connect("s1", gid)
    spectator.connect("s2", gid)
    acknowledged: list[str] = []
    killed = False
    for turn in range(BOT_TURNS):
        view = a.view(gid)
        version = view["version"]
        ref = f"b{turn}"
        action = legal_move(view)
        a.send(type="move", game=gid, action=action, version=version, ref=ref)
        a.until(partial(is_ack, ref))
        acknowledged.append(action)
        if not killed:
            # Whoever took the bot's job is thinking (1.5 s at least): kill that process.
            deadline = time.monotonic() + 10
            while not (
                pending := r.xpending_range(f"{cluster.prefix}:botjobs", "bots", "-", "+", 5)
            ):
                assert time.monotonic() < deadline, "nobody took the bot's job"
                time.sleep(0.05)
            pid = int(str(pending[0]["consumer"]).split(":")[1])
            name = next(n for n in cluster.procs if cluster.pid_of(n) == pid)
            cluster.kill(name)
            killed = True
            for p in (a, spectator):  # those whose process died come back through the balancer
                p.connect("lb", gid)
        for p in (a, spectator):  # the bot answered (after its job's lease ran out, once)
            assert p.sees(gid, version + 2)["game"]["plies"] == 2 * (turn + 1)
    r.close()
    view = a.view(gid)
    seats = [e["seat"] for e in view["history"]]
    assert seats == [0, 1] * BOT_TURNS, seats  # each bot move once, none lost
    assert [e["text"] for e in view["history"]][::2] == acknowledged  # A's moves, each once
    assert view["version"] == 2 * BOT_TURNS


def test_workers_need_redis_and_a_redis_url(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from pocketarena.cli.main import app as cli_app

    env = {"POCKETARENA_DATA_DIR": str(tmp_path), "POCKETARENA_REDIS_URL": ""}
    result = CliRunner().invoke(cli_app, ["serve", "--workers", "2"], env=env)
    assert result.exit_code != 0 and "--workers 2 needs --redis-url" in result.output
    assert "Traceback" not in result.output
    # Redis that does not answer is waited for (tests/server/test_heal.py); a URL that is not
    # Redis's is refused at once.
    for command in (["serve"], ["worker"]):
        result = CliRunner().invoke(cli_app, [*command, "--redis-url", "http://nowhere/0"], env=env)
        assert result.exit_code != 0 and "cannot use Redis" in result.output, result.output
    result = CliRunner().invoke(cli_app, ["worker"], env=env)
    assert result.exit_code != 0 and "give --redis-url" in result.output


def test_healthz_of_a_process_alone(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from pocketarena.server.core.config import Settings
    from pocketarena.server.main import create_app

    settings = Settings(data_dir=tmp_path, database_url=f"sqlite:///{tmp_path / 'a.sqlite3'}")
    with TestClient(create_app(settings)) as client:
        r = client.get("/healthz")
        assert r.status_code == 200
        body = r.json()
        assert body["status"] == "ok" and body["database"] == "ok"
        assert body["redis"] == "not used"
        assert "set-cookie" not in r.headers  # a balancer's checks start no sessions


@pytest.mark.slow
def test_serve_workers_form_a_cluster_on_one_port(tmp_path: Path, redis_url: str) -> None:
    """``serve --workers 2 --redis-url``: two processes on one port (each answers /healthz
    with its own name), both healthy, all stopped cleanly by SIGTERM."""
    port = port_below_ephemeral()
    with services.redis_prefix(redis_url, "test-workers") as prefix:
        env = {
            **os.environ,
            "PYTHONPATH": str(SRC),
            "POCKETARENA_DATA_DIR": str(tmp_path),
            "POCKETARENA_REDIS_PREFIX": prefix,
            "POCKETARENA_BOT_EXECUTOR": "thread",
        }
        args = ["serve", "--port", str(port), "--workers", "2", "--redis-url", redis_url]
        args += [
            "--database-url",
            f"sqlite:///{tmp_path / 'arena.sqlite3'}",
            "--log-level",
            "warning",
        ]
        proc = subprocess.Popen(
            [sys.executable, "-m", "pocketarena", *args],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            nodes: set[str] = set()
            deadline = time.monotonic() + 60
            while len(nodes) < 2:  # each new connection may land on either process
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, f"only {nodes} answered"
                try:
                    r = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                    assert r.status_code == 200 and r.json()["redis"] == "ok", r.text
                    nodes.add(r.json()["node"])
                except httpx.TransportError:
                    time.sleep(0.2)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=30) == 0
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    import redis

    left = redis.Redis.from_url(redis_url)
    assert list(left.scan_iter(f"{prefix}:*")) == [], "the test's keys are deleted"
    left.close()
