"""Catching up with the other processes of a cluster.

With a shared bus (Redis) any number of processes serve the same games. The database is the
only authority: every change is made under the game's lock in one process, on the newest
stored version (read in here when another process moved on: ``refresh``), and written naming
the version it replaces, so a change is applied once whichever processes race. The bus only
says that something changed; the watchers here then read it from the database. This module
hears those notices (a game changed, sessions ended, a player renamed, the lobby changed),
reads in what changed, and makes again what Redis keeps for the cluster when it lost it.
One process alone (a ``MemoryBus``) hears only its own notices, and ignores them.
"""

from __future__ import annotations

import logging
import time
from dataclasses import fields
from typing import Any

from . import loading, lobby, session
from .botjobs import BotJobs
from .bus import GAMES, LOBBY, PLAYERS, SESSIONS
from .games import LiveGame, Runner, kept
from .lobby import LobbyMirror
from .outbox import Outbox
from .session import Table
from .watchers import Watchers

log = logging.getLogger(__name__)


class Cluster:
    def __init__(
        self,
        runner: Runner,
        outbox: Outbox,
        mirror: LobbyMirror,
        botjobs: BotJobs,
        watchers: Watchers,
    ) -> None:
        self.runner = runner
        self.watchers = watchers
        self.bus = runner.bus
        self.outbox = outbox
        self.mirror = mirror  # the lobby entries of every process
        self.botjobs = botjobs
        self.bus.subscribe(GAMES, self._on_game)
        self.bus.subscribe(LOBBY, lambda _msg: self.mirror.read())
        self.bus.subscribe(SESSIONS, self._on_sessions)
        self.bus.subscribe(PLAYERS, self._on_player)

    async def start(self) -> None:
        self.bus.on_reconnect = self._reload_watched
        await self.mirror.fetch()
        await self.botjobs.start()

    async def refresh(self, live: LiveGame) -> bool:
        """Adopt the stored game if another process changed it (under its lock); whether it
        had."""
        runner = self.runner
        version = await runner.db(runner.store.game_version, live.id)
        if version is None or version == live.version:
            return False
        row = await runner.db(runner.store.load_game, live.id)
        if row is None:
            return False
        fresh = session.advanced(live, row) or await loading.build(runner, row)
        await loading.charge_time_before_stop(runner, fresh, row)
        if fresh.status == "finished":
            fresh.rematch_offers = await self.offers(live, [])
        start = len(live.state.history)
        for f in fields(Table):  # the table is read in; its watchers, timers and caches stay
            setattr(live, f.name, getattr(fresh, f.name))
        live.events_from = min(start, len(live.state.history))
        live.last_activity = time.monotonic()
        if live.status == "active" and live.clock is not None:
            live.clock.switch(live.actor())
        runner.after_change(live, announce=False)
        self.botjobs.queue_move(live)  # once per version: in case its writer died before
        return True

    async def offers(self, live: LiveGame, seats: list[int]) -> set[int]:
        """The rematch offers of a finished game, ``seats`` added, as the cluster knows them
        (Redis away: this process's own)."""
        try:
            return await self.bus.rematch_offers(live.id, seats)
        except Exception:
            log.warning("rematch offers of %s not shared: the bus is away", live.id)
            return live.rematch_offers | set(seats)

    async def share_offers(self, live: LiveGame, seats: list[int]) -> None:
        """``seats`` offer a rematch of ``live``: the offers of every process are read in, and
        the processes that follow the game told (the other player may be on another)."""
        live.rematch_offers = await self.offers(live, seats)
        self.outbox.tell(GAMES, {"id": live.id, "offers": sorted(live.rematch_offers)}, live.id)

    async def check_watched(self) -> int:
        """Read again the watched games that another process changed without saying so (it
        died between its write and its message); how many (one process alone: none)."""
        runner = self.runner
        watched = [gid for gid, live in runner.games.items() if live.subscribers]
        if not watched:
            return 0
        behind = 0
        stored = await runner.db(runner.store.game_versions, watched)
        for gid, version in stored.items():
            live = runner.games.get(gid)
            if live is not None and version > live.version:
                behind += 1
                runner.spawn(self._catch_up(live))
        return behind

    def _heard(self, msg: dict[str, Any]) -> bool:
        """Whether ``msg`` is another process's, heard while this one runs."""
        return msg.get("origin") != self.bus.node and not self.runner.closing

    def _on_game(self, msg: dict[str, Any]) -> None:
        """Another process changed a game: watchers here get it, anything else forgets it."""
        if not self._heard(msg):
            return
        live = self.runner.games.get(str(msg.get("id")))
        if live is None:
            return
        offers = msg.get("offers")
        if isinstance(offers, list):
            live.rematch_offers = {s for s in offers if s in (0, 1)}
            self.runner.broadcast(live, announce=False)
            return
        version = msg.get("version")
        if not isinstance(version, int) or version <= live.version:
            return
        if kept(live):
            self.runner.spawn(self._catch_up(live))
        else:
            self.runner.forget(live)

    async def _catch_up(self, live: LiveGame) -> None:
        try:
            async with self.runner.locked(live):
                pass
        except Exception:  # the database is away for a moment: the next change retries
            log.warning("game %s could not be reloaded", live.id, exc_info=True)

    def _reload_watched(self) -> None:
        """The bus came back after a drop, or Redis forgot this process (it restarted empty):
        whatever changed meanwhile is read again, and what Redis keeps for the cluster is
        written again (the lobby's entries of the games here, the bots' consumer group; the
        bus rewrites presence itself, the bot sweep finds the jobs lost)."""
        runner = self.runner
        for live in list(runner.games.values()):
            if live.subscribers:
                runner.spawn(self._catch_up(live))
            elif not live.lock.locked() and not lobby.listed(live):
                runner.forget(live)
        if runner.closing:
            return
        for gid, live in runner.games.items():
            if lobby.listed(live):
                self.outbox.listed(gid)
        self.outbox.tell(LOBBY, {})  # the others read the lobby again, with these entries
        runner.spawn(self.botjobs.remake_group())
        self.mirror.read()

    def _on_sessions(self, msg: dict[str, Any]) -> None:
        ids = msg.get("ids")
        if msg.get("origin") != self.bus.node and isinstance(ids, list):
            self.watchers.sessions_ended([str(i) for i in ids], announce=False)

    def _on_player(self, msg: dict[str, Any]) -> None:
        player, name = msg.get("player"), msg.get("name")
        if msg.get("origin") != self.bus.node and isinstance(player, str) and isinstance(name, str):
            self.runner.player_renamed(player, name, announce=False)
