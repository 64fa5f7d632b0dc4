"""Rated play: only between two accounts (or an account and a bot), and only once each player
has moved; guests play unrated, so nobody farms a rating with throwaway guests."""

from __future__ import annotations

import time
from typing import Any

from fastapi.testclient import TestClient

from .conftest import create, player_id, second_client

SAC = {"game": "stack-a-cash", "options": {}}


def account(client: TestClient, name: str) -> TestClient:
    r = client.post("/api/auth/register", json={"username": name, "password": "longenough"})
    assert r.status_code == 200, r.text
    return client


def rating(client: TestClient, pid: str, game: str = "stack-a-cash") -> int:
    ratings = client.get(f"/api/players/{pid}").json()["ratings"]
    return next((r["rating"] for r in ratings if r["game"] == game), 1500)


def seek_and_join(a: TestClient, b: TestClient, **body: Any) -> dict[str, Any]:
    created = create(a, **{**SAC, **body}, mode="seek", seat=0, rated=True)
    joined = b.post(f"/api/games/{created['id']}/join", json={})
    assert joined.status_code == 200, joined.text
    return dict(joined.json())


def test_guests_cannot_farm_ratings(client: TestClient) -> None:
    """The probe of the issue: two cookies, a rated seek, join, resign — three rounds."""
    farmer, victim = client, second_client(client)
    for _ in range(3):
        view = seek_and_join(farmer, victim)
        assert view["rated"] is False  # a guest's game is played unrated
        assert farmer.post(f"/api/games/{view['id']}/resign").json()["rating_changes"] is None
    assert rating(client, player_id(victim)) == rating(client, player_id(farmer)) == 1500
    assert client.get(f"/api/players/{player_id(victim)}").json()["ratings"] == []


def test_a_guest_joining_a_rated_seek_plays_it_unrated(client: TestClient) -> None:
    account(client, "owner")
    view = create(client, **SAC, mode="seek", rated=True)["game"]
    assert view["rated"] is True  # an account's seek is offered rated
    joined = second_client(client).post(f"/api/games/{view['id']}/join", json={}).json()
    assert joined["rated"] is False
    assert client.get(f"/api/games/{view['id']}?svg=false").json()["rated"] is False


def test_two_accounts_who_both_move_are_rated(client: TestClient) -> None:
    a, b = account(client, "anna"), account(second_client(client), "bert")
    view = seek_and_join(a, b)
    assert view["rated"] is True and view["you"] == [1]
    gid = view["id"]
    assert (
        a.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1}).status_code
        == 200
    )
    assert (
        b.post(f"/api/games/{gid}/moves", json={"action": "place S a1", "version": 2}).status_code
        == 200
    )
    done = b.post(f"/api/games/{gid}/resign").json()
    assert done["rated"] is True and [c["delta"] > 0 for c in done["rating_changes"]] == [
        True,
        False,
    ]
    assert rating(a, player_id(a)) > 1500 > rating(a, player_id(b))


def test_a_game_given_up_before_both_moved_is_not_rated(client: TestClient) -> None:
    a, b = account(client, "carl"), account(second_client(client), "dora")
    view = seek_and_join(a, b)
    gid = view["id"]
    a.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1})
    done = b.post(f"/api/games/{gid}/resign").json()
    assert done["status"] == "finished" and done["rated"] is False
    assert done["rating_changes"] is None and rating(a, player_id(b)) == 1500


def test_against_bots_only_accounts_are_rated(client: TestClient) -> None:
    guest_game = create(client, **SAC, mode="bot", bot="random", seat=0, rated=True)["game"]
    assert guest_game["rated"] is False
    account(client, "erin")
    view = create(client, **SAC, mode="bot", bot="random", seat=0, rated=True)["game"]
    assert view["rated"] is True
    gid = view["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    deadline = time.monotonic() + 10
    while client.get(f"/api/games/{gid}?svg=false").json()["version"] < 2:
        assert time.monotonic() < deadline, "the bot never answered"
        time.sleep(0.02)
    assert client.post(f"/api/games/{gid}/resign").json()["rating_changes"][0]["delta"] < 0


def test_nobody_rates_against_themselves(client: TestClient) -> None:
    account(client, "fred")
    gid = create(client, **SAC, mode="seek", rated=True)["id"]
    twin = second_client(client)  # the same account signed in on another browser
    twin.post("/api/auth/login", json={"username": "fred", "password": "longenough"})
    r = twin.post(f"/api/games/{gid}/join", json={})
    assert r.status_code == 403 and "your own game" in r.json()["detail"]
