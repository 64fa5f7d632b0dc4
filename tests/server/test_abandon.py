"""Abandoned games: aborted after a long silence (and not brought back by a restart), and the
win claimed by the player whose opponent left an untimed game."""

from __future__ import annotations

import time
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from fastapi.testclient import TestClient
from sqlalchemy import update

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine
from pocketarena.server.live import abandon
from pocketarena.server.main import create_app
from pocketarena.server.models import GameRecord, utcnow

from .conftest import Socket, create, make_settings, second_client

SAC = {"game": "stack-a-cash", "options": {}}


def lobby_ids(client: TestClient) -> set[str]:
    lobby = client.get("/api/lobby").json()
    return {g["id"] for g in lobby["live"]} | {s["id"] for s in lobby["seeks"]}


def two_people(client: TestClient, **extra: object) -> tuple[str, TestClient]:
    """A game of Stack-a-Cash between ``client`` (first seat, has moved) and a friend, whose
    turn it is."""
    created = create(client, **SAC, mode="friend", seat=0, **extra)
    gid, invite = created["id"], created["invite_url"].split("invite=")[1]
    friend = second_client(client)
    assert friend.post(f"/api/games/{gid}/join", json={"invite": invite}).status_code == 200
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1})
    assert r.status_code == 200, r.text
    return gid, friend


def test_a_game_without_moves_for_long_is_aborted_and_leaves_the_lobby(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, abandon_after_s=3600)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.ctx.hub
        gid, _friend = two_people(client)
        kept = create(client, **SAC, mode="bot", bot="random")["id"]
        assert {gid, kept} <= lobby_ids(client)
        assert client.portal.call(abandon.abort_idle, hub) == 0  # nobody has left yet
        hub.games[gid].last_activity -= 3601
        assert client.portal.call(abandon.abort_idle, hub) == 1
        view = client.get(f"/api/games/{gid}?svg=false").json()
        assert view["status"] == "aborted" and view["termination"] == "abandoned"
        assert view["rating_changes"] is None
        assert gid not in lobby_ids(client) and kept in lobby_ids(client)
        r = client.post(f"/api/games/{gid}/moves", json={"action": "place S a1", "version": 2})
        assert r.status_code == 409


def test_a_restart_does_not_bring_back_abandoned_games(db_settings: Settings) -> None:
    settings = replace(db_settings, abandon_after_s=3600)
    with TestClient(create_app(settings)) as client:
        old, _ = two_people(client)
        quiet, _ = two_people(client)
        fresh, _ = two_people(client)
    engine = make_engine(settings)
    with engine.begin() as conn:  # as if the server had been down meanwhile
        for gid, age in ((old, timedelta(hours=2)), (quiet, timedelta(minutes=40))):
            conn.execute(
                update(GameRecord).where(GameRecord.id == gid).values(updated_at=utcnow() - age)
            )
    engine.dispose()
    with TestClient(create_app(settings)) as client:
        assert client.get(f"/api/games/{old}?svg=false").json()["status"] == "aborted"
        # still in progress, but nobody has played it for 40 minutes: not in the lobby
        assert client.get(f"/api/games/{quiet}?svg=false").json()["status"] == "active"
        assert lobby_ids(client) == {fresh}


def test_the_win_is_claimed_only_after_the_wait_and_only_by_the_waiting_player(
    tmp_path: Path,
) -> None:
    settings = make_settings(tmp_path, claim_win_after_s=60)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.ctx.hub
        gid, friend = two_people(client)  # the friend's turn; the friend has no page open
        status = client.get(f"/api/games/{gid}/claim").json()
        assert not status["allowed"] and 55 <= status["wait_s"] <= 61
        r = client.post(f"/api/games/{gid}/claim-win")
        assert r.status_code == 409 and "claim the win in" in r.json()["detail"]
        hub.games[gid].last_activity -= 61
        # the player to move cannot claim, nor can a spectator
        r = friend.post(f"/api/games/{gid}/claim-win")
        assert r.status_code == 403 and "your turn" in r.json()["detail"]
        spectator = second_client(client)
        r = spectator.post(f"/api/games/{gid}/claim-win")
        assert r.status_code == 403 and "only a player" in r.json()["detail"]
        # while the opponent's page shows the game, they have not left
        with friend.websocket_connect("/ws") as ws:
            Socket(ws).watch(gid)
            r = client.post(f"/api/games/{gid}/claim-win")
            assert r.status_code == 403 and "still has the game open" in r.json()["detail"]
        deadline = time.monotonic() + 10
        while not client.get(f"/api/games/{gid}/claim").json()["allowed"]:
            assert time.monotonic() < deadline, "the closed page still counted"
            time.sleep(0.02)
        view = client.post(f"/api/games/{gid}/claim-win").json()
        assert view["status"] == "finished" and view["winner"] == 0
        assert view["termination"] == "abandoned" and view["result"] == "1-0"
        assert client.post(f"/api/games/{gid}/claim-win").status_code == 403


def test_no_claim_against_a_bot_a_clock_or_oneself(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, claim_win_after_s=0)
    with TestClient(create_app(settings)) as client:
        cases = {
            "a bot": create(client, **SAC, mode="bot", bot="random", seat=1)["id"],
            "a clock": two_people(client, clock={"initial_s": 600, "increment_s": 0})[0],
            "both seats": create(client, **SAC, mode="local")["id"],
        }
        for words, gid in (("bot", cases["a bot"]), ("clock", cases["a clock"])):
            r = client.post(f"/api/games/{gid}/claim-win")
            assert r.status_code == 403 and words in r.json()["detail"], r.text
        r = client.post(f"/api/games/{cases['both seats']}/claim-win")
        assert r.status_code == 403 and "both seats" in r.json()["detail"]
        assert client.get("/api/games/NOPE1234/claim").status_code == 404
