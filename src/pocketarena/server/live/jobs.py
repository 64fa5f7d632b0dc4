"""Bot moves as jobs in a queue (a Redis stream with a consumer group), for a cluster.

A job names a game and the version at which a bot is to act. Any process that takes jobs
(every server unless told otherwise, and ``pocketarena worker``) reads one, thinks, plays the
move through its hub and only then acknowledges the job. A job taken by a process that dies
stays pending; once it has been pending for ``lease_s`` another process claims it and thinks
again. The move is applied at most once whatever happens: the hub plays it only if the game is
still at the job's version, and the database refuses a write naming an older version.

Redis may lose everything (it restarted without persistence): a taker that meets ``NOGROUP``
makes the group again (``XGROUP CREATE ... MKSTREAM``) and goes on, and the jobs lost with it
are queued again from the database (``BotJobs.sweep`` in ``live.botjobs``: a game whose turn is a bot's with
no job in the stream gets one).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .bus import stop_tasks

log = logging.getLogger(__name__)

Job = Callable[[str, int], Awaitable[None]]
GROUP = "bots"
SAY_EVERY_S = 60.0  # the same trouble is logged at most once a minute
IN_FLIGHT_MAX = 10_000  # jobs read at most when looking for what is in the stream
# KEYS: the job's mark, the stream; ARGV: game id, version, force (1: queue it even if marked,
# the sweep found the job gone). Queued once per mark otherwise.
_ENQUEUE = """
if redis.call('SET', KEYS[1], '1', 'NX', 'EX', 3600) or ARGV[3] == '1' then
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', 100000, '*', 'game', ARGV[1], 'version', ARGV[2])
  return 1
end
return 0
"""


@dataclass(frozen=True)
class Pipeline:
    """The bot queue as ``/healthz`` reports it."""

    group: bool  # the consumer group exists (jobs can be taken)
    waiting: int  # jobs in the stream: not yet taken, or taken and not yet done
    oldest_s: float  # how long the oldest of them has waited (0 when none)


def _missing_group(e: Exception) -> bool:
    return "NOGROUP" in str(e)


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
        self.groups_made = 0  # times the group was found missing and made again here
        self._said: dict[str, float] = {}  # trouble -> when it was last logged

    async def setup(self) -> None:
        """Make the consumer group (and the stream) unless they exist: at start, and whenever
        Redis is found to have lost them."""
        try:
            await self.redis.xgroup_create(self.stream, GROUP, id="0", mkstream=True)
        except Exception as e:  # BUSYGROUP: another process made it first
            if "BUSYGROUP" not in str(e):
                raise
        else:
            self.groups_made += 1

    def _say(self, trouble: str, message: str, *args: Any) -> None:
        """Log ``message`` unless the same ``trouble`` was logged within the last minute."""
        now = time.monotonic()
        if now - self._said.get(trouble, -SAY_EVERY_S) >= SAY_EVERY_S:
            self._said[trouble] = now
            log.warning(message, *args)

    async def enqueue(self, game_id: str, version: int, force: bool = False) -> bool:
        """Queue the bot's move at ``version`` of ``game_id`` once (a second call for the same
        version, from any process, does nothing, unless ``force``: the sweep found no job in
        the stream for it); whether it was queued now."""
        key = f"{self.prefix}:botjob:{game_id}:{version}"
        # One script: the mark and the job are written together or not at all.
        queued = await self._enqueue(
            keys=[key, self.stream], args=[game_id, version, 1 if force else 0]
        )
        return bool(int(queued))

    async def in_flight(self) -> set[tuple[str, int]]:
        """(game, version) of every job in the stream: queued, or taken and not yet done
        (a done job is deleted)."""
        found: set[tuple[str, int]] = set()
        for _job_id, fields in await self.redis.xrange(self.stream, count=IN_FLIGHT_MAX):
            try:
                found.add((str(fields["game"]), int(fields["version"])))
            except (KeyError, ValueError):
                continue
        return found

    async def pipeline(self) -> Pipeline:
        """Whether the group exists, and how many jobs wait and for how long (Redis's clock:
        a job's id is the millisecond it was queued)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.exists(self.stream)
            pipe.xlen(self.stream)
            pipe.xrange(self.stream, count=1)
            pipe.time()
            exists, waiting, first, (seconds, micros) = await pipe.execute()
        group = False
        if exists:
            groups = await self.redis.xinfo_groups(self.stream)
            group = any(str(g.get("name")) == GROUP for g in groups)
        oldest = 0.0
        if first:
            queued_ms = int(str(first[0][0]).split("-")[0])
            oldest = max(0.0, int(seconds) + int(micros) / 1e6 - queued_ms / 1000)
        return Pipeline(group=group, waiting=int(waiting), oldest_s=oldest)

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
                if job is None or self._stopping:  # read as the close began: left pending
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
            except Exception as e:
                if _missing_group(e):  # Redis restarted empty: the group goes first
                    self._say(
                        "nogroup", "the bot queue's group was gone (Redis lost it); made again"
                    )
                    try:
                        await self.setup()
                        continue
                    except Exception as again:
                        e = again
                # Redis unreachable for a moment: try again soon
                self._say("unreachable", "taking bot jobs failed (%s); retrying every second", e)
                await asyncio.sleep(1.0)

    async def close(self) -> None:
        """Stop taking jobs. A job being thought about is abandoned, and one read once the
        close began is not started (each stays pending, for another process once its lease
        runs out); a wait for the next job ends by itself
        within a second (cancelling redis-py in the middle of a blocking read can hang)."""
        self._stopping = True
        for task in self._handling:
            task.cancel()
        await stop_tasks(self._tasks, grace_s=3.0)
        self._tasks.clear()
