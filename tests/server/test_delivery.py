"""Notifications by email, through a real SMTP server (aiosmtpd) the test starts and reads:
the address verified by a link before anything else is sent to it, at most one email per game
per hour, the recipient's language, a one-click unsubscribe (RFC 8058) that works without a
cookie; each kind switchable per channel; bad input refused in words."""

from __future__ import annotations

import email
import email.policy
import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import second_client
from .serving import free_port
from .test_friends import account
from .test_notices import Calendar


class Inbox:
    """An SMTP server's handler: every message it receives, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self.lock:
            self.messages.append(message)  # type: ignore[arg-type]
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def wait(self, address: str, count: int) -> list[EmailMessage]:
        for _ in range(200):
            found = self.to(address)
            if len(found) >= count:
                return found
            time.sleep(0.05)
        raise AssertionError(f"{address} got {len(self.to(address))} emails, not {count}")


@contextmanager
def smtp_server() -> Iterator[tuple[Inbox, int]]:
    """A real SMTP server on a free port, and what it received."""
    box = Inbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()


@pytest.fixture
def calendar() -> Calendar:
    return Calendar()


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


@pytest.fixture
def app_client(
    db_settings: Settings, inbox: tuple[Inbox, int], calendar: Calendar
) -> Iterator[TestClient]:
    """The app on SQLite and on PostgreSQL (where the sender's claims lock rows)."""
    settings = replace(
        db_settings, smtp_url=f"smtp://127.0.0.1:{inbox[1]}", public_url="http://testserver"
    )
    with TestClient(create_app(settings, now=calendar)) as c:
        yield c


def body(message: EmailMessage) -> str:
    part = message.get_body(("plain",))
    assert part is not None
    return str(part.get_content())  # type: ignore[attr-defined]


def link(message: EmailMessage, path: str) -> str:
    """The link to ``path`` in a message, as a path and query for the test client."""
    found = re.search(r"http://testserver(" + re.escape(path) + r"\S+)", body(message))
    assert found, body(message)
    return found.group(1)


def send(client: TestClient) -> int:
    """Run the sender once now (it also runs on its own every few seconds)."""
    sender = client.app.state.ctx.sender  # type: ignore[attr-defined]
    now = client.app.state.ctx.hub.now  # type: ignore[attr-defined]
    return client.portal.call(sender.run_once, now())  # type: ignore[union-attr,no-any-return]


def move(client: TestClient, gid: str) -> None:
    view = client.get(f"/api/games/{gid}").json()
    r = client.post(
        f"/api/games/{gid}/moves",
        json={"action": view["legal"][0]["text"], "version": view["version"]},
    )
    assert r.status_code == 200, r.text


def wait_due(client: TestClient, player_id: str, count: int) -> None:
    """Until ``count`` notifications of the player are queued (after the change, in the
    background)."""
    from sqlalchemy import func, select

    from pocketarena.server.models import NotificationRow

    store = client.app.state.ctx.store  # type: ignore[attr-defined]
    for _ in range(200):
        with store.single() as s:
            n = s.scalar(select(func.count()).where(NotificationRow.player_id == player_id))
        if n >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} notifications queued")


def test_email_verified_then_one_per_game_per_hour_then_unsubscribed(
    app_client: TestClient, inbox: tuple[Inbox, int], calendar: Calendar
) -> None:
    box = inbox[0]
    ann, bob = app_client, second_client(app_client)
    account(ann, "ann")
    bob_id = account(bob, "bob")
    assert bob.post("/api/settings", json={"language": "fr"}).status_code == 200
    # an address: a verification link is sent, and nothing else until it is opened
    got = bob.put("/api/me/email", json={"email": "Bob@Example.com"}).json()
    assert got["email"] == "Bob@example.com" and not got["email_verified"] and got["email_sent"]
    (verification,) = box.wait("Bob@example.com", 1)
    assert "Pocket Arena" in verification["Subject"] and "Confirmez" in verification["Subject"]
    made = ann.post(
        "/api/challenges",
        json={"player": "bob", "game": "stack-a-cash", "seat": 0, "days_per_move": 1},
    ).json()
    wait_due(bob, bob_id, 1)
    send(bob)
    time.sleep(0.2)
    assert len(box.to("Bob@example.com")) == 1  # unverified: the challenge is not emailed
    # an altered link does nothing; the real one verifies
    target = link(verification, "/email/verify")
    assert ann.get(target[:-3] + "xyz").status_code == 400
    page = ann.get(target)  # any browser: the link is the proof
    assert page.status_code == 200 and "Bob@example.com" in page.text, page.text[-3000:]
    assert bob.get("/api/me/notices").json()["email_verified"]
    # the challenge is answered: Ann's moves each tell Bob it is his move, by email once an hour
    gid = bob.post(f"/api/challenges/{made['id']}/accept").json()["game_id"]
    move(ann, gid)
    wait_due(bob, bob_id, 2)
    send(bob)
    mails = box.wait("Bob@example.com", 2)
    turn = mails[1]
    assert turn["Content-Language"] == "fr", str(turn)
    assert turn["Subject"] == "À vous de jouer dans Stack-a-Cash"
    assert turn["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert f"http://testserver/g/{gid}" in body(turn)
    assert "2026" in body(turn)  # the deadline, worded in Bob's language and zone
    move(bob, gid)
    move(ann, gid)
    wait_due(bob, bob_id, 3)
    send(bob)
    time.sleep(0.3)
    assert len(box.to("Bob@example.com")) == 2  # the same game within the hour: no email
    calendar.at += timedelta(minutes=61)
    move(bob, gid)
    move(ann, gid)
    wait_due(bob, bob_id, 4)
    send(bob)
    assert len(box.wait("Bob@example.com", 3)) == 3  # an hour later: one more
    # one click, as a mail program does it: a POST without cookie nor page
    unsubscribe = re.search(
        r"<http://testserver(\S+)>", box.to("Bob@example.com")[2]["List-Unsubscribe"]
    )
    assert unsubscribe
    stranger = TestClient(app_client.app)
    stranger.portal = app_client.portal
    r = stranger.post(unsubscribe.group(1), data={"List-Unsubscribe": "One-Click"})
    assert r.status_code == 200
    channels = bob.get("/api/me/notices").json()["channels"]
    assert channels["your_turn"] == {"site": True, "email": False, "push": True}
    assert channels["challenge"]["email"]  # only that kind
    calendar.at += timedelta(minutes=61)
    move(bob, gid)
    move(ann, gid)
    wait_due(bob, bob_id, 5)
    send(bob)
    time.sleep(0.3)
    assert len(box.to("Bob@example.com")) == 3
    assert bob.get("/api/me/notifications").json()["notifications"][0]["kind"] == "your_turn"
    # the unsubscribe page asks before it acts (a link scanner's GET changes nothing)
    page = stranger.get(unsubscribe.group(1).replace("%3D", "="))
    assert page.status_code == 200 and 'method="post"' in page.text


def test_channels_switch_the_bell_and_bad_input_is_refused(
    app_client: TestClient, inbox: tuple[Inbox, int]
) -> None:
    ann, bob, guest = app_client, second_client(app_client), second_client(app_client)
    account(ann, "ann")
    bob_id = account(bob, "bob")
    assert guest.get("/api/me/notices").status_code == 403
    assert guest.put("/api/me/email", json={"email": "g@example.com"}).status_code == 403
    r = bob.put("/api/me/email", json={"email": "not an address"})
    assert r.status_code == 400 and "address" in r.json()["detail"]
    r = bob.put("/api/me/notices/channels", json={"bedtime": {"email": True}})
    assert r.status_code == 400 and "your_turn" in r.json()["detail"]
    r = bob.put("/api/me/notices/channels", json={"challenge": {"email": "maybe"}})
    assert r.status_code == 422
    assert bob.get("/api/me/notices").json()["channels"]["challenge"]["site"]  # unchanged
    r = bob.put("/api/me/notices/channels", json={"challenge": {"site": False}})
    assert r.json()["channels"]["challenge"] == {"site": False, "email": True, "push": True}
    ann.post("/api/challenges", json={"player": "bob", "game": "flipwars"})
    time.sleep(0.3)
    assert bob.get("/api/me/notifications").json() == {"unread": 0, "notifications": []}
    # the bell's words come from the server, in the reader's language
    bob.put("/api/me/notices/channels", json={"challenge": {"site": True}})
    ann.post("/api/challenges", json={"player": "bob", "game": "coin-age"})
    for _ in range(100):
        found = bob.get("/api/me/notifications", headers={"Accept-Language": "de"}).json()
        if found["notifications"]:
            break
        time.sleep(0.05)
    assert found["notifications"][0]["text"] == "ann fordert dich zu Coin Age heraus"
    assert bob_id
    # links that are not ours
    assert ann.get("/email/verify?t=abc.def").status_code == 400
    assert ann.post("/email/unsubscribe?t=abc.def").status_code == 400
    assert (
        ann.post("/email/unsubscribe?t=x", data={"List-Unsubscribe": "One-Click"}).status_code
        == 400
    )
