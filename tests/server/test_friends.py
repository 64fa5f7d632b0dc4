"""Friends and challenges between accounts: follow (who is online or playing), block,
challenge a named player to a real-time or turn-based game (accept, decline, cancel, expiry),
guests refused, limits per player."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.main import create_app

from .conftest import make_settings, second_client


class Calendar:
    def __init__(self) -> None:
        self.at = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.at


@pytest.fixture
def calendar() -> Calendar:
    return Calendar()


@pytest.fixture
def app_client(tmp_path: Path, calendar: Calendar) -> Iterator[TestClient]:
    settings = make_settings(tmp_path, social_per_minute=20)
    with TestClient(create_app(settings, now=calendar)) as c:
        yield c


def account(client: TestClient, name: str) -> str:
    r = client.post("/api/auth/register", json={"username": name, "password": "longenough"})
    assert r.status_code in (200, 201), r.text
    pid: str = client.get("/api/me").json()["id"]
    return pid


def people(first: TestClient) -> tuple[TestClient, TestClient, str, str]:
    ann, bob = first, second_client(first)
    return ann, bob, account(ann, "ann"), account(bob, "bob")


def test_guests_can_neither_follow_nor_challenge(app_client: TestClient) -> None:
    guest = app_client
    other = second_client(app_client)
    bob = account(other, "bob")
    for r in (
        guest.put(f"/api/players/{bob}/follow"),
        guest.put(f"/api/players/{bob}/block"),
        guest.get("/api/me/following"),
        guest.post("/api/challenges", json={"player": "bob", "game": "flipwars"}),
    ):
        assert r.status_code == 403 and "sign in" in r.json()["detail"]
    # and are told so in their language, every word of it (what they tried included)
    french = {"Accept-Language": "fr"}
    for r, doing in (
        (guest.put(f"/api/players/{bob}/follow", headers=french), "suivre des joueurs"),
        (guest.put(f"/api/players/{bob}/block", headers=french), "bloquer des joueurs"),
        (guest.delete(f"/api/players/{bob}/block", headers=french), "bloquer des joueurs"),
        (
            guest.post(
                "/api/challenges", json={"player": "bob", "game": "flipwars"}, headers=french
            ),
            "défier des joueurs",
        ),
    ):
        assert (
            r.json()["detail"]
            == f"seuls les comptes connectés peuvent {doing} : connectez-vous d'abord"
        )
    # nor can an account challenge a guest
    guest_id = guest.get("/api/me").json()["id"]
    r = other.post("/api/challenges", json={"player": guest_id, "game": "flipwars"})
    assert r.status_code == 404 and "no account" in r.json()["detail"]


def test_follow_and_see_who_is_playing(app_client: TestClient) -> None:
    ann, bob, ann_id, bob_id = people(app_client)
    assert ann.put(f"/api/players/{bob_id}/follow").status_code == 204
    assert ann.put("/api/players/bob/follow").status_code == 204  # by username, twice: once
    assert ann.put(f"/api/players/{ann_id}/follow").status_code == 400
    assert ann.put("/api/players/nobody/follow").status_code == 404
    (entry,) = ann.get("/api/me/following").json()
    assert entry["id"] == bob_id and entry["playing"] is None and entry["online"] is False
    r = bob.post("/api/games", json={"game": "flipwars", "mode": "bot", "bot": "random"})
    game = r.json()["id"]
    with bob.websocket_connect("/ws") as ws:
        ws.receive_json()
        ws.send_json({"type": "watch", "game": game, "svg": False})
        ws.receive_json()
        (entry,) = ann.get("/api/me/following").json()
        assert entry["playing"] == game and entry["online"] is True
    assert ann.delete(f"/api/players/{bob_id}/follow").status_code == 204
    assert ann.get("/api/me/following").json() == []


def challenge(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/challenges", json=body)
    assert r.status_code == 201, r.text
    out: dict[str, Any] = r.json()
    return out


def test_a_turn_based_challenge_accepted_starts_the_game(app_client: TestClient) -> None:
    ann, bob, ann_id, bob_id = people(app_client)
    made = challenge(ann, player="bob", game="flipwars", seat=0, days_per_move=3, rated=True)
    assert made["status"] == "open" and made["days_per_move"] == 3
    assert made["challenged"]["id"] == bob_id
    listed = bob.get("/api/challenges").json()
    assert [c["id"] for c in listed["incoming"]] == [made["id"]] and listed["outgoing"] == []
    assert [c["id"] for c in ann.get("/api/challenges").json()["outgoing"]] == [made["id"]]
    r = ann.post(f"/api/challenges/{made['id']}/accept")
    assert r.status_code == 403 and "challenged player" in r.json()["detail"]
    r = bob.post(f"/api/challenges/{made['id']}/accept")
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["status"] == "accepted" and answer["url"] == f"/g/{answer['game_id']}"
    game = bob.get(f"/api/games/{answer['game_id']}").json()
    assert game["status"] == "active" and game["days_per_move"] == 3 and game["rated"]
    assert [s["player"] for s in game["seats"]] == [ann_id, bob_id]
    assert game["deadline"] is not None
    # answered once: again is refused
    r = bob.post(f"/api/challenges/{made['id']}/accept")
    assert r.status_code == 409 and "accepted already" in r.json()["detail"]
    assert bob.get("/api/challenges").json()["incoming"] == []


def test_a_real_time_challenge_declined_cancelled_and_expired(
    app_client: TestClient, calendar: Calendar
) -> None:
    ann, bob, _ann_id, _bob_id = people(app_client)
    clock = {"initial_s": 180, "increment_s": 2}
    one = challenge(ann, player="bob", game="stack-a-cash", clock=clock)
    assert one["clock"] == [180_000, 2000]
    r = bob.post(f"/api/challenges/{one['id']}/decline")
    assert r.status_code == 200 and r.json()["status"] == "declined" and r.json()["url"] is None
    two = challenge(ann, player="bob", game="coin-age")
    r = bob.post(f"/api/challenges/{two['id']}/cancel")
    assert r.status_code == 403
    assert ann.post(f"/api/challenges/{two['id']}/cancel").json()["status"] == "cancelled"
    three = challenge(ann, player="bob", game="wallet-battles")
    calendar.at += timedelta(hours=1, seconds=1)
    r = bob.post(f"/api/challenges/{three['id']}/accept")
    assert r.status_code == 409 and "expired" in r.json()["detail"]
    assert bob.get("/api/challenges").json()["incoming"] == []
    r = bob.post(f"/api/challenges/{three['id']}/maybe")
    assert r.status_code == 400
    r = bob.post("/api/challenges/nosuchone/accept")
    assert r.status_code == 404


def test_bad_challenges_are_refused_clearly(app_client: TestClient) -> None:
    ann, _bob, _ann_id, _bob_id = people(app_client)
    for body, words in (
        ({"player": "bob", "game": "chess"}, "chess"),
        ({"player": "bob", "game": "flipwars", "days_per_move": 4}, "1, 2, 3, 5, 7, 14"),
        ({"player": "ann", "game": "flipwars"}, "yourself"),
        ({"player": "bob", "game": "flipwars", "seat": 3}, "seat"),
    ):
        r = ann.post("/api/challenges", json=body)
        assert r.status_code in (400, 404), r.text
        assert words in r.json()["detail"], r.json()
    assert ann.get("/api/challenges").json()["outgoing"] == []


def test_a_block_stops_challenges_both_ways(app_client: TestClient) -> None:
    ann, bob, ann_id, bob_id = people(app_client)
    open_one = challenge(ann, player="bob", game="flipwars")
    bob.put(f"/api/players/{ann_id}/follow")
    assert bob.put(f"/api/players/{ann_id}/block").status_code == 204
    # Ann's open challenge ended; neither may challenge the other
    assert bob.get("/api/challenges").json()["incoming"] == []
    r = bob.post(f"/api/challenges/{open_one['id']}/accept")
    assert r.status_code == 409
    for who, target in ((ann, "bob"), (bob, "ann")):
        r = who.post("/api/challenges", json={"player": target, "game": "flipwars"})
        assert r.status_code == 403 and "challenges" in r.json()["detail"]
    assert bob.get("/api/me/following").json() == []
    assert ann.put(f"/api/players/{bob_id}/follow").status_code == 403
    assert bob.delete(f"/api/players/{ann_id}/block").status_code == 204
    challenge(ann, player="bob", game="flipwars")


def test_challenges_are_limited_per_player(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, social_per_minute=3)
    with TestClient(create_app(settings)) as c:
        ann, _bob, _a, _b = people(c)
        codes = [
            ann.post("/api/challenges", json={"player": "bob", "game": "flipwars"}).status_code
            for _ in range(5)
        ]
        assert codes[:3] == [201, 201, 201] and codes[3] == 429
        r = ann.post("/api/challenges", json={"player": "bob", "game": "flipwars"})
        assert r.status_code == 429 and "Retry-After" in r.headers
