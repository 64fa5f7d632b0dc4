"""The hub: every game in play lives here, in memory, and only the hub changes it.

A change is made on a copy of the state, written to the database (naming the version it
replaces), and only then adopted and sent to everyone watching. So a change that is refused,
illegal or fails to save leaves nothing behind, and every acknowledged move is on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from pocketarena.core import CHANCE, Action, Game, IllegalActionError, State, recorded_options
from pocketarena.explore import EXPLORABLE
from pocketarena.fair import SCHEME, FairChance
from pocketarena.ratings import Rating
from pocketarena.records import result_for

from .. import blunder_puzzles, catalog
from ..core.config import Settings
from ..core.security import new_game_id, new_invite_token
from ..models import GameRecord, Player, utcnow
from ..store import ConflictError, Store, aware
from .bots import BotRunner, bot_seed
from .bus import GAMES, LOBBY, PLAYERS, SESSIONS, Bus, MemoryBus
from .clock import Clock
from .connection import Connection
from .jobs import BotQueue
from .presence import Presence
from .writer import GameWriter

log = logging.getLogger(__name__)
T = TypeVar("T")

MODES = ("bot", "friend", "seek", "local")
# A game nobody moved in (or a seek nobody took) for this long leaves the lobby's lists; it
# stays playable by its link.
LOBBY_IDLE_S = 30 * 60
MAX_CLOCK_MS = 3 * 3600 * 1000
MAX_INCREMENT_MS = 180 * 1000
# Game ids are checked before they reach the database (ours are 8 letters and digits).
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")
HEARTBEAT = "hub"  # the heartbeat row of this server
LOBBY_SEEKS_PER_SOURCE = 3  # one player or address shows at most this many seeks in the lobby
RATED_KINDS = ("account", "bot")
# In a cluster: a heartbeat this recent means the cluster runs (clocks ran on meanwhile).
CLUSTER_ALIVE_S = 10.0
CLOCK_SWEEP_S = 1.0  # how often some process looks for clocks that ran out unwatched
# What a game keeps when another process's change is read in: its watchers and caches.
_KEPT_ON_REFRESH = frozenset(
    {
        "subscribers",
        "lock",
        "revision",
        "view_cache",
        "legal_cache",
        "action_json",
        "sent_len",
        "delta_from",
        "bot_task",
        "flag_timer",
        "last_activity",
    }
)


class GameError(Exception):
    """A request about a game that is refused; ``message`` is meant for the person."""

    STATUS = {
        "unknown_game": 404,
        "stale": 409,
        "conflict": 409,
        "full": 409,
        "not_your_turn": 403,
        "not_seated": 403,
        "forbidden": 403,
        "illegal": 422,
        "bad_request": 400,
        "not_active": 409,
        "rate_limited": 429,
        "too_many_games": 429,
        "unavailable": 503,
    }

    def __init__(self, code: str, message: str, retry_after: int = 60) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after  # seconds, for a 429

    @property
    def status(self) -> int:
        return self.STATUS.get(self.code, 400)


@dataclass
class Seat:
    player_id: str
    name: str
    kind: str  # guest | account | bot
    bot: str | None = None
    rating: Rating = field(default_factory=Rating)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player_id,
            "name": self.name,
            "kind": self.kind,
            "bot": self.bot,
            "rating": self.rating.display,
            "provisional": self.rating.provisional,
        }


@dataclass
class LiveGame:
    id: str
    game: Game
    state: State
    mode: str
    rated: bool
    creator_id: str
    creator_seat: int
    seats: list[Seat | None]
    status: str = "waiting"
    version: int = 0
    invite_token: str | None = None
    chance: FairChance | None = None
    clock: Clock | None = None
    movers: list[int] = field(default_factory=list)  # who made each action (CHANCE: nobody)
    entries: list[dict[str, Any]] = field(default_factory=list)  # the move list, described
    events_from: int = 0  # history index where the last change began (for animations)
    winner: int | None = None
    result: str | None = None
    termination: str | None = None
    final_scores: list[float] | None = None
    rating_changes: list[dict[str, Any]] | None = None
    rematch_of: str | None = None
    rematch_id: str | None = None
    rematch_offers: set[int] = field(default_factory=set)
    created_at: datetime = field(default_factory=utcnow)
    started_at: datetime | None = None
    finished_at: datetime | None = None
    subscribers: dict[Connection, bool] = field(default_factory=dict)  # -> wants the SVG
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    revision: int = 0  # bumps on every broadcast; keys the view cache
    view_cache: dict[tuple[bool, bool], tuple[int, str]] = field(default_factory=dict)
    legal_cache: tuple[int, str] | None = None
    action_json: dict[int, dict[str, Any]] = field(default_factory=dict)  # by action id
    sent_len: int = 0  # move-list entries every watcher holds (as of the last broadcast)
    delta_from: int = 0  # where the last broadcast's entries start
    bot_task: asyncio.Task[None] | None = None
    flag_timer: asyncio.TimerHandle | None = None
    throwers: dict[int, int | None] = field(default_factory=dict)
    last_activity: float = field(default_factory=time.monotonic)  # for the lobby's live list
    creator_addr: str | None = None  # keyed hash of the address it was opened from

    def seats_of(self, player_id: str | None) -> list[int]:
        if player_id is None:
            return []
        return [i for i, s in enumerate(self.seats) if s is not None and s.player_id == player_id]

    def actor(self, state: State | None = None) -> int | None:
        """The seat expected to act: the decision's seat, or the seat that throws in person."""
        state = self.state if state is None else state
        if state.current_player >= 0:
            return state.current_player
        if state.current_player == CHANCE:
            return self.thrower(state)
        return None

    def thrower(self, state: State) -> int | None:
        # A game's history only grows, so the position at a ply never changes: cache by ply.
        ply = len(state.history)
        if ply not in self.throwers:
            self.throwers[ply] = catalog.thrower(state)
        return self.throwers[ply]

    def rated_pair(self, movers: set[int]) -> tuple[str, str] | None:
        """The players whose ratings this game changes: a rated game between two players who
        may be rated (see ``may_be_rated``), in which each of them made a move (``movers``:
        the seats that did; a game given up before then is too short to say anything)."""
        a, b = self.seats
        if self.rated and may_be_rated(self.seats) and {0, 1} <= movers:
            assert a is not None and b is not None
            return (a.player_id, b.player_id)
        return None


def may_be_rated(seats: list[Seat | None]) -> bool:
    """Rated play needs two different players, each an account or a bot (not two bots): a
    guest's games are never rated (anyone can make guests), and nobody rates against
    themselves."""
    a, b = seats
    return (
        a is not None
        and b is not None
        and a.player_id != b.player_id
        and a.kind in RATED_KINDS
        and b.kind in RATED_KINDS
        and not (a.kind == b.kind == "bot")
    )


def _result(winner: int | None) -> str:
    return result_for(winner)


class Hub:
    def __init__(
        self,
        store: Store,
        settings: Settings,
        bots: BotRunner,
        bus: Bus | None = None,
        jobs: BotQueue | None = None,
    ) -> None:
        self.store = store
        self.settings = settings
        self.bots = bots
        self.games: dict[str, LiveGame] = {}
        self.lobby: set[Connection] = set()
        sqlite = store.engine.dialect.name == "sqlite"
        # SQLite has one writer at a time: one database thread keeps writes in order.
        self._db = ThreadPoolExecutor(max_workers=1 if sqlite else 8, thread_name_prefix="db")
        self.writer = GameWriter(store, self._db)
        self._loading: dict[str, asyncio.Future[LiveGame]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing = False
        self.connections: set[Connection] = set()
        # The lobby's updates go out together, at most lobby_updates_per_s times a second,
        # each with only the entries that changed since the one before.
        self._lobby_timer: asyncio.TimerHandle | None = None
        self._lobby_flushed = 0.0
        self._lobby_sent: dict[str, str] = {}  # game id -> its entry as last sent
        self._lobby_order: dict[str, list[str]] = {"seeks": [], "live": []}
        self.lobby_messages = 0  # lobby updates sent (for tests and the probes)
        # The cluster (see the section at the end): one process alone uses a MemoryBus and
        # behaves as if there were no bus at all.
        self.bus: Bus = bus or MemoryBus()
        self.clustered = self.bus.shared
        self.jobs = jobs
        self._lobby_mirror: dict[str, dict[str, Any]] = {}  # every process's lobby entries
        self._lobby_fetch: asyncio.Task[None] | None = None
        self._lobby_stale = False
        self._out_games: dict[str, int] = {}  # what the outbox will tell the other processes
        self._out_lobby: set[str] = set()
        self._out_notices: list[tuple[str, dict[str, Any], str | None]] = []
        self._out_jobs: dict[str, int] = {}
        self._outbox: asyncio.Task[None] | None = None
        self.bus.subscribe(GAMES, self._on_game)
        self.bus.subscribe(LOBBY, self._on_lobby)
        self.bus.subscribe(SESSIONS, self._on_sessions)
        self.bus.subscribe(PLAYERS, self._on_player)
        # presence: who has a socket open, here and on the other processes (live.presence)
        self.presence = Presence(self.bus, lambda: self.lobby)

    # -- plumbing --------------------------------------------------------------------------
    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db, partial(fn, *args, **kwargs))

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
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
            await self._start_cluster()
            return  # games load where they are asked for; sweep_clocks finds the forgotten
        await self.expire_waiting()  # games nobody joined in time are not brought back
        ids = await self.db(self.store.unfinished_game_ids)
        for gid in ids[: self.settings.max_live_games]:
            try:
                await self.get(gid)
            except GameError as e:
                log.error("could not resume game %s: %s", gid, e.message)

    async def close(self) -> None:
        self._closing = True
        if self.jobs is not None:
            await self.jobs.close()
        if self._outbox is not None and not self._outbox.done():
            # Tell the others what changed here last (a moment at most).
            await asyncio.wait([self._outbox], timeout=2.0)
        if self._lobby_timer is not None:
            self._lobby_timer.cancel()
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
        await self.db(self.store.beat, HEARTBEAT, utcnow())

    async def expire_waiting(self) -> int:
        """Cancel the games nobody joined within ``waiting_game_ttl_s``; how many."""
        cutoff = utcnow() - timedelta(seconds=self.settings.waiting_game_ttl_s)
        stale = await self.db(self.store.stale_waiting_games, cutoff)
        expired = 0
        for gid, version in stale:
            live = self.games.get(gid)
            if live is None:  # not in play here: only its row changes
                done = await self.db(
                    self.store.save_games, [(gid, version, abandoned_values(version))]
                )
                expired += done[0]
                continue
            async with self._locked(live):
                if live.status == "waiting":
                    try:
                        await self._abandon(live)
                    except GameError:
                        continue
                    expired += 1
                    if not live.subscribers:
                        self.games.pop(gid, None)
        if expired:
            log.info("%d game(s) nobody joined in time were cancelled", expired)
            self._lobby_changed()
        return expired

    # -- loading -----------------------------------------------------------------------------
    async def get(self, game_id: str, fresh: bool = False) -> LiveGame:
        """The live game with this id, loaded from the database if needed. ``fresh``: in a
        cluster, read it again if another process changed it (otherwise its watchers here
        hear of the change a moment later)."""
        if not isinstance(game_id, str) or not GAME_ID.fullmatch(game_id):
            raise GameError("unknown_game", "no game has that id")
        live = self.games.get(game_id)
        if live is not None:
            # per-game channels: a game no socket here watches is not followed, so another
            # process may have changed it without this one hearing: read it again
            if (fresh or not live.subscribers) and self.clustered:
                async with self._locked(live):
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
            raise GameError("unknown_game", f"there is no game {game_id!r}")
        live = await self._build(row)
        if live.status == "active" and live.clock is not None:
            await self._charge_time_before_stop(live, row.clock_since or row.started_at)
        if self.clustered and live.status == "finished":
            live.rematch_offers = await self._offers(live, [])
        self.games[game_id] = live
        if live.status == "active":
            if live.clock is not None:
                live.clock.switch(live.actor())
            self._after_change(live, announce=False)
            self._queue_bot(live)  # in case the process that was to queue it died first
        return live

    async def _build(self, row: GameRecord) -> LiveGame:
        """The live game of a stored row (its clock as stored, not running)."""
        game_id = row.id
        ids = [pid for pid in (row.seat0_id, row.seat1_id) if pid]
        players = await self.db(self.store.get_players, ids)
        seats: list[Seat | None] = []
        for pid in (row.seat0_id, row.seat1_id):
            if pid is None or pid not in players:
                seats.append(None)
            else:
                rating = await self.db(self.store.rating, pid, row.game)
                seats.append(self._seat(players[pid], rating))
        try:
            # Saved before an option existed: played as games were then.
            game = catalog.load_game(row.game, recorded_options(row.game, row.options))
        except ValueError as e:
            raise GameError("unavailable", f"game {game_id} cannot be loaded: {e}") from None
        live = LiveGame(
            id=row.id,
            game=game,
            state=game.new_initial_state(),
            mode=row.mode,
            rated=row.rated,
            creator_id=row.creator_id,
            creator_seat=row.creator_seat if row.creator_seat is not None else 0,
            seats=seats,
            status=row.status,
            version=row.version,
            invite_token=row.invite_token,
            winner=row.winner,
            result=row.result,
            termination=row.termination,
            final_scores=row.scores,
            rating_changes=row.rating_changes,
            rematch_of=row.rematch_of,
            rematch_id=row.rematch_id,
            created_at=row.created_at,
            started_at=row.started_at,
            finished_at=row.finished_at,
            creator_addr=row.creator_addr,
        )
        if row.chance_seed:
            live.chance = FairChance(row.id, seed=row.chance_seed)
        try:
            for text in row.history:
                self._append(live, live.state, live.state.game.action(text))
        except (IllegalActionError, ValueError) as e:
            raise GameError("unavailable", f"game {game_id} no longer replays: {e}") from None
        if row.clock_initial_ms is not None:
            live.clock = Clock(
                row.clock_initial_ms,
                row.clock_increment_ms or 0,
                [row.clock0_ms or 0, row.clock1_ms or 0],
            )
        live.events_from = live.sent_len = len(live.state.history)
        # Idle since its last stored change, not since it was loaded (abandoned games stay idle).
        live.last_activity -= max(0.0, (utcnow() - aware(row.updated_at)).total_seconds())
        return live

    async def _charge_time_before_stop(self, live: LiveGame, since: datetime | None) -> None:
        """A game resumed after the server stopped: the player to act is charged the time
        they had used when it stopped (up to its last heartbeat), not the time it was down."""
        actor = live.actor()
        assert live.clock is not None
        if actor is None or since is None:
            return
        beat = await self.db(self.store.last_beat, HEARTBEAT)
        if beat is None:
            return
        now = utcnow()
        if self.clustered and (now - beat).total_seconds() < CLUSTER_ALIVE_S:
            beat = now  # the cluster runs (only one process may have died): time went on
        used_ms = round((min(beat, now) - aware(since)).total_seconds() * 1000)
        if used_ms > 0:
            live.clock.remaining[actor] -= used_ms

    def _seat(self, player: Player, rating: Rating) -> Seat:
        return Seat(player.id, player.name, player.kind, player.bot_spec, rating)

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
    ) -> LiveGame:
        """A new game. ``creator_addr`` (a keyed hash of the client's address) is given for a
        game a client asks for: it is then held to the open-game caps."""
        if len(self.games) >= self.settings.max_live_games:
            self._evict_idle()
            if len(self.games) >= self.settings.max_live_games:
                raise GameError(
                    "unavailable", "the server is full right now; try again in a minute"
                )
        game = self._checked(game_id, options, mode, seat, bot, clock)
        if creator_addr is not None and (mode in ("seek", "friend") or clock is not None):
            await self._check_open_games(creator_id, creator_addr)
        creator_seat = secrets.randbelow(2) if seat is None else seat
        creator = await self.db(self.store.ensure_guest, creator_id)
        seats = await self._seats(creator, game, mode, creator_seat, bot)
        started = seats[0] is not None and seats[1] is not None
        if started:
            rated = rated and may_be_rated(seats)
        elif creator.kind not in RATED_KINDS:
            rated = False  # a guest's game will never be rated, whoever joins
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
        )
        if started:
            live.status = "active"
            live.started_at = utcnow()
        row = GameRecord(
            id=gid,
            game=game.ID,
            options=dict(game.options),
            mode=mode,
            status=live.status,
            rated=rated,
            creator_id=creator.id,
            seat0_id=seats[0].player_id if seats[0] else None,
            seat1_id=seats[1].player_id if seats[1] else None,
            creator_seat=creator_seat,
            invite_token=live.invite_token,
            clock_initial_ms=clock[0] if clock else None,
            clock_increment_ms=clock[1] if clock else None,
            clock0_ms=clock[0] if clock else None,
            clock1_ms=clock[0] if clock else None,
            history=[],
            version=0,
            chance_scheme=SCHEME if live.chance else None,
            chance_seed=live.chance.reveal() if live.chance else None,
            chance_commitment=live.chance.commitment if live.chance else None,
            rematch_of=rematch_of,
            creator_addr=creator_addr,
            created_at=live.created_at,
            started_at=live.started_at,
        )
        await self.db(self.store.insert_game, row)
        self.games[gid] = live
        if started:
            await self._begin(live)
        self._lobby_changed(live)
        return live

    @staticmethod
    def _checked(
        game_id: str,
        options: dict[str, Any],
        mode: str,
        seat: int | None,
        bot: str | None,
        clock: tuple[int, int] | None,
    ) -> Game:
        """The game asked for, once every part of the request is checked (nothing is written
        before: a refused request changes nothing)."""
        if mode not in MODES:
            raise GameError("bad_request", f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        try:
            game = catalog.load_game(game_id, options)  # ValueError for anything but a game id
        except ValueError as e:
            raise GameError("bad_request", str(e)) from None
        if seat not in (None, 0, 1):
            raise GameError("bad_request", "seat must be 0 (first), 1 (second) or omitted (random)")
        if clock is not None:
            initial, increment = clock
            if not (10_000 <= initial <= MAX_CLOCK_MS and 0 <= increment <= MAX_INCREMENT_MS):
                raise GameError(
                    "bad_request",
                    "a clock needs 10 s to 3 h of initial time and 0 to 180 s increment",
                )
        if mode == "bot":
            if not bot:
                raise GameError("bad_request", "choose a bot level to play against")
            levels = catalog.bot_levels(game.ID)
            if bot not in levels:
                raise GameError(
                    "bad_request",
                    f"no {bot!r} bot for {game.TITLE}; choose one of: {', '.join(levels)}",
                )
        return game

    async def _seats(
        self, creator: Player, game: Game, mode: str, creator_seat: int, bot: str | None
    ) -> list[Seat | None]:
        """The seats of a new game: the creator's, and the bot's or the creator's again."""
        seats: list[Seat | None] = [None, None]
        seats[creator_seat] = self._seat(
            creator, await self.db(self.store.rating, creator.id, game.ID)
        )
        if mode == "bot" and bot is not None:
            bot_player = await self.db(self.store.ensure_bot, bot, catalog.bot_name(bot))
            seats[1 - creator_seat] = self._seat(
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
                f"you have {s.max_open_games} games waiting for an opponent or on the clock; "
                "finish or cancel one first",
            )
        if await self.db(self.store.open_games, addr=addr) >= s.address_max_open_games:
            raise GameError(
                "too_many_games",
                f"{s.address_max_open_games} games opened from your address are waiting for an "
                "opponent or on the clock; finish or cancel one first",
            )

    async def _begin(self, live: LiveGame) -> None:
        """First moment with both seats taken: resolve opening chance nodes, start the clock."""
        async with self._locked(live):
            new = live.state.clone()
            self._auto_chance(live, new)
            if len(new.history) != len(live.state.history):
                await self._commit(live, new)
            else:
                if live.clock is not None:
                    live.clock.switch(live.actor())
                self._after_change(live)

    async def join(self, player_id: str, game_id: str, invite: str | None = None) -> LiveGame:
        live = await self.get(game_id)
        async with self._locked(live):
            if live.status != "waiting":
                if live.seats_of(player_id):
                    return live
                raise GameError("full", "this game already has both players; you can watch it")
            if live.seats_of(player_id):
                raise GameError(
                    "forbidden", "this is your own game: send the invite link to a friend, or wait"
                )
            if live.mode == "friend" and (
                not isinstance(invite, str)
                or not secrets.compare_digest(invite, live.invite_token or "")
            ):
                raise GameError(
                    "forbidden", "this game is by invitation; ask its creator for the link"
                )
            player = await self.db(self.store.ensure_guest, player_id)
            seat = 1 - live.creator_seat
            seats = list(live.seats)
            seats[seat] = self._seat(
                player, await self.db(self.store.rating, player.id, live.game.ID)
            )
            started_at = utcnow()
            rated = live.rated and may_be_rated(seats)  # a guest joining plays it unrated
            values = {
                f"seat{seat}_id": player.id,
                "status": "active",
                "rated": rated,
                "started_at": started_at,
                "version": live.version + 1,
            }
            await self._save(live, values)
            live.seats = seats
            live.status = "active"
            live.rated = rated
            live.started_at = started_at
            live.version += 1
        self._lobby_changed(live)
        await self._begin(live)
        return live

    async def cancel(self, player_id: str, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        async with self._locked(live):
            if live.creator_id != player_id:
                raise GameError("forbidden", "only the player who opened this game can cancel it")
            if live.status != "waiting":
                raise GameError(
                    "not_active", "only a game still waiting for an opponent can be cancelled"
                )
            await self._abandon(live)
        self._lobby_changed(live)
        return live

    async def _abandon(self, live: LiveGame) -> None:
        """End a game nobody joined (under its lock)."""
        await self._save(live, abandoned_values(live.version))
        live.status = "aborted"
        live.termination = "abandoned"
        live.version += 1
        self._broadcast(live)

    # -- playing -------------------------------------------------------------------------------
    def _check_turn(self, live: LiveGame, player_id: str | None, version: Any) -> int:
        """The seat the player acts for, or a GameError saying why they cannot act now."""
        if live.status == "waiting":
            raise GameError("not_active", "the game has not started: it is waiting for an opponent")
        if live.status != "active":
            raise GameError("not_active", "the game is over")
        if isinstance(version, bool) or not isinstance(version, int):
            raise GameError("bad_request", "a move must say the version of the game it was made on")
        if version != live.version:
            raise GameError(
                "stale",
                f"this was sent for version {version} of the game, which is now at version "
                f"{live.version} (already played, or the position changed): here is the current one",
            )
        mine = live.seats_of(player_id)
        if not mine:
            raise GameError("not_seated", "you are watching this game; only its players can move")
        actor = live.actor()
        if actor is None:
            raise GameError("not_your_turn", "nobody can act now; the coins are being thrown")
        if actor not in mine:
            seat = live.seats[actor]
            name = seat.name if seat else live.game.SEATS[actor]
            raise GameError(
                "not_your_turn", f"it is {name}'s turn ({live.game.SEATS[actor]}), not yours"
            )
        return actor

    async def move(self, player_id: str | None, game_id: str, text: Any, version: Any) -> LiveGame:
        live = await self.get(game_id)
        async with self._locked(live):
            await self._flag_if_due(live)
            self._check_turn(live, player_id, version)
            if live.state.current_player == CHANCE:
                raise GameError(
                    "illegal",
                    "the coins must be thrown first: press the throw button (message 'throw')",
                )
            if not isinstance(text, str) or not text.strip() or len(text) > 100:
                raise GameError(
                    "bad_request", "a move is notation text, e.g. " + live.game.actions[0].text
                )
            try:
                action = live.game.parse_action(text)
                new = live.state.child(action)
            except IllegalActionError as e:
                raise GameError("illegal", str(e)) from None
            await self._play(live, new)
        return live

    async def throw(self, player_id: str | None, game_id: str, version: Any) -> LiveGame:
        live = await self.get(game_id)
        async with self._locked(live):
            await self._flag_if_due(live)
            self._check_turn(live, player_id, version)  # the thrower asked
            if live.state.current_player != CHANCE or live.chance is None:
                raise GameError("illegal", "there is nothing to throw now: it is time to move")
            new = live.state.clone()
            new.apply(live.chance.outcome(new))
            await self._play(live, new)
        return live

    async def resign(self, player_id: str | None, game_id: str) -> LiveGame:
        live = await self.get(game_id)
        async with self._locked(live):
            if live.status != "active":
                raise GameError("not_active", "only a game in progress can be resigned")
            mine = live.seats_of(player_id)
            if not mine:
                raise GameError("not_seated", "only a player of this game can resign it")
            # Both seats on one screen: the side to act (or seat 0) resigns.
            actor = live.actor()
            seat = actor if actor in mine else mine[0]
            await self._finish(live, live.state, 1 - seat, "resignation")
        return live

    async def rematch(self, player_id: str | None, game_id: str) -> LiveGame:
        """Offer a rematch; it starts when the opponent offers too (a bot always agrees)."""
        live = await self.get(game_id)
        async with self._locked(live):
            if live.status != "finished":
                raise GameError("not_active", "a rematch can be offered once the game is over")
            mine = live.seats_of(player_id)
            if not mine or player_id is None:
                raise GameError("not_seated", "only the players of this game can ask for a rematch")
            if live.rematch_id:
                return live
            live.rematch_offers.update(mine)
            if self.clustered:  # the other player may be on another process
                live.rematch_offers = await self._offers(live, mine)
                self._tell(GAMES, {"id": live.id, "offers": sorted(live.rematch_offers)}, live.id)
            other = [s for s in (0, 1) if s not in mine]
            agreed = not other or all(
                (seat := live.seats[s]) is not None
                and (seat.kind == "bot" or s in live.rematch_offers)
                for s in other
            )
            if not agreed:
                self._broadcast(live)
                return live
            bot = next((s.bot for s in live.seats if s is not None and s.kind == "bot"), None)
            creator_seat = live.creator_seat if live.mode != "bot" else live.seats_of(player_id)[0]
            new = await self.create(
                player_id if live.mode == "bot" else live.creator_id,
                live.game.ID,
                dict(live.game.options),
                mode="local"
                if live.mode == "local"
                else ("bot" if live.mode == "bot" else "friend"),
                seat=1 - creator_seat,
                bot=bot,
                clock=(live.clock.initial_ms, live.clock.increment_ms) if live.clock else None,
                rated=live.rated,
                rematch_of=live.id,
            )
            if live.mode in ("friend", "seek"):
                # The invited player is the other seat of the old game: seat them directly.
                opponent = next(
                    (s for i, s in enumerate(live.seats) if s and s.player_id != live.creator_id),
                    None,
                )
                if opponent is not None:
                    await self.join(opponent.player_id, new.id, new.invite_token)
            await self._save(live, {"rematch_id": new.id, "version": live.version + 1})
            live.rematch_id = new.id
            live.version += 1
            self._broadcast(live)
        return live

    async def _play(self, live: LiveGame, new: State) -> None:
        """Adopt ``new`` (one action past the live state) after resolving the chance nodes
        nobody throws in person; end the game if it is over."""
        self._auto_chance(live, new)
        if new.is_terminal():
            await self._finish(live, new, new.winner(), "normal")
        else:
            await self._commit(live, new)

    def _auto_chance(self, live: LiveGame, new: State) -> None:
        """Throw for every chance node whose thrower is nobody or a bot (FairChance decides)."""
        guard = catalog.max_plies(live.game) + 1
        while new.current_player == CHANCE and guard > 0:
            seat = live.thrower(new)
            if seat is not None and (s := live.seats[seat]) is not None and s.kind != "bot":
                break
            assert live.chance is not None, "a game with chance nodes always has a FairChance"
            new.apply(live.chance.outcome(new))
            guard -= 1

    def _append(self, live: LiveGame, state: State, action: Action) -> None:
        """Apply ``action`` to ``state`` (the live one while loading) and extend the move list."""
        seat = state.current_player
        say = catalog.describe(live.game.ID, action, state)
        state.apply(action)
        live.movers.append(seat)
        live.entries.append(
            {
                "text": action.text,
                "seat": seat if seat >= 0 else None,
                "chance": action.chance,
                "say": say,
            }
        )

    def _row_state(self, live: LiveGame, new: State) -> dict[str, Any]:
        values: dict[str, Any] = {
            "history": [a.text for a in new.history],
            "version": live.version + 1,
        }
        if live.clock is not None:
            values["clock0_ms"] = max(0, live.clock.left_ms(0))
            values["clock1_ms"] = max(0, live.clock.left_ms(1))
            values["clock_since"] = utcnow()  # the running clock (re)started now
        return values

    async def _save(self, live: LiveGame, values: dict[str, Any]) -> None:
        try:
            await self.writer.save(live.id, live.version, values)
        except ConflictError as e:
            raise GameError("conflict", str(e)) from None
        except Exception:
            log.exception("saving game %s failed", live.id)
            raise GameError(
                "unavailable", "the move could not be saved; nothing changed, try again"
            ) from None

    async def _commit(self, live: LiveGame, new: State) -> None:
        clock_before = self._clock_snapshot(live)
        if live.clock is not None:
            live.clock.switch(live.actor(new))
        try:
            await self._save(live, self._row_state(live, new))
        except GameError:
            self._clock_restore(live, clock_before)
            raise
        self._adopt(live, new)
        self._after_change(live)

    def _adopt(self, live: LiveGame, new: State) -> None:
        start = len(live.state.history)
        replay = live.state  # extend the live move list with the new actions
        for action in new.history[start:]:
            self._append(live, replay, action)
        live.state = new
        live.events_from = start
        live.version += 1
        live.last_activity = time.monotonic()

    async def _finish(
        self, live: LiveGame, new: State, winner: int | None, termination: str
    ) -> None:
        clock_before = self._clock_snapshot(live)
        if live.clock is not None:
            live.clock.stop()
        finished_at = utcnow()
        scores = [float(x) for x in new.scores()]
        rated = live.rated_pair(self._movers(live, new))
        values = {
            **self._row_state(live, new),
            "status": "finished",
            "winner": winner,
            "result": _result(winner),
            "termination": termination,
            "scores": scores,
            "finished_at": finished_at,
            "rated": rated is not None,
        }
        try:
            changes = await self.db(
                self.store.finish_game,
                live.id,
                live.version,
                values,
                live.game.ID,
                rated,
                winner,
            )
        except ConflictError as e:
            self._clock_restore(live, clock_before)
            raise GameError("conflict", str(e)) from None
        except Exception:
            self._clock_restore(live, clock_before)
            log.exception("finishing game %s failed", live.id)
            raise GameError("unavailable", "the result could not be saved; try again") from None
        self._adopt(live, new)
        live.status = "finished"
        live.rated = rated is not None
        live.winner = winner
        live.result = _result(winner)
        live.termination = termination
        live.final_scores = scores
        live.finished_at = finished_at
        if changes:
            live.rating_changes = [c.to_json() for c in changes]
            for seat in live.seats:
                if seat is not None:
                    seat.rating = await self.db(self.store.rating, seat.player_id, live.game.ID)
        self._after_change(live)
        self._lobby_changed(live)
        if live.game.ID in EXPLORABLE:  # its blunders feed the puzzles
            moves = [a.text for a in live.state.history]
            self._spawn(
                self._blunder_puzzles(live.id, live.game.ID, dict(live.game.options), moves)
            )

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
            )
            count = await self.db(blunder_puzzles.store_found, self.store, game_id, found)
        except Exception:
            log.exception("blunder puzzles of game %s failed", game_id)
            return
        if count:
            log.info("game %s gave %d blunder puzzle(s)", game_id, count)

    @staticmethod
    def _movers(live: LiveGame, new: State) -> set[int]:
        """The seats that made a decision in ``new`` (the live state plus what follows)."""
        seats = {m for m in live.movers if m >= 0}
        replay = live.state.clone()
        for action in new.history[len(live.state.history) :]:
            if replay.current_player >= 0:
                seats.add(replay.current_player)
            replay.apply(action)
        return seats

    def _clock_snapshot(self, live: LiveGame) -> tuple[list[int], int | None, float] | None:
        c = live.clock
        return (list(c.remaining), c.running, c.since) if c else None

    def _clock_restore(
        self, live: LiveGame, snap: tuple[list[int], int | None, float] | None
    ) -> None:
        if live.clock is not None and snap is not None:
            live.clock.remaining, live.clock.running, live.clock.since = (
                list(snap[0]),
                snap[1],
                snap[2],
            )

    # -- after every change: timers, bots, broadcast ----------------------------------------------
    def _after_change(self, live: LiveGame, announce: bool = True) -> None:
        """``announce``: the change was made here (not read from the database after another
        process made it), so the other processes are told and a bot's move is queued."""
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        self._broadcast(live, announce)
        if live.status != "active" or self._closing:
            return
        if live.clock is not None and live.clock.running is not None:
            delay = max(0.0, live.clock.left_ms(live.clock.running) / 1000) + 0.02
            live.flag_timer = asyncio.get_running_loop().call_later(
                delay, lambda: self._spawn(self._flag_check(live))
            )
        if self.clustered:  # bots think wherever a process takes the job
            if announce:
                self._queue_bot(live)
            return
        actor = live.actor()
        seat = live.seats[actor] if actor is not None else None
        # The bot's own task (after its move) counts as idle: it is about to end.
        task = live.bot_task
        idle = task is None or task.done() or task is asyncio.current_task()
        if seat is not None and seat.kind == "bot" and seat.bot and idle:
            live.bot_task = self._spawn(self._bot_turn(live, live.version, actor or 0, seat.bot))

    async def _flag_check(self, live: LiveGame) -> None:
        try:
            async with self._locked(live):
                await self._flag_if_due(live)
        except GameError as e:  # another process ended it first, or the database is away
            log.info("time check of %s: %s", live.id, e.message)

    async def _flag_if_due(self, live: LiveGame) -> None:
        """Lose on time: checked on every action and by a timer set for the exact moment."""
        if live.status != "active" or live.clock is None:
            return
        seat = live.clock.flagged()
        if seat is not None:
            live.clock.remaining[seat] = 0
            await self._finish(live, live.state, 1 - seat, "time forfeit")

    async def _bot_turn(self, live: LiveGame, version: int, seat: int, spec: str) -> None:
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
            async with self._locked(live):
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
            raise GameError("unknown_game", "no game has that id")
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
        self.presence.watching(conn, live)  # presence
        return live

    def unwatch(self, conn: Connection, game_id: str) -> None:
        if game_id in conn.watching:
            del conn.watching[game_id]
            self.bus.unfollow(game_id)  # per-game channels
        live = self.games.get(game_id)
        if live is not None:
            live.subscribers.pop(conn, None)
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

    def _broadcast(self, live: LiveGame, announce: bool = True) -> None:
        """Send every watcher the change. Watchers already hold the move list up to the last
        broadcast, so they get only the entries added since (``history_from`` says where).
        In a cluster the other processes hear of it too (``announce``)."""
        if self.clustered and announce:
            self._out_games[live.id] = live.version
            self._out_lobby.add(live.id)
            self._kick_outbox()
        live.revision += 1
        live.delta_from, live.sent_len = live.sent_len, len(live.entries)
        for conn, svg in list(live.subscribers.items()):
            conn.push(self.message(live, conn, svg, delta=True))

    def message(
        self, live: LiveGame, conn: Connection | None, svg: bool, delta: bool = False
    ) -> str:
        """The state message for one client: the shared view, which seats are theirs, the
        clocks, and the legal actions when it is theirs to act (nobody else needs them)."""
        you = live.seats_of(conn.player_id if conn else None)
        clock = json.dumps(live.clock.to_json()) if live.clock else "null"
        to_act = live.status == "active" and live.state.current_player in you
        legal = self.legal_text(live) if to_act else "[]"
        game = self.view_json(live, svg, delta)
        return f'{{"type":"state","you":{json.dumps(you)},"clock":{clock},"legal":{legal},"game":{game}}}'

    def legal_text(self, live: LiveGame) -> str:
        cached = live.legal_cache
        if cached is None or cached[0] != live.revision:
            cached = live.legal_cache = (
                live.revision,
                json.dumps(self.legal(live), separators=(",", ":")),
            )
        return cached[1]

    def legal(self, live: LiveGame) -> list[dict[str, Any]]:
        """The legal decisions with their structured fields (each action's once per game)."""
        if live.status != "active" or live.state.current_player < 0:
            return []
        table = live.action_json
        out = []
        for action in live.state.legal_actions():
            entry = table.get(action.id)
            if entry is None:
                entry = table[action.id] = catalog.action_json(action)
            out.append(entry)
        return out

    def view_json(self, live: LiveGame, svg: bool, delta: bool = False) -> str:
        key = (svg, delta)
        cached = live.view_cache.get(key)
        if cached is not None and cached[0] == live.revision:
            return cached[1]
        view = self.view(live, svg, history_from=live.delta_from if delta else 0, legal=False)
        text = json.dumps(view, separators=(",", ":"))
        live.view_cache[key] = (live.revision, text)
        return text

    def view(
        self, live: LiveGame, svg: bool = True, history_from: int = 0, legal: bool = True
    ) -> dict[str, Any]:
        """The game as everyone may see it. The chance seed appears only once the game is over.

        ``history`` holds the move list from ``history_from`` on (0: all of it)."""
        state = live.state
        node = (
            "terminal"
            if state.is_terminal()
            else ("chance" if state.is_chance_node() else "decision")
        )
        actor = live.actor() if live.status == "active" else None
        over = live.status in ("finished", "aborted")
        view: dict[str, Any] = {
            "id": live.id,
            "game": live.game.ID,
            "title": live.game.TITLE,
            "options": dict(live.game.options),
            "options_text": catalog.options_text(live.game.ID, live.game.options),
            "mode": live.mode,
            "status": live.status,
            "rated": live.rated,
            "version": live.version,
            "seat_names": list(live.game.SEATS),
            "seats": [s.to_json() if s else None for s in live.seats],
            "node": node,
            "to_move": state.current_player
            if state.current_player >= 0 and live.status == "active"
            else None,
            "thrower": actor if node == "chance" else None,
            "legal": self.legal(live) if legal else [],
            "history": live.entries[history_from:],
            "history_from": history_from,
            "plies": len(live.entries),
            "events_from": live.events_from,
            "scores": live.final_scores
            if live.final_scores is not None
            else [float(x) for x in state.scores()],
            "position": state.position(),
            "winner": live.winner,
            "result": live.result,
            "termination": live.termination,
            "rating_changes": live.rating_changes,
            "fair": None,
            "rematch": {
                "id": live.rematch_id,
                "offers": sorted(live.rematch_offers),
                "of": live.rematch_of,
            },
            "created_at": live.created_at.isoformat(),
        }
        if live.chance is not None:
            view["fair"] = {
                "scheme": live.chance.scheme,
                "commitment": live.chance.commitment,
                "seed": live.chance.reveal() if live.status == "finished" else None,
            }
        if svg:
            last = state.history[-1] if state.history else None
            view["svg"] = catalog.svg_board(state, last)
        if over:
            view["to_move"] = None
        return view

    # -- the lobby -------------------------------------------------------------------------------------
    def lobby_view(self) -> dict[str, Any]:
        """Open seeks (newest first, at most a few per player and per address, so one source
        cannot crowd out the others) and the games in progress (liveliest first). In a
        cluster: every process's games, as they wrote them to the bus."""
        seeks: list[dict[str, Any]] = []
        live_games: list[dict[str, Any]] = []
        sources_of: dict[str, list[str]] = {}
        for item in self._lobby_items():
            idle = item["idle_s"]
            entry = item["entry"]
            if item["status"] == "waiting" and item["mode"] == "seek":
                if idle < LOBBY_IDLE_S:  # an old seek's creator has gone
                    seeks.append(entry)
                    sources_of[entry["id"]] = item["sources"]
            elif item["status"] == "active" and idle < LOBBY_IDLE_S:
                entry = dict(entry, idle_s=round(idle))
                live_games.append(entry)
        seeks.sort(key=lambda e: e["created_at"], reverse=True)
        live_games.sort(key=lambda e: e["idle_s"])  # the liveliest first
        shown: dict[str, int] = {}
        fair_seeks = []
        for entry in seeks:
            sources = sources_of[entry["id"]]
            if all(shown.get(src, 0) < LOBBY_SEEKS_PER_SOURCE for src in sources):
                for src in sources:
                    shown[src] = shown.get(src, 0) + 1
                fair_seeks.append(entry)
        return {"seeks": fair_seeks[:100], "live": live_games[:100]}

    def _lobby_items(self) -> list[dict[str, Any]]:
        """What the lobby chooses from: each game's entry, status, mode, idle time and the
        sources (player, address) its seeks count against."""
        if self.clustered:
            wall = time.time()
            return [
                dict(item, idle_s=wall - item["active_at"]) for item in self._lobby_mirror.values()
            ]
        now = time.monotonic()
        return [
            self._lobby_item(live, now - live.last_activity)
            for live in self.games.values()
            if live.status in ("waiting", "active")
        ]

    def _lobby_item(self, live: LiveGame, idle_s: float) -> dict[str, Any]:
        return {
            "entry": self._lobby_entry(live),
            "status": live.status,
            "mode": live.mode,
            "idle_s": idle_s,
            "sources": [f"p:{live.creator_id}"]
            + ([f"a:{live.creator_addr}"] if live.creator_addr else []),
        }

    @staticmethod
    def _lobby_entry(live: LiveGame) -> dict[str, Any]:
        return {
            "id": live.id,
            "game": live.game.ID,
            "title": live.game.TITLE,
            "options": dict(live.game.options),
            "options_text": catalog.options_text(live.game.ID, live.game.options),
            "mode": live.mode,
            "rated": live.rated,
            "clock": [live.clock.initial_ms, live.clock.increment_ms] if live.clock else None,
            "seats": [s.to_json() if s else None for s in live.seats],
            "plies": len(live.state.history),
            "created_at": live.created_at.isoformat(),
        }

    def _lobby_changed(self, live: LiveGame | None = None) -> None:
        """Something the lobby shows changed (in ``live``, if given): send the lobby's watchers
        an update soon (changes that come together share one update). In a cluster every
        process hears of it and sends its own lobby watchers the update."""
        if self.clustered:
            if live is not None:
                self._out_lobby.add(live.id)
            self._tell(LOBBY, {})
            return
        self._lobby_soon()

    def _lobby_soon(self) -> None:
        if self._lobby_timer is not None or not self.lobby or self._closing:
            return
        interval = 1.0 / self.settings.lobby_updates_per_s
        delay = max(0.0, self._lobby_flushed + interval - time.monotonic())
        self._lobby_timer = asyncio.get_running_loop().call_later(delay, self._lobby_flush)

    def _lobby_flush(self) -> None:
        """One lobby update: the entries that changed since the last update, and the order of
        both lists by id (an id left out has gone)."""
        self._lobby_timer = None
        self._lobby_flushed = time.monotonic()
        if not self.lobby:
            return
        view = self.lobby_view()
        changed, sent = [], {}
        for entry in view["seeks"] + view["live"]:
            key = json.dumps({k: v for k, v in entry.items() if k != "idle_s"}, sort_keys=True)
            sent[entry["id"]] = key
            if self._lobby_sent.get(entry["id"]) != key:
                changed.append(entry)
        order = {name: [e["id"] for e in view[name]] for name in ("seeks", "live")}
        if not changed and order == self._lobby_order:
            return
        self._lobby_sent, self._lobby_order = sent, order
        text = json.dumps(
            {"type": "lobby", "delta": True, "entries": changed, **order}, separators=(",", ":")
        )
        self.lobby_messages += 1
        for conn in list(self.lobby):
            conn.push(text)

    # -- connections ---------------------------------------------------------------------------------
    def connect(self, conn: Connection) -> None:
        self.connections.add(conn)
        self.presence.connected(conn)  # presence

    def sessions_ended(self, session_ids: list[str], announce: bool = True) -> None:
        """Close the connections of sessions that ended (sign-out): they act for nobody now."""
        if self.clustered and announce:
            self._tell(SESSIONS, {"ids": list(session_ids)})
        ended = set(session_ids)
        for conn in list(self.connections):
            if conn.session_id is not None and conn.session_id in ended:
                conn.close()

    def player_renamed(self, player_id: str, name: str, announce: bool = True) -> None:
        if self.clustered and announce:
            self._tell(PLAYERS, {"player": player_id, "name": name})
        for live in self.games.values():
            changed = False
            for seat in live.seats:
                if seat is not None and seat.player_id == player_id and seat.name != name:
                    seat.name = name
                    changed = True
            if changed:
                self._broadcast(live)

    # -- the cluster -------------------------------------------------------------------------------
    # With a shared bus (Redis) any number of processes serve the same games. The database is
    # the only authority: every change is made under the game's lock in this process, on the
    # newest stored version (reloaded when another process moved on), and written naming the
    # version it replaces, so a change is applied once whichever processes race. The bus only
    # says that something changed; watchers on other processes then read it from the database.
    @contextlib.asynccontextmanager
    async def _locked(self, live: LiveGame) -> AsyncIterator[None]:
        """Hold the game's lock, with its newest stored version in hand."""
        async with live.lock:
            if self.clustered:
                await self._refresh(live)
            yield

    async def _refresh(self, live: LiveGame) -> bool:
        """Adopt the stored game if another process changed it (under its lock); whether it
        had."""
        version = await self.db(self.store.game_version, live.id)
        if version is None or version == live.version:
            return False
        row = await self.db(self.store.load_game, live.id)
        if row is None:
            return False
        fresh = self._advanced(live, row) or await self._build(row)
        if fresh.status == "active" and fresh.clock is not None:
            await self._charge_time_before_stop(fresh, row.clock_since or row.started_at)
        if fresh.status == "finished":
            fresh.rematch_offers = await self._offers(live, [])
        start = len(live.state.history)
        for f in fields(LiveGame):
            if f.name not in _KEPT_ON_REFRESH:
                setattr(live, f.name, getattr(fresh, f.name))
        live.events_from = min(start, len(live.state.history))
        live.last_activity = time.monotonic()
        if live.status == "active" and live.clock is not None:
            live.clock.switch(live.actor())
        self._after_change(live, announce=False)
        self._queue_bot(live)  # once per version: in case its writer died before queueing it
        return True

    async def _offers(self, live: LiveGame, seats: list[int]) -> set[int]:
        """The rematch offers of a finished game, ``seats`` added, as the cluster knows them
        (Redis away: this process's own)."""
        try:
            return await self.bus.rematch_offers(live.id, seats)
        except Exception:
            log.warning("rematch offers of %s not shared: the bus is away", live.id)
            return live.rematch_offers | set(seats)

    def _advanced(self, live: LiveGame, row: GameRecord) -> LiveGame | None:
        """The stored game as ``live`` plus the moves played since (the common case: a game in
        progress, same players, history extended), without reading the players again or
        replaying the whole game; None when it is anything else."""
        if row.status != "active" or live.status != "active":
            return None
        if [row.seat0_id, row.seat1_id] != [s.player_id if s else None for s in live.seats]:
            return None
        done = len(live.state.history)
        if row.history[:done] != [a.text for a in live.state.history]:
            return None
        fresh = replace(
            live,
            state=live.state.clone(),
            movers=list(live.movers),
            entries=list(live.entries),
            throwers=dict(live.throwers),
        )
        try:
            for text in row.history[done:]:
                self._append(fresh, fresh.state, fresh.state.game.action(text))
        except (IllegalActionError, ValueError):
            return None
        fresh.version = row.version
        fresh.rated = row.rated
        if row.clock_initial_ms is not None:
            fresh.clock = Clock(
                row.clock_initial_ms,
                row.clock_increment_ms or 0,
                [row.clock0_ms or 0, row.clock1_ms or 0],
            )
        return fresh

    def _on_game(self, msg: dict[str, Any]) -> None:
        """Another process changed a game: watchers here get it, anything else forgets it."""
        if msg.get("origin") == self.bus.node or self._closing:
            return
        live = self.games.get(str(msg.get("id")))
        if live is None:
            return
        offers = msg.get("offers")
        if isinstance(offers, list):
            live.rematch_offers = {s for s in offers if s in (0, 1)}
            self._broadcast(live, announce=False)
            return
        version = msg.get("version")
        if not isinstance(version, int) or version <= live.version:
            return
        if live.subscribers or live.lock.locked():
            self._spawn(self._catch_up(live))
        else:
            self._forget(live)

    async def _catch_up(self, live: LiveGame) -> None:
        try:
            async with self._locked(live):
                pass
        except Exception:  # the database is away for a moment: the next change retries
            log.warning("game %s could not be reloaded", live.id, exc_info=True)

    def _forget(self, live: LiveGame) -> None:
        if live.flag_timer is not None:
            live.flag_timer.cancel()
            live.flag_timer = None
        self.games.pop(live.id, None)

    def _reload_watched(self) -> None:
        """The bus came back after a drop: whatever changed meanwhile is read again."""
        for live in list(self.games.values()):
            if live.subscribers:
                self._spawn(self._catch_up(live))
            elif not live.lock.locked():
                self._forget(live)
        self._on_lobby({})

    def read_lobby(self) -> None:
        """Read the cluster's lobby entries again (soon, once)."""
        self._on_lobby({})

    def _on_lobby(self, _msg: dict[str, Any]) -> None:
        """Some process's lobby entries changed: read them all (one read at a time)."""
        if self._closing:
            return
        if self._lobby_fetch is not None and not self._lobby_fetch.done():
            self._lobby_stale = True
            return
        self._lobby_fetch = self._spawn(self._fetch_lobby())

    async def _fetch_lobby(self) -> None:
        while True:
            self._lobby_stale = False
            try:
                entries = await self.bus.lobby_entries()
            except Exception:
                log.warning("the lobby could not be read from the bus", exc_info=True)
                return
            mirror = {}
            for gid, text in entries.items():
                with contextlib.suppress(ValueError, TypeError):
                    mirror[gid] = json.loads(text)
            self._lobby_mirror = mirror
            self._lobby_soon()
            if not self._lobby_stale:
                return

    def _lobby_record(self, live: LiveGame) -> str | None:
        """This game's lobby entry as the bus keeps it (None: not in the lobby)."""
        if live.status not in ("waiting", "active"):
            return None
        item = self._lobby_item(live, 0.0)
        del item["idle_s"]
        item["active_at"] = time.time() - (time.monotonic() - live.last_activity)
        return json.dumps(item, separators=(",", ":"))

    def _on_sessions(self, msg: dict[str, Any]) -> None:
        ids = msg.get("ids")
        if msg.get("origin") != self.bus.node and isinstance(ids, list):
            self.sessions_ended([str(i) for i in ids], announce=False)

    def _on_player(self, msg: dict[str, Any]) -> None:
        player, name = msg.get("player"), msg.get("name")
        if msg.get("origin") != self.bus.node and isinstance(player, str) and isinstance(name, str):
            self.player_renamed(player, name, announce=False)

    def _tell(self, channel: str, msg: dict[str, Any], topic: str | None = None) -> None:
        """Tell the other processes (``topic``: those following that game only)."""
        self._out_notices.append((channel, {**msg, "origin": self.bus.node}, topic))
        self._kick_outbox()

    def _kick_outbox(self) -> None:
        if self._outbox is None or self._outbox.done():
            self._outbox = self._spawn(self._flush_outbox())

    async def _flush_outbox(self) -> None:
        """Tell the other processes, in order: lobby entries first, then what changed, then
        the bots' jobs. Whatever piled up meanwhile goes together."""
        while self._out_games or self._out_lobby or self._out_notices or self._out_jobs:
            games, self._out_games = self._out_games, {}
            lobby, self._out_lobby = self._out_lobby, set()
            notices, self._out_notices = self._out_notices, []
            jobs, self._out_jobs = self._out_jobs, {}
            try:
                records = {
                    gid: self._lobby_record(live) if (live := self.games.get(gid)) else None
                    for gid in lobby
                }
                await self.bus.lobby_put(records)
                for gid, version in games.items():  # on the game's own channel
                    await self.bus.publish(
                        GAMES, {"id": gid, "version": version, "origin": self.bus.node}, gid
                    )
                for channel, msg, topic in notices:
                    await self.bus.publish(channel, msg, topic)
                for gid, version in jobs.items():
                    if self.jobs is not None:
                        await self.jobs.enqueue(gid, version)
            except Exception:  # Redis away: watchers elsewhere catch up when it is back
                log.warning("the bus could not be told of %d change(s)", len(games), exc_info=True)

    def _queue_bot(self, live: LiveGame) -> None:
        """In a cluster: if a bot is to act, queue its move (once per version)."""
        if not self.clustered or live.status != "active" or self._closing:
            return
        actor = live.actor()
        seat = live.seats[actor] if actor is not None else None
        if seat is not None and seat.kind == "bot" and seat.bot:
            self._out_jobs[live.id] = live.version
            self._kick_outbox()

    async def bot_job(self, game_id: str, version: int) -> None:
        """Play the bot's move at ``version`` of ``game_id`` (a job from the queue), unless the
        game moved on: played at most once, whoever else took the same job."""
        try:
            live = await self.get(game_id)
        except GameError:
            return
        async with self._locked(live):
            actor = live.actor()
            seat = live.seats[actor] if actor is not None else None
            if live.version != version or live.status != "active" or seat is None:
                return
            if seat.kind != "bot" or not seat.bot or actor is None:
                return
            spec = seat.bot
        await self._bot_turn(live, version, actor, spec)
        if not live.subscribers and not live.lock.locked():
            self._forget(live)  # a worker keeps no games

    async def _start_cluster(self) -> None:
        self.bus.on_reconnect = self._reload_watched
        await self._fetch_lobby()
        if self.jobs is not None:
            await self.jobs.setup()
            if self.settings.bot_jobs:
                self.jobs.start(self.bot_job, self.settings.bot_workers)

    async def check_watched(self) -> int:
        """In a cluster: read again the watched games that another process changed without
        saying so (it died between its write and its message); how many."""
        watched = [gid for gid, live in self.games.items() if live.subscribers]
        if not self.clustered or not watched:
            return 0
        behind = 0
        stored = await self.db(self.store.game_versions, watched)
        for gid, version in stored.items():
            live = self.games.get(gid)
            if live is not None and version > live.version:
                behind += 1
                self._spawn(self._catch_up(live))
        return behind

    async def sweep_clocks(self) -> int:
        """In a cluster: end the games whose clock ran out while the process that kept it was
        gone. One process at a time looks; the version check ends each game once. How many
        games were looked at."""
        if not self.clustered or not await self.bus.try_lock("clocks", CLOCK_SWEEP_S * 0.9):
            return 0
        now = utcnow()
        looked = 0
        for gid, since, left in await self.db(self.store.running_clocks):
            if since is None or (now - aware(since)).total_seconds() * 1000 < left + 200:
                continue
            try:
                live = await self.get(gid)
            except GameError:
                continue
            looked += 1
            await self._flag_check(live)
        return looked


def abandoned_values(version: int) -> dict[str, Any]:
    """The write that ends a game nobody joined, replacing ``version``."""
    return {"status": "aborted", "termination": "abandoned", "version": version + 1}
