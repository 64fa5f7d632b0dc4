"""The arena: every pairing of a list of bots plays a number of games, seats swapped, and the
results come back as tallies with confidence intervals and ratings.

Games of a pairing come in pairs that share their throws: game ``2k`` seats the first bot
first, game ``2k + 1`` the second bot first, both with the chance seed of pair ``k``, so luck
evens out between the two seat orders (as duplicate bridge does).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pocketarena.core import Game
from pocketarena.core.errors import Refusal, message

from .runner import GameResult, GameTask
from .stats import Tally

FORMAT = "pocketarena-arena"
VERSION = 1


def check_specs(game: Game, specs: Sequence[str]) -> list[str]:
    """The bot specs, normalised and checked (each must build a bot for ``game``); ValueError
    says which one is wrong and why."""
    from pocketarena.bots import make_bot

    cleaned = [str(s).strip().lower() for s in specs if str(s).strip()]
    if len(cleaned) < 2:
        raise Refusal(message("arena.two-bots"))
    seen: set[str] = set()
    for spec in cleaned:
        if spec in seen:
            raise Refusal(message("arena.bot-twice", spec=spec))
        seen.add(spec)
        make_bot(spec, game, seed=0)  # raises ValueError naming the problem
    return cleaned


def make_tasks(game: Game, specs: Sequence[str], games: int, seed: int | str) -> list[GameTask]:
    """Every game of the arena: ``games`` per pairing, alternating who sits first."""
    if games < 1:
        raise ValueError(f"games per pairing must be at least 1, got {games}")
    tasks: list[GameTask] = []
    for i, j in itertools.combinations(range(len(specs)), 2):
        for k in range(games):
            first, second = (i, j) if k % 2 == 0 else (j, i)
            deal = f"{seed}:{i}:{j}:{k // 2}"
            tasks.append(
                GameTask(
                    index=len(tasks),
                    game=game.ID,
                    options=dict(game.options),
                    specs=(specs[first], specs[second]),
                    seeds=(f"{deal}:{first}", f"{deal}:{second}"),
                    chance_seed=deal,
                    labels={"bots": [first, second], "pairing": [i, j], "game": k},
                )
            )
    return tasks


@dataclass
class ArenaReport:
    """The outcome of an arena run."""

    game: str
    options: dict[str, Any]
    bots: list[str]
    games_per_pairing: int
    seed: int | str
    results: list[GameResult]
    seconds: float
    jobs: int
    started: str = ""
    record_files: list[str] = field(default_factory=list)

    # -- tallies -----------------------------------------------------------------------
    def pair_tally(self, a: int, b: int) -> Tally:
        """Bot ``a``'s results against bot ``b``."""
        tally = Tally()
        for r in self.results:
            seats = r.task.labels["bots"]
            if set(seats) == {a, b}:
                tally = tally.add(r.result_for(seats.index(a)))
        return tally

    def bot_tally(self, a: int) -> Tally:
        tally = Tally()
        for r in self.results:
            seats = r.task.labels["bots"]
            if a in seats:
                tally = tally.add(r.result_for(seats.index(a)))
        return tally

    def ratings(self) -> dict[str, Any]:
        """Ratings (openskill Plackett-Luce, via ``pocketarena.ratings``) from every game, fed
        in the order the games were scheduled so the result does not depend on ``--jobs``."""
        from pocketarena.ratings import RatingTable

        table = RatingTable()
        for r in self.results:
            first, second = (self.bots[s] for s in r.task.labels["bots"])
            table.record(self.game, first, second, r.winner)
        return {name: table.get(name, self.game) for name in self.bots}

    def to_json(self) -> dict[str, Any]:
        ratings = self.ratings()
        n = len(self.bots)
        pairings = []
        for i, j in itertools.combinations(range(n), 2):
            tally = self.pair_tally(i, j)
            games = [r for r in self.results if r.task.labels["pairing"] == [i, j]]
            first_seat = Tally()
            for r in games:
                first_seat = first_seat.add(r.result_for(0))
            pairings.append(
                {
                    "bots": [self.bots[i], self.bots[j]],
                    **tally.to_json(seed=i * n + j),
                    "first_seat_score": round(first_seat.score, 4),
                    "mean_plies": round(sum(r.plies for r in games) / len(games), 2)
                    if games
                    else None,
                }
            )
        standings: list[dict[str, Any]] = []
        for i, name in enumerate(self.bots):
            rating = ratings[name]
            think = [
                (r.think[seat], r.decisions[seat])
                for r in self.results
                for seat, bot in enumerate(r.task.labels["bots"])
                if bot == i
            ]
            seconds = sum(t for t, _ in think)
            moves = sum(d for _, d in think)
            standings.append(
                {
                    "bot": name,
                    **self.bot_tally(i).to_json(seed=i),
                    "rating": {
                        "display": rating.display,
                        "deviation": rating.deviation,
                        "mu": round(rating.mu, 4),
                        "sigma": round(rating.sigma, 4),
                        "games": rating.games,
                    },
                    "seconds_per_move": round(seconds / moves, 4) if moves else None,
                }
            )
        standings.sort(key=lambda row: -row["rating"]["mu"] + 3 * row["rating"]["sigma"])
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": dict(self.options),
            "bots": list(self.bots),
            "games_per_pairing": self.games_per_pairing,
            "games": len(self.results),
            "seed": self.seed,
            "jobs": self.jobs,
            "started": self.started,
            "seconds": round(self.seconds, 2),
            "pairings": pairings,
            "standings": standings,
            "score_matrix": self.score_matrix(),
            "records": list(self.record_files),
        }

    def score_matrix(self) -> list[list[float | None]]:
        """Row bot's score rate against the column bot (None on the diagonal)."""
        n = len(self.bots)
        return [
            [None if i == j else round(self.pair_tally(i, j).score, 4) for j in range(n)]
            for i in range(n)
        ]

    def save(self, folder: Path) -> Path:
        """Write every game record (text form) and ``summary.json`` into ``folder``."""
        from pocketarena.records import Record

        folder.mkdir(parents=True, exist_ok=True)
        records = folder / "records"
        self.record_files = []
        for r in self.results:
            i, j = r.task.labels["pairing"]
            name = f"{i + 1}-{j + 1}-game{r.task.labels['game'] + 1:03d}.txt"
            Record.from_json(r.record).save(records / name)
            self.record_files.append(f"records/{name}")
        path = folder / "summary.json"
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        return path


def plot(report: ArenaReport, folder: Path) -> list[Path]:
    """The score-rate heatmap and the rating bars, as PNG and SVG, into ``folder``."""
    from . import plots

    title = f"{report.game}: score rates ({report.games_per_pairing} games a pairing)"
    paths = plots.save(
        plots.score_matrix(report.bots, report.score_matrix(), title), folder, "scores"
    )
    ratings = report.ratings()
    figure = plots.rating_bars(
        report.bots,
        [ratings[b].display for b in report.bots],
        [ratings[b].deviation for b in report.bots],
        f"{report.game}: ratings",
    )
    return paths + plots.save(figure, folder, "ratings")
