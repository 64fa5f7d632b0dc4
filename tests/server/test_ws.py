"""Live play over the WebSocket: players and spectators, every kind of bad message (the
connection survives each), stale and duplicate moves, rate limits, reloads and restarts."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

import pocketarena as pa
from pocketarena import fair
from pocketarena.server.api.routes import ws
from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import Socket, create, make_settings, second_client

SAC = {"game": "stack-a-cash", "options": {}}
SMALL_WALLET = {"game": "wallet-battles", "options": {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}}


def friend_game(client: TestClient, **body: Any) -> tuple[str, TestClient]:
    """A friend game: the client sits first, a second browser joins by the invite."""
    created = create(client, **(body or SAC), mode="friend", seat=0)
    friend = second_client(client)
    invite = created["invite_url"].split("invite=")[1]
    assert (
        friend.post(f"/api/games/{created['id']}/join", json={"invite": invite}).status_code == 200
    )
    return created["id"], friend


def test_two_players_and_a_spectator(client: TestClient) -> None:
    gid, friend = friend_game(client)
    spectator = second_client(client)
    with (
        client.websocket_connect("/ws") as a,
        friend.websocket_connect("/ws") as b,
        spectator.websocket_connect("/ws") as c,
    ):
        pa_, pb, pc = Socket(a), Socket(b), Socket(c)
        assert pa_.watch(gid)["you"] == [0]
        assert pb.watch(gid)["you"] == [1]
        watched = pc.watch(gid, svg=True)
        assert watched["you"] == [] and watched["game"]["svg"].startswith("<svg")
        pa_.send(type="move", game=gid, action="place L b2", version=1, ref="m1")
        for sock in (pa_, pb, pc):
            state = sock.state(min_version=2)["game"]
            assert state["history"][-1] == {
                "text": "place L b2",
                "seat": 0,
                "chance": False,
                "say": state["history"][-1]["say"],
            }
            assert state["to_move"] == 1
        assert pa_.until("ack")["ref"] == "m1"
        pb.send(type="move", game=gid, action="place S b2", version=2)
        assert pc.state(min_version=3)["game"]["history"][-1]["text"] == "place S b2"
        # the spectator may not move, resign or claim a rematch
        for msg in ({"type": "move", "action": "place M a1", "version": 3}, {"type": "resign"}):
            pc.send(game=gid, **msg)
            err = pc.until("error")
            assert err["code"] == "not_seated" and err["game"] == gid
        pc.ping()


def test_bad_messages_get_an_error_and_the_connection_survives(client: TestClient) -> None:
    gid, friend = friend_game(client)
    with client.websocket_connect("/ws") as ws, friend.websocket_connect("/ws") as ws2:
        me, other = Socket(ws), Socket(ws2)
        me.watch(gid)
        other.watch(gid)
        cases: list[tuple[Any, str]] = [
            ("not json", "bad_json"),
            ("[1, 2]", "bad_json"),
            (json.dumps({"type": "ping", "pad": "x" * 5000}), "too_large"),
            (json.dumps({"type": "dance"}), "bad_request"),
            (json.dumps({"type": "move", "action": "place L b2", "version": 1}), "bad_request"),
            (
                json.dumps(
                    {"type": "move", "game": "NOPE1234", "action": "place L b2", "version": 1}
                ),
                "unknown_game",
            ),
            (
                json.dumps(
                    {"type": "move", "game": "x" * 40, "action": "place L b2", "version": 1}
                ),
                "unknown_game",
            ),
            (
                json.dumps({"type": "move", "game": gid, "action": "place L z9", "version": 1}),
                "illegal",
            ),
            (json.dumps({"type": "move", "game": gid, "action": 42, "version": 1}), "bad_request"),
            (json.dumps({"type": "move", "game": gid, "action": "place L b2"}), "bad_request"),
            (
                json.dumps({"type": "move", "game": gid, "action": "place L b2", "version": 0}),
                "stale",
            ),
            (json.dumps({"type": "throw", "game": gid, "version": 1}), "illegal"),
            (json.dumps({"type": "rematch", "game": gid}), "not_active"),
        ]
        for raw, code in cases:
            ws.send_text(raw)
            err = me.until("error")
            assert err["code"] == code, (raw[:60], err)
            assert err["message"]
            if "z9" in raw:  # a refused move says the engine's reason beside the words
                assert err["reason"] == "stack-a-cash.not-a-cell"
                assert err["params"] == {"word": "z9"}
        ws.send_bytes(b"\xff\xfe")
        assert me.until("error")["code"] == "bad_json"
        # moving for the other seat, and out of turn
        other.send(type="move", game=gid, action="place L b2", version=1)
        err = other.until("error")
        assert err["code"] == "not_your_turn" and "not yours" in err["message"]
        me.ping()
        other.ping()
        # nothing changed; the connection still plays
        me.send(type="move", game=gid, action="place L b2", version=1)
        assert me.state(min_version=2)["game"]["history"][-1]["text"] == "place L b2"


def test_a_message_that_fits_no_schema_is_refused_with_the_field_named(
    client: TestClient,
) -> None:
    gid, _friend = friend_game(client)
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.watch(gid)
        cases: list[tuple[dict[str, Any], str]] = [
            ({"type": "move", "game": gid, "action": "place L b2", "version": "1"}, "'version'"),
            ({"type": "move", "game": gid, "action": "place L b2", "version": True}, "'version'"),
            ({"type": "throw", "game": gid}, "'version'"),
            ({"type": "watch", "game": gid, "svg": "yes"}, "'svg'"),
            ({"type": "join", "game": gid, "invite": 7}, "'invite'"),
            ({"type": "resign", "game": ""}, "'game' field"),
            ({"type": "rematch", "game": ["x"]}, "'game' field"),
            ({"type": 3}, "unknown message type 3"),
            ({"game": gid}, "unknown message type None"),
        ]
        for n, (msg, words) in enumerate(cases):
            me.send(**msg, ref=n)
            err = me.until("error")
            assert err["code"] == "bad_request" and err["ref"] == n, (msg, err)
            assert words in err["message"], (msg, err)
        me.ping()  # the connection survives, and nothing changed
        me.send(type="move", game=gid, action="place L b2", version=1, ref="ok")
        assert me.until("ack")["ref"] == "ok"


def test_a_duplicate_submission_is_refused_as_stale(client: TestClient) -> None:
    gid = create(client, **SAC, mode="local")["id"]
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.watch(gid)
        me.send(type="move", game=gid, action="place L b2", version=0, ref=1)
        me.send(type="move", game=gid, action="place L b2", version=0, ref=2)
        assert me.until("ack")["ref"] == 1
        err = me.until("error")
        assert err["code"] == "stale" and err["ref"] == 2
        # a stale client is sent the current state at once
        assert me.until("state")["game"]["version"] == 1
    assert len(client.get(f"/api/games/{gid}?svg=false").json()["history"]) == 1


def test_messages_are_rate_limited_per_connection(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, ws_messages_per_s=2.0, ws_burst=3)
    with TestClient(create_app(settings)) as client, client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        for i in range(5):
            me.send(type="ping", ref=i)
        replies = [me.recv() for _ in range(5)]
        assert [r["type"] for r in replies] == ["pong", "pong", "pong", "error", "error"]
        assert replies[3]["code"] == "rate_limited"
        time.sleep(0.6)  # the bucket refills
        me.ping()


def test_a_socket_without_a_session_can_watch_but_not_play(client: TestClient) -> None:
    gid = create(client, **SAC, mode="local")["id"]
    anonymous = TestClient(client.app)
    anonymous.portal = client.portal
    with anonymous.websocket_connect("/ws") as ws:
        sock = Socket(ws)
        assert sock.player is None
        assert sock.watch(gid)["you"] == []
        sock.send(type="move", game=gid, action="place L b2", version=0)
        assert sock.until("error")["code"] == "not_seated"


def test_a_cross_site_socket_is_refused(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        pytest.raises(WebSocketDisconnect) as info,
        client.websocket_connect("/ws", headers={"Origin": "https://evil.example"}),
    ):
        pass
    assert info.value.code == 4403


def test_a_socket_that_finds_the_database_away_is_told_to_come_back(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its session cannot be looked up (the database down or restarting): closed with 1013,
    try again later, not an error of the server's."""
    from sqlalchemy.exc import OperationalError
    from starlette.websockets import WebSocketDisconnect

    create(client, **SAC, mode="bot", bot="random", seat=0)  # a session cookie to look up

    async def away(token: str) -> None:
        raise OperationalError("SELECT 1", {}, Exception("server closed the connection"))

    monkeypatch.setattr(client.app.state.ctx.sessions, "find", away)  # type: ignore[attr-defined]
    with pytest.raises(WebSocketDisconnect) as info, client.websocket_connect("/ws"):
        pass
    assert info.value.code == 1013


def test_a_reload_resumes_the_game(client: TestClient) -> None:
    gid = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        me.watch(gid)
        me.send(type="move", game=gid, action="place L b2", version=0)
        state = me.state(min_version=2)["game"]
    with client.websocket_connect("/ws") as ws:  # the page is reloaded
        again = Socket(ws).watch(gid)
        assert again["you"] == [0]
        assert again["game"]["version"] == state["version"]
        assert again["game"]["history"] == state["history"]


def test_untimed_games_survive_a_restart(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        gid = create(client, **SAC, mode="bot", bot="random", seat=0)["id"]
        client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
        for _ in range(200):
            before = client.get(f"/api/games/{gid}?svg=false").json()
            if before["version"] == 2:
                break
            time.sleep(0.02)
        cookies = dict(client.cookies)
    with TestClient(create_app(settings), cookies=cookies) as client:
        after = client.get(f"/api/games/{gid}?svg=false").json()
        assert after["status"] == "active" and after["you"] == [0]
        assert after["history"] == before["history"] and after["version"] == 2
        assert gid in [g["id"] for g in client.get("/api/lobby").json()["live"]]
        legal = after["legal"][0]["text"]
        assert (
            client.post(f"/api/games/{gid}/moves", json={"action": legal, "version": 2}).status_code
            == 200
        )


def test_coin_age_slaps_are_thrown_by_the_mover_and_follow_the_seed(client: TestClient) -> None:
    gid = create(client, game="coin-age", options={"map": "classic"}, mode="local")["id"]
    with client.websocket_connect("/ws") as ws:
        me = Socket(ws)
        state = me.watch(gid)["game"]
        assert state["node"] == "chance" and state["thrower"] == 0 and state["to_move"] is None
        me.send(type="move", game=gid, action="end", version=0)
        assert "thrown first" in me.until("error")["message"]
        me.send(type="throw", game=gid, version=0)
        msg = me.state(min_version=1)
        state = msg["game"]
        assert state["history"][0]["chance"] and state["history"][0]["text"].startswith("slap ")
        assert state["events_from"] == 0
        # play on until the game is over: end every turn, throw every slap
        legal: list[dict[str, Any]] = msg["legal"]
        while state["status"] == "active":
            if state["node"] == "chance":
                me.send(type="throw", game=gid, version=state["version"])
            else:
                me.send(type="move", game=gid, action=legal[0]["text"], version=state["version"])
            msg = me.state(min_version=state["version"] + 1)
            state, legal = msg["game"], msg["legal"]
            assert state["node"] != "decision" or legal  # the mover gets the legal actions
        seed = state["fair"]["seed"]
        assert seed and fair.commitment(seed) == state["fair"]["commitment"]
    # every slap is the one the seed gives for (game id, move number)
    replay = pa.load("coin-age", map="classic").new_initial_state()
    for n, entry in enumerate(state["history"]):
        if entry["chance"]:
            assert entry["text"] == fair.fair_outcome(replay.chance_outcomes(), seed, gid, n).text
        replay.apply(entry["text"])


def test_wallet_battles_flips_are_thrown_by_the_server(client: TestClient) -> None:
    gid, friend = friend_game(client, **SMALL_WALLET)
    with client.websocket_connect("/ws") as ws:
        state = Socket(ws).watch(gid)["game"]
        assert state["node"] == "decision" and state["thrower"] is None
        assert all(h["chance"] for h in state["history"]) and state["history"][-1]["text"] in (
            "flip HH",
            "flip TT",
        )
        assert state["fair"]["seed"] is None  # secret while the game runs


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None)
@given(
    kind=st.sampled_from([*ws.KNOWN, "dance"]) | JSON_VALUES,
    fields=st.dictionaries(
        st.sampled_from(["game", "action", "version", "svg", "invite", "ref", "extra"]),
        JSON_VALUES,
        max_size=5,
    ),
)
def test_any_message_is_parsed_or_refused_in_words(kind: Any, fields: dict[str, Any]) -> None:
    """Whatever a client sends as a JSON object, the schemas either accept it (with fields of
    the kinds the hub expects) or say what is wrong: no other exception reaches the socket."""
    try:
        msg = ws.MESSAGES.validate_python({"type": kind, **fields})
    except ValidationError as e:
        assert ws._refusal(e)
        return
    assert msg.type == kind
    game = getattr(msg, "game", "")
    assert isinstance(game, str) and (game or kind in ("ping", "lobby"))
    assert isinstance(getattr(msg, "version", 0), int)


def test_a_request_sent_with_ack_false_gets_its_state_and_no_ack(client: TestClient) -> None:
    """The site's pages read the state message that follows a move, never its ack: they ask
    for none (``"ack": false``), a message fewer to make, compress and send per move. Every
    other client still gets its ack, and a refusal is sent either way."""
    gid, friend = friend_game(client)
    with client.websocket_connect("/ws") as a, friend.websocket_connect("/ws") as b:
        me, other = Socket(a), Socket(b)
        me.watch(gid)
        other.watch(gid)
        me.send(type="move", game=gid, action="place L b2", version=1, ack=False, ref="quiet")
        me.send(type="ping", ref="after")  # its pong comes after the move's messages
        seen = []
        while (msg := me.recv())["type"] != "pong":
            seen.append(msg["type"])
        assert "state" in seen and "ack" not in seen
        other.send(type="move", game=gid, action="place M b2", version=1, ack=False, ref="late")
        assert other.until("error")["code"] == "stale"  # refusals still come
        other.send(type="move", game=gid, action="place S b2", version=2, ref="loud")
        assert other.until("ack")["ref"] == "loud"  # the default: an ack
        other.send(type="throw", game=gid, version=3, ack="no")
        assert other.until("error")["code"] == "bad_request"  # ack is true or false


def test_the_socket_is_reached_without_starlettes_websocket(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``/ws`` is served by main.App inside the app's own middleware only: no Starlette
    ``WebSocket`` (its state checks) nor the router's and exception layers' wrappers of
    ``send`` sit on a message's way, each of which cost every message CPU time (issue 22).
    A socket at another path still goes through them (and is closed: no such route)."""
    from starlette.websockets import WebSocket, WebSocketDisconnect

    made: list[str] = []
    real = WebSocket.__init__

    def counted(self: WebSocket, *args: Any, **kwargs: Any) -> None:
        made.append(self.__class__.__name__)
        real(self, *args, **kwargs)

    monkeypatch.setattr(WebSocket, "__init__", counted)
    with client.websocket_connect("/ws") as sock:
        live = Socket(sock)
        live.send(type="ping", ref=7)
        assert sock.receive_text() == '{"type":"pong","ref":7}'
        live.send(type="lobby")
        assert live.until("lobby")["type"] == "lobby"
    assert made == []
    with pytest.raises(WebSocketDisconnect), client.websocket_connect("/ws/") as sock:
        sock.receive_text()
    assert made  # the counting works: Starlette's layers made one for that path
