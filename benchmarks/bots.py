"""Bot strength and speed: our MCTS against OpenSpiel's, the hard level against random and
greedy, and MCTS simulations per second; writes its section of docs/benchmarks.md.

    python benchmarks/bots.py                         # full run (long: hours on 2 cores)
    python benchmarks/bots.py --quick                 # smoke run: tiny budgets, writes nothing
    python benchmarks/bots.py --games 200 --seconds 0.1 --jobs 2 --parts duel,hard,rate

Parts:
- ``duel``: ``mcts`` (our MCTS with each game's tuning) against OpenSpiel's Python ``MCTSBot``
  (UCT c = 2, one random rollout per leaf, MCTS-solver on; ``openspiel-mcts``) through the
  OpenSpiel adapter, at the same wall-clock time per move, ``--games`` per game, seats swapped
  (each pair of games shares its throws). Goal: we score at least 65%.
- ``hard``: the ``hard`` level (its thinking time set to ``--seconds``; the FlipWars endgame
  solver keeps its own pace) against ``random`` (goal at least 95%) and against ``greedy``.
- ``rate``: simulations per second of our MCTS (tuned, and plain: UCT with random rollouts to
  the end, the same algorithm as OpenSpiel's) and of OpenSpiel's MCTSBot, from the same
  positions (``--positions`` per game, seeded), 1 s of search each, one process at a time;
  the rate is per second of this process's CPU time, so a busy machine disturbs it less.

Games are played in ``--jobs`` worker processes (both bots of a game share one process, so
machine load hits them alike). Everything is seeded: the same command plays the same throws.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import markdown_section  # benchmarks/markdown_section.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "src" / "pocketarena").is_dir():
    sys.path.insert(0, str(ROOT / "src"))  # measure this checkout, not an installed copy

from rich.console import Console  # noqa: E402

import pocketarena as pa  # noqa: E402
from pocketarena.arena import GameResult, GameTask, Tally, run_with_progress  # noqa: E402
from pocketarena.arena.stats import score_bootstrap  # noqa: E402
from pocketarena.bots import make_bot  # noqa: E402
from pocketarena.bots.levels import levels_for  # noqa: E402
from pocketarena.bots.mcts import MCTSBot  # noqa: E402

START = "<!-- bots:start -->"
END = "<!-- bots:end -->"
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
GAMES = ("stack-a-cash", "coin-age", "wallet-battles", "flipwars")
console = Console(stderr=True)


def duel_tasks(
    game_id: str, first: str, second: str, games: int, seed: int, part: str, start: int
) -> list[GameTask]:
    """``games`` games of ``first`` against ``second``, seats alternating, throws shared by
    each pair of games."""
    game = pa.load(game_id)
    tasks = []
    for k in range(games):
        seats = (first, second) if k % 2 == 0 else (second, first)
        deal = f"{seed}:{part}:{game_id}:{second}:{k // 2}"
        tasks.append(
            GameTask(
                index=start + len(tasks),
                game=game_id,
                options=dict(game.options),
                specs=seats,
                seeds=(f"{deal}:{seats[0]}", f"{deal}:{seats[1]}"),
                chance_seed=deal,
                labels={"part": part, "game_id": game_id, "bot": first, "opponent": second},
            )
        )
    return tasks


def tally_for(results: Sequence[GameResult], bot: str) -> Tally:
    tally = Tally()
    for r in results:
        tally = tally.add(r.result_for(r.task.specs.index(bot)))
    return tally


def think_per_move(results: Sequence[GameResult], bot: str) -> float:
    seconds = moves = 0.0
    for r in results:
        seat = r.task.specs.index(bot)
        seconds += r.think[seat]
        moves += r.decisions[seat]
    return seconds / moves if moves else 0.0


# -- simulations per second ---------------------------------------------------------------------
def positions(game: pa.Game, count: int, seed: int) -> list[pa.State]:
    """Decisions from seeded random games, spread over the game's length."""
    rng = random.Random(seed)
    out: list[pa.State] = []
    while len(out) < count:
        state = game.new_initial_state()
        stop = rng.randrange(0, 12)
        while not state.is_terminal() and (state.ply < stop or state.current_player < 0):
            state.apply_random(rng)
        if not state.is_terminal():
            out.append(state)
    return out


def rate(bot: Any, states: Sequence[pa.State]) -> float:
    """Simulations per CPU second over the positions (each searched afresh)."""
    simulations = 0
    cpu = 0.0
    for state in states:
        if hasattr(bot, "reset"):
            bot.reset()
        start = time.process_time()
        bot.choose(state)
        cpu += time.process_time() - start
        simulations += bot.last_iterations
    return simulations / cpu if cpu else 0.0


def rates(game_id: str, count: int, seconds: float, seed: int) -> dict[str, float]:
    game = pa.load(game_id)
    states = positions(game, count, seed)
    return {
        "tuned": rate(make_bot(f"mcts:{seconds}s", game, seed=seed), states),
        "plain": rate(MCTSBot(game, seed=seed, seconds=seconds, c=1.4), states),
        "openspiel": rate(make_bot(f"openspiel-mcts:{seconds}s", game, seed=seed), states),
    }


# -- the report -----------------------------------------------------------------------------------
def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def score_cell(tally: Tally, seed: int) -> tuple[str, str]:
    low, high = score_bootstrap(*tally.counts(), seed=seed)
    return pct(tally.score), f"{pct(low)}–{pct(high)}"


def render(
    args: argparse.Namespace,
    results: list[GameResult],
    speed: dict[str, dict[str, float]],
    elapsed: float,
) -> str:
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        START,
        "## Bots: strength and speed",
        "",
        f"- Command: `python benchmarks/bots.py --games {args.games} --seconds {args.seconds} "
        f"--jobs {args.jobs} --parts {args.parts}`",
        f"- Date: {datetime.now(UTC).replace(microsecond=0).isoformat().replace('+00:00', 'Z')}"
        f"; {elapsed / 60:.0f} minutes",
        f"- Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs, "
        f"Python {platform.python_version()}; load average {load} when the run ended "
        "(other work shared the machine)",
        f"- Budget: {args.seconds} s of wall-clock time per move for every timed bot (short, so "
        "that 200 games a game fit in an hour; the `hard` level itself thinks 1.5 s); games in "
        f"{args.jobs} worker processes, both bots of a game in the same process.",
        "- Scores: a win 1, a draw ½, from the first-named bot's view; 95% intervals by "
        "percentile bootstrap (Wilson when every game ended alike).",
        "",
    ]
    by_part: dict[str, list[GameResult]] = {}
    for r in results:
        by_part.setdefault(r.task.labels["part"], []).append(r)
    if "duel" in by_part:
        lines += [
            "### Our MCTS against OpenSpiel's MCTSBot, equal time per move (goal: 65%)",
            "",
            "OpenSpiel's Python `MCTSBot` (UCT c = 2, one random rollout per leaf, MCTS-solver) "
            "plays through `pocketarena.interop.openspiel`; ours is `mcts` with each game's "
            "tuning (`bots/levels.py`: heuristic cut-off rollouts, stratified throws, "
            "progressive widening for FlipWars).",
            "",
            "| game | games | W | D | L | our score | 95% CI | goal met | our sims/move (≈) | theirs (≈) |",
            "| --- | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: | ---: |",
        ]
        for i, game_id in enumerate(GAMES):
            games = [r for r in by_part["duel"] if r.task.labels["game_id"] == game_id]
            if not games:
                continue
            ours = games[0].task.labels["bot"]
            tally = tally_for(games, ours)
            score, ci = score_cell(tally, i)
            sims = speed.get(game_id, {})
            per_move = (
                f"{sims['tuned'] * args.seconds:,.0f}" if sims else "-",
                f"{sims['openspiel'] * args.seconds:,.0f}" if sims else "-",
            )
            lines.append(
                f"| {game_id} | {tally.games} | {tally.wins} | {tally.draws} | {tally.losses} "
                f"| {score} | {ci} | {'yes' if tally.score >= 0.65 else 'no'} | {per_move[0]} | {per_move[1]} |"
            )
        lines.append("")
    if "hard" in by_part:
        lines += [
            f"### The hard level against random (goal: 95%) and greedy, at {args.seconds} s a move",
            "",
            "| game | hard plays | opponent | games | W | D | L | hard's score | 95% CI | s/move (hard) |",
            "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for i, game_id in enumerate(GAMES):
            level = levels_for(pa.load(game_id))["hard"]
            level = replace(level, settings={**level.settings, "seconds": args.seconds})
            recipe = level.describe(pa.load(game_id))
            for opponent in ("random", "greedy"):
                games = [
                    r
                    for r in by_part["hard"]
                    if r.task.labels["game_id"] == game_id and r.task.labels["opponent"] == opponent
                ]
                if not games:
                    continue
                hard = games[0].task.labels["bot"]
                tally = tally_for(games, hard)
                score, ci = score_cell(tally, 10 + i)
                goal = " (goal met)" if opponent == "random" and tally.score >= 0.95 else ""
                lines.append(
                    f"| {game_id} | {recipe} | {opponent} | {tally.games} | {tally.wins} | "
                    f"{tally.draws} | {tally.losses} | {score}{goal} | {ci} | {think_per_move(games, hard):.3f} |"
                )
        lines.append("")
    if speed:
        lines += [
            "### MCTS simulations per second (per CPU second, same positions)",
            "",
            f"{args.positions} seeded positions a game, {args.rate_seconds} s of search each. "
            "*Plain* is our MCTS doing what OpenSpiel's does (UCT, random rollouts to the end, no "
            "heuristic); *tuned* is what `mcts` plays with (short rollouts judged by the "
            "heuristic, so more simulations fit in a second, except where FlipWars orders "
            "wide nodes by the heuristic).",
            "",
            "| game | ours, tuned | ours, plain | OpenSpiel MCTSBot | plain ÷ OpenSpiel |",
            "| --- | ---: | ---: | ---: | ---: |",
        ]
        for game_id in GAMES:
            if game_id in speed:
                s = speed[game_id]
                lines.append(
                    f"| {game_id} | {s['tuned']:,.0f} | {s['plain']:,.0f} | {s['openspiel']:,.0f} "
                    f"| {s['plain'] / s['openspiel']:.1f}× |"
                )
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="games per game and pairing")
    parser.add_argument("--seconds", type=float, default=0.1, help="thinking time per move")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--parts", default="duel,hard,rate", help="duel, hard, rate")
    parser.add_argument("--positions", type=int, default=8, help="positions per game (rate)")
    parser.add_argument("--rate-seconds", type=float, default=1.0, help="search per position")
    parser.add_argument("--games-only", default=",".join(GAMES), help="games to measure")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--quick", action="store_true", help="tiny budgets; writes nothing")
    args = parser.parse_args(argv)
    if args.quick:
        args.games, args.seconds, args.positions, args.rate_seconds = 2, 0.02, 1, 0.05
    parts = set(args.parts.split(","))
    unknown = parts - {"duel", "hard", "rate"}
    if unknown:
        parser.error(f"unknown part(s) {', '.join(sorted(unknown))}; choose from duel, hard, rate")
    game_ids = [g for g in GAMES if g in args.games_only.split(",")]
    started = time.perf_counter()
    speed: dict[str, dict[str, float]] = {}
    if "rate" in parts:
        for game_id in game_ids:
            console.print(f"simulations per second: {game_id}")
            speed[game_id] = rates(game_id, args.positions, args.rate_seconds, args.seed)
    tasks: list[GameTask] = []
    t = f"{args.seconds:g}s"
    for game_id in game_ids:
        if "duel" in parts:
            tasks += duel_tasks(
                game_id,
                f"mcts:{t}",
                f"openspiel-mcts:{t}",
                args.games,
                args.seed,
                "duel",
                len(tasks),
            )
        if "hard" in parts:
            for opponent in ("random", "greedy"):
                tasks += duel_tasks(
                    game_id, f"hard:{t}", opponent, args.games, args.seed, "hard", len(tasks)
                )
    results = (
        run_with_progress(tasks, jobs=args.jobs, description="bots", console=console)
        if tasks
        else []
    )
    section = render(args, results, speed, time.perf_counter() - started)
    print(section)
    if not args.quick:
        markdown_section.write_section(args.output, section, START, END)
        console.print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
