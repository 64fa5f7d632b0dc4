"""The bell: notifications queued in the database for accounts: your turn and game over in a
turn-based game, a challenge received and answered, a followed player starting a game; none
from a blocked player, none for guests; read when opened."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server import notices
from pocketarena.server.live import sweeps
from pocketarena.server.main import create_app

from .conftest import make_settings, second_client
from .test_friends import account


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
    with TestClient(create_app(make_settings(tmp_path), now=calendar)) as c:
        yield c


def bell(client: TestClient, kinds: int = 0) -> dict[str, Any]:
    """The bell, once it holds at least ``kinds`` notifications (queued after the change, in
    the background)."""
    for _ in range(100):
        found: dict[str, Any] = client.get("/api/me/notifications").json()
        if len(found["notifications"]) >= kinds:
            return found
        time.sleep(0.05)
    raise AssertionError(f"fewer than {kinds} notifications: {found}")


def kinds(found: dict[str, Any]) -> list[str]:
    return [n["kind"] for n in found["notifications"]]


def test_challenges_and_turns_ring_the_bell(app_client: TestClient, calendar: Calendar) -> None:
    ann, bob = app_client, second_client(app_client)
    bob_id = account(bob, "bob")
    account(ann, "ann")
    ann.put(f"/api/players/{bob_id}/follow")
    made = ann.post(
        "/api/challenges",
        json={"player": "bob", "game": "stack-a-cash", "seat": 0, "days_per_move": 1},
    ).json()
    got = bell(bob, 1)
    assert kinds(got) == ["challenge"] and got["unread"] == 1
    assert got["notifications"][0]["data"]["name"] == "ann"
    # the page header shows the unread count
    assert 'id="bell-count">1<' in bob.get("/lobby").text
    gid = bob.post(f"/api/challenges/{made['id']}/accept").json()["game_id"]
    # Bob accepted; Ann's followed player (Bob) started a game; it is Ann's move
    got = bell(ann, 3)
    assert sorted(kinds(got)) == ["challenge_answered", "followed_started", "your_turn"]
    answered = next(n for n in got["notifications"] if n["kind"] == "challenge_answered")
    assert answered["data"]["answer"] == "accepted" and answered["url"] == f"/g/{gid}"
    # Ann moves: Bob is told it is his move, with the deadline
    view = ann.get(f"/api/games/{gid}").json()
    view = ann.post(
        f"/api/games/{gid}/moves",
        json={"action": view["legal"][0]["text"], "version": view["version"]},
    ).json()
    got = bell(bob, 2)
    turn = got["notifications"][0]
    assert turn["kind"] == "your_turn" and turn["game_id"] == gid
    assert turn["data"]["deadline"] == (calendar.at + timedelta(days=1)).isoformat()
    # read when opened
    assert bob.post("/api/me/notifications/read").status_code == 204
    assert bell(bob)["unread"] == 0 and 'id="bell-count" hidden' in bob.get("/lobby").text
    # Bob lets the day pass: both are told the game is over
    calendar.at += timedelta(days=1, minutes=1)
    hub = bob.app.state.ctx.hub  # type: ignore[attr-defined]
    assert bob.portal.call(sweeps.turns, hub) == 1  # type: ignore[union-attr]
    for client, count in ((ann, 4), (bob, 3)):
        got = bell(client, count)
        assert got["notifications"][0]["kind"] == "game_over"
        assert got["notifications"][0]["data"]["termination"] == "time forfeit"


def test_nothing_from_a_blocked_player_and_nothing_for_guests(app_client: TestClient) -> None:
    ann, bob = app_client, second_client(app_client)
    account(ann, "ann")
    account(bob, "bob")
    guest = second_client(app_client)
    made = ann.post("/api/challenges", json={"player": "bob", "game": "flipwars"}).json()
    bell(bob, 1)
    ann_id = ann.get("/api/me").json()["id"]
    bob.put(f"/api/players/{ann_id}/block")
    # Ann blocked: her later doings reach Bob's bell no more (a challenge is refused anyway;
    # a followed player's game neither)
    r = ann.post(f"/api/challenges/{made['id']}/cancel")
    assert r.status_code == 409  # the block ended it
    assert len(bell(bob)["notifications"]) == 1
    store = app_client.app.state.ctx.store  # type: ignore[attr-defined]
    bob_id = bob.get("/api/me").json()["id"]
    now = datetime(2026, 12, 8, tzinfo=UTC)
    assert notices.queue(store, [bob_id], "your_turn", now, ann_id, None, {}) == 0  # blocked
    assert notices.queue(store, [ann_id], "your_turn", now, bob_id, None, {}) == 1  # not blocked
    guest_id = guest.get("/api/me").json()["id"]
    assert notices.queue(store, [guest_id], "your_turn", now, None, None, {}) == 0  # a guest
    assert guest.get("/api/me/notifications").json() == {"unread": 0, "notifications": []}
    assert "bell-count" not in guest.get("/lobby").text
