"""Grade AlphaZero checkpoints on FlipWars (mode="enclosed"), policy argmax, no search:

- **endgames**: ``--positions`` distinct positions with at most ``--empty`` empty cells, from
  random play (seeded); the exact endgame solver (``pocketarena.explore``) values every move, and
  the share where the agent's move keeps the round's exact result (win, draw or loss) and the
  share where it keeps the best margin are counted, beside a random legal move (expected);
- **against the hard bot**: ``--games`` games with alternating seats (seeded, the hard bot's
  thinking counted, so reproducible): the agent's score (a win 1, a draw 1/2).

    .venv/bin/python scripts/grade_alphazero_flipwars.py runs/az-flipwars
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.alphazero import AlphaZeroBot, Network
from pocketarena.core import TERMINAL, State
from pocketarena.explore import MoveValue, explore
from pocketarena.match import SeededChance, play_match


def endgames(game: pa.Game, count: int, empty: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    seen: dict[str, State] = {}
    while len(seen) < count * 3:
        state = game.new_initial_state()
        while state.current_player != TERMINAL:
            if len(state.empty) <= empty:  # type: ignore[attr-defined]
                seen.setdefault(str(state), state.clone())
            state = state.child(rng.choice(state.legal_actions()))
    return rng.sample(list(seen.values()), count)


def shares(choices: list[str], values: list[list[MoveValue]]) -> dict[str, float]:
    result = margin = 0
    for choice, moves in zip(choices, values, strict=True):
        best = moves[0]
        mine = next(m for m in moves if m.move == choice)
        result += mine.value == best.value
        margin += mine.margin == best.margin
    return {"keeps_result": result / len(values), "keeps_margin": margin / len(values)}


def random_shares(values: list[list[MoveValue]]) -> dict[str, float]:
    result = margin = 0.0
    for moves in values:
        best = moves[0]
        result += sum(m.value == best.value for m in moves) / len(moves)
        margin += sum(m.margin == best.margin for m in moves) / len(moves)
    return {"keeps_result": result / len(values), "keeps_margin": margin / len(values)}


def against(game: pa.Game, bot: AlphaZeroBot, opponent: str, games: int) -> float:
    score = 0.0
    for i in range(games):
        seat = i % 2
        bots: list[Any] = [make_bot(opponent, game, seed=i, reproducible=True)] * 2
        bots[seat] = bot
        result = play_match(game, bots, SeededChance(i)).result
        mine, theirs = ("1-0", "0-1") if seat == 0 else ("0-1", "1-0")
        score += 1.0 if result == mine else 0.0 if result == theirs else 0.5
    return score / games


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("run", type=Path, help="a train_alphazero.py --game flipwars output folder")
    p.add_argument("--positions", type=int, default=500)
    p.add_argument("--empty", type=int, default=8, help="at most this many empty cells")
    p.add_argument("--games", type=int, default=20, help="games against each bot")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    checkpoints = sorted(args.run.glob("[0-9]*.npz"))
    if not checkpoints:
        p.error(f"no checkpoints (NNNNN.npz) in {args.run}")
    game = pa.load("flipwars", mode="enclosed")
    positions = endgames(game, args.positions, args.empty, args.seed)
    values = [explore(s) for s in positions]
    report: dict[str, Any] = {"positions": len(positions), "baseline": random_shares(values)}
    print(json.dumps(report), flush=True)
    curve = []
    for path in checkpoints:
        bot = AlphaZeroBot(game, network=Network.load(path))
        point = {
            "checkpoint": path.name,
            "iteration": bot.network.meta["iteration"],
            "endgames": shares([bot.choose(s).text for s in positions], values),
            "vs_random": against(game, bot, "random", args.games),
            "vs_hard": against(game, bot, "hard", args.games),
        }
        curve.append(point)
        print(json.dumps(point), flush=True)
    report["curve"] = curve
    (args.run / "grades.json").write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
