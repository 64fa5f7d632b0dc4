"""AlphaZero on Stack-a-Cash (protect="touched") or FlipWars (mode="enclosed"), on the JAX games
of ``pocketarena.vector``.

pgx's AlphaZero recipe (examples/alphazero), sized for a CPU: self-play of a batch of games at
once on the vector environment, each move chosen by mctx's Gumbel MuZero search guided by the
network (with the true game as the model: ``recurrent_fn`` steps the environment), then the
network (a flax MLP on the environment's observation) trained on the search's action weights
(policy) and the games' outcomes (value). Every ``--checkpoint-every`` iterations the parameters
are written as a numpy ``.npz`` that ``scripts/grade_alphazero.py`` grades against the exact
solution and the ``alphazero`` bot plays.

The recipe's knobs beyond pgx's (defaults: pgx's recipe as first sized here):

- ``--random-opening N``: every game starts from a uniformly random position of a random game's
  first N plies (before its end), so self-play learns on the positions random play reaches.
- ``--replay K`` and ``--epochs E``: train on the positions of the last K iterations, E times an
  iteration's worth of minibatches per iteration (self-play costs far more than a step of Adam).
- ``--value-mix M``: the value target is ``(1 - M)`` times the game's outcome plus ``M`` times
  the search's root value (a truncated game's positions take the root value alone).
- ``--discount G``: each ply discounts the search's values and the outcome by G, so a quick win
  is worth more than a slow one and won games end instead of wandering into repetition draws.
- ``--layers``, ``--hidden``: the MLP's hidden layers and their width;
  ``--final-learning-rate``: Adam's rate decays along a cosine to it.
- ``--init CHECKPOINT``: start from a checkpoint's weights (a fresh optimizer) instead of random
  ones; the run's iterations and positions count on from the checkpoint's. With a larger
  ``--hidden`` or ``--layers`` than the checkpoint's the network is widened and deepened
  without changing what it computes (``widen``), and the new units learn from there.
- ``--symmetries`` (Stack-a-Cash): every training position is seen under one of the board's 8
  symmetries (rotations and reflections), drawn afresh for each minibatch, its policy target
  moved with it: the game is the same under them, so the network learns them from its own
  self-play without playing each.

    .venv/bin/python scripts/train_alphazero.py --iterations 60 --out runs/az

Needs the jax extra (``pip install 'pocketarena[jax]'``: jax, flax, optax, mctx).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple, cast

import jax
import jax.numpy as jnp
import mctx
import numpy as np
import optax
from flax import linen as nn

import pocketarena as pa
import pocketarena.vector as pv
from pocketarena.bots.alphazero import HEADS, Network, hidden_layers, save_params
from pocketarena.games.stack_a_cash.board import SYMMETRIES


class MLP(nn.Module):
    """Policy logits and a value in [-1, 1] from the flattened observation."""

    num_actions: int
    hidden: int = 256
    layers: int = 2

    @nn.compact
    def __call__(self, x: jax.Array) -> tuple[jax.Array, jax.Array]:
        x = x.reshape((x.shape[0], -1))
        for name in hidden_layers(self.layers):
            x = nn.relu(nn.Dense(self.hidden, name=name)(x))
        logits = nn.Dense(self.num_actions, name=HEADS[0])(x)
        value = jnp.tanh(nn.Dense(1, name=HEADS[1])(x))[:, 0]
        return logits, value


class SelfplayOutput(NamedTuple):
    obs: jax.Array
    reward: jax.Array
    terminated: jax.Array
    action_weights: jax.Array
    discount: jax.Array
    root_value: jax.Array


class Sample(NamedTuple):
    """Positions with their targets: on the device (jax) or, in the replay buffer, the host."""

    obs: jax.Array | np.ndarray
    policy_tgt: jax.Array | np.ndarray
    value_tgt: jax.Array | np.ndarray
    mask: jax.Array | np.ndarray


# The games trained on, with the options fixed for each.
GAMES: dict[str, dict[str, Any]] = {
    "stack-a-cash": {"protect": "touched"},
    "flipwars": {"mode": "enclosed"},
}


def board_symmetries(game_id: str) -> tuple[np.ndarray, np.ndarray]:
    """For each of the board's 8 symmetries g, the gathers that apply it to a Stack-a-Cash
    observation (cells, the last axis of ``(16, 9)``) and to a policy over the action ids:
    ``obs[..., cells[g]]`` and ``policy[..., actions[g]]`` are the position and policy turned
    by g (g sends cell i to ``SYMMETRIES[g][i]``, and each action to the one on the cells it
    sends the action's cells to)."""
    if game_id != "stack-a-cash":
        raise ValueError("--symmetries is for Stack-a-Cash only")
    game = pa.load(game_id, **GAMES[game_id])
    names = [f"{'abc'[i % 3]}{i // 3 + 1}" for i in range(9)]
    cells = np.argsort(np.array(SYMMETRIES), axis=1)
    actions = np.zeros((len(SYMMETRIES), game.num_decisions), np.int64)
    for g, perm in enumerate(SYMMETRIES):
        where = {names[i]: names[perm[i]] for i in range(9)}
        sent = [
            game.parse_action(" ".join(where.get(w, w) for w in a.text.split())).id
            for a in game.actions[: game.num_decisions]
        ]
        actions[g] = np.argsort(sent)
    return cells, actions


def turn_sign(player: jax.Array, state: Any) -> jax.Array:
    """-1 where the turn passed to the other seat (its value is the mover's loss), else 1."""
    return jnp.where(state.current_player == player, 1.0, -1.0)


def outputs(net: MLP, params: Any, obs: jax.Array | np.ndarray) -> tuple[jax.Array, jax.Array]:
    """The network's policy logits and value (flax types apply's result as any collection)."""
    return cast(tuple[jax.Array, jax.Array], net.apply(params, obs))


def search(
    env: pv.Env[Any, Any],
    net: MLP,
    params: Any,
    key: jax.Array,
    state: Any,
    simulations: int,
    gumbel_scale: float = 1.0,
    gamma: float = 1.0,
) -> mctx.PolicyOutput[Any]:
    """mctx's Gumbel MuZero search from a batch of states, the true game as the model."""

    def recurrent_fn(
        params: Any, key: jax.Array, action: jax.Array, state: Any
    ) -> tuple[mctx.RecurrentFnOutput, Any]:
        del key
        player = state.current_player
        state = jax.vmap(env.step)(state, action)
        logits, value = outputs(net, params, state.observation)
        logits = logits - jnp.max(logits, axis=-1, keepdims=True)
        lowest = jnp.finfo(logits.dtype).min  # type: ignore[no-untyped-call]  # jax's is untyped
        logits = jnp.where(state.legal_action_mask, logits, lowest)
        reward = state.rewards[jnp.arange(state.rewards.shape[0]), player]
        value = jnp.where(state.terminated, 0.0, value)
        discount = jnp.where(state.terminated, 0.0, gamma * turn_sign(player, state))
        return mctx.RecurrentFnOutput(
            reward=reward, discount=discount, prior_logits=logits, value=value
        ), state

    logits, value = outputs(net, params, state.observation)
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
    schedule = optax.cosine_decay_schedule(
        args.learning_rate,
        decay_steps=args.iterations * updates_per_iteration(args),
        alpha=args.final_learning_rate / args.learning_rate,
    )
    optimizer = optax.adam(schedule)
    pool_size = args.batch * OPENINGS_PER_GAME

    def start(key: jax.Array) -> Any:
        # A new game starts from a uniformly random position of a random game (its positions
        # before the end, within its first --random-opening plies), so self-play learns on the
        # positions random play reaches, not only on its own favourite lines. One pass over the
        # random game, keeping its n-th position with probability 1/n (reservoir sampling).
        k0, key = jax.random.split(key)

        def ply(i: jax.Array, carry: tuple[Any, Any, jax.Array, jax.Array, jax.Array]) -> Any:
            state, kept, seen, going, key = carry
            key, pick, coin = jax.random.split(key, 3)
            logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
            moved = env.step(state, jax.random.categorical(pick, logits))
            going = going & ~moved.terminated
            seen = seen + going
            swap = going & (jax.random.uniform(coin) * seen < 1.0)
            return (
                pv.tree_where(going, moved, state),
                pv.tree_where(swap, moved, kept),
                seen,
                going,
                key,
            )

        init = env.init(k0)
        first = (init, init, jnp.int32(1), jnp.bool_(True), key)
        _, kept, _, _, _ = jax.lax.fori_loop(0, args.random_opening, ply, first)
        return kept

    @jax.jit
    def selfplay(params: Any, key: jax.Array) -> SelfplayOutput:
        batch = args.batch
        # The iteration's openings, made once: game slot g takes openings g, g + batch, ...
        # (then around again), so a finished game starts the next one at the cost of a lookup.
        k0, key = jax.random.split(key)
        pool = jax.vmap(start)(jax.random.split(k0, pool_size))
        slots = jnp.arange(batch)

        def step_fn(
            carry: tuple[Any, jax.Array], key: jax.Array
        ) -> tuple[tuple[Any, jax.Array], SelfplayOutput]:
            state, started = carry
            out = search(env, net, params, key, state, args.simulations, gamma=args.discount)
            actor = state.current_player
            stepped = jax.vmap(env.step)(state, out.action)
            # Finished games start again (the step's own result gives the rewards and the end).
            started = started + stepped.terminated
            fresh = jax.tree.map(lambda x: x[(slots + started * batch) % pool_size], pool)
            nxt = jax.vmap(pv.tree_where)(stepped.terminated, fresh, stepped)
            discount = jnp.where(stepped.terminated, 0.0, args.discount * turn_sign(actor, stepped))
            return (nxt, started), SelfplayOutput(
                obs=state.observation,
                action_weights=out.action_weights,
                reward=stepped.rewards[jnp.arange(batch), actor],
                terminated=stepped.terminated,
                discount=discount,
                root_value=out.search_tree.summary().value,
            )

        state = jax.tree.map(lambda x: x[:batch], pool)
        carry = (state, jnp.zeros(batch, jnp.int32))
        _, data = jax.lax.scan(step_fn, carry, jax.random.split(key, args.max_steps))
        return data

    @jax.jit
    def targets(data: SelfplayOutput) -> Sample:
        # A truncated game (still running at the end of the scan) has no outcome: its positions
        # take the search's root value alone (none at all with --value-mix 0).
        finished = jnp.cumsum(data.terminated[::-1, :], axis=0)[::-1, :] >= 1

        def body(carry: jax.Array, i: jax.Array) -> tuple[jax.Array, jax.Array]:
            ix = args.max_steps - i - 1
            v = data.reward[ix] + data.discount[ix] * carry
            return v, v

        _, outcome = jax.lax.scan(body, jnp.zeros(args.batch), jnp.arange(args.max_steps))
        mix = args.value_mix
        value = jnp.where(
            finished, (1 - mix) * outcome[::-1, :] + mix * data.root_value, data.root_value
        )
        mask = finished | (mix > 0)
        return Sample(data.obs, data.action_weights, value, mask)

    def loss_fn(params: Any, s: Sample) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        logits, value = outputs(net, params, s.obs)
        policy_loss = optax.softmax_cross_entropy(logits, s.policy_tgt).mean()
        value_loss = (optax.l2_loss(value, s.value_tgt) * s.mask).mean()
        return policy_loss + value_loss, (policy_loss, value_loss)

    @jax.jit
    def train(params: Any, opt_state: Any, s: Sample) -> tuple[Any, Any, jax.Array, jax.Array]:
        grads, (pl, vl) = jax.grad(loss_fn, has_aux=True)(params, s)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, pl, vl

    return {"selfplay": selfplay, "targets": targets, "train": train, "optimizer": optimizer}


def widen(old: dict[str, Any], fresh: dict[str, Any]) -> dict[str, Any]:
    """``old``'s weights in a network of ``fresh``'s shape (as wide or wider, as deep or
    deeper), computing the same function: each old unit keeps its weights and reads only old
    units; a new layer (after the old hidden ones) passes the old units through unchanged (an
    identity on ReLU outputs, which are never negative); the heads read only the old units. The
    new units keep ``fresh``'s random weights into them, and their weights out start at zero
    (so gradient descent grows them)."""
    old_layers = [name for name in old if name.startswith("hidden_")]
    width = old[old_layers[0]]["kernel"].shape[1]
    out: dict[str, Any] = {}
    for name, layer in fresh.items():
        kernel, bias = np.array(layer["kernel"]), np.array(layer["bias"])
        rows = kernel.shape[0] if name == "hidden_0" else width
        if name in HEADS:
            kernel[rows:, :] = 0.0
        if name in old:
            o = old[name]
            cols = o["kernel"].shape[1]
            kernel[rows:, :cols] = 0.0
            kernel[:rows, :cols] = o["kernel"]
            bias[:cols] = o["bias"]
        else:  # a new hidden layer: the old units through, unchanged
            kernel[:, :width] = 0.0
            kernel[:width, :width] = np.eye(width)
            bias[:width] = 0.0
        out[name] = {"kernel": kernel, "bias": bias}
    return out


def trained_before(meta: dict[str, Any], path: Path) -> dict[str, Any]:
    """What a run started with ``--init`` records of the checkpoint it started from (and of
    that one's own start, if it had one)."""
    keys = ("iteration", "frames", "hidden", "layers", "seed", "recipe", "init")
    return {"checkpoint": path.name, **{k: meta[k] for k in keys if k in meta}}


# Openings made per game slot and iteration (a slot that finishes more games than this replays
# its openings, from a different search).
OPENINGS_PER_GAME = 8


def updates_per_iteration(args: argparse.Namespace) -> int:
    """Gradient steps an iteration: --epochs times the new positions over the train batch."""
    return max(1, int(round(args.epochs * args.batch * args.max_steps / args.train_batch)))


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, Network | None]:
    """The options, checked, and the --init network if any (its shape filled in where the
    options leave it open)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", choices=sorted(GAMES), default="stack-a-cash")
    p.add_argument("--iterations", type=int, default=60)
    p.add_argument("--batch", type=int, default=256, help="self-play games at once")
    p.add_argument("--simulations", type=int, default=16, help="search simulations a move")
    p.add_argument("--max-steps", type=int, default=64, help="self-play plies an iteration")
    p.add_argument("--train-batch", type=int, default=1024)
    p.add_argument("--learning-rate", type=float, default=1e-3, help="Adam's, at the start")
    p.add_argument(
        "--final-learning-rate",
        type=float,
        default=None,
        help="cosine decay to this by the last step (default: constant --learning-rate)",
    )
    p.add_argument(
        "--hidden", type=int, default=None, help="units of each hidden layer (default 256)"
    )
    p.add_argument("--layers", type=int, default=None, help="hidden layers (default 2)")
    p.add_argument(
        "--random-opening", type=int, default=8, help="games start after 0..N random plies"
    )
    p.add_argument(
        "--value-mix",
        type=float,
        default=0.0,
        help="value target: (1 - m) * the game's outcome + m * the search's root value",
    )
    p.add_argument(
        "--discount",
        type=float,
        default=1.0,
        help="a ply's discount in the search and the outcome: below 1, a win sooner and a loss "
        "later are worth more (so won games end rather than wander into repetition draws)",
    )
    p.add_argument(
        "--replay",
        type=int,
        default=1,
        help="train on the positions of the last N iterations (a replay buffer)",
    )
    p.add_argument(
        "--epochs",
        type=float,
        default=1.0,
        help="gradient steps an iteration, as passes over one iteration's positions",
    )
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start from this checkpoint's weights (its --hidden and --layers), not random ones",
    )
    p.add_argument(
        "--symmetries",
        action="store_true",
        help="train on each position under a random one of the board's 8 symmetries (Stack-a-Cash)",
    )
    p.add_argument("--checkpoint-every", type=int, default=5)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", type=Path, default=Path("runs/az"))
    args = p.parse_args(argv)
    args.hidden = 256 if args.hidden is None and args.init is None else args.hidden
    args.layers = 2 if args.layers is None and args.init is None else args.layers
    counts = ("iterations", "batch", "simulations", "max_steps", "train_batch", "hidden")
    for name in (*counts, "layers", "replay", "checkpoint_every"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            p.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.random_opening < 0:
        p.error("--random-opening must be 0 or more")
    if not 0 < args.discount <= 1:
        p.error("--discount must be more than 0 and at most 1")
    if not 0 <= args.value_mix <= 1:
        p.error("--value-mix must be between 0 and 1")
    if args.epochs <= 0:
        p.error("--epochs must be more than 0")
    if args.final_learning_rate is None:
        args.final_learning_rate = args.learning_rate
    if not 0 < args.final_learning_rate <= args.learning_rate:
        p.error("--final-learning-rate must be more than 0 and at most --learning-rate")

    init_net = None
    if args.init is not None:
        if not args.init.is_file():
            p.error(f"--init: no checkpoint at {args.init}")
        init_net = Network.load(args.init)
        meta = init_net.meta
        if meta.get("game") != args.game or meta.get("options") != GAMES[args.game]:
            p.error(f"--init: {args.init} was not trained on {args.game} {GAMES[args.game]}")
        shape = int(meta["hidden"]), int(meta.get("layers", 2))
        args.hidden = shape[0] if args.hidden is None else args.hidden
        args.layers = shape[1] if args.layers is None else args.layers
        if args.hidden < shape[0] or args.layers < shape[1]:
            p.error(f"--init: {args.init} has {shape[1]} layers of {shape[0]}: it only grows")
    if args.symmetries and args.game != "stack-a-cash":
        p.error("--symmetries is for Stack-a-Cash only")
    return args, init_net


def turned(mb: Sample, sym: tuple[np.ndarray, np.ndarray], rng: np.random.Generator) -> Sample:
    """A minibatch with each position and its policy target turned by a random symmetry."""
    n = mb.obs.shape[0]
    g = rng.integers(0, len(sym[0]), n)
    obs = np.take_along_axis(np.asarray(mb.obs).reshape(n, -1, 9), sym[0][g][:, None, :], axis=2)
    policy = np.take_along_axis(np.asarray(mb.policy_tgt), sym[1][g], axis=1)
    return mb._replace(obs=obs.reshape(mb.obs.shape), policy_tgt=policy)


def main(argv: list[str] | None = None) -> int:
    args, init_net = parse_args(argv)
    init_meta = init_net.meta if init_net is not None else None
    start_iteration = frames = 0
    if init_meta is not None:
        start_iteration, frames = int(init_meta["iteration"]), int(init_meta["frames"])
    sym = board_symmetries(args.game) if args.symmetries else None

    env = pv.make(args.game, **GAMES[args.game])
    net = MLP(num_actions=env.num_actions, hidden=args.hidden, layers=args.layers)
    fns = build(env, net, args)
    key = jax.random.PRNGKey(args.seed)
    key, k = jax.random.split(key)
    dummy = jnp.zeros((1, *env.observation_shape), jnp.float32)
    params = net.init(k, dummy)
    if init_net is not None:
        grown = widen(init_net.params, jax.tree.map(np.asarray, params["params"]))
        params = {"params": jax.tree.map(jnp.asarray, grown)}
    opt_state = fns["optimizer"].init(params)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "log.jsonl"
    log_path.write_text("")
    start = time.perf_counter()
    buffer: list[Sample] = []
    rng = np.random.default_rng(args.seed)

    def checkpoint(iteration: int) -> None:
        meta = {
            "game": args.game,
            "options": GAMES[args.game],
            "iteration": iteration,
            "frames": frames,
            "hidden": args.hidden,
            "layers": args.layers,
            "seed": args.seed,
            **({"init": trained_before(init_meta, args.init)} if init_meta else {}),
            "recipe": {
                name: getattr(args, name)
                for name in (
                    "batch",
                    "simulations",
                    "max_steps",
                    "train_batch",
                    "learning_rate",
                    "final_learning_rate",
                    "random_opening",
                    "value_mix",
                    "discount",
                    "replay",
                    "epochs",
                    "symmetries",
                )
            },
        }
        save_params(args.out / f"{iteration:05d}.npz", params["params"], meta)

    checkpoint(start_iteration)
    last = start_iteration + args.iterations
    for iteration in range(start_iteration + 1, last + 1):
        key, k1 = jax.random.split(key)
        data = fns["selfplay"](params, k1)
        samples = jax.device_get(fns["targets"](data))
        flat = Sample(*(np.asarray(x).reshape((-1, *x.shape[2:])) for x in samples))
        frames += flat.obs.shape[0]
        buffer = [*buffer, flat][-args.replay :]
        pool = Sample(*(np.concatenate(x) for x in zip(*buffer, strict=True)))
        size = pool.obs.shape[0]
        pls, vls = [], []
        # Minibatches drawn without replacement, pass after pass over the buffer.
        order = np.empty(0, np.int64)
        for _ in range(updates_per_iteration(args)):
            if order.size < args.train_batch:
                order = np.concatenate([order, rng.permutation(size)])
            rows, order = order[: args.train_batch], order[args.train_batch :]
            mb = Sample(*(x[rows] for x in pool))
            mb = turned(mb, sym, rng) if sym is not None else mb
            mb = Sample(*(jnp.asarray(x) for x in mb))
            params, opt_state, pl, vl = fns["train"](params, opt_state, mb)
            pls.append(float(pl))
            vls.append(float(vl))
        ended = np.asarray(data.terminated)
        games = int(ended.sum())
        draws = int((ended & (np.asarray(data.reward) == 0)).sum())
        entry = {
            "iteration": iteration,
            "frames": frames,
            "games": games,
            "draws": draws,
            "policy_loss": round(float(np.mean(pls)), 4),
            "value_loss": round(float(np.mean(vls)), 4),
            "seconds": round(time.perf_counter() - start, 1),
        }
        print(json.dumps(entry), flush=True)
        with log_path.open("a") as f:
            f.write(json.dumps(entry) + "\n")
        if iteration % args.checkpoint_every == 0 or iteration == last:
            checkpoint(iteration)
    return 0


if __name__ == "__main__":
    sys.exit(main())
