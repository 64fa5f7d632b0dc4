"""Sessions: random tokens kept hashed on the server, a new one on every change of identity,
revoked on sign-out (here or everywhere), expiring; cookies from before sessions fail safely;
sign-in throttled per account and per address."""

from __future__ import annotations

import base64
import hashlib
import json
from datetime import timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update
from starlette.websockets import WebSocketDisconnect

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app
from pocketarena.server.models import SessionRow, utcnow

from .conftest import Socket, make_settings, second_client

PASSWORD = "correct horse"


def me(client: TestClient) -> dict[str, str]:
    r = client.get("/api/me")
    assert r.status_code == 200, r.text
    return dict(r.json())


def cookie(client: TestClient) -> str:
    return str(client.cookies["pa_session"])


def as_cookie(client: TestClient, value: str) -> TestClient:
    """Another browser on the same app that sends ``value`` as its session cookie."""
    other = second_client(client)
    other.cookies.set("pa_session", value, domain="testserver.local", path="/")
    return other


def register(client: TestClient, username: str) -> dict[str, str]:
    r = client.post("/api/auth/register", json={"username": username, "password": PASSWORD})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_tokens_are_random_and_kept_hashed(client: TestClient) -> None:
    guest = me(client)
    token = cookie(client)
    assert len(token) >= 40 and guest["id"] not in token  # opaque: no player id inside
    store = client.app.state.ctx.store
    with store.sessions() as s:
        ids = list(s.scalars(select(SessionRow.id).where(SessionRow.player_id == guest["id"])))
    assert ids == [hashlib.sha256(token.encode()).hexdigest()]  # only the hash is stored
    assert me(second_client(client))["id"] != guest["id"]  # another browser, another guest


def test_register_and_sign_in_start_new_sessions(client: TestClient) -> None:
    guest = me(client)
    before = cookie(client)
    account = register(client, "ada")
    assert account["id"] == guest["id"] and account["kind"] == "account"
    registered = cookie(client)
    assert registered != before
    # the guest cookie from before registering is worth nothing now (no session fixation)
    stale = as_cookie(client, before)
    assert me(stale)["id"] != guest["id"] and me(stale)["kind"] == "guest"
    # each sign-in gets a new token; both browsers are signed in
    laptop, phone = second_client(client), second_client(client)
    for browser in (laptop, phone):
        r = browser.post("/api/auth/login", json={"username": "ada", "password": PASSWORD})
        assert r.status_code == 200 and r.json()["id"] == guest["id"]
    tokens = {registered, cookie(laptop), cookie(phone)}
    assert len(tokens) == 3
    assert me(laptop)["kind"] == me(phone)["kind"] == "account"


def test_sign_out_revokes_the_session(client: TestClient) -> None:
    account = register(client, "bea")
    token = cookie(client)
    r = client.post("/api/auth/logout")
    assert r.status_code == 200 and r.json()["kind"] == "guest" and r.json()["id"] != account["id"]
    assert cookie(client) != token
    replayed = as_cookie(client, token)  # someone who copied the cookie before sign-out
    after = me(replayed)
    assert after["kind"] == "guest" and after["id"] != account["id"]


def test_sign_out_everywhere(client: TestClient) -> None:
    account = register(client, "cat")
    other = second_client(client)
    other.post("/api/auth/login", json={"username": "cat", "password": PASSWORD})
    sessions = other.get("/api/auth/sessions").json()
    assert len(sessions) == 2 and sum(s["current"] for s in sessions) == 1
    assert all(s["user_agent"] == "testclient" for s in sessions)
    with other.websocket_connect("/ws") as ws:
        sock = Socket(ws)
        assert sock.player == account["id"]
        r = client.post("/api/auth/logout-everywhere")
        assert r.status_code == 200 and r.json()["kind"] == "guest"
        with pytest.raises(WebSocketDisconnect):  # its socket acts for nobody any more
            for _ in range(10):
                ws.receive_json()
    assert me(other)["kind"] == "guest" and me(other)["id"] != account["id"]
    assert me(client)["id"] != account["id"]
    login = client.post("/api/auth/login", json={"username": "cat", "password": PASSWORD})
    assert login.status_code == 200 and len(client.get("/api/auth/sessions").json()) == 1


def test_cookies_from_before_sessions_fail_safely(client: TestClient) -> None:
    """The old cookie was a signature of the player id: whatever it names, it is a stranger's
    (a new guest) now."""
    account = register(client, "dan")
    payload = base64.urlsafe_b64encode(json.dumps({"p": account["id"]}).encode()).rstrip(b"=")
    old = f"{payload.decode()}.c2lnbmF0dXJlLW9mLXRoZS1vbGQta2V5"
    browser = as_cookie(client, old)
    r = browser.get("/api/me")
    assert r.json()["kind"] == "guest" and r.json()["id"] != account["id"]
    assert "pa_session=" in r.headers["set-cookie"] and cookie(browser) != old
    # a stale cookie on a page that needs no new guest is simply removed
    stranger = as_cookie(client, "x" * 43)
    r = stranger.get("/api/lobby")
    assert "Max-Age=0" in r.headers["set-cookie"]


def test_sessions_expire_when_idle(client: TestClient) -> None:
    account = register(client, "eve")
    store = client.app.state.ctx.store
    with store.sessions() as s:
        s.execute(
            update(SessionRow)
            .where(SessionRow.player_id == account["id"])
            .values(expires_at=utcnow() - timedelta(seconds=1))
        )
        s.commit()
    assert me(client)["kind"] == "guest"
    assert client.portal.call(client.app.state.ctx.sessions.purge) == 0  # deleted when seen


def throttled(tmp_path: Path, **limits: object) -> Settings:
    return make_settings(tmp_path, trusted_proxies="*", **limits)


def test_wrong_passwords_are_throttled_per_account(tmp_path: Path) -> None:
    settings = throttled(tmp_path, sign_ins_per_minute=3)
    with TestClient(create_app(settings)) as client:
        register(client, "fay")
        register(second_client(client), "gus")
        attacker = second_client(client)
        codes = [
            attacker.post(
                "/api/auth/login", json={"username": "fay", "password": f"guess-{i}"}
            ).status_code
            for i in range(4)
        ]
        assert codes == [400, 400, 400, 429]
        r = attacker.post("/api/auth/login", json={"username": "FAY", "password": PASSWORD})
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1  # even the right one
        assert "wrong passwords for this account" in r.json()["detail"]
        r = attacker.post("/api/auth/login", json={"username": "gus", "password": PASSWORD})
        assert r.status_code == 200  # another account is not affected


def test_sign_in_attempts_are_throttled_per_address(tmp_path: Path) -> None:
    settings = throttled(tmp_path, address_sign_ins_per_minute=4)
    with TestClient(create_app(settings)) as client:
        here = {"X-Forwarded-For": "203.0.113.7"}
        codes = []
        for i in range(6):
            client.cookies.clear()  # no cookie: the address is what counts
            body = {"username": f"user{i}", "password": "whatever-it-is"}
            codes.append(client.post("/api/auth/login", json=body, headers=here).status_code)
        assert codes == [400] * 4 + [429, 429]
        elsewhere = {"X-Forwarded-For": "198.51.100.1"}
        r = client.post(
            "/api/auth/login", json={"username": "x1y", "password": "p" * 8}, headers=elsewhere
        )
        assert r.status_code == 400
