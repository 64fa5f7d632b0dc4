"""Analyses of finished games for the replay page: each decision judged in the bot workers
(one decision per call, never on the event loop; study work leaves one worker free for the
bots of live games), one game at a time, then kept in the database: one analysis per game and
depth, computed once.

The judgement is ``pocketarena.analysis``'s, the same as ``pocketarena analyze``'s: the played
move and the best move valued at the position before the move (exact where a solver reaches),
as the first seat's expected score, what the move gave away, the ``?!``/``?``/``??`` marks.
Games with throws are judged by expectation over the throws (the analyst weighs or samples
every throw by its chance), and the analysis says so.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread

from pocketarena.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Judgement,
    graph,
    outcome_of,
    summary,
)
from pocketarena.core import load_shared
from pocketarena.i18n import N_, _
from pocketarena.study import DEPTHS, analyst_name, judge_decision

from .live.bots import BotRunner
from .live.games import LiveGame
from .models import GameAnalysis
from .store import Store

log = logging.getLogger(__name__)

DECISION_LIMIT_S = (
    120.0  # one decision's judgement; past it the analysis fails (and may be retried)
)
# Stored analyses of another format (older judgements) are computed again: 3 judges FlipWars
# rounds exactly from 7 empty cells (2: from 6).
FORMAT = 3
# Where the analysis is rough: the measured marks fall short of the goals (docs/study.md,
# scripts/measure_analysis.py, 40 games a row), by game or "game:mode"; the page says so.
# Coin Age met its goal at 40 games (38 of 40 against random, just the 95%); Capture the
# Flag's best move lost a won round at 8 empty cells in 1 of 10 positions.
ROUGH: frozenset[str] = frozenset(
    {
        "wallet-battles",
        "flipwars:standard",
        "flipwars:enclosed",
        "flipwars:flag",
        "flipwars:tactical",
    }
)


def rough(game_id: str, options: dict[str, Any]) -> bool:
    """Is the analysis of this game (and mode) one the measurements call rough?"""
    return game_id in ROUGH or f"{game_id}:{options.get('mode')}" in ROUGH


CHANCE_NOTE = (
    "Throws are not judged, and every value is an expectation over the throws still to come "
    "(each throw weighed by its chance)."
)


GAME_RETRY_S = 30  # a full line of game analyses: come back after this long


class Busy(Exception):
    """No room for more study work now: the asker is told to come back after ``retry_after``
    seconds (503), so a flood never builds a backlog."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.message = message
        self.retry_after = retry_after


class StudySlots:
    """Study work (board evaluations, game analyses' decisions) running in the bot workers at
    once: ``slots``, all workers but one, which stays free for the bots of live games. At most
    ``queue`` evaluations wait for a slot, each at most ``wait_s``; one more is refused at once.
    One per process: each process has its own workers."""

    def __init__(self, slots: int, queue: int) -> None:
        self.slots = slots
        self.queue = queue
        self.waiting = 0
        self._free = asyncio.Semaphore(slots)

    def retry_after(self, seconds_each: float) -> int:
        """Roughly when the evaluations waiting now will be done."""
        return max(1, math.ceil((self.waiting + 1) * seconds_each / max(1, self.slots)))

    def check_room(self, seconds_each: float) -> None:
        """Busy if every slot is taken and the line is full (``seconds_each``: how long one
        evaluation takes, for Retry-After)."""
        if self._free.locked() and self.waiting >= self.queue:
            raise Busy(
                _("the analysis workers are busy; try again in a moment"),
                self.retry_after(seconds_each),
            )

    @asynccontextmanager
    async def evaluation(self, wait_s: float, seconds_each: float) -> AsyncIterator[None]:
        """A slot for one evaluation, or Busy at once when the line is full, or after ``wait_s``
        (``seconds_each``: how long one evaluation takes, for Retry-After)."""
        self.check_room(seconds_each)
        self.waiting += 1
        try:
            async with asyncio.timeout(wait_s):  # not wait_for: it can swallow a cancel (3.11)
                await self._free.acquire()
        except TimeoutError:
            raise Busy(
                _("the analysis workers are busy; try again in a moment"),
                self.retry_after(seconds_each),
            ) from None
        finally:
            self.waiting -= 1
        try:
            yield
        finally:
            self._free.release()

    @asynccontextmanager
    async def decision(self) -> AsyncIterator[None]:
        """A slot for one decision of a game analysis: it waits its turn (game analyses run one
        at a time, so they add one waiter at most)."""
        async with self._free:
            yield


# Why an analysis failed, said in the language of whoever asks for its status.
TOO_LONG = N_("a move took the analyst too long; try again")
FAILED = N_("the analysis failed (%(kind)s); try again")


@dataclass
class Job:
    status: str = "queued"  # queued | running | failed
    done: int = 0
    total: int = 0
    error: str | None = None  # the catalog's English (TOO_LONG, FAILED), worded by to_json
    error_params: dict[str, Any] = field(default_factory=dict)
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def fail(self, why: str, **params: Any) -> None:
        self.status, self.error, self.error_params = "failed", why, params

    def to_json(self) -> dict[str, Any]:
        error = _(self.error, **self.error_params) if self.error else None
        return {"status": self.status, "done": self.done, "total": self.total, "error": error}


def decisions(game_id: str, options: dict[str, Any], moves: list[str]) -> list[tuple[int, int]]:
    """(index in ``moves``, seat) of every decision of a game (throws left out)."""
    state = load_shared(game_id, options).new_initial_state()
    out = []
    for i, move in enumerate(moves):
        if state.current_player >= 0:
            out.append((i, state.current_player))
        state.apply(move)
    return out


def _outcome(j: Judgement) -> dict[str, Any]:
    """What the better move leads to, for the page to word: ``kind`` and its parameters."""
    kind, params = outcome_of(j)
    return {"kind": kind, **params}


class GameAnalyses:
    """Finished games' analyses: from the database, or computed now (one game at a time)."""

    def __init__(self, store: Store, bots: BotRunner, slots: StudySlots) -> None:
        self.store = store
        self.bots = bots
        self.slots = slots  # shared with the board's evaluations: a worker stays for live bots
        self.jobs: dict[tuple[str, int], Job] = {}
        self.one_at_a_time = asyncio.Semaphore(1)

    def _load(self, game_id: str, depth: int) -> dict[str, Any] | None:
        with self.store.sessions() as s:
            row = s.get(GameAnalysis, (game_id, depth))
            if row is None or row.result.get("format") != FORMAT:
                return None
            return dict(row.result)

    def _save(self, game_id: str, depth: int, analyst: str, result: dict[str, Any]) -> None:
        with self.store.sessions() as s:
            s.merge(GameAnalysis(game_id=game_id, depth=depth, analyst=analyst, result=result))
            s.commit()

    async def status(self, live: LiveGame, depth: int) -> dict[str, Any]:
        stored = await to_thread.run_sync(self._load, live.id, depth)
        if stored is not None:
            # Rough or not by the latest measurements, not those of the day it was stored.
            stored["rough"] = rough(live.game.ID, dict(live.game.options))
            return {"status": "done", "analysis": stored}
        job = self.jobs.get((live.id, depth))
        return job.to_json() if job is not None else {"status": "none"}

    async def start(self, live: LiveGame, depth: int) -> dict[str, Any]:
        current = await self.status(live, depth)
        if current["status"] in ("done", "queued", "running"):
            return current
        queued = sum(job.status == "queued" for job in self.jobs.values())
        if queued >= max(1, self.slots.queue):
            raise Busy(
                _("the analysis workers have a line of games to analyse; try again later"),
                GAME_RETRY_S,
            )
        moves = [a.text for a in live.state.history]
        options = dict(live.game.options)
        job = self.jobs[(live.id, depth)] = Job()
        job.task = asyncio.create_task(self._run(job, live, options, moves, depth))
        return job.to_json()

    async def _run(
        self, job: Job, live: LiveGame, options: dict[str, Any], moves: list[str], depth: int
    ) -> None:
        game = live.game
        try:
            async with self.one_at_a_time:
                job.status = "running"
                found = await to_thread.run_sync(decisions, game.ID, options, moves)
                job.total = len(found)
                judgements = []
                for index, _seat in found:
                    async with self.slots.decision():  # one at a time: others get a turn
                        data = await self.bots.call(
                            judge_decision,
                            game.ID,
                            options,
                            moves[:index],
                            moves[index],
                            depth,
                            timeout_s=DECISION_LIMIT_S,
                            background=True,
                        )
                    judgements.append(Judgement.from_data(data))
                    job.done += 1
                result = self._result(live, depth, judgements)
                await to_thread.run_sync(self._save, live.id, depth, result["analyst"], result)
            self.jobs.pop((live.id, depth), None)
        except asyncio.CancelledError:
            raise
        except TimeoutError:
            job.fail(TOO_LONG)
        except Exception as e:  # a worker that died, a database that failed: say so, allow a retry
            log.exception("analysis of %s failed", live.id)
            job.fail(FAILED, kind=type(e).__name__)

    def _result(self, live: LiveGame, depth: int, judgements: list[Judgement]) -> dict[str, Any]:
        game = live.game
        seats = list(game.SEATS)
        analyst = analyst_name(game.ID, depth)
        # The result as recorded (a resignation or a flag ends a game the rules have not).
        final = {"1-0": 1.0, "0-1": 0.0}.get(live.result or "", 0.5)
        return {
            "format": FORMAT,
            "game_id": live.id,
            "depth": depth,
            "depth_name": DEPTHS[depth][0],
            "analyst": analyst,
            "exact": bool(judgements) and all(j.exact for j in judgements),
            "chance": bool(game.CHANCE),
            "note": CHANCE_NOTE if game.CHANCE else None,
            "rough": rough(game.ID, dict(game.options)),
            "thresholds": {"?!": INACCURACY, "?": MISTAKE, "??": BLUNDER},
            "seats": seats,
            "decisions": [
                {**j.to_data(), "seat_name": seats[j.seat], "outcome": _outcome(j)}
                for j in judgements
            ],
            "graph": graph(judgements, final),
            "summary": summary(judgements, seats),
        }
