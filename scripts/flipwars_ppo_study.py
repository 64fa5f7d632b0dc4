"""Why MaskablePPO barely learns FlipWars: reward shaping and observation variants at one budget.

    nice python scripts/flipwars_ppo_study.py                      # the table in docs/research.md
    nice python scripts/flipwars_ppo_study.py --steps 20000 --variants margin-mlp,margin-cnn

Needs the ``train`` extra (``pip install -e '.[rl,train]'``). Each variant trains sb3-contrib's
MaskablePPO on the Gymnasium env (FlipWars, default ``standard`` mode, the agent's seat
alternating, the ``random`` bot as opponent) for the same number of agent steps and the same
seed, then plays ``--games`` games against ``random`` and against ``greedy`` (seats
alternating, the policy's most likely legal action). One torch thread, CPU time per variant
measured with ``time.process_time``. Variants, by reward and observation:

- reward ``terminal``: +1/-1/0 at the end only (the env as it is);
  ``margin``: plus the change of the tile margin (own tiles minus the opponent's, over the
  cells) at every agent step, the opponent's reply included: a potential-based shaping whose
  sum over an episode is the final margin, so the best policy stays the one that wins by most.
- observation ``mlp``: the (46, 5, 5) tensor flattened into SB3's default 64x64 MLP;
  ``mlp256``: the same with 256x256; ``cnn``: two 3x3 convolutions over the planes (64
  channels, padded), then 256 units.
  ``fcn``: the same convolutions, kept as planes, and a fully convolutional policy head: a 1x1
  convolution gives each cell one logit per (tile, rotation), in the action ids' order
  (``21 * cell + j`` in ``standard``), so what a placement is worth is learnt once for every
  cell (the value head reads the flattened planes).
- discount: 1 (the episodes are short: about a dozen agent steps) unless the name ends in
  ``-gX``: ``gamma=X``, which makes the agent short-sighted: with ``margin`` and ``g0`` it
  learns the tiles each of its moves wins (the opponent's reply included), which is what the
  ``greedy`` bot maximises.
"""

from __future__ import annotations

import argparse
import time
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from stable_baselines3.common.torch_layers import (
    BaseFeaturesExtractor,
)

import pocketarena.interop.gymnasium  # noqa: F401  (registers the env ids)

VARIANTS = (
    "terminal-mlp",
    "margin-mlp",
    "margin-mlp256",
    "terminal-cnn",
    "margin-cnn",
    "margin-mlp-g0.5",
    "margin-cnn-g0.5",
    "margin-cnn-g0",
    "terminal-fcn",
    "margin-fcn",
)


class MarginShaping(gymnasium.Wrapper[np.ndarray, np.int64, np.ndarray, np.int64]):
    """Adds the change of (own tiles - opponent's tiles) / cells to every step's reward."""

    def __init__(self, env: gymnasium.Env[np.ndarray, np.int64], weight: float = 1.0) -> None:
        super().__init__(env)
        self.weight = weight
        self.before = 0.0

    def margin(self) -> float:
        base: Any = self.env.unwrapped
        scores = base.state.scores()
        return float(scores[base.seat] - scores[1 - base.seat]) / len(base.state.game.cell_names)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        out = self.env.reset(**kwargs)
        self.before = self.margin()
        return out

    def step(
        self, action: np.int64
    ) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        observation, reward, terminated, truncated, info = self.env.step(action)
        after = self.margin()
        shaped = float(reward) + self.weight * (after - self.before)
        self.before = after
        return observation, shaped, terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined, no-any-return]


class SmallCNN(BaseFeaturesExtractor):
    """Two padded 3x3 convolutions over the observation planes, then a linear layer."""

    def __init__(self, space: gymnasium.spaces.Box, features: int = 256) -> None:
        super().__init__(space, features)
        planes, rows, files = space.shape
        self.net = torch.nn.Sequential(
            torch.nn.Conv2d(planes, 64, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Conv2d(64, 64, 3, padding=1),
            torch.nn.ReLU(),
            torch.nn.Flatten(),
            torch.nn.Linear(64 * rows * files, features),
            torch.nn.ReLU(),
        )

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self.net(observations)


class PlacementHead(torch.nn.Module):  # type: ignore[misc]  # torch is Any to mypy (pyproject)
    """The flattened (64, rows, files) planes to one logit per (cell, tile-rotation) pair."""

    def __init__(self, rows: int, files: int, per_cell: int) -> None:
        super().__init__()
        self.rows, self.files = rows, files
        self.conv = torch.nn.Conv2d(64, per_cell, 1)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        planes = latent.view(-1, 64, self.rows, self.files)
        # (batch, kinds, rank, file) -> (batch, cell, kind): ids are per_cell * cell + kind.
        logits: torch.Tensor = self.conv(planes).permute(0, 2, 3, 1).flatten(1)
        return logits


class PlanesCNN(SmallCNN):
    """SmallCNN without its linear layer: the 64 planes, flattened."""

    def __init__(self, space: gymnasium.spaces.Box) -> None:
        planes, rows, files = space.shape
        super().__init__(space, 64 * rows * files)
        self.net = torch.nn.Sequential(*list(self.net)[:-2])  # without the Linear and its ReLU


def fully_convolutional(model: Any, env: gymnasium.Env[np.ndarray, np.int64]) -> None:
    """Give ``model``'s policy a :class:`PlacementHead` (and an optimiser that knows it)."""
    _, rows, files = env.observation_space.shape  # type: ignore[misc]
    actions = int(env.action_space.n)  # type: ignore[attr-defined]
    if actions % (rows * files):
        raise SystemExit("the fcn head needs a placement-only mode (standard, enclosed, flag)")
    policy = model.policy
    policy.action_net = PlacementHead(rows, files, actions // (rows * files))
    policy.optimizer = policy.optimizer_class(
        policy.parameters(), lr=model.lr_schedule(1), **policy.optimizer_kwargs
    )


def make_env(reward: str, mode: str) -> gymnasium.Env[np.ndarray, np.int64]:
    env = gymnasium.make("pocketarena/flipwars-v0", opponent="random", seat="alternate", mode=mode)
    return MarginShaping(env) if reward == "margin" else env


def evaluate(model: Any, opponent: str, games: int, mode: str, seed: int) -> float:
    """The policy's score (win 1, draw 1/2) over ``games`` games against ``opponent``."""
    env = gymnasium.make("pocketarena/flipwars-v0", opponent=opponent, seat="alternate", mode=mode)
    points = 0.0
    for game in range(games):
        observation, info = env.reset(seed=seed + game)
        while True:
            action, _ = model.predict(
                observation, action_masks=info["action_mask"].astype(bool), deterministic=True
            )
            observation, reward, terminated, _, info = env.step(int(action))
            if terminated:
                points += (float(reward) + 1) / 2
                break
    return points / games


def run(variant: str, steps: int, games: int, mode: str, seed: int) -> dict[str, Any]:
    reward, observation, *rest = variant.split("-")
    gamma = float(rest[0][1:]) if rest else 1.0
    kwargs: dict[str, Any] = {}
    if observation == "cnn":
        kwargs = {"features_extractor_class": SmallCNN, "net_arch": []}
    elif observation == "fcn":
        kwargs = {"features_extractor_class": PlanesCNN, "net_arch": []}
    elif observation == "mlp256":
        kwargs = {"net_arch": [256, 256]}
    env = make_env(reward, mode)
    start = time.process_time()
    model = MaskablePPO(
        "MlpPolicy",
        env,
        n_steps=1024,
        batch_size=256,
        n_epochs=4,
        gamma=gamma,
        policy_kwargs=kwargs,
        seed=seed,
        device="cpu",
        verbose=0,
    )
    if observation == "fcn":
        fully_convolutional(model, env)
    model.learn(steps)
    trained = time.process_time() - start
    out = {
        "variant": variant,
        "steps": steps,
        "train_cpu_s": trained,
        "vs_random": evaluate(model, "random", games, mode, 10_000),
        "vs_greedy": evaluate(model, "greedy", games, mode, 20_000),
    }
    out["total_cpu_s"] = time.process_time() - start
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=50_000, help="agent steps per variant")
    parser.add_argument("--games", type=int, default=200, help="evaluation games per opponent")
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--mode", default="standard")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.set_num_threads(1)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    unknown = [v for v in variants if v not in VARIANTS]
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; choose from {', '.join(VARIANTS)}")
    print("| variant | agent steps | train CPU s | vs random | vs greedy |")
    print("|---|---|---|---|---|")
    for variant in variants:
        row = run(variant, args.steps, args.games, args.mode, args.seed)
        print(
            f"| {row['variant']} | {row['steps']:,} | {row['train_cpu_s']:.0f} "
            f"| {row['vs_random']:.1%} | {row['vs_greedy']:.1%} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
