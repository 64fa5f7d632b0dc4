"""The PettingZoo adapter: PettingZoo's api_test for every game and VARIANT, seeded chance,
rewards, illegal actions and rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import pocketarena as pa
from pocketarena.interop.pettingzoo import env, raw_env
from pocketarena.observe import observation_shape, observation_tensor
from tests.conftest import all_variants, variant_id
from tests.interop.conftest import assert_worded_in_every_language

VARIANTS = all_variants()


def play(arena: Any, seed: int, policy_seed: int) -> tuple[list[int], dict[str, float]]:
    """Play a whole game with masked random actions; the actions and the final rewards."""
    arena.reset(seed=seed)
    rng = np.random.default_rng(policy_seed)
    actions: list[int] = []
    totals = {agent: 0.0 for agent in arena.possible_agents}
    for agent in arena.agent_iter():
        observation, reward, terminated, truncated, _ = arena.last()
        totals[agent] += reward
        if terminated or truncated:
            arena.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        arena.step(action)
    return actions, totals


# api_test exempts PettingZoo's own games with {"observation", "action_mask"} dicts from these
# two notes by name only; ours have the same (recommended) shape.
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_api_test(variant: tuple[str, dict[str, Any]]) -> None:
    game_id, options = variant
    api_test(env(game_id, **options), num_cycles=200)


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_a_whole_game(game_id: str) -> None:
    arena = env(game_id)
    actions, totals = play(arena, seed=4, policy_seed=0)
    state = arena.unwrapped.state
    assert state.is_terminal()
    assert [totals["player_0"], totals["player_1"]] == list(state.returns())
    # The decisions played are the engine's history minus the coins the environment threw.
    decisions = [a.id for a in state.history if not a.chance]
    assert decisions == actions
    assert [a.text for a in state.history if a.chance] == arena.unwrapped.thrown


@pytest.mark.parametrize("game_id", [g for g in sorted(pa.GAMES) if pa.GAMES[g].CHANCE])
def test_a_seed_replays_the_coins(game_id: str) -> None:
    first = env(game_id)
    second = env(game_id)
    assert play(first, seed=9, policy_seed=1) == play(second, seed=9, policy_seed=1)
    assert first.unwrapped.thrown == second.unwrapped.thrown
    other = env(game_id)
    play(other, seed=10, policy_seed=1)
    assert other.unwrapped.thrown != first.unwrapped.thrown


def test_observations_are_per_agent() -> None:
    arena = env("stack-a-cash")
    arena.reset(seed=0)
    arena.step(pa.load("stack-a-cash").parse_action("place L b2").id)
    state = arena.unwrapped.state
    mover = arena.observe("player_1")
    waiting = arena.observe("player_0")
    assert np.array_equal(mover["observation"], observation_tensor(state, 1))
    assert np.array_equal(waiting["observation"], observation_tensor(state, 0))
    assert mover["action_mask"].sum() == len(state.legal_actions())
    assert not waiting["action_mask"].any()
    assert arena.observation_space("player_0")["observation"].shape == observation_shape(state.game)
    assert arena.unwrapped.seats == {"player_0": "Heads", "player_1": "Tails"}


def test_an_illegal_action_ends_the_game_with_a_penalty() -> None:
    arena = env("stack-a-cash")
    arena.reset(seed=0)
    arena.step(4)  # place L b2
    arena.step(27 + 4)  # flip b2: protected
    assert all(arena.terminations.values())
    assert arena._cumulative_rewards["player_1"] == -1
    assert arena._cumulative_rewards["player_0"] == 0


def test_raw_env_refuses_an_illegal_action_clearly() -> None:
    arena = raw_env("stack-a-cash")
    arena.reset(seed=0)
    with pytest.raises(ValueError, match="'flip b2' is not legal now"):
        arena.step(27 + 4)
    with pytest.raises(ValueError, match="out of range: Stack-a-Cash decisions are 0..179"):
        arena.step(180)
    assert arena.unwrapped.state.ply == 0


def test_render_modes() -> None:
    arena = env("coin-age", render_mode="ansi", map="mint-isle")
    arena.reset(seed=2)
    assert arena.render() == str(arena.unwrapped.state)
    svg = env("stack-a-cash", render_mode="svg")
    svg.reset(seed=2)
    assert svg.render().startswith("<svg")
    with pytest.raises(ValueError, match="render_mode must be one of ansi"):
        env("stack-a-cash", render_mode="rgb_array")


def test_bad_game_or_option() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        env("chess")
    with pytest.raises(ValueError, match="unknown option 'mode'"):
        env("stack-a-cash", mode="fast")


def _stepped(action: int, game: str = "stack-a-cash", **kwargs: Any) -> Any:
    arena = raw_env(game, **kwargs)
    arena.reset(seed=0)
    return lambda: arena.step(action)


REFUSALS = {
    "fixed_actions": lambda: env("stack-a-cash", fixed_actions="yes"),
    "cycle": lambda: env("stack-a-cash", cycle=1),
    "unknown game": lambda: env("chess"),
    "unknown option": lambda: env("stack-a-cash", mode="fast"),
    "not legal now": lambda: _stepped(27 + 4)(),
    "padding": lambda: _stepped(94, "coin-age", fixed_actions=True)(),  # past classic's 93
    "out of range": lambda: _stepped(1000)(),
}


@pytest.mark.parametrize("case", REFUSALS)
def test_a_refusal_is_a_message_worded_in_every_language(case: str) -> None:
    """As the Gymnasium adapter's: a ``Refusal`` with a message id, English in ``str``, each
    language's catalog wording it."""
    with pytest.raises(ValueError) as caught:
        REFUSALS[case]()
    assert_worded_in_every_language(caught.value)
