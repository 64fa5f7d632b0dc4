"""``pocketarena worker``: a process of a cluster that serves no requests and thinks for the
bots (it takes their moves from the queue in Redis), keeps an eye on running clocks, sends notifications by email and push, queues
again the bot moves whose job Redis lost, and (``health_port``) answers ``GET /healthz`` on a
port of its own, as a server does."""

from __future__ import annotations

import asyncio
import contextlib
import signal

from .core.config import Settings
from .core.db import make_engine, session_factory
from .delivery import Sender, send_forever
from .health import serve_health
from .live.bots import BotRunner
from .live.hub import Hub
from .main import clock_sweeps, cluster_parts, senders
from .store import Store


async def run_worker(
    settings: Settings,
    stop: asyncio.Event | None = None,
    health_port: int | None = None,
    health_host: str = "127.0.0.1",
) -> None:
    """Take bot jobs until ``stop`` is set (or SIGTERM / SIGINT arrives); with
    ``health_port``, answer health checks there meanwhile."""
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
    mailer, pusher = senders(settings)
    sender = Sender(store, settings.resolved_secret_key(), settings.public_url, mailer, pusher)
    health: asyncio.Server | None = None
    try:
        if health_port is not None:  # before the hub starts: "failing" until it can work
            health = await serve_health(hub, engine, settings, health_host, health_port)
        await hub.start()
        chores = [
            asyncio.create_task(clock_sweeps(hub)),
            asyncio.create_task(send_forever(sender, hub.now)),  # notifications' email, push
        ]
        try:
            await stop.wait()
        finally:
            for chore in chores:
                chore.cancel()
                with contextlib.suppress(BaseException):
                    await chore
    finally:
        if health is not None:
            health.close()
        await hub.close()
        bots.close()
        engine.dispose()
