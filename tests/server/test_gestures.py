"""Gestures between the players: abort, draw offers, takebacks; each seen at once by the other
player and the spectators. First the state machine alone, then over the API and the socket."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.live import session
from pocketarena.server.live.clock import Clock
from pocketarena.server.live.session import Change, GameError, Table

from .conftest import Socket, create, second_client
from .tables import seat, table

WALL = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def play(t: Table, change: Change) -> Table:
    session.adopt(t, change)
    return t


def refused(code: str, fn: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(GameError) as e:
        fn(*args, **kwargs)
    assert e.value.code == code, e.value.message
    return e.value.message


def moved(t: Table, *moves: tuple[str, str]) -> Table:
    for pid, text in moves:
        play(t, session.move(t, pid, text, t.version, 0.0, WALL))
    return t


# -- abort -------------------------------------------------------------------------------------------
def test_abort_until_each_side_has_moved_with_no_result() -> None:
    t = table()
    assert session.abortable(t)
    refused("not_seated", session.abort, t, "eve", 0.0, WALL)
    moved(t, ("ann", "place L b2"))
    assert session.abortable(t)  # Bob has not moved yet: either may still abort
    change = session.abort(t, "bob", 0.0, WALL)
    assert change.finish is None  # no result, no rating
    assert change.values["status"] == "aborted" and change.values["termination"] == "aborted"
    play(t, change)
    assert t.status == "aborted" and t.winner is None and t.result is None
    assert "in progress" in refused("not_active", session.abort, t, "ann", 0.0, WALL)


def test_no_abort_once_both_have_moved() -> None:
    t = moved(table(), ("ann", "place L b2"))
    t = moved(t, ("bob", t.state.legal_actions()[0].text))
    assert not session.abortable(t)
    assert "resign" in refused("forbidden", session.abort, t, "ann", 0.0, WALL)


def test_abort_stops_the_clock() -> None:
    t = table(clock=Clock(60_000, 0, now=lambda: 0.0))
    session.start_clock(t, 0.0)
    change = session.abort(t, "ann", 5.0, WALL)
    assert change.clock is not None and change.clock.running is None
    assert change.clock.remaining[0] == 55_000


# -- draw offers ---------------------------------------------------------------------------------------
def test_a_draw_offered_then_accepted() -> None:
    t = table()
    change = session.offer_draw(t, "ann", 0.0, WALL)
    assert change.finish is None and change.values == {"version": 1, "draw_offer": 0}
    play(t, change)
    assert t.draw_offer == 0 and t.version == 1 and t.state.history == []
    refused("conflict", session.offer_draw, t, "ann", 0.0, WALL)  # once is enough
    refused("conflict", session.answer_draw, t, "ann", True, 0.0, WALL)  # not your own
    done = session.answer_draw(t, "bob", True, 0.0, WALL)
    assert done.finish is not None and done.finish.winner is None
    assert done.finish.termination == "agreement" and done.finish.result == "1/2-1/2"
    play(t, done)
    assert t.status == "finished" and t.draw_offer is None


def test_offering_when_the_opponent_offered_accepts() -> None:
    t = play(table(), session.offer_draw(table(), "ann", 0.0, WALL))
    change = session.offer_draw(t, "bob", 0.0, WALL)
    assert change.finish is not None and change.finish.termination == "agreement"


def test_a_draw_declined_and_one_withdrawn_by_a_move() -> None:
    t = play(table(), session.offer_draw(table(), "ann", 0.0, WALL))
    play(t, session.answer_draw(t, "bob", False, 0.0, WALL))
    assert t.draw_offer is None and t.status == "active"
    refused("conflict", session.answer_draw, t, "bob", True, 0.0, WALL)  # nothing to accept
    play(t, session.offer_draw(t, "ann", 0.0, WALL))
    change = session.move(t, "ann", "place L b2", t.version, 0.0, WALL)
    assert change.values["draw_offer"] is None  # a move withdraws it
    play(t, change)
    assert t.draw_offer is None
    refused("conflict", session.answer_draw, t, "bob", True, 0.0, WALL)


def test_no_draw_offer_to_a_bot_nor_on_one_screen() -> None:
    bot = table(seats=(seat("ann"), seat("bot", "bot", "random")))
    assert "bot" in refused("forbidden", session.offer_draw, bot, "ann", 0.0, WALL)
    local = table(seats=(seat("ann"), seat("ann")))
    assert "both seats" in refused("forbidden", session.offer_draw, local, "ann", 0.0, WALL)
    refused("not_seated", session.offer_draw, table(), "eve", 0.0, WALL)
    refused("not_active", session.offer_draw, table(status="finished"), "ann", 0.0, WALL)


# -- takebacks ----------------------------------------------------------------------------------------
def test_a_takeback_asked_and_agreed_goes_back_before_the_askers_move() -> None:
    t = moved(table(), ("ann", "place L b2"))
    bob_move = t.state.legal_actions()[0].text
    moved(t, ("bob", bob_move))
    before = [a.text for a in t.state.history]
    # Ann asks: her move and Bob's reply go, and it is Ann's move again
    refused("forbidden", session.ask_takeback, table(), "ann", 0.0, WALL)  # nothing to take
    play(t, session.ask_takeback(t, "ann", 0.0, WALL))
    assert t.takeback_offer == 0 and [a.text for a in t.state.history] == before
    refused("conflict", session.answer_takeback, t, "ann", True, 0.0, WALL)
    change = session.answer_takeback(t, "bob", True, 0.0, WALL)
    assert change.values["history"] == [] and change.values["takeback_offer"] is None
    play(t, change)
    assert t.state.history == [] and t.movers == [] and t.entries == []
    assert t.actor() == 0 and t.takeback_offer is None and t.events_from == 0
    # and the game goes on from there
    moved(t, ("ann", "place L c3"))
    assert [a.text for a in t.state.history] == ["place L c3"]


def test_a_takeback_of_the_last_move_only_and_one_refused() -> None:
    t = moved(table(), ("ann", "place L b2"))
    bob_move = t.state.legal_actions()[0].text
    moved(t, ("bob", bob_move))
    play(t, session.ask_takeback(t, "bob", 0.0, WALL))
    play(t, session.answer_takeback(t, "ann", False, 0.0, WALL))
    assert t.takeback_offer is None and len(t.state.history) == 2
    play(t, session.ask_takeback(t, "bob", 0.0, WALL))
    play(t, session.answer_takeback(t, "ann", True, 0.0, WALL))
    assert [a.text for a in t.state.history] == ["place L b2"] and t.actor() == 1


def test_a_move_withdraws_a_takeback_request() -> None:
    t = moved(table(), ("ann", "place L b2"))
    play(t, session.ask_takeback(t, "ann", 0.0, WALL))
    moved(t, ("bob", t.state.legal_actions()[0].text))
    assert t.takeback_offer is None
    refused("conflict", session.answer_takeback, t, "bob", True, 0.0, WALL)


def test_takebacks_keep_the_same_coins() -> None:
    """A game with chance: the throws after the taken-back point are thrown again from the
    same seed and ply, so they fall the same way."""
    t = table("wallet-battles")
    begin = session.begin(t, 0.0, WALL)
    assert begin is not None
    play(t, begin)
    first = t.actor()
    assert first is not None
    who = t.seats[first]
    assert who is not None
    moved(t, (who.player_id, t.state.legal_actions()[0].text))
    after = [a.text for a in t.state.history]
    play(t, session.ask_takeback(t, who.player_id, 0.0, WALL))
    other = t.seats[1 - first]
    assert other is not None
    play(t, session.answer_takeback(t, other.player_id, True, 0.0, WALL))
    moved(t, (who.player_id, t.state.legal_actions()[0].text))
    assert [a.text for a in t.state.history] == after


# -- over the API and the socket ----------------------------------------------------------------------
def friend(client: TestClient, **extra: Any) -> tuple[TestClient, str]:
    made = create(client, game="stack-a-cash", mode="friend", seat=0, **extra)
    other = second_client(client)
    token = made["invite_url"].split("invite=")[1]
    r = other.post(f"/api/games/{made['id']}/join", json={"invite": token})
    assert r.status_code == 200, r.text
    return other, made["id"]


def post(client: TestClient, gid: str, what: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/games/{gid}/{what}", json=body)
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def test_gestures_over_the_api(client: TestClient) -> None:
    bob, gid = friend(client)
    view = client.get(f"/api/games/{gid}").json()
    assert view["abortable"] and view["draw_offer"] is None and view["takeback_offer"] is None
    view = post(client, gid, "draw", answer="offer")
    assert view["draw_offer"] == 0
    assert bob.get(f"/api/games/{gid}").json()["draw_offer"] == 0
    r = bob.post(f"/api/games/{gid}/draw", json={"answer": "maybe"})
    assert r.status_code == 422
    view = post(bob, gid, "draw", answer="decline")
    assert view["draw_offer"] is None and view["status"] == "active"
    view = post(client, gid, "moves", action="place L b2", version=view["version"])
    assert view["abortable"]
    r = client.post(f"/api/games/{gid}/takeback", json={"answer": "accept"})
    assert r.status_code == 409 and "no takeback request" in r.json()["detail"]
    view = post(client, gid, "takeback", answer="offer")
    assert view["takeback_offer"] == 0
    view = post(bob, gid, "takeback", answer="accept")
    assert view["plies"] == 0 and view["to_move"] == 0
    view = post(bob, gid, "abort")
    assert view["status"] == "aborted" and view["termination"] == "aborted"
    assert view["result"] is None and view["winner"] is None
    r = client.post(f"/api/games/{gid}/abort", json={})
    assert r.status_code == 409


def test_a_draw_by_agreement_in_a_rated_game(client: TestClient) -> None:
    bob, gid = friend(client)
    view = post(client, gid, "moves", action="place L b2", version=1)
    view = post(bob, gid, "moves", action=view["legal"][0]["text"], version=view["version"])
    r = client.post(f"/api/games/{gid}/abort", json={})
    assert r.status_code == 403 and "resign" in r.json()["detail"]
    post(bob, gid, "draw")
    view = post(client, gid, "draw", answer="accept")
    assert view["status"] == "finished" and view["result"] == "1/2-1/2"
    assert view["termination"] == "agreement"


def test_the_other_player_and_a_spectator_see_each_gesture_at_once(client: TestClient) -> None:
    bob, gid = friend(client)
    eve = second_client(client)
    with (
        client.websocket_connect("/ws") as a,
        bob.websocket_connect("/ws") as b,
        eve.websocket_connect("/ws") as e,
    ):
        ann_ws, bob_ws, eve_ws = Socket(a), Socket(b), Socket(e)
        ann_ws.watch(gid)
        bob_ws.watch(gid)
        eve_ws.watch(gid)
        # a player sees one spectator arrive (counts come as they change)
        assert eve_ws.until("spectators", game=gid, count=1)
        assert ann_ws.until("spectators", game=gid, count=1)
        ann_ws.send(type="draw", game=gid, answer="offer", ref=1)
        assert ann_ws.until("ack")["ref"] == 1
        for ws in (bob_ws, eve_ws):
            assert ws.state(2)["game"]["draw_offer"] == 0
        bob_ws.send(type="draw", game=gid, answer="accept")
        for ws in (ann_ws, eve_ws):
            msg = ws.state(3)
            assert msg["game"]["status"] == "finished"
            assert msg["game"]["termination"] == "agreement"
        bob_ws.send(type="rematch", game=gid)
        # the rematch offer reaches Ann as an offer, while it waits for her
        offer = ann_ws.state(3)["game"]["rematch"]  # an offer changes no version
        assert offer["offers"] == [1] and offer["id"] is None
        eve_ws.send(type="unwatch", game=gid)
        assert ann_ws.until("spectators", game=gid, count=0)


def test_bad_gesture_messages_get_clear_errors(client: TestClient) -> None:
    _bob, gid = friend(client)
    with client.websocket_connect("/ws") as a:
        ws = Socket(a)
        ws.send(type="draw", game=gid, answer="perhaps")
        err = ws.until("error")
        assert "answer" in err["message"]
        ws.send(type="takeback", game=gid)
        err = ws.until("error")
        assert err["code"] == "forbidden" and "nothing to take back" in err["message"]


def test_a_rematch_offer_outlives_the_game_leaving_memory(client: TestClient) -> None:
    """A finished game nobody watches leaves memory (it stays stored). The rematch offer made
    before then still counts when the opponent offers after, for one process alone as for a
    cluster (the offers are kept by the bus, not by the game in memory)."""
    bob, gid = friend(client)
    assert post(client, gid, "resign")["status"] == "finished"
    assert post(client, gid, "rematch")["rematch"]["offers"] == [0]
    hub = client.app.state.ctx.hub  # type: ignore[attr-defined]
    client.portal.call(hub.forget, hub.games[gid])  # type: ignore[union-attr]
    assert gid not in hub.games
    rematch = post(bob, gid, "rematch")["rematch"]
    assert rematch["offers"] == [0, 1] and rematch["id"] is not None
