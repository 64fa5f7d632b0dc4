"""Vector speed: steps per second of pocketarena.vector on one CPU core, in the loop a learner
writes (pgx's own), beside pgx's tic-tac-toe, connect-four and othello and OpenSpiel's C++
tic-tac-toe measured in the same run.

    python benchmarks/vector.py                  # the learner's loop, rewrites its section of docs/benchmarks.md
    python benchmarks/vector.py --quick          # smoke run: default variants, batch 1,024, writes nothing
    python benchmarks/vector.py --games flipwars --batches 1024 --runs 5 --no-write
    python benchmarks/vector.py --hash-loop      # the older loop (hash action picker, no observation read)
    python benchmarks/vector.py --hash-loop --why --runs 7   # Coin Age: what that loop's time goes to

The learner's loop (the default) is pgx's: ``jax.lax.fori_loop`` over ``jit(vmap(step))`` where
``step`` is ``pgx.experimental.auto_reset(env.step, env.init)`` (a finished game starts afresh
from ``init`` with a new key), each action drawn by ``jax.random.categorical`` over the log of
the legal mask (``pgx.experimental.act_randomly``), the observation computed every step (the
final batch of states comes out, observations included, so XLA cannot leave any of it out). A figure is steps per second of *CPU time* (``time.process_time``: what this process
used, so other work on a shared machine slows it less than the wall clock): the median of
``--runs`` calls of about ``--seconds`` each, after one untimed call that compiles; every
subject's calls alternate round by round, so load that changes during the run touches all. The
process is pinned to one core and XLA is told to use one thread. The OpenSpiel anchor is
``benchmarks/engine.py``'s loop (legal actions -> random choice -> apply, from Python, C++
underneath).

Beside every subject the table gives *the draw alone* (``draw_loop``: the same loop with no
game, ``act_randomly`` over a mask of as many action ids, at batch 1,024) and the step's own
cost, 1/loop - 1/draw alone: the draw costs per action id (a Gumbel variate for each), so a
game with more ids than othello's 65 starts behind it before its step runs.

The older loop (``--hash-loop``) picks the legal action with the largest hash of a random word
and never reads the observation; it has its own section of docs/benchmarks.md.
"""

from __future__ import annotations

import os

# One core, one thread: set before JAX starts.
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "")
    + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
).strip()
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from datetime import UTC, datetime  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import markdown_section  # noqa: E402  (benchmarks/markdown_section.py, beside this script)
from engine import anchors, cpu_model, pin_to_one_core, playouts  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if (ROOT / "src" / "pocketarena").is_dir():
    sys.path.insert(0, str(ROOT / "src"))  # measure this checkout, not an installed copy

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import pocketarena as pa  # noqa: E402
import pocketarena.vector as pv  # noqa: E402

START = "<!-- vector:start -->"
END = "<!-- vector:end -->"
DEFAULT_OUTPUT = ROOT / "docs" / "benchmarks.md"
BATCHES = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536)
GOAL_RATIO = 2.0  # every game at its best batch size: at least 2x OpenSpiel C++ tic-tac-toe


WHY = (
    "Why, as far as we measured (calls of loops alternated in one process, medians): in "
    "FlipWars standard (batch 256) drawing a uniformly random legal action among 525 ids is a "
    "large share of the loop (the same loop playing the first legal action ran about 1.75× "
    "faster), and computing the observation, the engine's exact float32 tensor of 1,150 "
    "numbers, about a seventh (1.17× faster with a constant one). In Coin Age (batch 1,024 on "
    "each map, `--why`, 7 rounds) the random legal action among 89–95 ids costs less (the "
    "first legal action ran 1.11–1.36× faster) and a constant observation of 340 numbers "
    "gained nothing beyond the noise (0.66–1.05×): the rest is the step's own rules (the "
    "decision, the slaps, the legal mask and the scores, every step). Coin Age's step used to "
    "be 3.7–4.5× slower than that: the shared step rules selected between the stepped and the "
    "old state after the step, and, vmapped, XLA then recomputed the decision's new stacks "
    "inside every entry of the legal mask instead of storing them once; its `_step_where` now "
    "leaves the state as it is by itself where an action does not apply (the other games "
    "gained nothing from that). pgx's tic-tac-toe has 9 actions and 18 observation booleans. "
    "A Stack-a-Cash state also carries the 201 position keys of the repetition rule. The "
    "machine is 2 cores shared with other work (load above): figures move by about a third "
    "between runs, the anchor with them. Not tried yet: a GPU, where a batch spreads this "
    "work over thousands of lanes."
)


@dataclass
class Subject:
    """One environment (ours or pgx's) and its figures by batch size."""

    label: str
    variant: str
    env: Any
    steps_per_s: dict[int, list[float]] = field(default_factory=dict)

    def best(self) -> tuple[int, float]:
        medians = {b: statistics.median(v) for b, v in self.steps_per_s.items()}
        batch = max(medians, key=lambda b: medians[b])
        return batch, medians[batch]


def random_action(key: jax.Array, mask: jax.Array) -> jax.Array:
    """A uniformly random legal action of each game: the legal action with the largest hash of
    (a random word of the game, the action id). One random word per game and a few integer
    operations per action: XLA's cumulative sums and per-action random numbers cost more than
    the steps of small games."""
    seed = jax.random.bits(key, mask.shape[:-1], jnp.uint32)[..., None]
    x = seed ^ (jnp.arange(mask.shape[-1], dtype=jnp.uint32) * jnp.uint32(0x9E3779B9))
    # murmur3's finaliser: every bit of the input moves every bit of the output
    x = (x ^ (x >> 16)) * jnp.uint32(0x85EBCA6B)
    x = (x ^ (x >> 13)) * jnp.uint32(0xC2B2AE35)
    x = x ^ (x >> 16)
    return jnp.argmax(jnp.where(mask, x, jnp.uint32(0)), axis=-1)


# A compiled loop: (key, length) -> the number of games finished.
Loop = Callable[[jax.Array, int], jax.Array]


def first_legal(key: jax.Array, mask: jax.Array) -> jax.Array:
    """The first legal action of each game (``--why``: what the random choice costs)."""
    return jnp.argmax(mask, axis=-1)


def random_loop(
    env: Any, batch: int, choose: Callable[[jax.Array, jax.Array], jax.Array] = random_action
) -> Loop:
    """A compiled function of (key, length): ``length`` steps of ``batch`` games with
    auto-reset, each action drawn by ``choose`` (uniformly random legal ones); returns the
    number of games finished (so nothing is optimised away)."""
    init = jax.vmap(env.init)
    step = jax.vmap(env.step)

    def reset(done: jax.Array, fresh: Any, state: Any) -> Any:
        return jax.tree.map(
            lambda a, b: jnp.where(done.reshape(done.shape + (1,) * (a.ndim - 1)), a, b),
            fresh,
            state,
        )

    @jax.jit
    def run(key: jax.Array, length: jax.Array) -> jax.Array:
        start_key, loop_key = jax.random.split(key)
        # Finished games restart from these (new games of every environment here start alike
        # but for pgx's choice of who goes first, drawn once per call).
        fresh = init(jax.random.split(start_key, batch))

        def one(i: jax.Array, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            state, finished = carry
            act_key, step_key = jax.random.split(jax.random.fold_in(loop_key, i))
            action = choose(act_key, state.legal_action_mask)
            state = step(state, action, jax.random.split(step_key, batch))
            done = state.terminated | state.truncated
            return reset(done, fresh, state), finished + done.sum()

        _, finished = jax.lax.fori_loop(0, length, one, (fresh, jnp.int32(0)))
        return finished

    def call(key: jax.Array, length: int) -> jax.Array:
        return run(key, jnp.int32(length))

    return call


def compiled_length(run: Loop, seconds: float) -> int:
    """Compile ``run``, then the number of steps one call takes about ``seconds`` for."""
    run(jax.random.PRNGKey(0), 4).block_until_ready()  # compiles
    start = time.perf_counter()
    run(jax.random.PRNGKey(1), 16).block_until_ready()
    once = max(time.perf_counter() - start, 1e-6)
    return max(16, min(1 << 20, int(16 * seconds / once)))


def steps_per_s(run: Loop, batch: int, length: int, round_: int) -> float:
    """One timed call of ``length`` steps of ``batch`` games (its key from ``round_``)."""
    start = time.perf_counter()
    run(jax.random.PRNGKey(2 + round_), length).block_until_ready()
    return batch * length / (time.perf_counter() - start)


def measure(subject: Subject, batch: int, seconds: float, runs: int) -> None:
    """Compile, size the loop to about ``seconds``, then time ``runs`` calls."""
    run = random_loop(subject.env, batch)
    length = compiled_length(run, seconds)
    subject.steps_per_s[batch] = [steps_per_s(run, batch, length, r) for r in range(runs)]


def why_loops(map_name: str, batch: int) -> dict[str, Loop]:
    """``--why``: Coin Age's loop as measured and changed in one thing each: the first legal
    action instead of a random one; a constant observation; the step as it was before
    ``_step_where`` (a select between the stepped and the old state after the step)."""
    env = pv.make("coin-age", map=map_name)
    constant = pv.make("coin-age", map=map_name)
    zeros = jnp.zeros(constant.observation_shape, jnp.float32)
    constant.observe = lambda state, seat: zeros  # type: ignore[method-assign]
    before = pv.make("coin-age", map=map_name)
    stepped = type(before)._step_where

    def select_after(state: Any, action: jax.Array, key: jax.Array, applies: jax.Array) -> Any:
        return pv.tree_where(applies, stepped(before, state, action, key, jnp.bool_(True)), state)

    before._step_where = select_after  # type: ignore[method-assign]
    return {
        "as measured": random_loop(env, batch),
        "first legal action": random_loop(env, batch, first_legal),
        "constant observation": random_loop(constant, batch),
        "select after the step (before)": random_loop(before, batch),
    }


def why(maps: list[str], batches: list[int], seconds: float, runs: int) -> None:
    """Alternate calls of ``why_loops`` in this process, ``runs`` rounds; print each loop's
    median steps/s and its ratio to the loop as measured."""
    for map_name in maps:
        for batch in batches:
            loops = why_loops(map_name, batch)
            for run in loops.values():
                run(jax.random.PRNGKey(0), 4).block_until_ready()  # compiles
            length = compiled_length(loops["as measured"], seconds)
            rates: dict[str, list[float]] = {name: [] for name in loops}
            for r in range(runs):
                for name, run in loops.items():
                    rates[name].append(steps_per_s(run, batch, length, r))
            medians = {name: statistics.median(v) for name, v in rates.items()}
            for name, rate in medians.items():
                print(
                    f"coin-age map={map_name} batch {batch:,}: {name:32} {fmt(rate):>12} "
                    f"steps/s  {rate / medians['as measured']:.2f}x",
                    flush=True,
                )


def subjects_for(games: list[str]) -> list[Subject]:
    out = []
    for game_id in pv.games():
        if games and game_id not in games:
            continue
        for options in pa.GAMES[game_id].VARIANTS:
            label = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "default"
            out.append(Subject(game_id, label, pv.make(game_id, **options)))
    return out


def pgx_subject() -> tuple[Subject | None, str | None]:
    try:
        import pgx
    except ImportError as e:
        return None, f"pgx is not installed ({e.name}); install the 'jax' extra for its anchor"
    return Subject("pgx tic-tac-toe", f"pgx {pgx.__version__}", pgx.make("tic_tac_toe")), None


def openspiel_ttt(
    seconds: float, runs: int, cpu_time: bool = False
) -> tuple[float | None, str | None]:
    """OpenSpiel's C++ tic-tac-toe, steps per second of wall (or ``cpu_time``: CPU) time,
    median of ``runs``; or why it is missing."""
    games, note = anchors()
    game = dict(games).get("OpenSpiel C++ tic-tac-toe")
    if game is None:
        return None, note
    rates = []
    for r in range(runs):
        started = time.process_time()
        _, steps, elapsed = playouts(game, "apply_action", seconds, 1000 + r)
        rates.append(steps / (time.process_time() - started if cpu_time else elapsed))
    return statistics.median(rates), None


def fmt(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def render_markdown(
    subjects: list[Subject], anchor: float | None, meta: dict[str, str], notes: list[str]
) -> str:
    batches = sorted({b for s in subjects for b in s.steps_per_s})
    head = ["game", "variant", *[f"{b:,}" for b in batches], "best", "vs C++ ttt", "goal met"]
    lines = [
        START,
        "## Vector environments (JAX), the older loop (hash action picker, no observation read)",
        "",
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}; JAX {jax.__version__}",
        f"- Machine: {meta['machine']}",
        f"- Method: {meta['method']}",
        f"- Goal: at its best batch size every game steps at least {GOAL_RATIO:g}× OpenSpiel's "
        "C++ tic-tac-toe per core.",
        "",
        "| " + " | ".join(head) + " |",
        "| --- | --- | " + " | ".join("---:" for _ in batches) + " | ---: | ---: | :---: |",
    ]
    for s in subjects:
        cells = [
            fmt(statistics.median(s.steps_per_s[b])) if b in s.steps_per_s else "-" for b in batches
        ]
        batch, best = s.best()
        ratio = f"{best / anchor:.2f}×" if anchor else "n/a"
        if s.label.startswith("pgx"):
            met = "anchor"
        else:
            met = "yes" if anchor and best >= GOAL_RATIO * anchor else "no"
        lines.append(
            f"| {s.label} | {s.variant} | "
            + " | ".join(cells)
            + f" | {fmt(best)} at {batch:,} | {ratio} | {met} |"
        )
    lines.append("")
    if anchor is not None:
        lines.append(
            f"Anchor, same run: OpenSpiel C++ tic-tac-toe, {fmt(anchor)} steps/s "
            "(benchmarks/engine.py's loop: one game at a time from Python)."
        )
    missed = [
        f"{s.label} {s.variant} {s.best()[1] / anchor:.2f}×"
        for s in subjects
        if anchor and not s.label.startswith("pgx") and s.best()[1] < GOAL_RATIO * anchor
    ]
    if missed:
        lines += [
            "",
            f"Goal missed in this run by: {'; '.join(missed)} (goal {GOAL_RATIO:g}×). " + WHY,
        ]
    lines += [f"{note}" for note in notes]
    lines.append(END)
    return "\n".join(lines)


# -- the learner's loop (the default) -------------------------------------------------------------
LEARNER_START = "<!-- vector-learner:start -->"
LEARNER_END = "<!-- vector-learner:end -->"
LEARNER_BATCHES = (1, 64, 1024)
GOAL_BATCH = 1024  # the goal: every game at least 1.0x pgx's othello here
PGX_GAMES = (
    ("pgx tic-tac-toe", "tic_tac_toe"),
    ("pgx connect-four", "connect_four"),
    ("pgx othello", "othello"),
)
ANCHOR = "pgx othello"


def learner_loop(env: Any, batch: int) -> Callable[[jax.Array, int], Any]:
    """pgx's loop as a compiled function of (key, length): ``length`` steps of ``batch`` games,
    each action drawn by ``act_randomly`` over the legal mask, finished games reset by
    ``auto_reset`` with ``init``; returns the final batch of states (observations included)."""
    from pgx.experimental import act_randomly, auto_reset

    init = jax.vmap(env.init)
    step = jax.vmap(auto_reset(env.step, env.init))

    @jax.jit
    def run(key: jax.Array, length: jax.Array) -> Any:
        key, sub = jax.random.split(key)
        state = init(jax.random.split(sub, batch))

        def one(i: jax.Array, carry: tuple[Any, jax.Array]) -> tuple[Any, jax.Array]:
            state, key = carry
            key, pick, chance = jax.random.split(key, 3)
            action = act_randomly(pick, state.legal_action_mask)
            return step(state, action, jax.random.split(chance, batch)), key

        state, _ = jax.lax.fori_loop(0, length, one, (state, key))
        return state

    return lambda key, length: run(key, jnp.int32(length))


def draw_loop(num_actions: int, batch: int) -> Callable[[jax.Array, int], Any]:
    """The learner's loop with no game: the same keys split and the same ``act_randomly`` over
    a mask of ``num_actions`` ids (one of them legal or not by the last draw, so nothing is
    folded away), the action summed into the carry. What the loop costs before any ``step``: a
    game of that many action ids can never step faster than this in the loop."""
    from pgx.experimental import act_randomly

    ids = jnp.arange(num_actions)

    @jax.jit
    def run(key: jax.Array, length: jax.Array) -> Any:
        def one(i: jax.Array, carry: tuple[jax.Array, jax.Array]) -> tuple[jax.Array, jax.Array]:
            total, key = carry
            key, pick, chance = jax.random.split(key, 3)
            mask = (ids[None, :] != 0) | (total[:, None] % 2 == 0)
            keys = jax.vmap(lambda k: jax.random.split(k)[0])(jax.random.split(chance, batch))
            return total + act_randomly(pick, mask) + keys[:, 0].astype(jnp.int32) % 2, key

        return jax.lax.fori_loop(0, length, one, (jnp.zeros(batch, jnp.int32), key))[0]

    return lambda key, length: run(key, jnp.int32(length))


DRAW = "the draw alone"  # label of draw_loop's subjects


@dataclass
class Timed:
    """One subject at one batch size: its compiled loop, the loop's length and its rates."""

    label: str
    variant: str
    batch: int
    run: Callable[[jax.Array, int], Any]
    length: int = 0
    rates: list[float] = field(default_factory=list)

    def median(self) -> float:
        return statistics.median(self.rates)


def cpu_call(run: Callable[[jax.Array, int], Any], key: int, length: int) -> float:
    """CPU seconds of one call."""
    start = time.process_time()
    jax.block_until_ready(run(jax.random.PRNGKey(key), length))
    return time.process_time() - start


def learner_subjects(games: list[str], variants: str) -> list[tuple[str, str, Any]]:
    """(label, variant, env) of our games (every variant, or each game's first) and pgx's."""
    import pgx

    out: list[tuple[str, str, Any]] = []
    for game_id in pv.games():
        if games and game_id not in games:
            continue
        options_list = pa.GAMES[game_id].VARIANTS
        if variants == "first":
            options_list = options_list[:1]
        for options in options_list:
            label = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items()) or "default"
            out.append((game_id, label, pv.make(game_id, **options)))
    for label, env_id in PGX_GAMES:
        out.append((label, f"pgx {pgx.__version__}", pgx.make(env_id)))
    return out


def shape_of(env: Any) -> str:
    """The observation's shape and dtype and the number of actions, e.g. ``(8, 8, 2) bool, 65``."""
    state = jax.eval_shape(env.init, jax.random.PRNGKey(0))
    obs = state.observation
    return f"{tuple(obs.shape)} {obs.dtype}, {state.legal_action_mask.shape[-1]}"


def learner_measure(
    subjects: list[tuple[str, str, Any]], batches: list[int], seconds: float, runs: int
) -> list[Timed]:
    """Compile every (subject, batch), size each loop to about ``seconds`` of CPU, then time
    ``runs`` rounds, each round one call of every loop in turn. The draw alone over each
    subject's number of action ids (``draw_loop``) is measured with them at ``GOAL_BATCH``."""
    loops: list[tuple[str, str, int, Callable[[jax.Array, int], Any]]] = []
    for label, variant, env in subjects:
        loops += [(label, variant, batch, learner_loop(env, batch)) for batch in batches]
    if GOAL_BATCH in batches:
        for n in sorted({env.num_actions for _, _, env in subjects}):
            loops.append((DRAW, str(n), GOAL_BATCH, draw_loop(n, GOAL_BATCH)))
    timed = []
    for label, variant, batch, loop in loops:
        t = Timed(label, variant, batch, loop)
        jax.block_until_ready(t.run(jax.random.PRNGKey(0), 4))  # compiles
        once = max(cpu_call(t.run, 1, 16), 1e-6)
        t.length = max(16, min(1 << 20, int(16 * seconds / once)))
        timed.append(t)
        print(f"compiled {label} {variant} batch {batch:,}", file=sys.stderr, flush=True)
    for r in range(runs):
        for t in timed:
            t.rates.append(t.batch * t.length / max(cpu_call(t.run, 2 + r, t.length), 1e-9))
        print(f"round {r + 1} of {runs} done", file=sys.stderr, flush=True)
    return timed


OTHELLO_ACTIONS = 65


def own_cost(loop: float | None, draw: float | None) -> float | None:
    """Microseconds a step costs beyond the draw: 1/loop - 1/draw alone (steps/s both)."""
    if not loop or not draw:
        return None
    return 1e6 / loop - 1e6 / draw


def render_learner(
    timed: list[Timed],
    shapes: dict[str, str],
    anchor: float | None,
    meta: dict[str, str],
    notes: list[str],
) -> str:
    draws = {int(t.variant): t.median() for t in timed if t.label == DRAW}
    timed = [t for t in timed if t.label != DRAW]
    batches = sorted({t.batch for t in timed})
    by: dict[tuple[str, str], dict[int, float]] = {}
    for t in timed:
        by.setdefault((t.label, t.variant), {})[t.batch] = t.median()
    othello = by.get((ANCHOR, next((v for (lab, v) in by if lab == ANCHOR), "")), {})
    othello_own = own_cost(othello.get(GOAL_BATCH), draws.get(OTHELLO_ACTIONS))
    head = ["game", "variant", "observation, actions"]
    head += [f"{b:,}" for b in batches] + [f"vs othello at {b:,}" for b in batches]
    head += [f"goal (≥1.0× at {GOAL_BATCH:,})"]
    if draws:
        head += [
            f"the draw alone at {GOAL_BATCH:,}",
            f"step's own µs at {GOAL_BATCH:,} (vs othello's)",
        ]
    lines = [
        LEARNER_START,
        "## Vector environments (JAX) in a learner's loop: steps per second of CPU time, one core",
        "",
        f"- Command: `{meta['command']}`",
        f"- Date: {meta['date']}; JAX {jax.__version__}",
        f"- Machine: {meta['machine']}",
        f"- Method: {meta['method']}",
        f"- Goal: at batch {GOAL_BATCH:,} every game steps at least as fast as pgx's othello "
        "in the same run (ratios of medians).",
        "",
        "| " + " | ".join(head) + " |",
        "| --- | --- | --- | "
        + " | ".join("---:" for _ in batches * 2)
        + " | :---: |"
        + (" ---: | ---: |" if draws else ""),
    ]
    for (label, variant), rates in by.items():
        cells = [fmt(rates[b]) if b in rates else "-" for b in batches]
        ratios = [
            f"{rates[b] / othello[b]:.2f}×" if b in rates and othello.get(b) else "n/a"
            for b in batches
        ]
        if label.startswith("pgx"):
            met = "anchor" if label == ANCHOR else "-"
        elif GOAL_BATCH in rates and othello.get(GOAL_BATCH):
            met = "yes" if rates[GOAL_BATCH] >= othello[GOAL_BATCH] else "no"
        else:
            met = "n/a"
        extra = ""
        if draws:
            actions = int(shapes[label + variant].rpartition(", ")[2])
            draw = draws.get(actions)
            own = own_cost(rates.get(GOAL_BATCH), draw)
            vs = f" ({own / othello_own:.2f}×)" if own and othello_own else ""
            extra = f" {fmt(draw) if draw else '-'} | {f'{own:.2f}{vs}' if own else '-'} |"
        lines.append(
            f"| {label} | {variant} | {shapes[label + variant]} | "
            + " | ".join(cells + ratios)
            + f" | {met} |"
            + extra
        )
    lines.append("")
    if draws:
        lines.append(
            f"*The draw alone*: the same loop with no game, only the keys split and "
            f"`act_randomly` over a mask of as many ids, steps/s at {GOAL_BATCH:,}: no game "
            "with that many action ids steps faster in this loop. *Step's own µs*: "
            "1/loop - 1/draw alone, per game and step, what `init`, `step`, the observation "
            "and `auto_reset` cost beyond the draw."
        )
        lines.append("")
    if anchor is not None:
        lines.append(
            f"OpenSpiel C++ tic-tac-toe, same run: {fmt(anchor)} steps/s of CPU time "
            "(benchmarks/engine.py's loop: one game at a time from Python)."
        )
    lines += notes
    lines.append(LEARNER_END)
    return "\n".join(lines)


def run_meta(
    argv: list[str] | None, began: float, load: tuple[float, ...], method: str
) -> dict[str, str]:
    """The command, date, machine and ``method`` lines of a section."""
    minutes = (time.perf_counter() - began) / 60
    command = "python benchmarks/vector.py" + (" " + " ".join(argv or sys.argv[1:])).rstrip()
    return {
        "command": command.strip(),
        "date": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ") + f"; {minutes:.0f} minutes",
        "machine": f"{cpu_model()}, {os.cpu_count()} logical CPUs; load average "
        f"{load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} when the run began",
        "method": method,
    }


def learner_main(args: argparse.Namespace, argv: list[str] | None) -> int:
    batches = [GOAL_BATCH] if args.quick else [int(b) for b in args.batches.split(",")]
    seconds = 0.2 if args.quick else args.seconds
    runs = 1 if args.quick else args.runs
    pinned = pin_to_one_core(args.cpu)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    variants = "first" if args.quick else args.variants
    subjects = learner_subjects([g for g in args.games.split(",") if g], variants)
    shapes = {label + variant: shape_of(env) for label, variant, env in subjects}
    began = time.perf_counter()
    timed = learner_measure(subjects, batches, seconds, runs)
    anchor, note = openspiel_ttt(seconds, runs, cpu_time=True)
    for t in timed:
        print(f"{t.label:16} {t.variant:40} batch {t.batch:>6,}: {fmt(t.median()):>12} steps/s")
    meta = run_meta(
        argv,
        began,
        load,
        f"{pinned}, XLA on one thread; pgx's loop (`act_randomly` over the mask, "
        "`auto_reset` with `init`, observations computed, `fori_loop` over `jit(vmap(step))`); "
        f"median of {runs} calls of about {seconds:g} s of CPU each after one that compiles, "
        "every subject's calls alternating round by round",
    )
    section = render_learner(timed, shapes, anchor, meta, [note] if note else [])
    print(section)
    if not (args.quick or args.no_write):
        markdown_section.write_section(args.output, section, LEARNER_START, LEARNER_END)
        print(f"wrote {args.output}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batches", default=None, help="comma-separated batch sizes")
    parser.add_argument(
        "--hash-loop",
        action="store_true",
        help="the older loop (hash action picker, no observation read) and its own section",
    )
    parser.add_argument(
        "--variants", choices=("all", "first"), default="all", help="every variant or the first"
    )
    parser.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed call")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=None, help="the core to pin to")
    parser.add_argument("--quick", action="store_true", help="batches 1 and 1024, writes nothing")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    parser.add_argument("--no-write", action="store_true")
    parser.add_argument(
        "--why",
        action="store_true",
        help="Coin Age's reasons instead: its loop beside one changed thing at a time, calls "
        "alternated in one process (every map, batch 1,024 unless --batches); writes nothing",
    )
    args = parser.parse_args(argv)
    if not args.hash_loop and not args.why:
        args.batches = args.batches or ",".join(map(str, LEARNER_BATCHES))
        return learner_main(args, argv)
    args.batches = args.batches or ",".join(map(str, BATCHES))
    if args.why:
        pinned = pin_to_one_core(args.cpu)
        print(pinned)
        chosen = [1024] if "--batches" not in (argv or sys.argv) else None
        batches = chosen or [int(b) for b in args.batches.split(",")]
        maps = [str(o["map"]) for o in pa.GAMES["coin-age"].VARIANTS]
        why(maps, batches, args.seconds, args.runs)
        return 0
    batches = [1, 1024] if args.quick else [int(b) for b in args.batches.split(",")]
    seconds = 0.1 if args.quick else args.seconds
    runs = 1 if args.quick else args.runs
    pinned = pin_to_one_core(args.cpu)
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    subjects = subjects_for([g for g in args.games.split(",") if g])
    notes = []
    ttt, note = pgx_subject()
    if ttt is not None:
        subjects.append(ttt)
    elif note:
        notes.append(note)
    began = time.perf_counter()
    anchor_rates: list[float] = []
    for subject in subjects:
        for batch in batches:
            measure(subject, batch, seconds, runs)
            print(
                f"{subject.label:15} {subject.variant:32} batch {batch:>6,}: "
                f"{fmt(statistics.median(subject.steps_per_s[batch])):>12} steps/s",
                flush=True,
            )
        # The anchor between subjects, so load that changes during the run touches both.
        rate, note = openspiel_ttt(seconds, 1)
        if rate is not None:
            anchor_rates.append(rate)
        elif note and note not in notes:
            notes.append(note)
    anchor = statistics.median(anchor_rates) if anchor_rates else None
    if anchor:
        print(f"OpenSpiel C++ tic-tac-toe: {fmt(anchor)} steps/s")
    meta = run_meta(
        argv,
        began,
        load,
        f"{pinned}, XLA on one thread; median of {runs} timed calls of about "
        f"{seconds:g} s each after one that compiles; random legal actions, auto-reset; "
        f"the anchor measured {len(anchor_rates)} times between the subjects, median",
    )
    section = render_markdown(subjects, anchor, meta, notes)
    print(section)
    if not (args.quick or args.no_write):
        markdown_section.write_section(args.output, section, START, END)
        print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    markdown_section.run(main)
