"""The storage layer: every read and write of players, games and ratings, as short transactions.

Methods are synchronous (SQLAlchemy sessions); the live-game hub calls them on its database
thread, the read-only routes from FastAPI's thread pool. A game write names the version it
expects to replace, so two writers can never silently overwrite each other.
"""

from __future__ import annotations

import hashlib
import re
import threading
import unicodedata
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Row,
    ScalarSelect,
    Table,
    and_,
    bindparam,
    delete,
    func,
    literal_column,
    or_,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import PoolProxiedConnection, QueuePool

from pocketarena.i18n import N_, _
from pocketarena.ratings import Rating, rate

from .core.security import default_guest_name, hash_password, needs_rehash, verify_password
from .core.text import TextError, visible_line
from .models import Base, GameRecord, Heartbeat, Player, RatingRow, SessionRow, utcnow

R = TypeVar("R", bound=Base)
# PostgreSQL: driver connections kept for the games' batched writes (the writer has up to
# four batches in flight, ``live.writer.GameWriter``); more at once borrow from the pool.
KEPT_WRITE_CONNECTIONS = 4

_GAMES: Table = GameRecord.__table__  # type: ignore[assignment]
_PLAYERS: Table = Player.__table__  # type: ignore[assignment]
_RATINGS: Table = RatingRow.__table__  # type: ignore[assignment]

# The reads every new game makes on the database thread, built once (Core, no ORM session):
# building a statement anew for each call cost SQLAlchemy its cache key (about 100 us of
# CPU on this project's machine), and an ORM session around it as much again, for a read
# that SQLite answers in a few microseconds. A statement built once is looked up in the
# compiled cache by a key computed from its parameters' names only.
_PLAYER_BY_ID = select(_PLAYERS).where(_PLAYERS.c.id == bindparam("id"))
_SESSIONS: Table = SessionRow.__table__  # type: ignore[assignment]
_SESSION_BY_ID = select(_SESSIONS).where(_SESSIONS.c.id == bindparam("id"))
_DELETE_SESSION = _SESSIONS.delete().where(_SESSIONS.c.id == bindparam("id"))
_SESSION_SEEN = (  # "id" would name the column being set: the key is "sid"
    _SESSIONS.update()
    .where(_SESSIONS.c.id == bindparam("sid"))
    .values(last_seen_at=bindparam("seen"), expires_at=bindparam("expires"))
)
_PLAYERS_BY_IDS = select(_PLAYERS).where(_PLAYERS.c.id.in_(bindparam("ids", expanding=True)))
_GAME_BY_ID = select(_GAMES).where(_GAMES.c.id == bindparam("id"))
_GAME_ID = select(_GAMES.c.id).where(_GAMES.c.id == bindparam("id"))
_RATING = select(_RATINGS.c.mu, _RATINGS.c.sigma, _RATINGS.c.games).where(
    _RATINGS.c.player_id == bindparam("player"), _RATINGS.c.game == bindparam("game")
)
# A game that holds the server's attention: waiting for an opponent, or a clock running.
# Written with the statuses as an IN of constants so that both databases search the
# (creator, status) indexes for the two statuses and never read a finished game (migration
# 0016); constants, not an expanding parameter, which SQLAlchemy renders anew at each call.
_HOLDS_ATTENTION = and_(
    _GAMES.c.status.in_([literal_column("'waiting'"), literal_column("'active'")]),
    or_(_GAMES.c.status == "waiting", _GAMES.c.clock_initial_ms.is_not(None)),
)


def _open_count(creator: ColumnElement[bool]) -> ScalarSelect[int]:
    return (
        select(func.count()).select_from(_GAMES).where(creator, _HOLDS_ATTENTION).scalar_subquery()
    )


# A player's open games and their address's, in one read: a count for each, each through its
# own index. With one OR of the two conditions PostgreSQL's planner took the status index
# instead, and read every open game of the site to keep the few of this player and address.
_OPEN_COUNTS = select(
    _open_count(_GAMES.c.creator_id == bindparam("player")),
    _open_count(_GAMES.c.creator_addr == bindparam("addr")),
)
_INSERT_GAME = _GAMES.insert()
_INSERT_PLAYER = _PLAYERS.insert()
NAME_MIN, NAME_MAX = 2, 24
USERNAME_MAX = 24
PASSWORD_MIN = 8


WRONG = N_("wrong username or password")


class StoreError(ValueError):
    """A request the storage layer refuses, with a message for the person who made it."""


class ConflictError(StoreError):
    """A write that lost a race: the game changed since the version it was based on. Worded in
    the language of the moment it is raised; ``worded()`` words it again in the language of the
    moment it is answered (a write may be refused in a task other than the request's)."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        super().__init__(self.worded())

    def worded(self) -> str:
        return _("game %(game)s changed elsewhere; reload it", game=self.game_id)


# Words a person's name or username may not contain, so nobody passes for one of the site's
# bots ("Bot · easy", "Randy (random)") or for the people who run it.
RESERVED_WORDS = frozenset({"bot", "bots", "admin", "administrator", "moderator", "system"})
RESERVED_NAMES = frozenset(
    {"pocketarena", "randyrandom", "gretagreedy"}
    | {f"bot{level}" for level in ("random", "greedy", "easy", "medium", "hard", "perfect")}
)


def reserved_name(name: str) -> bool:
    """Whether ``name`` is kept for the site: a name with one of RESERVED_WORDS as a word, or
    one of RESERVED_NAMES with its words run together, whatever the case, compatibility forms
    of letters, spaces and punctuation ("BOT-easy", "B.o.t · Easy", "Randy (random)")."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    words = re.findall(r"[^\W_]+", folded)
    return bool(RESERVED_WORDS & set(words)) or "".join(words) in RESERVED_NAMES


def clean_name(name: object) -> str:
    """A display name: 2-24 characters by ``core.text.visible_line``'s rule (NFC, single-spaced,
    no control, format or direction characters), none of the characters HTML is made of."""
    if not isinstance(name, str):
        raise StoreError(_("a name must be text"))
    try:
        name = visible_line(name)
    except TextError as e:
        raise StoreError(_("a name cannot hold %(what)s", what=str(e))) from None
    if not NAME_MIN <= len(name) <= NAME_MAX:
        raise StoreError(
            _("a name must be %(min)d to %(max)d characters long", min=NAME_MIN, max=NAME_MAX)
        )
    if any(ch in "<>&\"'`" for ch in name):
        raise StoreError(_("a name may not contain any of < > & \" ' `"))
    if reserved_name(name):
        raise StoreError(
            _("the name %(name)r is kept for the site's bots and staff: choose another", name=name)
        )
    return name


def clean_username(username: object) -> str:
    """A username: 3-24 ASCII letters, digits, '-' or '_', lower case (checked after the rule
    of ``core.text.visible_line``, so a refused character is named)."""
    if not isinstance(username, str):
        raise StoreError(_("a username must be text"))
    try:
        username = visible_line(username).lower()
    except TextError as e:
        raise StoreError(_("a username cannot hold %(what)s", what=str(e))) from None
    if not 3 <= len(username) <= USERNAME_MAX or not all(
        c.isalnum() or c in "-_" for c in username
    ):
        raise StoreError(
            _("a username is 3 to %(max)d letters, digits, '-' or '_'", max=USERNAME_MAX)
        )
    if not username.isascii():
        raise StoreError(_("a username uses ASCII letters and digits only"))
    if reserved_name(username):
        raise StoreError(
            _(
                "the username %(username)r is kept for the site's bots and staff: choose another",
                username=username,
            )
        )
    return username


def _encodable(text: object) -> bool:
    """Text that UTF-8 can carry (argon2 hashes its bytes)."""
    if not isinstance(text, str):
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def aware(moment: datetime) -> datetime:
    """A stored moment as an aware UTC datetime (SQLite gives them back without a zone)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def bot_player_id(spec: str) -> str:
    """Bots have stable ids, so their ratings carry over between servers sharing a database."""
    return hashlib.sha256(f"bot:{spec}".encode()).hexdigest()[:32]


@dataclass(frozen=True)
class RatingChange:
    player_id: str
    before: int
    after: int
    provisional: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player_id,
            "before": self.before,
            "after": self.after,
            "delta": self.after - self.before,
            "provisional": self.provisional,
        }


class Store:
    def __init__(self, engine: Engine, sessions: sessionmaker[Session]) -> None:
        self.engine = engine
        self.sessions = sessions
        # Reads and single-statement writes need no transaction of their own. On PostgreSQL
        # they run in autocommit mode: one round trip per statement, where a transaction
        # adds a BEGIN and a COMMIT or ROLLBACK (three round trips for one read, each waiting
        # for the database process to be scheduled). Each statement is still atomic and sees
        # a consistent snapshot, as in a READ COMMITTED transaction. SQLite keeps its
        # ordinary sessions.
        self._binds: dict[str, Any] = {}  # games column -> its bind processor (or None)
        self._update_sql: dict[tuple[str, ...], str] = {}  # columns set -> a game's UPDATE
        # SQLite: the games' writes keep one connection from batch to batch (``_writing``).
        self._writer_lock = threading.Lock()
        self._writer: Connection | None = None
        # PostgreSQL: idle driver connections kept for the batched games' writes
        # (``_save_games_kept``), at most one per batch the writer keeps in flight.
        self._kept: list[PoolProxiedConnection] = []
        self._kept_count = 0  # kept ones, idle or writing
        pool = engine.pool
        self._kept_limit = (
            min(KEPT_WRITE_CONNECTIONS, pool.size() // 5) if isinstance(pool, QueuePool) else 0
        )
        self._kept_lock = threading.Lock()
        if engine.dialect.name == "postgresql":
            self.autocommit_engine: Engine = engine.execution_options(isolation_level="AUTOCOMMIT")
            kw = {k: v for k, v in sessions.kw.items() if k != "bind"}
            self.single: sessionmaker[Session] = sessionmaker(self.autocommit_engine, **kw)
        else:
            self.autocommit_engine = engine
            self.single = sessions

    # -- players ---------------------------------------------------------------------------
    def get_player(self, player_id: str) -> Player | None:
        """A stored player: one Core read (this runs for every new game and every join, on
        the database thread, through ``ensure_guest``)."""
        with self.autocommit_engine.connect() as conn:
            row = conn.execute(_PLAYER_BY_ID, {"id": player_id}).first()
        return _record(Player, row) if row is not None else None

    def get_players(self, ids: Sequence[str]) -> dict[str, Player]:
        if not ids:
            return {}
        with self.autocommit_engine.connect() as conn:
            rows = conn.execute(_PLAYERS_BY_IDS, {"ids": list(set(ids))}).all()
        return {row.id: _record(Player, row) for row in rows}

    def ensure_guest(self, player_id: str) -> Player:
        """The player row for a cookie's id, created as a guest on first use (or again, if
        it was purged since): looked up in the database every time, never remembered, so a
        guest purged or renamed by another process is seen as it is now."""
        return self.get_player(player_id) or self._create(
            Player(id=player_id, name=default_guest_name(player_id), kind="guest")
        )

    def ensure_bot(self, spec: str, name: str) -> Player:
        """The player a bot level plays as (rated like anyone)."""
        player_id = bot_player_id(spec)
        return self.get_player(player_id) or self._create(
            Player(id=player_id, name=name, kind="bot", bot_spec=spec)
        )

    def _create(self, new: Player) -> Player:
        """``new`` stored (its unset columns given their defaults, as the ORM would), or the
        player of its id that a parallel request stored meanwhile."""
        try:
            _insert(self.autocommit_engine, _INSERT_PLAYER, new)
        except IntegrityError:
            existing = self.get_player(new.id)
            assert existing is not None
            return existing
        return new

    def rename(self, player_id: str, name: str) -> Player:
        name = clean_name(name)
        self.ensure_guest(player_id)
        with self.sessions() as s:
            player = s.get(Player, player_id)
            assert player is not None
            if player.kind == "bot":
                raise StoreError(_("bots cannot be renamed"))
            player.name = name
            s.commit()
            return player

    def set_preferences(
        self,
        player_id: str,
        language: str | None = None,
        time_zone: str | None = None,
        theme: str | None = None,
    ) -> Player | None:
        """Keep an account's choices (those given; the caller checked them); a guest's live in
        its browser's cookies only. The account, or None when ``player_id`` is no account."""
        with self.sessions() as s:
            player = s.get(Player, player_id)
            if player is None or player.kind != "account":
                return None
            if language is not None:
                player.language = language
            if time_zone is not None:
                player.time_zone = time_zone
            if theme is not None:
                player.theme = theme
            s.commit()
            return player

    def register(self, player_id: str, username: str, password: str) -> Player:
        """Turn the current guest into an account (keeping their games and ratings)."""
        username = clean_username(username)
        if not isinstance(password, str) or len(password) < PASSWORD_MIN:
            raise StoreError(
                _("a password must be at least %(min)d characters long", min=PASSWORD_MIN)
            )
        if len(password) > 1024:
            raise StoreError(_("a password must be at most %(max)d characters long", max=1024))
        if not _encodable(password):
            raise StoreError(_("a password must be valid Unicode text"))
        self.ensure_guest(player_id)
        with self.sessions() as s:
            player = s.get(Player, player_id)
            assert player is not None
            if player.kind != "guest":
                raise StoreError(_("you are already signed in to an account; sign out first"))
            if s.scalar(select(Player.id).where(Player.username == username)) is not None:
                raise StoreError(_("the username %(username)r is taken", username=username))
            player.kind = "account"
            player.username = username
            player.password_hash = hash_password(password)
            if player.name == default_guest_name(player.id):
                player.name = username
            try:
                s.commit()
            except IntegrityError:
                raise StoreError(
                    _("the username %(username)r is taken", username=username)
                ) from None
            return player

    def authenticate(self, username: str, password: str) -> Player:
        try:
            username = clean_username(username)
        except StoreError:
            raise StoreError(_(WRONG)) from None
        with self.sessions() as s:
            player = s.scalar(select(Player).where(Player.username == username))
            if player is None or not player.password_hash:
                verify_password(_DUMMY_HASH, password if _encodable(password) else "")
                raise StoreError(_(WRONG))
            if (
                not isinstance(password, str)
                or not _encodable(password)
                or not verify_password(player.password_hash, password)
            ):
                raise StoreError(_(WRONG))
            if needs_rehash(player.password_hash):
                player.password_hash = hash_password(password)
                s.commit()
            return player

    # -- games -----------------------------------------------------------------------------
    def insert_game(self, row: GameRecord) -> None:
        """Store a new game (IntegrityError if its id is taken); ``row``'s unset columns get
        their defaults, as the ORM would give them."""
        _insert(self.autocommit_engine, _INSERT_GAME, row)

    def load_game(self, game_id: str) -> GameRecord | None:
        with self.autocommit_engine.connect() as conn:
            row = conn.execute(_GAME_BY_ID, {"id": game_id}).first()
        return _record(GameRecord, row) if row is not None else None

    def game_exists(self, game_id: str) -> bool:
        """Whether a game of this id is stored (its key looked up, nothing loaded)."""
        with self.autocommit_engine.connect() as conn:
            return conn.execute(_GAME_ID, {"id": game_id}).first() is not None

    def save_game(self, game_id: str, expected_version: int, values: dict[str, Any]) -> None:
        """Write ``values`` (which include the new ``version``) if the stored version is still
        ``expected_version``; otherwise raise ConflictError and write nothing."""
        if not self.save_games([(game_id, expected_version, values)])[0]:
            raise ConflictError(game_id)

    def save_games(self, writes: Sequence[tuple[str, int, dict[str, Any]]]) -> list[bool]:
        """Several games' writes in one transaction (group commit: one commit, one disk flush,
        for every move that arrived meanwhile). Each write names the version it replaces and
        happens only if that is still the stored one; the result says which did. A write
        that finds a newer version changes nothing, so the others still commit.

        UPDATEs written here, no ORM session: this is the hot path of every move. On
        PostgreSQL the whole batch is one statement (one round trip, see
        ``_save_games_at_once``); elsewhere one UPDATE per game in one transaction
        (``_update_game``). A connection the database dropped is thrown away and the batch
        retried once on a fresh one."""
        now = utcnow()
        at_once = self.engine.dialect.name == "postgresql" and len({w[0] for w in writes}) == len(
            writes
        )
        if at_once:
            saved = self._save_games_kept(writes, now)
            if saved is not None:
                return saved
        for attempt in (1, 2):
            try:
                if at_once:
                    return self._save_games_at_once(writes, now)
                with self._writing() as conn, conn.begin():
                    return [
                        self._update_game(conn, game_id, expected, values, now) == 1
                        for game_id, expected, values in writes
                    ]
            except DBAPIError as e:
                if attempt == 2 or not e.connection_invalidated:
                    raise
        raise AssertionError("unreachable")

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A connection for a batch of UPDATEs one by one. On SQLite the one kept for them,
        held from batch to batch (taking one from the pool and handing it back, reset, cost
        about as much CPU as SQLite's UPDATE and commit; SQLite has one writer at a time
        anyway), or, while another thread writes with it, one from the pool. A batch that
        fails throws the kept one away (the retry, and the next batch, start on a fresh one).
        It holds no transaction between batches, so readers and checkpoints never wait on it.
        On PostgreSQL (a batch naming a game twice) one from the pool, whose connections
        every thread shares."""
        if self.engine.dialect.name != "sqlite" or not self._writer_lock.acquire(blocking=False):
            with self.engine.connect() as conn:
                yield conn
            return
        try:
            if self._writer is None:
                self._writer = self.engine.connect()
                weakref.finalize(self, self._writer.close)  # back to the pool with the store
            conn = self._writer
            try:
                yield conn
            except BaseException:
                self._writer = None
                conn.close()
                raise
        finally:
            self._writer_lock.release()

    def close(self) -> None:
        """Hand the connections kept for writing back to the pool (before it is disposed)."""
        for fairy in self._take_kept():
            fairy.driver_connection.autocommit = False  # type: ignore[union-attr]
            fairy.close()

    def _take_kept(self) -> list[PoolProxiedConnection]:
        """Every idle kept connection, no longer kept."""
        with self._kept_lock:
            idle, self._kept = self._kept, []
            self._kept_count -= len(idle)
        return idle

    def _forget_kept(self, keep: bool) -> None:
        if keep:
            with self._kept_lock:
                self._kept_count -= 1

    def _save_games_kept(
        self, writes: Sequence[tuple[str, int, dict[str, Any]]], now: datetime
    ) -> list[bool] | None:
        """PostgreSQL: ``_save_games_at_once``'s statement on a driver connection kept for
        these writes, in autocommit mode, sent by psycopg's cursor directly. Through
        SQLAlchemy each batch also took a connection from the pool and gave it back (its
        isolation level set and reset, a rollback on return, the events of each step), which
        doubled the thread CPU of a one-game batch (a replay of 1,000: 230-260 us against
        110-180 us kept, psycopg's automatic preparing included).

        None if the kept connection turned out dropped (PostgreSQL restarted, the backend
        terminated): it and every idle one are thrown away and the caller writes through
        SQLAlchemy, whose handling of a dropped connection (the pool's older ones
        invalidated, one retry) applies. Nothing was written then: a statement in
        autocommit mode commits whole or not at all, and one whose answer was lost with the
        connection finds its versions moved on when retried, so the retry reports a
        conflict rather than writing twice."""
        query, params = self._batch_sql(writes, now)
        with self._kept_lock:
            fairy = self._kept.pop() if self._kept else None
            # Kept, at most a fifth of the pool: the rest stays free for every other read and
            # write. Past that a batch borrows a connection from the pool and gives it back.
            keep = fairy is not None or self._kept_count < self._kept_limit
            if fairy is None and keep:
                self._kept_count += 1
        if fairy is None:
            try:
                fairy = self.engine.raw_connection()  # waits for one if none is free
            except BaseException:
                self._forget_kept(keep)
                raise
        driver: Any = fairy.driver_connection
        try:
            driver.autocommit = True
            with driver.cursor() as cursor:
                cursor.execute(query, params)
                saved = {row[0] for row in cursor.fetchall()}
        except Exception as e:
            dbapi = self.engine.dialect.loaded_dbapi
            # Dropped, or any operational error: the write is left to SQLAlchemy's path,
            # which knows a disconnect when it sees one and retries once.
            broken = isinstance(e, dbapi.OperationalError) or bool(
                getattr(driver, "broken", True) or getattr(driver, "closed", True)
            )
            fairy.invalidate(e)  # never used again after an error, whatever it was
            self._forget_kept(keep)
            if not broken:  # the statement itself failed: said as SQLAlchemy says it
                raise DBAPIError.instance(query, params, e, dbapi.Error) from e
            for other in self._take_kept():  # opened before the restart too, most likely
                other.invalidate()
            return None
        if keep:
            with self._kept_lock:
                self._kept.append(fairy)
        else:
            driver.autocommit = False  # as the pool's other users expect it
            fairy.close()
        return [i in saved for i in range(len(writes))]

    def _save_games_at_once(
        self, writes: Sequence[tuple[str, int, dict[str, Any]]], now: datetime
    ) -> list[bool]:
        """PostgreSQL: every UPDATE of the batch as a data-modifying CTE of one statement, run
        in autocommit mode: one round trip to the server, which commits it as one transaction
        (all or nothing). A transaction of k UPDATEs would take k + 2 round trips (BEGIN, each
        UPDATE, COMMIT), and every round trip waits for the database process to be scheduled:
        on a busy machine that wait, not the work, made the slowest moves slow. The games of
        one batch are all different (a statement must not update a row twice).

        The statement's text is written here, not compiled by SQLAlchemy: its shape changes
        with nearly every batch (how many games, which columns), so SQLAlchemy's statement
        cache missed and compiling it took a fifth of the server's CPU at 200 games (py-spy),
        on worker threads that hold the interpreter lock the event loop needs. The values go
        through the columns' own bind processors (JSON as SQLAlchemy writes it)."""
        query, params = self._batch_sql(writes, now)
        with self.autocommit_engine.connect() as conn:
            saved = {row[0] for row in conn.exec_driver_sql(query, tuple(params))}
        return [i in saved for i in range(len(writes))]

    def _batch_sql(
        self, writes: Sequence[tuple[str, int, dict[str, Any]]], now: datetime
    ) -> tuple[str, list[Any]]:
        """The batch's statement (see ``_save_games_at_once``) and its parameters."""
        quote = self.engine.dialect.identifier_preparer.quote
        table = quote(_GAMES.name)
        parts: list[str] = []
        params: list[Any] = []
        for i, (game_id, expected, values) in enumerate(writes):
            sets: list[str] = []
            for name, value in {**values, "updated_at": now}.items():
                sets.append(f"{quote(name)} = %s")
                params.append(self._bind(name, value))
            params += [game_id, expected]
            parts.append(
                f"w{i} AS (UPDATE {table} SET {', '.join(sets)} "
                f"WHERE id = %s AND version = %s RETURNING {i} AS i)"
            )
        query = "WITH {} {}".format(
            ", ".join(parts), " UNION ALL ".join(f"SELECT i FROM w{i}" for i in range(len(parts)))
        )
        return query, params

    def _update_game(
        self,
        conn: Connection,
        game_id: str,
        expected: int,
        values: dict[str, Any],
        now: datetime,
    ) -> int:
        """One game's UPDATE if its stored version is ``expected``; the rows it changed (0 or
        1). Its SQL is written here, once per set of columns, for the reason
        ``_save_games_at_once`` gives: SQLAlchemy built the statement and its cache key anew
        for every move (each value a literal whose type's cache key it worked out again),
        about 200 us of CPU a move on SQLite, where SQLite's own work took a tenth of that,
        on the database thread that holds the interpreter lock the event loop needs."""
        row = {**values, "updated_at": now}
        params = [self._bind(name, value) for name, value in row.items()]
        params += [game_id, expected]
        columns = tuple(row)
        sql = self._update_sql.get(columns)
        if sql is None:
            quote = self.engine.dialect.identifier_preparer.quote
            mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
            sets = ", ".join(f"{quote(name)} = {mark}" for name in columns)
            sql = self._update_sql[columns] = (
                f"UPDATE {quote(_GAMES.name)} SET {sets} WHERE id = {mark} AND version = {mark}"
            )
        return int(conn.exec_driver_sql(sql, tuple(params)).rowcount)

    def _bind(self, column: str, value: Any) -> Any:
        """``value`` as the driver takes it for ``column`` of the games table."""
        try:
            process = self._binds[column]
        except KeyError:
            if column not in _GAMES.c:
                raise ValueError(f"the games table has no column {column!r}") from None
            dialect = self.engine.dialect
            process = _GAMES.c[column].type.dialect_impl(dialect).bind_processor(dialect)
            self._binds[column] = process
        return process(value) if process is not None else value

    def finish_game(
        self,
        game_id: str,
        expected_version: int,
        values: dict[str, Any],
        game: str,
        rated_seats: tuple[str, str] | None,
        winner: int | None,
    ) -> list[RatingChange]:
        """Save the final state and, for a rated game, both players' new ratings, at once."""
        if rated_seats is None:  # one UPDATE: written as a move is (one round trip)
            self.save_game(game_id, expected_version, values)
            return []
        values = {**values, "updated_at": utcnow()}
        with self.sessions() as s, s.begin():
            changes: list[RatingChange] = []
            if rated_seats is not None:
                rows = [self._rating_row(s, pid, game) for pid in rated_seats]
                before = [Rating(r.mu, r.sigma, r.games) for r in rows]
                after = rate(before[0], before[1], winner)
                for row, b, a in zip(rows, before, after, strict=True):
                    row.mu, row.sigma, row.games, row.updated_at = a.mu, a.sigma, a.games, utcnow()
                    changes.append(RatingChange(row.player_id, b.display, a.display, a.provisional))
                values["rating_changes"] = [c.to_json() for c in changes]
            result = s.execute(
                update(GameRecord)
                .where(GameRecord.id == game_id, GameRecord.version == expected_version)
                .values(**values)
            )
            if result.rowcount != 1:  # type: ignore[attr-defined]
                raise ConflictError(game_id)
        return changes

    @staticmethod
    def _rating_row(s: Session, player_id: str, game: str) -> RatingRow:
        row = s.execute(
            select(RatingRow)
            .where(RatingRow.player_id == player_id, RatingRow.game == game)
            .with_for_update()
        ).scalar_one_or_none()
        if row is None:
            fresh = Rating()
            row = RatingRow(player_id=player_id, game=game, mu=fresh.mu, sigma=fresh.sigma, games=0)
            s.add(row)
            s.flush()
        return row

    def games_by_status(self, statuses: Sequence[str], limit: int = 50) -> list[GameRecord]:
        with self.single() as s:
            return list(
                s.scalars(
                    select(GameRecord)
                    .where(GameRecord.status.in_(list(statuses)))
                    .order_by(GameRecord.updated_at.desc())
                    .limit(limit)
                ).all()
            )

    def open_seeks(self, limit: int = 50) -> list[GameRecord]:
        with self.single() as s:
            return list(
                s.scalars(
                    select(GameRecord)
                    .where(GameRecord.status == "waiting", GameRecord.mode == "seek")
                    .order_by(GameRecord.created_at.desc())
                    .limit(limit)
                ).all()
            )

    def player_games(self, player_id: str, limit: int = 100, offset: int = 0) -> list[GameRecord]:
        with self.single() as s:
            return list(
                s.scalars(
                    select(GameRecord)
                    .where(
                        or_(GameRecord.seat0_id == player_id, GameRecord.seat1_id == player_id),
                        GameRecord.status.in_(["active", "finished"]),
                    )
                    .order_by(GameRecord.created_at.desc())
                    .limit(limit)
                    .offset(offset)
                ).all()
            )

    def player_stats(self, player_id: str) -> dict[str, int]:
        """Finished games, wins, losses and draws of a player, over every game."""
        seat0 = and_(GameRecord.seat0_id == player_id)
        seat1 = and_(GameRecord.seat1_id == player_id)
        with self.single() as s:
            base = (
                select(func.count()).select_from(GameRecord).where(GameRecord.status == "finished")
            )
            played = s.scalar(base.where(or_(seat0, seat1))) or 0
            wins = (
                s.scalar(
                    base.where(
                        or_(
                            and_(seat0, GameRecord.winner == 0), and_(seat1, GameRecord.winner == 1)
                        )
                    )
                )
                or 0
            )
            draws = s.scalar(base.where(or_(seat0, seat1), GameRecord.winner.is_(None))) or 0
        return {"played": played, "wins": wins, "draws": draws, "losses": played - wins - draws}

    def ratings_of(self, player_id: str) -> dict[str, Rating]:
        with self.single() as s:
            rows = s.scalars(select(RatingRow).where(RatingRow.player_id == player_id)).all()
            return {r.game: Rating(r.mu, r.sigma, r.games) for r in rows}

    def rating(self, player_id: str, game: str) -> Rating:
        with self.autocommit_engine.connect() as conn:
            row = conn.execute(_RATING, {"player": player_id, "game": game}).first()
        return Rating(row[0], row[1], row[2]) if row is not None else Rating()

    def open_games(self, player_id: str, addr: str | None = None) -> tuple[int, int]:
        """Games that hold the server's attention (waiting for an opponent, or in progress with
        a clock running) opened by this player, and from this address (0 for none), in one
        read: a new game is checked against both caps."""
        with self.autocommit_engine.connect() as conn:
            mine, here = conn.execute(_OPEN_COUNTS, {"player": player_id, "addr": addr}).one()
        return int(mine), int(here)

    def stale_waiting_games(self, before: datetime) -> list[tuple[str, int]]:
        """(id, version) of the games still waiting for an opponent since before ``before``."""
        with self.single() as s:
            rows = s.execute(
                select(GameRecord.id, GameRecord.version).where(
                    GameRecord.status == "waiting", GameRecord.created_at < before
                )
            ).all()
            return [(r[0], r[1]) for r in rows]

    def idle_games(self, before: datetime) -> list[tuple[str, int]]:
        """(id, version) of the games in progress, not turn-based, whose last change is older
        than ``before`` (nobody plays them any more: ``live.abandon``)."""
        with self.single() as s:
            rows = s.execute(
                select(GameRecord.id, GameRecord.version).where(
                    GameRecord.status == "active",
                    GameRecord.updated_at < before,
                    GameRecord.days_per_move.is_(None),
                )
            ).all()
            return [(r[0], r[1]) for r in rows]

    def game_version(self, game_id: str) -> int | None:
        """The stored version of a game (None: no such game): one small read, so a process of
        a cluster can tell whether another has changed the game since it last read it."""
        with self.autocommit_engine.connect() as conn:
            return conn.execute(
                select(_GAMES.c.version).where(_GAMES.c.id == game_id)
            ).scalar_one_or_none()

    def game_versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The stored versions of these games (those that exist), in one read."""
        with self.autocommit_engine.connect() as conn:
            rows = conn.execute(
                select(_GAMES.c.id, _GAMES.c.version).where(_GAMES.c.id.in_(list(game_ids)))
            ).all()
        return {r[0]: r[1] for r in rows}

    def running_clocks(self) -> list[tuple[str, datetime | None, int]]:
        """(id, when the running clock started, the smaller of the two times left) of every
        game in progress with a clock: a game whose smaller time has run out since is worth
        a look."""
        with self.autocommit_engine.connect() as conn:
            rows = conn.execute(
                select(
                    _GAMES.c.id, _GAMES.c.clock_since, _GAMES.c.clock0_ms, _GAMES.c.clock1_ms
                ).where(_GAMES.c.status == "active", _GAMES.c.clock_initial_ms.is_not(None))
            ).all()
        return [(r[0], r[1], min(r[2] or 0, r[3] or 0)) for r in rows]

    def due_turns(self, now: datetime, limit: int = 500) -> list[str]:
        """The turn-based games in progress whose move awaited was due before ``now``, the
        longest overdue first (an index range scan on ``deadline``: a finished game has none)."""
        with self.autocommit_engine.connect() as conn:
            rows = conn.execute(
                select(_GAMES.c.id)
                .where(_GAMES.c.deadline <= now, _GAMES.c.status == "active")
                .order_by(_GAMES.c.deadline)
                .limit(limit)
            ).all()
        return [r[0] for r in rows]

    def turns_of(self, player_id: str, limit: int = 50) -> tuple[int, list[GameRecord]]:
        """How many games in progress await ``player_id``'s move (against someone else: not
        games with both seats on one screen), and the first ``limit`` of them, the soonest due
        first (games without a deadline last, the longest waiting first)."""
        awaiting = and_(
            # Through the seats' indexes: turn_id has none (a move changes no indexed column).
            or_(GameRecord.seat0_id == player_id, GameRecord.seat1_id == player_id),
            GameRecord.turn_id == player_id,
            GameRecord.status == "active",
            GameRecord.mode != "local",
        )
        with self.single() as s:
            count = s.scalar(select(func.count()).select_from(GameRecord).where(awaiting)) or 0
            if not count:
                return 0, []
            rows = s.scalars(
                select(GameRecord)
                .where(awaiting)
                .order_by(GameRecord.deadline.is_(None), GameRecord.deadline, GameRecord.updated_at)
                .limit(limit)
            ).all()
            return count, list(rows)

    def bot_games_idle(self, since: datetime) -> list[tuple[str, int]]:
        """(id, version) of every game in progress with a bot in a seat and no person awaited
        (``turn_id`` empty: the bot's turn), unchanged since ``since``: where a bot may be
        waited on (its job lost with Redis)."""
        bots = select(_PLAYERS.c.id).where(_PLAYERS.c.kind == "bot")
        with self.autocommit_engine.connect() as conn:
            rows = conn.execute(
                select(_GAMES.c.id, _GAMES.c.version).where(
                    _GAMES.c.status == "active",
                    _GAMES.c.turn_id.is_(None),
                    _GAMES.c.updated_at <= since,
                    or_(_GAMES.c.seat0_id.in_(bots), _GAMES.c.seat1_id.in_(bots)),
                )
            ).all()
        return [(r[0], r[1]) for r in rows]

    def unfinished_game_ids(self) -> list[str]:
        with self.single() as s:
            return list(
                s.scalars(
                    select(GameRecord.id).where(GameRecord.status.in_(["waiting", "active"]))
                ).all()
            )

    # -- heartbeats -------------------------------------------------------------------------
    def beat(self, name: str, moment: datetime) -> None:
        with self.sessions() as s:
            row = s.get(Heartbeat, name)
            if row is None:
                s.add(Heartbeat(name=name, seen_at=moment))
            else:
                row.seen_at = moment
            try:
                s.commit()
            except IntegrityError:  # another process wrote it first
                s.rollback()

    def last_beat(self, name: str) -> datetime | None:
        with self.single() as s:
            row = s.get(Heartbeat, name)
            return aware(row.seen_at) if row is not None else None

    # -- sessions ------------------------------------------------------------------------------
    def add_session(self, row: SessionRow) -> None:
        with self.single() as s:
            s.add(row)
            s.commit()

    def find_session(
        self, session_id: str, now: datetime, idle: timedelta, max_age: timedelta
    ) -> SessionRow | None:
        """The live session with this id; its last use is noted (at most once a minute, so
        reading a session is not a write per request). An expired one is deleted. Core
        statements built once (every request with a cookie asks, on a worker thread: an ORM
        session cost several times the read)."""
        with self.autocommit_engine.connect() as conn:
            found = conn.execute(_SESSION_BY_ID, {"id": session_id}).first()
            if found is None:
                return None
            row = _record(SessionRow, found)
            if aware(row.expires_at) <= now:
                conn.execute(_DELETE_SESSION, {"id": session_id})
                conn.commit()
                return None
            if now - aware(row.last_seen_at) >= timedelta(seconds=60):
                row.last_seen_at = now
                row.expires_at = min(aware(row.created_at) + max_age, now + idle)
                seen = {"sid": session_id, "seen": now, "expires": row.expires_at}
                conn.execute(_SESSION_SEEN, seen)
                conn.commit()
            return row

    def delete_session(self, session_id: str) -> None:
        with self.single() as s:
            s.execute(delete(SessionRow).where(SessionRow.id == session_id))
            s.commit()

    def delete_sessions_of(self, player_id: str) -> list[str]:
        """End every session of a player; their ids."""
        with self.sessions() as s:
            ids = list(s.scalars(select(SessionRow.id).where(SessionRow.player_id == player_id)))
            s.execute(delete(SessionRow).where(SessionRow.player_id == player_id))
            s.commit()
            return ids

    def sessions_of(self, player_id: str) -> list[SessionRow]:
        with self.single() as s:
            return list(
                s.scalars(
                    select(SessionRow)
                    .where(SessionRow.player_id == player_id)
                    .order_by(SessionRow.last_seen_at.desc())
                )
            )

    def purge_sessions(self, now: datetime) -> int:
        with self.single() as s:
            result = s.execute(delete(SessionRow).where(SessionRow.expires_at <= now))
            s.commit()
            return int(result.rowcount)  # type: ignore[attr-defined]

    def now(self) -> datetime:
        return utcnow()


def _record(kind: type[R], row: Row[Any]) -> R:
    """The ORM object of a row read with Core, in no session (as what a closed session read
    is): the callers read its attributes, nothing loads more through it."""
    return kind(**row._mapping)


def _insert(engine: Engine, statement: Any, record: Base) -> None:
    """INSERT ``record``'s row as the ORM's flush would: the columns set on it, except those
    set to None that SQL takes as NULL (left out, so that their defaults apply; a JSON
    column's None is JSON's null); the others get their defaults, which are then set on
    ``record`` too. In autocommit mode on PostgreSQL (one round trip), in a transaction of
    its own on SQLite."""
    table: Table = record.__table__  # type: ignore[assignment]
    state = record.__dict__
    given = {
        c.key: state[c.key]
        for c in table.c
        if c.key in state and (state[c.key] is not None or c.type.should_evaluate_none)
    }
    with engine.begin() as conn:
        result = conn.execute(statement, given)
    inserted = result.last_inserted_params()  # one row: its parameters, defaults included
    assert not isinstance(inserted, list)
    for key, value in inserted.items():
        if key not in given:
            setattr(record, key, value)


# Verifying against a fixed hash when the user does not exist keeps the response time the same,
# so timing does not tell which usernames exist.
_DUMMY_HASH = hash_password("pocketarena-not-a-password")
