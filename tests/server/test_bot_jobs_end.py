"""A bot's move as a job through Redis (a cluster's bot queue) when its taker closes or its game
ends: nothing waits for ever, the move is never played on a finished game, and the process
that took a job keeps no game it loaded only to find the job stale (a worker keeps no games)."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from pocketarena.core import Action, State
from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.live.jobs import BotQueue
from pocketarena.server.main import cluster_parts
from pocketarena.server.store import Store

from .test_bus import cluster_settings, prefix, settle

__all__ = ["prefix"]  # the fixture, shared with test_bus (a key prefix of its own, cleaned up)


class HeldBot(BotRunner):
    """A bot that thinks until the test lets it go (``go``), counting how often it is asked."""

    def __init__(self) -> None:
        super().__init__("thread", 1, 5.0)
        self.asked = 0
        self.thinking = asyncio.Event()
        self.go = asyncio.Event()

    async def choose(
        self, spec: str, state: State, seed: int, budget_s: float | None = None
    ) -> Action:
        self.asked += 1
        self.thinking.set()
        await self.go.wait()
        return await super().choose(spec, state, seed, budget_s)


def run_cluster(
    tmp_path: Path,
    redis_url: str,
    prefix: str,
    scenario: Callable[[Settings, Any], Coroutine[Any, Any, None]],
) -> None:
    """``scenario(settings, engine)`` over a database and a Redis of its own (a lease of 0.3 s:
    a job left pending is claimed again soon)."""
    settings = cluster_settings(tmp_path, redis_url, prefix, bot_min_delay_ms=0, bot_lease_s=0.3)
    engine = make_engine(settings)
    run_migrations(engine)
    try:
        asyncio.run(scenario(settings, engine))
    finally:
        engine.dispose()


async def close_all(*hubs: Hub | None) -> None:
    for hub in hubs:
        if hub is not None:
            await hub.close()


async def hub_of(settings: Settings, engine: Any, bots: BotRunner, takes_jobs: bool) -> Hub:
    """A process of the cluster, started: a server (``takes_jobs`` False) or one that takes
    bot jobs, as a worker does."""
    mine = dataclasses.replace(settings, bot_jobs=takes_jobs)
    bus, jobs, _limiter = cluster_parts(mine)
    hub = Hub(Store(engine, session_factory(engine)), mine, bots, bus, jobs)
    await hub.start()
    return hub


def queue_of(hub: Hub) -> BotQueue:
    assert hub.botjobs.queue is not None
    return hub.botjobs.queue


async def in_stream(hub: Hub, gid: str) -> set[int]:
    """The versions of ``gid`` with a bot job in the stream (queued, or taken and not done)."""
    return {v for g, v in await queue_of(hub).in_flight() if g == gid}


async def until_queued(hub: Hub, gid: str, version: int) -> None:
    deadline = time.monotonic() + 5.0
    while version not in await in_stream(hub, gid):
        assert time.monotonic() < deadline, "the bot's job was never queued"
        await asyncio.sleep(0.02)


async def dropped_unplayed(server: Hub, taker: Hub, gid: str) -> None:
    """Once ``taker`` has done its job: the game is over with no move of the bot's, its job is
    gone from the stream, and the taker holds nothing of it."""
    await settle(lambda: queue_of(taker).done == 1)
    row = server.store.load_game(gid)
    assert row is not None and row.status == "finished" and row.history == []
    assert await in_stream(server, gid) == set()
    assert gid not in taker.games, "the taker kept a finished game in memory"


def test_a_job_whose_game_ended_before_it_was_taken_plays_nothing_and_keeps_nothing(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    """The player resigns while the bot's job waits in the stream: the process that takes it
    finds the game over, plays nothing and drops the job. It kept the finished game it loaded
    to look (a worker keeps no games; nothing evicts them there)."""

    async def main(settings: Settings, engine: Any) -> None:
        server = await hub_of(settings, engine, BotRunner("thread", 1, 5.0), takes_jobs=False)
        bot = HeldBot()
        bot.go.set()
        worker: Hub | None = None
        try:
            game = await server.seating.create(
                "dave", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )  # the bot sits first: its move is queued at once
            await until_queued(server, game.id, 0)
            await server.resign("dave", game.id)
            worker = await hub_of(settings, engine, bot, takes_jobs=True)
            await dropped_unplayed(server, worker, game.id)
            assert bot.asked == 0
        finally:
            await close_all(server, worker)
            bot.close()

    run_cluster(tmp_path, redis_url, prefix, main)


def test_a_taker_closing_mid_thought_leaves_the_job_for_another_which_plays_nothing_once_it_ended(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    """A worker stops while its bot thinks: its close ends at once (the job stays pending, for
    another process once its lease runs out). The player then resigns; the process that claims
    the job plays nothing on the finished game and keeps nothing."""

    async def main(settings: Settings, engine: Any) -> None:
        server = await hub_of(settings, engine, BotRunner("thread", 1, 5.0), takes_jobs=False)
        held = HeldBot()
        first = await hub_of(settings, engine, held, takes_jobs=True)
        later = HeldBot()
        later.go.set()
        second: Hub | None = None
        closing: asyncio.Future[None] | None = None
        try:
            game = await server.seating.create(
                "dave", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )
            await asyncio.wait_for(held.thinking.wait(), 5.0)
            began = time.monotonic()
            closing = asyncio.ensure_future(first.close())
            await asyncio.wait({closing}, timeout=10.0)
            assert closing.done() and time.monotonic() - began < 2.0, "the close waited"
            assert await in_stream(server, game.id) == {0}  # pending, for another process
            await server.resign("dave", game.id)
            second = await hub_of(settings, engine, later, takes_jobs=True)
            await dropped_unplayed(server, second, game.id)
            assert later.asked == 0
        finally:
            held.go.set()
            await (first.close() if closing is None else closing)
            await close_all(server, second)
            held.close()
            later.close()

    run_cluster(tmp_path, redis_url, prefix, main)


def test_a_game_that_ends_while_its_bot_thinks_in_a_job_gets_no_move(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    """The player resigns on the server while the worker's bot thinks: the bot's move is not
    played, the job is done, and the worker keeps nothing."""

    async def main(settings: Settings, engine: Any) -> None:
        server = await hub_of(settings, engine, BotRunner("thread", 1, 5.0), takes_jobs=False)
        held = HeldBot()
        worker = await hub_of(settings, engine, held, takes_jobs=True)
        try:
            game = await server.seating.create(
                "dave", "stack-a-cash", {}, "bot", seat=1, bot="random"
            )
            await asyncio.wait_for(held.thinking.wait(), 5.0)
            await server.resign("dave", game.id)
            held.go.set()
            await dropped_unplayed(server, worker, game.id)
        finally:
            held.go.set()
            await close_all(server, worker)
            held.close()

    run_cluster(tmp_path, redis_url, prefix, main)


def test_a_job_read_after_its_queue_began_to_close_is_not_started(
    redis_url: str, prefix: str
) -> None:
    """A taker waiting for the next job (a blocking read) when its process begins to stop may
    still be handed one: it is left pending (for another process) rather than thought about
    while the process stops."""
    from pocketarena.server.live.bus import RedisBus

    async def main() -> None:
        bus = RedisBus(redis_url, prefix)
        await bus.start()
        queue = BotQueue(bus.redis, prefix, "closing", lease_s=0.3)
        other = BotQueue(bus.redis, prefix, "other", lease_s=0.3)
        started: list[tuple[str, int]] = []

        async def handle(gid: str, version: int) -> None:
            started.append((gid, version))

        try:
            await queue.setup()
            queue.start(handle, 1)
            await asyncio.sleep(0.3)  # the taker waits in its blocking read
            closing = asyncio.ensure_future(queue.close())
            await asyncio.sleep(0)  # the close has begun
            assert await other.enqueue("g1", 3)
            await closing
            assert started == []
            assert ("g1", 3) in await other.in_flight()  # still there, for another process
        finally:
            await bus.close()

    asyncio.run(main())
