"""The Gymnasium adapter: registered ids, Gymnasium's env checker for every game and VARIANT,
whole episodes against a bot, illegal actions, seeds and seats."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.interop.gymnasium import ENV_IDS, env_id
from pocketarena.observe import observation_tensor
from tests.conftest import all_variants, variant_id
from tests.interop.conftest import assert_worded_in_every_language

VARIANTS = all_variants()
# Subprocesses run this checkout's code, as pytest does.
CHECKOUT_ENV = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2] / "src")}


def episode(env: Any, seed: int) -> tuple[list[int], float, dict[str, Any]]:
    """Masked random actions to the end: the actions, the reward sum and the last info."""
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)
    actions: list[int] = []
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        actions.append(action)
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        assert not truncated
        if terminated:
            return actions, total, info


def test_every_game_is_registered() -> None:
    assert [f"pocketarena/{g}-v0" for g in sorted(pa.GAMES)] == ENV_IDS
    assert all(name in gymnasium.registry for name in ENV_IDS)


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_check_env(variant: tuple[str, dict[str, Any]]) -> None:
    game_id, options = variant
    env = gymnasium.make(env_id(game_id), opponent="random", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no checker warning either
        check_env(env.unwrapped)


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_a_whole_episode_against_greedy(game_id: str) -> None:
    env = gymnasium.make(env_id(game_id), opponent="greedy", seat=1)
    actions, total, info = episode(env, seed=3)
    state = env.unwrapped.state
    assert state.is_terminal() and info["returns"] == state.returns()
    assert total == state.returns()[1] and info["winner"] == state.winner()
    assert decisions_of(state, 1) == actions


def decisions_of(state: pa.State, seat: int) -> list[int]:
    """The ids of the decisions ``seat`` made in ``state``'s history (replayed)."""
    replay = state.game.new_initial_state()
    out = []
    for action in state.history:
        if replay.current_player == seat:
            out.append(action.id)
        replay.apply(action)
    return out


def test_observation_and_mask_are_the_agents() -> None:
    env = gymnasium.make(env_id("wallet-battles"), opponent="random", seat=1, map="antietam")
    observation, info = env.reset(seed=5)
    state = env.unwrapped.state
    assert state.current_player == 1
    assert np.array_equal(observation, observation_tensor(state, 1))
    assert info["action_mask"].sum() == len(state.legal_actions())
    assert info["seat"] == 1 and all(isinstance(text, str) for text in info["history"])
    assert env.action_space.n == state.game.num_decisions


def test_a_seed_replays_the_episode() -> None:
    first = gymnasium.make(env_id("coin-age"), opponent="greedy")
    second = gymnasium.make(env_id("coin-age"), opponent="greedy")
    assert episode(first, 21)[:2] == episode(second, 21)[:2]
    assert first.unwrapped.state.history == second.unwrapped.state.history


def test_an_illegal_action_ends_the_episode() -> None:
    env = gymnasium.make(env_id("stack-a-cash"), opponent="random", illegal_reward=-2.0)
    _, info = env.reset(seed=0)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    ply = env.unwrapped.state.ply
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (-2.0, True, False)
    assert info["illegal_action"] and not info["action_mask"].any()
    assert env.unwrapped.state.ply == ply  # nothing was played
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)
    with pytest.raises(ValueError, match="out of range"):
        env.reset(seed=0)
        env.step(10_000)


def test_random_seat_gives_both_seats() -> None:
    env = gymnasium.make(env_id("stack-a-cash"), opponent="random", seat="random")
    seats = {env.reset(seed=s)[1]["seat"] for s in range(12)}
    assert seats == {0, 1}


def test_a_bot_object_as_opponent() -> None:
    game = pa.load("stack-a-cash", protect="placed")
    bot = make_bot("greedy", game)
    env = gymnasium.make(env_id("stack-a-cash"), opponent=bot, protect="placed")
    episode(env, 2)
    assert env.unwrapped.bot is bot
    with pytest.raises(ValueError, match="the opponent plays"):
        gymnasium.make(env_id("stack-a-cash"), opponent=bot)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"opponent": "nobody"}, "unknown bot 'nobody'"),
        ({"seat": 2}, "seat must be 0, 1, 'random' or 'alternate'"),
        ({"protect": "never"}, "choose one of: touched, placed"),
        ({"render_mode": "human"}, "render_mode must be one of ansi, svg"),
    ],
)
def test_bad_arguments_say_what_is_wrong(kwargs: dict[str, Any], message: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's own note about an unknown render mode
        with pytest.raises(ValueError, match=message):
            gymnasium.make(env_id("stack-a-cash"), **kwargs)


def _refused(call: Any) -> ValueError:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gymnasium's own note about an unknown render mode
        with pytest.raises(ValueError) as caught:
            call()
    return caught.value


def _stepped(action: object) -> Any:
    env = gymnasium.make(env_id("stack-a-cash"), opponent="random")
    env.reset(seed=0)
    return lambda: env.step(action)


REFUSALS = {
    "opponent": lambda: gymnasium.make(
        env_id("stack-a-cash"),
        opponent=make_bot("greedy", pa.load("stack-a-cash", protect="placed")),
    ),
    "unknown bot": lambda: gymnasium.make(env_id("stack-a-cash"), opponent="nobody"),
    "seat": lambda: gymnasium.make(env_id("stack-a-cash"), seat=2),
    "fixed_actions": lambda: gymnasium.make(env_id("stack-a-cash"), fixed_actions="yes"),
    "render_mode": lambda: gymnasium.make(env_id("stack-a-cash"), render_mode="human"),
    "reset options": lambda: gymnasium.make(env_id("stack-a-cash")).reset(options={"foo": 1}),
    "not an id": lambda: _stepped("place L b2")(),
    "out of range": lambda: _stepped(10_000)(),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refusal_is_a_message_worded_in_every_language(case: str) -> None:
    """The adapter refuses as the engine does (``Refusal``: a message id and parameters, the
    English in ``str``), so each language's catalog words it, as ``UnknownBotError``'s."""
    assert_worded_in_every_language(_refused(REFUSALS[case]))


def run_fresh(code: str) -> str:
    """What ``code`` prints in a fresh interpreter running this checkout."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
        env=CHECKOUT_ENV,
    )
    return result.stdout.strip()


def test_make_without_importing_the_adapter() -> None:
    """Gymnasium 1.x has no plug-in entry points; the module-qualified id imports it."""
    code = (
        "import gymnasium\n"
        "env = gymnasium.make('pocketarena.interop.gymnasium:pocketarena/stack-a-cash-v0')\n"
        "observation, info = env.reset(seed=1)\n"
        "print(observation.shape)\n"
    )
    assert run_fresh(code) == "(16, 3, 3)"


def test_the_core_package_does_not_import_the_rl_libraries() -> None:
    code = (
        "import sys, pocketarena, pocketarena.observe, pocketarena.bots\n"
        "print(sorted(m for m in ('pyspiel', 'pettingzoo', 'gymnasium') if m in sys.modules))\n"
    )
    assert run_fresh(code) == "[]"


def test_each_adapter_imports_only_its_library() -> None:
    code = (
        "import sys, pocketarena.interop.gymnasium\n"
        "print(sorted(m for m in ('pyspiel', 'pettingzoo') if m in sys.modules))\n"
    )
    assert run_fresh(code) == "[]"
