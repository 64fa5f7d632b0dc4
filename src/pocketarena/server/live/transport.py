"""What the live layer needs of a watcher's socket: who it acts for, which games it
watches, and a way to send it text that never blocks. ``live.connection`` (a WebSocket)
is one such socket; the hub, the lobby, the views and presence know only this protocol."""

from __future__ import annotations

from typing import Protocol


class Watcher(Protocol):
    id: int  # unique among this process's sockets
    player_id: str | None  # the player it acts for (None: nobody signed in yet)
    session_id: str | None  # the session it acts for (closed when that ends)
    watching: dict[str, bool]  # game id -> wants the SVG board
    locale: str  # the language its messages are worded in (the one it was opened in)
    closed: bool

    def push(self, text: str) -> None:
        """Queue ``text`` for the socket; never blocks (a socket too far behind is closed)."""
        ...

    def close(self) -> None: ...
