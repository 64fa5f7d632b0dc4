"""Whether a process can do its work, as ``/healthz`` says it (a server's route, and the port a
``pocketarena worker`` answers on with ``--health-port``).

Healthy means: the database answers, Redis answers (in a cluster), and bots can be served:
the bots' consumer group exists (a missing one is made again here: Redis restarted empty)
and no bot job has waited longer than ``bot_stall_s`` (every taker dead or stuck). Anything
else is 503, so an operator's probe sees why. Ready (``/readyz``, what the balancer checks)
means the same without the bots: the process itself can serve requests.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Literal

from pydantic import BaseModel
from sqlalchemy import Engine, text

from .core.config import Settings
from .live.hub import Hub

log = logging.getLogger(__name__)
CHECK_TIMEOUT_S = 3.0
PATHS = (b"/healthz", b"/readyz")


class Bots(BaseModel):
    """The bot pipeline of a cluster (bots think in this process alone without one)."""

    queue: str  # "ok", "not used" (one process alone) or what went wrong
    group: bool  # the consumer group exists, so jobs can be taken
    waiting: int  # jobs queued or being thought about
    oldest_wait_s: float  # how long the oldest of them has waited


class Health(BaseModel):
    status: Literal["ok", "failing"]
    database: str  # "ok" or what went wrong
    redis: str  # "ok", "not used" (one process alone) or what went wrong
    bots: Bots
    node: str  # this process's name in the cluster
    bus_received: int  # bus messages this process has read so far (per-game channels: few)
    bus_published: int  # bus messages this process has sent so far


def _database_ok(engine: Engine) -> None:
    with engine.connect() as conn:
        conn.execute(text("SELECT 1"))


def _reason(e: BaseException) -> str:
    first = str(e).strip().splitlines()[0] if str(e).strip() else ""
    return f"{type(e).__name__}: {first}"[:200]


async def _check(probe: Any) -> str:
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_S):  # not wait_for: it can drop a cancel
            await probe
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT_S:g} s"
    except Exception as e:
        return _reason(e)
    return "ok"


async def _bots(hub: Hub, settings: Settings) -> Bots:
    jobs = hub.botjobs.queue
    if jobs is None:  # one process alone has no queue: its bots think in it
        return Bots(queue="not used", group=True, waiting=0, oldest_wait_s=0.0)
    try:
        async with asyncio.timeout(CHECK_TIMEOUT_S):
            pipeline = await jobs.pipeline()
        if not pipeline.group:  # Redis lost it: made again now, then looked at again
            async with asyncio.timeout(CHECK_TIMEOUT_S):
                await jobs.setup()
            async with asyncio.timeout(CHECK_TIMEOUT_S):
                pipeline = await jobs.pipeline()
    except TimeoutError:
        return Bots(
            queue=f"no answer within {CHECK_TIMEOUT_S:g} s", group=False, waiting=0, oldest_wait_s=0
        )
    except Exception as e:
        return Bots(queue=_reason(e), group=False, waiting=0, oldest_wait_s=0.0)
    queue = "ok"
    if not pipeline.group:
        queue = "the consumer group is missing"
    elif pipeline.oldest_s > settings.bot_stall_s:
        queue = (
            f"a bot job has waited {pipeline.oldest_s:.0f} s (over {settings.bot_stall_s:g} s): "
            "nothing takes the bots' jobs"
        )
    return Bots(
        queue=queue,
        group=pipeline.group,
        waiting=pipeline.waiting,
        oldest_wait_s=round(pipeline.oldest_s, 3),
    )


async def report(hub: Hub, engine: Engine, settings: Settings, bots_count: bool = True) -> Health:
    """This process's health. ``bots_count=False`` (``/readyz``, what the balancer checks):
    failing only when this process cannot serve requests, the bots reported but not counted.
    A stall of the bots' queue is the whole cluster's (every worker gone), so counting it
    would take every server out of the balancer at once, friend games with them."""
    database = await _check(asyncio.to_thread(_database_ok, engine))
    # alone there is no Redis: "ok" would claim one
    redis = await _check(hub.bus.ping()) if hub.clustered else "not used"
    bots = await _bots(hub, settings)
    ok = database == "ok" and redis in ("ok", "not used")
    ok = ok and (bots.queue in ("ok", "not used") or not bots_count)
    return Health(
        status="ok" if ok else "failing",
        database=database,
        redis=redis,
        bots=bots,
        node=hub.bus.node,
        bus_received=hub.bus.received,
        bus_published=hub.bus.published,
    )


async def serve_health(
    hub: Hub, engine: Engine, settings: Settings, host: str, port: int
) -> asyncio.Server:
    """Answer ``GET /healthz`` (and ``/readyz``) at ``host``:``port``: a worker's health, for
    a supervisor or an orchestrator (anything else gets 404). One request per connection; no
    body is read."""

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(CHECK_TIMEOUT_S):
                head = await reader.readuntil(b"\r\n\r\n")
            parts = head.split(b"\r\n", 1)[0].split()
            path = parts[1].split(b"?", 1)[0] if len(parts) >= 2 else b""
            if len(parts) >= 2 and parts[0] in (b"GET", b"HEAD") and path in PATHS:
                health = await report(hub, engine, settings, bots_count=path == b"/healthz")
                code = 200 if health.status == "ok" else 503
                body = health.model_dump_json().encode()
            else:
                code, body = 404, b'{"detail":"not found","code":"not_found"}'
            reason = {200: "OK", 404: "Not Found", 503: "Service Unavailable"}[code]
            writer.write(
                f"HTTP/1.1 {code} {reason}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                + (body if parts[:1] != [b"HEAD"] else b"")
            )
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass  # a client that said nothing useful, or left: nothing to answer
        except Exception:
            log.exception("the health check failed")
        finally:
            writer.close()

    return await asyncio.start_server(answer, host, port)
