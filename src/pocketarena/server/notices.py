"""The bell: what a player is told, queued in the database (so every process of a cluster
reads the same list, and nothing is lost with a process): their turn in a turn-based game, a
challenge received or answered, a turn-based game over, a followed player starting a game.

Nothing is queued for a bot or a guest, nor from a player the recipient blocks. Queuing
happens after the change it tells of is written, on the database threads, never inside a
move's write.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from .models import BlockRow, FollowRow, NotificationRow, Player
from .store import Store, aware

KINDS = ("your_turn", "challenge", "challenge_answered", "game_over", "followed_started")
LISTED = 30  # notifications the bell lists (the newest)


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
    ``actor_id``; how many were queued."""
    assert kind in KINDS, kind
    wanted = [r for r in dict.fromkeys(recipients) if r and r != actor_id]
    if not wanted:
        return 0
    with store.sessions() as s, s.begin():
        accounts = set(
            s.scalars(
                select(Player.id).where(Player.id.in_(wanted), Player.kind == "account")
            ).all()
        )
        if actor_id is not None and accounts:
            blocking = set(
                s.scalars(
                    select(BlockRow.blocker_id).where(
                        BlockRow.blocker_id.in_(accounts), BlockRow.blocked_id == actor_id
                    )
                ).all()
            )
            accounts -= blocking
        for pid in wanted:
            if pid in accounts:
                s.add(
                    NotificationRow(
                        player_id=pid,
                        kind=kind,
                        actor_id=actor_id,
                        game_id=game_id,
                        data=dict(data or {}),
                        created_at=now,
                    )
                )
        return len(accounts)


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
                .where(NotificationRow.player_id == player_id)
                .order_by(NotificationRow.id.desc())
                .limit(limit)
            ).all()
        )
        unread = (
            s.query(NotificationRow)
            .filter(NotificationRow.player_id == player_id, NotificationRow.read_at.is_(None))
            .count()
        )
    return {
        "unread": unread,
        "notifications": [
            {
                "id": r.id,
                "kind": r.kind,
                "game_id": r.game_id,
                "url": f"/g/{r.game_id}" if r.game_id else "/players/" + player_id,
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
            .filter(NotificationRow.player_id == player_id, NotificationRow.read_at.is_(None))
            .count()
        )


def mark_read(store: Store, player_id: str, now: datetime) -> None:
    with store.sessions() as s, s.begin():
        s.execute(
            update(NotificationRow)
            .where(NotificationRow.player_id == player_id, NotificationRow.read_at.is_(None))
            .values(read_at=now)
        )
