"""Cost of the OpenSpiel adapter: ``random_sim_test`` and OpenSpiel's Python MCTSBot on every game
through ``pocketarena.interop.openspiel``, beside OpenSpiel's own tic-tac-toe (C++) and its
Python tic-tac-toe, measured in the same run with the same loops.

    python benchmarks/interop.py               # every game, default options
    python benchmarks/interop.py --quick       # smoke run: tiny budgets
    python benchmarks/interop.py --sims 20 --mcts 100 --games 4

Figures:
- ``random_sim_test``: seconds per simulated game (OpenSpiel's conformance test: clones, string
  and serialisation checks, observations at every decision) with ``serialize=True``;
- random playouts: steps per second through the OpenSpiel API (legal actions or chance
  outcomes, then ``apply_action``), and, for our games, through the engine directly;
- MCTS: OpenSpiel's Python ``MCTSBot`` (UCT 1.4, one random rollout per leaf) playing itself
  for whole games at ``--mcts`` simulations a move: simulations per second and seconds a game;
- C++ MCTS: OpenSpiel's C++ ``pyspiel.MCTSBot`` (the same settings) against itself inside
  ``pyspiel.evaluate_bots``, beside the Python bot in the same call: seconds a game each, and
  their ratio. (Calling the C++ bot's ``step`` from Python crashes on a game written in
  Python; inside ``evaluate_bots`` it plays them.)

Times are this process's CPU time (``time.process_time``), so other work on a shared machine
disturbs the figures less than it would wall-clock time.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "src" / "pocketarena").is_dir():
    sys.path.insert(0, str(ROOT / "src"))  # measure this checkout, not an installed copy

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import mcts  # noqa: E402
from open_spiel.python.games import tic_tac_toe  # noqa: E402, F401  (registers python_tic_tac_toe)

import pocketarena as pa  # noqa: E402
from pocketarena.interop.openspiel import spiel_name  # noqa: E402


def sim_test(game: Any, sims: int) -> float:
    start = time.process_time()
    pyspiel.random_sim_test(game, num_sims=sims, serialize=True, verbose=False)
    return (time.process_time() - start) / sims


def play(state: Any, rng: random.Random, choose: Callable[[Any], int]) -> tuple[int, int]:
    """Play an OpenSpiel state to the end: chance by its probabilities, decisions by
    ``choose``; (steps, decisions)."""
    steps = decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            action = rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            action = choose(state)
            decisions += 1
        state.apply_action(action)
        steps += 1
    return steps, decisions


def spiel_steps(game: Any, seconds: float, seed: int = 0) -> float:
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += play(game.new_initial_state(), rng, lambda s: rng.choice(s.legal_actions()))[0]
    return steps / (time.process_time() - start)


def engine_steps(game: pa.Game, seconds: float, seed: int = 0) -> float:
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_random(rng)
            steps += 1
    return steps / (time.process_time() - start)


def mcts_games(game: Any, simulations: int, games: int) -> tuple[float, float]:
    """(simulations per second, seconds per game) for MCTSBot self-play."""
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 1.4, simulations, evaluator, random_state=rng) for _ in range(2)]
    chance = random.Random(0)
    moves = 0
    start = time.process_time()
    for _ in range(games):
        state = game.new_initial_state()
        moves += play(state, chance, lambda s: bots[s.current_player()].step(s))[1]
    elapsed = time.process_time() - start
    return moves * simulations / elapsed, elapsed / games


def evaluate_bots_games(game: Any, simulations: int, games: int) -> tuple[float, float]:
    """(C++, Python) MCTSBot seconds a game, each playing itself in ``pyspiel.evaluate_bots``."""
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    python = [mcts.MCTSBot(game, 1.4, simulations, evaluator, random_state=rng) for _ in range(2)]
    native = [
        pyspiel.MCTSBot(
            game, pyspiel.RandomRolloutEvaluator(1, seat), 1.4, simulations, 1000, True, seat, False
        )  # 1,000 MB of tree at most; MCTS-solver on, as the Python bot's default
        for seat in range(2)
    ]
    seconds = []
    for bots in (native, python):
        start = time.process_time()
        for seed in range(games):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        seconds.append((time.process_time() - start) / games)
    return seconds[0], seconds[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sims", type=int, default=20, help="random_sim_test games per game")
    parser.add_argument("--seconds", type=float, default=3.0, help="per random-playout figure")
    parser.add_argument("--mcts", type=int, default=100, help="MCTS simulations per move")
    parser.add_argument("--games", type=int, default=2, help="MCTS self-play games per game")
    parser.add_argument("--quick", action="store_true", help="tiny budgets, for a smoke run")
    args = parser.parse_args()
    if args.quick:
        args.sims, args.seconds, args.mcts, args.games = 2, 0.2, 10, 1

    rows: list[tuple[str, ...]] = []
    anchors = [("tic_tac_toe (C++)", "tic_tac_toe"), ("python_tic_tac_toe", "python_tic_tac_toe")]
    names = [(game_id, spiel_name(game_id)) for game_id in sorted(pa.GAMES)] + anchors
    for label, name in names:
        game = pyspiel.load_game(name)
        engine = getattr(game, "pocketarena", None)
        sim = sim_test(game, args.sims)
        steps = spiel_steps(game, args.seconds)
        direct = f"{engine_steps(engine, args.seconds):,.0f}" if engine is not None else "-"
        rate, per_game = mcts_games(game, args.mcts, args.games)
        native, python = evaluate_bots_games(game, args.mcts, args.games)
        rows.append(
            (
                label,
                f"{sim * 1000:,.2f}",
                f"{steps:,.0f}",
                direct,
                f"{rate:,.0f}",
                f"{per_game:.2f}",
                f"{native:.2f}",
                f"{python / native:.1f}x",
            )
        )
        print(" | ".join(rows[-1]), flush=True)
    print()
    print(
        f"| game | random_sim_test ms/game | OpenSpiel API steps/s | engine steps/s "
        f"| MCTS sims/s ({args.mcts}/move) | MCTS s/game | C++ MCTS s/game "
        "| C++ MCTS speed-up |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
