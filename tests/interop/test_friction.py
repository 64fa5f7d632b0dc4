"""The research interfaces as researchers use them: each friction point found with real
libraries (sb3-contrib's MaskablePPO, PettingZoo's conversions) is gone. Trains nothing heavy:
MaskablePPO runs a few hundred steps."""

from __future__ import annotations

import importlib.util
from typing import Any

import gymnasium
import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test
from pettingzoo.utils.conversions import aec_to_parallel, turn_based_aec_to_parallel

import pocketarena as pa
from pocketarena.core import TERMINAL
from pocketarena.interop._common import action_mask, max_decisions
from pocketarena.interop.gymnasium import env_id
from pocketarena.interop.pettingzoo import env as pz_env
from pocketarena.interop.pettingzoo import raw_env
from pocketarena.interop.policy import PolicyBot
from tests.conftest import all_variants
from tests.services import unavailable

ONE_OF_EACH = {"Q": 1, "N": 1, "P": 1, "D": 1}


def every_setting(game_id: str) -> list[dict[str, Any]]:
    """Every VARIANT of the game and every choice of each finite option on its own."""
    settings = [dict(options) for gid, options in all_variants() if gid == game_id]
    for option in pa.GAMES[game_id].OPTIONS:
        for choice in option.choices or ():
            settings.append({option.name: choice, **({"seed": 3} if choice == "random" else {})})
    return settings


def needs_sb3_contrib() -> None:
    if importlib.util.find_spec("sb3_contrib") is None:
        unavailable("sb3-contrib is not installed: pip install -e '.[train]'")


# -- 1. MaskablePPO on the env as it is -----------------------------------------------------
@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_action_masks_is_the_info_mask(game_id: str) -> None:
    env = gymnasium.make(env_id(game_id), opponent="random")
    _, info = env.reset(seed=1)
    for _ in range(3):
        masks = env.unwrapped.action_masks()
        assert masks.dtype == np.bool_ and np.array_equal(masks, info["action_mask"] == 1)
        assert masks.sum() == len(env.unwrapped.state.legal_actions()) > 0
        _, _, terminated, _, info = env.step(int(np.flatnonzero(masks)[0]))
        if terminated:
            break


def test_action_masks_is_empty_after_an_illegal_action() -> None:
    env = gymnasium.make(env_id("stack-a-cash"), opponent="random")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"] == 0)[0]))
    assert not env.unwrapped.action_masks().any()


def test_maskable_ppo_learns_on_the_env_unwrapped() -> None:
    """sb3-contrib finds ``action_masks()`` through gymnasium.make's wrappers by itself."""
    needs_sb3_contrib()
    import torch
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = gymnasium.make(env_id("wallet-battles"), opponent="random", seat="alternate")
    model = MaskablePPO(
        "MlpPolicy", env, n_steps=128, batch_size=64, n_epochs=2, seed=0, device="cpu"
    )
    model.learn(384)
    assert model.num_timesteps >= 384
    # The trained policy plays whole games as a Bot, in the opponent's seat of another env.
    game = env.unwrapped.game
    bot = PolicyBot.from_model(game, model)
    arena = gymnasium.make(env_id("wallet-battles"), opponent=bot, seat=1)
    _, info = arena.reset(seed=4)
    terminated = False
    while not terminated:
        action = int(np.flatnonzero(info["action_mask"])[0])
        _, _, terminated, _, info = arena.step(action)
    state = arena.unwrapped.state
    assert state.is_terminal() and any(state.current_player == 0 for state in replay(state))


def replay(state: pa.State) -> list[pa.State]:
    """The states of ``state``'s game, from the first."""
    out = [state.game.new_initial_state()]
    for action in state.history:
        out.append(out[-1].child(action))
    return out


# -- 2. Wallet Battles reset() always gives the agent a decision -----------------------------
@pytest.mark.parametrize(
    "options", [{"coins": ONE_OF_EACH}, {"coins": ONE_OF_EACH, "map": "antietam"}, {}]
)
def test_reset_never_returns_a_finished_game(options: dict[str, Any]) -> None:
    env = gymnasium.make(env_id("wallet-battles"), opponent="random", seat="random", **options)
    base = env.unwrapped
    for seed in range(2000 if options else 500):
        _, info = env.reset(seed=seed)
        assert base.state.current_player == info["seat"] == base.seat, seed
        assert info["action_mask"].any() and "winner" not in info
    if options:  # one coin of each kind: the bot and the coins often end a game at once
        assert base.discarded > 20
    # A seed still replays the episode exactly, discarded games included.
    env.reset(seed=77)
    again = gymnasium.make(env_id("wallet-battles"), opponent="random", seat="random", **options)
    again.reset(seed=77)
    assert again.unwrapped.state.history == base.state.history


# -- 3. PettingZoo: aec_to_parallel, self-play --------------------------------------------------
def test_the_turn_based_env_says_it_is_not_parallelizable() -> None:
    arena = pz_env("stack-a-cash")
    assert arena.metadata["is_parallelizable"] is False
    parallel = turn_based_aec_to_parallel(arena)
    observations, _ = parallel.reset(seed=0)
    assert set(observations) == {"player_0", "player_1"}


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_aec_to_parallel_plays_whole_games(game_id: str) -> None:
    arena = pz_env(game_id, cycle=True)
    assert arena.metadata["is_parallelizable"] is True
    parallel = aec_to_parallel(arena)
    rng = np.random.default_rng(0)
    for seed in range(3):
        observations, _ = parallel.reset(seed=seed)
        totals = dict.fromkeys(parallel.possible_agents, 0.0)
        while parallel.agents:
            to_move = [a for a in parallel.agents if observations[a]["action_mask"].any()]
            assert len(to_move) == 1  # one agent decides in each cycle
            actions = {agent: 0 for agent in parallel.agents}  # the waiting one's is ignored
            actions[to_move[0]] = int(
                rng.choice(np.flatnonzero(observations[to_move[0]]["action_mask"]))
            )
            observations, rewards, _, _, _ = parallel.step(actions)
            for agent, reward in rewards.items():
                totals[agent] += reward
        state = parallel.unwrapped.state
        assert state.current_player == TERMINAL
        assert [totals["player_0"], totals["player_1"]] == list(state.returns())
        assert [a.text for a in state.history if a.chance] == parallel.unwrapped.thrown


@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_pettingzoo_api_tests_in_cycles(game_id: str) -> None:
    api_test(pz_env(game_id, cycle=True), num_cycles=200)
    parallel_api_test(aec_to_parallel(pz_env(game_id, cycle=True)), num_cycles=200)


def test_an_illegal_action_in_a_cycle_ends_the_game() -> None:
    arena = raw_env("stack-a-cash", cycle=True)
    arena.reset(seed=0)
    illegal = int(np.flatnonzero(arena.observe("player_0")["action_mask"] == 0)[0])
    arena.step(illegal)  # player_0 is to move: this is its forfeit
    assert not arena.observe("player_0")["action_mask"].any()
    arena.step(5)  # player_1 waits; the cycle ends with the forfeit
    assert arena.terminations == {"player_0": True, "player_1": True}
    assert arena._cumulative_rewards == {"player_0": -1.0, "player_1": 0.0}
    assert arena.infos["player_0"]["illegal_action"] and arena.state.ply == 0


def test_a_trained_policy_as_an_opponent_in_self_play() -> None:
    """A policy (here: the first legal action) plays one seat of the AEC env through a Bot."""
    arena = pz_env("coin-age")
    game = arena.unwrapped.game
    frozen = PolicyBot(game, lambda observation, mask: int(np.flatnonzero(mask)[-1]))
    arena.reset(seed=2)
    rng = np.random.default_rng(2)
    for agent in arena.agent_iter():
        observation, _, terminated, truncated, _ = arena.last()
        if terminated or truncated:
            arena.step(None)
        elif agent == "player_1":
            arena.step(frozen.choose(arena.unwrapped.state).id)
        else:
            arena.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert arena.unwrapped.state.is_terminal()


def test_a_policy_bot_refuses_an_illegal_answer() -> None:
    game = pa.load("stack-a-cash")
    state = game.new_initial_state()
    illegal = int(np.flatnonzero(action_mask(state) == 0)[0])
    with pytest.raises(ValueError, match="not legal here"):
        PolicyBot(game, lambda observation, mask: illegal).choose(state)
    with pytest.raises(ValueError, match="not a decision id"):
        PolicyBot(game, lambda observation, mask: "place L a1").choose(state)
    with pytest.raises(TypeError, match="predict"):
        PolicyBot.from_model(game, object())


# -- 5. one action space for every map and mode ------------------------------------------------
MAXIMA = {"coin-age": 95, "flipwars": 552, "stack-a-cash": 180, "wallet-battles": 55}


@pytest.mark.parametrize("game_id", sorted(pa.GAMES))
def test_fixed_actions_share_one_size_with_right_masks(game_id: str) -> None:
    assert max_decisions(game_id) == MAXIMA[game_id]
    sizes = set()
    for options in every_setting(game_id):
        env = gymnasium.make(env_id(game_id), opponent="random", fixed_actions=True, **options)
        arena = raw_env(game_id, fixed_actions=True, **options)
        base = env.unwrapped
        n = base.game.num_decisions
        assert env.action_space.n == arena.action_space("player_1").n == MAXIMA[game_id] >= n
        _, info = env.reset(seed=0)
        mask = info["action_mask"]
        assert mask.shape == (MAXIMA[game_id],) and not mask[n:].any()
        assert np.array_equal(mask[:n], action_mask(base.state))
        assert np.array_equal(base.action_masks(), mask == 1)
        arena.reset(seed=0)
        agent = arena.agent_selection
        pz_mask = arena.observe(agent)["action_mask"]
        assert pz_mask.shape == (MAXIMA[game_id],) and np.array_equal(
            pz_mask[:n], action_mask(arena.state)
        )
        sizes.add(int(env.action_space.n))
        if n < MAXIMA[game_id]:  # a padding id is in the space but never legal
            _, reward, terminated, _, info = env.step(n)
            assert (reward, terminated, info["illegal_action"]) == (-1.0, True, True)
            with pytest.raises(ValueError, match=f"action {n} is not legal"):
                arena.step(n)
    assert sizes == {MAXIMA[game_id]}


def test_fixed_actions_check_their_value() -> None:
    with pytest.raises(ValueError, match="fixed_actions must be True or False"):
        gymnasium.make(env_id("flipwars"), fixed_actions="yes")
    with pytest.raises(ValueError, match="cycle must be True or False"):
        raw_env("flipwars", cycle=1)


# -- 6. the seat per reset -----------------------------------------------------------------------
def test_seat_chosen_at_each_reset() -> None:
    env = gymnasium.make(env_id("stack-a-cash"), opponent="random")
    assert env.reset(seed=0, options={"seat": 1})[1]["seat"] == 1
    assert env.unwrapped.state.current_player == 1 and env.unwrapped.state.ply == 1
    assert env.reset(seed=0)[1]["seat"] == 0  # the env's own choice again
    assert env.reset(seed=0, options={"seat": 0})[1]["seat"] == 0
    with pytest.raises(ValueError, match="seat must be 0, 1, 'random' or 'alternate'"):
        env.reset(options={"seat": 2})
    with pytest.raises(ValueError, match="options are 'seat' only"):
        env.reset(options={"side": 1})
    assert env.unwrapped.state.ply == 0 and env.unwrapped.seat == 0  # unchanged


def test_alternating_seats() -> None:
    env = gymnasium.make(env_id("coin-age"), opponent="greedy", seat="alternate")
    seats = [env.reset(seed=s)[1]["seat"] for s in range(6)]
    assert seats == [0, 1, 0, 1, 0, 1]
    fixed = gymnasium.make(env_id("coin-age"), opponent="greedy")
    assert [fixed.reset(options={"seat": "alternate"})[1]["seat"] for _ in range(4)] == [0, 1, 0, 1]
    with pytest.raises(ValueError, match="seat must be"):
        gymnasium.make(env_id("coin-age"), seat=True)
