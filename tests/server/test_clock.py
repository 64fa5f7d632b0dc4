"""Clocks: time used is charged, increments come once a turn, the server flags a player whose
time runs out (by a timer, and on any late action)."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from pocketarena.server.live.clock import Clock

from .conftest import create, second_client


class FakeTime:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def test_time_is_charged_to_the_running_seat_and_increments_come_per_turn() -> None:
    now = FakeTime()
    clock = Clock(60_000, 2_000, now=now)
    clock.switch(0)
    now.t += 5
    assert clock.left_ms(0) == 55_000 and clock.left_ms(1) == 60_000
    clock.switch(0)  # another action in the same turn: no increment yet
    now.t += 1
    clock.switch(1)  # the turn passes: seat 0 gets its increment
    assert clock.remaining == [56_000, 60_000]
    now.t += 70
    assert clock.flagged() == 1
    clock.stop()
    assert clock.remaining[1] == 0 and clock.running is None
    assert clock.to_json()["remaining_ms"] == [56_000, 0]


def test_a_player_who_runs_out_of_time_loses(client: TestClient) -> None:
    created = create(
        client,
        game="stack-a-cash",
        mode="friend",
        seat=0,
        clock={"initial_s": 60, "increment_s": 5},
    )
    gid = created["id"]
    friend = second_client(client)
    friend.post(
        f"/api/games/{gid}/join", json={"invite": created["invite_url"].split("invite=")[1]}
    )
    view = client.post(
        f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1}
    ).json()
    assert view["clock"]["running"] == 1
    assert view["clock"]["remaining_ms"][0] > 60_000  # the increment after the first turn
    hub = client.app.state.ctx.hub
    live = hub.games[gid]
    # Seat 1 has 80 ms left from now: the server's timer must end the game.
    live.clock.remaining[1] = 80
    live.clock.since = time.monotonic()
    client.portal.call(hub.after_change, live)
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        view = client.get(f"/api/games/{gid}?svg=false").json()
        if view["status"] == "finished":
            break
        time.sleep(0.02)
    assert (
        view["status"] == "finished"
        and view["termination"] == "time forfeit"
        and view["winner"] == 0
    )
    assert view["clock"]["remaining_ms"][1] == 0 and view["clock"]["running"] is None
    r = friend.post(
        f"/api/games/{gid}/moves", json={"action": "place S a1", "version": view["version"]}
    )
    assert r.status_code == 409 and "over" in r.json()["detail"]


def test_a_late_move_is_refused_and_flags_even_before_the_timer(client: TestClient) -> None:
    created = create(
        client,
        game="stack-a-cash",
        mode="bot",
        bot="random",
        seat=0,
        clock={"initial_s": 30, "increment_s": 0},
    )
    gid = created["id"]
    hub = client.app.state.ctx.hub
    live = hub.games[gid]
    if live.flag_timer:
        live.flag_timer.cancel()  # only the move itself can notice
    live.clock.remaining[0] = 1
    live.clock.since = time.monotonic() - 1
    r = client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    assert r.status_code == 409
    view = client.get(f"/api/games/{gid}?svg=false").json()
    assert view["termination"] == "time forfeit" and view["winner"] == 1 and view["history"] == []
