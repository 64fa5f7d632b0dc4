"""The bus: how the server processes of a cluster tell each other what changed.

One small interface, two implementations. ``MemoryBus`` keeps everything in this process (one
server alone, no Redis needed): it does what the cluster's parts do when there are no other
processes (its messages reach this process only, its lock is always free), so the hub asks
which bus it has only where being alone really differs.
``RedisBus`` carries the same messages over Redis pub/sub, so any number of processes, on any
machines, hear the changes of the games they serve and the lobby's.

Messages are small JSON objects: they say *that* something changed (a game's id and new
version), never the state itself: whoever needs the state reads it from the database, which
stays the only authority. So a message that is lost, late or repeated costs a reload at most.

Messages about one game go on that game's own channel (a *topic*): a process hears them only
while it follows the game (``follow``/``unfollow``: while some socket of its own watches it), so
what each process receives grows with the games it serves, not with the whole cluster's.

Besides pub/sub the interface holds the few shared structures a cluster needs: the lobby's
entries (a hash every process reads), a lock that at most one process holds at a time (for
periodic sweeps), a liveness mark per process, and presence: how many sockets each player has
open on each process, and on which games (see ``live.presence``). A process's presence lives
under keys that expire unless it keeps saying it is alive, so the players of a process that
died without a word (``kill -9``) drop out within ``NODE_TTL_S`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import re
import socket
import time
import uuid
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..core.waiting import wait_for_async

log = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], None]
GAMES = "games"  # {"id", "version", "origin"}: a game changed
LOBBY = "lobby"  # {"origin"}: something the lobby shows changed
SESSIONS = "sessions"  # {"ids": [...]}: sessions that ended (their sockets close)
PLAYERS = "players"  # {"player", "name"}: a player changed their name
NODE_TTL_S = 15  # a process that has not said it is alive for this long is gone
ALIVE_EVERY_S = NODE_TTL_S / 3  # how often a process says so
SOCKET_TIMEOUT_S = 5.0  # longer than any command we send takes (the longest blocks 1 s)
FOLLOW_WAIT_S = 2.0  # at most this long to wait for Redis to confirm a new subscription
OFFERS_TTL_S = 86400  # a finished game's rematch offers are kept this long after the last look


def seen_mark(game_id: str, player_id: str) -> str:
    """The presence field saying that ``player_id`` has ``game_id`` open."""
    return f"{game_id}/{player_id}"


def node_name() -> str:
    """This process's name in the cluster: host, pid and a random part (pids are reused)."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"


class Bus(Protocol):
    """Publish/subscribe between the processes of one deployment."""

    node: str  # this process's name; messages carry it as "origin"
    shared: bool  # True when other processes may be listening (a cluster)
    on_reconnect: Callable[[], None] | None  # called after messages may have been missed

    published: int  # messages sent so far
    received: int  # messages this process has read so far

    def subscribe(self, channel: str, handler: Handler) -> None:
        """Call ``handler`` (on the event loop) with every message on ``channel``, this
        process's own included (those about a topic only while it is followed). Subscribe
        before ``start``."""
        ...

    async def start(self) -> None: ...

    async def publish(
        self, channel: str, message: dict[str, Any], topic: str | None = None
    ) -> None:
        """Send ``message`` on ``channel``; with ``topic`` (a game's id) only the processes
        following that topic hear it."""
        ...

    async def follow(self, topic: str) -> None:
        """Hear the messages about ``topic`` from now on (counted: each call needs its own
        ``unfollow``). Returns once the subscription holds, so that whatever is read after it
        (the game from the database) cannot miss a change announced meanwhile."""
        ...

    def unfollow(self, topic: str) -> None:
        """Undo one ``follow``; the last one stops the messages about ``topic``."""
        ...

    async def presence_put(self, players: dict[str, int], seen: dict[str, int]) -> None:
        """This process's open sockets: per player, and per ``seen_mark`` (a player with a
        game open). A count of 0 removes the entry."""
        ...

    async def players_online(self, players: list[str]) -> set[str]:
        """Those of ``players`` with a socket open on any live process."""
        ...

    async def players_seeing(self, game_id: str, players: list[str]) -> set[str]:
        """Those of ``players`` with ``game_id`` open on any live process."""
        ...

    async def online_count(self) -> int:
        """How many players have a socket open on any live process."""
        ...

    async def watchers_put(self, games: dict[str, list[str]]) -> None:
        """Who watches each of these games on this process (``presence.watcher_name``: a
        player, or a signed-out socket); an empty list removes the game."""
        ...

    async def watchers_of(self, game_ids: list[str]) -> dict[str, set[str]]:
        """Who watches each of ``game_ids`` on any live process (a game nobody watches is
        left out)."""
        ...

    async def lobby_put(self, entries: dict[str, str | None]) -> None:
        """Set (a JSON text) or delete (None) lobby entries by game id."""
        ...

    async def lobby_entries(self) -> dict[str, str]: ...

    async def rematch_offers(self, game_id: str, seats: list[int]) -> set[int]:
        """Add ``seats`` to the rematch offers of a finished game; all its offers so far."""
        ...

    async def try_lock(self, name: str, ttl_s: float) -> bool:
        """Take the lock ``name`` for ``ttl_s`` unless it is held, so that one process at a
        time runs a sweep (a process alone has nobody to keep out: always)."""
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
        self._offers: dict[str, tuple[float, set[int]]] = {}  # game -> (kept until, seats)
        self._topics: dict[str, int] = {}  # followed topic -> how many follows
        self._online: dict[str, int] = {}
        self._seen: dict[str, int] = {}
        self._watchers: dict[str, list[str]] = {}  # game -> who watches it
        self.published = 0
        self.received = 0
        self.on_reconnect: Callable[[], None] | None = None

    def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers.setdefault(channel, []).append(handler)

    async def start(self) -> None:
        return None

    async def publish(
        self, channel: str, message: dict[str, Any], topic: str | None = None
    ) -> None:
        self.published += 1
        if topic is not None and topic not in self._topics:
            return  # nobody here follows it: like a Redis channel nobody subscribed to
        loop = asyncio.get_running_loop()
        handlers = self._handlers.get(channel, [])
        if handlers:
            self.received += 1
        for handler in handlers:
            loop.call_soon(handler, dict(message))

    async def follow(self, topic: str) -> None:
        self._topics[topic] = self._topics.get(topic, 0) + 1

    def unfollow(self, topic: str) -> None:
        left = self._topics.get(topic, 0) - 1
        if left > 0:
            self._topics[topic] = left
        else:
            self._topics.pop(topic, None)

    @property
    def topics(self) -> set[str]:
        return set(self._topics)

    async def presence_put(self, players: dict[str, int], seen: dict[str, int]) -> None:
        _set_counts(self._online, players)
        _set_counts(self._seen, seen)

    async def players_online(self, players: list[str]) -> set[str]:
        return {p for p in players if self._online.get(p, 0) > 0}

    async def players_seeing(self, game_id: str, players: list[str]) -> set[str]:
        return {p for p in players if self._seen.get(seen_mark(game_id, p), 0) > 0}

    async def online_count(self) -> int:
        return len(self._online)

    async def watchers_put(self, games: dict[str, list[str]]) -> None:
        _set_lists(self._watchers, games)

    async def watchers_of(self, game_ids: list[str]) -> dict[str, set[str]]:
        return {g: set(self._watchers[g]) for g in game_ids if g in self._watchers}

    async def lobby_put(self, entries: dict[str, str | None]) -> None:
        for gid, text in entries.items():
            if text is None:
                self._lobby.pop(gid, None)
            else:
                self._lobby[gid] = text

    async def lobby_entries(self) -> dict[str, str]:
        return dict(self._lobby)

    async def rematch_offers(self, game_id: str, seats: list[int]) -> set[int]:
        now = time.monotonic()
        self._offers = {g: kept for g, kept in self._offers.items() if kept[0] > now}
        offers = self._offers.get(game_id, (0.0, set()))[1] | set(seats)
        if offers:  # as with Redis, a game nobody offered a rematch of keeps no entry
            self._offers[game_id] = (now + OFFERS_TTL_S, offers)
        return set(offers)

    async def try_lock(self, name: str, ttl_s: float) -> bool:
        return True  # no other process to keep out: a sweep runs whenever this one asks

    async def ping(self) -> None:
        return None

    async def close(self) -> None:
        return None


class RedisBus:
    """Redis pub/sub (redis-py asyncio). Every key and channel starts with ``prefix`` so that
    several deployments (or test runs) can share one Redis. A dropped connection is reopened
    and the channels (and followed topics) subscribed again; meanwhile missed messages cost
    nothing lasting (see the module's docstring), and every process reloads what it holds on
    reconnecting.

    Keys of presence (see ``docs/deploy.md``): ``<prefix>:nodes``, a sorted set of the
    processes by the time each last said it is alive; ``<prefix>:online:<node>``, a hash of
    player → sockets open on that process; ``<prefix>:seen:<node>``, a hash of
    ``game/player`` → sockets of that player watching that game; ``<prefix>:watchers:<node>``,
    a hash of game → who watches it there (a JSON list). The hashes expire
    ``NODE_TTL_S`` after the process last said it is alive; readers also skip the processes
    whose mark in ``nodes`` is older than that, so a dead process's players drop out even
    before its keys expire."""

    shared = True

    def __init__(self, url: str, prefix: str = "pocketarena", node: str | None = None) -> None:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff
        from redis.exceptions import ConnectionError as RedisConnectionError
        from redis.exceptions import TimeoutError as RedisTimeoutError

        self.url = url
        self.prefix = prefix
        self.node = node or node_name()
        # A connection Redis dropped (it restarted) is opened again and the command sent once
        # more, at once: what the cluster sends is idempotent or harmless twice (a job is
        # queued once per version, a message says only that something changed). No reply
        # within SOCKET_TIMEOUT_S is a dropped connection too: a read on a connection that
        # Redis's restart left half-open waited forever (the bot queue stalled in tests).
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url,
            decode_responses=True,
            health_check_interval=10,
            socket_timeout=SOCKET_TIMEOUT_S,
            socket_connect_timeout=SOCKET_TIMEOUT_S,
            retry=Retry(ExponentialBackoff(cap=0.5, base=0.05), 2),
            retry_on_error=[RedisConnectionError, RedisTimeoutError],
        )
        # The subscriptions read on a client of their own, without retries: redis-py's pub/sub
        # would otherwise reconnect and subscribe again silently, and the reader would never
        # learn that messages may have been missed meanwhile (``on_reconnect``).
        self._listener: aioredis.Redis = aioredis.Redis.from_url(
            url, decode_responses=True, health_check_interval=10
        )
        self._handlers: dict[str, list[Handler]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._alive: asyncio.Task[None] | None = None
        self._stopping = False
        self.published = 0  # messages sent (for the benchmark's per-move costs)
        self.received = 0  # messages read from Redis (for the benchmark's per-process costs)
        self.on_reconnect: Callable[[], None] | None = None
        self._pubsub: Any = None  # the reader's subscription, while it holds one
        self._topics: dict[str, int] = {}  # followed topic -> how many follows
        self._subscribed: set[str] = set()  # topics the reader's subscription holds
        self._confirmed: dict[str, asyncio.Future[None]] = {}  # Redis channel -> confirmation
        self._sync = asyncio.Lock()  # one (un)subscribe at a time, in the order asked
        self._online: dict[str, int] = {}  # this process's presence, as written to Redis
        self._seen: dict[str, int] = {}
        self._watchers: dict[str, list[str]] = {}
        self._known = False  # Redis holds this process's liveness mark (set by the first one)
        self.forgotten = 0  # times Redis was found to have lost this process's keys

    def key(self, *parts: str) -> str:
        return ":".join((self.prefix, *parts))

    def topic_channel(self, topic: str) -> str:
        return self.key("game", topic)

    def subscribe(self, channel: str, handler: Handler) -> None:
        self._handlers.setdefault(channel, []).append(handler)

    async def start(self) -> None:
        # Redis away (not started yet, restarting): wait for it, saying so once a minute.
        shown = re.sub(r"//[^@/]*@", "//", self.url)  # no password in the log
        await wait_for_async(f"Redis at {shown}", self._first_word, log.warning)
        self._alive = asyncio.create_task(self._say_alive())
        if self._handlers:
            ready = asyncio.get_running_loop().create_future()
            self._reader = asyncio.create_task(self._read(ready))
            await ready

    async def _first_word(self) -> None:
        await self.redis.ping()
        await self._say_alive_once()

    async def _read(self, ready: asyncio.Future[None]) -> None:
        channels = {self.key("bus", name): name for name in self._handlers}
        topic_prefix = self.key("game", "")
        first = True
        while not self._stopping:
            pubsub = self._listener.pubsub()
            try:
                async with self._sync:
                    topics = set(self._topics)
                    await pubsub.subscribe(*channels, *(self.topic_channel(t) for t in topics))
                    self._pubsub, self._subscribed = pubsub, topics
                if first:
                    ready.set_result(None)
                    first = False
                elif self.on_reconnect is not None:
                    self.on_reconnect()
                while not self._stopping:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is not None:
                        self._dispatch(message, channels, topic_prefix)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # at the start too: Redis went away again meanwhile
                log.warning("the Redis bus dropped (%s); reconnecting", e)
                await asyncio.sleep(0.5)
            finally:
                self._pubsub, self._subscribed = None, set()
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]

    def _dispatch(self, message: dict[str, Any], channels: dict[str, str], topics: str) -> None:
        """Hand one message read from Redis to its handlers (a confirmed subscription wakes
        whoever waits for it)."""
        kind, channel = message.get("type"), str(message.get("channel"))
        if kind == "subscribe":
            waiting = self._confirmed.pop(channel, None)
            if waiting is not None and not waiting.done():
                waiting.set_result(None)
            return
        if kind != "message":
            return
        self.received += 1
        try:
            data = json.loads(message["data"])
        except (TypeError, ValueError):
            log.warning("a bus message that is not JSON was ignored")
            return
        if channel.startswith(topics):  # {"channel": name, "message": {...}}
            if not isinstance(data, dict):
                return
            name, data = str(data.get("channel")), data.get("message")
        else:
            name = channels.get(channel, "")
        if not isinstance(data, dict):
            return
        for handler in self._handlers.get(name, []):
            try:
                handler(data)
            except Exception:
                log.exception("a bus handler failed on %s", name)

    async def follow(self, topic: str) -> None:
        self._topics[topic] = self._topics.get(topic, 0) + 1
        if self._topics[topic] == 1:
            await self._apply(topic)

    def unfollow(self, topic: str) -> None:
        left = self._topics.get(topic, 0) - 1
        if left > 0:
            self._topics[topic] = left
            return
        self._topics.pop(topic, None)
        task = asyncio.ensure_future(self._apply(topic))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    @property
    def topics(self) -> set[str]:
        return set(self._topics)

    async def _apply(self, topic: str) -> None:
        """Bring the subscription in line with whether ``topic`` is followed now. A new
        subscription is awaited until Redis confirms it (``FOLLOW_WAIT_S`` at most: past that
        the periodic check of watched games still catches up)."""
        waiting: asyncio.Future[None] | None = None
        async with self._sync:
            pubsub, wanted = self._pubsub, topic in self._topics
            if pubsub is None or wanted == (topic in self._subscribed):
                return  # no subscription yet: the reader subscribes to every topic when it does
            channel = self.topic_channel(topic)
            try:
                if wanted:
                    waiting = asyncio.get_running_loop().create_future()
                    self._confirmed[channel] = waiting
                    await pubsub.subscribe(channel)
                    self._subscribed.add(topic)
                else:
                    await pubsub.unsubscribe(channel)
                    self._subscribed.discard(topic)
            except Exception as e:  # the reader notices the drop and subscribes anew
                log.warning("could not (un)subscribe %s (%s)", topic, e)
                self._confirmed.pop(channel, None)
                return
        if waiting is not None:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(FOLLOW_WAIT_S):  # not wait_for: it can drop a cancel
                    await asyncio.shield(waiting)
            self._confirmed.pop(channel, None)

    async def _say_alive_once(self) -> None:
        """Mark this process alive, and keep its presence keys from expiring (written anew
        if they were lost, e.g. Redis restarted empty)."""
        online, seen = self.key("online", self.node), self.key("seen", self.node)
        watchers = self.key("watchers", self.node)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.exists(self.key("node", self.node))
            pipe.set(self.key("node", self.node), "1", ex=NODE_TTL_S)
            pipe.zadd(self.key("nodes"), {self.node: time.time()})
            pipe.zremrangebyscore(self.key("nodes"), "-inf", time.time() - 10 * NODE_TTL_S)
            pipe.expire(online, NODE_TTL_S)
            pipe.expire(seen, NODE_TTL_S)
            pipe.expire(watchers, NODE_TTL_S)
            known, *_, kept_online, kept_seen, kept_watchers = await pipe.execute()
        lost = (not kept_online and self._online) or (not kept_seen and self._seen)
        if lost:
            await self._write_presence(dict(self._online), dict(self._seen))
        if not kept_watchers and self._watchers:
            await self._write_watchers(dict(self._watchers))
        if not known and self._known:
            # Redis forgot this process (it restarted empty, or this process was stopped
            # longer than NODE_TTL_S): whatever else it held for the cluster is made again.
            log.warning("Redis lost this process's keys (restarted empty?); writing them again")
            self.forgotten += 1
            if self.on_reconnect is not None:
                self.on_reconnect()
        self._known = True

    async def _say_alive(self) -> None:
        # Not ``while True``: close's cancel can be lost in a redis-py call (see
        # Presence.close), and the process would be said alive after its close.
        while not self._stopping:
            await asyncio.sleep(ALIVE_EVERY_S)
            try:
                await self._say_alive_once()
            except asyncio.CancelledError:
                raise
            except Exception:  # Redis away: said again in a moment
                log.debug("could not say this process is alive", exc_info=True)

    async def presence_put(self, players: dict[str, int], seen: dict[str, int]) -> None:
        _set_counts(self._online, players)
        _set_counts(self._seen, seen)
        await self._write_presence(players, seen)

    async def _write_presence(self, players: dict[str, int], seen: dict[str, int]) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            for name, counts in (("online", players), ("seen", seen)):
                if counts:
                    fields = {k: (n if n > 0 else None) for k, n in counts.items()}
                    _hash_put(pipe, self.key(name, self.node), fields)
            await pipe.execute()

    async def _live_nodes(self) -> list[str]:
        found = await self.redis.zrangebyscore(self.key("nodes"), time.time() - NODE_TTL_S, "+inf")
        return [str(n) for n in found]

    async def _present(self, table: str, fields: list[str]) -> set[str]:
        """Those of ``fields`` counted above 0 in ``table`` of some live process."""
        if not fields:
            return set()
        nodes = await self._live_nodes()
        if not nodes:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hmget(self.key(table, node), fields)
            rows = await pipe.execute()
        return {f for row in rows for f, n in zip(fields, row, strict=True) if n and int(n) > 0}

    async def players_online(self, players: list[str]) -> set[str]:
        return await self._present("online", players)

    async def players_seeing(self, game_id: str, players: list[str]) -> set[str]:
        marks = {seen_mark(game_id, p): p for p in players}
        return {marks[m] for m in await self._present("seen", list(marks))}

    async def online_count(self) -> int:
        nodes = await self._live_nodes()
        if not nodes:
            return 0
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hkeys(self.key("online", node))
            rows = await pipe.execute()
        return len({str(p) for row in rows for p in row})

    async def watchers_put(self, games: dict[str, list[str]]) -> None:
        _set_lists(self._watchers, games)
        await self._write_watchers(games)

    async def _write_watchers(self, games: dict[str, list[str]]) -> None:
        if not games:
            return
        fields = {g: (json.dumps(names) if names else None) for g, names in games.items()}
        async with self.redis.pipeline(transaction=True) as pipe:
            _hash_put(pipe, self.key("watchers", self.node), fields)
            await pipe.execute()

    async def watchers_of(self, game_ids: list[str]) -> dict[str, set[str]]:
        nodes = await self._live_nodes() if game_ids else []
        if not nodes:
            return {}
        async with self.redis.pipeline(transaction=False) as pipe:
            for node in nodes:
                pipe.hmget(self.key("watchers", node), game_ids)
            rows = await pipe.execute()
        found: dict[str, set[str]] = {}
        for row in rows:
            for gid, text in zip(game_ids, row, strict=True):
                if not text:
                    continue
                try:
                    names = json.loads(text)
                except ValueError:
                    continue
                if isinstance(names, list):
                    found.setdefault(gid, set()).update(str(n) for n in names)
        return found

    async def publish(
        self, channel: str, message: dict[str, Any], topic: str | None = None
    ) -> None:
        self.published += 1
        if topic is None:
            await self.redis.publish(self.key("bus", channel), json.dumps(message))
        else:
            text = json.dumps({"channel": channel, "message": message})
            await self.redis.publish(self.topic_channel(topic), text)

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
            pipe.expire(key, OFFERS_TTL_S)
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
        with contextlib.suppress(Exception):  # its players are offline at once, not in 15 s
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.delete(self.key("node", self.node))
                pipe.delete(self.key("online", self.node), self.key("seen", self.node))
                pipe.delete(self.key("watchers", self.node))
                pipe.zrem(self.key("nodes"), self.node)
                await pipe.execute()
        await self.redis.aclose()
        await self._listener.aclose()


def _hash_put(pipe: Any, key: str, fields: Mapping[str, str | int | None]) -> None:
    """Queue on ``pipe``: set each field of the hash ``key`` (None: delete it), and let the
    hash live ``NODE_TTL_S`` more (a process's keys outlive it by no more)."""
    gone = [f for f, v in fields.items() if v is None]
    kept = [x for f, v in fields.items() if v is not None for x in (f, v)]  # field, value, …
    if gone:
        pipe.hdel(key, *gone)
    if kept:
        pipe.hset(key, items=kept)
    pipe.expire(key, NODE_TTL_S)


def _set_lists(table: dict[str, list[str]], lists: dict[str, list[str]]) -> None:
    """Set each list in ``table``; an empty list removes the entry."""
    for name, items in lists.items():
        if items:
            table[name] = list(items)
        else:
            table.pop(name, None)


def _set_counts(table: dict[str, int], counts: dict[str, int]) -> None:
    """Set each count in ``table``; a count of 0 removes the entry."""
    for name, count in counts.items():
        if count > 0:
            table[name] = count
        else:
            table.pop(name, None)


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
