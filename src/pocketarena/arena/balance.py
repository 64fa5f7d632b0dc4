"""Balance by self-play: for each mode or map of a game, a strong bot plays itself and we
measure the first seat's advantage, the draw rate, how long games last and by how much they
are won.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pocketarena.core import GAMES, format_options, load

from .runner import GameResult, GameTask
from .stats import Tally, wilson

FORMAT = "pocketarena-balance"
VERSION = 1


def variant_label(options: Mapping[str, Any]) -> str:
    """``map=classic`` / ``mode=tactical, series=true``: how a variant is named in reports."""
    return format_options(dict(options)) or "default"


def variants(game_id: str, narrowed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The option sets to measure: every VARIANT of the game, or (when options were given) the
    variants that agree with them, or the given options alone if none does."""
    cls = GAMES[game_id]
    if not narrowed:
        return [dict(v) for v in cls.VARIANTS]
    resolved = load(game_id, **narrowed).options  # validates, fills defaults
    given = {k: resolved[k] for k in narrowed}
    matching = [
        dict(v) for v in cls.VARIANTS if all(v.get(k, resolved[k]) == given[k] for k in given)
    ]
    out = []
    for v in matching:
        merged = {**v, **given}
        if merged not in out:
            out.append(merged)
    return out or [given]


def make_tasks(
    game_id: str, option_sets: Sequence[dict[str, Any]], spec: str, games: int, seed: int | str
) -> list[GameTask]:
    """``games`` self-play games of ``spec`` per option set."""
    if games < 1:
        raise ValueError(f"games per variant must be at least 1, got {games}")
    tasks: list[GameTask] = []
    for v, options in enumerate(option_sets):
        for k in range(games):
            deal = f"{seed}:{v}:{k}"
            tasks.append(
                GameTask(
                    index=len(tasks),
                    game=game_id,
                    options=dict(options),
                    specs=(spec, spec),
                    seeds=(f"{deal}:0", f"{deal}:1"),
                    chance_seed=deal,
                    labels={"variant": v},
                )
            )
    return tasks


def _summary(values: Sequence[float]) -> dict[str, float | None]:
    if not values:
        return {
            "mean": None,
            "sd": None,
            "min": None,
            "q1": None,
            "median": None,
            "q3": None,
            "max": None,
        }
    ordered = sorted(values)
    q1, median, q3 = (
        statistics.quantiles(ordered, n=4, method="inclusive")
        if len(ordered) > 1
        else [ordered[0]] * 3
    )
    return {
        "mean": round(statistics.fmean(ordered), 3),
        "sd": round(statistics.pstdev(ordered), 3),
        "min": ordered[0],
        "q1": round(q1, 3),
        "median": round(median, 3),
        "q3": round(q3, 3),
        "max": ordered[-1],
    }


@dataclass
class VariantStats:
    """The numbers for one option set."""

    options: dict[str, Any]
    results: list[GameResult]

    @property
    def label(self) -> str:
        return variant_label(self.options)

    def first_seat(self) -> Tally:
        tally = Tally()
        for r in self.results:
            tally = tally.add(r.result_for(0))
        return tally

    def margins(self) -> list[float]:
        """Seat 0's score minus seat 1's, per game."""
        return [r.scores[0] - r.scores[1] for r in self.results]

    def plies(self) -> list[int]:
        return [r.plies for r in self.results]

    def decisions(self) -> list[int]:
        return [r.decisions[0] + r.decisions[1] for r in self.results]

    def to_json(self, seed: int = 0) -> dict[str, Any]:
        tally = self.first_seat()
        n = tally.games
        margins = self.margins()
        winner_margins = [
            abs(m) for m, r in zip(margins, self.results, strict=True) if r.winner is not None
        ]
        return {
            "options": dict(self.options),
            "label": self.label,
            "games": n,
            "first_seat": tally.to_json(seed=seed),
            "first_seat_advantage": round(tally.score - 0.5, 4),
            "draw_rate": round(tally.draws / n, 4) if n else None,
            "draw_ci": [round(x, 4) for x in wilson(tally.draws, n)],
            "plies": _summary(self.plies()),
            "decisions": _summary(self.decisions()),
            "margin": _summary(margins),
            "winning_margin": _summary(winner_margins),
        }


@dataclass
class BalanceReport:
    game: str
    bot: str
    games_per_variant: int
    seed: int | str
    variants: list[VariantStats]
    seconds: float
    jobs: int
    started: str = ""

    @classmethod
    def from_results(
        cls,
        game: str,
        bot: str,
        option_sets: Sequence[dict[str, Any]],
        results: Sequence[GameResult],
        *,
        games: int,
        seed: int | str,
        seconds: float,
        jobs: int,
        started: str = "",
    ) -> BalanceReport:
        per = [VariantStats(dict(o), []) for o in option_sets]
        for r in results:
            per[r.task.labels["variant"]].results.append(r)
        return cls(game, bot, games, seed, per, seconds, jobs, started)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "bot": self.bot,
            "games_per_variant": self.games_per_variant,
            "seed": self.seed,
            "jobs": self.jobs,
            "started": self.started,
            "seconds": round(self.seconds, 2),
            "variants": [v.to_json(seed=i) for i, v in enumerate(self.variants)],
        }

    def save(self, folder: Path, *, records: bool = True) -> Path:
        """Write ``balance.json`` (and every game record under ``records/``) into ``folder``."""
        from pocketarena.records import Record

        folder.mkdir(parents=True, exist_ok=True)
        if records:
            for i, v in enumerate(self.variants):
                for k, r in enumerate(v.results):
                    Record.from_json(r.record).save(
                        folder / "records" / f"v{i + 1}-game{k + 1:03d}.txt"
                    )
        path = folder / "balance.json"
        path.write_text(json.dumps(self.to_json(), indent=2) + "\n", encoding="utf-8")
        return path

    def plot(self, folder: Path, prefix: str = "") -> list[Path]:
        """First-seat advantage, game length and score margin figures (PNG and SVG)."""
        from . import plots

        labels = [v.label for v in self.variants]
        tallies = [v.first_seat() for v in self.variants]
        from .stats import score_bootstrap

        intervals = [score_bootstrap(*t.counts(), seed=i) for i, t in enumerate(tallies)]
        paths: list[Path] = []
        title = f"{self.game}: first seat by self-play of {self.bot}"
        fig = plots.first_seat(
            labels,
            [t.score for t in tallies],
            intervals,
            [t.draws / t.games if t.games else 0.0 for t in tallies],
            title,
        )
        paths += plots.save(fig, folder, f"{prefix}first-seat")
        fig = plots.histograms(
            labels,
            [[float(p) for p in v.plies()] for v in self.variants],
            "plies (throws included)",
            f"{self.game}: game length",
        )
        paths += plots.save(fig, folder, f"{prefix}length")
        fig = plots.histograms(
            labels,
            [v.margins() for v in self.variants],
            "first seat's score minus second's",
            f"{self.game}: score margin",
        )
        paths += plots.save(fig, folder, f"{prefix}margin")
        return paths
