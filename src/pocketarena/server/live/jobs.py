"""Bot moves as jobs in a queue (a Redis stream with a consumer group), for a cluster.

A job names a game and the version at which a bot is to act. Any process that takes jobs
(every server unless told otherwise, and ``pocketarena worker``) reads one, thinks, plays the
move through its hub and only then acknowledges the job. A job taken by a process that dies
stays pending; once it has been pending for ``lease_s`` another process claims it and thinks
again. The move is applied at most once whatever happens: the hub plays it only if the game is
still at the job's version, and the database refuses a write naming an older version.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

Job = Callable[[str, int], Awaitable[None]]
GROUP = "bots"


class BotQueue:
    def __init__(self, redis: Any, prefix: str, consumer: str, lease_s: float = 15.0) -> None:
        self.redis = redis  # a redis.asyncio.Redis with decode_responses=True
        self.stream = f"{prefix}:botjobs"
        self.prefix = prefix
        self.consumer = consumer
        self.lease_ms = max(100, int(lease_s * 1000))
        self._tasks: list[asyncio.Task[None]] = []
        self.done = 0  # jobs finished here (tests, probes)

    async def setup(self) -> None:
        try:
            await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except Exception as e:  # BUSYGROUP: another process made it first
            if "BUSYGROUP" not in str(e):
                raise

    async def enqueue(self, game_id: str, version: int) -> bool:
        """Queue the bot's move at ``version`` of ``game_id`` once (a second call for the same
        version, from any process, does nothing); whether it was queued now."""
        key = f"{self.prefix}:botjob:{game_id}:{version}"
        if not await self.redis.set(key, "1", nx=True, ex=3600):
            return False
        await self.redis.xadd(
            self.stream, {"game": game_id, "version": str(version)}, maxlen=100_000
        )
        return True

    def start(self, handle: Job, consumers: int) -> None:
        for i in range(max(1, consumers)):
            self._tasks.append(asyncio.create_task(self._consume(handle, f"{self.consumer}/{i}")))

    async def _next(self, name: str) -> tuple[str, dict[str, str]] | None:
        # A job whose taker has held it past the lease first (its process died, most likely).
        claimed = await self.redis.xautoclaim(
            self.stream, GROUP, name, min_idle_time=self.lease_ms, start_id="0-0", count=1
        )
        entries = claimed[1] if claimed else []
        entries = [e for e in entries if e and e[1]]
        if entries:
            return entries[0][0], entries[0][1]
        got = await self.redis.xreadgroup(GROUP, name, {self.stream: ">"}, count=1, block=1000)
        for _stream, items in got or []:
            for job_id, fields in items:
                return job_id, fields
        return None

    async def _consume(self, handle: Job, name: str) -> None:
        while True:
            try:
                job = await self._next(name)
                if job is None:
                    continue
                job_id, fields = job
                try:
                    await handle(fields["game"], int(fields["version"]))
                except asyncio.CancelledError:
                    raise
                except Exception:  # left pending: taken again once its lease runs out
                    log.exception("bot job %s failed; it will be retried", fields)
                    continue
                await self.redis.xack(self.stream, GROUP, job_id)
                await self.redis.xdel(self.stream, job_id)
                self.done += 1
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis unreachable for a moment: try again soon
                log.warning("taking bot jobs failed (%s); retrying", e)
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        self._tasks.clear()
