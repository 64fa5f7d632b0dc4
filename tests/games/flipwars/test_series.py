"""Tactical War played as a series: the block, round wins, who moves the block and who starts."""

from __future__ import annotations

import json
from typing import Any

import pytest

import pocketarena as pa
from tests.games.flipwars.helpers import (
    LAST_FIRST_WINS,
    LAST_QUIET,
    LAST_SECOND_WINS,
    QUIET_23,
    colours,
    new,
    play,
)


def _round(state: pa.State, last: str) -> pa.State:
    return play(state, QUIET_23 + [last])


def test_round_one_has_the_block_on_c3_and_blue_first() -> None:
    state = new(mode="tactical")
    view = state.position()
    assert view["block"] == "c3"
    assert view["to_move"] == "blue"
    assert view["round"] == 1
    assert view["series"]["round_wins"] == {"blue": 0, "red": 0}
    assert len(state.legal_actions()) == 24 * 21


def test_the_rounds_loser_moves_the_block_then_chooses_who_starts() -> None:
    state = _round(new(mode="tactical"), LAST_FIRST_WINS)  # Blue wins round 1, 13-11
    assert not state.is_terminal()
    assert state.scores() == (1, 0)
    assert state.current_player == 1  # Red lost: Red chooses
    assert state.position()["phase"] == "block"
    assert [a.text for a in state.legal_actions()] == [
        f"block {f}{r}" for r in "12345" for f in "abcde"
    ]
    state.apply("block d4")
    assert state.current_player == 1
    assert state.position()["phase"] == "first"
    assert [a.text for a in state.legal_actions()] == ["first blue", "first red"]
    state.apply("first red")
    view = state.position()
    assert view["round"] == 2
    assert view["block"] == "d4"
    assert view["to_move"] == "red"
    assert colours(state) == {}  # an empty board
    assert view["supply"]["red"]["tank"] == 2  # fresh tiles
    with pytest.raises(pa.IllegalActionError, match="d4 holds the block"):
        state.apply("place tank d4 r0")


def test_the_block_may_go_on_any_cell() -> None:
    state = _round(new(mode="tactical"), LAST_SECOND_WINS)  # Red wins: Blue chooses
    assert state.current_player == 0
    state.apply("block a1")
    state.apply("first blue")
    assert "place tank a1 r0" not in state.legal_actions()
    assert len(state.legal_actions()) == 24 * 21
    # ... including c3 again.
    state = _round(new(mode="tactical"), LAST_SECOND_WINS)
    state.apply("block c3")
    state.apply("first blue")
    assert state.position()["block"] == "c3"


def test_after_a_drawn_round_the_second_mover_chooses() -> None:
    state = _round(new(mode="tactical"), LAST_QUIET)
    assert state.scores() == (0, 0)
    assert state.position()["series"]["rounds"][0]["winner"] is None
    assert state.current_player == 1  # Red moved second in round 1
    state.apply("block c3")
    state.apply("first red")
    state = _round(state, LAST_QUIET)  # Red moved first in round 2: now Blue chooses
    assert state.current_player == 0


def reason(state: pa.State, move: str) -> tuple[str, dict[str, Any]]:
    """The engine's reason for refusing ``move`` here, as a client receives it."""
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(move)
    said = info.value.to_json()
    return said["reason"], said["params"]


def test_steps_between_rounds_come_in_order() -> None:
    state = _round(new(mode="tactical"), LAST_FIRST_WINS)
    before = state.to_json()
    red = {"id": "seat.red", "params": {}}
    assert reason(state, "place tank a1 r0") == ("flipwars.choose-block", {"round": 1, "seat": red})
    assert reason(state, "first blue") == ("flipwars.block-before-first", {"seat": red})
    assert state.to_json() == before
    state.apply("block b2")
    assert reason(state, "block c3") == ("flipwars.block-placed", {"place": "b2"})
    assert reason(state, "place tank a1 r0")[0] == "flipwars.choose-first"
    state.apply("first blue")
    assert reason(state, "block c3") == ("flipwars.block-between-rounds", {})
    with pytest.raises(pa.IllegalActionError, match="chosen between rounds"):
        state.apply("first red")


def test_first_to_three_round_wins_takes_the_series() -> None:
    state = new(mode="tactical")
    _round(state, LAST_FIRST_WINS)  # Blue (first) wins round 1
    state.apply("block c3")
    state.apply("first red")
    _round(state, LAST_SECOND_WINS)  # Red first, Blue second: Blue wins round 2
    assert state.scores() == (2, 0)
    state.apply("block c3")
    state.apply("first blue")
    _round(state, LAST_SECOND_WINS)  # Red wins round 3
    assert state.scores() == (2, 1)
    assert state.current_player == 0  # Blue lost round 3
    state.apply("block c3")
    state.apply("first blue")
    _round(state, LAST_FIRST_WINS)  # Blue wins round 4: 3 wins
    assert state.is_terminal()
    assert state.scores() == (3, 1)
    assert state.winner() == 0
    rounds = state.position()["series"]["rounds"]
    assert [r["winner"] for r in rounds] == ["blue", "blue", "red", "blue"]
    assert [r["first"] for r in rounds] == ["blue", "red", "blue", "blue"]
    assert rounds[0]["score"] == {"blue": 13, "red": 11}
    assert rounds[1]["score"] == {"blue": 14, "red": 10}


def test_a_series_lasts_at_most_nine_rounds() -> None:
    state = new(mode="tactical")
    for round_number in range(1, 10):
        assert state.position()["round"] == round_number
        _round(state, LAST_QUIET)
        if round_number < 9:
            state.apply("block c3")
            state.apply("first blue")
    assert state.is_terminal()
    assert state.scores() == (0, 0)
    assert state.winner() is None
    assert len(state.history) == 9 * 24 + 8 * 2 == state.game.info.max_game_length


def test_series_scores_are_round_wins_and_rounds_are_kept() -> None:
    state = _round(new(mode="tactical"), LAST_SECOND_WINS)
    view = state.position()
    assert state.scores() == (0, 1)
    assert view["score"] == {"blue": 10, "red": 14}  # the finished round's tiles
    assert view["series"]["rounds"] == [
        {
            "round": 1,
            "first": "blue",
            "block": "c3",
            "score": {"blue": 10, "red": 14},
            "winner": "red",
        }
    ]
    state.apply("block e5")
    state.apply("first blue")
    state.apply("place rocket a1 r0")
    view = state.position()
    assert view["score"] == {"blue": 1, "red": 0}  # this round, so far
    assert view["series"]["round_wins"] == {"blue": 0, "red": 1}
    assert json.loads(json.dumps(view)) == view


def test_single_round_tactical_ends_after_one_round() -> None:
    state = _round(new(mode="tactical", series=False), LAST_FIRST_WINS)
    assert state.is_terminal()
    assert state.scores() == (13, 11)  # tiles, not round wins
    assert state.position()["series"] is None
    with pytest.raises(
        pa.IllegalActionError, match="only used between the rounds of a tactical series"
    ):
        new(mode="tactical", series=False).apply("block d4")
