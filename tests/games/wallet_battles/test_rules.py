"""One scenario per rule and ruling of Wallet Battles (SPEC.md), played in notation from the
initial position with the flips chosen explicitly. Unless a test says otherwise it plays the
``occupied`` end with 6 coins of each kind, whatever the defaults are."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.games.wallet_battles import FLIP_LIMIT, WalletBattlesState

from .reference import LOCATIONS

UNION, CONFEDERACY = 0, 1


SIX = {"Q": 6, "N": 6, "P": 6, "D": 6}


def play(*moves: str, **options: Any) -> WalletBattlesState:
    options = {"coins": SIX, "end": "occupied", **options}
    state = pa.load("wallet-battles", **options).new_initial_state()
    assert isinstance(state, WalletBattlesState)
    for move in moves:
        state.apply(move)
    return state


def legal(state: pa.State) -> set[str]:
    return {a.text for a in state.legal_actions()}


def stack(state: WalletBattlesState, location: str) -> list[str]:
    """A location's coins, bottom first, as the position reports them."""
    for loc in state.position()["locations"]:
        if loc["id"] == location:
            return list(loc["stack"])
    raise KeyError(location)


def holder(state: WalletBattlesState, location: str) -> int | None:
    for loc in state.position()["locations"]:
        if loc["id"] == location:
            return loc["holder"]
    raise KeyError(location)


def refused(state: pa.State, move: str, *words: str) -> str:
    """Assert ``move`` is refused with a message containing ``words``, changing nothing."""
    before = json.dumps(state.to_json(), sort_keys=True)
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(move)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert json.dumps(state.to_json(), sort_keys=True) == before
    return message


# -- the flip --------------------------------------------------------------------------
def test_every_round_starts_with_a_flip_of_both_coins() -> None:
    state = play()
    assert state.current_player == pa.CHANCE
    outcomes = {a.text: p for a, p in state.chance_outcomes()}
    assert outcomes == {"flip HH": 0.25, "flip TT": 0.25, "flip odd": 0.5}


def test_flip_hh_lets_the_union_act() -> None:
    state = play("flip HH")
    assert state.current_player == UNION
    assert state.position()["phase"] == "act"
    assert "place Q cemetery-hill" in legal(state)


def test_flip_tt_lets_the_confederacy_act() -> None:
    state = play("flip TT")
    assert state.current_player == CONFEDERACY
    assert "place D little-round-top" in legal(state)


def test_flip_odd_lets_nobody_act_and_is_flipped_again() -> None:
    state = play("flip odd")
    assert state.current_player == pa.CHANCE
    assert state.position()["odd_in_a_row"] == 1
    assert state.position()["flips"] == 1


def test_one_head_one_tail_is_also_read_as_odd() -> None:
    assert play("flip HT").history[-1].text == "flip odd"
    assert play("flip th").history[-1].text == "flip odd"


def test_an_acting_player_may_place_capture_or_pass_and_nothing_else() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip TT")
    verbs = {a.verb for a in state.legal_actions()}
    assert verbs == {"place", "capture", "pass"}


# -- the third odd: recalls ------------------------------------------------------------
def test_the_third_odd_in_a_row_makes_the_union_recall_first_then_the_confederacy() -> None:
    state = play(
        "flip HH", "place Q cemetery-hill", "flip TT", "place N wheatfield",
        "flip odd", "flip odd", "flip odd",
    )  # fmt: skip
    assert state.current_player == UNION
    assert state.position()["phase"] == "recall"
    assert legal(state) == {"recall cemetery-hill"}
    state.apply("recall cemetery-hill")
    assert state.current_player == CONFEDERACY
    assert legal(state) == {"recall wheatfield"}
    state.apply("recall wheatfield")
    assert state.current_player == pa.CHANCE
    assert state.position()["odd_in_a_row"] == 0


def test_two_odds_in_a_row_do_not_recall() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip odd", "flip odd")
    assert state.current_player == pa.CHANCE
    assert state.position()["odd_in_a_row"] == 2


def test_a_recall_returns_one_own_top_coin_to_the_own_pile() -> None:
    state = play(
        "flip HH", "place Q cemetery-hill", "flip HH", "place P cemetery-hill",
        "flip odd", "flip odd", "flip odd", "recall cemetery-hill",
    )  # fmt: skip
    assert stack(state, "cemetery-hill") == ["Q"]
    assert state.position()["piles"][UNION] == {"Q": 5, "N": 6, "P": 6, "D": 6}
    assert holder(state, "cemetery-hill") == UNION


def test_a_recall_of_the_last_coin_empties_the_location() -> None:
    state = play("flip HH", "place N culps-hill", "flip odd", "flip odd", "flip odd")
    state.apply("recall culps-hill")
    assert stack(state, "culps-hill") == []
    assert holder(state, "culps-hill") is None
    assert state.position()["piles"][UNION]["N"] == 6


def test_the_recalling_player_chooses_which_own_location() -> None:
    state = play(
        "flip TT", "place Q north-woods", "flip TT", "place N cornfield",
        "flip odd", "flip odd", "flip odd", map="antietam",
    )  # fmt: skip
    assert state.current_player == CONFEDERACY  # the Union has no coins on the map: skipped
    assert legal(state) == {"recall north-woods", "recall cornfield"}


def test_a_player_without_coins_on_the_map_does_not_recall() -> None:
    state = play("flip HH", "place D devils-den", "flip odd", "flip odd", "flip odd")
    state.apply("recall devils-den")
    assert state.current_player == pa.CHANCE  # the Confederacy holds nothing: no recall owed


def test_the_third_odd_on_an_empty_map_owes_nothing_and_resets_the_count() -> None:
    state = play("flip odd", "flip odd", "flip odd")
    assert state.current_player == pa.CHANCE
    assert state.position()["odd_in_a_row"] == 0
    state.apply("flip odd")
    assert state.position()["odd_in_a_row"] == 1


def test_hh_or_tt_resets_the_odd_count() -> None:
    for reset in ("flip HH", "flip TT"):
        state = play("flip HH", "place Q cemetery-hill", "flip odd", "flip odd", reset, "pass")
        state.apply("flip odd")
        state.apply("flip odd")
        assert state.current_player == pa.CHANCE, "only two odds since the reset"
        state.apply("flip odd")
        assert state.position()["phase"] == "recall"


def test_the_count_starts_from_zero_after_a_recall() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH", "place N culps-hill")
    for _ in range(3):
        state.apply("flip odd")
    state.apply("recall culps-hill")
    state.apply("flip odd")
    state.apply("flip odd")
    assert state.current_player == pa.CHANCE
    state.apply("flip odd")
    assert legal(state) == {"recall cemetery-hill"}


def test_pass_is_not_allowed_during_a_recall() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip odd", "flip odd", "flip odd")
    assert "pass" not in legal(state)
    refused(state, "pass", "must recall", "recall cemetery-hill")
    refused(state, "place N cemetery-hill", "must recall")
    refused(state, "capture cemetery-hill", "must recall")


def test_only_own_coins_can_be_recalled() -> None:
    state = play(
        "flip HH", "place Q cemetery-hill", "flip TT", "place Q culps-hill",
        "flip odd", "flip odd", "flip odd",
    )  # fmt: skip
    refused(state, "recall culps-hill", "not yours", "recall cemetery-hill")
    refused(state, "recall wheatfield", "not yours")


def test_a_recall_is_refused_when_none_is_owed() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH")
    refused(state, "recall cemetery-hill", "no recall is owed")


# -- placing and stacking --------------------------------------------------------------
def test_a_coin_may_be_placed_on_an_empty_location() -> None:
    state = play("flip HH", "place Q cemetery-hill")
    assert stack(state, "cemetery-hill") == ["Q"]
    assert holder(state, "cemetery-hill") == UNION
    assert state.position()["piles"][UNION]["Q"] == 5


def test_no_stacking_on_the_opponent() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip TT")
    assert not any(t.startswith("place") and t.endswith("cemetery-hill") for t in legal(state))
    refused(state, "place D cemetery-hill", "held by the Union", "capture")


def test_stacks_follow_size_order_quarter_nickel_penny_dime() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH")
    places = {t for t in legal(state) if t.endswith(" cemetery-hill") and t.startswith("place")}
    assert places == {"place N cemetery-hill", "place P cemetery-hill", "place D cemetery-hill"}
    for coin in ("N", "P", "D"):
        state.apply(f"place {coin} cemetery-hill")
        state.apply("flip HH")
    assert stack(state, "cemetery-hill") == ["Q", "N", "P", "D"]


def test_a_coin_only_goes_on_a_strictly_larger_coin() -> None:
    state = play("flip HH", "place N cemetery-hill", "flip HH")
    refused(state, "place N cemetery-hill", "top coin on cemetery-hill is a N", "not smaller")
    refused(state, "place Q cemetery-hill", "not smaller")
    state.apply("place P cemetery-hill")
    assert stack(state, "cemetery-hill") == ["N", "P"]


def test_a_penny_is_larger_than_a_dime() -> None:
    state = play("flip HH", "place P wheatfield", "flip HH")
    assert "place D wheatfield" in legal(state)
    state = play("flip HH", "place D wheatfield", "flip HH")
    assert not any(t.endswith(" wheatfield") for t in legal(state))  # nothing goes on a dime


def test_only_coins_in_the_pile_can_be_placed() -> None:
    coins = {"Q": 1, "N": 0, "P": 1, "D": 1}
    state = play("flip HH", "place Q cemetery-hill", "flip HH", coins=coins)
    assert not any(t.startswith(("place Q", "place N")) for t in legal(state))
    refused(state, "place Q culps-hill", "no Q (quarter) left in your pile")
    refused(state, "place N culps-hill", "no N (nickel)")


# -- capturing ---------------------------------------------------------------------------
def test_capture_takes_the_opponents_top_coin_into_the_capturers_pile() -> None:
    state = play(
        "flip HH", "place Q cemetery-hill", "flip HH", "place P cemetery-hill",
        "flip TT", "capture cemetery-hill",
    )  # fmt: skip
    assert stack(state, "cemetery-hill") == ["Q"]
    assert holder(state, "cemetery-hill") == UNION
    piles = state.position()["piles"]
    assert piles[CONFEDERACY]["P"] == 7
    assert piles[UNION]["P"] == 5


def test_a_captured_coin_belongs_to_the_capturer() -> None:
    coins = {"Q": 1, "N": 0, "P": 0, "D": 1}
    state = play(
        "flip HH", "place Q cemetery-hill", "flip TT", "capture cemetery-hill",
        "flip TT", "place Q culps-hill", "flip TT", coins=coins,
    )  # fmt: skip
    assert "place Q wheatfield" in legal(state)  # the captured quarter, placed by the Confederacy
    assert holder(state, "culps-hill") == CONFEDERACY


def test_capturing_the_last_coin_empties_the_location() -> None:
    state = play("flip HH", "place D cemetery-hill", "flip TT", "capture cemetery-hill")
    assert holder(state, "cemetery-hill") is None
    assert stack(state, "cemetery-hill") == []


def test_capture_needs_an_opponents_stack() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH")
    assert not any(t.startswith("capture") for t in legal(state))
    refused(state, "capture cemetery-hill", "your own stack")
    refused(state, "capture culps-hill", "culps-hill is empty")


def test_pass_does_nothing_but_end_the_act() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip TT")
    before = state.position()
    state.apply("pass")
    after = state.position()
    assert state.current_player == pa.CHANCE
    assert after["locations"] == before["locations"] and after["piles"] == before["piles"]


# -- scoring -----------------------------------------------------------------------------
def test_a_location_scores_two_plus_a_point_per_coin() -> None:
    coins = {"Q": 1, "N": 1, "P": 1, "D": 1}
    state = play("flip HH", "place Q cemetery-hill", coins=coins)
    assert state.scores() == (2 + 1 + 3, 4)  # location 2 + 1 coin; 3 coins in the pile
    state.apply("flip HH")
    state.apply("place N cemetery-hill")
    assert state.scores() == (2 + 2 + 2, 4)


def test_stacks_of_three_or_more_count_their_coins_twice() -> None:
    coins = {"Q": 2, "N": 1, "P": 1, "D": 1}
    state = play(
        "flip TT", "place Q wheatfield", "flip TT", "place N wheatfield",
        "flip TT", "place P wheatfield", coins=coins,
    )  # fmt: skip
    assert state.scores() == (5, 2 + 2 * 3 + 2)
    state.apply("flip TT")
    state.apply("place D wheatfield")
    assert state.scores() == (5, 2 + 2 * 4 + 1)


def test_every_pile_coin_scores_one() -> None:
    assert play().scores() == (24, 24)
    assert play(coins={"Q": 3, "N": 0, "P": 2, "D": 0}).scores() == (5, 5)


def test_higher_score_wins_and_equal_is_a_draw() -> None:
    # One coin each: the first place empties the placer's pile and ends the game.
    won = play("flip TT", "place Q wheatfield", coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    assert won.is_terminal() and won.scores() == (1, 3) and won.winner() == CONFEDERACY
    assert won.returns() == (-1.0, 1.0)
    drawn = play(
        "flip HH", "place Q culps-hill", "flip TT", "place N wheatfield",
        "flip odd", "flip odd", "flip odd", "recall culps-hill", "recall wheatfield",
        coins={"Q": 1, "N": 1, "P": 0, "D": 0},
    )  # fmt: skip
    assert drawn.scores() == (2, 2)
    for _ in range(FLIP_LIMIT - drawn.flips):
        drawn.apply("flip odd")
    assert drawn.is_terminal() and drawn.winner() is None and drawn.returns() == (0.0, 0.0)


# -- the end -----------------------------------------------------------------------------
def test_the_game_ends_when_every_location_is_occupied() -> None:
    ids = [loc["id"] for loc in play(map="antietam").position()["locations"]]
    state = play(map="antietam")
    for i, loc in enumerate(ids):
        assert not state.is_terminal()
        state.apply("flip HH" if i % 2 == 0 else "flip TT")
        state.apply(f"place N {loc}")
    assert state.is_terminal()
    assert state.legal_actions() == () and state.chance_outcomes() == []
    assert state.scores() == (4 * 3 + 20, 3 * 3 + 21)
    refused(state, "flip HH", "the game is over")


def test_the_game_ends_when_a_pile_is_emptied() -> None:
    coins = {"Q": 1, "N": 1, "P": 0, "D": 0}
    state = play("flip TT", "place Q wheatfield", "flip TT", coins=coins)
    assert not state.is_terminal()
    state.apply("place N wheatfield")
    assert state.is_terminal()  # the Confederacy's pile is empty
    assert state.scores() == (2, 2 + 2)


def test_placing_the_last_coin_of_a_pile_ends_the_game_at_once() -> None:
    # The Union places its only coin: "either pile empty", though the map is nearly empty.
    state = play("flip HH", "place Q wheatfield", coins={"Q": 1, "N": 0, "P": 0, "D": 0})
    assert state.is_terminal() and state.scores() == (3, 1)


def test_a_capture_or_recall_never_ends_the_game() -> None:
    coins = {"Q": 1, "N": 1, "P": 0, "D": 0}
    state = play("flip HH", "place Q wheatfield", "flip TT", "capture wheatfield", coins=coins)
    assert state.current_player == pa.CHANCE  # the Union's pile is 1, the Confederacy's 3
    state = play("flip HH", "place Q wheatfield", "flip odd", "flip odd", "flip odd", coins=coins)
    state.apply("recall wheatfield")
    assert state.current_player == pa.CHANCE


def test_the_guard_ends_the_game_after_500_flips_with_nothing_owed() -> None:
    state = play()
    for _ in range(FLIP_LIMIT - 1):
        state.apply("flip odd")
    assert state.current_player == pa.CHANCE
    state.apply("flip odd")
    assert state.is_terminal()
    assert state.position()["flips"] == FLIP_LIMIT
    assert len(state.history) <= state.game.info.max_game_length


def test_the_guard_waits_for_the_act_owed_by_the_500th_flip() -> None:
    state = play()
    for _ in range(FLIP_LIMIT - 1):
        state.apply("flip odd")
    state.apply("flip HH")
    assert state.current_player == UNION  # the act is owed: not over yet
    state.apply("place Q cemetery-hill")
    assert state.is_terminal()


def test_the_guard_waits_for_the_recalls_owed_by_the_500th_flip() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip TT", "place Q wheatfield")
    while state.flips < FLIP_LIMIT - 3:
        state.apply("flip HH")
        state.apply("pass")
    for _ in range(3):
        state.apply("flip odd")
    assert state.flips == FLIP_LIMIT and state.current_player == UNION
    state.apply("recall cemetery-hill")
    assert state.current_player == CONFEDERACY
    state.apply("recall wheatfield")
    assert state.is_terminal()


def test_the_declared_length_bound_holds_for_the_longest_game() -> None:
    state = play()
    while not state.is_terminal():
        state.apply("flip HH")
        state.apply("pass")
    assert len(state.history) == 2 * FLIP_LIMIT == state.game.info.max_game_length


# -- the end option: occupied or used -------------------------------------------------------
ANTIETAM = LOCATIONS["antietam"]  # typed in from SPEC


def six_held_then_one_taken(end: str) -> WalletBattlesState:
    """Antietam: the Union holds six locations, then the Confederacy captures the coin on the
    first: every location but sharpsburg has held a coin, and north-woods is empty again."""
    state = play(map="antietam", end=end)
    for loc in ANTIETAM[:-1]:
        state.apply("flip HH")
        state.apply(f"place P {loc}")
    state.apply("flip TT")
    state.apply("capture north-woods")
    return state


def test_used_ends_once_every_location_has_held_a_coin_though_one_is_empty_again() -> None:
    state = six_held_then_one_taken("used")
    assert not state.is_terminal() and state.position()["unused"] == 1
    assert [loc["used"] for loc in state.position()["locations"]] == [True] * 6 + [False]
    state.apply("flip TT")
    state.apply("place Q sharpsburg")
    assert state.is_terminal() and state.ending == "used"
    assert holder(state, "north-woods") is None  # empty, but it was used
    assert state.scores() == (5 * 3 + 18, 3 + 24)  # a pile coin taken, one placed


def test_occupied_goes_on_while_a_location_is_empty() -> None:
    state = six_held_then_one_taken("occupied")
    state.apply("flip TT")
    state.apply("place Q sharpsburg")
    assert state.current_player == pa.CHANCE  # north-woods is empty: not over
    state.apply("flip HH")
    state.apply("place Q north-woods")
    assert state.is_terminal() and state.ending == "occupied"


def test_under_used_placing_again_on_a_used_location_does_not_end_the_game() -> None:
    state = six_held_then_one_taken("used")
    state.apply("flip HH")
    state.apply("place Q north-woods")  # used already: sharpsburg still never held a coin
    assert state.current_player == pa.CHANCE and state.position()["unused"] == 1


def test_a_recall_does_not_make_a_location_unused() -> None:
    state = play("flip HH", "place Q wheatfield", "flip odd", "flip odd", "flip odd", end="used")
    state.apply("recall wheatfield")
    wheatfield = next(x for x in state.position()["locations"] if x["id"] == "wheatfield")
    assert wheatfield["stack"] == [] and wheatfield["used"]
    assert state.position()["unused"] == 8


def test_under_used_the_pile_and_the_guard_still_end_the_game() -> None:
    state = play(
        "flip HH", "place Q wheatfield", end="used", coins={"Q": 1, "N": 0, "P": 0, "D": 0}
    )
    assert state.is_terminal() and state.ending == "pile"
    state = play(end="used")
    for _ in range(FLIP_LIMIT):
        state.apply("flip odd")
    assert state.is_terminal() and state.ending == "guard"


def test_the_end_option_is_checked_and_named_in_the_position() -> None:
    with pytest.raises(ValueError) as info:
        pa.load("wallet-battles", end="full")
    assert "occupied" in str(info.value) and "used" in str(info.value)
    assert pa.load("wallet-battles", end=" USED ").options["end"] == "used"
    assert play(end="used").position()["end"] == "used"


def test_the_ascii_picture_marks_used_empty_locations_under_used() -> None:
    state = six_held_then_one_taken("used")
    text = str(state)
    assert "north-woods      .  - (used)" in text
    assert "sharpsburg       .  -\n" in text
    assert "never used 1" in text
    assert "(used)" not in str(six_held_then_one_taken("occupied"))


# -- misc contract ---------------------------------------------------------------------
def test_decisions_at_a_flip_and_flips_at_a_decision_are_refused() -> None:
    refused(play(), "pass", "coins must be thrown first")
    refused(play("flip HH"), "flip TT", "Union's turn")


def test_position_is_complete_json() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH", "place D cemetery-hill", "flip TT")
    pos = json.loads(json.dumps(state.position()))
    assert pos == state.position()
    assert pos["map"] == "gettysburg"
    assert pos["to_move"] == CONFEDERACY and pos["phase"] == "act"
    hill = next(loc for loc in pos["locations"] if loc["id"] == "cemetery-hill")
    assert hill == {
        "id": "cemetery-hill",
        "name": "Cemetery Hill",
        "x": hill["x"],
        "y": hill["y"],
        "holder": UNION,
        "stack": ["Q", "D"],
        "value": 4,
        "used": True,
    }
    assert pos["end"] == "occupied" and pos["unused"] == 8 and pos["ending"] is None


def test_ascii_picture_shows_stacks_top_first() -> None:
    state = play("flip HH", "place Q cemetery-hill", "flip HH", "place D cemetery-hill")
    text = str(state)
    assert "cemetery-hill     U  D Q" in text
    assert "Union       pile Q5 N6 P6 D5" in text
    assert "score 26-24" in text
