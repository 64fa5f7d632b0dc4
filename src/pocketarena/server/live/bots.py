"""Bots think off the event loop: in worker processes (default) or threads, within a budget.

Every move a bot makes is seeded from the game and the ply (:func:`bot_seed`): a bot kept for
reuse is reseeded for each move, so a server bot game replays exactly from its record (with
a bot that thinks by iterations, not by the clock).
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import hashlib
import logging
import multiprocessing
import os
import random
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

import pocketarena as pa
from pocketarena.bots import Bot
from pocketarena.core import Action, State

from .. import catalog

log = logging.getLogger(__name__)
T = TypeVar("T")

_local = threading.local()  # per thread (and so per worker process): bots already built


def bot_seed(game_id: str, ply: int) -> int:
    """The seed of the bot's move at ``ply`` of the live game ``game_id`` (64 bits)."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{ply}".encode()).digest()[:8])


def _bot(spec: str, game: pa.Game, seed: int) -> Bot:
    """The bot for ``spec``, built once per thread and game, reseeded for this move."""
    cache: dict[tuple[str, pa.Game], Bot] | None = getattr(_local, "bots", None)
    if cache is None:
        cache = _local.bots = {}
    key = (spec, game)
    bot = cache.get(key)
    if bot is None:
        if len(cache) > 64:
            cache.clear()
        bot = cache[key] = catalog.make_bot(spec, game, seed=seed)
    else:
        bot.reseed(seed)
    return bot


def _choose_here(spec: str, state: State, seed: int) -> str:
    return str(_bot(spec, state.game, seed).choose(state))


def _choose_in_worker(
    spec: str, game_id: str, options: dict[str, Any], history: list[str], seed: int
) -> str:
    # A worker process rebuilds the position from the record: states never cross processes.
    state = catalog.load_state(game_id, options, history)
    return _choose_here(spec, state, seed)


PR_SET_PDEATHSIG = 1  # linux/prctl.h
# Work nobody waits on move by move (a finished game's blunder scan, a replay's analysis) runs
# in its own worker at this niceness: on a 2-core machine running it at the bots' priority
# took a move's p99 from 147 to 354 ms at 200 games (benchmarks/server_load.py, 20 s).
BACKGROUND_NICENESS = 10


def _worker_start(server_pid: int) -> None:
    """A bot worker's first steps: leave Ctrl-C to the server (which stops the workers itself,
    so no worker prints a traceback), die with the server whatever kills it, and import the
    games once. Born with SIGINT blocked (see ``_sigint_held``): a Ctrl-C before this runs
    waits, and is then ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if sys.platform.startswith("linux"):
        # The kernel sends SIGKILL when the server (the thread that started us) ends.
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    # Everywhere else (and as a second line): notice the server's end by being re-parented.
    if os.getppid() != server_pid:
        os._exit(0)
    threading.Thread(
        target=_watch_server, args=(server_pid,), name="watch-server", daemon=True
    ).start()
    import pocketarena  # noqa: F401  (import the games once per worker)


def _watch_server(server_pid: int) -> None:
    while True:
        time.sleep(0.5)
        if os.getppid() != server_pid:
            os._exit(0)


def _background_start(server_pid: int) -> None:
    """A background worker: a bot worker that yields the CPU to the server and the bots of
    live games (nice 10: about a tenth of a core's share when they want it too)."""
    _worker_start(server_pid)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(BACKGROUND_NICENESS)


def _ready() -> bool:
    return True


@contextlib.contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back while worker processes start: they are born with it blocked, so a
    terminal's Ctrl-C never reaches one mid-import, and a Ctrl-C meant for this process waits
    and arrives when the block lifts. (Ignoring it instead threw that Ctrl-C away: the README's
    worker then ran on after it.)"""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class BotRunner:
    """Asks bots for moves without blocking the event loop, and never waits past the budget:
    a bot that overruns it (or fails) gets a random legal move played for it instead."""

    def __init__(self, executor: str = "process", workers: int = 2, budget_s: float = 10.0) -> None:
        self.mode = executor
        self.budget_s = budget_s
        self._pool: Executor
        self._background: Executor | None = None  # started on first use
        if executor == "process":
            self._pool = ProcessPoolExecutor(
                max_workers=workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_start,
                initargs=(os.getpid(),),
            )
            # Start the workers now, from this (long-lived) thread: a worker dies with the
            # thread that started it, and the first bot move need not wait for a start.
            # They are started with Ctrl-C held back (a blocked signal stays blocked across
            # exec), so a Ctrl-C while a worker is still importing prints no traceback.
            with _sigint_held():
                for _ in range(workers):
                    self._pool.submit(_ready)
        else:
            self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="bot")

    async def choose(
        self, spec: str, state: State, seed: int, budget_s: float | None = None
    ) -> Action:
        loop = asyncio.get_running_loop()
        budget = self.budget_s if budget_s is None else max(0.05, min(budget_s, self.budget_s))
        if self.mode == "process":
            future = loop.run_in_executor(
                self._pool,
                _choose_in_worker,
                spec,
                state.game.ID,
                dict(state.game.options),
                [a.text for a in state.history],
                seed,
            )
        else:
            future = loop.run_in_executor(self._pool, _choose_here, spec, state.clone(), seed)
        try:
            # asyncio.timeout, not wait_for: Python 3.11's wait_for returns a result that
            # lands in the same turn as a cancel (a resignation, a server stopping) and drops
            # the cancel, so a cancelled bot would play on.
            async with asyncio.timeout(budget):
                text = await future
            action = state.game.action(text)
            if action in state.legal_actions():
                return action
            log.error("bot %s chose the illegal action %r in %s", spec, text, state.game.ID)
        except TimeoutError:
            log.warning("bot %s overran its %.1fs budget in %s", spec, budget, state.game.ID)
        except Exception:
            log.exception("bot %s failed in %s", spec, state.game.ID)
        return random.Random(seed).choice(list(state.legal_actions()))

    async def call(
        self, fn: Callable[..., T], *args: Any, timeout_s: float, background: bool = False
    ) -> T:
        """``fn(*args)`` in the bot pool (a worker process or thread), never on the event loop;
        TimeoutError past ``timeout_s``. In processes ``fn`` must be a module-level function
        and its arguments plain data (they are pickled). ``background``: in the low-priority
        worker, for work that must not slow live games down."""
        loop = asyncio.get_running_loop()
        pool = self._background_pool() if background else self._pool
        async with asyncio.timeout(timeout_s):  # not wait_for: see choose
            return await loop.run_in_executor(pool, fn, *args)

    def _background_pool(self) -> Executor:
        if self.mode != "process":
            # A thread of its own: a scan (blunder puzzles, up to minutes) never holds the
            # threads the bots' moves wait for (a bot game stalled behind one in the fault test).
            if self._background is None:
                self._background = ThreadPoolExecutor(1, thread_name_prefix="bot-background")
            return self._background
        if self._background is None:
            self._background = ProcessPoolExecutor(
                max_workers=1,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_background_start,
                initargs=(os.getpid(),),
            )
            with _sigint_held():
                self._background.submit(_ready)
        return self._background

    def close(self) -> None:
        """Stop at once: a bot thinking now is not waited for (the server is stopping)."""
        pools = [self._pool] + ([self._background] if self._background is not None else [])
        # ProcessPoolExecutor has no public way to stop its workers before Python 3.14.
        workers = [p for pool in pools for p in (getattr(pool, "_processes", None) or {}).values()]
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            if process.is_alive():
                process.terminate()
        for process in workers:
            process.join(timeout=5)
