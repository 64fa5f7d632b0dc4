"""Bot tournaments in rounds: a Swiss (``tournaments.swiss``: each round paired from the results
so far) or a round robin (``tournaments.round_robin``: groups of up to ten, every pair once),
one game a pairing, the table by points, Buchholz and Sonneborn-Berger: the pairing and the
scoring the server's tournaments use.

A round's games are played together (in the local pool or on Ray, by ``play``) before the next
round is paired. Each game's throws and bots are seeded from the tournament's seed, its round
and its board, so a run can be repeated game for game.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pocketarena.core import Game
from pocketarena.core.errors import Refusal, message
from pocketarena.tournaments import Pairing, Played, round_robin, standings, swiss

from .runner import GameResult, GameTask, Interrupted

FORMAT = "pocketarena-rounds"
VERSION = 1
KINDS = ("swiss", "round-robin")
# More rounds than this is a typo (a Swiss of 10 bots repeats pairings after 9), not a plan.
MOST_ROUNDS = 1000

PlayRound = Callable[[list[GameTask]], list[GameResult]]


@dataclass
class RoundsReport:
    """A finished (or interrupted) tournament in rounds."""

    kind: str
    game: str
    options: dict[str, Any]
    bots: list[str]
    seed: int | str
    rounds: list[list[Pairing]] = field(default_factory=list)
    results: list[list[GameResult]] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1
    started: str = ""
    record_files: list[str] = field(default_factory=list)

    def played(self) -> list[Played]:
        """Every game and bye so far, round by round."""
        games: list[Played] = []
        for pairings, results in zip(self.rounds, self.results, strict=False):
            by_board = {r.task.labels["board"]: r for r in results}
            for board, pairing in enumerate(pairings):
                if pairing.second is None:
                    games.append(Played(pairing.first, None, 1.0))
                elif board in by_board:
                    games.append(
                        Played(pairing.first, pairing.second, by_board[board].result_for(0))
                    )
        return games

    def to_json(self) -> dict[str, Any]:
        table = standings(self.bots, self.played())
        rounds = []
        for k, (pairings, results) in enumerate(zip(self.rounds, self.results, strict=False)):
            by_board = {r.task.labels["board"]: r for r in results}
            boards = []
            for board, p in enumerate(pairings):
                result = by_board.get(board)
                boards.append(
                    {
                        "first": p.first,
                        "second": p.second,
                        "score": None
                        if p.second is None or result is None
                        else result.result_for(0),
                        "plies": None if result is None else result.plies,
                    }
                )
            rounds.append({"round": k + 1, "boards": boards})
        return {
            "format": FORMAT,
            "version": VERSION,
            "kind": self.kind,
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "seed": self.seed,
            "jobs": self.jobs,
            "started": self.started,
            "seconds": round(self.seconds, 2),
            "games": sum(len(r) for r in self.results),
            "rounds": rounds,
            "standings": [
                {
                    "rank": s.rank,
                    "bot": s.player,
                    "points": s.points,
                    "buchholz": s.buchholz,
                    "sonneborn_berger": s.sonneborn_berger,
                    "wins": s.wins,
                    "draws": s.draws,
                    "losses": s.losses,
                    "byes": s.byes,
                }
                for s in table
            ],
            "records": list(self.record_files),
        }

    def save(self, folder: Path) -> Path:
        """Every game record (text form) and ``summary.json`` into ``folder``."""
        from pocketarena.records import Record

        folder.mkdir(parents=True, exist_ok=True)
        self.record_files = []
        for results in self.results:
            for r in results:
                name = (
                    f"round{r.task.labels['round']:02d}-board{r.task.labels['board'] + 1:03d}.txt"
                )
                Record.from_json(r.record).save(folder / "records" / name)
                self.record_files.append(f"records/{name}")
        path = folder / "summary.json"
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        return path


def schedule_size(kind: str, bots: int, rounds: int | None) -> int:
    """How many rounds the tournament has; ValueError names a wrong setting."""
    if kind not in KINDS:
        raise Refusal(message("arena.unknown-kind", kind=kind, kinds=", ".join(KINDS)))
    if kind == "round-robin":
        if rounds is not None:
            raise Refusal(message("arena.round-robin-rounds"))
        return len(round_robin.pair([str(i) for i in range(bots)]))
    if rounds is None:
        raise Refusal(message("arena.swiss-needs-rounds"))
    if rounds < 1:
        raise Refusal(message("arena.swiss-rounds", rounds=rounds))
    if rounds > MOST_ROUNDS:
        raise Refusal(message("arena.swiss-many-rounds", most=MOST_ROUNDS, rounds=rounds))
    return rounds


def round_tasks(
    game: Game, pairings: Sequence[Pairing], number: int, seed: int | str, first_index: int
) -> list[GameTask]:
    """The games of round ``number`` (from 1), byes left out."""
    tasks: list[GameTask] = []
    for board, p in enumerate(pairings):
        if p.second is None:
            continue
        deal = f"{seed}:round{number}:board{board}"
        tasks.append(
            GameTask(
                index=first_index + len(tasks),
                game=game.ID,
                options=dict(game.options),
                specs=(p.first, p.second),
                seeds=(f"{deal}:0", f"{deal}:1"),
                chance_seed=deal,
                labels={"round": number, "board": board},
            )
        )
    return tasks


def run_rounds(report: RoundsReport, game: Game, total: int, play: PlayRound) -> RoundsReport:
    """Pair and play ``total`` rounds into ``report`` (which keeps the rounds done so far if
    ``play`` is interrupted)."""
    schedule = round_robin.pair(report.bots) if report.kind == "round-robin" else []
    games = 0
    for number in range(1, total + 1):
        if report.kind == "round-robin":
            pairings = schedule[number - 1]
        else:
            pairings = swiss.pair(report.bots, report.played())
        tasks = round_tasks(game, pairings, number, report.seed, games)
        report.rounds.append(list(pairings))
        report.results.append([])
        try:
            results = play(tasks)
        except Interrupted as stop:
            # Ctrl-C: the round's finished games are kept; the round stays unfinished.
            report.results[-1] = sorted(stop.results, key=lambda r: r.task.index)
            raise
        report.results[-1] = sorted(results, key=lambda r: r.task.index)
        games += len(tasks)
    return report
