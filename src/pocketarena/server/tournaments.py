"""Tournaments on the server: Swiss, round robin and arena, for people and bots.

An account creates one (``TournamentCreate``); players join (and withdraw) until it starts, an
arena's also while it runs; the organiser may add bots by level. The pairing and the table
come from ``pocketarena.tournaments``, the same module as ``pocketarena arena --kind``.

Every process of a cluster ticks each running tournament now and then (``Tournaments.tick``).
A tick reads the tournament's pairings and the stored results of their games, and when a round
is over pairs the next one: in one transaction (under PostgreSQL's advisory lock for the
tournament), every board of the round is inserted with the id its game will have. The unique
(tournament, round, board) makes a round paired once whichever process gets there first; a
game is then created with that id, so it too is created once (a second insert of the same id
fails and is ignored), and a process killed between the two leaves boards whose games the next
tick of any process creates. Results are always read from the stored games.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from pocketarena import tournaments as pairing
from pocketarena.i18n import _
from pocketarena.messages import speak_error
from pocketarena.tournaments import Played

from . import catalog
from .core.security import _ALPHABET
from .live.connection import Connection
from .live.hub import Hub
from .live.session import DAYS_PER_MOVE, GameError
from .models import GameRecord, Player, TournamentPairingRow, TournamentPlayerRow, TournamentRow
from .names import guest_number, numbered_bot_name
from .schemas import ClockIn
from .store import aware, bot_player_id

log = logging.getLogger(__name__)

KINDS = ("swiss", "round-robin", "arena")
TICK_S = 1.0  # how often each process looks at the running tournaments
MAX_ROUNDS = 30
MAX_BOTS_AT_ONCE = 50
Kind = Literal["swiss", "round-robin", "arena"]


class TournamentCreate(BaseModel):
    """A new tournament's settings."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    kind: Kind
    game: str = Field(max_length=40, examples=["stack-a-cash"])
    options: dict[str, Any] = Field(default_factory=dict, max_length=10)
    clock: ClockIn | None = Field(None, description="null: untimed (Swiss and round robin)")
    days_per_move: int | None = Field(
        None,
        description="Turn-based games (Swiss and round robin): 1, 2, 3, 5, 7 or 14 days a move",
    )
    starts_in_s: int = Field(300, ge=0, le=30 * 86400, description="Seconds until it starts")
    rounds: int | None = Field(None, ge=1, le=MAX_ROUNDS, description="Swiss only")
    duration_s: int | None = Field(None, ge=60, le=86400, description="Arena only")
    rated: bool = False
    invite_only: bool = False
    min_games: int = Field(0, ge=0, le=10_000, description="Finished games a player needs")
    max_players: int | None = Field(None, ge=2, description="Default: the server's limit")


class BotsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    level: str = Field(max_length=20, examples=["easy"])
    count: int = Field(1, ge=1, le=MAX_BOTS_AT_ONCE)


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    invite: str | None = Field(None, max_length=64)


def game_id_for(tournament_id: str, round_: int, board: int) -> str:
    """The id of a board's game, fixed when the round is paired (8 characters of the game id
    alphabet, from a hash): whoever creates the game gives it this id, so it exists once."""
    digest = hashlib.sha256(f"tournament:{tournament_id}:{round_}:{board}".encode()).digest()
    number = int.from_bytes(digest[:12], "big")
    out = []
    for _step in range(8):
        number, k = divmod(number, len(_ALPHABET))
        out.append(_ALPHABET[k])
    return "".join(out)


def bot_level(spec: str) -> str:
    """A tournament bot's level: its spec without the ``#n`` that tells bots of one level
    apart (each bot of a tournament is a player of its own)."""
    return spec.split("#", 1)[0]


def _lock_key(tournament_id: str) -> int:
    return int.from_bytes(hashlib.sha256(tournament_id.encode()).digest()[:8], "big", signed=True)


@dataclass
class Board:
    round: int
    board: int
    first: str
    second: str | None
    game_id: str | None
    status: str | None  # the game's: active | finished | aborted; None before it exists
    score: float | None  # the first seat's, once finished
    finished_at: datetime | None


def _score(game: GameRecord) -> float | None:
    if game.status == "aborted":
        return 0.5  # nobody played it out: half a point each
    if game.status != "finished":
        return None
    return 0.5 if game.winner is None else (1.0 if game.winner == 0 else 0.0)


class TournamentStore:
    """The tournament tables (called in the hub's database threads)."""

    def __init__(self, hub: Hub) -> None:
        self.store = hub.store

    def get(self, tournament_id: str) -> TournamentRow | None:
        with self.store.single() as s:
            return s.get(TournamentRow, tournament_id)

    def insert(self, row: TournamentRow) -> None:
        with self.store.sessions() as s:
            s.add(row)
            s.commit()

    def created_since(self, creator_id: str, since: datetime) -> int:
        with self.store.single() as s:
            query = select(func.count()).where(
                TournamentRow.creator_id == creator_id, TournamentRow.created_at >= since
            )
            return int(s.scalar(query.select_from(TournamentRow)) or 0)

    def players(self, tournament_id: str) -> list[TournamentPlayerRow]:
        with self.store.single() as s:
            query = (
                select(TournamentPlayerRow)
                .where(TournamentPlayerRow.tournament_id == tournament_id)
                .order_by(TournamentPlayerRow.seed)
            )
            return list(s.scalars(query))

    def boards(self, tournament_id: str) -> list[Board]:
        with self.store.single() as s:
            return self._boards(s, tournament_id)

    def of_game(self, game_id: str) -> tuple[TournamentRow, int] | None:
        """The tournament a game was paired in, and its round (None: not a tournament's)."""
        with self.store.single() as s:
            found = s.execute(
                select(TournamentRow, TournamentPairingRow.round)
                .join(TournamentPairingRow, TournamentPairingRow.tournament_id == TournamentRow.id)
                .where(TournamentPairingRow.game_id == game_id)
                .limit(1)
            ).first()
            return None if found is None else (found[0], found[1])

    @staticmethod
    def _boards(s: Session, tournament_id: str) -> list[Board]:
        rows = list(
            s.scalars(
                select(TournamentPairingRow)
                .where(TournamentPairingRow.tournament_id == tournament_id)
                .order_by(TournamentPairingRow.round, TournamentPairingRow.board)
            )
        )
        ids = [r.game_id for r in rows if r.game_id]
        games = {g.id: g for g in s.scalars(select(GameRecord).where(GameRecord.id.in_(ids)))}
        boards = []
        for r in rows:
            game = games.get(r.game_id or "")
            boards.append(
                Board(
                    round=r.round,
                    board=r.board,
                    first=r.first_id,
                    second=r.second_id,
                    game_id=r.game_id,
                    status=None if game is None else game.status,
                    score=None if game is None else _score(game),
                    finished_at=None
                    if game is None or game.finished_at is None
                    else aware(game.finished_at),
                )
            )
        return boards

    def add_player(self, tournament_id: str, player_id: str, limit: int) -> bool:
        """Seat ``player_id`` (again, if withdrawn); False when the tournament is full."""
        with self.store.sessions() as s, s.begin():
            if self.store.engine.dialect.name == "postgresql":
                s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(tournament_id)})
            mine = s.get(TournamentPlayerRow, (tournament_id, player_id))
            if mine is not None:
                mine.withdrawn = False
                return True
            count = s.scalar(
                select(func.count())
                .select_from(TournamentPlayerRow)
                .where(TournamentPlayerRow.tournament_id == tournament_id)
            )
            if (count or 0) >= limit:
                return False
            top = s.scalar(
                select(func.max(TournamentPlayerRow.seed)).where(
                    TournamentPlayerRow.tournament_id == tournament_id
                )
            )
            s.add(
                TournamentPlayerRow(
                    tournament_id=tournament_id, player_id=player_id, seed=(top or 0) + 1
                )
            )
        return True

    def withdraw(self, tournament_id: str, player_id: str) -> bool:
        with self.store.sessions() as s, s.begin():
            mine = s.get(TournamentPlayerRow, (tournament_id, player_id))
            if mine is None or mine.withdrawn:
                return False
            mine.withdrawn = True
        return True

    def set_status(self, tournament_id: str, status: str, old: Sequence[str]) -> bool:
        """Move from one of ``old`` to ``status``; False if it was not in one of them."""
        now = datetime.now(UTC)
        with self.store.sessions() as s, s.begin():
            row = s.get(TournamentRow, tournament_id, with_for_update=True)
            if row is None or row.status not in old:
                return False
            if status == "running" and row.started_at is None:
                row.started_at = now
            if status == "finished":
                row.finished_at = now
            row.status = status
        return True

    def listing(self, statuses: Sequence[str], limit: int = 50) -> list[TournamentRow]:
        with self.store.single() as s:
            query = (
                select(TournamentRow)
                .where(TournamentRow.status.in_(statuses))
                .order_by(TournamentRow.starts_at.desc())
                .limit(limit)
            )
            return list(s.scalars(query))

    def running_ids(self) -> list[str]:
        now = datetime.now(UTC)
        with self.store.single() as s:
            query = select(TournamentRow.id).where(
                (TournamentRow.status.in_(("running", "paused")))
                | ((TournamentRow.status == "created") & (TournamentRow.starts_at <= now))
            )
            return list(s.scalars(query))

    # -- pairing -----------------------------------------------------------------------------
    def advance(self, tournament_id: str, online: set[str] | None) -> bool:
        """One tick's decisions, in one transaction under the tournament's lock: start it when
        due, pair the next round when the last is over, finish it after the last. ``online``:
        the people an arena may pair now (None: everyone). True when something changed."""
        now = datetime.now(UTC)
        try:
            with self.store.sessions() as s, s.begin():
                if self.store.engine.dialect.name == "postgresql":
                    s.execute(
                        text("SELECT pg_advisory_xact_lock(:k)"), {"k": _lock_key(tournament_id)}
                    )
                row = s.get(TournamentRow, tournament_id)
                if row is None or row.status == "finished":
                    return False
                players = list(
                    s.scalars(
                        select(TournamentPlayerRow)
                        .where(TournamentPlayerRow.tournament_id == tournament_id)
                        .order_by(TournamentPlayerRow.seed)
                    )
                )
                active = [p.player_id for p in players if not p.withdrawn]
                started = False
                if row.status == "created":
                    if aware(row.starts_at) > now or len(active) < 2:
                        return False
                    row.status = "running"
                    row.started_at = now
                    started = True
                boards = self._boards(s, tournament_id)
                if row.kind == "arena":
                    return self._advance_arena(s, row, players, boards, online, now) or started
                return self._advance_rounds(s, row, players, boards, now) or started
        except IntegrityError:
            # Another process paired this round first (the unique board): nothing to do.
            return False

    def _insert_round(
        self, s: Session, row: TournamentRow, number: int, pairings: Sequence[pairing.Pairing]
    ) -> None:
        for board, p in enumerate(pairings):
            s.add(
                TournamentPairingRow(
                    tournament_id=row.id,
                    round=number,
                    board=board,
                    first_id=p.first,
                    second_id=p.second,
                    game_id=None if p.second is None else game_id_for(row.id, number, board),
                )
            )
        s.flush()

    def _advance_rounds(
        self,
        s: Session,
        row: TournamentRow,
        players: list[TournamentPlayerRow],
        boards: list[Board],
        now: datetime,
    ) -> bool:
        current = max((b.round for b in boards), default=0)
        if any(b.second is not None and b.score is None for b in boards if b.round == current):
            return False  # the round is still being played
        everyone = [p.player_id for p in players]
        withdrawn = {p.player_id for p in players if p.withdrawn}
        if row.kind == "round-robin":
            schedule = pairing.round_robin.pair(everyone)
            total = len(schedule)
        else:
            total = row.rounds or 1
        if current >= total:
            row.status = "finished"
            row.finished_at = now
            return True
        if row.kind == "round-robin":
            # A withdrawn player's opponent takes the point, as a bye.
            pairings = []
            for p in schedule[current]:
                names = [n for n in p.players() if n not in withdrawn]
                if len(names) == 2:
                    pairings.append(p)
                elif names:
                    pairings.append(pairing.Pairing(names[0], None))
        else:
            active = [p for p in everyone if p not in withdrawn]
            pairings = pairing.swiss.pair(active, played(boards))
        self._insert_round(s, row, current + 1, pairings)
        return True

    def _advance_arena(
        self,
        s: Session,
        row: TournamentRow,
        players: list[TournamentPlayerRow],
        boards: list[Board],
        online: set[str] | None,
        now: datetime,
    ) -> bool:
        playing = {
            p
            for b in boards
            if b.second is not None and b.score is None
            for p in (b.first, b.second)
            if p is not None
        }
        ends = aware(row.started_at or now) + timedelta(seconds=row.duration_s or 0)
        if now >= ends:
            if not playing:
                row.status = "finished"
                row.finished_at = now
                return True
            return False
        if row.status == "paused":
            return False
        everyone = [p.player_id for p in players]
        waiting = [
            p.player_id
            for p in players
            if not p.withdrawn
            and p.player_id not in playing
            and (online is None or p.player_id in online)
        ]
        if len(waiting) < 2:
            return False
        games = played(boards, by_finish=True)
        table = pairing.arena_standings(everyone, games)
        rank = {sheet.player: i for i, sheet in enumerate(table)}
        last: dict[str, str] = {}
        balance: dict[str, int] = {}
        for g in games:
            if g.second is None:
                continue
            last[g.first], last[g.second] = g.second, g.first
            balance[g.first] = balance.get(g.first, 0) + 1
            balance[g.second] = balance.get(g.second, 0) - 1
        pairings = pairing.arena.pair(waiting, rank, last, balance)
        if not pairings:
            return False
        self._insert_round(s, row, max((b.round for b in boards), default=0) + 1, pairings)
        return True


def played(boards: Sequence[Board], by_finish: bool = False) -> list[Played]:
    """The finished games and byes, in pairing order (or, ``by_finish``, in the order the
    games ended: an arena's streaks follow it)."""
    done = [b for b in boards if b.second is None or b.score is not None]
    if by_finish:
        far = datetime.max.replace(tzinfo=UTC)
        done.sort(key=lambda b: (b.finished_at or far, b.round, b.board))
    return [Played(b.first, b.second, 1.0 if b.second is None else (b.score or 0.0)) for b in done]


def check_timing(body: TournamentCreate) -> None:
    """Rounds for a Swiss, a duration and a clock for an arena, a clock or days per move (not
    both) for the others: GameError says which setting does not fit and why."""
    if body.kind == "swiss" and body.rounds is None:
        raise GameError("bad_request", _("a Swiss needs a number of rounds (1 to 30)"))
    if body.kind != "swiss" and body.rounds is not None:
        raise GameError("bad_request", _("rounds are for a Swiss; other tournaments have none"))
    if body.days_per_move is not None:
        if body.kind == "arena":
            raise GameError("bad_request", _("an arena is played on the clock, not by the day"))
        if body.clock is not None:
            raise GameError(
                "bad_request", _("give a clock or days per move, not both: one or the other")
            )
        if body.days_per_move not in DAYS_PER_MOVE:
            raise GameError(
                "bad_request",
                _(
                    "days per move is one of %(days)s, not %(value)s",
                    days=", ".join(map(str, DAYS_PER_MOVE)),
                    value=body.days_per_move,
                ),
            )
    if body.kind == "arena":
        if body.duration_s is None:
            raise GameError("bad_request", _("an arena needs a duration (60 s to 24 h)"))
        if body.clock is None:
            raise GameError("bad_request", _("an arena is played on the clock: give one"))
    elif body.duration_s is not None:
        raise GameError(
            "bad_request", _("a duration is for an arena; other tournaments have rounds")
        )


class Tournaments:
    """The tournaments of this process: creating, joining, the ticks, and the watchers."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.rows = TournamentStore(hub)
        self.watchers: dict[str, set[Connection]] = {}
        self._sent: dict[tuple[str, Connection], str] = {}
        self._creating: set[str] = set()

    @property
    def settings(self) -> Any:
        return self.hub.settings

    async def db(self, fn: Any, *args: Any) -> Any:
        return await self.hub.db(fn, *args)

    async def get(self, tournament_id: str) -> TournamentRow:
        row: TournamentRow | None = await self.db(self.rows.get, tournament_id)
        if row is None:
            raise GameError("unknown_tournament", _("no tournament %(id)r", id=tournament_id))
        return row

    # -- creating ----------------------------------------------------------------------------
    async def create(self, creator_id: str, body: TournamentCreate) -> TournamentRow:
        creator: Player | None = await self.db(self.hub.store.get_player, creator_id)
        if creator is None or creator.kind != "account":
            raise GameError("forbidden", _("sign in to an account to create a tournament"))
        try:
            game = catalog.load_game(body.game, body.options)
        except ValueError as e:
            raise GameError("bad_request", speak_error(e)) from None
        check_timing(body)
        limit = self.settings.tournament_max_players
        max_players = body.max_players or limit
        if max_players > limit:
            raise GameError(
                "bad_request", _("a tournament takes at most %(count)s players", count=limit)
            )
        since = datetime.now(UTC) - timedelta(days=1)
        made = await self.db(self.rows.created_since, creator_id, since)
        if made >= self.settings.tournaments_per_day:
            raise GameError(
                "rate_limited",
                _(
                    "you created %(count)s tournaments in the last 24 hours, the most allowed; "
                    "try again tomorrow",
                    count=made,
                ),
                retry_after=3600,
            )
        tid = secrets.token_urlsafe(9)[:12]
        row = TournamentRow(
            id=tid,
            name=" ".join(body.name.split()),
            kind=body.kind,
            game=game.ID,
            options=dict(game.options),
            clock_initial_ms=body.clock.initial_s * 1000 if body.clock else None,
            clock_increment_ms=body.clock.increment_s * 1000 if body.clock else None,
            rated=body.rated,
            invite_only=body.invite_only,
            invite_token=secrets.token_urlsafe(12) if body.invite_only else None,
            min_games=body.min_games,
            max_players=max_players,
            rounds=body.rounds,
            duration_s=body.duration_s,
            days_per_move=body.days_per_move,
            status="created",
            creator_id=creator_id,
            starts_at=datetime.now(UTC) + timedelta(seconds=body.starts_in_s),
            created_at=datetime.now(UTC),
        )
        if not row.name:
            raise GameError("bad_request", _("a tournament needs a name"))
        await self.db(self.rows.insert, row)
        return row

    # -- joining -----------------------------------------------------------------------------
    def _open_for_entries(self, row: TournamentRow) -> None:
        if row.status == "finished":
            raise GameError("not_active", _("this tournament is over"))
        if row.status != "created" and row.kind != "arena":
            raise GameError("not_active", _("this tournament has started; entries are closed"))

    async def join(self, tournament_id: str, player_id: str, invite: str | None) -> None:
        row = await self.get(tournament_id)
        self._open_for_entries(row)
        invited = bool(invite) and secrets.compare_digest(invite or "", row.invite_token or "")
        if row.invite_only and player_id != row.creator_id and not invited:
            raise GameError("forbidden", _("this tournament is by invitation: use its link"))
        player: Player | None = await self.db(self.hub.store.ensure_guest, player_id)
        if player is None or player.kind == "bot":
            raise GameError("forbidden", _("bots are added by the organiser"))
        if row.rated and player.kind != "account":
            raise GameError(
                "forbidden",
                _("sign in to an account to play in a rated tournament; guests watch"),
            )
        if row.min_games:
            stats = await self.db(self.hub.store.player_stats, player_id)
            if stats["played"] < row.min_games:
                raise GameError(
                    "forbidden",
                    _(
                        "this tournament is for players with %(count)s finished games; "
                        "you have %(played)s",
                        count=row.min_games,
                        played=stats["played"],
                    ),
                )
        if not await self.db(self.rows.add_player, tournament_id, player_id, row.max_players):
            raise GameError(
                "full", _("this tournament is full (%(count)s players)", count=row.max_players)
            )

    async def withdraw(self, tournament_id: str, player_id: str) -> None:
        row = await self.get(tournament_id)
        if row.status == "finished":
            raise GameError("not_active", _("this tournament is over"))
        if not await self.db(self.rows.withdraw, tournament_id, player_id):
            raise GameError("not_seated", _("you are not playing in this tournament"))

    async def add_bots(self, tournament_id: str, player_id: str, body: BotsIn) -> list[str]:
        row = await self.get(tournament_id)
        if player_id != row.creator_id:
            raise GameError("forbidden", _("only the organiser adds bots"))
        self._open_for_entries(row)
        levels = catalog.bot_levels(row.game)
        if body.level not in levels:
            raise GameError(
                "bad_request",
                _(
                    "no %(bot)r bot for this game; choose one of: %(levels)s",
                    bot=body.level,
                    levels=", ".join(levels),
                ),
            )
        taken = {p.player_id for p in await self.db(self.rows.players, tournament_id)}
        added: list[str] = []
        k = 0
        while len(added) < body.count:
            k += 1
            spec = f"{body.level}#{k}"
            if bot_player_id(spec) in taken:
                continue
            name = numbered_bot_name(catalog.stored_bot_name(body.level), k)
            bot: Player = await self.db(self.hub.store.ensure_bot, spec, name)
            if not await self.db(self.rows.add_player, tournament_id, bot.id, row.max_players):
                if added:
                    break
                raise GameError(
                    "full", _("this tournament is full (%(count)s players)", count=row.max_players)
                )
            added.append(bot.id)
        return added

    async def start(self, tournament_id: str, player_id: str) -> None:
        row = await self.get(tournament_id)
        if player_id != row.creator_id:
            raise GameError("forbidden", _("only the organiser starts the tournament"))
        if row.status != "created":
            raise GameError("not_active", _("this tournament has already started"))
        active = [p for p in await self.db(self.rows.players, tournament_id) if not p.withdrawn]
        if len(active) < 2:
            raise GameError("not_active", _("a tournament needs at least two players to start"))
        await self.db(self.rows.set_status, tournament_id, "running", ("created",))
        await self.tick(tournament_id)

    async def pause(self, tournament_id: str, player_id: str, paused: bool) -> None:
        row = await self.get(tournament_id)
        if player_id != row.creator_id:
            raise GameError("forbidden", _("only the organiser pauses the tournament"))
        if row.kind != "arena":
            raise GameError("bad_request", _("only an arena pauses; a round waits for its games"))
        old, new = ("running", "paused") if paused else ("paused", "running")
        if not await self.db(self.rows.set_status, tournament_id, new, (old,)):
            raise GameError(
                "not_active",
                _("this arena is not running") if paused else _("this arena is not paused"),
            )

    # -- the ticks -----------------------------------------------------------------------------
    async def tick(self, tournament_id: str) -> None:
        """Start, pair or finish the tournament as due, then create the games of its boards
        that have none yet (another process may have died before it did)."""
        row = await self.get(tournament_id)
        online: set[str] | None = None
        if row.kind == "arena":
            # People who are away are not paired again until they are back; bots always are.
            players = await self.db(self.rows.players, tournament_id)
            ids = [p.player_id for p in players]
            found = await self.db(self.hub.store.get_players, ids)
            people = [pid for pid in ids if pid in found and found[pid].kind != "bot"]
            online = set(ids) - set(people)
            if people:
                online |= await self.hub.presence.online(people)
        await self.db(self.rows.advance, tournament_id, online)
        await self.create_games(tournament_id)

    async def create_games(self, tournament_id: str) -> None:
        row = await self.get(tournament_id)
        boards: list[Board] = await self.db(self.rows.boards, tournament_id)
        for b in boards:
            if b.second is None or b.game_id is None or b.status is not None:
                continue
            if b.game_id in self._creating:
                continue
            self._creating.add(b.game_id)
            try:
                clock = None
                if row.clock_initial_ms is not None:
                    clock = (row.clock_initial_ms, row.clock_increment_ms or 0)
                await self.hub.seating.create_paired(
                    b.game_id,
                    row.game,
                    dict(row.options),
                    (b.first, b.second),
                    clock=clock,
                    rated=row.rated,
                    creator_id=row.creator_id,
                    days_per_move=row.days_per_move,
                )
            finally:
                self._creating.discard(b.game_id)

    async def tick_all(self) -> None:
        for tid in await self.db(self.rows.running_ids):
            try:
                await self.tick(tid)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s: the tick failed", tid)
        await self.push()

    # -- what the pages and sockets show ------------------------------------------------------
    async def summaries(self, statuses: Sequence[str], limit: int = 50) -> list[dict[str, Any]]:
        """One line per tournament: for the lists (starting soon, running, finished)."""
        rows: list[TournamentRow] = await self.db(self.rows.listing, statuses, limit)
        out = []
        for row in rows:
            players = await self.db(self.rows.players, row.id)
            out.append(
                {
                    "id": row.id,
                    "name": row.name,
                    "kind": row.kind,
                    "game": row.game,
                    "game_title": catalog.game_class(row.game).TITLE,
                    "status": row.status,
                    "rated": row.rated,
                    "invite_only": row.invite_only,
                    "players": sum(not p.withdrawn for p in players),
                    "rounds": row.rounds,
                    "duration_s": row.duration_s,
                    "starts_at": aware(row.starts_at).isoformat(),
                }
            )
        return out

    async def of_game(self, game_id: str) -> dict[str, Any] | None:
        """The tournament a game belongs to, for its page's header: id, name, kind, round."""
        found: tuple[TournamentRow, int] | None = await self.db(self.rows.of_game, game_id)
        if found is None:
            return None
        row, round_ = found
        return {"id": row.id, "name": row.name, "kind": row.kind, "round": round_}

    async def view(self, tournament_id: str, viewer: str | None = None) -> dict[str, Any]:
        row = await self.get(tournament_id)
        players: list[TournamentPlayerRow] = await self.db(self.rows.players, tournament_id)
        boards: list[Board] = await self.db(self.rows.boards, tournament_id)
        found: dict[str, Player] = await self.db(
            self.hub.store.get_players,
            [p.player_id for p in players] + [row.creator_id],
        )
        return tournament_view(row, players, boards, found, viewer)

    def watch(self, conn: Connection, tournament_id: str) -> None:
        self.watchers.setdefault(tournament_id, set()).add(conn)

    def unwatch(self, conn: Connection) -> None:
        for tid, conns in list(self.watchers.items()):
            conns.discard(conn)
            self._sent.pop((tid, conn), None)
            if not conns:
                del self.watchers[tid]

    async def push(self) -> None:
        """Each watcher's tournament as it stands, when it changed since the last push (every
        process reads the database itself, so a change made by any of them reaches all)."""
        for tid, conns in list(self.watchers.items()):
            try:
                view = await self.view(tid)
            except GameError:
                continue
            for conn in list(conns):
                if conn.closed:
                    conns.discard(conn)
                    continue
                mine = dict(view, you=you(view, conn.player_id))
                message = TournamentOut(tournament=mine).model_dump_json()
                if self._sent.get((tid, conn)) != message:
                    self._sent[(tid, conn)] = message
                    conn.push(message)


class TournamentOut(BaseModel):
    """A watched tournament, after a change: standings, rounds and pairings."""

    type: Literal["tournament"] = "tournament"
    tournament: dict[str, Any]


def you(view: dict[str, Any], player_id: str | None) -> dict[str, Any]:
    row = next((r for r in view["standings"] if r["id"] == player_id), None)
    playing = None
    for rnd in reversed(view["rounds"]):
        for b in rnd["boards"]:
            ids = {b["first"]["id"], (b["second"] or {}).get("id")}
            if player_id in ids and b["game_id"] and b["status"] == "active":
                playing = b["game_id"]
        if playing:
            break
    return {
        "joined": row is not None and not row["withdrawn"],
        "organiser": player_id == view["creator"]["id"],
        "game": playing,
    }


def _person(pid: str | None, found: dict[str, Player]) -> dict[str, Any] | None:
    if pid is None:
        return None
    p = found.get(pid)
    name = p.name if p else "?"
    return {
        "id": pid,
        "name": name,
        "kind": p.kind if p else "guest",
        "guest": guest_number(pid, name),  # a guest's given name, worded per reader
    }


def tournament_view(
    row: TournamentRow,
    players: list[TournamentPlayerRow],
    boards: list[Board],
    found: dict[str, Player],
    viewer: str | None = None,
) -> dict[str, Any]:
    """The tournament as JSON: settings, status, the table and every round's boards."""
    seeds = [p.player_id for p in players]
    withdrawn = {p.player_id for p in players if p.withdrawn}
    standings: list[dict[str, Any]] = []
    if row.kind == "arena":
        for k, sheet in enumerate(pairing.arena_standings(seeds, played(boards, by_finish=True))):
            standings.append(
                {
                    **(_person(sheet.player, found) or {}),
                    "rank": k + 1,
                    "points": sheet.points,
                    "scores": list(sheet.scores),
                    "on_fire": sheet.on_fire,
                    "wins": sheet.wins,
                    "draws": sheet.draws,
                    "losses": sheet.losses,
                    "withdrawn": sheet.player in withdrawn,
                }
            )
    else:
        for s in pairing.standings(seeds, played(boards)):
            standings.append(
                {
                    **(_person(s.player, found) or {}),
                    "rank": s.rank,
                    "points": s.points,
                    "buchholz": s.buchholz,
                    "sonneborn_berger": s.sonneborn_berger,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                    "withdrawn": s.player in withdrawn,
                }
            )
    rounds: dict[int, list[dict[str, Any]]] = {}
    for b in boards:
        rounds.setdefault(b.round, []).append(
            {
                "board": b.board + 1,
                "first": _person(b.first, found),
                "second": _person(b.second, found),
                "game_id": b.game_id,
                "status": "bye" if b.second is None else (b.status or "starting"),
                "score": 1.0 if b.second is None else b.score,
            }
        )
    total = None
    if row.kind == "swiss":
        total = row.rounds
    elif row.kind == "round-robin":
        total = len(pairing.round_robin.pair(seeds)) if seeds else 0
    started = aware(row.started_at) if row.started_at else None
    ends = (
        started + timedelta(seconds=row.duration_s or 0)
        if row.kind == "arena" and started is not None
        else None
    )
    view: dict[str, Any] = {
        "id": row.id,
        "name": row.name,
        "kind": row.kind,
        "game": row.game,
        "game_title": catalog.game_class(row.game).TITLE,
        "options": row.options,
        "clock": None
        if row.clock_initial_ms is None
        else {
            "initial_s": row.clock_initial_ms // 1000,
            "increment_s": (row.clock_increment_ms or 0) // 1000,
        },
        "days_per_move": row.days_per_move,
        "rated": row.rated,
        "invite_only": row.invite_only,
        "min_games": row.min_games,
        "max_players": row.max_players,
        "rounds_total": total,
        "duration_s": row.duration_s,
        "status": row.status,
        "starts_at": aware(row.starts_at).isoformat(),
        "started_at": started.isoformat() if started else None,
        "ends_at": ends.isoformat() if ends else None,
        "finished_at": aware(row.finished_at).isoformat() if row.finished_at else None,
        "creator": _person(row.creator_id, found),
        "players": len(seeds) - len(withdrawn),
        "standings": standings,
        "rounds": [{"round": k, "boards": v} for k, v in sorted(rounds.items())],
    }
    view["you"] = you(view, viewer)
    if viewer is not None and viewer == row.creator_id and row.invite_token:
        view["invite"] = row.invite_token
    return view
