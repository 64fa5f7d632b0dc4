"""Engine speed: random playouts per second and steps per second, per game and VARIANT, on one
core, beside OpenSpiel anchors measured in the same run with the same loop.

    python benchmarks/engine.py                 # full run, rewrites its section of docs/benchmarks.md
    python benchmarks/engine.py --quick         # smoke run: tiny budget, writes nothing
    python benchmarks/engine.py --games flipwars --seconds 2 --runs 5

A step is one action applied: a decision picked uniformly from ``legal_actions()`` or a chance
outcome sampled by its probability. Every figure is the median of ``--runs`` runs, each playing
whole games for about ``--seconds``. The anchors (OpenSpiel's Python tic-tac-toe, its C++
tic-tac-toe and C++ backgammon, both driven from Python) run through the very same loop shape:
legal actions -> random choice (or chance sampling) -> apply.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import markdown_section  # benchmarks/markdown_section.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "src" / "pocketarena").is_dir():
    sys.path.insert(0, str(ROOT / "src"))  # measure this checkout, not an installed copy

from rich.console import Console  # noqa: E402
from rich.progress import Progress  # noqa: E402
from rich.table import Table  # noqa: E402

import pocketarena as pa  # noqa: E402
from pocketarena.core import sample_outcome  # noqa: E402

START = "<!-- engine:start -->"
END = "<!-- engine:end -->"
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"


def goal(game_id: str, options: dict[str, Any]) -> float | None:
    """The steps/s each game must reach on this machine (issues 2 and 3)."""
    if game_id == "stack-a-cash":
        return 50_000
    if game_id == "flipwars":
        return 50_000 if options.get("mode", "standard") == "standard" else None
    if game_id == "coin-age":
        return 25_000
    if game_id == "wallet-battles":
        return 40_000
    return None


# -- the loop, the same for every engine ------------------------------------------------------
# The same shape and cost per step for ours and OpenSpiel's: is the game over? is it a chance
# node? list legal actions (or outcomes) -> pick one -> apply it. Only the name of the apply
# method differs (``apply`` here, ``apply_action`` in OpenSpiel), looked up once per playout.


def playouts(game: Any, apply_name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Play whole random games for about ``seconds``: (games, steps, elapsed seconds)."""
    rng = random.Random(seed)
    choice = rng.choice
    new_state = game.new_initial_state
    games = steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = new_state()
        apply = getattr(state, apply_name)
        while not state.is_terminal():
            if state.is_chance_node():
                action = sample_outcome(state.chance_outcomes(), rng)
            else:
                action = choice(state.legal_actions())
            apply(action)
            steps += 1
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, steps, now - start


@dataclass
class Row:
    label: str
    variant: str
    playouts: float  # per second, median
    steps: float  # per second, median
    steps_per_game: float
    goal: float | None = None


@dataclass
class Subject:
    """One thing to measure: a game (ours or OpenSpiel's) and its runs so far."""

    label: str
    variant: str
    game: Any
    apply_name: str
    goal: float | None = None
    per_game: list[float] = field(default_factory=list)
    per_step: list[float] = field(default_factory=list)
    lengths: list[float] = field(default_factory=list)

    def run(self, seconds: float, seed: int) -> None:
        games, steps, elapsed = playouts(self.game, self.apply_name, seconds, seed)
        self.per_game.append(games / elapsed)
        self.per_step.append(steps / elapsed)
        self.lengths.append(steps / games)

    def row(self) -> Row:
        return Row(
            self.label,
            self.variant,
            statistics.median(self.per_game),
            statistics.median(self.per_step),
            statistics.median(self.lengths),
            goal=self.goal,
        )


def measure_all(subjects: list[Subject], seconds: float, runs: int, progress: Progress) -> None:
    """Run every subject once per round, round after round: a machine whose load changes
    during the run then slows anchors and games alike, and the ratios stay fair."""
    task = progress.add_task("measuring", total=len(subjects) * runs)
    for round_number in range(runs):
        for subject in subjects:
            progress.update(
                task,
                description=f"round {round_number + 1}/{runs}: {subject.label} {subject.variant}",
            )
            subject.run(seconds, 1000 + round_number)
            progress.advance(task)


SHORT = {
    "OpenSpiel Python tic-tac-toe": "py ttt",
    "OpenSpiel C++ tic-tac-toe": "C++ ttt",
    "OpenSpiel C++ backgammon": "C++ bg",
}


def anchors() -> tuple[list[tuple[str, Any]], str | None]:
    """OpenSpiel's games, or why they are missing (it is an optional dependency)."""
    try:
        import open_spiel.python.games  # type: ignore[import-untyped]  # noqa: F401  (registers the Python games)
        import pyspiel  # type: ignore[import-not-found]
    except ImportError as e:
        return [], f"OpenSpiel is not installed ({e.name}); install the 'rl' extra for the anchors"
    return [
        ("OpenSpiel Python tic-tac-toe", pyspiel.load_game("python_tic_tac_toe")),
        ("OpenSpiel C++ tic-tac-toe", pyspiel.load_game("tic_tac_toe")),
        ("OpenSpiel C++ backgammon", pyspiel.load_game("backgammon")),
    ], None


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def pin_to_one_core(cpu: int | None) -> str:
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    allowed = sorted(os.sched_getaffinity(0))
    chosen = cpu if cpu is not None else allowed[0]
    os.sched_setaffinity(0, {chosen})
    return f"pinned to CPU {chosen} of {os.cpu_count()}"


def variant_label(options: dict[str, Any]) -> str:
    return ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "default"


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def ratio(x: float, anchor: Row | None) -> str:
    return f"{x / anchor.steps:.2f}×" if anchor is not None and anchor.steps else "n/a"


def render_markdown(
    rows: list[Row], anchor_rows: list[Row], meta: dict[str, str], note: str | None
) -> str:
    names = [a.label.replace("OpenSpiel ", "") for a in anchor_rows]
    lines = [
        START,
        "## Engine speed: random playouts on one core",
        "",
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}",
        f"- Machine: {meta['machine']}",
        f"- Method: {meta['method']}",
        "- Goals (steps/s): Stack-a-Cash and FlipWars standard >= 50,000; Coin Age >= 25,000; "
        "Wallet Battles >= 40,000.",
        "",
    ]
    if note:
        lines += [f"Anchors missing: {note}.", ""]
    header = "| game | variant | playouts/s | steps/s | steps/playout | goal | met |"
    rule = "| --- | --- | ---: | ---: | ---: | ---: | :---: |"
    for name in names:
        header += f" vs {name} |"
        rule += " ---: |"
    lines += [header, rule]
    for row in rows:
        met = "n/a" if row.goal is None else ("yes" if row.steps >= row.goal else "**no**")
        line = (
            f"| {row.label} | {row.variant} | {fmt(row.playouts)} | {fmt(row.steps)} | "
            f"{row.steps_per_game:.1f} | {fmt(row.goal) if row.goal else '-'} | {met} |"
        )
        for anchor in anchor_rows:
            line += f" {ratio(row.steps, anchor)} |"
        lines.append(line)
    if anchor_rows:
        lines += [
            "",
            "Anchors, same loop, same run:",
            "",
            "| anchor | playouts/s | steps/s | steps/playout |",
            "| --- | ---: | ---: | ---: |",
        ]
        for a in anchor_rows:
            lines.append(
                f"| {a.label} | {fmt(a.playouts)} | {fmt(a.steps)} | {a.steps_per_game:.1f} |"
            )
    lines.append(END)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--seconds",
        type=float,
        default=None,
        help="length of one run (default 1.0; 0.05 with --quick)",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=None,
        help="runs per figure, the median is kept (default 5; 1 with --quick)",
    )
    parser.add_argument("--games", nargs="*", default=None, help="only these game ids")
    parser.add_argument(
        "--cpu", type=int, default=None, help="the core to pin to (default: the first allowed)"
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a smoke run: tiny budget, nothing written unless --output",
    )
    parser.add_argument(
        "--output",
        type=Path,
        default=None,
        help=f"Markdown file to update (default {DEFAULT_OUTPUT.relative_to(ROOT)})",
    )
    parser.add_argument("--no-anchors", action="store_true", help="skip the OpenSpiel anchors")
    args = parser.parse_args(argv)
    seconds = args.seconds if args.seconds is not None else (0.05 if args.quick else 1.0)
    runs = args.runs if args.runs is not None else (1 if args.quick else 5)
    output = args.output if args.output is not None else (None if args.quick else DEFAULT_OUTPUT)

    console = Console()
    load = (
        " / ".join(f"{x:.1f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "unknown"
    )
    if not console.is_terminal:
        console = Console(width=200)  # a log file: no need to wrap the table
    pinned = pin_to_one_core(args.cpu)
    wanted = None if args.games is None else {g.strip().lower() for g in args.games}
    unknown = sorted((wanted or set()) - set(pa.GAMES))
    if unknown:
        console.print(f"unknown game {unknown[0]!r}; valid games: {', '.join(sorted(pa.GAMES))}")
        return 2
    variants = [
        (game_id, dict(options))
        for game_id in sorted(pa.GAMES)
        if wanted is None or game_id in wanted
        for options in pa.GAMES[game_id].VARIANTS
    ]
    anchor_games, note = ([], "skipped with --no-anchors") if args.no_anchors else anchors()

    anchor_subjects = [Subject(label, "", g, "apply_action") for label, g in anchor_games]
    game_subjects = [
        Subject(
            game_id,
            variant_label(options),
            pa.load(game_id, **options),
            "apply",
            goal(game_id, options),
        )
        for game_id, options in variants
    ]
    with Progress(console=console, transient=True) as progress:
        measure_all(anchor_subjects + game_subjects, seconds, runs, progress)
    anchor_rows = [s.row() for s in anchor_subjects]
    rows = [s.row() for s in game_subjects]

    table = Table(title=f"Random playouts, {pinned}, median of {runs} rounds × {seconds:g} s")
    for column in (
        "game",
        "variant",
        "playouts/s",
        "steps/s",
        "goal",
        *(f"vs {SHORT[a.label]}" for a in anchor_rows),
    ):
        table.add_column(column, justify="left" if column in ("game", "variant") else "right")
    for row in anchor_rows:
        table.add_row(
            row.label,
            "",
            fmt(row.playouts),
            fmt(row.steps),
            "",
            *(ratio(row.steps, a) for a in anchor_rows),
        )
    for row in rows:
        mark = "" if row.goal is None else (" ok" if row.steps >= row.goal else " MISSED")
        table.add_row(
            row.label,
            row.variant,
            fmt(row.playouts),
            fmt(row.steps),
            (fmt(row.goal) + mark) if row.goal else "",
            *(ratio(row.steps, a) for a in anchor_rows),
        )
    console.print(table)
    if note:
        console.print(f"Anchors missing: {note}")

    if output is not None:
        command = "python benchmarks/engine.py" + "".join(
            f" {a}" for a in (argv if argv is not None else sys.argv[1:])
        )
        meta = {
            "command": command,
            "date": datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z"),
            "machine": f"{cpu_model()}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average {load} when the run began",
            "method": f"{pinned}; median of {runs} runs of {seconds:g} s each, taken in rounds (every "
            "game and anchor once per round, so changing load hits all alike); whole playouts from "
            "the initial state, uniform random decisions, chance sampled by probability",
        }
        markdown_section.write_section(
            output, render_markdown(rows, anchor_rows, meta, note), START, END
        )
        console.print(f"Wrote the engine section of {output}")
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
