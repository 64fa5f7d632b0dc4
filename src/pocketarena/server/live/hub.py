"""The hub, the game runner: every game in play here lives in memory, and only the hub
changes it. Under the game's lock, with its newest stored version in hand, ``session`` says
what a request does (no I/O); the writer stores it, naming the version it replaces; only
then is it adopted and published: to the watchers here (``watchers``, behind the small
protocol of ``transport``) and, in a cluster, to the other processes (``outbox``). So a
change that is refused, illegal or fails to save leaves nothing behind, and every
acknowledged move is on disk.

Beside it, each taking the hub as ``games.Runner``: new games, joins and rematches
(``seating``), stored games made live (``loading``), the bots' turns and jobs
(``botjobs``), catching up with the other processes (``cluster``), the sweeps of games past
their time (``sweeps``), notices after a change (``bell``), the lobby (``lobby``).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from pocketarena.core import State
from pocketarena.i18n import _

from .. import catalog
from ..core.config import Settings
from ..core.waiting import cancel_and_wait, task_names
from ..models import utcnow
from ..store import ConflictError, Store
from . import loading, lobby, session, sweeps
from .bell import Bell
from .botjobs import BotJobs
from .bots import BotRunner
from .bus import PLAYERS, Bus, MemoryBus
from .cluster import Cluster
from .games import LiveGame, moment
from .jobs import BotQueue
from .lobby import Lobby
from .outbox import Outbox
from .presence import Presence
from .seating import Seating
from .session import GAME_ID, GameError, abandoned_values
from .watchers import Watchers
from .writer import GameWriter

log = logging.getLogger(__name__)
T = TypeVar("T")
# How long a close waits for its cancelled tasks: one whose cancel a call lost (redis-py's
# write of a command, see core.waiting.cancel_lost) would otherwise hold the shutdown for ever.
CLOSE_WAIT_S = 5.0


def _accepts(answer: str) -> bool:
    if answer not in ("accept", "decline"):
        raise GameError("bad_request", _("answer must be offer, accept or decline"))
    return answer == "accept"


class Hub:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        bots: BotRunner,
        bus: Bus | None = None,
        jobs: BotQueue | None = None,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        # The date as games see it (moves, deadlines): tests pass a clock of their own to
        # play a turn-based week without waiting for it.
        self.now = now
        self.store = store
        self.settings = settings
        self.bots = bots
        self.games: dict[str, LiveGame] = {}
        sqlite = store.engine.dialect.name == "sqlite"
        # SQLite has one writer at a time: one database thread keeps writes in order.
        self._db = ThreadPoolExecutor(max_workers=1 if sqlite else 8, thread_name_prefix="db")
        self.writer = GameWriter(store, self._db)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        # The cluster (live.cluster): one process alone uses a MemoryBus, which does what the
        # cluster's parts do with no other process; ``clustered`` is asked only where being
        # alone really differs (each place says how).
        self.bus: Bus = bus or MemoryBus()
        self.clustered = self.bus.shared
        # What this process tells the others, in order, by one task (live.outbox).
        self.outbox = Outbox(self.bus, jobs, partial(lobby.records, self.games), self.spawn)
        updates = settings.lobby_updates_per_s
        self.lobby = Lobby(self.games, self.bus, self.outbox, self.spawn, updates)
        self.botjobs = BotJobs(self, bots, jobs, self.outbox)  # in a cluster: bots' moves as jobs
        self.bell = Bell(self, bots)  # notices and puzzles after a change
        # the sockets here, and what they watch (live.transport: the hub knows no WebSocket)
        self.watchers = Watchers(self, self.lobby.board, self.outbox, self.botjobs)
        self.cluster = Cluster(self, self.outbox, self.lobby.mirror, self.botjobs, self.watchers)
        self.seating = Seating(self, self.bell, self.cluster)  # new games, joins, rematches
        # who has a socket open, here and on the other processes (live.presence)
        self.presence = Presence(self.bus, lambda: self.watchers.lobby)

    # -- plumbing --------------------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        # The caller's context goes along (the reader's language for a refusal worded there).
        context = contextvars.copy_context()
        return await loop.run_in_executor(self._db, context.run, partial(fn, *args, **kwargs))

    @property
    def closing(self) -> bool:
        return self._closing

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def start(self) -> None:
        """Resume every unfinished game from the database (untimed games survive restarts)."""
        # Which bot levels each game offers is found by building each bot once: do it now, on a
        # worker thread, rather than on the event loop when the first page asks.
        await asyncio.to_thread(lambda: [catalog.bot_levels(g) for g in catalog.game_ids()])
        await self.bus.start()
        self.presence.start()
        await self.cluster.start()  # alone: an empty lobby read from the bus, no bot queue
        if self.clustered:  # games load where asked for; alone, every timer and bot is here
            return  # (sweeps.clocks finds a cluster's forgotten clocks)
        await sweeps.waiting(self)  # games nobody joined in time are not brought back
        ids = await self.db(self.store.unfinished_game_ids)
        for gid in ids[: self.settings.max_live_games]:
            try:
                await self.get(gid)
            except GameError as e:
                log.error("could not resume game %s: %s", gid, e.message)

    async def close(self) -> None:
        self._closing = True
        self.lobby.mirror.closed = True
        await self.botjobs.close()
        await self.outbox.drain(2.0)  # tell the others what changed here last (a moment)
        self.lobby.close()
        await self.presence.close()
        for live in self.games.values():
            if live.flag_timer:
                live.flag_timer.cancel()
            if live.bot_task:
                live.bot_task.cancel()
        still = await cancel_and_wait(list(self._tasks), CLOSE_WAIT_S)
        if still:  # left running: the database threads below still end when their calls do
            log.warning(
                "%d task(s) did not end within %g s of their cancel: %s",
                len(still),
                CLOSE_WAIT_S,
                task_names(still),
            )
        try:  # the clocks ran until now: a restart charges this much and no more
            await self.heartbeat()
        except Exception:
            log.exception("the last heartbeat could not be written")
        with contextlib.suppress(Exception):
            await self.bus.close()
        self._db.shutdown(wait=True)

    async def heartbeat(self) -> None:
        """Note in the database that the server runs (clocks are charged up to the last one)."""
        await self.db(self.store.beat, loading.HEARTBEAT, utcnow())

    # -- loading -----------------------------------------------------------------------------
    async def get(self, game_id: str, fresh: bool = False) -> LiveGame:
        """The live game with this id, loaded from the database if needed. ``fresh``: in a
        cluster, read it again if another process changed it (otherwise its watchers here
        hear of the change a moment later)."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise GameError("unknown_game", _("no game has that id"))
        live = self.games.get(game_id)
        if live is not None:
            # a game no socket here watches is not followed, so another process may
            # have changed it without this one hearing: read it again (alone, none can)
            if (fresh or not live.subscribers) and self.clustered:
                async with self.locked(live):
                    pass
            return live
        pending = self._loading.get(game_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[LiveGame] = asyncio.get_running_loop().create_future()
        self._loading[game_id] = future
        try:
            live = await self._load(game_id)
        except Exception as e:
            future.set_exception(e)
            future.exception()  # mark it retrieved: this caller raises it below
            raise
        except BaseException:
            future.cancel()
            raise
        else:
            future.set_result(live)
            return live
        finally:
            del self._loading[game_id]

    async def _load(self, game_id: str) -> LiveGame:
        row = await self.db(self.store.load_game, game_id)
        if row is None:
            raise GameError("unknown_game", _("there is no game %(id)r", id=game_id))
        live = await loading.build(self, row)
        await loading.charge_time_before_stop(self, live, row)
        if live.status == "finished":  # offers made before it left memory, here or elsewhere
            live.rematch_offers = await self.cluster.offers(live, [])
        self.games[game_id] = live
        if live.status == "active":
            if live.clock is not None:
                live.clock.switch(live.actor())
            self.after_change(live, announce=False)
            self.botjobs.queue_move(live)  # in case the process that was to queue it died first
        return live

    async def abandon(self, live: LiveGame) -> None:
        """End a game nobody joined (under its lock)."""
        await self.save(live, abandoned_values(live.version))
        live.status = "aborted"
        live.termination = "abandoned"
        live.version += 1
        self.broadcast(live)

    # -- playing -------------------------------------------------------------------------------
    async def move(self, player_id: str | None, game_id: str, text: Any, version: Any) -> LiveGame:
        return await self._act(
            game_id, partial(session.move, player_id=player_id, text=text, version=version)
        )

    async def throw(self, player_id: str | None, game_id: str, version: Any) -> LiveGame:
        return await self._act(
            game_id, partial(session.throw, player_id=player_id, version=version)
        )

    async def resign(self, player_id: str | None, game_id: str) -> LiveGame:
        return await self._act(game_id, partial(session.resign, player_id=player_id), timed=False)

    async def abort(self, player_id: str | None, game_id: str) -> LiveGame:
        """Call the game off before each side has moved: no result, no rating."""
        return await self._gesture(game_id, partial(session.abort, player_id=player_id))

    async def draw(self, player_id: str | None, game_id: str, answer: str) -> LiveGame:
        """Offer a draw (``offer``; accepting one already offered), or ``accept`` or
        ``decline`` the opponent's offer."""
        if answer == "offer":
            return await self._gesture(game_id, partial(session.offer_draw, player_id=player_id))
        return await self._gesture(
            game_id,
            partial(session.answer_draw, player_id=player_id, accept=_accepts(answer)),
        )

    async def takeback(self, player_id: str | None, game_id: str, answer: str) -> LiveGame:
        """Ask to take back your last move (``offer``), or ``accept`` or ``decline`` the
        opponent's request."""
        if answer == "offer":
            return await self._gesture(game_id, partial(session.ask_takeback, player_id=player_id))
        return await self._gesture(
            game_id,
            partial(session.answer_takeback, player_id=player_id, accept=_accepts(answer)),
        )

    async def _act(
        self, game_id: str, make: Callable[..., session.Change], timed: bool = True
    ) -> LiveGame:
        """Under the game's lock, after the time check (``timed``), the change that
        ``make(table, now=, wall=)`` says: written, then adopted and sent."""
        live = await self.get(game_id)
        async with self.locked(live):
            if timed:
                await self.flag_if_due(live)
            await self.carry_out(live, make(live, now=moment(live), wall=self.now()))
        return live

    async def _gesture(self, game_id: str, make: Callable[..., session.Change]) -> LiveGame:
        """A gesture between the players, made as a move is (the lobby hears if it ended)."""
        live = await self._act(game_id, make)
        if live.status != "active":
            self.lobby_changed(live)
        return live

    async def play(self, live: LiveGame, new: State) -> None:
        """Adopt ``new`` (one action past the live state) after resolving the chance nodes
        nobody throws in person; end the game if it is over."""
        await self.carry_out(live, session.advance(live, new, moment(live), self.now()))

    async def finish(
        self, live: LiveGame, new: State, winner: int | None, termination: str
    ) -> None:
        """The game ends at ``new``."""
        change = session.finish(live, new, winner, termination, moment(live), self.now())
        await self.carry_out(live, change)

    async def carry_out(self, live: LiveGame, change: session.Change) -> None:
        """Write ``change`` (naming the version it replaces), then make it and tell everyone;
        a game that ends has its result and ratings written together."""
        done = change.finish
        before = self.bell.awaited(live)
        if done is None:
            await self.save(live, change.values)
        else:
            write = partial(self.store.finish_game, live.id, live.version, change.values)
            try:
                changes = await self.db(write, live.game.ID, done.rated, done.winner)
            except ConflictError as e:
                raise GameError("conflict", e.worded()) from None
            except Exception:
                log.exception("finishing game %s failed", live.id)
                raise GameError(
                    "unavailable", _("the result could not be saved; try again")
                ) from None
        session.adopt(live, change)
        live.last_activity = time.monotonic()
        if done is not None and changes:
            live.rating_changes = [c.to_json() for c in changes]
            for seat in live.seats:
                if seat is not None:
                    seat.rating = await self.db(self.store.rating, seat.player_id, live.game.ID)
        self.after_change(live)
        if done is not None:
            self.lobby_changed(live)
        self.bell.changed(live, before)

    async def save(self, live: LiveGame, values: dict[str, Any]) -> None:
        try:
            await self.writer.save(live.id, live.version, values)
        except ConflictError as e:
            raise GameError("conflict", e.worded()) from None
        except Exception:
            log.exception("saving game %s failed", live.id)
            raise GameError(
                "unavailable", _("the move could not be saved; nothing changed, try again")
            ) from None

    # -- after every change: timers, bots, broadcast ----------------------------------------------
    def after_change(self, live: LiveGame, announce: bool = True) -> None:
        """``announce``: the change was made here (not read from the database after another
        process made it), so the other processes are told and a bot's move is queued."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        self.broadcast(live, announce)
        if live.status != "active" or self._closing:
            return
        if live.clock is not None and live.clock.running is not None:
            delay = max(0.0, live.clock.left_ms(live.clock.running) / 1000) + 0.02
            live.flag_timer = asyncio.get_running_loop().call_later(
                delay, lambda: self.spawn(self.flag_check(live))
            )
        self.botjobs.changed(live, announce)

    async def flag_check(self, live: LiveGame) -> bool:
        """Whether this call ended the game on time."""
        try:
            async with self.locked(live):
                return await self.flag_if_due(live)
        except GameError as e:  # another process ended it first, or the database is away
            log.info("time check of %s: %s", live.id, e.message)
            return False

    async def flag_if_due(self, live: LiveGame) -> bool:
        """Lose on time: checked on every action, by a timer set for the exact moment, and
        for turn-based games by the sweep of due deadlines. Whether it ended the game."""
        change = session.flag(live, moment(live), self.now())
        if change is not None:
            await self.carry_out(live, change)
        return change is not None

    # -- publishing ----------------------------------------------------------------------------------
    def broadcast(self, live: LiveGame, announce: bool = True) -> None:
        """Send every watcher the change; in a cluster the other processes hear of it too
        (``announce``)."""
        if self.clustered and announce:  # alone: nobody to tell, nor to read its lobby entry
            self.outbox.changed(live.id, live.version)
        self.watchers.send(live)

    # -- the lobby -------------------------------------------------------------------------------------
    @property
    def lobby_messages(self) -> int:
        return self.lobby.board.messages

    def lobby_view(self) -> dict[str, Any]:
        """The lobby's two lists (see ``views.lobby_lists``). In a cluster: every process's
        games, as they wrote them to the bus."""
        return self.lobby.board.view()

    def lobby_changed(self, live: LiveGame | None = None) -> None:
        """Something the lobby shows changed (in ``live``, if given): its watchers, here and
        in a cluster on every process, get an update soon."""
        self.lobby.changed(live)

    def player_renamed(self, player_id: str, name: str, announce: bool = True) -> None:
        """``announce``: renamed here, so the other processes are told (alone: nobody)."""
        if announce:
            self.outbox.tell(PLAYERS, {"player": player_id, "name": name})
        for live in self.games.values():
            if session.rename(live, player_id, name):
                self.broadcast(live)

    # -- for what travels beside the games (chat) ------------------------------------------------------
    def held(self, game_id: str) -> LiveGame | None:
        return self.games.get(game_id)

    async def announce(self, channel: str, message: dict[str, Any], game_id: str) -> None:
        await self.bus.publish(channel, {**message, "origin": self.bus.node}, game_id)

    def hear(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        self.bus.subscribe(channel, handler)

    # -- the lock ------------------------------------------------------------------------------------
    def locked(self, live: LiveGame) -> _Locked:
        """Hold the game's lock, with its newest stored version in hand (in a cluster another
        process may have moved it on: ``Cluster.refresh``)."""
        return _Locked(self, live)

    def forget(self, live: LiveGame) -> None:
        """Drop the game from memory (it stays stored) and stop its timer."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        self.games.pop(live.id, None)


class _Locked:
    """``Hub.locked``: a class rather than a generator under ``asynccontextmanager``, as it is
    entered for every move (half the calls)."""

    __slots__ = ("hub", "live")

    def __init__(self, hub: Hub, live: LiveGame) -> None:
        self.hub = hub
        self.live = live

    async def __aenter__(self) -> None:
        live = self.live
        await live.lock.acquire()
        try:
            if self.hub.clustered:  # alone, nobody else writes the store: a read would say so
                await self.hub.cluster.refresh(live)
        except BaseException:
            live.lock.release()
            raise

    async def __aexit__(self, *_exc: object) -> None:
        self.live.lock.release()
