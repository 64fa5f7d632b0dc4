"""The parts of a cluster, each on its own and fast: the buses, the limiter and the bot queue
over Redis, and two hubs in one process sharing a database and a Redis (as two processes
would): a move made on one reaches the watchers of the other, once."""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.core.ratelimit import Rate, TokenBucket
from pocketarena.server.core.redislimit import RedisLimiter
from pocketarena.server.live import views
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.bus import GAMES, MemoryBus, RedisBus
from pocketarena.server.live.connection import Connection
from pocketarena.server.live.hub import Hub
from pocketarena.server.live.jobs import BotQueue
from pocketarena.server.live.session import GameError
from pocketarena.server.models import utcnow
from pocketarena.server.store import Store


@pytest.fixture
def prefix(redis_url: str) -> Iterator[str]:
    import redis

    name = f"test-bus-{uuid.uuid4().hex[:8]}"
    yield name
    r = redis.Redis.from_url(redis_url)
    keys = list(r.scan_iter(f"{name}:*"))
    if keys:
        r.delete(*keys)
    r.close()


def run(coro: Any) -> Any:
    return asyncio.run(coro)


def cluster_settings(tmp_path: Path, redis_url: str, prefix: str, **more: Any) -> Settings:
    """Settings of hubs sharing one database (SQLite in ``tmp_path`` unless ``more`` names
    another) and one Redis (keys under ``prefix``), as the processes of a cluster do."""
    fields: dict[str, Any] = {
        "data_dir": tmp_path,
        "database_url": f"sqlite:///{tmp_path / 'arena.sqlite3'}",
        "redis_url": redis_url,
        "redis_prefix": prefix,
        "bot_executor": "thread",
        "bot_workers": 1,
        **more,
    }
    return Settings(**fields)


async def start_hubs(
    settings: Settings,
    engine: Any,
    count: int = 2,
    now: Callable[[], datetime] = utcnow,
    attach: Callable[[Hub], None] | None = None,
) -> list[Hub]:
    """``count`` hubs over ``engine`` and the settings' Redis, started, as that many processes
    would be (``attach``: called on each before it starts, as ``create_app`` attaches chat)."""
    from pocketarena.server.main import cluster_parts

    hubs = []
    for _ in range(count):
        bus, jobs, _limiter = cluster_parts(settings)
        store = Store(engine, session_factory(engine))
        hub = Hub(store, settings, BotRunner("thread", 1, 5.0), bus, jobs, now=now)
        if attach is not None:
            attach(hub)
        await hub.start()
        hubs.append(hub)
    return hubs


async def settle(until: Any, timeout: float = 5.0) -> None:
    """Wait (on the loop) until ``until()`` holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not until():
        assert asyncio.get_running_loop().time() < deadline, "it never happened"
        await asyncio.sleep(0.01)


def test_the_memory_bus_delivers_to_every_subscriber() -> None:
    async def main() -> None:
        bus = MemoryBus()
        got: list[dict[str, Any]] = []
        bus.subscribe(GAMES, got.append)
        bus.subscribe(GAMES, got.append)
        await bus.publish(GAMES, {"id": "g", "version": 3})
        await bus.publish("other", {"id": "x"})
        await settle(lambda: len(got) == 2)
        assert got == [{"id": "g", "version": 3}] * 2
        await bus.lobby_put({"a": "1", "b": "2"})
        await bus.lobby_put({"a": None})
        assert await bus.lobby_entries() == {"b": "2"}
        # alone, nobody else could hold the lock: a sweep runs whenever it is asked to
        assert await bus.try_lock("sweep", 5) and await bus.try_lock("sweep", 5)
        assert await bus.rematch_offers("g", [0]) == {0}
        assert await bus.rematch_offers("g", [1]) == {0, 1}

    run(main())


def test_the_redis_bus_carries_messages_between_processes(redis_url: str, prefix: str) -> None:
    async def main() -> None:
        one, two = RedisBus(redis_url, prefix), RedisBus(redis_url, prefix)
        heard: list[dict[str, Any]] = []
        two.subscribe(GAMES, heard.append)
        one.subscribe(GAMES, lambda _m: None)
        await one.start()
        await two.start()
        try:
            await one.publish(GAMES, {"id": "g", "version": 7, "origin": one.node})
            await settle(lambda: bool(heard))
            assert heard == [{"id": "g", "version": 7, "origin": one.node}]
            await one.lobby_put({"g": '{"x":1}', "h": "{}"})
            await two.lobby_put({"h": None})
            assert await two.lobby_entries() == {"g": '{"x":1}'}
            assert await one.try_lock("clocks", 5)
            assert not await two.try_lock("clocks", 5)  # one process at a time
            assert await one.rematch_offers("g", [1]) == {1}
            assert await two.rematch_offers("g", [0]) == {0, 1}
            await two.ping()
        finally:
            await one.close()
            await two.close()

    run(main())


def test_the_redis_limiter_is_shared_and_forgets_dead_processes(
    redis_url: str, prefix: str
) -> None:
    async def main() -> None:
        bus = RedisBus(redis_url, prefix)
        await bus.start()
        try:
            a = RedisLimiter(bus.redis, prefix, bus.node)
            b = RedisLimiter(bus.redis, prefix, "another-process")
            rate = Rate("writes", per_s=0.5, burst=3)
            assert await a.peek(rate, "k") == 0.0
            assert [await lim.take(rate, "k") for lim in (a, b, a)] == [0.0, 0.0, 0.0]
            wait = await b.take(rate, "k")  # the burst is spent, whichever process asks
            assert 0 < wait <= 2.0
            assert await a.peek(rate, "k") > 0
            assert await a.take(rate, "other") == 0.0  # keys apart
            # Sockets open at once: a cap across processes; a process that is not alive
            # ("another-process" never said so) no longer counts.
            assert await a.acquire("sockets", "addr", 2)
            assert await b.acquire("sockets", "addr", 2)
            assert await a.acquire("sockets", "addr", 2)  # b's count is dropped: not alive
            assert not await a.acquire("sockets", "addr", 2)
            await a.release("sockets", "addr")
            assert await a.acquire("sockets", "addr", 2)
        finally:
            await bus.close()

    run(main())


def test_a_bot_job_is_queued_once_and_retried_when_its_taker_dies(
    redis_url: str, prefix: str
) -> None:
    async def main() -> None:
        bus = RedisBus(redis_url, prefix)
        await bus.start()
        dead = BotQueue(bus.redis, prefix, "dead", lease_s=0.3)
        alive = BotQueue(bus.redis, prefix, "alive", lease_s=0.3)
        try:
            await dead.setup()
            await alive.setup()
            assert await dead.enqueue("g1", 4)
            assert not await alive.enqueue("g1", 4)  # the same version: queued once
            started = asyncio.Event()

            async def think_forever(_gid: str, _version: int) -> None:
                started.set()
                await asyncio.sleep(3600)

            done: list[tuple[str, int]] = []

            async def play(gid: str, version: int) -> None:
                done.append((gid, version))

            dead.start(think_forever, 1)
            await asyncio.wait_for(started.wait(), 5)
            await dead.close()  # killed mid-thought: the job stays pending
            alive.start(play, 1)
            await settle(lambda: bool(done))
            await asyncio.sleep(0.5)
            assert done == [("g1", 4)]  # taken again after the lease, once
            pending = await bus.redis.xpending(alive.stream, "bots")
            assert pending["pending"] == 0
        finally:
            await alive.close()
            await bus.close()

    run(main())


class Watcher(Connection):
    def __init__(self, player_id: str | None) -> None:
        super().__init__(None, player_id, TokenBucket(100, 100))

    def states(self) -> list[dict[str, Any]]:
        """Every message sent so far (states, chat, presence, spectator counts …)."""
        out = []
        while self.queue:
            text = self.queue.popleft()
            if text is not None:
                out.append(json.loads(text))
        return out

    def game_states(self) -> list[dict[str, Any]]:
        """The game states sent so far (a watched game also sends presence and spectator
        counts, in whatever order they come: left out here)."""
        return [m for m in self.states() if m.get("type") == "state"]


def test_two_hubs_share_a_game_as_two_processes_would(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    settings = cluster_settings(tmp_path, redis_url, prefix, bot_min_delay_ms=0)
    engine = make_engine(settings)
    run_migrations(engine)

    async def main() -> None:
        hubs = await start_hubs(settings, engine)
        one, two = hubs
        try:
            created = await one.seating.create("alice", "stack-a-cash", {}, "friend", seat=0)
            gid = created.id
            await two.seating.join("bob", gid, created.invite_token)
            alice, bob = Watcher("alice"), Watcher("bob")
            await one.watchers.watch(alice, gid, svg=False)
            await two.watchers.watch(bob, gid, svg=False)
            assert alice.game_states()[-1]["game"]["status"] == "active"  # after bob joined
            bob.states()
            # alice moves on hub one; bob, watching on hub two, hears of it
            legal = views.legal(one.games[gid])
            await one.move("alice", gid, legal[0].text, 1)
            await settle(lambda: two.games[gid].version == 2)
            seen = [s["game"]["version"] for s in bob.game_states()]
            assert seen[-1] == 2
            # read in by applying the new move only: the same game as where it was made
            mine, theirs = one.games[gid], two.games[gid]
            assert theirs.entries == mine.entries and theirs.movers == mine.movers
            assert theirs.state.history == mine.state.history
            assert theirs.state.position() == mine.state.position()
            # hub two still held version 1 when bob moved? It reads the stored one first.
            legal = views.legal(two.games[gid])
            await two.move("bob", gid, legal[0].text, 2)
            # the same move again, on the other hub: refused, applied once
            with pytest.raises(GameError) as refused:
                await one.move("bob", gid, legal[0].text, 2)
            assert refused.value.code == "stale"
            row = one.store.load_game(gid)
            assert row is not None and row.version == 3 and len(row.history) == 2
            # a timed game watched on hub two: its clocks read in as they were written
            timed = await one.seating.create(
                "erin", "stack-a-cash", {}, "local", clock=(60_000, 2_000)
            )
            erin = Watcher("erin")
            await two.watchers.watch(erin, timed.id, svg=False)
            await asyncio.sleep(0.3)
            await one.move("erin", timed.id, views.legal(timed)[0].text, 0)
            await settle(lambda: two.games[timed.id].version == 1)
            here, there = one.games[timed.id].clock, two.games[timed.id].clock
            assert here is not None and there is not None
            assert there.running == here.running == 1
            assert abs(there.left_ms(0) - here.left_ms(0)) < 300
            assert 61_000 < there.left_ms(0) < 62_000  # 60 s + 2 s, less the 0.3 s used
            assert abs(there.left_ms(1) - here.left_ms(1)) < 300
            # the lobby is the cluster's: a seek opened on hub two shows on hub one
            seek = await two.seating.create("carol", "stack-a-cash", {}, "seek", seat=0)
            await settle(lambda: seek.id in {e["id"] for e in one.lobby_view()["seeks"]})
            listed = one.lobby_view()
            playing = {e["id"]: e for e in listed["live"]}  # the friend game, from hub one's record
            assert gid in playing and playing[gid]["idle_s"] >= 0
            assert [e for e in listed["seeks"] if e["id"] == seek.id][0]["seats"][0][
                "player"
            ] == "carol"
            # a bot game on hub one; the bot's move is a job any hub may take
            bot_game = await one.seating.create(
                "dave", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )
            await settle(lambda: (one.store.load_game(bot_game.id) or bot_game).version >= 1)
        finally:
            for hub in hubs:
                await hub.close()

    run(main())
    engine.dispose()


def test_a_new_name_is_told_to_the_other_processes(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    """``PATCH /api/me`` in a cluster: the new name goes out on the bus. It used to fail
    (500): the route ran on a worker thread, where the outbox cannot start its task."""
    from fastapi.testclient import TestClient

    from pocketarena.server.main import create_app

    with TestClient(create_app(cluster_settings(tmp_path, redis_url, prefix))) as client:
        bus = client.app.state.ctx.hub.bus  # type: ignore[attr-defined]
        before = bus.published
        r = client.patch("/api/me", json={"name": "Ada"})
        assert r.status_code == 200 and r.json()["name"] == "Ada"
        deadline = time.monotonic() + 5
        while bus.published == before:
            assert time.monotonic() < deadline, "the new name was never published"
            time.sleep(0.01)
