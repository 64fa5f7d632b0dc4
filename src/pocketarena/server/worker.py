"""``pocketarena worker``: a process of a cluster that serves no requests and thinks for the
bots (it takes their moves from the queue in Redis) and keeps an eye on running clocks."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from .core.config import Settings
from .core.db import make_engine, session_factory
from .live.bots import BotRunner
from .live.hub import Hub
from .main import clock_sweeps, cluster_parts
from .store import Store


async def run_worker(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Take bot jobs until ``stop`` is set (or SIGTERM / SIGINT arrives)."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    engine = make_engine(settings)
    store = Store(engine, session_factory(engine))
    bots = BotRunner(settings.bot_executor, settings.bot_workers, settings.bot_time_budget_s)
    bus, jobs, _limiter = cluster_parts(settings)
    hub = Hub(store, settings, bots, bus, jobs)
    try:
        await hub.start()
        sweeps = asyncio.create_task(clock_sweeps(hub))
        try:
            await stop.wait()
        finally:
            sweeps.cancel()
            with contextlib.suppress(BaseException):
                await sweeps
    finally:
        await hub.close()
        bots.close()
        engine.dispose()
