"""A refused move as the server sends it: the engine's reason and parameters beside words
that name the board's places as the board shows them."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

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


def test_a_tap_is_answered_about_what_was_tapped(client: TestClient) -> None:
    """Issue 24: tapping the opponent's protected coin with nothing picked was answered with a
    refusal of 'place L b3', a move the player never chose. /why answers for the picks: the
    coin is protected; with a size picked first, it is about placing that size there (a large
    coin goes only onto an empty cell)."""
    created = client.post("/api/games", json={"game": "stack-a-cash", "mode": "local"}).json()
    gid = created["id"]
    moved = client.post(f"/api/games/{gid}/moves", json={"action": "place M b3", "version": 0})
    assert moved.status_code == 200, moved.text
    tap = client.get(f"/api/games/{gid}/why", params={"picks": "b3"}).json()
    assert tap["legal"] is False and tap["reason"] == "stack-a-cash.protected-touched"
    assert tap["params"]["place"] == "b3" and "protected" in tap["detail"]
    placed = client.get(f"/api/games/{gid}/why", params={"picks": "L b3"}).json()
    assert placed["reason"] == "stack-a-cash.topped" and placed["params"]["place"] == "b3"
    assert client.get(f"/api/games/{gid}/why", params={"picks": "S"}).json() == {
        "legal": True,
        "detail": None,
        "reason": None,
        "params": {},
    }
    nothing = client.get(f"/api/games/{gid}/why", params={"picks": "z9"}).json()
    assert nothing["legal"] is False and nothing["detail"] is None
    assert client.get(f"/api/games/{gid}/why", params={"picks": " "}).status_code == 400
    assert client.get(f"/api/games/{gid}/why", params={"picks": "b3" * 60}).status_code == 422
