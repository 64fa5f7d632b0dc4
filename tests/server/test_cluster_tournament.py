"""An arena of 24 bots for half a minute on a three-process cluster (PostgreSQL, Redis,
HAProxy), one process (the one the organiser used; every process ticks and pairs) killed with
``kill -9`` a third of the way in: the others pair on, every board's game exists once under
the id its pairing fixed, no player meets the same opponent twice in a row, and the final
standings equal what the stored games say."""

from __future__ import annotations

import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import httpx
import pytest

from pocketarena.server.tournaments import game_id_for
from pocketarena.tournaments import Played, arena_standings

from .test_cluster import Cluster, running_cluster

pytestmark = pytest.mark.slow

# A third before the kill, two thirds after: rounds enough on both sides (an arena pairs
# whoever is free at every tick; its bots' games take a few seconds). The API's shortest arena
# is a minute, so the test shortens its row after creating it: every tick reads the row.
DURATION_S = 30


def view_of(client: httpx.Client, tid: str) -> dict[str, Any]:
    r = client.get(f"/api/tournaments/{tid}")
    assert r.status_code == 200, r.text
    return dict(r.json())


def shorten(cluster: Cluster, tid: str, seconds: int) -> None:
    """Set an arena's length in its stored row (below the API's least, a minute)."""
    from sqlalchemy import create_engine, text

    engine = create_engine(cluster.env["POCKETARENA_DATABASE_URL"])
    try:
        with engine.begin() as conn:
            schema = cluster.env["POCKETARENA_DATABASE_SCHEMA"]
            done = conn.execute(
                text(f'UPDATE "{schema}".tournaments SET duration_s = :s WHERE id = :t'),
                {"s": seconds, "t": tid},
            )
            assert done.rowcount == 1
    finally:
        engine.dispose()


def test_an_arena_of_bots_outlives_a_killed_process(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    with running_cluster(
        tmp_path, postgres_url, redis_url, POCKETARENA_BOT_MIN_DELAY_MS="100"
    ) as cluster:
        try:
            _arena(cluster)
        except BaseException:
            cluster.print_logs()
            raise


def _arena(cluster: Cluster) -> None:
    s1 = httpx.Client(base_url=cluster.url("s1"), timeout=30)
    r = s1.post("/api/auth/register", json={"username": "organiser", "password": "longenough"})
    assert r.status_code == 200, r.text
    body = {
        "name": "Cluster arena",
        "kind": "arena",
        "game": "stack-a-cash",
        "duration_s": 60,  # the least the API takes; shortened below
        "clock": {"initial_s": 10, "increment_s": 0},
        "starts_in_s": 3600,
    }
    r = s1.post("/api/tournaments", json=body)
    assert r.status_code == 201, r.text
    tid = r.json()["id"]
    shorten(cluster, tid, DURATION_S)
    for level in ("random", "greedy"):
        r = s1.post(f"/api/tournaments/{tid}/bots", json={"level": level, "count": 12})
        assert r.status_code == 200, r.text
    assert s1.post(f"/api/tournaments/{tid}/start").json()["players"] == 24

    # A third of the way in, kill the process that started it (and paired its first round).
    time.sleep(DURATION_S / 3)
    before = view_of(s1, tid)
    assert len(before["rounds"]) >= 2
    cluster.kill("s1")
    s2 = httpx.Client(base_url=cluster.url("s2"), timeout=30, cookies=s1.cookies)
    deadline = time.monotonic() + DURATION_S + 120
    while True:
        view = view_of(s2, tid)
        if view["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"not finished: {view['status']}"
        time.sleep(1)
    assert len(view["rounds"]) > len(before["rounds"])  # the others paired on

    # Every board's game exists once, under the id its pairing fixed, and is over.
    played: list[tuple[int, Played]] = []
    for rnd in view["rounds"]:
        for b in rnd["boards"]:
            assert b["game_id"] == game_id_for(tid, rnd["round"], b["board"] - 1)
            game = s2.get(f"/api/games/{b['game_id']}", params={"svg": False}).json()
            assert game["status"] in ("finished", "aborted"), game["status"]
            seats = [s["player"] for s in game["seats"]]
            assert seats == [b["first"]["id"], b["second"]["id"]]
            winner = game.get("winner")
            score = 0.5 if game["status"] == "aborted" or winner is None else 1.0 - winner
            assert b["score"] == score
            played.append((rnd["round"], Played(seats[0], seats[1], score)))
    # A player plays one game at a time, never the same opponent twice in a row.
    last: dict[str, str] = {}
    busy: dict[str, list[int]] = defaultdict(list)
    for rnd, g in sorted(played, key=lambda x: x[0]):
        assert g.second is not None
        for me, other in ((g.first, g.second), (g.second, g.first)):
            assert last.get(me) != other
            last[me] = other
            busy[me].append(rnd)
    # The standings are the ones the stored games make (a player's games in round order are
    # the order they were played).
    seeds = [row["id"] for row in view["standings"]]
    expected = arena_standings(seeds, [g for _, g in sorted(played, key=lambda x: x[0])])
    assert {(row["id"], row["points"]) for row in view["standings"]} == {
        (s.player, s.points) for s in expected
    }
    assert sum(len(v) for v in busy.values()) == 2 * len(played)
