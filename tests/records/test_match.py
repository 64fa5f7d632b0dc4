"""Seeded chance and matches: throws depend on (seed, ply) only, so undo and replays repeat them,
and their frequencies follow the game's probabilities."""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.bots.simple import RandomBot
from pocketarena.match import ChanceSource, Match, SeededChance, deciders_after_throw, play_match
from tests.conftest import all_variants, variant_id

CHANCE_CASES = [("coin-race", {})] + [v for v in all_variants() if pa.GAMES[v[0]].CHANCE]


def _first_chance_node(game: pa.Game, seed: int) -> pa.State:
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_chance_node():
        assert not state.is_terminal(), "a chance game ended before any throw"
        state.apply_random(rng)
    return state


def test_seeded_chance_is_a_chance_source(coin_race: pa.Game) -> None:
    chance = SeededChance(42)
    assert isinstance(chance, ChanceSource)
    state = coin_race.new_initial_state()
    first = chance.outcome(state)
    assert all(chance.outcome(state) == first for _ in range(5))
    assert state.ply == 0, "throwing must not change the state"
    throws = {SeededChance(seed).outcome(state).text for seed in range(40)}
    assert throws == {"flip H", "flip T"}
    state.apply(first)
    with pytest.raises(ValueError, match="not at a chance node"):
        chance.outcome(state)
    with pytest.raises(TypeError):
        SeededChance(1.5)  # type: ignore[arg-type]


def test_the_same_seed_plays_the_same_game(coin_race: pa.Game) -> None:
    def game_with(seed: int) -> list[str]:
        bots = [RandomBot(coin_race, seed=seed), RandomBot(coin_race, seed=seed + 1)]
        return play_match(coin_race, bots, SeededChance(seed)).moves

    assert game_with(9) == game_with(9)
    assert len({tuple(game_with(s)) for s in range(6)}) > 1


@pytest.mark.parametrize("variant", CHANCE_CASES, ids=[variant_id(v) for v in CHANCE_CASES])
def test_throw_frequencies_follow_the_probabilities(variant: tuple[str, dict[str, Any]]) -> None:
    """Over many seeded throws at real chance nodes, each outcome comes up as often as its
    probability says (within 5 standard deviations, plus one for rounding)."""
    game = pa.load(variant[0], **variant[1])
    expected: Counter[str] = Counter()
    variance: Counter[str] = Counter()
    observed: Counter[str] = Counter()
    nodes = [_first_chance_node(game, s) for s in range(8)]
    for seed in range(600):
        for node in nodes:
            for action, p in node.chance_outcomes():
                expected[action.text] += p
                variance[action.text] += p * (1 - p)
            observed[SeededChance(seed).outcome(node).text] += 1
    for outcome, mean in expected.items():
        tolerance = 5 * math.sqrt(variance[outcome]) + 1
        assert abs(observed[outcome] - mean) <= tolerance, (outcome, observed[outcome], mean)
    # Along whole seeded games, too.
    expected.clear(), variance.clear(), observed.clear()
    for seed in range(40):
        bots = [RandomBot(game, seed=seed), RandomBot(game, seed=-seed)]
        chance = SeededChance(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                for action, p in state.chance_outcomes():
                    expected[action.text] += p
                    variance[action.text] += p * (1 - p)
                throw = chance.outcome(state)
                observed[throw.text] += 1
                state.apply(throw)
            else:
                state.apply(bots[state.current_player].choose(state))
    assert sum(observed.values()) > 0
    for outcome, mean in expected.items():
        assert abs(observed[outcome] - mean) <= 5 * math.sqrt(variance[outcome]) + 1, outcome


def test_undo_takes_back_the_human_move_and_the_bot_reply(coin_race: pa.Game) -> None:
    match = Match(coin_race, [None, RandomBot(coin_race, seed=1)], SeededChance(11))
    assert match.human_to_act() and match.human_throws()
    with pytest.raises(pa.IllegalActionError, match="no move of yours"):
        match.undo(0)
    match.throw()
    first_throw = match.last
    match.play(1)
    while not match.human_to_act():
        match.step()
    before_undo = list(match.state.history)
    assert match.movers[1] == 0 and 1 in match.movers
    taken = match.undo(0)
    assert taken == len(before_undo) - 1
    assert match.state.history == [first_throw]
    assert match.state.current_player == 0
    match.play("add 1")
    while not match.human_to_act():
        match.step()
    assert match.state.history[2] == before_undo[2], "the same throw after undo"


def test_play_refuses_clearly(coin_race: pa.Game) -> None:
    match = Match(coin_race, [None, RandomBot(coin_race, seed=1)], SeededChance(3))
    with pytest.raises(pa.IllegalActionError, match="coins must be thrown first"):
        match.play("add 1")
    match.throw()
    with pytest.raises(pa.IllegalActionError, match="there is no move 7; moves are numbered 1 to"):
        match.play(7)
    with pytest.raises(pa.IllegalActionError, match="no coins to throw"):
        match.throw()
    with pytest.raises(pa.IllegalActionError, match="no bot is to move"):
        match.bot_move()
    match.play(1)
    match.throw()
    with pytest.raises(pa.IllegalActionError, match="a bot plays that seat"):
        match.play(1)


def test_resign_and_abandon_make_honest_records(coin_race: pa.Game) -> None:
    match = Match(coin_race, [None, RandomBot(coin_race, seed=1)], SeededChance(3))
    match.throw()
    match.play(1)
    match.resign(0)
    assert match.over
    record = match.record()
    assert (record.result, record.termination) == ("0-1", "resignation")
    record.replay()
    with pytest.raises(pa.IllegalActionError, match="already over"):
        match.resign(1)
    quitter = Match(coin_race, [None, None], SeededChance(3))
    quitter.throw()
    quitter.abandon()
    assert quitter.record().termination == "abandoned" and quitter.record().result == "*"


def test_deciders_after_throw(coin_race: pa.Game) -> None:
    state = coin_race.new_initial_state()
    assert deciders_after_throw(state) == {0}
    state.apply("flip T")
    state.apply("add 1")
    assert deciders_after_throw(state) == {1}
    bot_throws = Match(coin_race, [RandomBot(coin_race), None], SeededChance(1))
    assert not bot_throws.human_to_act(), "the bot's own throw happens without the person"
