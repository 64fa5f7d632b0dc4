"""Play two Stack-a-Cash AlphaZero networks against each other (protect="touched").

Each of ``--openings`` openings (seed ``--seed + i``: 0 to ``--opening-plies`` random plies,
games not over) is played twice, the seats swapped, by the ``alphazero`` bot with network A and
with network B (``--simulations N``: each searches N simulations a move; 0, the default: the
policy's argmax). A win scores 1, a draw 1/2; prints A's score and its wins, draws and losses,
and the CPU time a move. The bots are deterministic, so a match replays.

    .venv/bin/python scripts/match_alphazero.py runs/az-wide/00094.npz \\
        src/pocketarena/bots/nets/stack_a_cash_az.npz --openings 100 --simulations 64
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import pocketarena as pa
from pocketarena.bots.alphazero import AlphaZeroBot, Network
from pocketarena.core import State


def opening(game: pa.Game, plies: int, seed: int) -> State:
    """0..``plies`` random plies from the start (drawn again until the game is not over)."""
    rng = random.Random(seed)
    while True:
        state = game.new_initial_state()
        for _ in range(rng.randint(0, plies)):
            state.apply_random(rng)
            if state.is_terminal():
                break
        if not state.is_terminal():
            return state


def play(state: State, bots: list[AlphaZeroBot]) -> tuple[tuple[float, float], int]:
    """Play on from ``state`` to the end: seat 0's and seat 1's returns (+1, 0, -1), and the
    moves the bots chose."""
    state = state.clone()
    moves = 0
    while not state.is_terminal():
        state.apply(bots[state.current_player].choose(state))
        moves += 1
    return state.returns(), moves


def match(
    a: Network, b: Network, openings: int, plies: int, simulations: int, seed: int
) -> dict[str, Any]:
    game = pa.load("stack-a-cash", protect="touched")
    budget = {"simulations": simulations} if simulations else {}
    bot_a = AlphaZeroBot(game, network=a, seed=0, **budget)
    bot_b = AlphaZeroBot(game, network=b, seed=0, **budget)
    tally = {"wins": 0, "draws": 0, "losses": 0}
    moves = 0
    start = time.process_time()
    for i in range(openings):
        first = opening(game, plies, seed + i)
        for seat in (0, 1):
            bots = [bot_a, bot_b] if seat == 0 else [bot_b, bot_a]
            returns, played = play(first, bots)
            mine = returns[seat]
            tally["wins" if mine > 0 else "losses" if mine < 0 else "draws"] += 1
            moves += played
    seconds = time.process_time() - start
    return {
        "games": 2 * openings,
        "score": tally["wins"] + tally["draws"] / 2,
        **tally,
        "moves": moves,
        "cpu_ms_per_move": round(1000 * seconds / max(moves, 1), 2),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("a", type=Path, help="network A (a checkpoint or a shipped .npz)")
    p.add_argument("b", type=Path, help="network B")
    p.add_argument("--openings", type=int, default=50, help="each played twice, seats swapped")
    p.add_argument("--opening-plies", type=int, default=5, help="0..N random plies")
    p.add_argument("--simulations", type=int, default=0, help="0: the policy's argmax")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.openings < 1 or args.opening_plies < 0 or args.simulations < 0:
        p.error("--openings must be at least 1, --opening-plies and --simulations at least 0")
    report = match(
        Network.load(args.a),
        Network.load(args.b),
        args.openings,
        args.opening_plies,
        args.simulations,
        args.seed,
    )
    print(json.dumps({"a": str(args.a), "b": str(args.b), **vars(args), **report}, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
