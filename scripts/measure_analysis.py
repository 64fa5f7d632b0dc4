"""Measure how far a game analysis can be trusted (docs/study.md quotes its output).

Three measurements, each on games the script plays itself (seeded, so a run repeats):

- ``--vs-random``: the hard bot against a random player, seats alternating; per game the
  analysis's ``?`` and ``??`` of each side. Goal: the random side gets more of them than the
  hard bot in at least 95% of the games.
- ``--smooth``: hard bot against hard bot; the graph's mean change (first seat's expected
  score) from one decision to the next, the final result left out. Goal: under 0.05.
- ``--endgame`` (FlipWars): positions of those games with up to ``--max-empty`` empty cells,
  beyond the analysis's exact reach (``exact_reach``: 7 on the 5x5 boards, 8 on Enclosed
  Battle's); the analysis's best move solved exactly must keep the
  position's exact value (win, draw or loss of the round).

    PYTHONPATH=src python scripts/measure_analysis.py flipwars --mode standard --games 4 \\
        --vs-random --smooth

Game ``i`` of a run (from 0) takes its seed from ``--seed`` + ``i`` (``--vs-random``: the hard
bot in seat ``i % 2``), so a sample can be split into runs of an even number of games with seeds
apart by that number (``--games 10 --seed 11`` are games 11 to 20 of ``--games 40``), run side
by side and added up.

Prints one JSON object per measurement. The analysis is the web's quick one (``hard:0.3s``,
counted budgets) unless ``--analyst`` names another; the players are the ``hard`` level with
counted budgets (``--player`` to change).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pocketarena as pa
from pocketarena.analysis import Judgement, analyze
from pocketarena.bots import make_bot
from pocketarena.core import State
from pocketarena.records import Player, Record

BAD = ("?", "??")


@dataclass
class Played:
    record: Record
    seats: tuple[str, str]  # the player spec in each seat


def play(game: pa.Game, specs: tuple[str, str], seed: int) -> Played:
    """One game between two bots (``specs`` by seat), seeded, throws drawn from the seed."""
    bots = [
        make_bot(spec, game, seed=f"{seed}:{i}", reproducible=True) for i, spec in enumerate(specs)
    ]
    state = game.new_initial_state()
    import random

    chance = random.Random(seed)
    while not state.is_terminal():
        if state.current_player < 0:
            outcomes = state.chance_outcomes()
            actions, weights = zip(*outcomes, strict=True)
            state.apply(chance.choices(actions, weights)[0])
            continue
        state.apply(bots[state.current_player].choose(state))
    record = Record.from_state(state, players=[Player(specs[0], "bot"), Player(specs[1], "bot")])
    return Played(record, specs)


def options_for(game_id: str, mode: str | None) -> dict[str, Any]:
    return {"mode": mode} if mode else {}


def bad_marks(judgements: list[Judgement], seat: int) -> int:
    return sum(j.mark in BAD for j in judgements if j.seat == seat)


def vs_random(game: pa.Game, n: int, player: str, analyst: str, seed: int) -> dict[str, Any]:
    wins = 0
    rows = []
    seconds = []
    for i in range(n):
        hard_seat = i % 2
        specs = (player, "random") if hard_seat == 0 else ("random", player)
        played = play(game, specs, seed + i)
        t = time.perf_counter()
        judgements = analyze(played.record, analyst)
        seconds.append(time.perf_counter() - t)
        hard, rand = bad_marks(judgements, hard_seat), bad_marks(judgements, 1 - hard_seat)
        wins += rand > hard
        rows.append({"hard": hard, "random": rand, "result": played.record.result})
    return {
        "measure": "vs-random",
        "game": game.ID,
        "options": dict(game.options),
        "games": n,
        "random_more_bad_marks": wins,
        "share": round(wins / n, 3) if n else None,
        "per_game": rows,
        "analysis_seconds_median": round(statistics.median(seconds), 2) if seconds else None,
    }


def graph_steps(judgements: list[Judgement]) -> list[float]:
    values = [j.value_before for j in judgements]
    return [abs(b - a) for a, b in zip(values, values[1:], strict=False)]


def smooth(game: pa.Game, n: int, player: str, analyst: str, seed: int) -> dict[str, Any]:
    steps: list[float] = []
    per_game = []
    marks = 0
    for i in range(n):
        played = play(game, (player, player), seed + 1000 + i)
        judgements = analyze(played.record, analyst)
        mine = graph_steps(judgements)
        steps += mine
        marks += sum(j.mark in BAD for j in judgements)
        per_game.append(round(statistics.mean(mine), 4) if mine else 0.0)
    return {
        "measure": "smooth",
        "game": game.ID,
        "options": dict(game.options),
        "games": n,
        "mean_change": round(statistics.mean(steps), 4) if steps else None,
        "steps": len(steps),  # so that runs over other seeds combine into one mean
        "per_game": per_game,
        "bad_marks_of_hard_bots": marks,
    }


def endgame_positions(record: Record, low: int, high: int) -> Iterator[tuple[State, str]]:
    state = record.load_game().new_initial_state()
    for move in record.moves:
        if state.current_player >= 0 and low <= len(getattr(state, "empty", ())) <= high:
            yield state.clone(), move
        state.apply(move)


def endgame(
    game: pa.Game, n: int, player: str, analyst: str, seed: int, max_empty: int
) -> dict[str, Any]:
    """The analysis's best move against the exact solver, beyond the analysis's own reach."""
    from pocketarena.analysis import exact_reach, judge
    from pocketarena.bots.flipwars_endgame import EndgameSolver

    checked = kept = 0
    misses = []
    for i in range(n):
        played = play(
            game, (player, "random") if i % 2 == 0 else ("random", player), seed + 2000 + i
        )
        for state, move in endgame_positions(played.record, 0, max_empty):
            if len(state.empty) <= exact_reach(state):  # type: ignore[attr-defined]
                continue  # exact in the analysis itself
            j = judge(analyst, state, move)
            solver = EndgameSolver(game)  # type: ignore[arg-type]
            # Only the results (signs) are compared: the solver settles a sign with at most
            # two null-window searches, not the exact margin.
            best_sign = solver.sign(state)
            child = state.child(j.best)
            mover = state.current_player
            if child.empty:  # type: ignore[attr-defined]
                reply = solver.sign(child)
                sign = -reply if child.current_player != mover else reply
            else:
                scores = child.round_scores()  # type: ignore[attr-defined]
                margin = scores[mover] - scores[1 - mover]
                sign = (margin > 0) - (margin < 0)
            checked += 1
            if sign == best_sign:
                kept += 1
            else:
                empty = len(state.empty)  # type: ignore[attr-defined]
                misses.append({"empty": empty, "best": j.best, "exact": best_sign, "got": sign})
    return {
        "measure": "endgame",
        "game": game.ID,
        "options": dict(game.options),
        "games": n,
        "positions": checked,
        "kept_exact_value": kept,
        "misses": misses,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", choices=["flipwars", "coin-age", "wallet-battles"])
    parser.add_argument("--mode", default=None, help="FlipWars mode")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", default="hard")
    parser.add_argument("--analyst", default="hard:0.3s")
    parser.add_argument("--vs-random", action="store_true")
    parser.add_argument("--smooth", action="store_true")
    parser.add_argument("--endgame", action="store_true")
    parser.add_argument("--max-empty", type=int, default=9)
    args = parser.parse_args(argv)
    game = pa.load(args.game, **options_for(args.game, args.mode))
    if args.vs_random:
        print(
            json.dumps(vs_random(game, args.games, args.player, args.analyst, args.seed)),
            flush=True,
        )
    if args.smooth:
        print(
            json.dumps(smooth(game, args.games, args.player, args.analyst, args.seed)), flush=True
        )
    if args.endgame:
        print(
            json.dumps(
                endgame(game, args.games, args.player, args.analyst, args.seed, args.max_empty)
            ),
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
