"""Expectimax with Star1/Star2 pruning: its values are exactly those of a plain expectimax."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.bots.evaluation import Evaluate, leaf_evaluation
from pocketarena.bots.expectimax import MAX_CHANCE_CHAIN, ExpectimaxBot
from pocketarena.core import CHANCE, TERMINAL
from tests.conftest import all_variants, variant_id

from .scenarios import find, has_losing_move, has_win_in_one, immediate

CHANCE_VARIANTS = [v for v in all_variants() if pa.GAMES[v[0]].CHANCE and v[0] != "coin-race"]


def brute_force(state: pa.State, depth: int, evaluate: Evaluate, chain: int = 0) -> float:
    """Plain expectimax over whole turns, seat 0's view, no pruning and no table: the
    definition the pruned search must agree with."""
    player = state.current_player
    if player == TERMINAL:
        return state.returns()[0]
    if player == CHANCE:
        if chain >= MAX_CHANCE_CHAIN:
            return evaluate(state, 0)
        total = 0.0
        for outcome, p in state.chance_outcomes():
            child = state.child(outcome)
            total += p * brute_force(
                child, depth, evaluate, chain + 1 if child.current_player == CHANCE else 0
            )
        return total
    values = [turn_value(state.child(a), player, depth, evaluate) for a in state.legal_actions()]
    return max(values) if player == 0 else min(values)


def turn_value(child: pa.State, mover: int, depth: int, evaluate: Evaluate) -> float:
    if child.current_player == mover:
        return brute_force(child, depth, evaluate)
    if child.current_player == TERMINAL:
        return child.returns()[0]
    if depth <= 1:
        return evaluate(child, 0)
    return brute_force(child, depth - 1, evaluate)


def positions(game: pa.Game, count: int, seed: int, plies: tuple[int, int]) -> list[pa.State]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(*plies)):
            if state.is_terminal():
                break
            state.apply_random(rng)
        while 0 > state.current_player != TERMINAL:
            state.apply_random(rng)
        if not state.is_terminal():
            out.append(state)
    return out


def exact_values(state: pa.State, depth: int, evaluate: Evaluate) -> dict[str, float]:
    mover = state.current_player
    sign = 1.0 if mover == 0 else -1.0
    return {
        a.text: sign * turn_value(state.child(a), mover, depth, evaluate)
        for a in state.legal_actions()
    }


def test_values_equal_brute_force_on_coin_race(coin_race: pa.Game) -> None:
    game = pa.load("coin-race", goal=6)
    evaluate = leaf_evaluation(game)
    for state in positions(game, 6, seed=2, plies=(1, 6)):
        for depth in (1, 2, 3):
            expected = exact_values(state, depth, evaluate)
            for probe in (True, False):
                bot = ExpectimaxBot(game, depth=depth, probe=probe)
                got = {av.action.text: av.value for av in bot.action_values(state)}
                assert got == pytest.approx(expected, abs=1e-12)
                choice = bot.choose(state)
                assert expected[choice.text] == pytest.approx(max(expected.values()), abs=1e-12)


@pytest.mark.parametrize(
    "game_id, options, depth",
    [
        ("wallet-battles", {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}, 2),
        ("wallet-battles", {"map": "antietam"}, 2),
        ("coin-age", {}, 1),
    ],
)
def test_values_equal_brute_force_on_real_games(
    game_id: str, options: dict[str, Any], depth: int
) -> None:
    game = pa.load(game_id, **options)
    evaluate = leaf_evaluation(game)
    for state in positions(game, 3, seed=5, plies=(10, 40)):
        expected = exact_values(state, depth, evaluate)
        bot = ExpectimaxBot(game, depth=depth)
        got = {av.action.text: av.value for av in bot.action_values(state)}
        assert got == pytest.approx(expected, abs=1e-12)
        best = max(expected.values())
        assert expected[bot.choose(state).text] == pytest.approx(best, abs=1e-12)


def test_pruning_searches_fewer_nodes_than_plain_expectimax() -> None:
    game = pa.load("wallet-battles", map="antietam")
    state = positions(game, 1, seed=3, plies=(20, 21))[0]
    pruned = ExpectimaxBot(game, depth=3)
    pruned.choose(state)
    exact = ExpectimaxBot(game, depth=3)
    exact.action_values(state)  # every root action with a full window
    assert 0 < pruned.last_nodes < exact.last_nodes


@pytest.mark.parametrize("variant", CHANCE_VARIANTS, ids=[variant_id(v) for v in CHANCE_VARIANTS])
def test_expectimax_leaves_the_state_alone(variant: tuple[str, dict[str, Any]]) -> None:
    game = pa.load(variant[0], **variant[1])
    bot = ExpectimaxBot(game, depth=1, seed=1)
    for state in positions(game, 2, seed=1, plies=(0, 30)):
        before = json.dumps(state.to_json(), sort_keys=True)
        action = bot.choose(state)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert action in state.legal_actions()


@pytest.mark.parametrize("game_id", ["coin-age", "wallet-battles"])
def test_expectimax_wins_in_one_and_avoids_losing_moves(game_id: str) -> None:
    game = pa.load(game_id)
    bot = ExpectimaxBot(game, depth=1, seed=1)
    state = find(game, has_win_in_one, seed=3)
    assert immediate(state)[bot.choose(state).text] == 1.0
    state = find(game, has_losing_move, seed=3)
    assert immediate(state)[bot.choose(state).text] != -1.0


def test_time_budget_deepens_and_stops() -> None:
    game = pa.load("wallet-battles")
    state = positions(game, 1, seed=4, plies=(10, 11))[0]
    bot = ExpectimaxBot(game, seconds=0.3, seed=1)
    bot.choose(state)
    assert bot.last_depth >= 1
    assert bot.last_seconds < 2.0
    capped = ExpectimaxBot(game, seconds=30, depth=1, seed=1)
    capped.choose(state)
    assert capped.last_depth == 1


def test_seeded_expectimax_is_reproducible() -> None:
    game = pa.load("coin-age")
    states = positions(game, 4, seed=8, plies=(0, 40))
    picks = [[ExpectimaxBot(game, depth=1, seed=s).choose(x).text for x in states] for s in (3, 3)]
    assert picks[0] == picks[1]


def test_state_value_at_a_throw_is_the_expectation() -> None:
    game = pa.load("wallet-battles", coins={"Q": 1, "N": 1, "P": 1, "D": 1})
    evaluate = leaf_evaluation(game)
    state = game.new_initial_state()
    state.apply("flip HH")
    state.apply("place Q cemetery-hill")
    assert state.current_player == CHANCE
    bot = ExpectimaxBot(game, depth=2)
    expected = brute_force(state, 2, evaluate)
    assert bot.state_value(state, 0) == pytest.approx(expected, abs=1e-12)
    assert bot.state_value(state, 1) == pytest.approx(-expected, abs=1e-12)


@pytest.mark.parametrize(
    "budget, message",
    [({"depth": 0}, "depth must be a positive integer"), ({"seconds": 0}, "seconds must be")],
)
def test_bad_budgets_are_refused(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ExpectimaxBot(pa.load("coin-age"), **budget)
