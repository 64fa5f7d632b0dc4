"""The Wallet Battles heuristic: in [-1, 1], zero-sum, and it prefers obviously better positions."""

from __future__ import annotations

import math
import random

import pocketarena as pa
from pocketarena.games.wallet_battles.heuristics import SCALE, evaluate

UNION, CONFEDERACY = 0, 1


def played(*moves: str, **options: object) -> pa.State:
    state = pa.load("wallet-battles", **options).new_initial_state()
    for move in moves:
        state.apply(move)
    return state


def test_values_lie_in_range_and_are_zero_sum() -> None:
    rng = random.Random(5)
    for _ in range(30):
        state = pa.load(
            "wallet-battles", map=rng.choice(["gettysburg", "antietam"])
        ).new_initial_state()
        while not state.is_terminal():
            u, c = evaluate(state, UNION), evaluate(state, CONFEDERACY)
            assert -1.0 <= u <= 1.0
            assert abs(u + c) < 1e-12
            state.apply_random(rng)


def test_finished_games_are_won_lost_or_drawn() -> None:
    won = played("flip TT", "place Q wheatfield", coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    assert evaluate(won, CONFEDERACY) == 1.0 and evaluate(won, UNION) == -1.0
    drawn = played(coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    for _ in range(500):
        drawn.apply("flip odd")
    assert drawn.is_terminal() and evaluate(drawn, UNION) == 0.0


def test_the_start_is_even() -> None:
    assert evaluate(played(), UNION) == 0.0


def test_holding_a_location_beats_passing() -> None:
    placed = played("flip HH", "place Q cemetery-hill")
    passed = played("flip HH", "pass")
    assert evaluate(placed, UNION) > evaluate(passed, UNION)
    assert evaluate(placed, UNION) > 0


def test_a_doubled_three_stack_beats_a_two_stack() -> None:
    two = played(
        "flip HH", "place Q culps-hill", "flip HH", "place N culps-hill", "flip HH", "pass"
    )
    three = played(
        "flip HH",
        "place Q culps-hill",
        "flip HH",
        "place N culps-hill",
        "flip HH",
        "place P culps-hill",
    )
    assert evaluate(three, UNION) > evaluate(two, UNION)


def test_a_stack_that_can_grow_to_three_beats_one_capped_by_a_dime() -> None:
    # Same score (one 2-stack each way, same pile size): only the nickel top can still take a
    # smaller coin and reach the doubled 3-coin stack.
    growing = played("flip HH", "place Q culps-hill", "flip HH", "place N culps-hill")
    capped = played("flip HH", "place P culps-hill", "flip HH", "place D culps-hill")
    assert growing.scores() == capped.scores()
    assert evaluate(growing, UNION) > evaluate(capped, UNION)


def test_a_capture_beats_letting_the_enemy_keep_the_coin() -> None:
    start = ("flip HH", "place Q culps-hill", "flip HH", "place N wheatfield")
    captured = played(*start, "flip TT", "capture culps-hill")
    passed = played(*start, "flip TT", "pass")
    assert evaluate(captured, CONFEDERACY) > evaluate(passed, CONFEDERACY)


def test_an_exposed_three_stack_counts_against_its_holder() -> None:
    # The Union leads by a point with a doubled 3-stack (Q N P), but capturing its penny would
    # swing 5 points, more than any capture open to the Union: the lead looks smaller than it is.
    stacked = played(
        "flip HH", "place Q culps-hill", "flip HH", "place N culps-hill", "flip HH", "place P culps-hill",
        "flip TT", "place Q wheatfield", "flip TT", "place Q devils-den",
    )  # fmt: skip
    union, confederacy = stacked.scores()
    assert union - confederacy == 1
    assert evaluate(stacked, UNION) < math.tanh((union - confederacy) / SCALE)
