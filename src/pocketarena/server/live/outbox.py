"""The outbox: what one process of a cluster tells the others, in order, by one task.

A change is adopted here first and told afterwards, so the hub never waits for Redis while it
holds a game's lock. What piles up while a send is under way goes out together, and always in
this order: the lobby entries of the games that changed (so a process that hears of a change
finds the new entry), then the changes themselves on each game's own channel, then other
notices (sessions ended, a player renamed, rematch offers), then the bots' jobs (so a worker
that takes one reads the stored version it names). With Redis away nothing is lost for good:
watchers elsewhere catch up when it is back (``Cluster.check_watched``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .bus import GAMES, Bus
from .jobs import BotQueue

log = logging.getLogger(__name__)

# The lobby records of these games (None: no longer listed), as of one moment.
Records = Callable[[set[str]], dict[str, str | None]]


class Outbox:
    def __init__(
        self,
        bus: Bus,
        jobs: BotQueue | None,
        records: Records,
        spawn: Callable[[Awaitable[Any]], asyncio.Task[Any]],
    ) -> None:
        self.bus = bus
        self.jobs = jobs
        self.records = records
        self.spawn = spawn
        self._games: dict[str, int] = {}  # game id → its newest version
        self._listed: set[str] = set()  # games whose lobby entry is to be written
        self._notices: list[tuple[str, dict[str, Any], str | None]] = []
        self._jobs: dict[str, int] = {}  # game id → the version its bot is to move at
        self._task: asyncio.Task[None] | None = None

    def changed(self, game_id: str, version: int) -> None:
        """A game moved on to ``version``: its entry and its change go out."""
        self._games[game_id] = version
        self._listed.add(game_id)
        self._kick()

    def listed(self, game_id: str) -> None:
        """A game's lobby entry is to be written with the next send."""
        self._listed.add(game_id)

    def tell(self, channel: str, msg: dict[str, Any], topic: str | None = None) -> None:
        """A notice for the other processes (``topic``: those following that game only)."""
        self._notices.append((channel, {**msg, "origin": self.bus.node}, topic))
        self._kick()

    def bot_job(self, game_id: str, version: int) -> None:
        """Queue the bot's move at ``version`` (once per version)."""
        self._jobs[game_id] = version
        self._kick()

    async def drain(self, timeout: float) -> None:
        """Let the send under way finish (at most ``timeout`` seconds)."""
        if self._task is not None and not self._task.done():
            await asyncio.wait([self._task], timeout=timeout)

    def _kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = self.spawn(self._flush())

    async def _flush(self) -> None:
        while self._games or self._listed or self._notices or self._jobs:
            games, self._games = self._games, {}
            listed, self._listed = self._listed, set()
            notices, self._notices = self._notices, []
            jobs, self._jobs = self._jobs, {}
            try:
                await self.bus.lobby_put(self.records(listed))
                for gid, version in games.items():  # on the game's own channel
                    await self.bus.publish(
                        GAMES, {"id": gid, "version": version, "origin": self.bus.node}, gid
                    )
                for channel, msg, topic in notices:
                    await self.bus.publish(channel, msg, topic)
                for gid, version in jobs.items():
                    if self.jobs is not None:
                        await self.jobs.enqueue(gid, version)
            except Exception:  # Redis away: watchers elsewhere catch up when it is back
                log.warning("the bus could not be told of %d change(s)", len(games), exc_info=True)
