"""Friends and challenges, between accounts: following a player (seen online or in a game),
blocking one (no challenges from them), and challenging a named player to a game, real-time
or turn-based (one challenge object for both), which they accept, decline or let expire, and
the challenger may cancel.

The database is the authority: a challenge is answered by one conditional write (open and not
expired), so it is accepted once whichever processes of a cluster race.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, delete, or_, select, update

from pocketarena.i18n import N_, _

from . import catalog, notices
from .core.security import new_game_id
from .live.hub import Hub
from .live.session import GameError, check_new_game
from .models import BlockRow, ChallengeRow, FollowRow, GameRecord, Player
from .store import Store, aware

REALTIME_TTL = timedelta(hours=1)  # a challenge to a real-time or untimed game stays open
TURN_BASED_TTL = timedelta(days=7)  # one to a turn-based game: a week to answer
MAX_OPEN_CHALLENGES = 10  # open challenges a player may have sent at once
MAX_FOLLOWS = 500


@dataclass(frozen=True)
class Terms:
    """What a challenge proposes (checked as a new game is, before anything is written)."""

    game: str
    options: dict[str, Any]
    seat: int | None
    clock: tuple[int, int] | None
    days_per_move: int | None
    rated: bool


def account(store: Store, player_id: str, doing: str) -> Player:
    """The player, who must have an account to do this (guests cannot)."""
    player = store.get_player(player_id)
    if player is None or player.kind != "account":
        raise GameError(
            "forbidden", _("only signed-in accounts can %(doing)s: sign in first", doing=_(doing))
        )
    return player


def target(store: Store, who: str) -> Player:
    """An account named by its id or username."""
    if not isinstance(who, str) or not who.strip() or len(who) > 40:
        raise GameError("bad_request", _("name the player by their id or username"))
    player = store.get_player(who) if len(who) == 32 else None
    if player is None:
        with store.single() as s:
            player = s.scalars(select(Player).where(Player.username == who.strip().lower())).first()
    if player is None or player.kind != "account":
        raise GameError("unknown_player", _("there is no account by that name"))
    return player


def blocked(store: Store, a: str, b: str) -> bool:
    """Whether either player blocks the other."""
    with store.single() as s:
        found = s.scalar(
            select(BlockRow.blocker_id).where(
                or_(
                    and_(BlockRow.blocker_id == a, BlockRow.blocked_id == b),
                    and_(BlockRow.blocker_id == b, BlockRow.blocked_id == a),
                )
            )
        )
    return found is not None


# -- follows and blocks ---------------------------------------------------------------------------
def follow(store: Store, follower: str, followed: str, now: datetime) -> None:
    if follower == followed:
        raise GameError("bad_request", _("you cannot follow yourself"))
    if blocked(store, follower, followed):
        raise GameError("forbidden", _("you cannot follow this player"))
    with store.sessions() as s, s.begin():
        count = s.query(FollowRow).filter(FollowRow.follower_id == follower).count()
        if s.get(FollowRow, (follower, followed)) is not None:
            return
        if count >= MAX_FOLLOWS:
            raise GameError(
                "too_many_games", _("you follow %(count)s players already", count=MAX_FOLLOWS)
            )
        s.add(FollowRow(follower_id=follower, followed_id=followed, created_at=now))


def unfollow(store: Store, follower: str, followed: str) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            delete(FollowRow).where(
                FollowRow.follower_id == follower, FollowRow.followed_id == followed
            )
        )


def block(store: Store, blocker: str, blocked_id: str, now: datetime) -> None:
    """Block a player: the follows and every open challenge between you end."""
    if blocker == blocked_id:
        raise GameError("bad_request", _("you cannot block yourself"))
    with store.sessions() as s, s.begin():
        if s.get(BlockRow, (blocker, blocked_id)) is None:
            s.add(BlockRow(blocker_id=blocker, blocked_id=blocked_id, created_at=now))
        s.execute(
            delete(FollowRow).where(
                or_(
                    and_(FollowRow.follower_id == blocked_id, FollowRow.followed_id == blocker),
                    and_(FollowRow.follower_id == blocker, FollowRow.followed_id == blocked_id),
                )
            )
        )
        s.execute(
            update(ChallengeRow)
            .where(
                ChallengeRow.status == "open",
                or_(
                    and_(
                        ChallengeRow.challenger_id == blocker,
                        ChallengeRow.challenged_id == blocked_id,
                    ),
                    and_(
                        ChallengeRow.challenger_id == blocked_id,
                        ChallengeRow.challenged_id == blocker,
                    ),
                ),
            )
            .values(status="cancelled", answered_at=now)
        )


def unblock(store: Store, blocker: str, blocked_id: str) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            delete(BlockRow).where(
                BlockRow.blocker_id == blocker, BlockRow.blocked_id == blocked_id
            )
        )


def relation(store: Store, me: str, other: str) -> dict[str, bool]:
    """Whether ``me`` follows and blocks ``other``."""
    with store.single() as s:
        return {
            "following": s.get(FollowRow, (me, other)) is not None,
            "blocking": s.get(BlockRow, (me, other)) is not None,
        }


def followed(store: Store, follower: str) -> list[tuple[Player, str | None]]:
    """The players ``follower`` follows, each with the id of a game in progress they sit in
    (the newest), if any."""
    with store.single() as s:
        players = list(
            s.scalars(
                select(Player)
                .join(FollowRow, FollowRow.followed_id == Player.id)
                .where(FollowRow.follower_id == follower)
                .order_by(Player.name)
            ).all()
        )
        ids = [p.id for p in players]
        playing: dict[str, str] = {}
        if ids:
            rows = s.execute(
                select(GameRecord.id, GameRecord.seat0_id, GameRecord.seat1_id)
                .where(
                    GameRecord.status == "active",
                    or_(GameRecord.seat0_id.in_(ids), GameRecord.seat1_id.in_(ids)),
                )
                .order_by(GameRecord.updated_at.desc())
            ).all()
            for gid, a, b in rows:
                for pid in (a, b):
                    if pid in ids:
                        playing.setdefault(pid, gid)
    return [(p, playing.get(p.id)) for p in players]


async def following_json(hub: Hub, store: Store, player_id: str) -> list[dict[str, Any]]:
    """Who ``player_id`` follows: online (on any process) and the game they play, if any."""
    rows = await hub.db(followed, store, player_id)
    online = await hub.presence.online([p.id for p, _ in rows])
    return [
        {
            "id": p.id,
            "name": p.name,
            "username": p.username,
            "online": p.id in online,
            "playing": gid,
        }
        for p, gid in rows
    ]


# -- challenges -----------------------------------------------------------------------------------
def check_terms(terms: Terms) -> None:
    check_new_game(
        terms.game, terms.options, "friend", terms.seat, None, terms.clock, terms.days_per_move
    )


def create_challenge(
    store: Store, challenger: str, challenged: str, terms: Terms, now: datetime
) -> ChallengeRow:
    if challenger == challenged:
        raise GameError("bad_request", _("you cannot challenge yourself"))
    if blocked(store, challenger, challenged):
        raise GameError("forbidden", _("this player does not take challenges from you"))
    check_terms(terms)
    ttl = TURN_BASED_TTL if terms.days_per_move is not None else REALTIME_TTL
    with store.sessions() as s, s.begin():
        mine = (
            s.query(ChallengeRow)
            .filter(
                ChallengeRow.challenger_id == challenger,
                ChallengeRow.status == "open",
                ChallengeRow.expires_at > now,
            )
            .count()
        )
        if mine >= MAX_OPEN_CHALLENGES:
            raise GameError(
                "too_many_games",
                _(
                    "you have %(count)s challenges waiting for an answer; cancel one or wait",
                    count=MAX_OPEN_CHALLENGES,
                ),
            )
        row = ChallengeRow(
            id=new_game_id(),
            challenger_id=challenger,
            challenged_id=challenged,
            status="open",
            game=terms.game,
            options=dict(terms.options),
            seat=terms.seat,
            clock_initial_ms=terms.clock[0] if terms.clock else None,
            clock_increment_ms=terms.clock[1] if terms.clock else None,
            days_per_move=terms.days_per_move,
            rated=terms.rated,
            created_at=now,
            expires_at=now + ttl,
        )
        s.add(row)
    names = store.get_players([challenger])
    notices.queue(
        store,
        [challenged],
        "challenge",
        now,
        challenger,
        None,
        {
            "name": names[challenger].name if challenger in names else "?",
            "challenge": row.id,
            "title": catalog.game_class(terms.game).TITLE,
        },
    )
    return row


def load_challenge(store: Store, challenge_id: str) -> ChallengeRow:
    if not isinstance(challenge_id, str) or not 1 <= len(challenge_id) <= 16:
        raise GameError("unknown_challenge", _("there is no such challenge"))
    with store.single() as s:
        row = s.get(ChallengeRow, challenge_id)
    if row is None:
        raise GameError("unknown_challenge", _("there is no such challenge"))
    return row


def status_of(row: ChallengeRow, now: datetime) -> str:
    if row.status == "open" and aware(row.expires_at) <= now:
        return "expired"
    return row.status


def close(store: Store, challenge_id: str, status: str, now: datetime) -> bool:
    """Answer an open, unexpired challenge (once: a conditional write); whether this did."""
    with store.sessions() as s, s.begin():
        done = s.execute(
            update(ChallengeRow)
            .where(
                ChallengeRow.id == challenge_id,
                ChallengeRow.status == "open",
                ChallengeRow.expires_at > now,
            )
            .values(status=status, answered_at=now)
        )
        return bool(done.rowcount)  # type: ignore[attr-defined]


def reopen(store: Store, challenge_id: str) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            update(ChallengeRow)
            .where(ChallengeRow.id == challenge_id)
            .values(status="open", answered_at=None)
        )


def set_game(store: Store, challenge_id: str, game_id: str) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            update(ChallengeRow).where(ChallengeRow.id == challenge_id).values(game_id=game_id)
        )


def challenges_of(store: Store, player_id: str, now: datetime) -> dict[str, list[ChallengeRow]]:
    """The open challenges ``player_id`` received and sent, newest first."""
    with store.single() as s:

        def open_where(column: Any) -> list[ChallengeRow]:
            return list(
                s.scalars(
                    select(ChallengeRow)
                    .where(column == player_id, ChallengeRow.status == "open")
                    .where(ChallengeRow.expires_at > now)
                    .order_by(ChallengeRow.created_at.desc())
                    .limit(50)
                ).all()
            )

        return {
            "incoming": open_where(ChallengeRow.challenged_id),
            "outgoing": open_where(ChallengeRow.challenger_id),
        }


def incoming_count(store: Store, player_id: str, now: datetime) -> int:
    """How many open challenges await ``player_id``'s answer (every page's header)."""
    with store.single() as s:
        return (
            s.query(ChallengeRow)
            .filter(
                ChallengeRow.challenged_id == player_id,
                ChallengeRow.status == "open",
                ChallengeRow.expires_at > now,
            )
            .count()
        )


def challenge_json(store: Store, row: ChallengeRow, now: datetime) -> dict[str, Any]:
    names = {
        p.id: p.name for p in store.get_players([row.challenger_id, row.challenged_id]).values()
    }
    try:
        title = catalog.game_class(row.game).TITLE
    except ValueError:
        title = row.game
    clock = None
    if row.clock_initial_ms is not None:
        clock = [row.clock_initial_ms, row.clock_increment_ms or 0]
    return {
        "id": row.id,
        "status": status_of(row, now),
        "challenger": {"id": row.challenger_id, "name": names.get(row.challenger_id, "?")},
        "challenged": {"id": row.challenged_id, "name": names.get(row.challenged_id, "?")},
        "game": row.game,
        "title": title,
        "options": row.options,
        "seat": row.seat,
        "clock": clock,
        "days_per_move": row.days_per_move,
        "rated": row.rated,
        "game_id": row.game_id,
        "created_at": aware(row.created_at).isoformat(),
        "expires_at": aware(row.expires_at).isoformat(),
    }


# Why a challenge can no longer be answered, by its state.
CHALLENGE_CLOSED = {
    "accepted": N_("this challenge is accepted already"),
    "declined": N_("this challenge is declined already"),
    "cancelled": N_("this challenge is cancelled already"),
    "expired": N_("this challenge is expired already"),
}


async def answer(hub: Hub, store: Store, player_id: str, challenge_id: str, verb: str) -> str:
    """``accept`` (the game starts: its id is returned), ``decline`` or ``cancel`` (the
    challenger's own); anything else, or an answer too late, is refused."""
    now = hub.now()
    row = await hub.db(load_challenge, store, challenge_id)
    if verb == "cancel":
        if row.challenger_id != player_id:
            raise GameError("forbidden", _("only the player who sent this challenge can cancel it"))
    elif row.challenged_id != player_id:
        raise GameError("forbidden", _("only the challenged player can answer this challenge"))
    state = status_of(row, now)
    if state != "open":
        raise GameError("not_active", _(CHALLENGE_CLOSED.get(state, CHALLENGE_CLOSED["expired"])))
    status = {"accept": "accepted", "decline": "declined", "cancel": "cancelled"}[verb]
    if not await hub.db(close, store, challenge_id, status, now):
        raise GameError("conflict", _("this challenge was answered meanwhile"))
    if verb == "decline":
        await _tell_answer(hub, store, row, "declined", None)
    if verb != "accept":
        return ""
    clock = None
    if row.clock_initial_ms is not None:
        clock = (row.clock_initial_ms, row.clock_increment_ms or 0)
    try:
        live = await hub.seating.create(
            row.challenger_id,
            row.game,
            dict(row.options),
            "friend",
            seat=row.seat,
            clock=clock,
            rated=row.rated,
            days_per_move=row.days_per_move,
        )
        await hub.seating.join(row.challenged_id, live.id, live.invite_token)
    except GameError:
        await hub.db(reopen, store, challenge_id)  # nothing started: it may be answered again
        raise
    await hub.db(set_game, store, challenge_id, live.id)
    await _tell_answer(hub, store, row, "accepted", live.id)
    return live.id


async def _tell_answer(
    hub: Hub, store: Store, row: ChallengeRow, answer: str, game_id: str | None
) -> None:
    """The challenger's bell: their challenge was accepted (with the game) or declined."""
    names = await hub.db(store.get_players, [row.challenged_id])
    name = names[row.challenged_id].name if row.challenged_id in names else "?"
    await hub.db(
        notices.queue,
        store,
        [row.challenger_id],
        "challenge_answered",
        hub.now(),
        row.challenged_id,
        game_id,
        {"name": name, "answer": answer},
    )
