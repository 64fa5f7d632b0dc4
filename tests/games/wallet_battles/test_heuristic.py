"""The Wallet Battles heuristic: in [-1, 1], zero-sum, and it prefers obviously better positions."""

from __future__ import annotations

import math
import random

import pocketarena as pa
from pocketarena.games.wallet_battles import WalletBattlesState
from pocketarena.games.wallet_battles.heuristics import SCALE, evaluate, scale

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
    assert evaluate(stacked, UNION) < math.tanh((union - confederacy) / scale(stacked))


def test_a_lead_counts_for_more_near_the_end() -> None:
    # The same 2-point lead (a Union quarter, same piles): with eight never-used locations
    # left, and with one, after the sides took turns placing a dime and capturing it.
    early = played("flip HH", "place Q culps-hill", end="used")
    assert scale(early) < SCALE and evaluate(early, UNION) > 0
    trades = []
    for i, loc in enumerate(
        ("mcpherson-ridge", "seminary-ridge", "cemetery-hill", "culps-hill",
         "cemetery-ridge", "peach-orchard", "wheatfield", "devils-den")
    ):  # fmt: skip
        mover, taker = ("flip HH", "flip TT") if i % 2 == 0 else ("flip TT", "flip HH")
        trades += [mover, f"place D {loc}", taker, f"capture {loc}"]
    late = played(*trades, "flip HH", "place Q culps-hill", end="used")
    assert late.scores() == early.scores() and late.position()["unused"] == 1
    assert evaluate(late, UNION) > evaluate(early, UNION) > 0
    # By the occupied end the late position is as far from over as the early one.
    occupied = played(*trades, "flip HH", "place Q culps-hill", end="occupied")
    assert evaluate(occupied, UNION) < evaluate(late, UNION)


def test_a_trailer_avoids_using_the_last_location_and_a_leader_takes_it() -> None:
    from pocketarena.bots.simple import GreedyBot

    moves = [m for loc in ("north-woods", "cornfield", "west-woods", "dunker-church",
                           "sunken-road", "burnside-bridge")
             for m in ("flip HH", f"place Q {loc}")]  # fmt: skip
    leader = played(*moves, "flip HH", end="used", map="antietam")
    assert GreedyBot(leader.game, seed=1).choose(leader).text.endswith("sharpsburg")
    trailer = played(*moves, "flip TT", end="used", map="antietam")
    assert not GreedyBot(trailer.game, seed=1).choose(trailer).text.endswith("sharpsburg")


def test_positions_that_differ_only_in_which_location_holds_what_share_a_search_key() -> None:
    from pocketarena.bots.evaluation import position_key

    a = played("flip HH", "place Q culps-hill", "flip TT", "place N wheatfield")
    b = played("flip HH", "place Q wheatfield", "flip TT", "place N devils-den")
    assert position_key(a) == position_key(b)
    c = played("flip HH", "place Q culps-hill", "flip TT", "place P wheatfield")
    assert position_key(a) != position_key(c)
    # By the used end, a location that held a coin is not the same as one that never did;
    # by the occupied end it is.
    for end, same in (("used", False), ("occupied", True)):
        held = played("flip HH", "place Q culps-hill", "flip TT", "capture culps-hill", end=end)
        never = held.clone()
        assert isinstance(never, WalletBattlesState)
        never.ever, never.unused = 0, 9
        assert (position_key(held) == position_key(never)) is same


def test_far_ahead_a_searching_bot_ends_the_game_rather_than_wait_for_the_guard() -> None:
    # 23 to 1 by the used end, two locations never used, the Union down to its last coin:
    # passing wins at the guard too, but the Confederacy should place towards the end.
    from pocketarena.bots import make_bot

    state = played("flip TT", end="used", coins={"Q": 3, "N": 3, "P": 3, "D": 3})
    assert isinstance(state, WalletBattlesState)
    state.ever, state.unused = 0b011011111, 2  # all but peach-orchard and little-round-top
    state.piles, state.pile_total = [0, 1, 0, 0, 6, 5, 6, 6], [1, 23]
    assert state.scores() == (1, 23)
    choice = make_bot("expectimax:2", state.game, seed=1).choose(state)
    assert choice.text.split()[0] == "place"
    assert choice.text.split()[2] in ("peach-orchard", "little-round-top")
