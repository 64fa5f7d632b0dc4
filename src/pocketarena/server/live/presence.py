"""Who is online: a player is online while at least one of their sockets is open on any process
of the deployment, and "has a game open" while one of those sockets watches it.

This process counts its own sockets (per player, and per game and player) and writes the
counts to the bus whenever one of them goes from 0 to 1 or back; the bus (``live.bus``) adds
up every live process's counts. With Redis each process's counts expire unless it keeps
saying it is alive, so the players of a process that died without a word go offline within
``bus.NODE_TTL_S`` seconds (plus one look, ``POLL_S``) without anyone cleaning up after it.

What people see: beside each seat of a game, "online" or "offline" (``{"type": "presence"}``
messages to the game's watchers, sent when it changes, at most once per ``MIN_GAP_S``), the
number of players online in the lobby (``{"type": "online"}`` to the lobby's watchers), and
the same word on a player's page. The claim of a win (``live.abandon``) asks whether the
opponent has the game open anywhere in the cluster.

Spectators are counted the same way: each process writes who watches each of its games (a
player once however many sockets, a signed-out socket on its own) when that changes, and every
look reads the other processes' lists of the games watched here, so a spectator on one process
counts on every other's page (``{"type": "spectators"}``, sent when the count changes, and to a
socket that starts watching).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Protocol

from ..core.waiting import cancel_and_wait
from ..schemas import OnlineOut, PresenceOut, SpectatorsOut
from .bus import Bus, seen_mark
from .transport import Watcher

log = logging.getLogger(__name__)

POLL_S = 2.0  # how often the seats of watched games are looked up across the cluster
COUNT_S = 5.0  # how often the number of players online is counted again
SETTLE_S = 0.1  # changes that come together (a page reload: close, then open) go as one
MIN_GAP_S = 1.0  # a game's watchers hear of its seats' presence at most once a second
CLOSE_WAIT_S = 5.0  # how long a close waits for the loop to end (a look in flight)


class SeatLike(Protocol):
    @property
    def player_id(self) -> str: ...

    @property
    def kind(self) -> str: ...


class GameLike(Protocol):
    """What presence reads of a live game: its id, seats and this process's watchers."""

    @property
    def id(self) -> str: ...

    @property
    def seats(self) -> Sequence[SeatLike | None]: ...

    @property
    def subscribers(self) -> Collection[Watcher]: ...


def people(game: GameLike) -> list[str | None]:
    """Per seat: the player whose presence is shown (None: an empty seat or a bot)."""
    return [s.player_id if s is not None and s.kind != "bot" else None for s in game.seats]


def presence_message(game_id: str, online: Sequence[bool | None]) -> str:
    return PresenceOut(game=game_id, online=list(online)).model_dump_json()


def spectators_message(game_id: str, count: int) -> str:
    return SpectatorsOut(game=game_id, count=count).model_dump_json()


def watcher_name(conn: Watcher, node: str) -> str:
    """Who ``conn`` is among a game's watchers, cluster-wide: its player, or (signed out) the
    socket itself, named apart from every player and every other process's sockets."""
    return conn.player_id if conn.player_id is not None else f"~{node}/{conn.id}"


def spectators(game: GameLike, watchers: set[str]) -> int:
    """How many of a game's ``watchers`` (``watcher_name``) hold no seat in it."""
    seated = {s.player_id for s in game.seats if s is not None}
    return len(watchers - seated)


class Presence:
    def __init__(self, bus: Bus, lobby: Callable[[], Iterable[Watcher]]) -> None:
        self.bus = bus
        self._lobby = lobby  # the sockets watching the lobby (told the number online)
        self._sockets: dict[str, int] = {}  # player -> this process's open sockets
        self._seeing: dict[str, int] = {}  # seen_mark -> this process's sockets watching
        self._counted: set[int] = set()  # connections counted (each once)
        self._watches: set[tuple[int, str]] = set()  # (connection, game) pairs counted
        self._dirty_players: set[str] = set()
        self._dirty_seen: set[str] = set()
        self._games: dict[str, GameLike] = {}  # games some socket here watches
        self._shown: dict[str, tuple[bool | None, ...]] = {}  # game -> what its watchers hold
        self._online: set[str] = set()  # players online, as last looked up
        self._watchers: dict[str, tuple[str, ...]] = {}  # game -> who watches it here, written
        self._left: set[str] = set()  # games no socket here watches any more (to unwrite)
        self._spectators: dict[str, int] = {}  # game -> the count its watchers hold
        self._unsent: dict[str, set[Watcher]] = {}  # game -> new watchers not sent the count
        self.count: int | None = None  # players online, as last counted
        self._counted_at = 0.0
        self._wake = asyncio.Event()
        self._writing = asyncio.Lock()  # writes in order: a later count never loses to an earlier
        self._task: asyncio.Task[None] | None = None
        self._stopping = False  # closed: the loop ends at its next turn, cancelled or not
        self.messages = 0  # presence messages sent (for tests: no storm)

    # -- this process's sockets (called by the hub) ----------------------------------------
    def connected(self, conn: Watcher) -> None:
        if conn.player_id is None or conn.id in self._counted:
            return
        self._counted.add(conn.id)
        self._add(self._sockets, self._dirty_players, conn.player_id, 1)

    def disconnected(self, conn: Watcher) -> None:
        if conn.player_id is None or conn.id not in self._counted:
            return
        self._counted.discard(conn.id)
        self._add(self._sockets, self._dirty_players, conn.player_id, -1)

    def watching(self, conn: Watcher, game: GameLike) -> None:
        """``conn`` watches ``game`` (it holds the game's state already): it is sent the
        seats' presence as its game's other watchers hold it, or soon."""
        self._games[game.id] = game
        if conn.player_id is not None and (conn.id, game.id) not in self._watches:
            self._watches.add((conn.id, game.id))
            self._add(self._seeing, self._dirty_seen, seen_mark(game.id, conn.player_id), 1)
        shown = self._shown.get(game.id)
        if shown is not None and shown == self._known(game):
            conn.push(presence_message(game.id, shown))
        else:
            self._shown.pop(game.id, None)  # everyone is sent it on the next look
        self._unsent.setdefault(game.id, set()).add(conn)  # the count: with the next look
        self._wake.set()

    def unwatched(self, conn: Watcher, game_id: str, game: GameLike | None) -> None:
        if (conn.id, game_id) in self._watches:
            self._watches.discard((conn.id, game_id))
            assert conn.player_id is not None
            self._add(self._seeing, self._dirty_seen, seen_mark(game_id, conn.player_id), -1)
        unsent = self._unsent.get(game_id)
        if unsent is not None:
            unsent.discard(conn)
        self._wake.set()  # one spectator fewer, perhaps
        if game is None or not game.subscribers:
            self._games.pop(game_id, None)
            self._shown.pop(game_id, None)
            self._spectators.pop(game_id, None)
            self._unsent.pop(game_id, None)
            self._left.add(game_id)

    def _add(self, table: dict[str, int], dirty: set[str], name: str, step: int) -> None:
        before = table.get(name, 0)
        after = max(0, before + step)
        if after:
            table[name] = after
        else:
            table.pop(name, None)
        if (before > 0) != (after > 0):  # only a change of online/offline is written
            dirty.add(name)
            self._wake.set()

    # -- questions ------------------------------------------------------------------------
    def _known(self, game: GameLike) -> tuple[bool | None, ...]:
        """The seats' presence as known here without asking the bus."""
        return tuple(
            None if p is None else (p in self._online or p in self._sockets) for p in people(game)
        )

    async def online(self, players: list[str]) -> set[str]:
        """Those of ``players`` online anywhere (this process's own sockets first; with the
        bus away, as last looked up)."""
        here = {p for p in players if p in self._sockets}
        rest = [p for p in players if p not in here]
        if not rest:
            return here
        try:
            await self._flush()  # this process's own closed sockets no longer count
            return here | await self.bus.players_online(rest)
        except Exception:
            log.warning("presence could not be read from the bus", exc_info=True)
            return here | (self._online & set(rest))

    async def seeing(self, game_id: str, player_id: str) -> bool:
        """Whether ``player_id`` has ``game_id`` open anywhere. With the bus away nobody can
        tell: they count as there (a win is never claimed on a guess)."""
        if self._seeing.get(seen_mark(game_id, player_id), 0) > 0:
            return True
        try:
            await self._flush()  # this process's own closed sockets no longer count
            return bool(await self.bus.players_seeing(game_id, [player_id]))
        except Exception:
            log.warning("presence on %s could not be read from the bus", game_id, exc_info=True)
            return True

    async def of_game(self, game: GameLike) -> list[bool | None]:
        """Per seat: online (True/False), or None for an empty seat or a bot."""
        seated = people(game)
        found = await self.online([p for p in seated if p is not None])
        return [None if p is None else p in found for p in seated]

    async def online_count(self) -> int:
        """Players online in the whole deployment (counted again every ``COUNT_S`` at most)."""
        if self.count is None or time.monotonic() - self._counted_at > COUNT_S:
            await self._count()
        assert self.count is not None
        return self.count

    async def _count(self) -> None:
        self._counted_at = time.monotonic()  # tried once per COUNT_S, even if it fails
        try:
            await self._flush()
            self.count = await self.bus.online_count()
        except Exception:
            log.warning("players online could not be counted", exc_info=True)
            if self.count is None:
                self.count = len(self._sockets)  # at least this process's own

    # -- the loop -------------------------------------------------------------------------
    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run())

    async def close(self) -> None:
        """Stop the loop: cancelled, and told to stop, since a cancel can be lost on the way
        (redis-py's write of a command, under asyncio.wait_for, swallows one that lands in the
        turn the write ends, on Python 3.11); waited for ``CLOSE_WAIT_S`` at most."""
        self._stopping = True
        self._wake.set()
        task, self._task = self._task, None
        if task is None:
            return
        if await cancel_and_wait({task}, CLOSE_WAIT_S):
            log.warning("the presence loop did not stop within %g s", CLOSE_WAIT_S)
        elif not task.cancelled() and task.exception() is not None:
            log.warning("the presence loop failed", exc_info=task.exception())

    async def _run(self) -> None:
        """Write this process's changes and look up the watched games' seats: when something
        changed here (after ``SETTLE_S``), and every ``POLL_S`` for the other processes'
        changes (and their deaths, which nobody announces). Ends once ``close`` asks, even if
        its cancel was lost in a bus call (the task then shows "cancelling" and would otherwise
        poll for ever: each expiry of the wait's own timeout is a TimeoutError again)."""
        while not self._stopping:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns the wake instead
            # of a cancel that comes in the same turn, and the loop would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(POLL_S):
                    await self._wake.wait()
            if self._stopping:
                return
            await asyncio.sleep(SETTLE_S)
            self._wake.clear()
            try:
                await self.look()
            except asyncio.CancelledError:
                raise
            except Exception:  # the bus away for a moment: the next look tries again
                log.warning("presence could not be looked up", exc_info=True)
            await asyncio.sleep(MIN_GAP_S - SETTLE_S)

    async def look(self) -> None:
        """One round: write, read, and tell the watchers and the lobby what changed."""
        await self._flush()
        games = list(self._games.values())
        wanted = sorted({p for g in games for p in people(g) if p is not None})
        self._online = await self.online(wanted) if wanted else set()
        for game in games:
            now = self._known(game)
            if self._shown.get(game.id) == now or not game.subscribers:
                continue
            self._shown[game.id] = now
            text = presence_message(game.id, now)
            self.messages += 1
            for conn in list(game.subscribers):
                conn.push(text)
        await self._count_spectators(games)
        lobby = list(self._lobby())
        if lobby and time.monotonic() - self._counted_at >= COUNT_S:
            before = self.count
            await self._count()
            if self.count != before:
                text = OnlineOut(players=self.count).model_dump_json()
                for conn in lobby:
                    conn.push(text)

    async def _count_spectators(self, games: list[GameLike]) -> None:
        """Write who watches the games here (where it changed), read who watches them on the
        other processes, and send each game's watchers its spectator count if it changed (a
        new watcher: in any case)."""
        node = self.bus.node
        here: dict[str, set[str]] = {}
        changed: dict[str, list[str]] = {}
        for game in games:
            if not game.subscribers:
                continue
            names = {watcher_name(conn, node) for conn in game.subscribers}
            here[game.id] = names
            written = tuple(sorted(names))
            if self._watchers.get(game.id) != written:
                changed[game.id] = list(written)
        self._left.difference_update(here)
        self._left.intersection_update(self._watchers)  # never written: nothing to unwrite
        gone = set(self._left)
        changed.update({gid: [] for gid in gone})
        if changed:  # if this fails, the next look writes it all again
            await self.bus.watchers_put(changed)
            for gid, written_now in changed.items():
                if written_now:
                    self._watchers[gid] = tuple(written_now)
                else:
                    self._watchers.pop(gid, None)
            self._left -= gone
        found = await self.bus.watchers_of(sorted(here))
        for game in games:
            if game.id not in here:
                continue
            count = spectators(game, here[game.id] | found.get(game.id, set()))
            unsent = self._unsent.pop(game.id, set())
            if self._spectators.get(game.id) != count:
                self._spectators[game.id] = count
                unsent = set(game.subscribers)
            if unsent:
                text = spectators_message(game.id, count)
                for conn in unsent:
                    if conn in game.subscribers:
                        conn.push(text)

    async def _flush(self) -> None:
        """Write the counts that went from 0 to 1 or back since the last write."""
        async with self._writing:
            if not self._dirty_players and not self._dirty_seen:
                return
            players, self._dirty_players = self._dirty_players, set()
            seen, self._dirty_seen = self._dirty_seen, set()
            try:
                await self.bus.presence_put(
                    {p: self._sockets.get(p, 0) for p in players},
                    {m: self._seeing.get(m, 0) for m in seen},
                )
            except Exception:
                self._dirty_players |= players  # written with the next round
                self._dirty_seen |= seen
                raise
