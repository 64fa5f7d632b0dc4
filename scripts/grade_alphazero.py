"""Grade AlphaZero checkpoints on Stack-a-Cash (protect="touched") against the exact solution.

Positions: every position of ``--games`` games of random play (seeded), distinct ones, of which
``--positions`` are drawn (seeded). For each checkpoint of a ``train_alphazero.py`` run, and for
the baselines (a random legal move, in expectation; the ``greedy`` bot), two shares:

- **keeps value**: the chosen move keeps the position's exact value (a win stays a win, a draw
  a draw; in a lost position every move keeps the value);
- **converts wins**: of the won positions, the share where the chosen move keeps the win.

The agent is graded twice: its policy's argmax (no search), and its move after a small Gumbel
MuZero search (``--simulations``, no Gumbel noise, so deterministic). Writes ``grades.json`` in the
run folder and the curve as a PNG. Given one checkpoint file instead of a run folder, grades that
one alone (the report beside it, ``NNNNN-grades.json``).

For the last checkpoint graded, optionally: ``--bot-simulations 64 128`` grades the
``alphazero`` bot itself with that network and that many simulations of its numpy PUCT search
(what ``alphazero:64`` plays; ``--c-puct`` changes its exploration constant), and ``--vs-random 100 --vs-greedy 20`` play it (its policy, and
each ``--bot-simulations`` search) against those bots, seats alternating, seeds 0, 1, ...

    .venv/bin/python scripts/grade_alphazero.py runs/az --png docs/img/research/alphazero-stack-a-cash.png
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

import pocketarena.vector as pv
from pocketarena.bots import make_bot
from pocketarena.bots.alphazero import C_PUCT, AlphaZeroBot, Network
from pocketarena.core import State
from pocketarena.observe import observation_tensor
from pocketarena.solve.stack_a_cash import random_positions, solve

sys.path.insert(0, str(Path(__file__).resolve().parent))
from grade_alphazero_flipwars import against  # noqa: E402
from train_alphazero import MLP, search  # noqa: E402


def sample_positions(games: int, count: int, seed: int) -> list[State]:
    rng = random.Random(seed)
    pool = random_positions("touched", games, rng)
    return rng.sample(pool, min(count, len(pool)))


def grade(choices: list[int], values: list[dict[int, int]]) -> dict[str, float]:
    keep = won = converted = 0
    for choice, vals in zip(choices, values, strict=True):
        best = max(vals.values())
        keep += vals[choice] == best
        if best == 1:
            won += 1
            converted += vals[choice] == 1
    return {"keeps": keep / len(values), "converts": converted / max(won, 1)}


def random_grade(values: list[dict[int, int]]) -> dict[str, float]:
    keep = converted = 0.0
    won = 0
    for vals in values:
        best = max(vals.values())
        share = sum(v == best for v in vals.values()) / len(vals)
        keep += share
        if best == 1:
            won += 1
            converted += share
    return {"keeps": keep / len(values), "converts": converted / max(won, 1)}


def searcher(env: pv.Env[Any, Any], hidden: int, layers: int, simulations: int) -> Any:
    net = MLP(num_actions=env.num_actions, hidden=hidden, layers=layers)

    @jax.jit
    def run(params: Any, state: Any) -> jax.Array:
        key = jax.random.PRNGKey(0)
        action: jax.Array = search(
            env, net, params, key, state, simulations, gumbel_scale=0.0
        ).action
        return action

    return run


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument(
        "run", type=Path, help="a train_alphazero.py output folder, or one checkpoint in it"
    )
    p.add_argument("--positions", type=int, default=2000)
    p.add_argument("--games", type=int, default=1000, help="random games to draw positions from")
    p.add_argument("--simulations", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--png", type=Path, default=None)
    p.add_argument(
        "--bot-simulations",
        type=int,
        nargs="*",
        default=[],
        help="grade the alphazero bot with the last checkpoint and this many search simulations",
    )
    p.add_argument(
        "--c-puct", type=float, default=C_PUCT, help="the bot's search's exploration constant"
    )
    p.add_argument("--vs-random", type=int, default=0, help="games of the last checkpoint")
    p.add_argument("--vs-greedy", type=int, default=0, help="games of the last checkpoint")
    args = p.parse_args(argv)
    if args.run.is_file():
        checkpoints = [args.run]
        report_path = args.run.with_name(f"{args.run.stem}-grades.json")
    else:
        checkpoints = sorted(args.run.glob("[0-9]*.npz"))
        report_path = args.run / "grades.json"
    if not checkpoints:
        p.error(f"no checkpoints (NNNNN.npz) in {args.run}")
    if any(n < 1 for n in args.bot_simulations):
        p.error("--bot-simulations must be at least 1")

    solution = solve("touched", progress=False)
    positions = sample_positions(args.games, args.positions, args.seed)
    values = [{a.id: v for a, v, _ in solution.outcomes(s)} for s in positions]
    obs = np.stack([observation_tensor(s, s.current_player) for s in positions])
    legal = np.zeros((len(positions), positions[0].game.num_decisions), bool)
    for i, vals in enumerate(values):
        legal[i, list(vals)] = True
    env = pv.make("stack-a-cash", protect="touched")
    batch = jax.tree.map(lambda *x: jnp.stack(x), *[env.from_engine(s) for s in positions])
    won = sum(max(v.values()) == 1 for v in values)

    greedy = make_bot("greedy", positions[0].game, seed=args.seed)
    rows: list[dict[str, Any]] = [
        {"name": "random legal move (expected)", **random_grade(values)},
        {"name": "greedy bot", **grade([greedy.choose(s).id for s in positions], values)},
    ]
    curve = []
    run_search = None
    for path in checkpoints:
        net = Network.load(path)
        logits, _ = net.policy_value(obs)
        policy = grade(list(np.where(legal, logits, -np.inf).argmax(1)), values)
        if run_search is None:
            shape = int(net.meta["hidden"]), int(net.meta.get("layers", 2))
            run_search = searcher(env, *shape, args.simulations)
        params = {"params": jax.tree.map(jnp.asarray, net.params)}
        searched = grade([int(a) for a in run_search(params, batch)], values)
        point = {
            "checkpoint": path.name,
            "iteration": net.meta["iteration"],
            "frames": net.meta["frames"],
            "policy": policy,
            "search": searched,
        }
        curve.append(point)
        print(json.dumps(point), flush=True)
    game = positions[0].game
    bots: list[dict[str, Any]] = [{"name": "alphazero bot (policy argmax)", "budget": {}}]
    for n in args.bot_simulations:
        bot = AlphaZeroBot(game, network=net, exploration=args.c_puct, simulations=n)
        start = time.process_time()
        choices = [bot.choose(s).id for s in positions]
        seconds = time.process_time() - start
        row: dict[str, Any] = {"name": f"alphazero:{n} bot", "budget": {"simulations": n}}
        row.update(grade(choices, values))
        row["cpu_ms_per_move"] = round(1000 * seconds / len(positions), 2)
        bots.append(row)
        print(json.dumps(row), flush=True)
    for row in bots if args.vs_random or args.vs_greedy else []:
        bot = AlphaZeroBot(game, network=net, exploration=args.c_puct, **row["budget"])
        row["vs_random"] = against(game, bot, "random", args.vs_random) if args.vs_random else None
        row["vs_greedy"] = against(game, bot, "greedy", args.vs_greedy) if args.vs_greedy else None
        print(json.dumps(row), flush=True)
    report = {
        "positions": len(positions),
        "won_positions": won,
        "simulations": args.simulations,
        "baselines": rows,
        "curve": curve,
        "bots": {"checkpoint": checkpoints[-1].name, "c_puct": args.c_puct, "rows": bots},
        "games": {"vs_random": args.vs_random, "vs_greedy": args.vs_greedy},
    }
    report_path.write_text(json.dumps(report, indent=1))
    print(f"{len(positions)} positions ({won} won for the side to move)")
    print("| player | keeps value | converts wins |\n|---|---|---|")
    for row in [*rows, *bots[1:]]:
        print(f"| {row['name']} | {row['keeps']:.1%} | {row['converts']:.1%} |")
    last = curve[-1]
    for kind, label in (("policy", "policy argmax"), ("search", f"{args.simulations} sims")):
        g = last[kind]
        print(
            f"| AlphaZero it. {last['iteration']}, {label} | {g['keeps']:.1%} | "
            f"{g['converts']:.1%} |"
        )
    if args.png:
        plot(report, args.png)
    return 0


def plot(report: dict[str, Any], png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = report["curve"]
    x = [c["frames"] for c in curve]
    fig, axes = plt.subplots(1, 2, figsize=(10, 4), sharey=True)
    for ax, metric, title in zip(
        axes,
        ("keeps", "converts"),
        ("keeps the exact value", "converts won positions"),
        strict=True,
    ):
        ax.plot(x, [c["policy"][metric] for c in curve], "o-", label="policy argmax")
        sims = report["simulations"]
        ax.plot(x, [c["search"][metric] for c in curve], "s-", label=f"search, {sims} sims")
        for row, style in zip(report["baselines"], (":", "--"), strict=True):
            ax.axhline(row[metric], linestyle=style, color="grey", label=row["name"])
        ax.set_title(f"Share of moves that {title}")
        ax.set_xlabel("self-play positions trained on")
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(f"share of {report['positions']} sampled positions")
    axes[1].legend(loc="lower right", fontsize=8)
    fig.suptitle("AlphaZero on Stack-a-Cash (protect=touched), graded by the exact solution")
    fig.tight_layout()
    png.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(png, dpi=100)


if __name__ == "__main__":
    sys.exit(main())
