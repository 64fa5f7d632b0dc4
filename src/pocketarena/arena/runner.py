"""Playing many bot-vs-bot games, in parallel processes, with a progress bar.

A game is described by a picklable ``GameTask`` (game id and options, the bot spec and seed of
each seat, the chance seed); a worker process builds the game and the bots from it, plays the
game with seeded throws (so every game can be replayed from its record) and returns a
``GameResult`` with the record and the numbers the reports need. Both the arena and the
balance report run on this.

The games run in a local pool of processes, or as Ray tasks (``ray=``): on a Ray instance
started for the run on this machine, or on a Ray cluster given by its address, so a study can
use every machine of the cluster. A game's result depends only on its task (its seeds), never
on where it ran, so the two give the same results.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from pocketarena.core import State, message

from ..records import Player, Record

ProgressHook = Callable[["GameResult"], None]


@dataclass(frozen=True)
class GameTask:
    """One game to play: who sits where, and the seeds that make it reproducible."""

    index: int
    game: str
    options: dict[str, Any]
    specs: tuple[str, str]  # bot spec of seat 0 and seat 1
    seeds: tuple[int | str, int | str]  # bot seeds
    chance_seed: int | str
    labels: dict[str, Any] = field(default_factory=dict)  # the caller's bookkeeping


@dataclass
class GameResult:
    """What one game gave: the record and its numbers."""

    task: GameTask
    record: dict[str, Any]  # Record.to_json()
    winner: int | None  # seat, or None for a draw
    scores: tuple[float, float]
    plies: int
    decisions: tuple[int, int]  # decisions made by each seat
    think: tuple[float, float]  # seconds each seat's bot spent deciding
    facts: dict[str, int | str] = field(default_factory=dict)  # the final state's facts()

    def result_for(self, seat: int) -> float:
        """1 if ``seat`` won, 0.5 for a draw, 0 if it lost."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == seat else 0.0


def play_task(task: GameTask) -> GameResult:
    """Play one task's game to the end (in whatever process this runs)."""
    import pocketarena as pa
    from pocketarena.bots import make_bot
    from pocketarena.match import Match, SeededChance

    game = pa.load(task.game, **task.options)
    bots = [
        make_bot(spec, game, seed=seed) for spec, seed in zip(task.specs, task.seeds, strict=True)
    ]
    players = [Player(name=spec, kind="bot") for spec in task.specs]
    match = Match(game, bots, SeededChance(task.chance_seed), players=players)
    think = [0.0, 0.0]
    decisions = [0, 0]
    clock = time.perf_counter
    while not match.state.is_terminal():
        player = match.state.current_player
        if player < 0:
            match.throw()
            continue
        start = clock()
        match.bot_move()
        think[player] += clock() - start
        decisions[player] += 1
    state: State = match.state
    record: Record = match.record()
    return GameResult(
        task=task,
        record=record.to_json(),
        winner=state.winner(),
        scores=(float(state.scores()[0]), float(state.scores()[1])),
        plies=state.ply,
        decisions=(decisions[0], decisions[1]),
        think=(think[0], think[1]),
        facts=state.facts(),
    )


def default_jobs() -> int:
    """Worker processes when none are asked for: the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during ``run_tasks``: the games that had finished, in task order, are kept."""

    def __init__(self, results: list[GameResult], total: int) -> None:
        super().__init__(f"interrupted after {len(results)} of {total} games")
        self.results = results
        self.total = total


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and keeps what finished (and no
    worker prints a traceback). They are born with SIGINT blocked (see ``_pool``), so a Ctrl-C
    before this runs waits, and is then ignored."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _next_result(results: Any) -> GameResult:
    """The next finished game, waiting in short steps: a Ctrl-C that the terminal delivers to
    another thread (the progress bar's) only reaches the main thread when it wakes, and one
    game can take minutes."""
    while True:
        try:
            result: GameResult = results.next(timeout=0.2)
        except multiprocessing.TimeoutError:
            continue
        return result


def _pool(workers: int) -> Any:
    """A pool whose workers never see Ctrl-C: SIGINT is blocked while they are forked (a
    Ctrl-C then would reach a worker before it ignores it, and the parent's could be lost
    mid-fork); one pressed meanwhile reaches the parent as soon as it is unblocked."""
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        return multiprocessing.Pool(workers, initializer=_ignore_interrupts)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)


RAY_MISSING = "arena.ray-missing"  # the message: how to install Ray
LOCAL_RAY = "local"  # ``ray=LOCAL_RAY``: start a Ray instance on this machine for the run


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster named cannot be reached or went away during the run;
    the message (``error.message``, English in ``str``) says which."""

    def __init__(self, reason: str, /, **params: Any) -> None:
        self.message = message(reason, **params)
        super().__init__(str(self.message))


def run_tasks(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    on_result: ProgressHook | None = None,
    ray: str | None = None,
) -> list[GameResult]:
    """Play every task, ``jobs`` at a time in worker processes (in this process when 1), and
    return the results in task order. ``on_result`` is called as each game finishes. Ctrl-C
    stops the games in play and raises ``Interrupted`` with the finished ones.

    ``ray``: run the games as Ray tasks instead, on a Ray instance started here with ``jobs``
    CPUs (``"local"``) or on the cluster at that address (e.g. ``"10.0.0.5:6379"``, or
    ``"auto"`` for the one this machine belongs to), ``jobs`` games at a time at most.
    Every machine of a cluster needs pocketarena installed. Raises ``RayUnavailable`` when Ray
    is not installed or the cluster cannot be reached."""
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    results: dict[int, GameResult] = {}

    def keep(result: GameResult) -> None:
        results[result.task.index] = result
        if on_result is not None:
            on_result(result)

    try:
        if ray is not None:
            _run_on_ray(tasks, jobs, ray, keep)
        elif jobs == 1 or len(tasks) <= 1:
            for task in tasks:
                keep(play_task(task))
        else:
            pool = _pool(min(jobs, len(tasks)))
            try:
                results_in = pool.imap_unordered(play_task, tasks)
                for _ in tasks:
                    keep(_next_result(results_in))
                pool.close()
            finally:
                pool.terminate()
                pool.join()
    except KeyboardInterrupt:
        kept = [results[t.index] for t in tasks if t.index in results]
        raise Interrupted(kept, len(tasks)) from None
    return [results[t.index] for t in tasks]


def _play_quietly(task: GameTask) -> GameResult:
    """``play_task`` in a Ray worker: Ctrl-C is the driver's to handle (it cancels the games
    and keeps what finished), so the worker ignores it and prints no traceback."""
    _ignore_interrupts()
    return play_task(task)


def read_address(address: str) -> tuple[str, int]:
    """The host and port of a Ray address (``10.0.0.5:6379``, ``ray://host:10001``);
    RayUnavailable when it has none."""
    from urllib.parse import urlsplit

    where = urlsplit(address if "://" in address else f"ray://{address}")
    try:
        host, port = where.hostname, where.port
    except ValueError:
        host = port = None
    if not host or port is None:
        raise RayUnavailable("arena.ray-address", address=address)
    return host, port


def _check_reachable(address: str, timeout_s: float = 5.0) -> None:
    """Refuse an address nobody answers at: Ray itself would retry for minutes."""
    import socket

    host, port = read_address(address)
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except OSError as e:
        why = e.strerror or str(e)
        raise RayUnavailable("arena.ray-unreachable", address=address, why=why) from None


def _run_on_ray(
    tasks: Sequence[GameTask], jobs: int, address: str, keep: Callable[[GameResult], None]
) -> None:
    try:
        import ray
    except ImportError:
        raise RayUnavailable(RAY_MISSING) from None
    import logging

    started_here = not ray.is_initialized()
    if started_here:
        options: dict[str, Any] = {
            "include_dashboard": False,
            "logging_level": logging.WARNING,
            "log_to_driver": False,  # workers print nothing of their own
            "configure_logging": True,
        }
        if address not in (LOCAL_RAY, "auto"):
            _check_reachable(address)
        try:
            if address == LOCAL_RAY:
                ray.init(num_cpus=jobs, **options)
            else:
                ray.init(address=address, **options)
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise RayUnavailable("arena.ray-unreachable", address=address, why=str(e)) from None
    remote = ray.remote(num_cpus=1, max_retries=3)(_play_quietly)
    queue = list(tasks)
    running: list[Any] = []
    try:
        while queue or running:
            while queue and len(running) < jobs:
                running.append(remote.remote(queue.pop(0)))
            done, running = ray.wait(running, num_returns=1)
            for ref in done:
                keep(ray.get(ref))
    except ray.exceptions.RayError as e:
        if isinstance(e, ray.exceptions.RayTaskError):
            raise  # a game's own failure, not the cluster's
        # The cluster stopped under the run (its head shut down, a raylet died): say so in one
        # line, as for a cluster that never answered.
        why = str(e).splitlines()[0]
        raise RayUnavailable("arena.ray-lost", address=address, why=why) from None
    except KeyboardInterrupt:
        # A connection made here (a local Ray started, or a cluster joined by address) ends at
        # shutdown, and Ray ends a job's tasks with its driver; cancelling them first can race
        # their completion inside Ray (a failed internal check that aborts the driver), so the
        # games are cancelled here only when the caller's own connection stays up.
        if not started_here:
            for ref in running:
                ray.cancel(ref, force=True)
        raise
    finally:
        if started_here:
            ray.shutdown()


def run_with_progress(
    tasks: Sequence[GameTask],
    *,
    jobs: int = 1,
    description: str = "Playing",
    console: Any = None,
    on_result: ProgressHook | None = None,
    ray: str | None = None,
    words: tuple[str, str] = ("games", "eta"),
) -> list[GameResult]:
    """``run_tasks`` with a rich progress bar (on stderr unless a console is given); ``words``
    are the bar's own, after the count and before the time left (the caller's language)."""
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(escape(words[0])),
        TimeElapsedColumn(),
        TextColumn(escape(words[1])),
        TimeRemainingColumn(),
    )
    finished: list[GameResult] = []
    try:
        with Progress(*columns, console=console or Console(stderr=True), transient=False) as bar:
            task_id = bar.add_task(description, total=len(tasks))

            def advance(result: GameResult) -> None:
                bar.advance(task_id)
                if on_result is not None:
                    on_result(result)

            finished = run_tasks(tasks, jobs=jobs, on_result=advance, ray=ray)
    except Interrupted:
        raise
    except KeyboardInterrupt:
        # Ctrl-C while the bar is drawn before or after the games: the same report.
        raise Interrupted(finished, len(tasks)) from None
    return finished
