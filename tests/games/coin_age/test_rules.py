"""One scenario per rule of Coin Age and per SPEC ruling, played in notation from the start."""

from __future__ import annotations

import doctest

import pytest

import pocketarena as pa
import pocketarena.games.coin_age as coin_age
from pocketarena.games.coin_age import CoinAgeState


def play(*moves: str, map_name: str = "classic") -> CoinAgeState:
    state = pa.load("coin-age", map=map_name).new_initial_state()
    for move in moves:
        state.apply(move)
    assert isinstance(state, CoinAgeState)
    return state


def refused(state: pa.State, move: str, *words: str) -> str:
    """Apply ``move``, expect a refusal naming ``words``, and check nothing changed."""
    before = state.to_json()
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(move)
    message = str(info.value)
    for word in words:
        assert word in message, message
    assert state.to_json() == before
    return message


def legal(state: pa.State) -> set[str]:
    return {a.text for a in state.legal_actions()}


def bank(state: CoinAgeState, seat: int) -> dict[str, int]:
    banks: dict[str, dict[str, int]] = state.position()["banks"]
    return banks[state.game.SEATS[seat]]


def stack(state: CoinAgeState, space: str) -> list[str]:
    stacks: dict[str, list[str]] = state.position()["stacks"]
    return stacks[space]


# -- setup and the slap -------------------------------------------------------------------
def test_setup_banks_heads_first_and_empty_map() -> None:
    state = play()
    assert state.current_player == pa.CHANCE
    assert state.position()["mover"] == "Heads"
    for seat in (0, 1):
        assert bank(state, seat) == {"Q": 1, "N": 2, "P": 3, "D": 4}
    assert all(s == [] for s in state.position()["stacks"].values())
    assert state.scores() == (10, 10)  # bank coins score 1 each


def test_slap_throws_one_coin_of_each_kind_in_the_bank() -> None:
    state = play()
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 16
    assert all(p == 1 / 16 for _, p in outcomes)
    assert outcomes[0][0] == "slap Q:H N:H P:H D:H"
    assert outcomes[-1][0] == "slap Q:T N:T P:T D:T"
    # Heads places its only quarter; its next slap has no quarter in it.
    state.apply("slap Q:H N:T P:T D:T")
    state.apply("place Q stone-rock")
    state.apply("end")
    state.apply("slap Q:T N:T P:T D:T")  # Tails: four matches
    state.apply("end")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 8
    assert all(a.text.startswith("slap N:") and p == 1 / 8 for a, p in outcomes)
    refused(state, "slap Q:H N:H P:H D:H", "N P D")
    refused(state, "slap N:H P:H", "N P D")


def test_slap_outcome_notation_orders_coins_q_n_p_d() -> None:
    game = pa.load("coin-age")
    assert game.parse_action("slap q:h n:t p:t d:h").text == "slap Q:H N:T P:T D:H"
    with pytest.raises(pa.NotationError, match="order Q N P D"):
        game.parse_action("slap D:H Q:H")
    assert len(game.chance_actions) == 81  # each kind absent, heads or tails


def test_matches_count_the_movers_own_side() -> None:
    # The same slap gives Heads three matches and Tails one.
    heads = play("slap Q:H N:H P:H D:T")
    assert heads.matches == 3 and heads.allowance() == {
        "place": 2,
        "pay": 0,
        "move": 0,
        "capture": 0,
    }
    tails = play("slap Q:H N:T P:T D:T", "place Q stone-rock", "end", "slap Q:H N:H P:H D:T")
    assert tails.matches == 1
    assert tails.allowance() == {"place": 1, "pay": 0, "move": 1, "capture": 0}
    assert legal(tails) >= {"place D treewood", "move stone-rock treewood", "end"}
    assert not any(t.startswith(("place Q", "place N", "place P")) for t in legal(tails))


# -- the allowances --------------------------------------------------------------------------
def test_four_matches_place_two_then_only_pay_or_end() -> None:
    state = play("slap Q:H N:H P:H D:H", "place Q stone-rock", "place N treewood")
    assert legal(state) == {"pay P", "pay D", "end"}
    refused(state, "place P cedarville", "pay a matching coin to place a third")


def test_two_or_three_matches_place_up_to_two() -> None:
    for slap in ("slap Q:H N:H P:T D:T", "slap Q:H N:H P:H D:T"):
        state = play(slap, "place N treewood")
        assert state.current_player == 0
        state.apply("place Q stone-rock")
        assert state.current_player == pa.CHANCE, "two places use the allowance up"
        assert state.position()["mover"] == "Tails"


def test_one_match_places_one_and_moves_one() -> None:
    state = play("slap Q:H N:T P:T D:T", "place Q stone-rock")
    assert state.allowance() == {"place": 0, "pay": 0, "move": 1, "capture": 0}
    assert legal(state) == {"move stone-rock mount-cragro", "move stone-rock hellag-dum",
                            "move stone-rock treewood", "move stone-rock cedarville", "end"}  # fmt: skip
    refused(state, "place D treewood", "landed tails")
    state.apply("move stone-rock treewood")
    assert state.current_player == pa.CHANCE
    assert stack(state, "treewood") == ["Q:H"] and stack(state, "stone-rock") == []


def test_no_match_captures_one_and_moves_one() -> None:
    state = play(
        "slap Q:H N:H P:T D:T", "place Q stone-rock", "place N treewood", "slap Q:H N:H P:H D:H"
    )
    assert state.current_player == 1 and state.matches == 0
    assert state.allowance() == {"place": 0, "pay": 0, "move": 1, "capture": 1}
    refused(state, "place N cedarville", "landed heads")
    refused(state, "pay N", "landed heads")
    state.apply("capture treewood")
    refused(state, "capture stone-rock", "already captured")
    state.apply("move stone-rock cedarville")
    assert state.current_player == pa.CHANCE


def test_no_match_on_an_empty_map_ends_the_turn_at_once() -> None:
    state = play("slap Q:T N:T P:T D:T")
    assert state.current_player == pa.CHANCE
    assert state.position()["mover"] == "Tails"
    assert state.turn == 2


def test_actions_are_optional_and_in_any_order() -> None:
    # One match: the move may come before the place.
    state = play("slap Q:H N:H P:T D:T", "place Q stone-rock", "place N hellag-dum",
                 "slap Q:T N:H P:H D:H", "move stone-rock treewood", "place Q stone-rock")  # fmt: skip
    assert stack(state, "stone-rock") == ["Q:T"] and stack(state, "treewood") == ["Q:H"]
    state = play("slap Q:H N:H P:T D:T", "end")
    assert state.current_player == pa.CHANCE and state.position()["mover"] == "Tails"


def test_the_turn_ends_by_itself_when_only_end_is_left() -> None:
    # After a one-match place, the move keeps the turn open while a stack can still move.
    state = play("slap Q:H N:T P:T D:T", "place Q stone-rock")
    assert state.current_player == 0
    state.apply("end")
    assert state.current_player == pa.CHANCE
    # After the move, nothing but `end` is left: the turn ends itself.
    state = play("slap Q:H N:T P:T D:T", "place Q stone-rock", "move stone-rock treewood")
    assert state.current_player == pa.CHANCE and state.turn == 2


# -- place -------------------------------------------------------------------------------
def test_only_matching_thrown_coins_are_placed_each_once() -> None:
    state = play("slap Q:H N:T P:H D:T")
    refused(state, "place N stone-rock", "landed tails", "only coins showing your side")
    refused(state, "place D stone-rock", "landed tails")
    state.apply("place P stone-rock")
    # Heads has two more pennies in the bank, but only the thrown one could be placed.
    refused(state, "place P treewood", "already been placed")
    assert bank(state, 0)["P"] == 2


def test_a_coin_not_thrown_cannot_be_placed() -> None:
    state = play("slap Q:H N:T P:T D:T", "place Q stone-rock", "end",
                 "slap Q:H N:H P:H D:H", "end", "slap N:H P:H D:H")  # fmt: skip
    refused(state, "place Q treewood", "threw no quarter")


def test_stacking_by_strictly_higher_rank_on_anyones_coin() -> None:
    state = play("slap Q:H N:H P:T D:T", "place N stone-rock", "place Q treewood",
                 "slap Q:T N:T P:T D:H")  # fmt: skip
    # Tails: Q N P match. On Heads's nickel: a penny yes, a quarter or another nickel no.
    refused(state, "place Q stone-rock", "topped by Heads' nickel", "higher rank")
    refused(state, "place N stone-rock", "topped by Heads' nickel")
    assert "place N treewood" in legal(state)
    state.apply("place P stone-rock")
    state.apply("place N treewood")
    assert stack(state, "stone-rock") == ["N:H", "P:T"]
    assert stack(state, "treewood") == ["Q:H", "N:T"]
    # Heads covers Tails's nickel with a dime in turn.
    state.apply("slap N:H P:H D:H")
    state.apply("place D treewood")
    state.apply("place P cedarville")
    assert stack(state, "treewood") == ["Q:H", "N:T", "D:H"]


def test_a_coin_may_cover_its_owners_own_coin() -> None:
    state = play("slap Q:H N:H P:T D:T", "place Q stone-rock", "place N stone-rock")
    assert stack(state, "stone-rock") == ["Q:H", "N:H"]
    assert state.scores() == (8 + 6, 10)  # only the top coin counts, doubled in Copper Peaks


# -- pay ---------------------------------------------------------------------------------
def test_pay_one_matching_coin_to_place_a_third() -> None:
    state = play("slap Q:H N:H P:H D:H", "pay D")
    assert bank(state, 0)["D"] == 3 and bank(state, 1)["D"] == 5  # it becomes Tails's dime
    assert state.allowance()["place"] == 3
    refused(state, "place D treewood", "already been placed or paid")
    refused(state, "pay P", "already paid")
    state.apply("place Q stone-rock")
    state.apply("place N treewood")
    state.apply("place P cedarville")
    assert state.current_player == pa.CHANCE and state.position()["mover"] == "Tails"


def test_pay_after_two_places_still_allows_a_third() -> None:
    state = play("slap Q:H N:H P:H D:H", "place Q stone-rock", "place N treewood", "pay P")
    assert legal(state) == {f"place D {s}" for s in state.game.map.space_ids} | {"end"}
    state.apply("place D cedarville")
    assert state.current_player == pa.CHANCE


def test_pay_needs_four_matches() -> None:
    state = play("slap Q:H N:H P:H D:T")
    refused(state, "pay P", "3 matches", "place up to 2")


# -- move --------------------------------------------------------------------------------
def test_moves_go_only_to_adjacent_empty_spaces() -> None:
    state = play("slap Q:H N:H P:T D:T", "place Q stone-rock", "place N treewood",
                 "slap Q:T N:H P:H D:H")  # fmt: skip
    assert state.matches == 1
    with pytest.raises(pa.NotationError, match="not adjacent"):
        state.apply("move stone-rock townsville")
    refused(state, "move stone-rock treewood", "treewood is occupied", "empty adjacent space")
    refused(state, "move cedarville treewood", "cedarville is empty")
    assert "move stone-rock mount-cragro" in legal(state)
    assert "move stone-rock townsville" not in legal(state)


def test_a_move_takes_anyones_whole_stack() -> None:
    state = play(
        "slap Q:H N:H P:T D:T", "place Q stone-rock", "place N treewood",
        "slap Q:T N:T P:H D:H", "place N stone-rock", "place Q cedarville",
        "slap N:H P:T D:T", "place N mount-cragro", "move stone-rock hellag-dum",
    )  # fmt: skip
    assert stack(state, "hellag-dum") == ["Q:H", "N:T"]
    assert stack(state, "stone-rock") == []


# -- capture -----------------------------------------------------------------------------
def test_capture_takes_anyones_top_coin_into_the_movers_bank() -> None:
    state = play("slap Q:H N:H P:T D:T", "place Q stone-rock", "place N treewood",
                 "slap Q:T N:T P:H D:H", "place N stone-rock", "place Q cedarville",
                 "slap N:T P:T D:T")  # fmt: skip
    assert state.matches == 0 and state.position()["mover"] == "Heads"
    state.apply("capture stone-rock")  # Tails's nickel becomes Heads's
    assert bank(state, 0) == {"Q": 0, "N": 2, "P": 3, "D": 4}
    assert bank(state, 1)["N"] == 1
    assert stack(state, "stone-rock") == ["Q:H"]  # the coin below is on top again
    state.apply("end")
    # Heads's own coin can be taken back too.
    state.apply("slap N:T P:T D:T")  # Tails: three matches; just end
    state.apply("end")
    state.apply("slap N:T P:T D:T")
    state.apply("capture treewood")
    assert bank(state, 0)["N"] == 3 and stack(state, "treewood") == []


def test_a_captured_coin_is_thrown_next_turn() -> None:
    # Heads takes Tails's quarter, then throws it as its own.
    state = play("slap Q:H N:T P:T D:T", "place Q stone-rock", "end",
                 "slap Q:T N:H P:H D:H", "place Q treewood", "end",
                 "slap N:T P:T D:T", "capture treewood", "end",
                 "slap N:H P:H D:H", "end")  # fmt: skip
    assert bank(state, 0)["Q"] == 1 and bank(state, 1)["Q"] == 0
    assert len(state.chance_outcomes()) == 16
    state.apply("slap Q:H N:T P:T D:T")
    state.apply("place Q cedarville")
    assert stack(state, "cedarville") == ["Q:H"]


# -- the end -----------------------------------------------------------------------------
def test_the_game_ends_at_once_when_the_last_empty_space_is_filled() -> None:
    state = play(
        "slap Q:H N:H P:T D:T", "place Q mount-cragro", "place N hellag-dum",
        "slap Q:T N:T P:H D:H", "place Q stone-rock", "place N treewood",
        "slap N:H P:H D:T", "place N grey-hills", "place P cedarville",
        "slap N:T P:T D:H", "place N townsville", "place P goldfarme",
        "slap P:H D:T", "place P gentle-wood", "end",
    )  # fmt: skip
    assert state.current_player == pa.CHANCE
    state.apply("slap P:T D:T")  # Tails: two places allowed
    state.apply("place D silver-city")
    assert state.is_terminal(), "the last empty space ends the game with a place left unused"
    assert state.end_reason() == "board full"
    assert state.legal_actions() == ()


def test_the_game_ends_at_once_when_the_movers_bank_runs_empty() -> None:
    moves = ["slap Q:H N:H P:T D:T", "place Q stone-rock", "place N stone-rock",
             "slap Q:H N:H P:H D:H", "end",
             "slap N:H P:H D:T", "place P stone-rock", "place N treewood",
             "slap Q:H N:H P:H D:H", "end",
             "slap P:H D:H", "place D stone-rock", "place P treewood",
             "slap Q:H N:H P:H D:H", "end",
             "slap P:H D:H", "place P cedarville", "place D treewood",
             "slap Q:H N:H P:H D:H", "end",
             "slap D:H", "place D cedarville", "end",
             "slap Q:H N:H P:H D:H", "end",
             "slap D:H", "place D mount-cragro"]  # fmt: skip
    state = play(*moves[:-1])
    assert bank(state, 0) == {"Q": 0, "N": 0, "P": 0, "D": 1}
    state.apply(moves[-1])
    assert state.is_terminal() and state.end_reason() == "bank empty"
    assert sum(bank(state, 0).values()) == 0


def test_thrown_coins_left_unplaced_stay_in_the_bank() -> None:
    state = play("slap Q:H N:H P:H D:H", "place D stone-rock", "end")
    assert bank(state, 0) == {"Q": 1, "N": 2, "P": 3, "D": 3}


def test_the_game_stops_after_200_turns() -> None:
    state = play()
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply("end")
    assert state.turn == 200 and state.end_reason() == "turn limit"
    assert state.ply <= state.game.info.max_game_length


# -- scoring -----------------------------------------------------------------------------
def test_region_doubling_needs_strictly_more_spaces() -> None:
    # Copper Peaks: Heads holds two spaces, Tails one. Plains of Kashe: one each.
    state = play("slap Q:H N:H P:T D:T", "place Q townsville", "place N mount-cragro",
                 "slap Q:T N:T P:H D:H", "place Q goldfarme", "place N stone-rock",
                 "slap N:H P:H D:T", "place P hellag-dum", "place N gentle-wood")  # fmt: skip
    heads_bank, tails_bank = 6, 8
    heads = 2 * (3 + 2) + 4 + 2 * 3 + heads_bank  # peaks doubled, plains 1-1 not, vale alone
    tails = 3 + 4 + tails_bank  # Tails doubles nothing
    assert state.scores() == (heads, tails)


def test_an_empty_region_and_a_tied_region_double_nobody() -> None:
    state = play("slap Q:H N:T P:T D:T", "place Q townsville", "end",
                 "slap Q:H N:H P:H D:T", "place D goldfarme")  # fmt: skip
    assert state.scores() == (4 + 9, 1 + 9)


def _play_to_the_turn_limit(*moves: str) -> CoinAgeState:
    state = play(*moves)
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            state.apply(state.chance_outcomes()[0][0])
        else:
            state.apply("end")
    return state


def test_a_tie_goes_to_the_higher_bank_value() -> None:
    # Heads: quarter on townsville (4) + 9 bank coins = 13, bank value 16.
    # Tails: dime on goldfarme (1, plains tied) + penny alone in the forests (2 x 2) + 8 = 13,
    # bank value 17: Tails wins the tie.
    state = _play_to_the_turn_limit("slap Q:H N:T P:T D:T", "place Q townsville", "end",
                                    "slap Q:H N:H P:T D:T", "place D goldfarme", "place P cedarville")  # fmt: skip
    assert state.scores() == (13, 13)
    assert (state.bank_value(0), state.bank_value(1)) == (16, 17)
    assert state.winner() == 1
    assert state.returns() == (-1.0, 1.0)


def test_equal_points_and_equal_bank_value_is_a_draw() -> None:
    state = _play_to_the_turn_limit("slap Q:H N:T P:T D:T", "place Q townsville", "end",
                                    "slap Q:H N:T P:H D:T", "place N goldfarme", "place D cedarville")  # fmt: skip
    assert state.scores() == (13, 13)
    assert state.bank_value(0) == state.bank_value(1) == 16
    assert state.winner() is None and state.returns() == (0.0, 0.0)


def test_more_points_wins_whatever_the_bank_value() -> None:
    state = _play_to_the_turn_limit("slap Q:H N:T P:T D:T", "place Q townsville")
    assert state.scores() == (9 + 8, 10)
    assert state.winner() == 0


# -- errors in player words ------------------------------------------------------------------
def test_decisions_wait_for_the_slap() -> None:
    state = play()
    refused(state, "place Q stone-rock", "thrown first")


def test_typos_get_a_precise_message() -> None:
    game = pa.load("coin-age")
    cases = {
        "place Z stone-rock": "not a coin",
        "place Q stonerock": "did you mean 'stone-rock'",
        "move stone-rock": "it is written",
        "capture atlantis": "not a space on the Classic map",
        "move treewood treewood": "not onto itself",
        "slap Q:X": "coin:face",
        "jump Q": "unknown word",
    }
    for text, words in cases.items():
        with pytest.raises(pa.NotationError) as info:
            game.parse_action(text)
        assert words in str(info.value), (text, str(info.value))
    assert game.parse_action("  PLACE q   Stone-Rock ").text == "place Q stone-rock"
    assert game.parse_action("pass").text == "end"


def test_the_state_is_unchanged_after_every_refusal() -> None:
    state = play("slap Q:H N:H P:T D:T", "place Q stone-rock")
    before = state.to_json()
    for text in ("place Q treewood", "pay N", "move stone-rock treewood", "capture stone-rock",
                 "slap Q:H", "place P stone-rock"):  # fmt: skip
        with pytest.raises(pa.IllegalActionError):
            state.apply(text)
    assert state.to_json() == before


def test_docstring_examples() -> None:
    result = doctest.testmod(coin_age)
    assert result.attempted > 0 and result.failed == 0
