"""The Coin Age heuristic prefers what a player would: more points, a safer quarter, majorities."""

from __future__ import annotations

import random

import pocketarena as pa
from pocketarena.games.coin_age.heuristics import evaluate, exposure


def play(*moves: str) -> pa.State:
    state = pa.load("coin-age").new_initial_state()
    for move in moves:
        state.apply(move)
    return state


def test_bounded_and_antisymmetric_over_random_positions() -> None:
    for name in ("classic", "five-fiefs"):
        game = pa.load("coin-age", map=name)
        for seed in range(20):
            state = game.new_initial_state()
            rng = random.Random(seed)
            while not state.is_terminal():
                state.apply_random(rng)
                a, b = evaluate(state, 0), evaluate(state, 1)
                assert -1.0 <= a <= 1.0
                assert abs(a + b) < 1e-12


def test_finished_games_score_plus_or_minus_one() -> None:
    state = pa.load("coin-age").new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_random(rng)
    winner = state.winner()
    assert winner is not None
    assert evaluate(state, winner) == 1.0 and evaluate(state, 1 - winner) == -1.0


def test_prefers_placing_the_quarter_to_the_dime() -> None:
    quarter = play("slap Q:H N:T P:T D:H", "place Q treewood")
    dime = play("slap Q:H N:T P:T D:H", "place D treewood")
    assert evaluate(quarter, 0) > evaluate(dime, 0) > evaluate(play(), 0) - 1e-9


def test_prefers_the_majority_of_a_region() -> None:
    # Tails holds grey-hills; Heads takes the Forests 2-1, or splits and ties them 1-1.
    start = (
        "slap Q:T N:T P:T D:T",
        "slap Q:H N:H P:H D:T",
        "place D grey-hills",
        "end",
        "slap Q:H N:H P:T D:T",
    )
    majority = play(*start, "place N treewood", "place Q cedarville")
    split = play(*start, "place N treewood", "place Q townsville")
    assert majority.scores()[0] > split.scores()[0]
    assert evaluate(majority, 0) > evaluate(split, 0)


def test_a_covered_coin_is_worse_than_a_safe_one() -> None:
    # Tails covers Heads's quarter with a penny, or places the penny elsewhere.
    start = ("slap Q:H N:T P:T D:T", "place Q stone-rock", "end", "slap Q:H N:H P:T D:H")
    covered = play(*start, "place P stone-rock")
    beside = play(*start, "place P mount-cragro")
    assert evaluate(covered, 1) > evaluate(beside, 1)


def test_exposure_counts_what_smaller_coins_and_captures_threaten() -> None:
    state = play("slap Q:H N:H P:T D:H", "place Q treewood", "place D cedarville")
    # Tails throws Q N P D: the quarter falls to any smaller matching coin (1 - 1/8) or to a
    # capture after no match (1/16); the dime only to the capture.
    assert exposure(state, 0) == 4 * (1 - 1 / 8 + 1 / 16) + 1 * (1 / 16)
    assert exposure(state, 1) == 0.0
