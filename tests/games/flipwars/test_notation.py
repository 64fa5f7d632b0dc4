"""Notation, error messages for unreadable text, and the lazy list of legal placements."""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from pocketarena.games.flipwars import Placements
from tests.games.flipwars.helpers import new, play


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "an empty action"),
        ("place tnak c3 r0", "'tnak' is not a tile (did you mean tank?)"),
        ("place tank f6 r0", "'f6' is not a cell: the board is 5x5, a1 to e5"),
        ("place tank c3 r45", "'r45' is not a rotation: use r0, r90, r180 or r270"),
        ("place tank c3", None),  # readable: a missing rotation is r0
        ("place tank", "incomplete: write place TILE CELL ROTATION"),
        ("place tank c3 r0 now", "has extra words"),
        ("place flag c3 r0", "there are flags only in Capture the Flag"),
        ("block d4", "only used between the rounds of a tactical series"),
        ("first blue", "only used between the rounds of a tactical series"),
        ("tank c3", "needs a verb"),
        ("flip c3", "unknown word 'flip'; actions start with: place"),
    ],
)
def test_unreadable_text_says_what_is_wrong(text: str, message: str | None) -> None:
    state = new()
    before = state.to_json()
    if message is None:
        state.apply(text)
        return
    with pytest.raises(pa.NotationError) as info:
        state.apply(text)
    assert message in str(info.value)
    assert state.to_json() == before


def test_unreadable_in_a_series() -> None:
    game = pa.load("flipwars", mode="tactical")
    with pytest.raises(pa.NotationError, match="write first blue or first red"):
        game.parse_action("first green")
    with pytest.raises(pa.NotationError, match="'z9' is not a cell"):
        game.parse_action("block z9")
    with pytest.raises(pa.NotationError, match="actions start with: place, block, first"):
        game.parse_action("pass")


def test_enclosed_cells() -> None:
    game = pa.load("flipwars", mode="enclosed")
    with pytest.raises(pa.NotationError, match="the board is 4x4, a1 to d4"):
        game.parse_action("place tank e1 r0")


def test_placements_are_lazy_with_constant_time_access() -> None:
    state = play(
        new(), ["place tank a1 r0", "place tank b1 r0", "place tank c1 r0", "place tank d1 r0"]
    )
    legal = state.legal_actions()
    assert isinstance(legal, Placements)
    listed = list(legal)
    assert len(legal) == len(listed) == 21 * 19  # tanks are gone: 19 combos on 21 empty cells
    assert "tank" not in {a.args[0] for a in listed}
    assert legal == listed and listed == list(legal)
    assert legal[0] == listed[0] and legal[-1] == listed[-1]
    assert legal[5:9] == listed[5:9]
    with pytest.raises(IndexError):
        legal[len(listed)]
    for action in listed[::37]:
        assert action in legal
        assert action.text in legal
        assert legal.index(action) == listed.index(action)
    assert "place tank e1 r0" not in legal  # no tank left
    assert "place rocket a1 r0" not in legal  # a1 is taken
    assert "place rocket e1 r90" not in legal  # not canonical notation
    assert "place rocket e1 r0" in legal
    assert pa.load("flipwars", mode="enclosed").actions[0] not in legal  # another game's action
    assert 42 not in legal
    assert bool(legal)


def test_the_legal_list_does_not_change_when_the_state_moves_on() -> None:
    state = new()
    legal = state.legal_actions()
    listed = list(legal)
    state.apply(listed[100])
    assert list(legal) == listed


def test_random_choice_uses_the_lazy_list() -> None:
    rng = random.Random(5)
    state = new()
    action = rng.choice(state.legal_actions())
    assert action in state.legal_actions()


def test_every_table_action_round_trips() -> None:
    for options in pa.GAMES["flipwars"].VARIANTS:
        game = pa.load("flipwars", **options)
        for action in game.actions:
            assert game.parse_action(action.text.upper()) is action
