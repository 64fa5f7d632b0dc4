"""Random-playout speed of Coin Age: steps per second on one core (chance steps count).

    PYTHONPATH=src python scripts/coin_age_speed.py [--map classic] [--seconds 2] [--runs 5]

Prints each run and the median, per map.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pocketarena as pa
from pocketarena.games.coin_age import MAP_NAMES


def steps_per_second(game: pa.Game, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while state.current_player != pa.TERMINAL:
            state.apply_random(rng)
            steps += 1
    return steps / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--map", choices=MAP_NAMES, action="append")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    for name in args.map or MAP_NAMES:
        game = pa.load("coin-age", map=name)
        runs = [steps_per_second(game, args.seconds, seed) for seed in range(args.runs)]
        shown = " ".join(f"{r:,.0f}" for r in runs)
        print(f"coin-age map={name}: median {statistics.median(runs):,.0f} steps/s ({shown})")


if __name__ == "__main__":
    main()
