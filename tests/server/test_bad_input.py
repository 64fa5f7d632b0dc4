"""The inputs of the issue's probes, on SQLite and on PostgreSQL: lone surrogates, NUL bytes in
ids, records nested without end or larger than any record: each is refused with a 4xx (or a
WebSocket error) that says why, and changes nothing. The CLI says it in one line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from pocketarena.cli.main import app as cli_app
from pocketarena.records import MAX_RECORD_BYTES
from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import Socket, create, second_client

DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000
SURROGATE = "ab\\ud800cd"  # as JSON text: a lone surrogate once decoded


@pytest.fixture
def app_client(db_settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(db_settings), raise_server_exceptions=False) as c:
        yield c


def snapshot(client: TestClient) -> dict[str, object]:
    me = client.get("/api/me").json()
    games = {
        gid: (live.version, live.status, len(live.state.history))
        for gid, live in client.app.state.ctx.hub.games.items()
    }
    return {"me": me, "games": games}


def send(client: TestClient, method: str, path: str, raw: str) -> int:
    r = client.request(
        method, path, content=raw.encode(), headers={"Content-Type": "application/json"}
    )
    return r.status_code


def test_lone_surrogates_and_nul_bytes_are_refused(app_client: TestClient) -> None:
    client = app_client
    client.post("/api/me", json={})  # nothing; the session starts below
    gid = create(client, game="stack-a-cash", mode="local")["id"]
    before = snapshot(client)
    bodies = [
        ("PATCH", "/api/me", f'{{"name":"{SURROGATE}"}}'),
        ("PATCH", "/api/me", '{"name":"ab\\u0000cd"}'),
        ("POST", "/api/auth/register", f'{{"username":"sam","password":"12345678{SURROGATE}"}}'),
        ("POST", "/api/auth/login", f'{{"username":"sam","password":"{SURROGATE}"}}'),
        ("POST", "/api/auth/login", f'{{"username":"{SURROGATE}","password":"12345678"}}'),
        ("POST", f"/api/games/{gid}/moves", f'{{"action":"place L {SURROGATE}","version":0}}'),
        ("POST", f"/api/games/{gid}/moves", '{"action":"place L b2\\u0000","version":0}'),
        ("POST", "/api/games", f'{{"game":"{SURROGATE}","mode":"seek"}}'),
        (
            "POST",
            "/api/games",
            f'{{"game":"flipwars","mode":"seek","options":{{"{SURROGATE}":1}}}}',
        ),
        ("POST", "/api/games", f'{{"game":"flipwars","mode":"seek","{SURROGATE}":1}}'),
        ("POST", "/api/games", '{"game":"flipwars","mode":"seek","options":' + DEEP + "}"),
        ("POST", f"/api/games/{gid}/join", f'{{"invite":"{SURROGATE}"}}'),
    ]
    for method, path, raw in bodies:
        status = send(client, method, path, raw)
        assert 400 <= status < 500, (method, path, raw[:80], status)
    for bad in ("ab%00cd", "ab%ED%A0%80cd", "%00"):
        for path in (
            f"/api/games/{bad}",
            f"/api/games/{bad}/record",
            f"/api/games/{bad}/verify",
            f"/api/players/{bad}",
            f"/g/{bad}",
            f"/players/{bad}",
        ):
            assert client.get(path).status_code == 404, path
        r = client.post(f"/api/games/{bad}/join", json={})
        assert r.status_code == 404 and r.json()["code"] == "unknown_game"
    with client.websocket_connect("/ws") as ws:
        sock = Socket(ws)
        for msg in (
            {"type": "watch", "game": "ab\x00cd"},
            {"type": "move", "game": "ab\x00cd", "action": "place L b2", "version": 0},
            {"type": "join", "game": "\x00"},
        ):
            sock.send(**msg)
            assert sock.until("error")["code"] == "unknown_game"
        for raw in (
            '{"type":"move","game":"' + gid + '","action":"' + SURROGATE + '","version":0}',
            '{"type":"watch","game":"' + SURROGATE + '"}',
            DEEP[:4000],
        ):
            ws.send_text(raw)
            assert sock.until("error")["code"] in ("illegal", "unknown_game", "bad_json")
        sock.ping()
    assert snapshot(client) == before  # nothing changed


def test_records_of_any_depth_or_size_get_a_clear_refusal(app_client: TestClient) -> None:
    client = app_client
    huge = '{"format": "pocketarena-record", "pad": "' + "x" * MAX_RECORD_BYTES + '"}'
    for body, words in ((DEEP, "nested more than 16 levels"), (huge, "limited to 1 MB")):
        r = client.post("/api/verify", content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 413) and words in r.json()["detail"], r.text[:200]
    r = client.post("/verify", files={"file": ("deep.json", DEEP.encode())})
    assert r.status_code == 400 and "nested more than 16 levels" in r.text
    r = client.post("/verify", data={"record": DEEP[:100_000] + "}" * 20_000})
    assert r.status_code == 400 and "nested more than 16 levels" in r.text
    text_record = '[Game "stack-a-cash"]\n[Options "' + DEEP.replace('"', '\\"') + '"]\n\n*\n'
    r = client.post("/api/verify", content=text_record[: MAX_RECORD_BYTES - 1])
    assert r.status_code == 400


def test_the_verify_command_refuses_deep_and_huge_files(tmp_path: Path) -> None:
    deep, huge = tmp_path / "deep.json", tmp_path / "huge.json"
    deep.write_text(DEEP)
    huge.write_text(json.dumps({"pad": "x" * (MAX_RECORD_BYTES + 10)}))
    for path, words in ((deep, "nested more than 16 levels"), (huge, "larger than 1 MB")):
        result = CliRunner().invoke(cli_app, ["verify", str(path)])
        assert result.exit_code == 2, result.output
        assert words in result.output and "Traceback" not in result.output


def test_a_second_player_cannot_change_anything_with_bad_input(app_client: TestClient) -> None:
    """The same refusals from someone who is not a player of the game."""
    client = app_client
    gid = create(client, game="stack-a-cash", mode="local")["id"]
    other = second_client(client)
    other.cookies.clear()
    before = snapshot(client)
    for raw in ('{"action":"place L b2","version":0}', f'{{"action":"{SURROGATE}","version":0}}'):
        status = send(other, "POST", f"/api/games/{gid}/moves", raw)
        assert status in (403, 422), status
    assert snapshot(client) == before
