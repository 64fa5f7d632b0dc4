"""Tournaments between bots and balance reports by self-play, played in parallel processes.

>>> import pocketarena as pa
>>> from pocketarena.arena import make_tasks, run_tasks
>>> game = pa.load("stack-a-cash")
>>> results = run_tasks(make_tasks(game, ["random", "greedy"], games=2, seed=1))
>>> [r.task.specs for r in results]
[('random', 'greedy'), ('greedy', 'random')]
"""

from .runner import (
    GameResult,
    GameTask,
    Interrupted,
    default_jobs,
    play_task,
    run_tasks,
    run_with_progress,
)
from .stats import Tally, score_bootstrap, score_normal, wilson
from .tournament import ArenaReport, check_specs, make_tasks

__all__ = [
    "ArenaReport",
    "GameResult",
    "GameTask",
    "Tally",
    "check_specs",
    "default_jobs",
    "make_tasks",
    "play_task",
    "run_tasks",
    "Interrupted",
    "run_with_progress",
    "score_bootstrap",
    "score_normal",
    "wilson",
]
