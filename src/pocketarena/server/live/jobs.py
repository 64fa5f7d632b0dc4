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
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .bus import stop_tasks

log = logging.getLogger(__name__)

Job = Callable[[str, int], Awaitable[None]]
GROUP = "bots"
# KEYS: the job's mark, the stream; ARGV: game id, version. Queued once per mark.
_ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', 3600) then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100000, '*', 'game', ARGV[1], 'version', ARGV[2])
  return 1
end
return 0
"""


class BotQueue:
    def __init__(self, redis: Any, prefix: str, consumer: str, lease_s: float = 15.0) -> None:
        self.redis = redis  # a redis.asyncio.Redis with decode_responses=True
        self.stream = f"{prefix}:botjobs"
        self.prefix = prefix
        self.consumer = consumer
        self.lease_ms = max(100, int(lease_s * 1000))
        self._tasks: list[asyncio.Task[None]] = []
        self._handling: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._enqueue = redis.register_script(_ENQUEUE)
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
        # One script: the mark and the job are written together or not at all.
        queued = await self._enqueue(keys=[key, self.stream], args=[game_id, version])
        return bool(int(queued))

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
        me = asyncio.current_task()
        while not self._stopping:
            try:
                job = await self._next(name)
                if job is None:
                    continue
                job_id, fields = job
                if me is not None:
                    self._handling.add(me)
                try:
                    await handle(fields["game"], int(fields["version"]))
                except asyncio.CancelledError:
                    raise
                except Exception:  # left pending: taken again once its lease runs out
                    log.exception("bot job %s failed; it will be retried", fields)
                    continue
                finally:
                    if me is not None:
                        self._handling.discard(me)
                await self.redis.xack(self.stream, GROUP, job_id)
                await self.redis.xdel(self.stream, job_id)
                self.done += 1
            except asyncio.CancelledError:
                raise
            except Exception as e:  # Redis unreachable for a moment: try again soon
                log.warning("taking bot jobs failed (%s); retrying", e)
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Stop taking jobs. A job being thought about is abandoned (it stays pending, for
        another process once its lease runs out); a wait for the next job ends by itself
        within a second (cancelling redis-py in the middle of a blocking read can hang)."""
        self._stopping = True
        for task in self._handling:
            task.cancel()
        await stop_tasks(self._tasks, grace_s=3.0)
        self._tasks.clear()
