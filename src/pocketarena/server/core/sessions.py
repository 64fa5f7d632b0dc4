"""Sessions: which player a browser is. The cookie holds a random token; the server keeps
its SHA-256 with the player, when it began, when it was last used, when it ends and the
browser's user agent. Signing in, registering and signing out each start a new session (or
none); ending a session makes its cookie worthless at once.

The app talks to a ``SessionStore`` (a small protocol); ``DatabaseSessions`` keeps them in
the database, which every server process shares.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Protocol

from anyio import to_thread

from ..models import SessionRow, utcnow
from ..store import Store, aware

TOKEN_BYTES = 32
_TOKEN_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


@dataclass(frozen=True)
class SessionInfo:
    id: str  # SHA-256 of the token (the token itself is never stored)
    player_id: str
    created_at: datetime
    last_seen_at: datetime
    expires_at: datetime
    user_agent: str

    @classmethod
    def of(cls, row: SessionRow) -> SessionInfo:
        return cls(
            row.id,
            row.player_id,
            aware(row.created_at),
            aware(row.last_seen_at),
            aware(row.expires_at),
            row.user_agent,
        )


def session_id(token: str) -> str:
    return hashlib.sha256(token.encode("ascii")).hexdigest()


def well_formed(token: str | None) -> bool:
    """Whether ``token`` could be one of ours (anything else is not looked up)."""
    return token is not None and 40 <= len(token) <= 64 and all(c in _TOKEN_CHARS for c in token)


def clean_user_agent(value: str | None) -> str:
    """Printable ASCII, at most 200 characters (shown on the account page)."""
    text = "".join(c for c in (value or "") if " " <= c <= "~")
    return text[:200]


class SessionStore(Protocol):
    async def start(self, player_id: str, user_agent: str | None) -> tuple[str, SessionInfo]:
        """A new session for ``player_id``: its token (for the cookie) and its record."""
        ...

    async def find(self, token: str | None) -> SessionInfo | None:
        """The live session a cookie's token names, or None (missing, unknown, expired)."""
        ...

    async def end(self, session: str) -> None:
        """End the session with this id."""
        ...

    async def end_all(self, player_id: str) -> list[str]:
        """End every session of a player; the ids ended."""
        ...

    async def of_player(self, player_id: str) -> list[SessionInfo]: ...

    async def purge(self) -> int:
        """Forget expired sessions; how many."""
        ...


class DatabaseSessions:
    """Sessions in the ``sessions`` table (the storage layer's calls run on worker threads)."""

    def __init__(self, store: Store, idle: timedelta, max_age: timedelta) -> None:
        self.store = store
        self.idle = idle
        self.max_age = max_age

    async def start(self, player_id: str, user_agent: str | None) -> tuple[str, SessionInfo]:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = utcnow()
        row = SessionRow(
            id=session_id(token),
            player_id=player_id,
            created_at=now,
            last_seen_at=now,
            expires_at=now + min(self.idle, self.max_age),
            user_agent=clean_user_agent(user_agent),
        )
        await to_thread.run_sync(self.store.add_session, row)
        return token, SessionInfo.of(row)

    async def find(self, token: str | None) -> SessionInfo | None:
        if token is None or not well_formed(token):
            return None
        row = await to_thread.run_sync(
            self.store.find_session, session_id(token), utcnow(), self.idle, self.max_age
        )
        return SessionInfo.of(row) if row is not None else None

    async def end(self, session: str) -> None:
        await to_thread.run_sync(self.store.delete_session, session)

    async def end_all(self, player_id: str) -> list[str]:
        return await to_thread.run_sync(self.store.delete_sessions_of, player_id)

    async def of_player(self, player_id: str) -> list[SessionInfo]:
        rows = await to_thread.run_sync(self.store.sessions_of, player_id)
        return [SessionInfo.of(r) for r in rows]

    async def purge(self) -> int:
        return await to_thread.run_sync(self.store.purge_sessions, utcnow())
