"""The lobby's watchers and the updates they are sent.

Updates go out together, at most ``updates_per_s`` times a second, each with only the
entries that changed since the one before and the order of both lists (an id left out has
gone). What the lobby shows comes from ``items`` (this process's games, or in a cluster every
process's entries as the bus keeps them); how an entry looks is ``views``' business.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from ..schemas import LobbyDeltaOut, LobbyItem
from . import views
from .bus import LOBBY, Bus
from .outbox import Outbox
from .transport import Watcher

if TYPE_CHECKING:
    from .games import LiveGame

log = logging.getLogger(__name__)


def item(live: LiveGame, wall: float, now: float) -> LobbyItem:
    """What the lobby chooses from for one game; ``wall`` and ``now``: this moment by the
    wall and by the monotonic clock (its last activity is kept as a wall-clock time)."""
    return LobbyItem(
        entry=views.lobby_entry(live),
        status=live.status,
        mode=live.mode,
        sources=[f"p:{live.creator_id}"]
        + ([f"a:{live.creator_addr}"] if live.creator_addr else []),
        active_at=wall - (now - live.last_activity),
    )


def listed(live: LiveGame) -> bool:
    return live.status in ("waiting", "active")


def record(live: LiveGame, wall: float, now: float) -> str | None:
    """This game's lobby item as the bus keeps it for the other processes (None: not in the
    lobby)."""
    if not listed(live):
        return None
    return item(live, wall, now).model_dump_json(exclude={"entry": {"idle_s"}})


def records(games: Mapping[str, LiveGame], game_ids: set[str]) -> dict[str, str | None]:
    """The lobby records of these games as of now (None: not here any more)."""
    wall, now = time.time(), time.monotonic()
    return {gid: record(live, wall, now) if (live := games.get(gid)) else None for gid in game_ids}


def read_record(text: str) -> LobbyItem | None:
    """A lobby item from the bus (None: not one; another process's bad record is left out)."""
    try:
        return LobbyItem.model_validate_json(text)
    except ValidationError:
        return None


class LobbyBoard:
    def __init__(self, items: Callable[[], list[LobbyItem]], updates_per_s: float) -> None:
        self.items = items
        self.interval = 1.0 / updates_per_s
        self.watchers: set[Watcher] = set()
        self.messages = 0  # updates sent (for tests and the probes)
        self.closed = False
        self._timer: asyncio.TimerHandle | None = None
        self._flushed = 0.0
        self._sent: dict[str, str] = {}  # game id -> its entry as last sent
        self._order: dict[str, list[str]] = {"seeks": [], "live": []}

    def view(self) -> dict[str, Any]:
        return views.lobby_lists(self.items(), time.time())

    def soon(self) -> None:
        """Send the watchers an update soon (changes that come together share one)."""
        if self._timer is not None or not self.watchers or self.closed:
            return
        delay = max(0.0, self._flushed + self.interval - time.monotonic())
        self._timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self) -> None:
        """One update: the entries that changed since the last, and both lists' order."""
        self._timer = None
        self._flushed = time.monotonic()
        if not self.watchers:
            return
        view = self.view()
        changed, sent = [], {}
        for entry in view["seeks"] + view["live"]:
            key = json.dumps({k: v for k, v in entry.items() if k != "idle_s"}, sort_keys=True)
            sent[entry["id"]] = key
            if self._sent.get(entry["id"]) != key:
                changed.append(entry)
        order = {name: [e["id"] for e in view[name]] for name in ("seeks", "live")}
        if not changed and order == self._order:
            return
        self._sent, self._order = sent, order
        delta = LobbyDeltaOut.model_validate(
            {"type": "lobby", "delta": True, "entries": changed, **order}
        )
        text = delta.model_dump_json(exclude_unset=True)  # a seek's entry has no idle time
        self.messages += 1
        for conn in list(self.watchers):
            conn.push(text)

    def close(self) -> None:
        self.closed = True
        if self._timer is not None:
            self._timer.cancel()


class LobbyMirror:
    """In a cluster: every process's lobby entries as the bus keeps them, read again whenever
    some process says its entries changed (one read at a time; a notice during a read makes
    it read once more)."""

    def __init__(
        self,
        bus: Bus,
        spawn: Callable[[Awaitable[Any]], asyncio.Task[Any]],
        changed: Callable[[], None],
    ) -> None:
        self.bus = bus
        self.spawn = spawn
        self.changed = changed  # called after each read (the lobby's watchers get an update)
        self.items: dict[str, LobbyItem] = {}
        self.closed = False
        self._reading: asyncio.Task[None] | None = None
        self._stale = False

    def read(self) -> None:
        """Read the entries again (soon, once)."""
        if self.closed:
            return
        if self._reading is not None and not self._reading.done():
            self._stale = True
            return
        self._reading = self.spawn(self.fetch())

    async def fetch(self) -> None:
        while True:
            self._stale = False
            try:
                entries = await self.bus.lobby_entries()
            except Exception:
                log.warning("the lobby could not be read from the bus", exc_info=True)
                return
            mirror = {gid: read_record(text) for gid, text in entries.items()}
            self.items = {gid: item for gid, item in mirror.items() if item is not None}
            self.changed()
            if not self._stale:
                return


class Lobby:
    """The lobby as this process shows it: its own games (one process alone), or every
    process's entries as the bus keeps them (a cluster: ``mirror``); ``changed`` sends the
    watchers here an update soon, and in a cluster has every process send its own."""

    def __init__(
        self,
        games: Mapping[str, LiveGame],
        bus: Bus,
        outbox: Outbox,
        spawn: Callable[[Awaitable[Any]], asyncio.Task[Any]],
        updates_per_s: float,
    ) -> None:
        self.games = games
        self.clustered = bus.shared
        self.outbox = outbox
        self.board = LobbyBoard(self.items, updates_per_s)
        self.mirror = LobbyMirror(bus, spawn, self.board.soon)  # others' entries

    def items(self) -> list[LobbyItem]:
        if self.clustered:  # alone, its own games are every game: shown as they are now
            return list(self.mirror.items.values())
        wall, now = time.time(), time.monotonic()
        return [item(live, wall, now) for live in self.games.values() if listed(live)]

    def changed(self, live: LiveGame | None = None) -> None:
        """Something the lobby shows changed (in ``live``, if given)."""
        if self.clustered:  # alone, its watchers get an update at once, not via the bus
            if live is not None:
                self.outbox.listed(live.id)
            self.outbox.tell(LOBBY, {})
            return
        self.board.soon()

    def close(self) -> None:
        self.mirror.closed = True
        self.board.close()
