"""How many empty cells the FlipWars endgame solver handles in 1 s and 10 s.

    PYTHONPATH=src python benchmarks/flipwars_endgame.py [--modes standard,enclosed]
        [--positions 5] [--max-empty 10] [--stop 60]

For each mode and each number of empty cells k it solves ``--positions`` seeded random
positions (random play from the start until k cells are empty), printing the median CPU time
(``time.process_time``: steady on a shared machine; on an idle core it equals wall time), the
median table size, and the values. It moves to the next k until the median passes ``--stop``
seconds, then prints the largest k solved within 1 s and within 10 s.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import pocketarena as pa
from pocketarena.bots.flipwars_endgame import EndgameSolver


def position(mode: str, empty: int, seed: int) -> pa.State:
    state = pa.load("flipwars", mode=mode).new_initial_state()
    rng = random.Random(seed)
    while len(state.empty) > empty:  # type: ignore[attr-defined]
        state.apply_random(rng)
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", default="standard,enclosed")
    parser.add_argument("--positions", type=int, default=5)
    parser.add_argument("--min-empty", type=int, default=4)
    parser.add_argument("--max-empty", type=int, default=12)
    parser.add_argument("--stop", type=float, default=60.0)
    args = parser.parse_args()
    for mode in args.modes.split(","):
        within = {1.0: 0, 10.0: 0}
        for k in range(args.min_empty, args.max_empty + 1):
            cpu, wall, nodes, values = [], [], [], []
            for seed in range(args.positions):
                state = position(mode, k, seed)
                solver = EndgameSolver(state.game)
                c0, w0 = time.process_time(), time.perf_counter()
                value, _ = solver.solve(state)
                cpu.append(time.process_time() - c0)
                wall.append(time.perf_counter() - w0)
                nodes.append(solver.nodes)
                values.append(value)
            median = statistics.median(cpu)
            print(
                f"{mode} {k:2d} empty: median {median:7.2f} s CPU ({statistics.median(wall):7.2f} s wall), "
                f"{int(statistics.median(nodes)):>9,} nodes; values {values}",
                flush=True,
            )
            for limit in within:
                if median <= limit:
                    within[limit] = k
            if median > args.stop:
                break
        print(f"{mode}: up to {within[1.0]} empty cells within 1 s, {within[10.0]} within 10 s")


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
