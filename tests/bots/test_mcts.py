"""Monte-Carlo tree search: correctness on every game, chance, reuse, budgets."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.bots.levels import mcts_settings
from pocketarena.bots.mcts import MCTSBot, Node
from pocketarena.core import CHANCE
from tests.conftest import all_variants, variant_id

from .scenarios import ONE_PLY, find, has_threat_to_block, has_win_in_one, immediate, threats

REAL = [v for v in all_variants() if v[0] != "coin-race"]
GAMES = sorted({v[0] for v in REAL})


def tuned(game: pa.Game, seed: int = 1, **budget: Any) -> MCTSBot:
    return MCTSBot(game, seed=seed, **mcts_settings(game), **budget)


def midgame(game: pa.Game, plies: int, seed: int = 3) -> pa.State:
    """A decision a few random plies into a game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.ply < plies or state.current_player < 0:
        if state.is_terminal():
            state = game.new_initial_state()
        state.apply_random(rng)
    return state


@pytest.mark.parametrize("variant", REAL, ids=[variant_id(v) for v in REAL])
def test_mcts_leaves_the_state_alone_and_plays_legal_moves(
    variant: tuple[str, dict[str, Any]],
) -> None:
    game = pa.load(variant[0], **variant[1])
    bot = tuned(game, iterations=40)
    for plies in (0, 7):
        state = midgame(game, plies)
        before = json.dumps(state.to_json(), sort_keys=True)
        action = bot.choose(state)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        assert action in state.legal_actions()


@pytest.mark.parametrize("scenario", sorted(ONE_PLY))
@pytest.mark.parametrize("game_id", GAMES)
def test_mcts_scenarios(game_id: str, scenario: str) -> None:
    wanted, right = ONE_PLY[scenario]
    game = pa.load(game_id)
    for seed in (1, 2):
        state = find(game, wanted, seed=seed)
        action = tuned(game, seed=seed, iterations=400).choose(state)
        assert right(immediate(state)[action.text]), (state.history, action)


@pytest.mark.parametrize("game_id", [g for g in GAMES if not pa.GAMES[g].CHANCE])
def test_mcts_blocks_a_win_in_one(game_id: str) -> None:
    game = pa.load(game_id)
    for seed in (1, 2):
        state = find(game, has_threat_to_block, seed=seed, max_legal=40)
        action = tuned(game, seed=seed, iterations=1500).choose(state)
        assert not threats(state)[action.text], (state.history, action)


def test_seeded_mcts_is_reproducible() -> None:
    game = pa.load("wallet-battles")
    state = midgame(game, 20)
    first = [tuned(game, seed=9, iterations=150) for _ in range(2)]
    assert first[0].choose(state) == first[1].choose(state)
    tree = [(k.action.text, k.n, round(k.w, 9)) for k in first[0].root.kids]  # type: ignore[union-attr]
    again = [(k.action.text, k.n, round(k.w, 9)) for k in first[1].root.kids]  # type: ignore[union-attr]
    assert tree == again


def test_iteration_budget_is_exact_and_time_budget_is_kept() -> None:
    game = pa.load("stack-a-cash")
    state = game.new_initial_state()
    bot = MCTSBot(game, seed=1, iterations=123, reuse=False)
    bot.choose(state)
    assert bot.last_iterations == 123
    assert bot.root is None  # nothing kept without reuse
    timed = MCTSBot(game, seed=1, seconds=0.05)
    # The thread's CPU time, not the wall clock: a full run's busy machine once held this
    # worker off its core past 1 s of a 0.05 s search (1.17 s); a search that ran on past its
    # budget would use the CPU too.
    start = time.thread_time()
    timed.choose(state)
    assert time.thread_time() - start < 1.0  # the budget plus generous slack
    assert timed.last_iterations >= 1
    both = MCTSBot(game, seed=1, iterations=10, seconds=60)
    both.choose(state)
    assert both.last_iterations == 10  # whichever limit comes first


@pytest.mark.parametrize(
    "budget, message",
    [
        ({"iterations": 0}, "iterations must be a positive integer"),
        ({"seconds": -1}, "seconds must be a positive number"),
        ({"depth": 3}, "has no budget 'depth'; it accepts: iterations, seconds"),
    ],
)
def test_bad_budgets_are_refused(budget: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MCTSBot(pa.load("stack-a-cash"), **budget)


def test_subtree_reuse_keeps_the_statistics_below_the_moves_played() -> None:
    game = pa.load("stack-a-cash")
    bot = tuned(game, iterations=600)
    state = game.new_initial_state()
    mine = bot.choose(state)
    root = bot.root
    assert root is not None
    child = next(k for k in root.kids if k.action == mine)
    reply = max(child.kids, key=lambda k: k.n)
    kept = reply.n
    assert kept > 0
    state.apply(mine)
    state.apply(reply.action)  # type: ignore[arg-type]
    bot.choose(state)
    assert bot.root is reply  # the same node, found by the history since the last search
    assert reply.n == kept + 600
    # A history that does not extend the last one starts afresh.
    fresh = game.new_initial_state()
    fresh.apply("place S a1")
    bot.choose(fresh)
    assert bot.root is not reply and bot.root.n == 600


def test_reset_forgets_the_tree() -> None:
    game = pa.load("stack-a-cash")
    bot = tuned(game, iterations=50)
    bot.choose(game.new_initial_state())
    bot.reset()
    assert bot.root is None


def test_chance_nodes_follow_the_outcome_probabilities() -> None:
    game = pa.load("coin-age")
    state = game.new_initial_state()
    assert state.current_player == CHANCE
    outcomes = state.chance_outcomes()
    bot = tuned(game, iterations=16 * 40)
    root = bot.search(state)  # a search may start at a throw (analysis does)
    visits = {a.id: root.by_outcome[a.id].n for a, _ in outcomes}
    assert sum(visits.values()) == 16 * 40
    for action, p in outcomes:  # stratified: within one visit of the exact share
        assert abs(visits[action.id] - p * 16 * 40) <= 1
    sampled = MCTSBot(game, seed=4, iterations=3000, stratified=False, rollout_depth=0)
    root = sampled.search(state)
    for action, p in outcomes:
        share = root.by_outcome[action.id].n / 3000
        assert abs(share - p) < 0.03  # 16 outcomes of 1/16: a few standard errors


def test_chance_value_is_the_probability_weighted_average(coin_race: pa.Game) -> None:
    # Coin Race near its goal: at 9-9 Heads to throw, whoever moves wins at once (add 1 is
    # always legal), so every line is proven and the value is exact.
    state = coin_race.new_initial_state()
    for action in ["flip T", "add 2", "flip T", "add 2"] * 4 + [
        "flip T",
        "add 1",
        "flip T",
        "add 1",
    ]:
        state.apply(action)
    assert state.scores() == (9.0, 9.0) and state.current_player == CHANCE
    bot = MCTSBot(coin_race, seed=1, iterations=200)
    assert bot.state_value(state, 0) == 1.0
    assert bot.search(state).proven == 1.0


def test_proven_nodes_mark_exact_results() -> None:
    game = pa.load("stack-a-cash")
    state = find(game, has_win_in_one, seed=1)
    bot = tuned(game, iterations=400)
    root = bot.search(state)
    assert root.proven is not None and root.mean(state.current_player) == 1.0
    values = {av.action.text: av for av in bot.action_values(state)}
    best = bot.choose(state)
    assert values[best.text].value == 1.0 and values[best.text].support is None


def test_progressive_widening_limits_the_children_tried() -> None:
    game = pa.load("flipwars")
    state = game.new_initial_state()
    wide = len(state.legal_actions())
    bot = MCTSBot(game, seed=1, iterations=100, widen=10, widen_k=2.0, widen_alpha=0.5)
    root = bot.search(state)
    assert len(root.kids) <= 2.0 * 101**0.5 < wide
    assert root.priors is not None  # the wide root was ordered by the heuristic
    # The children tried first are the heuristic's favourites.
    evaluate = bot.evaluate
    mover = state.current_player
    tried = min(evaluate(state.child(k.action), mover) for k in root.kids)  # type: ignore[arg-type]
    untried = max(evaluate(state.child(a), mover) for a in root.untried or [])
    assert tried >= untried


def test_node_repr_and_size() -> None:
    node = Node(None, 0)
    node.kids.append(Node(None, 1))
    assert node.size() == 2 and "player=0" in repr(node)
