"""The hub: every game in play lives here, in memory, and only the hub changes it.

A change is made on a copy of the state, written to the database (naming the version it
replaces), and only then adopted and sent to everyone watching. So a change that is refused,
illegal or fails to save leaves nothing behind, and every acknowledged move is on disk.

The hub is the asynchronous shell around that: it locks a game, loads and saves it, publishes
the change, keeps the timers, bots and lobby going. What a request does to a game is decided
by ``session`` (no I/O), and what watchers are sent is built by ``views``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from functools import partial
from typing import Any, TypeVar

from sqlalchemy.exc import IntegrityError

from pocketarena.core import Game, State
from pocketarena.explore import EXPLORABLE
from pocketarena.fair import FairChance
from pocketarena.i18n import _

from .. import blunder_puzzles, catalog, notices
from ..core.config import Settings
from ..core.security import new_game_id, new_invite_token
from ..models import Player, utcnow
from ..schemas import LobbyItem
from ..store import ConflictError, Store
from . import loading, lobby, session, sweeps, views
from .botjobs import BotJobs
from .bots import BotRunner, bot_seed
from .bus import GAMES, LOBBY, PLAYERS, SESSIONS, Bus, MemoryBus
from .clock import Clock
from .cluster import Cluster
from .connection import Connection
from .games import LiveGame, moment
from .jobs import BotQueue
from .lobby import LobbyBoard, LobbyMirror
from .outbox import Outbox
from .presence import Presence
from .session import (
    GAME_ID,
    GameError,
    Seat,
    abandoned_values,
    may_be_rated,
)
from .writer import GameWriter

# The names the routes and the app know the live layer by.
__all__ = [
    "GameError",
    "Hub",
    "LiveGame",
    "Seat",
    "abandoned_values",
]

log = logging.getLogger(__name__)
T = TypeVar("T")


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
        self.board = LobbyBoard(self._lobby_items, settings.lobby_updates_per_s)
        self.lobby = self.board.watchers  # the connections that asked for the lobby
        sqlite = store.engine.dialect.name == "sqlite"
        # SQLite has one writer at a time: one database thread keeps writes in order.
        self._db = ThreadPoolExecutor(max_workers=1 if sqlite else 8, thread_name_prefix="db")
        self.writer = GameWriter(store, self._db)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.connections: set[Connection] = set()
        # The cluster (live.cluster): one process alone uses a MemoryBus and behaves as if
        # there were no bus at all.
        self.bus: Bus = bus or MemoryBus()
        self.clustered = self.bus.shared
        self.mirror = LobbyMirror(self.bus, self.spawn, self._lobby_soon)  # others' entries
        # What this process tells the others, in order, by one task (live.outbox).
        self.outbox = Outbox(self.bus, jobs, partial(lobby.records, self.games), self.spawn)
        self.botjobs = BotJobs(self, jobs, self.outbox)  # in a cluster: bots' moves as jobs
        self.cluster = Cluster(self, self.outbox, self.mirror, self.botjobs)  # others' changes
        # presence: who has a socket open, here and on the other processes (live.presence)
        self.presence = Presence(self.bus, lambda: self.lobby)

    # -- plumbing --------------------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(fn, *args, **kwargs))

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
        self.presence.start()  # presence
        if self.clustered:
            await self.cluster.start()
            return  # games load where they are asked for; sweep_clocks finds the forgotten
        await sweeps.waiting(self)  # games nobody joined in time are not brought back
        ids = await self.db(self.store.unfinished_game_ids)
        for gid in ids[: self.settings.max_live_games]:
            try:
                await self.get(gid)
            except GameError as e:
                log.error("could not resume game %s: %s", gid, e.message)

    async def close(self) -> None:
        self._closing = True
        self.mirror.closed = True
        await self.botjobs.close()
        await self.outbox.drain(2.0)  # tell the others what changed here last (a moment)
        self.board.close()
        await self.presence.close()  # presence
        for live in self.games.values():
            if live.flag_timer:
                live.flag_timer.cancel()
            if live.bot_task:
                live.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(BaseException):
                await task
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
            # per-game channels: a game no socket here watches is not followed, so another
            # process may have changed it without this one hearing: read it again
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
        if self.clustered and live.status == "finished":
            live.rematch_offers = await self.cluster.offers(live, [])
        self.games[game_id] = live
        if live.status == "active":
            if live.clock is not None:
                live.clock.switch(live.actor())
            self.after_change(live, announce=False)
            self.botjobs.queue_move(live)  # in case the process that was to queue it died first
        return live

    # -- creating and joining ------------------------------------------------------------------
    async def create(
        self,
        creator_id: str,
        game_id: str,
        options: dict[str, Any],
        mode: str,
        seat: int | None = None,
        bot: str | None = None,
        clock: tuple[int, int] | None = None,
        rated: bool = True,
        rematch_of: str | None = None,
        creator_addr: str | None = None,
        days_per_move: int | None = None,
    ) -> LiveGame:
        """A new game. ``creator_addr`` (a keyed hash of the client's address) is given for a
        game a client asks for: it is then held to the open-game caps."""
        if len(self.games) >= self.settings.max_live_games:
            self._evict_idle()
            if len(self.games) >= self.settings.max_live_games:
                raise GameError(
                    "unavailable", _("the server is full right now; try again in a minute")
                )
        game = session.check_new_game(game_id, options, mode, seat, bot, clock, days_per_move)
        if creator_addr is not None and (mode in ("seek", "friend") or clock is not None):
            await self._check_open_games(creator_id, creator_addr)
        creator_seat = secrets.randbelow(2) if seat is None else seat
        creator = await self.db(self.store.ensure_guest, creator_id)
        seats = await self._seats(creator, game, mode, creator_seat, bot)
        started = seats[0] is not None and seats[1] is not None
        rated = session.rated_at_start(rated, seats, creator.kind)
        gid = new_game_id()
        while gid in self.games or await self.db(self.store.load_game, gid) is not None:
            gid = new_game_id()
        live = LiveGame(
            id=gid,
            game=game,
            state=game.new_initial_state(),
            mode=mode,
            rated=rated,
            creator_id=creator.id,
            creator_seat=creator_seat,
            seats=seats,
            invite_token=new_invite_token() if mode == "friend" else None,
            chance=FairChance(gid) if game.CHANCE else None,
            clock=Clock(clock[0], clock[1]) if clock else None,
            rematch_of=rematch_of,
            creator_addr=creator_addr,
            created_at=self.now(),
            days_per_move=days_per_move,
        )
        if started:
            live.status = "active"
            live.started_at = self.now()
        row = session.new_record(live)
        await self.db(self.store.insert_game, row)
        live.deadline = row.deadline
        self.games[gid] = live
        if started:
            await self._begin(live)
        self.lobby_changed(live)
        return live

    async def create_paired(
        self,
        gid: str,
        game_id: str,
        options: dict[str, Any],
        players: tuple[str, str],
        clock: tuple[int, int] | None,
        rated: bool,
        creator_id: str,
        days_per_move: int | None = None,
    ) -> LiveGame | None:
        """A tournament's game between two given players (the first sits first), under the id
        its pairing fixed. None when a game of that id exists already (another process made
        it): a board's game is created once."""
        if gid in self.games:
            return None
        try:
            game = catalog.load_game(game_id, options)
        except ValueError as e:
            raise GameError("bad_request", str(e)) from None
        found = await self.db(self.store.get_players, list(players))
        if any(pid not in found for pid in players):
            raise GameError("bad_request", _("a paired player is unknown"))
        seats: list[Seat | None] = [
            loading.seat(found[pid], await self.db(self.store.rating, pid, game.ID))
            for pid in players
        ]
        live = LiveGame(
            id=gid,
            game=game,
            state=game.new_initial_state(),
            mode="tourney",
            rated=rated and may_be_rated(seats),
            creator_id=creator_id,
            creator_seat=0,
            seats=seats,
            chance=FairChance(gid) if game.CHANCE else None,
            clock=Clock(clock[0], clock[1]) if clock else None,
            created_at=self.now(),
            days_per_move=days_per_move,
        )
        live.status = "active"
        live.started_at = self.now()
        row = session.new_record(live)
        try:
            await self.db(self.store.insert_game, row)
        except IntegrityError:
            return None
        live.deadline = row.deadline
        self.games[gid] = live
        await self._begin(live)
        self.lobby_changed(live)
        return live

    async def _seats(
        self, creator: Player, game: Game, mode: str, creator_seat: int, bot: str | None
    ) -> list[Seat | None]:
        """The seats of a new game: the creator's, and the bot's or the creator's again."""
        seats: list[Seat | None] = [None, None]
        seats[creator_seat] = loading.seat(
            creator, await self.db(self.store.rating, creator.id, game.ID)
        )
        if mode == "bot" and bot is not None:
            bot_player = await self.db(self.store.ensure_bot, bot, catalog.stored_bot_name(bot))
            seats[1 - creator_seat] = loading.seat(
                bot_player, await self.db(self.store.rating, bot_player.id, game.ID)
            )
        elif mode == "local":
            seats[1 - creator_seat] = seats[creator_seat]
        return seats

    async def _check_open_games(self, player_id: str, addr: str) -> None:
        """At most ``max_open_games`` games waiting for an opponent or running a clock per
        player, and ``address_max_open_games`` per address."""
        s = self.settings
        if await self.db(self.store.open_games, player_id=player_id) >= s.max_open_games:
            raise GameError(
                "too_many_games",
                _(
                    "you have %(count)s games waiting for an opponent or on the clock; "
                    "finish or cancel one first",
                    count=s.max_open_games,
                ),
            )
        if await self.db(self.store.open_games, addr=addr) >= s.address_max_open_games:
            raise GameError(
                "too_many_games",
                _(
                    "%(count)s games opened from your address are waiting for an "
                    "opponent or on the clock; finish or cancel one first",
                    count=s.address_max_open_games,
                ),
            )

    async def _begin(self, live: LiveGame) -> None:
        """First moment with both seats taken: resolve opening chance nodes, start the clock."""
        async with self.locked(live):
            change = session.begin(live, moment(live), self.now())
            if change is not None:
                await self._carry_out(live, change)
            else:
                session.start_clock(live, moment(live))
                self.after_change(live)
                self._notify_turn(live, None)
        self._notify_started(live)

    async def join(self, player_id: str, game_id: str, invite: str | None = None) -> LiveGame:
        live = await self.get(game_id)
        async with self.locked(live):
            seat = session.joining_seat(live, player_id, invite)
            if seat is None:
                return live
            player = await self.db(self.store.ensure_guest, player_id)
            seats = list(live.seats)
            seats[seat] = loading.seat(
                player, await self.db(self.store.rating, player.id, live.game.ID)
            )
            started_at = self.now()
            rated = live.rated and may_be_rated(seats)  # a guest joining plays it unrated
            values = {
                f"seat{seat}_id": player.id,
                "status": "active",
                "rated": rated,
                "started_at": started_at,
                "version": live.version + 1,
                **session.turn_values(live, live.state, started_at, seats),
            }
            await self._save(live, values)
            live.deadline = values["deadline"]
            live.seats = seats
            live.status = "active"
            live.rated = rated
            live.started_at = started_at
            live.version += 1
        self.lobby_changed(live)
        await self._begin(live)
        return live

    async def cancel(self, player_id: str, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        async with self.locked(live):
            if live.creator_id != player_id:
                raise GameError(
                    "forbidden", _("only the player who opened this game can cancel it")
                )
            if live.status != "waiting":
                raise GameError(
                    "not_active", _("only a game still waiting for an opponent can be cancelled")
                )
            await self.abandon(live)
        self.lobby_changed(live)
        return live

    async def abandon(self, live: LiveGame) -> None:
        """End a game nobody joined (under its lock)."""
        await self._save(live, abandoned_values(live.version))
        live.status = "aborted"
        live.termination = "abandoned"
        live.version += 1
        self.broadcast(live)

    # -- playing -------------------------------------------------------------------------------
    async def move(self, player_id: str | None, game_id: str, text: Any, version: Any) -> LiveGame:
        live = await self.get(game_id)
        async with self.locked(live):
            await self._flag_if_due(live)
            change = session.move(live, player_id, text, version, moment(live), self.now())
            await self._carry_out(live, change)
        return live

    async def throw(self, player_id: str | None, game_id: str, version: Any) -> LiveGame:
        live = await self.get(game_id)
        async with self.locked(live):
            await self._flag_if_due(live)
            change = session.throw(live, player_id, version, moment(live), self.now())
            await self._carry_out(live, change)
        return live

    async def resign(self, player_id: str | None, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        async with self.locked(live):
            await self._carry_out(live, session.resign(live, player_id, moment(live), self.now()))
        return live

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

    async def _gesture(self, game_id: str, make: Callable[..., session.Change]) -> LiveGame:
        """A gesture between the players (``make(table, now=, wall=)`` says what it does),
        after the time check, made as a move is: written, then adopted and sent."""
        live = await self.get(game_id)
        async with self.locked(live):
            await self._flag_if_due(live)
            change = make(live, now=moment(live), wall=self.now())
            await self._carry_out(live, change)
        if live.status != "active":
            self.lobby_changed(live)
        return live

    async def rematch(self, player_id: str | None, game_id: str) -> LiveGame:
        """Offer a rematch; it starts when the opponent offers too (a bot always agrees)."""
        live = await self.get(game_id)
        if live.mode == "tourney":
            raise GameError("not_active", _("a tournament's games have no rematch"))
        async with self.locked(live):
            mine = session.rematch_offer(live, player_id)
            if live.rematch_id or player_id is None:
                return live
            live.rematch_offers.update(mine)
            if self.clustered:  # the other player may be on another process
                live.rematch_offers = await self.cluster.offers(live, mine)
                self.outbox.tell(
                    GAMES, {"id": live.id, "offers": sorted(live.rematch_offers)}, live.id
                )
            if not session.rematch_agreed(live, mine):
                self.broadcast(live)
                return live
            terms = session.rematch_terms(live, player_id)
            new = await self.create(
                terms.creator_id,
                live.game.ID,
                dict(live.game.options),
                mode=terms.mode,
                seat=terms.seat,
                bot=terms.bot,
                clock=terms.clock,
                rated=terms.rated,
                rematch_of=live.id,
                days_per_move=terms.days_per_move,
            )
            if terms.opponent_id is not None:
                await self.join(terms.opponent_id, new.id, new.invite_token)
            await self._save(live, {"rematch_id": new.id, "version": live.version + 1})
            live.rematch_id = new.id
            live.version += 1
            self.broadcast(live)
        return live

    async def _play(self, live: LiveGame, new: State) -> None:
        """Adopt ``new`` (one action past the live state) after resolving the chance nodes
        nobody throws in person; end the game if it is over."""
        await self._carry_out(live, session.advance(live, new, moment(live), self.now()))

    async def _save(self, live: LiveGame, values: dict[str, Any]) -> None:
        try:
            await self.writer.save(live.id, live.version, values)
        except ConflictError as e:
            raise GameError("conflict", str(e)) from None
        except Exception:
            log.exception("saving game %s failed", live.id)
            raise GameError(
                "unavailable", _("the move could not be saved; nothing changed, try again")
            ) from None

    async def _commit(self, live: LiveGame, new: State) -> None:
        """The game goes on at ``new``."""
        await self._carry_out(live, session.step(live, new, moment(live), self.now()))

    async def _finish(
        self, live: LiveGame, new: State, winner: int | None, termination: str
    ) -> None:
        """The game ends at ``new``."""
        change = session.finish(live, new, winner, termination, moment(live), self.now())
        await self._carry_out(live, change)

    async def _carry_out(self, live: LiveGame, change: session.Change) -> None:
        """Write ``change`` (naming the version it replaces), then make it and tell everyone;
        a game that ends has its result and ratings written together."""
        done = change.finish
        before = self._awaited(live)
        if done is None:
            await self._save(live, change.values)
            session.adopt(live, change)
            live.last_activity = time.monotonic()
            self.after_change(live)
            self._notify_turn(live, before)
            return
        try:
            changes = await self.db(
                self.store.finish_game,
                live.id,
                live.version,
                change.values,
                live.game.ID,
                done.rated,
                done.winner,
            )
        except ConflictError as e:
            raise GameError("conflict", str(e)) from None
        except Exception:
            log.exception("finishing game %s failed", live.id)
            raise GameError("unavailable", _("the result could not be saved; try again")) from None
        session.adopt(live, change)
        live.last_activity = time.monotonic()
        if changes:
            live.rating_changes = [c.to_json() for c in changes]
            for seat in live.seats:
                if seat is not None:
                    seat.rating = await self.db(self.store.rating, seat.player_id, live.game.ID)
        self.after_change(live)
        self.lobby_changed(live)
        self._notify_turn(live, before)
        if live.game.ID in EXPLORABLE:  # its blunders feed the puzzles
            moves = [a.text for a in live.state.history]
            self.spawn(self._blunder_puzzles(live.id, live.game.ID, dict(live.game.options), moves))

    # -- the bell (server.notices): queued after the change is written, never in its way ------
    def _awaited(self, live: LiveGame) -> str | None:
        """The person whose move a turn-based game awaits (None: nobody, or not turn-based)."""
        if live.days_per_move is None or live.status != "active":
            return None
        return session.turn_values(live, live.state, self.now())["turn_id"]  # type: ignore[no-any-return]

    def _notify_turn(self, live: LiveGame, before: str | None) -> None:
        """A turn-based game: tell the player whose move it now is, or both that it is over."""
        if live.days_per_move is None:
            return
        data = {"title": live.game.TITLE}
        people = [s.player_id for s in live.seats if s is not None and s.kind != "bot"]
        if live.status == "finished":
            data["result"] = live.result or ""
            data["termination"] = live.termination or ""
            self._notify(people, "game_over", None, live.id, data)
            return
        now = self._awaited(live)
        if now is not None and now != before:
            other = next((p for p in people if p != now), None)
            if live.deadline is not None:
                data["deadline"] = live.deadline.isoformat()
            self._notify([now], "your_turn", other, live.id, data)

    def _notify_started(self, live: LiveGame) -> None:
        """Tell the followers of each account seated that it started a game."""
        for seat in live.seats:
            if seat is not None and seat.kind == "account":
                data = {"title": live.game.TITLE, "name": seat.name}
                self.spawn(self._queue_followers(seat.player_id, live.id, data))

    async def _queue_followers(self, player_id: str, game_id: str, data: dict[str, Any]) -> None:
        try:
            fans = await self.db(notices.followers, self.store, player_id)
            if fans:
                await self.db(
                    notices.queue,
                    self.store,
                    fans,
                    "followed_started",
                    self.now(),
                    player_id,
                    game_id,
                    data,
                )
        except Exception:
            log.exception("notifications of game %s not queued", game_id)

    def _notify(
        self,
        recipients: list[str],
        kind: str,
        actor: str | None,
        game_id: str | None,
        data: dict[str, Any],
    ) -> None:
        async def queue() -> None:
            try:
                await self.db(
                    notices.queue, self.store, recipients, kind, self.now(), actor, game_id, data
                )
            except Exception:
                log.exception("notification %s of game %s not queued", kind, game_id)

        if recipients:
            self.spawn(queue())

    async def _blunder_puzzles(
        self, game_id: str, game: str, options: dict[str, Any], moves: list[str]
    ) -> None:
        """Find a finished game's blunder puzzles in a bot worker, then store them; a failure
        is logged, never raised into the game."""
        try:
            found = await self.bots.call(
                blunder_puzzles.find_in_game,
                game_id,
                game,
                options,
                moves,
                timeout_s=blunder_puzzles.FIND_LIMIT_S,
                background=True,
            )
            count = await self.db(blunder_puzzles.store_found, self.store, game_id, found)
        except Exception:
            log.exception("blunder puzzles of game %s failed", game_id)
            return
        if count:
            log.info("game %s gave %d blunder puzzle(s)", game_id, count)

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
        if self.clustered:  # bots think wherever a process takes the job
            if announce:
                self.botjobs.queue_move(live)
            return
        actor = live.actor()
        seat = live.seats[actor] if actor is not None else None
        # The bot's own task (after its move) counts as idle: it is about to end.
        task = live.bot_task
        idle = task is None or task.done() or task is asyncio.current_task()
        if seat is not None and seat.kind == "bot" and seat.bot and idle:
            live.bot_task = self.spawn(self.bot_turn(live, live.version, actor or 0, seat.bot))

    async def flag_check(self, live: LiveGame) -> bool:
        """Whether this call ended the game on time."""
        try:
            async with self.locked(live):
                return await self._flag_if_due(live)
        except GameError as e:  # another process ended it first, or the database is away
            log.info("time check of %s: %s", live.id, e.message)
            return False

    async def _flag_if_due(self, live: LiveGame) -> bool:
        """Lose on time: checked on every action, by a timer set for the exact moment, and
        for turn-based games by the sweep of due deadlines. Whether it ended the game."""
        change = session.flag(live, moment(live), self.now())
        if change is not None:
            await self._carry_out(live, change)
        return change is not None

    async def bot_turn(self, live: LiveGame, version: int, seat: int, spec: str) -> None:
        try:
            delay = self.settings.bot_min_delay_ms / 1000
            if delay:
                await asyncio.sleep(delay)
            if live.version != version or live.status != "active":
                return
            state = live.state
            budget = None
            if live.clock is not None:
                budget = max(0.05, live.clock.left_ms(seat) / 1000 - 0.2)
            seed = bot_seed(live.id, len(state.history))
            action = await self.bots.choose(spec, state, seed, budget)
            async with self.locked(live):
                if live.version != version or live.status != "active":
                    return
                await self._flag_if_due(live)
                if live.status != "active":
                    return
                await self._play(live, live.state.child(action))
        except asyncio.CancelledError:
            raise
        except GameError as e:
            log.warning("bot move in %s not played: %s", live.id, e.message)
        except Exception:
            log.exception("bot turn failed in game %s", live.id)

    # -- watching ------------------------------------------------------------------------------------
    async def watch(self, conn: Connection, game_id: str, svg: bool = True) -> LiveGame:
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise GameError("unknown_game", _("no game has that id"))
        # per-game channels: follow the game's channel (each watching socket once) before
        # reading it, so no change falls between the read and the subscription
        first = game_id not in conn.watching
        conn.watching[game_id] = svg
        if first:
            await self.bus.follow(game_id)
        try:
            live = await self.get(game_id, fresh=True)  # a client (re)connecting gets the truth
        except BaseException:
            if first:
                self.unwatch(conn, game_id)
            raise
        if conn.closed or game_id not in conn.watching:  # it left meanwhile
            return live
        live.subscribers[conn] = svg
        conn.watching[live.id] = svg
        conn.push(self.message(live, conn, svg))
        self.botjobs.queue_move(live)  # reopened: its job may have been lost (once per version)
        self.presence.watching(conn, live)  # presence
        if not self._spectators_changed(live):
            conn.push(views.spectators_message(live.id, live.spectators_shown))
        return live

    def unwatch(self, conn: Connection, game_id: str) -> None:
        if game_id in conn.watching:
            del conn.watching[game_id]
            self.bus.unfollow(game_id)  # per-game channels
        live = self.games.get(game_id)
        if live is not None:
            live.subscribers.pop(conn, None)
            self._spectators_changed(live)
            if live.status in ("finished", "aborted") and not live.subscribers:
                self.games.pop(live.id, None)  # stays in the database; reloaded on demand
        self.presence.unwatched(conn, game_id, live)  # presence

    def disconnect(self, conn: Connection) -> None:
        for gid in list(conn.watching):
            self.unwatch(conn, gid)
        self.lobby.discard(conn)
        self.connections.discard(conn)
        self.presence.disconnected(conn)  # presence
        conn.close()

    def _evict_idle(self) -> None:
        """Forget games nobody watches and no timer or bot is working on (they stay stored)."""
        for gid, live in list(self.games.items()):
            busy = (
                live.subscribers
                or live.lock.locked()
                or (live.bot_task and not live.bot_task.done())
            )
            timed = live.clock is not None and live.status == "active"
            if not busy and not timed and live.status != "waiting":
                self.games.pop(gid, None)

    def broadcast(self, live: LiveGame, announce: bool = True) -> None:
        """Send every watcher the change. Watchers already hold the move list up to the last
        broadcast, so they get only the entries added since (``history_from`` says where).
        In a cluster the other processes hear of it too (``announce``)."""
        if self.clustered and announce:
            self.outbox.changed(live.id, live.version)
        live.revision += 1
        # a takeback shortens the move list: watchers keep what is still in it
        live.delta_from = min(live.sent_len, len(live.entries))
        live.sent_len = len(live.entries)
        for conn, svg in list(live.subscribers.items()):
            conn.push(self.message(live, conn, svg, delta=True))

    def _spectators_changed(self, live: LiveGame) -> bool:
        """Tell the game's watchers how many spectators it has, if that changed; whether it
        had. Counted among this process's sockets: each person watching without a seat once
        (each signed-out socket once)."""
        count = views.spectators(live)
        if count == live.spectators_shown:
            return False
        live.spectators_shown = count
        text = views.spectators_message(live.id, count)
        for conn in list(live.subscribers):
            conn.push(text)
        return True

    def message(
        self, live: LiveGame, conn: Connection | None, svg: bool, delta: bool = False
    ) -> str:
        """The state message for one client (see ``views.state_message``)."""
        you = live.seats_of(conn.player_id if conn else None)
        return views.state_message(live, you, svg, delta)

    # -- the lobby -------------------------------------------------------------------------------------
    @property
    def lobby_messages(self) -> int:
        return self.board.messages

    def lobby_view(self) -> dict[str, Any]:
        """The lobby's two lists (see ``views.lobby_lists``). In a cluster: every process's
        games, as they wrote them to the bus."""
        return self.board.view()

    def _lobby_items(self) -> list[LobbyItem]:
        if self.clustered:
            return list(self.mirror.items.values())
        wall, now = time.time(), time.monotonic()
        return [lobby.item(live, wall, now) for live in self.games.values() if lobby.listed(live)]

    def lobby_changed(self, live: LiveGame | None = None) -> None:
        """Something the lobby shows changed (in ``live``, if given): send the lobby's watchers
        an update soon. In a cluster every process hears of it and sends its own lobby
        watchers the update."""
        if self.clustered:
            if live is not None:
                self.outbox.listed(live.id)
            self.outbox.tell(LOBBY, {})
            return
        self._lobby_soon()

    def _lobby_soon(self) -> None:
        self.board.soon()

    # -- connections ---------------------------------------------------------------------------------
    def connect(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.presence.connected(conn)  # presence

    def sessions_ended(self, session_ids: list[str], announce: bool = True) -> None:
        """Close the connections of sessions that ended (sign-out): they act for nobody now."""
        if self.clustered and announce:
            self.outbox.tell(SESSIONS, {"ids": list(session_ids)})
        ended = set(session_ids)
        for conn in list(self.connections):
            if conn.session_id is not None and conn.session_id in ended:
                conn.close()

    def player_renamed(self, player_id: str, name: str, announce: bool = True) -> None:
        if self.clustered and announce:
            self.outbox.tell(PLAYERS, {"player": player_id, "name": name})
        for live in self.games.values():
            if session.rename(live, player_id, name):
                self.broadcast(live)

    # -- the lock ------------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def locked(self, live: LiveGame) -> AsyncIterator[None]:
        """Hold the game's lock, with its newest stored version in hand (in a cluster another
        process may have moved it on: ``Cluster.refresh``)."""
        async with live.lock:
            if self.clustered:
                await self.cluster.refresh(live)
            yield

    def forget(self, live: LiveGame) -> None:
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        self.games.pop(live.id, None)
