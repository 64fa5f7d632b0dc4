"""The simple bots and the bot registry."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.bots import Bot, make_bot
from pocketarena.bots.registry import FACTORIES
from pocketarena.bots.simple import GreedyBot, RandomBot
from pocketarena.core import for_game
from pocketarena.match import SeededChance
from tests.conftest import all_variants, variant_id

WITH_HEURISTIC = [v for v in all_variants() if for_game(v[0], "heuristics") is not None]


def test_registry_makes_bots_and_lists_the_valid_ones(
    coin_race: pa.Game,
) -> None:
    assert isinstance(make_bot("random", coin_race, seed=1), RandomBot)
    assert isinstance(make_bot(" Greedy ", coin_race), GreedyBot)
    assert set(FACTORIES) >= {"random", "greedy"}
    with pytest.raises(ValueError, match="unknown bot 'clever'; valid bots: .*greedy.*random"):
        make_bot("clever", coin_race)
    with pytest.raises(ValueError, match="takes no argument"):
        make_bot("random:5", coin_race)
    with pytest.raises(ValueError, match="has no budget 'iterations'; it accepts: none"):
        RandomBot(coin_race, iterations=5)


def test_greedy_needs_a_heuristic(bare_race: pa.Game) -> None:
    with pytest.raises(ValueError, match="needs a heuristic for bare-race"):
        make_bot("greedy", bare_race)


def test_bots_decide_only_at_decision_nodes(coin_race: pa.Game) -> None:
    bot = RandomBot(coin_race, seed=1)
    state = coin_race.new_initial_state()
    with pytest.raises(ValueError, match="decision nodes only; this is a chance node"):
        bot.choose(state)
    other = pa.GAMES["coin-race"](goal=3)
    assert isinstance(bot, Bot) and other == pa.load("coin-race", goal=3)


def test_greedy_takes_the_best_immediate_gain(coin_race: pa.Game) -> None:
    bot = make_bot("greedy", coin_race, seed=3)
    state = coin_race.new_initial_state()
    state.apply("flip H")
    assert bot.choose(state) == "add 3"
    state.apply("add 3")
    state.apply("flip T")
    assert bot.choose(state) == "add 2"
    assert state.ply == 3


def test_random_bot_is_seeded(coin_race: pa.Game) -> None:
    state = coin_race.new_initial_state()
    state.apply("flip H")
    picks = [RandomBot(coin_race, seed=5).choose(state) for _ in range(5)]
    assert len(set(picks)) == 1
    many = RandomBot(coin_race, seed=5)
    assert {many.choose(state).text for _ in range(60)} == {"add 1", "add 2", "add 3"}


@pytest.mark.parametrize("variant", WITH_HEURISTIC, ids=[variant_id(v) for v in WITH_HEURISTIC])
@pytest.mark.parametrize("spec", ["random", "greedy"])
def test_bots_play_real_games_without_touching_the_state(
    variant: tuple[str, dict[str, Any]], spec: str
) -> None:
    game = pa.load(variant[0], **variant[1])
    bot = make_bot(spec, game, seed=1)
    chance = SeededChance(1)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and decisions < 60:
        if state.is_chance_node():
            state.apply(chance.outcome(state))
            continue
        before = json.dumps(state.to_json(), sort_keys=True)
        action = bot.choose(state)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert action in state.legal_actions()
        if isinstance(bot, GreedyBot):
            mover = state.current_player
            best = max(bot.value(state.child(a), mover) for a in state.legal_actions())
            assert bot.value(state.child(action), mover) >= best - 1e-9
            assert -1.0 <= best <= 1.0
        state.apply(action)
        decisions += 1
    assert decisions > 0


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:60", "expectimax:1", "easy"])
@pytest.mark.parametrize("game_id", ["flipwars", "wallet-battles"])
def test_a_reseeded_bot_plays_like_a_fresh_one(spec: str, game_id: str) -> None:
    game = pa.load(game_id)
    state = game.new_initial_state()
    chance = SeededChance(4)
    while state.current_player < 0 or state.ply < 3:
        state.apply(chance.outcome(state) if state.is_chance_node() else state.legal_actions()[0])
    kept = make_bot(spec, game, seed=1)
    kept.choose(state)  # something learnt and random numbers drawn
    for seed in (2, 3):
        kept.reseed(seed)
        assert kept.choose(state) == make_bot(spec, game, seed=seed).choose(state)
