"""Balance by self-play: for each mode or map of a game, a strong bot plays itself and we
measure the first seat's advantage, the draw rate, how long games last and by how much they
are won. A game whose printed rules read more than one way (``Game.READINGS``) is measured on
every reading side by side; a second bot (``against``) may take one seat, the two swapping
seats from game to game, to see whether a reading rewards the stronger player.
"""

from __future__ import annotations

import itertools
import json
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pocketarena.core import GAMES, format_options, load

from .runner import GameResult, GameTask
from .stats import Tally, mean_interval, median_interval, wilson

FORMAT = "pocketarena-balance"
VERSION = 1


def _value_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):  # coin counts: "3 each", or Q1 N0 P2 D0
        counts = list(value.values())
        if len(counts) > 1 and all(isinstance(c, int) and c == counts[0] for c in counts):
            return f"{counts[0]} each"
        return " ".join(f"{k}{json.dumps(v)}" for k, v in value.items())
    return json.dumps(value)


def variant_values(options: Mapping[str, Any]) -> str:
    """A variant by its values alone (``gettysburg·used·3 each``), for narrow tables whose
    heading names the options (``option_names``)."""
    return "·".join(_value_text(v) for v in options.values()) or "default"


def option_names(option_sets: Sequence[Mapping[str, Any]]) -> str:
    """The options the variants name, in order (``map·end·coins``)."""
    return "·".join(dict.fromkeys(k for o in option_sets for k in o)) or "variant"


def variant_label(options: Mapping[str, Any]) -> str:
    """``map=classic`` / ``mode=tactical, series=true``: how a variant is named in reports."""
    return format_options(dict(options)) or "default"


def study(game_id: str) -> list[dict[str, Any]]:
    """The option sets the balance lab measures by default: the game's variants, or, for a game
    with readings, every combination of its readings on each variant's other options (the
    readings named in full, so a change of default never changes what a row measured)."""
    cls = GAMES[game_id]
    if not cls.READINGS:
        return [dict(v) for v in cls.VARIANTS]
    bases: list[dict[str, Any]] = []
    for v in cls.VARIANTS:
        base = {k: x for k, x in v.items() if k not in cls.READINGS}
        if base not in bases:
            bases.append(base)
    names = list(cls.READINGS)
    out: list[dict[str, Any]] = []
    for base in bases:
        for values in itertools.product(*(cls.READINGS[n] for n in names)):
            out.append({**base, **dict(zip(names, values, strict=True))})
    return out


def variants(game_id: str, narrowed: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The option sets to measure: the game's study (its variants, crossed with its readings
    if it has any), or (when options were given) those that agree with them, or the given
    options alone if none does."""
    everything = study(game_id)
    if not narrowed:
        return everything
    resolved = load(game_id, **narrowed).options  # validates, fills defaults
    given = {k: resolved[k] for k in narrowed}
    matching = [
        dict(v) for v in everything if all(v.get(k, resolved[k]) == given[k] for k in given)
    ]
    out = []
    for v in matching:
        merged = {**v, **given}
        if merged not in out:
            out.append(merged)
    return out or [given]


def make_tasks(
    game_id: str,
    option_sets: Sequence[dict[str, Any]],
    spec: str,
    games: int,
    seed: int | str,
    against: str | None = None,
) -> list[GameTask]:
    """``games`` self-play games of ``spec`` per option set; with ``against``, ``spec`` plays
    that bot instead, first in even games and second in odd ones."""
    if games < 1:
        raise ValueError(f"games per variant must be at least 1, got {games}")
    tasks: list[GameTask] = []
    for v, options in enumerate(option_sets):
        for k in range(games):
            deal = f"{seed}:{v}:{k}"
            other = spec if against is None else against
            specs = (spec, other) if k % 2 == 0 else (other, spec)
            tasks.append(
                GameTask(
                    index=len(tasks),
                    game=game_id,
                    options=dict(options),
                    specs=specs,
                    seeds=(f"{deal}:0", f"{deal}:1"),
                    chance_seed=deal,
                    labels={"variant": v, "bot_seat": 0 if k % 2 == 0 else 1},
                )
            )
    return tasks


def _summary(values: Sequence[float]) -> dict[str, Any]:
    if not values:
        return {
            "mean": None,
            "mean_ci": None,
            "sd": None,
            "min": None,
            "q1": None,
            "median": None,
            "median_ci": None,
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
        "mean_ci": [round(x, 3) for x in mean_interval(ordered)],
        "sd": round(statistics.pstdev(ordered), 3),
        "min": ordered[0],
        "q1": round(q1, 3),
        "median": round(median, 3),
        "median_ci": list(median_interval(ordered)),
        "q3": round(q3, 3),
        "max": ordered[-1],
    }


def _shares(words: Sequence[str]) -> dict[str, dict[str, Any]]:
    """How often each word occurs, with its Wilson interval, most frequent first."""
    n = len(words)
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    return {
        w: {"count": c, "share": round(c / n, 4), "ci": [round(x, 4) for x in wilson(c, n)]}
        for w, c in sorted(counts.items(), key=lambda item: (-item[1], item[0]))
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

    def bot_side(self) -> Tally:
        """The games from the seat of the bot under test (``spec``, wherever it sat)."""
        tally = Tally()
        for r in self.results:
            tally = tally.add(r.result_for(r.task.labels.get("bot_seat", 0)))
        return tally

    def measures(self) -> dict[str, list[float]]:
        """The games' numeric facts (e.g. flips), by name."""
        out: dict[str, list[float]] = {}
        for r in self.results:
            for name, value in r.facts.items():
                if not isinstance(value, str):
                    out.setdefault(name, []).append(float(value))
        return out

    def categories(self) -> dict[str, list[str]]:
        """The games' worded facts (e.g. how each ended), by name."""
        out: dict[str, list[str]] = {}
        for r in self.results:
            for name, value in r.facts.items():
                if isinstance(value, str):
                    out.setdefault(name, []).append(value)
        return out

    def to_json(self, seed: int = 0) -> dict[str, Any]:
        tally = self.first_seat()
        n = tally.games
        margins = self.margins()
        winner_margins = [
            abs(m) for m, r in zip(margins, self.results, strict=True) if r.winner is not None
        ]
        mixed = any(r.task.specs[0] != r.task.specs[1] for r in self.results)
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
            "measures": {k: _summary(v) for k, v in self.measures().items()},
            "categories": {k: _shares(v) for k, v in self.categories().items()},
            "bot_side": self.bot_side().to_json(seed=seed) if mixed else None,
            # Each game's numbers, so figures can be drawn again from the JSON alone.
            "per_game": [
                {
                    "plies": r.plies,
                    "decisions": r.decisions[0] + r.decisions[1],
                    "margin": m,
                    "winner": r.winner,
                    **r.facts,
                }
                for r, m in zip(self.results, margins, strict=True)
            ],
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
    against: str | None = None

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
        against: str | None = None,
    ) -> BalanceReport:
        per = [VariantStats(dict(o), []) for o in option_sets]
        for r in results:
            per[r.task.labels["variant"]].results.append(r)
        return cls(game, bot, games, seed, per, seconds, jobs, started, against)

    @property
    def pairing(self) -> str:
        """Who played: ``self-play of hard`` or ``hard against greedy``."""
        if self.against is None:
            return f"self-play of {self.bot}"
        return f"{self.bot} against {self.against}"

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "bot": self.bot,
            "against": self.against,
            "pairing": self.pairing,
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
        title = f"{self.game}: first seat, {self.pairing}"
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
        for name in dict.fromkeys(k for v in self.variants for k in v.measures()):
            fig = plots.histograms(
                labels,
                [v.measures().get(name, []) for v in self.variants],
                name,
                f"{self.game}: {name} per game",
            )
            paths += plots.save(fig, folder, f"{prefix}{name}")
        for name in dict.fromkeys(k for v in self.variants for k in v.categories()):
            words = [v.categories().get(name, []) for v in self.variants]
            fig = plots.shares(labels, words, f"{self.game}: {name} ({self.pairing})")
            paths += plots.save(fig, folder, f"{prefix}{name}")
        return paths


def _share(v: Mapping[str, Any], category: str, word: str) -> tuple[float, float, float]:
    """A word's share of a variant's games with its Wilson interval (0 when it never came)."""
    found = v.get("categories", {}).get(category, {}).get(word)
    if found is not None:
        return (found["share"], found["ci"][0], found["ci"][1])
    low, high = wilson(0, v["games"])
    return (0.0, low, high)


def _median(summary: Mapping[str, Any]) -> tuple[float, float, float]:
    return (summary["median"], summary["median_ci"][0], summary["median_ci"][1])


def readings_figure(
    reports: Sequence[Mapping[str, Any]], measure: str, category: str, limit: str, title: str
) -> Any:
    """The readings side by side, one panel a measure, one series per report (e.g. self-play
    and against another bot, over the same option sets): the game's own length ``measure``,
    decisions, the share of games ending by ``limit`` (a guard), the first seat's score,
    draws and the margin, each with its 95% interval."""
    from . import plots

    labels = [variant_values(v["options"]) for v in reports[0]["variants"]]
    series = [str(r.get("pairing") or f"self-play of {r['bot']}") for r in reports]

    def each(get: Any) -> list[list[tuple[float, float, float]]]:
        return [[get(v) for v in r["variants"]] for r in reports]

    panels: list[plots.Panel] = [
        (
            f"{measure} (median)",
            each(lambda v: _median(v["measures"][measure])),
            [(100, "100")],
            None,
        ),
        ("decisions (median)", each(lambda v: _median(v["decisions"])), [], None),
        (
            f"share ending by the {limit}",
            each(lambda v: _share(v, category, limit)),
            [],
            (-0.02, 1.02),
        ),
        (
            "first seat's score",
            each(lambda v: (v["first_seat"]["score"], *v["first_seat"]["score_ci"])),
            [(0.5, "fair")],
            (-0.02, 1.02),
        ),
        ("draws", each(lambda v: (v["draw_rate"], *v["draw_ci"])), [], (-0.02, 1.02)),
        (
            "margin, first seat (mean)",
            each(lambda v: (v["margin"]["mean"], *v["margin"]["mean_ci"])),
            [(0.0, "even")],
            None,
        ),
    ]
    return plots.interval_panels(labels, series, panels, title)
