"""The bus: how the server processes of a cluster tell each other what changed.

One small interface, two implementations. ``MemoryBus`` keeps everything in this process (one
server: today's behaviour, no Redis needed; several hubs may share one in a test).
``RedisBus`` carries the same messages over Redis pub/sub, so any number of processes, on any
machines, hear every game's changes and the lobby's.

Messages are small JSON objects: they say *that* something changed (a game's id and new
version), never the state itself: whoever needs the state reads it from the database, which
stays the only authority. So a message that is lost, late or repeated costs a reload at most.

Besides pub/sub the interface holds the few shared structures a cluster needs: the lobby's
entries (a hash every process reads), a lock that at most one process holds at a time (for
periodic sweeps), and a liveness mark per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import time
import uuid
from collections.abc import Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
GAMES = "games"  # {"id", "version", "origin"}: a game changed
LOBBY = "lobby"  # {"origin"}: something the lobby shows changed
SESSIONS = "sessions"  # {"ids": [...]}: sessions that ended (their sockets close)
PLAYERS = "players"  # {"player", "name"}: a player changed their name
NODE_TTL_S = 15  # a process that has not said it is alive for this long is gone


def node_name() -> str:
    """This process's name in the cluster: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Bus(Protocol):
    """Publish/subscribe between the processes of one deployment."""

    node: str  # this process's name; messages carry it as "origin"
    shared: bool  # True when other processes may be listening (a cluster)
    on_reconnect: Callable[[], None] | None  # called after messages may have been missed

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` (on the event loop) with every message on ``channel``, this
        process's own included. Subscribe before ``start``."""
        ...

    async def start(self) -> None: ...

    async def publish(self, channel: str, message: dict[str, Any]) -> None: ...

    async def lobby_put(self, entries: dict[str, str | None]) -> None:
        """Set (a JSON text) or delete (None) lobby entries by game id."""
        ...

    async def lobby_entries(self) -> dict[str, str]: ...

    async def rematch_offers(self, game_id: str, seats: list[int]) -> set[int]:
        """Add ``seats`` to the rematch offers of a finished game; all its offers so far."""
        ...

    async def try_lock(self, name: str, ttl_s: float) -> bool:
        """Take the lock ``name`` for ``ttl_s`` unless another process holds it."""
        ...

    async def ping(self) -> None:
        """Raise if the bus cannot be reached."""
        ...

    async def close(self) -> None: ...


class MemoryBus:
    """Everything in this process: handlers are called soon after the publish."""

    shared = False

    def __init__(self, node: str | None = None) -> None:
        self.node = node or node_name()
        self._handlers: dict[str, list[Handler]] = {}
        self._lobby: dict[str, str] = {}
        self._locks: dict[str, float] = {}
        self._offers: dict[str, set[int]] = {}
        self.published = 0
        self.on_reconnect: Callable[[], None] | None = None

    def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers.setdefault(channel, []).append(handler)

    async def start(self) -> None:
        return None

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published += 1
        loop = asyncio.get_running_loop()
        for handler in self._handlers.get(channel, []):
            loop.call_soon(handler, dict(message))

    async def lobby_put(self, entries: dict[str, str | None]) -> None:
        for gid, text in entries.items():
            if text is None:
                self._lobby.pop(gid, None)
            else:
                self._lobby[gid] = text

    async def lobby_entries(self) -> dict[str, str]:
        return dict(self._lobby)

    async def rematch_offers(self, game_id: str, seats: list[int]) -> set[int]:
        offers = self._offers.setdefault(game_id, set())
        offers.update(seats)
        return set(offers)

    async def try_lock(self, name: str, ttl_s: float) -> bool:
        now = time.monotonic()
        if self._locks.get(name, 0.0) > now:
            return False
        self._locks[name] = now + ttl_s
        return True

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    """Redis pub/sub (redis-py asyncio). Every key and channel starts with ``prefix`` so that
    several deployments (or test runs) can share one Redis. A dropped connection is reopened
    and the channels subscribed again; meanwhile missed messages cost nothing lasting (see the
    module's docstring), and every process reloads what it holds on reconnecting."""

    shared = True

    def __init__(self, url: str, prefix: str = "pocketarena", node: str | None = None) -> None:
        import redis.asyncio as aioredis

        self.url = url
        self.prefix = prefix
        self.node = node or node_name()
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, decode_responses=True, health_check_interval=10
        )
        self._handlers: dict[str, list[Handler]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._alive: asyncio.Task[None] | None = None
        self._stopping = False
        self.published = 0  # messages sent (for the benchmark's per-move costs)
        self.on_reconnect: Callable[[], None] | None = None

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers.setdefault(channel, []).append(handler)

    async def start(self) -> None:
        await self.redis.ping()  # fail at start, with the reason, if Redis cannot be reached
        self._alive = asyncio.create_task(self._say_alive())
        if self._handlers:
            ready = asyncio.get_running_loop().create_future()
            self._reader = asyncio.create_task(self._read(ready))
            await ready

    async def _read(self, ready: asyncio.Future[None]) -> None:
        channels = {self.key("bus", name): name for name in self._handlers}
        first = True
        while not self._stopping:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(*channels)
                if first:
                    ready.set_result(None)
                    first = False
                elif self.on_reconnect is not None:
                    self.on_reconnect()
                while not self._stopping:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None or message.get("type") != "message":
                        continue
                    name = channels.get(str(message["channel"]))
                    try:
                        data = json.loads(message["data"])
                    except (TypeError, ValueError):
                        log.warning("a bus message that is not JSON was ignored")
                        continue
                    for handler in self._handlers.get(name or "", []):
                        try:
                            handler(data)
                        except Exception:
                            log.exception("a bus handler failed on %s", name)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                if first:
                    ready.set_exception(e)
                    return
                log.warning("the Redis bus dropped (%s); reconnecting", e)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _say_alive(self) -> None:
        while True:
            with contextlib.suppress(Exception):
                await self.redis.set(self.key("node", self.node), "1", ex=NODE_TTL_S)
            await asyncio.sleep(NODE_TTL_S / 3)

    async def publish(self, channel: str, message: dict[str, Any]) -> None:
        self.published += 1
        await self.redis.publish(self.key("bus", channel), json.dumps(message))

    async def lobby_put(self, entries: dict[str, str | None]) -> None:
        if not entries:
            return
        key = self.key("lobby")
        async with self.redis.pipeline(transaction=False) as pipe:
            for gid, text in entries.items():
                if text is None:
                    pipe.hdel(key, gid)
                else:
                    pipe.hset(key, gid, text)
            await pipe.execute()

    async def lobby_entries(self) -> dict[str, str]:
        found = await self.redis.hgetall(self.key("lobby"))
        return {str(k): str(v) for k, v in found.items()}

    async def rematch_offers(self, game_id: str, seats: list[int]) -> set[int]:
        key = self.key("rematch", game_id)
        async with self.redis.pipeline(transaction=True) as pipe:
            if seats:
                pipe.sadd(key, *seats)
            pipe.expire(key, 86400)
            pipe.smembers(key)
            *_, members = await pipe.execute()
        return {int(m) for m in members}

    async def try_lock(self, name: str, ttl_s: float) -> bool:
        got = await self.redis.set(self.key("lock", name), self.node, nx=True, px=int(ttl_s * 1000))
        return bool(got)

    async def ping(self) -> None:
        await self.redis.ping()

    async def close(self) -> None:
        self._stopping = True  # the reader ends within a second, by itself
        if self._alive is not None:
            self._alive.cancel()
        await stop_tasks([t for t in (self._reader, self._alive) if t is not None], 2.0)
        with contextlib.suppress(Exception):
            await self.redis.delete(self.key("node", self.node))
        await self.redis.aclose()


async def stop_tasks(tasks: list[asyncio.Task[None]], grace_s: float) -> None:
    """Wait up to ``grace_s`` for ``tasks`` to end by themselves, then cancel the rest (and
    wait for them a moment, no longer)."""
    if not tasks:
        return
    _done, pending = await asyncio.wait(tasks, timeout=grace_s)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=1.0)
