"""Table chat over the API and the WebSocket: rooms, quick phrases, free text, limits,
escaping, persistence and the replay."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from pocketarena.server import chat
from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations
from pocketarena.server.core.ratelimit import MemoryLimiter
from pocketarena.server.main import create_app

from . import test_bus
from .conftest import Socket, make_settings, second_client
from .test_bus import Watcher, cluster_settings, settle, start_hubs
from .test_ws import friend_game

prefix = test_bus.prefix  # the fixture: a Redis key prefix of this test's own


def register(client: TestClient, username: str) -> None:
    r = client.post("/api/auth/register", json={"username": username, "password": "longenough"})
    assert r.status_code in (200, 201), r.text


def say(client: TestClient, gid: str, text: str, room: str = "players") -> Any:
    return client.post(f"/api/games/{gid}/chat", json={"room": room, "text": text})


def test_guests_send_quick_phrases_only(client: TestClient) -> None:
    gid, friend = friend_game(client)
    view = client.get(f"/api/games/{gid}/chat").json()
    assert view["room"] == "players" and not view["free_text"] and "Good game" in view["quick"]
    r = say(client, gid, "Good luck")
    assert r.status_code == 201, r.text
    assert r.json()["text"] == "Good luck" and r.json()["room"] == "players"
    refused = say(friend, gid, "hello there, free text")
    assert refused.status_code == 403
    assert "quick phrases" in refused.json()["detail"]
    messages = friend.get(f"/api/games/{gid}/chat").json()["messages"]
    assert [m["text"] for m in messages] == ["Good luck"]


def test_accounts_write_free_text_kept_as_text(client: TestClient) -> None:
    register(client, "chatty")
    gid, friend = friend_game(client)
    assert client.get(f"/api/games/{gid}/chat").json()["free_text"] is True
    markup = "<script>alert(1)</script> & <b>hi</b>"
    r = say(client, gid, f"  {markup}  ")
    assert r.status_code == 201, r.text
    # Kept and returned as the very characters typed (stripped): the page shows text, never HTML.
    assert friend.get(f"/api/games/{gid}/chat").json()["messages"][0]["text"] == markup


def test_bad_messages_change_nothing(client: TestClient) -> None:
    register(client, "picky")
    gid, _friend = friend_game(client)
    cases: list[tuple[Any, int]] = [
        ({"room": "players", "text": "x" * 141}, 422),
        ({"room": "players", "text": ""}, 422),
        ({"room": "players", "text": "   "}, 400),
        ({"room": "players", "text": "bell\x07"}, 400),
        ({"room": "players", "text": "line\nbreak"}, 400),
        ({"room": "players", "text": "evil\u202egnp.exe"}, 400),
        ({"room": "lounge", "text": "hi"}, 422),
        ({"room": "players", "text": 5}, 422),
        ({"room": "players", "text": "hi", "extra": 1}, 422),
        ({"text": "hi"}, 422),
        ([1, 2], 422),
    ]
    for body, status in cases:
        r = client.post(f"/api/games/{gid}/chat", json=body)
        assert r.status_code == status, (body, r.text)
        assert r.json()["detail"]
    r = client.post(
        f"/api/games/{gid}/chat", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422
    assert say(client, "nosuchgame", "Thanks").status_code == 404
    assert client.get("/api/games/nosuchgame/chat").status_code == 404
    assert client.get(f"/api/games/{gid}/chat").json()["messages"] == []


def test_spectators_have_their_own_room(client: TestClient) -> None:
    gid, friend = friend_game(client)
    spectator = second_client(client)
    view = spectator.get(f"/api/games/{gid}/chat").json()
    assert view["room"] == "spectators"
    refused = say(spectator, gid, "Good luck", room="players")
    assert refused.status_code == 403 and "players" in refused.json()["detail"]
    assert say(client, gid, "Hello", room="spectators").status_code == 403
    assert say(spectator, gid, "Good luck", room="spectators").status_code == 201
    assert say(friend, gid, "Thanks").status_code == 201
    assert [m["text"] for m in client.get(f"/api/games/{gid}/chat").json()["messages"]] == [
        "Thanks"
    ]
    assert [m["text"] for m in spectator.get(f"/api/games/{gid}/chat").json()["messages"]] == [
        "Good luck"
    ]


def test_messages_reach_each_room_over_the_socket(client: TestClient) -> None:
    gid, friend = friend_game(client)
    spectator = second_client(client)
    with (
        client.websocket_connect("/ws") as a,
        friend.websocket_connect("/ws") as b,
        spectator.websocket_connect("/ws") as c,
    ):
        pa_, pb, pc = Socket(a), Socket(b), Socket(c)
        for s in (pa_, pb, pc):
            s.watch(gid)
        assert say(client, gid, "Good luck").status_code == 201
        got = pb.until("chat")
        assert got["game"] == gid and got["message"]["text"] == "Good luck"
        assert pa_.until("chat")["message"]["room"] == "players"
        assert say(spectator, gid, "Well played", room="spectators").status_code == 201
        # The spectator's first chat message is the spectators' own: the players' never came.
        seen = pc.until("chat")["message"]
        assert (seen["room"], seen["text"]) == ("spectators", "Well played")
        # The players never get the spectators' room: a ping answered after it proves none is queued.
        pb.send(type="ping", ref="after")
        msg = pb.recv()
        while msg["type"] != "pong":
            assert msg["type"] != "chat", msg
            msg = pb.recv()


def test_chat_is_rate_limited_per_player_and_address(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, chat_per_minute=6, address_chat_per_minute=600)
    with TestClient(create_app(settings)) as client:
        gid, friend = friend_game(client)
        codes = [say(client, gid, "Your turn").status_code for _ in range(7)]
        assert codes[:5] == [201] * 5 and codes[5] == 429
        r = say(client, gid, "Your turn")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        client.cookies.set("lang", "de")  # the refusal in the reader's language
        r = say(client, gid, "Your turn")
        assert r.json()["detail"].startswith("zu viele Chatnachrichten; warte "), r.json()
        client.cookies.delete("lang")
        assert say(friend, gid, "Thanks").status_code == 201  # a bucket per player
        assert len(friend.get(f"/api/games/{gid}/chat").json()["messages"]) == 6
    settings = make_settings(tmp_path / "b", chat_per_minute=600, address_chat_per_minute=6)
    with TestClient(create_app(settings)) as client:
        gid, friend = friend_game(client)
        spectator = second_client(client)
        for who in (client, friend, spectator) * 5:
            room = "spectators" if who is spectator else "players"
            say(who, gid, "Thanks", room=room)
        # Every client here shares one address: 15 at once, then refused whoever asks.
        assert say(friend, gid, "Thanks").status_code == 429


def test_chat_is_kept_and_shown_in_the_replay(db_settings: Settings) -> None:
    """On SQLite and PostgreSQL: kept across a restart, read back in order."""
    settings = db_settings
    with TestClient(create_app(settings)) as client:
        register(client, "keeper")
        gid, friend = friend_game(client)
        assert say(client, gid, "see you in the replay").status_code == 201
        assert client.post(f"/api/games/{gid}/resign").status_code == 200
        assert say(friend, gid, "Good game").status_code == 201
        cookies = dict(client.cookies)
    with TestClient(create_app(settings)) as again:  # a restart: read from the database
        again.cookies.update(cookies)
        texts = [m["text"] for m in again.get(f"/api/games/{gid}/chat").json()["messages"]]
        assert texts == ["see you in the replay", "Good game"]
        page = again.get(f"/g/{gid}/replay")
        assert page.status_code == 200 and 'id="chat"' in page.text


def test_chat_reaches_the_watchers_of_another_process(
    tmp_path: Path, redis_url: str, prefix: str
) -> None:
    """Two hubs sharing a database and a Redis, as two processes would: a message posted on
    one reaches the players watching on the other, once, and not its spectators."""
    settings = cluster_settings(tmp_path, redis_url, prefix)
    engine = make_engine(settings)
    run_migrations(engine)

    async def main() -> None:
        hubs = await start_hubs(settings, engine, attach=chat.attach)
        one, two = hubs
        try:
            for pid in ("alice", "bob", "carol"):
                one.store.ensure_guest(pid)
            created = await one.seating.create("alice", "stack-a-cash", {}, "friend", seat=0)
            await two.seating.join("bob", created.id, created.invite_token)
            bob, carol, alice = Watcher("bob"), Watcher("carol"), Watcher("alice")
            await two.watchers.watch(bob, created.id, svg=False)
            await two.watchers.watch(carol, created.id, svg=False)
            await one.watchers.watch(alice, created.id, svg=False)
            limits = chat.rates(60, 60)
            body = chat.ChatIn(room="players", text="Good luck")
            sent = await chat.post(one, limits, MemoryLimiter(), "addr", "alice", created.id, body)

            def chats(w: Watcher) -> list[dict[str, Any]]:
                return [m for m in w.states() if m["type"] == "chat"]

            got: list[dict[str, Any]] = []

            def arrived() -> bool:
                got.extend(chats(bob))
                return bool(got)

            await settle(arrived)
            assert [m["message"] for m in got] == [sent]
            assert [m["message"]["id"] for m in chats(alice)] == [sent["id"]]
            await asyncio.sleep(0.2)
            assert chats(carol) == [] and chats(bob) == []
        finally:
            for hub in hubs:
                await hub.close()

    asyncio.run(main())
    engine.dispose()


def test_a_blocked_players_messages_reach_nobody_who_blocks_them(client: TestClient) -> None:
    """Sam blocks Tom: Tom's words reach neither Sam's panel nor Sam's socket; others read them."""
    gid, _friend = friend_game(client)
    sam, tom, guest = second_client(client), second_client(client), second_client(client)
    register(sam, "sam")
    register(tom, "tom")
    tom_id = tom.get("/api/me").json()["id"]
    assert sam.put(f"/api/players/{tom_id}/block").status_code == 204
    with sam.websocket_connect("/ws") as a, guest.websocket_connect("/ws") as b:
        by_sam, by_guest = Socket(a), Socket(b)
        by_sam.watch(gid)
        by_guest.watch(gid)
        assert say(tom, gid, "blocked words", room="spectators").status_code == 201
        assert say(guest, gid, "Good luck", room="spectators").status_code == 201
        assert by_guest.until("chat")["message"]["text"] == "blocked words"
        assert by_guest.until("chat")["message"]["text"] == "Good luck"
        # Sam's first chat message is the guest's: Tom's never came
        assert by_sam.until("chat")["message"]["text"] == "Good luck"
    mine = [m["text"] for m in sam.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert mine == ["Good luck"]
    theirs = [m["text"] for m in guest.get(f"/api/games/{gid}/chat").json()["messages"]]
    assert theirs == ["blocked words", "Good luck"]
