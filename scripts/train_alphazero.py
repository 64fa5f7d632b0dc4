"""AlphaZero on Stack-a-Cash (protect="touched") or FlipWars (mode="enclosed"), on the JAX games
of ``pocketarena.vector``.

pgx's AlphaZero recipe (examples/alphazero), sized for a CPU: self-play of a batch of games at
once on the vector environment, each move chosen by mctx's Gumbel MuZero search guided by the
network (with the true game as the model: ``recurrent_fn`` steps the environment), then the
network (a small flax MLP on the environment's observation) trained on the search's action
weights and the games' outcomes. Every ``--checkpoint-every`` iterations the parameters are
written as a numpy ``.npz`` (a few hundred KB) that ``scripts/grade_alphazero.py`` grades
against the exact solution and the ``alphazero`` bot plays.

    .venv/bin/python scripts/train_alphazero.py --iterations 60 --out runs/az

Needs the jax extra (``pip install 'pocketarena[jax]'``: jax, flax, optax, mctx).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax
from flax import linen as nn

import pocketarena.vector as pv
from pocketarena.bots.alphazero import LAYERS, save_params


class MLP(nn.Module):
    """Policy logits and a value in [-1, 1] from the flattened observation."""

    num_actions: int
    hidden: int = 256

    @nn.compact
    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = x.reshape((x.shape[0], -1))
        for name in LAYERS[:-2]:
            x = nn.relu(nn.Dense(self.hidden, name=name)(x))
        logits = nn.Dense(self.num_actions, name=LAYERS[-2])(x)
        value = jnp.tanh(nn.Dense(1, name=LAYERS[-1])(x))[:, 0]
        return logits, value


class SelfplayOutput(NamedTuple):
    obs: jax.Array
    reward: jax.Array
    terminated: jax.Array
    action_weights: jax.Array
    discount: jax.Array


class Sample(NamedTuple):
    obs: jax.Array
    policy_tgt: jax.Array
    value_tgt: jax.Array
    mask: jax.Array


# The games trained on, with the options fixed for each.
GAMES: dict[str, dict[str, Any]] = {
    "stack-a-cash": {"protect": "touched"},
    "flipwars": {"mode": "enclosed"},
}


def turn_sign(player: jax.Array, state: Any) -> jax.Array:
    """-1 where the turn passed to the other seat (its value is the mover's loss), else 1."""
    return jnp.where(state.current_player == player, 1.0, -1.0)


def search(
    env: pv.Env[Any, Any],
    net: MLP,
    params: Any,
    key: jax.Array,
    state: Any,
    simulations: int,
    gumbel_scale: float = 1.0,
) -> mctx.PolicyOutput[Any]:
    """mctx's Gumbel MuZero search from a batch of states, the true game as the model."""

    def recurrent_fn(
        params: Any, key: jax.Array, action: jax.Array, state: Any
    ) -> tuple[mctx.RecurrentFnOutput, Any]:
        del key
        player = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = net.apply(params, state.observation)
        logits = logits - jnp.max(logits, axis=-1, keepdims=True)
        logits = jnp.where(state.legal_action_mask, logits, jnp.finfo(logits.dtype).min)
        reward = state.rewards[jnp.arange(state.rewards.shape[0]), player]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, turn_sign(player, state))
        return mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value
        ), state

    logits, value = net.apply(params, state.observation)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=state)
    return mctx.gumbel_muzero_policy(
        params=params,
        rng_key=key,
        root=root,
        recurrent_fn=recurrent_fn,
        num_simulations=simulations,
        invalid_actions=~state.legal_action_mask,
        qtransform=mctx.qtransform_completed_by_mix_value,
        gumbel_scale=gumbel_scale,
    )


def build(env: pv.Env[Any, Any], net: MLP, args: argparse.Namespace) -> dict[str, Any]:
    """The jitted pieces of one training iteration."""
    optimizer = optax.adam(args.learning_rate)

    def start(key: jax.Array) -> Any:
        # A new game after up to --random-opening uniformly random plies (never one that ends
        # the game), so self-play sees more than its own favourite lines.
        k0, k1, key = jax.random.split(key, 3)
        plies = jax.random.randint(k1, (), 0, args.random_opening + 1)

        def ply(i: jax.Array, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            state, key = carry
            key, pick = jax.random.split(key)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            moved = env.step(state, jax.random.categorical(pick, logits))
            keep = (i < plies) & ~moved.terminated
            return pv.tree_where(keep, moved, state), key

        state, _ = jax.lax.fori_loop(0, args.random_opening, ply, (env.init(k0), key))
        return state

    def reset_finished(state: Any, key: jax.Array) -> Any:
        return pv.tree_where(state.terminated, start(key), state)

    @jax.jit
    def selfplay(params: Any, key: jax.Array) -> SelfplayOutput:
        batch = args.batch

        def step_fn(state: Any, key: jax.Array) -> tuple[Any, SelfplayOutput]:
            k1, k2 = jax.random.split(key)
            out = search(env, net, params, k1, state, args.simulations)
            actor = state.current_player
            stepped = jax.vmap(env.step)(state, out.action)
            # Finished games start again (the step's own result gives the rewards and the end).
            nxt = jax.vmap(reset_finished)(stepped, jax.random.split(k2, batch))
            discount = jnp.where(stepped.terminated, 0.0, turn_sign(actor, stepped))
            return nxt, SelfplayOutput(
                obs=state.observation,
                action_weights=out.action_weights,
                reward=stepped.rewards[jnp.arange(batch), actor],
                terminated=stepped.terminated,
                discount=discount,
            )

        k0, key = jax.random.split(key)
        state = jax.vmap(start)(jax.random.split(k0, batch))
        _, data = jax.lax.scan(step_fn, state, jax.random.split(key, args.max_steps))
        return data

    @jax.jit
    def targets(data: SelfplayOutput) -> Sample:
        # A truncated game (still running at the end of the scan) has no value target.
        mask = jnp.cumsum(data.terminated[::-1, :], axis=0)[::-1, :] >= 1

        def body(carry: jax.Array, i: jax.Array) -> tuple[jax.Array, jax.Array]:
            ix = args.max_steps - i - 1
            v = data.reward[ix] + data.discount[ix] * carry
            return v, v

        _, value = jax.lax.scan(body, jnp.zeros(args.batch), jnp.arange(args.max_steps))
        return Sample(data.obs, data.action_weights, value[::-1, :], mask)

    def loss_fn(params: Any, s: Sample) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        logits, value = net.apply(params, s.obs)
        policy_loss = optax.softmax_cross_entropy(logits, s.policy_tgt).mean()
        value_loss = (optax.l2_loss(value, s.value_tgt) * s.mask).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    @jax.jit
    def train(params: Any, opt_state: Any, s: Sample) -> tuple[Any, Any, jax.Array, jax.Array]:
        grads, (pl, vl) = jax.grad(loss_fn, has_aux=True)(params, s)
        updates, opt_state = optimizer.update(grads, opt_state)
        return optax.apply_updates(params, updates), opt_state, pl, vl

    return {"selfplay": selfplay, "targets": targets, "train": train, "optimizer": optimizer}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="stack-a-cash")
    p.add_argument("--iterations", type=int, default=60)
    p.add_argument("--batch", type=int, default=256, help="self-play games at once")
    p.add_argument("--simulations", type=int, default=16, help="search simulations a move")
    p.add_argument("--max-steps", type=int, default=64, help="self-play plies an iteration")
    p.add_argument("--train-batch", type=int, default=1024)
    p.add_argument("--learning-rate", type=float, default=1e-3)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument(
        "--random-opening", type=int, default=8, help="games start after 0..N random plies"
    )
    p.add_argument("--checkpoint-every", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/az"))
    args = p.parse_args(argv)
    for name in ("iterations", "batch", "simulations", "max_steps", "train_batch", "hidden"):
        if getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.checkpoint_every < 1:
        p.error("--checkpoint-every must be at least 1")
    if args.random_opening < 0:
        p.error("--random-opening must be 0 or more")

    env = pv.make(args.game, **GAMES[args.game])
    net = MLP(num_actions=env.num_actions, hidden=args.hidden)
    fns = build(env, net, args)
    key = jax.random.PRNGKey(args.seed)
    key, k = jax.random.split(key)
    dummy = jnp.zeros((1, *env.observation_shape), jnp.float32)
    params = net.init(k, dummy)
    opt_state = fns["optimizer"].init(params)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "log.jsonl"
    log_path.write_text("")
    frames = 0
    start = time.perf_counter()

    def checkpoint(iteration: int) -> None:
        meta = {
            "game": args.game,
            "options": GAMES[args.game],
            "iteration": iteration,
            "frames": frames,
            "hidden": args.hidden,
            "seed": args.seed,
        }
        save_params(args.out / f"{iteration:05d}.npz", params["params"], meta)

    checkpoint(0)
    for iteration in range(1, args.iterations + 1):
        key, k1, k2 = jax.random.split(key, 3)
        data = fns["selfplay"](params, k1)
        samples = jax.device_get(fns["targets"](data))
        flat = jax.tree.map(lambda x: np.asarray(x).reshape((-1, *x.shape[2:])), samples)
        frames += flat.obs.shape[0]
        order = np.asarray(jax.random.permutation(k2, flat.obs.shape[0]))
        updates = max(1, flat.obs.shape[0] // args.train_batch)
        pls, vls = [], []
        for i in range(updates):
            rows = order[i * args.train_batch : (i + 1) * args.train_batch]
            mb = Sample(*(jnp.asarray(x[rows]) for x in flat))
            params, opt_state, pl, vl = fns["train"](params, opt_state, mb)
            pls.append(float(pl))
            vls.append(float(vl))
        games = int(np.asarray(data.terminated).sum())
        entry = {
            "iteration": iteration,
            "frames": frames,
            "games": games,
            "policy_loss": round(float(np.mean(pls)), 4),
            "value_loss": round(float(np.mean(vls)), 4),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(json.dumps(entry), flush=True)
        with log_path.open("a") as f:
            f.write(json.dumps(entry) + "\n")
        if iteration % args.checkpoint_every == 0 or iteration == args.iterations:
            checkpoint(iteration)
    return 0


if __name__ == "__main__":
    sys.exit(main())
