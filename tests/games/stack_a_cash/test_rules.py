"""One scenario per rule of Stack-a-Cash and per SPEC ruling, played in notation."""

from __future__ import annotations

import pytest

import pocketarena as pa
from pocketarena.games.stack_a_cash import StackACashState


def play(*moves: str, protect: str = "touched") -> StackACashState:
    state = pa.load("stack-a-cash", protect=protect).new_initial_state()
    for move in moves:
        state.apply(move)
    assert isinstance(state, StackACashState)
    return state


def stack(state: StackACashState, cell: str) -> list[str]:
    return [c["size"] + c["face"] for c in state.position()["stacks"][cell]]


def legal(state: StackACashState) -> set[str]:
    return {a.text for a in state.legal_actions()}


def refused(state: StackACashState, move: str, *words: str) -> None:
    before = state.to_json()
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(move)
    for word in words:
        assert word in str(info.value), str(info.value)
    assert state.to_json() == before


# -- the game's shape -----------------------------------------------------------------------
def test_action_table_is_place_flip_move_move_flip_in_that_order() -> None:
    game = pa.load("stack-a-cash")
    texts = [a.text for a in game.actions]
    assert len(texts) == 180
    assert texts[:3] == ["place L a1", "place L b1", "place L c1"]
    assert texts[26] == "place S c3"
    assert texts[27:36] == [f"flip {f}{r}" for r in "123" for f in "abc"]
    assert texts[36] == "move a1 b1" and texts[107] == "move c3 b3"
    assert texts[108] == "move a1 b1 flip" and texts[179] == "move c3 b3 flip"
    assert game.SEATS == ("Heads", "Tails")
    assert game.info.max_game_length == 200


def test_protect_option_is_touched_by_default_and_checked() -> None:
    assert pa.load("stack-a-cash").options == {"protect": "touched"}
    assert pa.load("stack-a-cash", protect="PLACED").options == {"protect": "placed"}
    with pytest.raises(ValueError, match="touched, placed"):
        pa.load("stack-a-cash", protect="never")


def test_heads_moves_first_and_can_only_place_on_an_empty_board() -> None:
    state = play()
    assert state.current_player == 0
    assert legal(state) == {f"place {s} {f}{r}" for s in "LMS" for f in "abc" for r in "123"}


# -- placing ----------------------------------------------------------------------------------
def test_a_placed_coin_shows_the_movers_side() -> None:
    state = play("place L b2", "place M a1")
    assert stack(state, "b2") == ["LH"]
    assert stack(state, "a1") == ["MT"]


def test_a_coin_goes_only_onto_an_empty_cell_or_a_strictly_larger_coin() -> None:
    state = play("place M b2")
    refused(state, "place M b2", "medium coin on top", "strictly larger")
    refused(state, "place L b2", "strictly larger")
    state.apply("place S b2")
    assert stack(state, "b2") == ["MH", "ST"]


def test_the_supply_holds_two_coins_of_each_size() -> None:
    state = play("place L a1", "place L c3")
    assert state.position()["supply"] == {"L": 0, "M": 2, "S": 2}
    refused(state, "place L b2", "no large coin (L) left")
    assert not any(a.text.startswith("place L") for a in state.legal_actions())


def test_with_the_supply_empty_only_flips_and_moves_remain() -> None:
    state = play("place L a1", "place L c3", "place M a1", "place M c3", "place S b1", "place S b3")
    assert state.position()["supply"] == {"L": 0, "M": 0, "S": 0}
    assert all(not a.text.startswith("place") for a in state.legal_actions())
    refused(state, "place S b2", "no small coin (S) left", "move or flip")


# -- flipping and moving --------------------------------------------------------------------
def test_flip_turns_over_the_top_coin_only() -> None:
    state = play("place L b2", "place M c1", "place S b2", "place S a3", "flip b2")
    assert stack(state, "b2") == ["LH", "ST"]


def test_anyones_coin_may_be_moved_or_flipped() -> None:
    state = play("place L b2", "place M c1", "place S a3")
    assert {"flip b2", "move b2 a1", "move b2 a1 flip"} <= legal(state)  # Tails, Heads' coin
    state.apply("move b2 a1 flip")
    assert stack(state, "a1") == ["LT"]


def test_move_keeps_the_face_and_uncovers_the_coin_beneath() -> None:
    state = play("place L b2", "place M c1", "place S b2", "place S a3", "move b2 c1")
    assert stack(state, "c1") == ["MT", "SH"]
    assert stack(state, "b2") == ["LH"]


def test_move_flip_moves_and_turns_over() -> None:
    state = play("place L b2", "place M c1", "place S a3", "move b2 c3 flip")
    assert stack(state, "c3") == ["LT"]
    assert stack(state, "b2") == []


def test_a_coin_moves_only_onto_an_empty_cell_or_a_strictly_larger_coin() -> None:
    state = play("place L b2", "place M c1", "place S a3", "place L a1")
    refused(state, "move b2 a1", "large coin", "strictly larger")
    refused(state, "move c1 a3", "small one")
    refused(state, "flip c2", "c2 is empty")
    refused(state, "move c2 a2", "c2 is empty")
    state.apply("move c1 b2")
    assert stack(state, "b2") == ["LH", "MT"]


def test_only_top_coins_move() -> None:
    state = play("place L b2", "place M c1", "place S b2", "place S a3")
    assert "move b2 a2" in legal(state)
    state.apply("move b2 a2")
    assert stack(state, "a2") == ["SH"]
    assert stack(state, "b2") == ["LH"]


# -- protection --------------------------------------------------------------------------------
def test_a_just_placed_coin_cannot_be_moved_or_flipped() -> None:
    for protect in ("touched", "placed"):
        state = play("place L b2", protect=protect)
        assert state.position()["protected"] == "b2"
        refused(state, "flip b2", "protected", "Heads just")
        refused(state, "move b2 a1", "protected")
        refused(state, "move b2 a1 flip", "protected")


def test_touched_protects_a_just_flipped_or_moved_coin() -> None:
    state = play("place L b2", "place M c1", "flip b2")
    refused(state, "flip b2", "protected", "touched")
    state.apply("move c1 a1")
    assert state.position()["protected"] == "a1"  # the coin, where it now lies
    refused(state, "flip a1", "protected")
    refused(state, "move a1 c1", "protected")
    assert "flip b2" in legal(state)


def test_placed_protects_only_a_just_placed_coin() -> None:
    state = play("place L b2", "place M c1", "flip b2", protect="placed")
    assert state.position()["protected"] is None
    state.apply("flip b2")  # Tails turns straight back the coin Heads just flipped
    assert stack(state, "b2") == ["LH"]


def test_the_protected_coin_can_still_be_covered() -> None:
    state = play("place L b2", "place M b2")
    assert state.position()["protected"] == "b2"
    state.apply("place S b2")
    assert stack(state, "b2") == ["LH", "MT", "SH"]
    state = play("place L b2", "place M c1", "place L a1")
    assert state.position()["protected"] == "a1"
    state.apply("move c1 a1")
    assert stack(state, "a1") == ["LH", "MT"]


def test_protection_lasts_one_turn() -> None:
    state = play("place L b2", "place M c1", "place S a3")
    # Tails placed c1 one turn ago: now Heads' own a3 placement is protected instead.
    assert state.position()["protected"] == "a3"
    assert "flip c1" in legal(state)


# -- winning --------------------------------------------------------------------------------
def test_three_of_your_side_in_a_line_wins() -> None:
    state = play("place L a1", "place L a3", "place M b1", "place M b3", "place S c1")
    assert state.is_terminal() and state.winner() == 0
    assert state.scores() == (1.0, 0.0)
    assert state.position()["lines"] == [["a1", "b1", "c1"]]


def test_columns_and_diagonals_count() -> None:
    state = play("place L a1", "place L c1", "place M b2", "place M a2", "place S c3")
    assert state.winner() == 0 and state.position()["lines"] == [["a1", "b2", "c3"]]
    state = play("place L c1", "place L a1", "place M c2", "place M b1", "place S c3")
    assert state.winner() == 0


def test_only_the_top_layer_counts() -> None:
    # Heads' b1 coin is covered by a Tails coin: a1 b1 c1 is no Heads line.
    state = play("place L a1", "place L a3", "place M b1", "place S b1", "place M c1")
    assert not state.is_terminal()
    assert stack(state, "b1") == ["MH", "ST"]


def _crossroads() -> StackACashState:
    """Row 1 reads H H _, row 2 reads H T T where a2's Heads S covers a Tails L. Heads to move."""
    state = play(
        "place L a1",  # Heads
        "place L a2",  # Tails: a2 L(T)
        "place S a2",  # Heads covers it: a2 shows S(H)
        "place M b2",  # Tails
        "place S b1",  # Heads: row 1 = H H _
        "place M c2",  # Tails: row 2 = H T T
    )
    assert not state.is_terminal() and state.current_player == 0
    return state


def test_making_the_opponents_line_loses() -> None:
    state = _crossroads()
    state.apply("flip a2")  # Heads turns its own S to Tails: row 2 is Tails' line
    assert state.winner() == 1
    assert state.position()["lines"] == [["a2", "b2", "c2"]]


def test_a_double_line_goes_to_the_opponent_of_the_mover() -> None:
    state = _crossroads()
    # Moving the S from a2 to c1 completes Heads' row 1 but uncovers Tails' L: row 2 too.
    state.apply("move a2 c1")
    assert state.lines(0) and state.lines(1)
    assert state.winner() == 1
    assert state.scores() == (0.0, 1.0)


def test_a_line_of_the_movers_side_alone_wins_for_the_mover() -> None:
    state = _crossroads()
    state.apply("move b2 c1 flip")  # the M(T) from b2 lands on c1 as Heads; b2 shows nothing
    assert state.winner() == 0
    assert state.position()["lines"] == [["a1", "b1", "c1"]]


def test_draw_on_the_third_repetition_touched() -> None:
    state = play("place L a1", "place L c3")
    cycle = ["flip a1", "flip c3", "flip a1", "flip c3"]
    for move in cycle:
        state.apply(move)
    assert state.position()["repetitions"] == 2
    for move in cycle[:-1]:
        state.apply(move)
    assert not state.is_terminal()
    state.apply(cycle[-1])
    assert state.is_terminal() and state.winner() is None
    assert state.scores() == (0.0, 0.0)
    assert "third time" in (state.position()["draw"] or "")


def test_touched_stops_flipping_the_same_coin_back_and_forth() -> None:
    state = play("place L a1", "place L c3", "flip a1")
    refused(state, "flip a1", "protected")
    state = play("place L a1", "place L c3", "flip a1", protect="placed")
    for _ in range(3):
        state.apply("flip a1")  # Tails and Heads take turns flipping the same coin back
    assert not state.is_terminal()
    state.apply("flip a1")
    assert state.is_terminal() and state.winner() is None  # the stalemate "placed" allows


def test_the_protected_coin_is_part_of_the_position() -> None:
    # Same coins, same side to move, but a different protected coin: not a repetition.
    state = play("place L a1", "place L c3", protect="placed")
    first = state.position()
    state.apply("flip a1")
    state.apply("flip a1")
    again = state.position()
    assert first["stacks"] == again["stacks"] and first["to_move"] == again["to_move"]
    assert first["protected"] == "c3" and again["protected"] is None
    assert again["repetitions"] == 1


def test_a_placement_wipes_the_repetition_count() -> None:
    state = play("place L a1", "place L c3")
    for move in ["flip a1", "flip c3", "flip a1", "flip c3"]:
        state.apply(move)
    assert state.position()["repetitions"] == 2
    state.apply("place S b2")
    assert state.position()["repetitions"] == 1


def test_draw_after_200_plies() -> None:
    state = play("place L a1", "place L c3")
    # Walk the two coins around without ever making a line or a third repetition.
    while not state.is_terminal():
        assert state.ply < 200
        for action in state.legal_actions():
            child = state.child(action)
            assert isinstance(child, StackACashState)
            if child.winner() is not None or (child.is_terminal() and child.ply < 200):
                continue
            if child.position()["repetitions"] > 1:
                continue
            state = child
            break
        else:
            pytest.fail("no quiet move found")
    assert state.ply == 200
    assert state.winner() is None
    assert state.position()["draw"] == "200 plies were played"


# -- notation errors ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", ["empty"]),
        ("jump b2", ["starts with 'jump'", "place, flip or move"]),
        ("place X b2", ["'x' is not a coin size"]),
        ("place L d4", ["'d4' is not a cell", "a1 to c3"]),
        ("place L", ["place L b2"]),
        ("flip", ["flip b2"]),
        ("flip z9", ["'z9' is not a cell"]),
        ("move b2", ["move b2 c3"]),
        ("move b2 b2", ["another cell", "flip b2"]),
        ("move b2 c3 flop", ["'flop'", "must be 'flip'"]),
        ("move b2 c4", ["'c4' is not a cell"]),
    ],
)
def test_unreadable_notation_says_what_is_wrong(text: str, words: list[str]) -> None:
    state = play("place L b2")
    before = state.to_json()
    with pytest.raises(pa.NotationError) as info:
        state.apply(text)
    for word in words:
        assert word in str(info.value)
    assert state.to_json() == before


def test_notation_forgives_case_and_spacing() -> None:
    state = play("  PLACE l   B2 ", "place m a1", "MOVE b2 C3 FLIP")
    assert [a.text for a in state.history] == ["place L b2", "place M a1", "move b2 c3 flip"]


def test_no_move_after_the_end() -> None:
    state = play("place L a1", "place L a3", "place M b1", "place M b3", "place S c1")
    refused(state, "flip a1", "game is over")


# -- views ----------------------------------------------------------------------------------
def test_position_is_a_complete_json_view() -> None:
    state = play("place L b2", "place S b2")
    pos = state.position()
    assert pos["stacks"]["b2"] == [{"size": "L", "face": "H"}, {"size": "S", "face": "T"}]
    assert pos["stacks"]["a1"] == []
    assert pos["supply"] == {"L": 1, "M": 2, "S": 1}
    assert pos["to_move"] == "Heads" and pos["protected"] == "b2" and pos["ply"] == 2
    assert pos["winner"] is None and pos["draw"] is None and pos["lines"] == []


def test_ascii_picture() -> None:
    state = play("place L b2", "place M a1", "place S b2")
    assert str(state).splitlines() == [
        "3 | .        .        .",
        "2 | .        LH SH    .",
        "1 | MT       .        .",
        "    a        b        c",
        "Tails to move; supply L1 M1 S1; protected b2",
    ]


def test_the_module_examples_hold() -> None:
    import doctest

    import pocketarena.games.stack_a_cash as module

    assert doctest.testmod(module, raise_on_error=False).failed == 0
