"""Notifications: what a player is told, queued in the database (so every process of a
cluster reads the same list, and nothing is lost with a process): their turn in a turn-based
game, a challenge received or answered, a turn-based game over, a followed player starting a
game.

Each kind goes by the channels the player switched on for it (the account page): the bell
(``site``), ``email`` (to a verified address) and Web ``push`` (to each browser subscribed).
The bell reads the rows here; ``server.delivery`` sends the email and push ones.

Nothing is queued for a bot or a guest, nor from a player the recipient blocks. Queuing
happens after the change it tells of is written, on the database threads, never inside a
move's write.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from pocketarena.i18n import _

from .models import BlockRow, FollowRow, NotificationRow, Player, PushSubscriptionRow
from .store import Store, aware

KINDS = ("your_turn", "challenge", "challenge_answered", "game_over", "followed_started")
CHANNELS = ("site", "email", "push")
LISTED = 30  # notifications the bell lists (the newest)
# Which channels each kind goes by until the player chooses (email only ever to a verified
# address, push only to a subscribed browser): a followed player's game is no reason to write.
DEFAULTS: dict[str, dict[str, bool]] = {
    "your_turn": {"site": True, "email": True, "push": True},
    "challenge": {"site": True, "email": True, "push": True},
    "challenge_answered": {"site": True, "email": False, "push": True},
    "game_over": {"site": True, "email": True, "push": True},
    "followed_started": {"site": True, "email": False, "push": False},
}


def channels(stored: dict[str, Any] | None) -> dict[str, dict[str, bool]]:
    """The channels of every kind: the player's choices over the defaults."""
    chosen = stored if isinstance(stored, dict) else {}
    out: dict[str, dict[str, bool]] = {}
    for kind, default in DEFAULTS.items():
        mine = chosen.get(kind)
        mine = mine if isinstance(mine, dict) else {}
        out[kind] = {
            c: bool(mine[c]) if isinstance(mine.get(c), bool) else on for c, on in default.items()
        }
    return out


def set_channels(
    store: Store, player_id: str, changes: dict[str, dict[str, bool]]
) -> dict[str, dict[str, bool]]:
    """Switch channels of some kinds on or off (``{kind: {channel: on}}``, checked by the
    caller's schema); the whole table after."""
    with store.sessions() as s, s.begin():
        p = s.get(Player, player_id, with_for_update=True)
        assert p is not None
        table = channels(p.notice_channels)
        for kind, switches in changes.items():
            table[kind].update(switches)
        p.notice_channels = table
        return table


def words(kind: str, data: dict[str, Any]) -> str:
    """The notification in the current language (the bell, an email's subject, a push)."""
    title = str(data.get("title") or "")
    name = str(data.get("name") or "?")
    if kind == "your_turn":
        return _("Your move in %(game)s", game=title)
    if kind == "challenge":
        if title:
            return _("%(name)s challenges you to %(game)s", name=name, game=title)
        return _("%(name)s challenges you", name=name)
    if kind == "challenge_answered":
        if data.get("answer") == "accepted":
            return _("%(name)s accepted your challenge", name=name)
        return _("%(name)s declined your challenge", name=name)
    if kind == "game_over":
        return _("%(game)s is over: %(result)s", game=title, result=data.get("result") or "-")
    if kind == "followed_started":
        return _("%(name)s started a game of %(game)s", name=name, game=title)
    return kind


def kind_names() -> dict[str, str]:
    """Each kind as the account page's switches name it, in the current language."""
    return {
        "your_turn": _("Your move in a turn-based game"),
        "challenge": _("A challenge received"),
        "challenge_answered": _("Your challenge accepted or declined"),
        "game_over": _("A turn-based game over"),
        "followed_started": _("A player you follow starts a game"),
    }


def url_of(game_id: str | None, player_id: str) -> str:
    """Where a notification leads (relative to the site)."""
    return f"/g/{game_id}" if game_id else f"/players/{player_id}"


def queue(
    store: Store,
    recipients: Sequence[str],
    kind: str,
    now: datetime,
    actor_id: str | None = None,
    game_id: str | None = None,
    data: dict[str, Any] | None = None,
) -> int:
    """Queue a notification for each recipient who is an account and does not block
    ``actor_id``, by the channels they switched on for ``kind``; how many were queued (a
    recipient with every channel off for it gets none)."""
    assert kind in KINDS, kind
    wanted = [r for r in dict.fromkeys(recipients) if r and r != actor_id]
    if not wanted:
        return 0
    with store.sessions() as s, s.begin():
        players = {
            p.id: p
            for p in s.scalars(
                select(Player).where(Player.id.in_(wanted), Player.kind == "account")
            ).all()
        }
        accounts = set(players)
        if actor_id is not None and accounts:
            blocking = set(
                s.scalars(
                    select(BlockRow.blocker_id).where(
                        BlockRow.blocker_id.in_(accounts), BlockRow.blocked_id == actor_id
                    )
                ).all()
            )
            accounts -= blocking
        pushed = set(
            s.scalars(
                select(PushSubscriptionRow.player_id).where(
                    PushSubscriptionRow.player_id.in_(accounts)
                )
            ).all()
        )
        queued = 0
        for pid in wanted:
            if pid not in accounts:
                continue
            on = channels(players[pid].notice_channels)[kind]
            mailed = on["email"] and players[pid].email_verified_at is not None
            due = mailed or (on["push"] and pid in pushed)
            if not (on["site"] or due):
                continue
            s.add(
                NotificationRow(
                    player_id=pid,
                    kind=kind,
                    actor_id=actor_id,
                    game_id=game_id,
                    data=dict(data or {}),
                    created_at=now,
                    shown=on["site"],
                    due=due,
                )
            )
            queued += 1
        return queued


def followers(store: Store, player_id: str) -> list[str]:
    with store.single() as s:
        return list(
            s.scalars(select(FollowRow.follower_id).where(FollowRow.followed_id == player_id))
        )


def listed(store: Store, player_id: str, limit: int = LISTED) -> dict[str, Any]:
    """The newest notifications of ``player_id`` and how many are unread."""
    with store.single() as s:
        rows = list(
            s.scalars(
                select(NotificationRow)
                .where(NotificationRow.player_id == player_id, NotificationRow.shown)
                .order_by(NotificationRow.id.desc())
                .limit(limit)
            ).all()
        )
    return {
        "unread": unread(store, player_id),
        "notifications": [
            {
                "id": r.id,
                "kind": r.kind,
                "game_id": r.game_id,
                "url": url_of(r.game_id, player_id),
                "data": r.data,
                "created_at": aware(r.created_at).isoformat(),
                "read": r.read_at is not None,
            }
            for r in rows
        ],
    }


def unread(store: Store, player_id: str) -> int:
    with store.single() as s:
        return (
            s.query(NotificationRow)
            .filter(
                NotificationRow.player_id == player_id,
                NotificationRow.shown,
                NotificationRow.read_at.is_(None),
            )
            .count()
        )


def mark_read(store: Store, player_id: str, now: datetime) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            update(NotificationRow)
            .where(NotificationRow.player_id == player_id, NotificationRow.read_at.is_(None))
            .values(read_at=now)
        )
