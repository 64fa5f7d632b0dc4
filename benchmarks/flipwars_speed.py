"""FlipWars random-playout speed on one core: steps/s per mode, median of 5 runs.

    PYTHONPATH=src python benchmarks/flipwars_speed.py [--seconds 2] [--runs 5]

A step is one ``state.apply_random(rng)`` (a legal-action list plus an apply through the public
contract), counted until the end of each playout.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pocketarena as pa


def steps_per_second(game: pa.Game, seconds: float, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    steps = playouts = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while state.current_player >= 0:
            state.apply_random(rng)
            steps += 1
        playouts += 1
    elapsed = time.perf_counter() - start
    return steps / elapsed, playouts / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for options in pa.GAMES["flipwars"].VARIANTS:
        game = pa.load("flipwars", **options)
        runs = [steps_per_second(game, args.seconds, seed) for seed in range(args.runs)]
        steps = statistics.median(r[0] for r in runs)
        games = statistics.median(r[1] for r in runs)
        label = ", ".join(f"{k}={v}" for k, v in options.items())
        print(
            f"flipwars[{label}]: {steps:,.0f} steps/s, {games:,.0f} playouts/s (median of {args.runs})"
        )


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
