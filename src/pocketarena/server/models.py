"""Storage models (SQLAlchemy 2). The API's pydantic schemas live apart, in ``schemas.py``.

Changing a model means adding an Alembic revision in ``migrations/versions``.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Float, ForeignKey, Index, Integer, String
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    pass


class Player(Base):
    """A guest (cookie only), an account (username + argon2 hash) or a bot (one per level)."""

    __tablename__ = "players"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(40))
    kind: Mapped[str] = mapped_column(String(8))  # guest | account | bot
    username: Mapped[str | None] = mapped_column(String(40), unique=True)  # lower case
    password_hash: Mapped[str | None] = mapped_column(String(255))
    bot_spec: Mapped[str | None] = mapped_column(String(40), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    # An account's choices, brought to each browser it signs in on (None: not chosen yet).
    language: Mapped[str | None] = mapped_column(String(16))  # a pocketarena.i18n code
    time_zone: Mapped[str | None] = mapped_column(String(64))  # IANA, e.g. Europe/Paris
    theme: Mapped[str | None] = mapped_column(String(8))  # auto | light | dark
    # Notifications by email: the address (sent nothing until verified by a link) and, per
    # kind of notice, which channels are on (None: the defaults of ``server.notices``).
    email: Mapped[str | None] = mapped_column(String(254))
    email_verified_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    notice_channels: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class GameRecord(Base):
    """One game played on the server, from the seek to the final result.

    ``history`` holds every action in notation (decisions and chance outcomes); ``version``
    counts committed changes and guards every write (optimistic concurrency).
    """

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    game: Mapped[str] = mapped_column(String(32))  # rules id, e.g. "coin-age"
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(8))  # bot | friend | seek | local
    status: Mapped[str] = mapped_column(String(10))  # waiting | active | finished | aborted
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    seat0_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    seat1_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    creator_seat: Mapped[int | None] = mapped_column(Integer)  # None: seat drawn at the start
    invite_token: Mapped[str | None] = mapped_column(String(40))
    clock_initial_ms: Mapped[int | None] = mapped_column(Integer)
    clock_increment_ms: Mapped[int | None] = mapped_column(Integer)
    clock0_ms: Mapped[int | None] = mapped_column(Integer)
    clock1_ms: Mapped[int | None] = mapped_column(Integer)
    history: Mapped[list[str]] = mapped_column(JSON, default=list)
    version: Mapped[int] = mapped_column(Integer, default=0)
    chance_scheme: Mapped[str | None] = mapped_column(String(40))
    chance_seed: Mapped[str | None] = mapped_column(String(64))  # secret until the game ends
    chance_commitment: Mapped[str | None] = mapped_column(String(64))
    winner: Mapped[int | None] = mapped_column(Integer)
    result: Mapped[str | None] = mapped_column(String(8))  # 1-0 | 0-1 | 1/2-1/2
    termination: Mapped[str | None] = mapped_column(String(16))  # as in records.TERMINATIONS
    scores: Mapped[list[Any] | None] = mapped_column(JSON)
    rating_changes: Mapped[list[Any] | None] = mapped_column(JSON)
    rematch_of: Mapped[str | None] = mapped_column(String(16))
    rematch_id: Mapped[str | None] = mapped_column(String(16))
    # A keyed hash of the address the game was opened from (limits per address; no address
    # is stored in the clear).
    creator_addr: Mapped[str | None] = mapped_column(String(32))
    # When the running clock last started (wall time): after a crash, the time its player
    # used up to the server's last heartbeat is charged.
    clock_since: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Turn-based games: days each move may take, and when the move awaited is due (swept by
    # every process: a game ends on time with nobody watching it).
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # The player whose move it is in a game in progress (their "your turn" list). Not indexed:
    # it changes at every move, and a move must change no indexed column, so that PostgreSQL
    # writes it without touching the indexes (found through the seats' indexes instead).
    turn_id: Mapped[str | None] = mapped_column(String(32))
    # Offers between the players of a game in progress: the seat offering a draw, the seat
    # asking to take its last move back (a move withdraws both).
    draw_offer: Mapped[int | None] = mapped_column(Integer)
    takeback_offer: Mapped[int | None] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        Index("ix_games_status", "status"),
        Index("ix_games_seat0", "seat0_id"),
        Index("ix_games_seat1", "seat1_id"),
        # with the status: the open-game caps count a creator's open games, not all of them
        Index("ix_games_creator_status", "creator_id", "status"),
        Index("ix_games_creator_addr_status", "creator_addr", "status"),
        Index("ix_games_deadline", "deadline"),
    )


class RatingRow(Base):
    """A player's rating in one game (openskill mu/sigma; shown as 60 * mu)."""

    __tablename__ = "ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer, default=0)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class SessionRow(Base):
    """A signed-in browser: the cookie holds a random token, the database its SHA-256 only,
    so a copy of the database signs nobody in."""

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)  # SHA-256 of the token, hex
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    user_agent: Mapped[str] = mapped_column(String(200), default="")

    __table_args__ = (
        Index("ix_sessions_player", "player_id"),
        Index("ix_sessions_expires", "expires_at"),
    )


class Heartbeat(Base):
    """The last moment a server was known to be running (written every few seconds), so the
    time after a crash is told apart from the time before it."""

    __tablename__ = "heartbeats"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    seen_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GameAnalysis(Base):
    """A finished game judged move by move (``pocketarena.analysis``), one per game and depth:
    the marks, better moves and evaluations the replay page shows."""

    __tablename__ = "analyses"

    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), primary_key=True)
    depth: Mapped[int] = mapped_column(Integer, primary_key=True)
    analyst: Mapped[str] = mapped_column(String(40))
    result: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class PuzzleRatingRow(Base):
    """A player's puzzle rating (openskill mu/sigma, shown as 60 * mu), streak and the puzzle
    last handed out, which alone is rated when answered (so retries change nothing)."""

    __tablename__ = "puzzle_ratings"

    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    solved: Mapped[int] = mapped_column(Integer, default=0)
    streak: Mapped[int] = mapped_column(Integer, default=0)
    best_streak: Mapped[int] = mapped_column(Integer, default=0)
    current: Mapped[str | None] = mapped_column(String(40))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChatMessageRow(Base):
    """One message of a game's table chat, in the players' room or the spectators' (see
    ``server.chat``); kept with the game so the replay shows it."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_game_room", "game_id", "room", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"))
    room: Mapped[str] = mapped_column(String(12))  # players | spectators
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    name: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(140))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class BlunderPuzzleRow(Base):
    """A puzzle made from a blunder in a finished game on this server
    (``pocketarena.puzzles.blunders``): ``data`` is the puzzle as JSON, its ``source`` naming
    the game and ply. The puzzles page draws from these as well as the shipped set."""

    __tablename__ = "blunder_puzzles"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    game: Mapped[str] = mapped_column(String(32))
    rating: Mapped[int] = mapped_column(Integer)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentRow(Base):
    """A tournament (``server.tournaments``): its settings, and where it stands.

    ``status``: created (players join) | running | paused (an arena pairs no one) | finished.
    """

    __tablename__ = "tournaments"
    __table_args__ = (Index("ix_tournaments_status_starts", "status", "starts_at"),)

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    kind: Mapped[str] = mapped_column(String(12))  # swiss | round-robin | arena
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    clock_initial_ms: Mapped[int | None] = mapped_column(Integer)
    clock_increment_ms: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_only: Mapped[bool] = mapped_column(Boolean, default=False)
    invite_token: Mapped[str | None] = mapped_column(String(40))
    min_games: Mapped[int] = mapped_column(Integer, default=0)
    max_players: Mapped[int] = mapped_column(Integer)
    rounds: Mapped[int | None] = mapped_column(Integer)  # swiss
    duration_s: Mapped[int | None] = mapped_column(Integer)  # arena
    days_per_move: Mapped[int | None] = mapped_column(Integer)  # turn-based (Swiss, round robin)
    status: Mapped[str] = mapped_column(String(10), default="created")
    creator_id: Mapped[str] = mapped_column(ForeignKey("players.id"), index=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    started_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentPlayerRow(Base):
    """A player of a tournament; ``seed`` orders them (the order they joined)."""

    __tablename__ = "tournament_players"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    seed: Mapped[int] = mapped_column(Integer)
    withdrawn: Mapped[bool] = mapped_column(Boolean, default=False)
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class TournamentPairingRow(Base):
    """One board of a round (an arena's rounds are its pairing batches): who sits first and
    second (None: a bye) and the game's id, fixed when the round is paired. The unique
    (tournament, round, board) is what makes a round paired once, whichever process tries."""

    __tablename__ = "tournament_pairings"
    __table_args__ = (
        Index("ux_tournament_pairings_board", "tournament_id", "round", "board", unique=True),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"))
    round: Mapped[int] = mapped_column(Integer)
    board: Mapped[int] = mapped_column(Integer)
    first_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    second_id: Mapped[str | None] = mapped_column(ForeignKey("players.id"))
    game_id: Mapped[str | None] = mapped_column(String(16), index=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class FollowRow(Base):
    """An account following another (seen online or in a game on the follower's pages)."""

    __tablename__ = "follows"

    follower_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    followed_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_follows_followed", "followed_id"),)


class BlockRow(Base):
    """An account blocking another: no challenges from them."""

    __tablename__ = "blocks"

    blocker_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    blocked_id: Mapped[str] = mapped_column(ForeignKey("players.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ChallengeRow(Base):
    """A player challenging a named player to a game, real-time or turn-based: open until it
    is accepted (``game_id`` names the game), declined, cancelled or past ``expires_at``."""

    __tablename__ = "challenges"

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    challenger_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    challenged_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    status: Mapped[str] = mapped_column(String(10))  # open | accepted | declined | cancelled
    game: Mapped[str] = mapped_column(String(32))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seat: Mapped[int | None] = mapped_column(Integer)  # the challenger's; None: drawn
    clock_initial_ms: Mapped[int | None] = mapped_column(Integer)
    clock_increment_ms: Mapped[int | None] = mapped_column(Integer)
    days_per_move: Mapped[int | None] = mapped_column(Integer)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    game_id: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    answered_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_challenges_challenged", "challenged_id", "status"),
        Index("ix_challenges_challenger", "challenger_id", "status"),
    )


class NotificationRow(Base):
    """Something a player is told by the bell (queued here, read from every process): their
    turn in a turn-based game, a challenge received or answered, a game over, a followed
    player starting a game. ``actor_id``: who caused it (nothing from a player you block)."""

    __tablename__ = "notifications"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    kind: Mapped[str] = mapped_column(String(24))
    actor_id: Mapped[str | None] = mapped_column(String(32))
    game_id: Mapped[str | None] = mapped_column(String(16))
    data: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    read_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # In the bell (the in-site channel switched on for its kind when it was queued).
    shown: Mapped[bool] = mapped_column(Boolean, default=True)
    # Still to send by email or push (``server.delivery`` claims it and clears this), and
    # when it went (an email: at most one per game per hour).
    due: Mapped[bool] = mapped_column(Boolean, default=False)
    emailed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    pushed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        Index("ix_notifications_player", "player_id", "id"),
        Index("ix_notifications_due", "due", "id"),
        Index("ix_notifications_mailed", "player_id", "game_id", "emailed_at"),
    )


class PushSubscriptionRow(Base):
    """One browser's Web Push subscription (its push service's endpoint and the keys the
    payload is encrypted to); dropped when the push service says it is gone."""

    __tablename__ = "push_subscriptions"

    endpoint: Mapped[str] = mapped_column(String(1000), primary_key=True)
    player_id: Mapped[str] = mapped_column(ForeignKey("players.id"))
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    user_agent: Mapped[str] = mapped_column(String(200), default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_push_subscriptions_player", "player_id"),)
