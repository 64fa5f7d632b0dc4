"""The sweeps that end games on time where no timer of this process watches them: clocks
that ran out while the process keeping them was gone (a cluster), turn-based moves past
their deadline, and games nobody joined in time. Each reads the database, and the version
every end is written against ends a game once, whichever processes race."""

from __future__ import annotations

import logging
from datetime import timedelta

from ..models import utcnow
from ..store import aware
from .games import Runner, kept
from .session import GameError, abandoned_values

log = logging.getLogger(__name__)

CLOCK_SWEEP_S = 1.0  # how often some process looks for clocks that ran out unwatched
TURN_SWEEP_BATCH = 500  # overdue turn-based games ended per sweep (the rest: the next one)
FLAG_SLACK_MS = 200  # a clock this far past its end is looked at (its own timer came first)


async def clocks(runner: Runner) -> int:
    """End the games whose clock ran out while the process that kept it was gone (one
    process alone keeps every clock it runs: it finds none). One process at a time looks;
    the version check ends each game once. How many games were looked at."""
    if not await runner.bus.try_lock("clocks", CLOCK_SWEEP_S * 0.9):
        return 0
    now = utcnow()
    looked = 0
    for gid, since, left in await runner.db(runner.store.running_clocks):
        if since is None or (now - aware(since)).total_seconds() * 1000 < left + FLAG_SLACK_MS:
            continue
        try:
            live = await runner.get(gid)
        except GameError:
            continue
        looked += 1
        await runner.flag_check(live)
    return looked


async def turns(runner: Runner) -> int:
    """End the turn-based games whose move was due (read from the database: they end on
    time whether or not any process holds them). One process at a time looks (alone: it
    always may), and the version each end is written against ends a game once whoever
    else races. How many games ended."""
    if not await runner.bus.try_lock("turns", CLOCK_SWEEP_S * 5):
        return 0
    ended = 0
    for gid in await runner.db(runner.store.due_turns, runner.now(), TURN_SWEEP_BATCH):
        try:
            live = await runner.get(gid)
        except GameError:
            continue
        if await runner.flag_check(live):
            ended += 1
        if not kept(live) and live.status != "active":
            runner.games.pop(gid, None)  # stays stored; a sweep keeps nothing in memory
    if ended:
        log.info("%d turn-based game(s) ended on time", ended)
    return ended


async def waiting(runner: Runner) -> int:
    """Cancel the games nobody joined within ``waiting_game_ttl_s``; how many."""
    cutoff = utcnow() - timedelta(seconds=runner.settings.waiting_game_ttl_s)
    stale = await runner.db(runner.store.stale_waiting_games, cutoff)
    expired = 0
    for gid, version in stale:
        live = runner.games.get(gid)
        if live is None:  # not in play here: only its row changes
            done = await runner.db(
                runner.store.save_games, [(gid, version, abandoned_values(version))]
            )
            expired += done[0]
            continue
        async with runner.locked(live):
            if live.status == "waiting":
                try:
                    await runner.abandon(live)
                except GameError:
                    continue
                expired += 1
                if not live.subscribers:
                    runner.games.pop(gid, None)
    if expired:
        log.info("%d game(s) nobody joined in time were cancelled", expired)
        runner.lobby_changed()
    return expired
