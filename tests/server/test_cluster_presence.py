"""Presence and per-game channels in a real cluster (the processes, PostgreSQL, Redis and
HAProxy of ``test_cluster``): a player connected to one process is seen online by a watcher on
another, and a spectator on a third counts on both players' pages; a process killed with
``kill -9`` takes its players offline within the bound; the claim of a win sees an opponent
connected elsewhere; a process hears only the games its sockets watch."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx
import pytest

from .test_cluster import GAME, Cluster, Player, legal_move, running_cluster

OFFLINE_BOUND_S = 30.0  # what docs/deploy.md promises for a process that died without a word


def presence_is(gid: str, online: list[bool]) -> Any:
    return lambda m: m["type"] == "presence" and m["game"] == gid and m["online"] == online


def health(cluster: Cluster, name: str) -> dict[str, Any]:
    return dict(httpx.get(f"{cluster.url(name)}/healthz", timeout=5).json())


def subscribers(cluster: Cluster, gid: str) -> int:
    """How many processes hear the game's channel (Redis's own count)."""
    import redis

    r = redis.Redis.from_url(cluster.redis_url)
    try:
        channel = f"{cluster.prefix}:game:{gid}"
        return int(dict(r.pubsub_numsub(channel))[channel.encode()])
    finally:
        r.close()


def settle(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.1)


@pytest.mark.slow
def test_presence_claims_and_channels_across_the_cluster(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    with running_cluster(
        tmp_path, postgres_url, redis_url, worker=False, POCKETARENA_CLAIM_WIN_AFTER_S="1"
    ) as cluster:
        people = [Player(cluster, name) for name in ("A", "B", "C", "D")]
        try:
            _check(cluster, *people)
        except BaseException:
            cluster.print_logs()
            raise
        finally:
            for p in people:
                p.close()


def _check(cluster: Cluster, a: Player, b: Player, spectator: Player, d: Player) -> None:
    # A friend game, untimed: A (first seat) on s1, B on s2, a spectator on s3.
    created = a.post("/api/games", {**GAME, "mode": "friend", "seat": 0}, "s1")
    gid = created["id"]
    invite = parse_qs(urlparse(created["invite_url"]).query)["invite"][0]
    b.post(f"/api/games/{gid}/join", {"invite": invite}, "s2")
    spectator.connect("s3", gid)
    spectator.until(presence_is(gid, [False, False]))
    # A connects to s1: the spectator on s3 sees A online; then B on s2
    a.connect("s1", gid)
    spectator.until(presence_is(gid, [True, False]))
    b.connect("s2", gid)
    spectator.until(presence_is(gid, [True, True]))
    assert subscribers(cluster, gid) == 3  # each process with a watcher, once
    # the spectator watching on s3 counts on the players' pages on s1 and s2
    for player in (a, b):
        player.until(lambda m: m["type"] == "spectators" and m["game"] == gid and m["count"] == 1)

    # Per-game channels: a game watched on s1 alone is heard by s1 alone.
    local = d.post("/api/games", {**GAME, "mode": "local"}, "s1")
    lid = local["id"]
    d.connect("s1", lid)
    settle(lambda: subscribers(cluster, lid) == 1)
    heard = {name: health(cluster, name)["bus_received"] for name in ("s1", "s2", "s3")}
    for _ in range(4):
        view = d.view(lid, "s1")
        d.post(
            f"/api/games/{lid}/moves",
            {"action": legal_move(view), "version": view["version"]},
            "s1",
        )
        d.sees(lid, view["version"] + 1)
    time.sleep(0.5)  # anything on its way has arrived
    after = {name: health(cluster, name)["bus_received"] for name in ("s1", "s2", "s3")}
    assert after["s1"] - heard["s1"] >= 4, (heard, after)  # its own changes, on its channel
    assert after["s2"] == heard["s2"] and after["s3"] == heard["s3"], (heard, after)
    # the spectator looks in on s3 and leaves: s3 follows the game, then stops
    spectator.send(type="watch", game=lid, svg=False)
    spectator.until(lambda m: m["type"] == "state" and m["game"]["id"] == lid)
    assert subscribers(cluster, lid) == 2
    spectator.send(type="unwatch", game=lid, ref="off")
    spectator.until(lambda m: m["type"] == "ack" and m.get("ref") == "off")
    settle(lambda: subscribers(cluster, lid) == 1)

    # A moves; it is B's turn. B's page (on s2) shows the game: A may not claim the win.
    view = a.view(gid, "s1")
    assert view["to_move"] == 0
    a.send(type="move", game=gid, action=legal_move(view), version=view["version"], ref="m1")
    a.until(lambda m: m["type"] == "ack" and m.get("ref") == "m1")
    time.sleep(1.2)  # past POCKETARENA_CLAIM_WIN_AFTER_S: only B's presence holds A back
    claim = a.http.get(f"{cluster.url('s1')}/api/games/{gid}/claim").json()
    assert not claim["allowed"] and "still has the game open" in claim["reason"], claim
    r = a.http.post(f"{cluster.url('s1')}/api/games/{gid}/claim-win")
    assert r.status_code == 403 and "still has the game open" in r.text

    # s2 dies without a word: B is offline on s3 within the bound, and A may claim.
    cluster.kill("s2")
    killed = time.monotonic()
    spectator.until(presence_is(gid, [True, False]), timeout=OFFLINE_BOUND_S + 5)
    took = time.monotonic() - killed
    print(f"B offline on s3 {took:.1f} s after kill -9 of s2")
    assert took <= OFFLINE_BOUND_S
    claim = a.http.get(f"{cluster.url('s1')}/api/games/{gid}/claim").json()
    assert claim["allowed"], claim
    won = a.http.post(f"{cluster.url('s1')}/api/games/{gid}/claim-win")
    assert won.status_code == 200, won.text
    assert won.json()["termination"] == "abandoned" and won.json()["winner"] == 0
    final = spectator.until(lambda m: m["type"] == "state" and m["game"]["status"] == "finished")
    assert final["game"]["id"] == gid
