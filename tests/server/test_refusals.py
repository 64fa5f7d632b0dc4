"""A refused move as the server sends it: the engine's reason and parameters beside words
that name the board's places as the board shows them."""

from __future__ import annotations

import pytest

import pocketarena as pa
from pocketarena.server.live.session import GameError


def refusal(game: pa.Game, *moves: str) -> GameError:
    state = game.new_initial_state()
    *played, refused = moves
    for move in played:
        state.apply(move)
    with pytest.raises(pa.ActionError) as info:
        state.apply(refused)
    return GameError.refused(info.value, game)


def test_a_quoted_move_stays_notation() -> None:
    game = pa.load("coin-age")
    space = game.map.spaces[0]
    error = refusal(game, "slap Q:H N:H P:H D:H", f"move {space.id} {space.id}")
    assert error.code == "illegal" and error.status == 422
    assert error.reason == "coin-age.move-onto-itself"
    # the notation inside the quoted move stays notation; only place parameters are named
    assert f"move {space.id} {space.id}" in error.message
    assert error.to_json()["params"] == {"text": f"move {space.id} {space.id}"}


def test_place_parameters_name_the_place() -> None:
    game = pa.load("coin-age")
    a = game.map.spaces[0]
    b = next(s for s in game.map.spaces if s.id == game.map.neighbours(a.id)[0])
    state = game.new_initial_state()
    state.apply("slap Q:H N:T P:T D:T")  # one match: place 1 and move 1
    state.apply(f"place Q {a.id}")
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(f"capture {b.id}")
    error = GameError.refused(info.value, game)
    assert error.reason in {"coin-age.cannot-capture", "coin-age.already-capture"}
    with pytest.raises(pa.IllegalActionError) as info:
        state.apply(f"move {b.id} {a.id}")
    error = GameError.refused(info.value, game)
    assert error.params is not None and error.params["space"] == b.id
    assert error.message.startswith(f"{b.name} is empty"), error.message
    assert b.id not in error.message
