"""The bots' turns. One process alone has its bot think as soon as it is to act. In a
cluster a bot's move is a job (``live.jobs``): queued once per version after each change,
taken by any process that takes jobs and played through its runner, and queued again from
the database when Redis lost it (restarted empty, or away when the move before was
written)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from ..models import utcnow
from .bots import BotRunner, bot_seed
from .games import LiveGame, Runner, bot_to_move, kept
from .jobs import BotQueue
from .outbox import Outbox
from .session import GameError

log = logging.getLogger(__name__)

BOT_SWEEP_S = 2.0  # how often some process looks for bots waited on with no job queued
# A bot game unchanged this long with no job in the stream has lost its job (the outbox
# queues one right after each write, so a younger one may still be on its way).
BOT_JOB_GRACE_S = 3.0


class BotJobs:
    def __init__(
        self, runner: Runner, bots: BotRunner, queue: BotQueue | None, outbox: Outbox
    ) -> None:
        self.runner = runner
        self.bots = bots
        self.queue = queue  # None: this process neither queues nor takes jobs
        self.outbox = outbox
        self.found = 0  # lost bot jobs queued again by the sweep (tests, probes)
        self._checked: dict[str, int] = {}  # game -> a version found not to be a bot's turn

    def changed(self, live: LiveGame, announce: bool) -> None:
        """After a change to a game in progress (``announce``: made here): in a cluster its
        bot's move is queued, wherever a process takes the job; alone, its bot thinks."""
        if self.queue is not None:  # a job any process may take, not a task of this one
            if announce:
                self.queue_move(live)
            return
        actor = live.actor()
        seat = live.seats[actor] if actor is not None else None
        # The bot's own task (after its move) counts as idle: it is about to end.
        task = live.bot_task
        idle = task is None or task.done() or task is asyncio.current_task()
        if seat is not None and seat.kind == "bot" and seat.bot and idle:
            live.bot_task = self.runner.spawn(self.turn(live, live.version, actor or 0, seat.bot))

    async def turn(self, live: LiveGame, version: int, seat: int, spec: str) -> None:
        """The bot in ``seat`` thinks and plays its move at ``version`` (unless the game moved
        on meanwhile); a failure is logged."""
        runner = self.runner
        try:
            delay = runner.settings.bot_min_delay_ms / 1000
            if delay:
                await asyncio.sleep(delay)
            if live.version != version or live.status != "active":
                return
            state = live.state
            budget = None
            if live.clock is not None:
                budget = max(0.05, live.clock.left_ms(seat) / 1000 - 0.2)
            seed = bot_seed(live.id, len(state.history))
            action = await self.bots.choose(spec, state, seed, budget)
            async with runner.locked(live):
                if live.version != version or live.status != "active":
                    return
                await runner.flag_if_due(live)
                if live.status != "active":
                    return
                await runner.play(live, live.state.child(action))
        except asyncio.CancelledError:
            raise
        except GameError as e:
            log.warning("bot move in %s not played: %s", live.id, e.message)
        except Exception:
            log.exception("bot turn failed in game %s", live.id)

    def queue_move(self, live: LiveGame) -> None:
        """In a cluster: if a bot is to act, queue its move (once per version). One process
        alone has no queue: it has its bots think itself (``changed``)."""
        if self.queue is None or self.runner.closing:
            return
        if bot_to_move(live):
            self.outbox.bot_job(live.id, live.version)

    async def start(self) -> None:
        """Make the queue's group (Redis away: the takers make it when they meet NOGROUP) and,
        unless told otherwise, take jobs."""
        if self.queue is None:
            return
        await self.remake_group()
        if self.runner.settings.bot_jobs:
            self.queue.start(self.take, self.runner.settings.bot_workers)

    async def close(self) -> None:
        if self.queue is not None:
            await self.queue.close()

    async def remake_group(self) -> None:
        """Make the queue's consumer group again (Redis lost it); a failure is logged."""
        if self.queue is None:
            return
        try:
            await self.queue.setup()
        except Exception:  # Redis away again: the takers make it when they meet NOGROUP
            log.warning("the bot queue's group could not be made again", exc_info=True)

    async def take(self, game_id: str, version: int) -> None:
        """Play the bot's move at ``version`` of ``game_id`` (a job from the queue), unless the
        game moved on: played at most once, whoever else took the same job."""
        runner = self.runner
        try:
            live = await runner.get(game_id)
        except GameError:
            return
        try:
            async with runner.locked(live):
                actor = live.actor()
                seat = live.seats[actor] if actor is not None else None
                if live.version != version or live.status != "active" or seat is None:
                    return  # the game moved on, or ended, since the job was queued
                if seat.kind != "bot" or not seat.bot or actor is None:
                    return
                spec = seat.bot
            await self.turn(live, version, actor, spec)
        finally:
            # A worker keeps no games: not one loaded only to find its job stale (a finished
            # game stayed there for good, nothing evicts a worker's games) nor one played.
            if not kept(live):
                runner.forget(live)

    async def sweep(self) -> int:
        """In a cluster: queue again the bot moves whose job is lost (Redis restarted empty, or
        was away when the move before was written): every game in progress whose turn is a
        bot's, unchanged for ``BOT_JOB_GRACE_S``, with no job for its version in the stream.
        The database says which games; one process at a time looks. How many were queued."""
        runner, jobs = self.runner, self.queue
        if jobs is None or runner.closing:
            return 0
        if not await runner.bus.try_lock("botjobs", BOT_SWEEP_S * 0.9):
            return 0
        await jobs.setup()  # a group Redis lost is made again even where no taker runs
        since = utcnow() - timedelta(seconds=BOT_JOB_GRACE_S)
        idle = await runner.db(runner.store.bot_games_idle, since)  # read before the stream
        in_flight = await jobs.in_flight()
        self._checked = {g: v for g, v in self._checked.items() if (g, v) in set(idle)}
        queued = 0
        for gid, version in idle:
            if (gid, version) in in_flight or self._checked.get(gid) == version:
                continue
            try:
                live = await runner.get(gid)
            except GameError:
                continue
            held = kept(live)
            if live.version == version and bot_to_move(live):
                await jobs.enqueue(gid, version, force=True)
                queued += 1
            elif live.version == version:
                self._checked[gid] = version  # a person's turn: not looked at again
            if not held and live.clock is None:
                runner.forget(live)  # loaded only to look (a timed one keeps its timer here)
        if queued:
            self.found += queued
            log.warning("%d bot move(s) had lost their job; queued again", queued)
        return queued
