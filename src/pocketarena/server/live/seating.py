"""Who sits at a game: new games (the checks they pass, their seats, the caps on games left
open, their first stored row), players joining, a seek cancelled, and rematches. Each change
is carried out by the runner (``live.hub``): under the game's lock, written, then adopted."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.exc import IntegrityError

from pocketarena.core import Game
from pocketarena.fair import FairChance
from pocketarena.i18n import _
from pocketarena.messages import speak_error

from .. import catalog
from ..core.config import Settings
from ..core.security import new_game_id, new_invite_token
from ..models import Player
from ..store import Store
from . import loading, session
from .bell import Bell
from .clock import Clock
from .cluster import Cluster
from .games import LiveGame, Runner, evict_idle, moment
from .session import GameError, Seat, may_be_rated


class Seating:
    """Who sits at a game: new games (started once both seats are taken), players joining,
    a seek cancelled, rematches. The runner carries out each change."""

    def __init__(self, runner: Runner, bell: Bell, cluster: Cluster) -> None:
        self.runner = runner
        self.bell = bell
        self.cluster = cluster

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
        runner = self.runner
        if len(runner.games) >= runner.settings.max_live_games:
            evict_idle(runner.games)
            if len(runner.games) >= runner.settings.max_live_games:
                raise GameError(
                    "unavailable", _("the server is full right now; try again in a minute")
                )
        game = session.check_new_game(game_id, options, mode, seat, bot, clock, days_per_move)
        capped = creator_addr is not None and (mode in ("seek", "friend") or clock is not None)
        creator_seat = secrets.randbelow(2) if seat is None else seat
        gid = new_game_id()
        while gid in runner.games:
            gid = new_game_id()
        # What a new game reads, in one trip to the database thread (each trip costs the
        # event loop a hop there and back): the open-game caps, the creator's row (made if
        # a guest's is missing) and rating, and whether the new id is free.
        creator, taken = await runner.db(
            _creator_reads,
            runner.store,
            runner.settings,
            creator_id,
            creator_addr if capped else None,
            game.ID,
            gid,
        )
        while taken:
            gid = new_game_id()
            taken = gid in runner.games or await runner.db(runner.store.game_exists, gid)
        seats = await _seats(runner, creator, game, mode, creator_seat, bot)
        started = seats[0] is not None and seats[1] is not None
        rated = session.rated_at_start(rated, seats, creator.kind)
        live = LiveGame(
            id=gid,
            game=game,
            state=game.new_initial_state(),
            mode=mode,
            rated=rated,
            creator_id=creator.player_id,
            creator_seat=creator_seat,
            seats=seats,
            invite_token=new_invite_token() if mode == "friend" else None,
            chance=FairChance(gid) if game.CHANCE else None,
            clock=Clock(clock[0], clock[1]) if clock else None,
            rematch_of=rematch_of,
            creator_addr=creator_addr,
            created_at=runner.now(),
            days_per_move=days_per_move,
        )
        if started:
            live.status = "active"
            live.started_at = runner.now()
        row = session.new_record(live)
        await runner.db(runner.store.insert_game, row)
        live.deadline = row.deadline
        return await self._open(live)

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
        runner = self.runner
        if gid in runner.games:
            return None
        try:
            game = catalog.load_game(game_id, options)
        except ValueError as e:
            raise GameError("bad_request", speak_error(e)) from None
        found = await runner.db(runner.store.get_players, list(players))
        if any(pid not in found for pid in players):
            raise GameError("bad_request", _("a paired player is unknown"))
        seats: list[Seat | None] = [await seat_of(runner, found[pid], game.ID) for pid in players]
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
            created_at=runner.now(),
            days_per_move=days_per_move,
        )
        live.status = "active"
        live.started_at = runner.now()
        row = session.new_record(live)
        try:
            await runner.db(runner.store.insert_game, row)
        except IntegrityError:
            return None
        live.deadline = row.deadline
        return await self._open(live)

    async def _open(self, live: LiveGame) -> LiveGame:
        """Hold a new game (stored), and start it if both seats are taken."""
        self.runner.games[live.id] = live
        if live.status == "active":
            await self._begin(live)
        self.runner.lobby_changed(live)
        return live

    async def _begin(self, live: LiveGame) -> None:
        """First moment with both seats taken: resolve opening chance nodes, start the clock."""
        async with self.runner.locked(live):
            change = session.begin(live, moment(live), self.runner.now())
            if change is not None:
                await self.runner.carry_out(live, change)
            else:
                session.start_clock(live, moment(live))
                self.runner.after_change(live)
                self.bell.changed(live, None)
        self.bell.started(live)

    async def join(self, player_id: str, game_id: str, invite: str | None = None) -> LiveGame:
        live = await self.runner.get(game_id)
        async with self.runner.locked(live):
            seat = session.joining_seat(live, player_id, invite)
            if seat is None:
                return live
            # the joiner's row (made if a guest's is missing) and rating: one trip
            store = self.runner.store
            joiner = await self.runner.db(_guest_seat, store, player_id, live.game.ID)
            seats = list(live.seats)
            seats[seat] = joiner
            started_at = self.runner.now()
            rated = live.rated and may_be_rated(seats)  # a guest joining plays it unrated
            values = {
                f"seat{seat}_id": joiner.player_id,
                "status": "active",
                "rated": rated,
                "started_at": started_at,
                "version": live.version + 1,
                **session.turn_values(live, live.state, started_at, seats),
            }
            await self.runner.save(live, values)
            live.deadline = values["deadline"]
            live.seats = seats
            live.status = "active"
            live.rated = rated
            live.started_at = started_at
            live.version += 1
        self.runner.lobby_changed(live)
        await self._begin(live)
        return live

    async def cancel(self, player_id: str, game_id: str) -> LiveGame:
        live = await self.runner.get(game_id)
        async with self.runner.locked(live):
            if live.creator_id != player_id:
                raise GameError(
                    "forbidden", _("only the player who opened this game can cancel it")
                )
            if live.status != "waiting":
                raise GameError(
                    "not_active", _("only a game still waiting for an opponent can be cancelled")
                )
            await self.runner.abandon(live)
        self.runner.lobby_changed(live)
        return live

    async def rematch(self, player_id: str | None, game_id: str) -> LiveGame:
        """Offer a rematch; it starts when the opponent offers too (a bot always agrees)."""
        live = await self.runner.get(game_id)
        if live.mode == "tourney":
            raise GameError("not_active", _("a tournament's games have no rematch"))
        async with self.runner.locked(live):
            mine = session.rematch_offer(live, player_id)
            if live.rematch_id or player_id is None:
                return live
            live.rematch_offers.update(mine)
            # kept by the bus: the other player may be on another process, or offer after
            # the game left memory here
            await self.cluster.share_offers(live, mine)
            if not session.rematch_agreed(live, mine):
                self.runner.broadcast(live)
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
            await self.runner.save(live, {"rematch_id": new.id, "version": live.version + 1})
            live.rematch_id = new.id
            live.version += 1
            self.runner.broadcast(live)
        return live


async def seat_of(runner: Runner, player: Player, game_id: str) -> Seat:
    """``player``'s seat at a game of ``game_id``, with their rating in it."""
    return loading.seat(player, await runner.db(runner.store.rating, player.id, game_id))


def _guest_seat(store: Store, player_id: str, game_id: str) -> Seat:
    """On the database thread: the seat of a player who sits down by their cookie's id (a
    guest's row made if it is missing)."""
    player = store.ensure_guest(player_id)
    return loading.seat(player, store.rating(player.id, game_id))


def _creator_reads(
    store: Store,
    settings: Settings,
    player_id: str,
    addr: str | None,
    game_id: str,
    gid: str,
) -> tuple[Seat, bool]:
    """On the database thread, in this order: the open-game caps checked (``addr`` given:
    GameError past one), the creator's seat (``_guest_seat``), and whether a game ``gid``
    is stored already."""
    if addr is not None:
        _check_open_games(settings, *store.open_games(player_id, addr))
    return _guest_seat(store, player_id, game_id), store.game_exists(gid)


async def _seats(
    runner: Runner, creator: Seat, game: Game, mode: str, creator_seat: int, bot: str | None
) -> list[Seat | None]:
    """The seats of a new game: the creator's, and the bot's or the creator's again."""
    seats: list[Seat | None] = [None, None]
    seats[creator_seat] = creator
    if mode == "bot" and bot is not None:
        bot_player = await runner.db(runner.store.ensure_bot, bot, catalog.stored_bot_name(bot))
        seats[1 - creator_seat] = await seat_of(runner, bot_player, game.ID)
    elif mode == "local":
        seats[1 - creator_seat] = seats[creator_seat]
    return seats


def _check_open_games(s: Settings, mine: int, here: int) -> None:
    """At most ``max_open_games`` games waiting for an opponent or running a clock per
    player (``mine``), and ``address_max_open_games`` per address (``here``)."""
    if mine >= s.max_open_games:
        raise GameError(
            "too_many_games",
            _(
                "you have %(count)s games waiting for an opponent or on the clock; "
                "finish or cancel one first",
                count=s.max_open_games,
            ),
        )
    if here >= s.address_max_open_games:
        raise GameError(
            "too_many_games",
            _(
                "%(count)s games opened from your address are waiting for an "
                "opponent or on the clock; finish or cancel one first",
                count=s.address_max_open_games,
            ),
        )
