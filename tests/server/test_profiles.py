"""A player's profile: the rating over time drawn on the server (with words for those who
cannot see it), the games filtered by game, result and opponent, a page at a time, and a
filter that names nothing refused in words; one real rated game shows on the graph."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient

from pocketarena.server.models import GameRecord
from pocketarena.server.store import Store

from .conftest import second_client
from .test_friends import account
from .test_rated import seek_and_join

START = datetime(2026, 11, 1, 12, tzinfo=UTC)


def seed(store: Store, me: str, ann: str, bob: str, prefix: str = "") -> None:
    """25 finished rated games of ``me``: Stack-a-Cash against Ann (won, lost, drawn in turn),
    FlipWars against Bob (won); ratings climbing in steps."""
    with store.sessions() as s, s.begin():
        for i in range(25):
            game, other = ("stack-a-cash", ann) if i < 15 else ("flipwars", bob)
            winner = (0, 1, None)[i % 3] if game == "stack-a-cash" else 0
            when = START + timedelta(days=i)
            s.add(
                GameRecord(
                    id=f"seeded{prefix}{i:02d}",
                    game=game,
                    options={},
                    mode="friend",
                    status="finished",
                    rated=True,
                    creator_id=me,
                    seat0_id=me,
                    seat1_id=other,
                    history=[],
                    winner=winner,
                    result={0: "1-0", 1: "0-1", None: "1/2-1/2"}[winner],
                    termination="normal",
                    rating_changes=[
                        {"player": me, "before": 1500 + i, "after": 1501 + i, "delta": 1},
                        {"player": other, "before": 1500, "after": 1499, "delta": -1},
                    ],
                    created_at=when,
                    started_at=when,
                    finished_at=when,
                    updated_at=when,
                )
            )


def test_filters_paging_and_the_graph(client: TestClient) -> None:
    me = account(client, "mia")
    ann = account(second_client(client), "ann")
    bob = account(second_client(client), "bob")
    seed(client.app.state.ctx.store, me, ann, bob)  # type: ignore[attr-defined]
    api = f"/api/players/{me}/games"
    every = client.get(api).json()
    assert (every["total"], every["pages"], len(every["games"])) == (25, 2, 20)
    assert every["games"][0]["id"] == "seeded24"  # newest first
    assert len(client.get(api, params={"page": 2}).json()["games"]) == 5
    assert client.get(api, params={"game": "flipwars"}).json()["total"] == 10
    assert client.get(api, params={"result": "draw"}).json()["total"] == 5
    assert client.get(api, params={"result": "loss"}).json()["total"] == 5
    assert client.get(api, params={"result": "win"}).json()["total"] == 15
    assert client.get(api, params={"opponent": "ANN", "result": "win"}).json()["total"] == 5
    assert client.get(api, params={"opponent": "nobody"}).json()["total"] == 0
    # refusals say what is valid, and change nothing
    r = client.get(api, params={"game": "chess"})
    assert r.status_code == 400 and "flipwars" in r.json()["detail"]
    r = client.get(api, params={"result": "lose"})
    assert r.status_code == 400 and "loss" in r.json()["detail"]
    assert client.get(api, params={"page": 0}).status_code == 422
    assert client.get("/api/players/" + "0" * 32 + "/games").status_code == 404
    history = client.get(f"/api/players/{me}/ratings/history").json()
    assert [p["rating"] for p in history["stack-a-cash"]] == list(range(1501, 1516))
    # the page: a graph with its words, the filter form, the pager
    page = client.get(f"/players/{me}", params={"game": "stack-a-cash", "result": "win"}).text
    assert page.count("<polyline") == 2
    desc = re.search(r'<desc id="rating-graph-desc">([^<]*)</desc>', page)
    assert desc and "Stack-a-Cash: 1501 to 1515 over 15 rated games" in desc.group(1)
    assert page.count('class="outcome-win"') == 5 and 'value="win" selected' in page
    assert "Page 1 of 2" in client.get(f"/players/{me}").text
    older = client.get(f"/players/{me}", params={"page": 2}).text
    assert "Page 2 of 2" in older and 'rel="prev"' in older and 'rel="next"' not in older
    assert client.get(f"/players/{me}", params={"page": "x"}).status_code == 400
    bad = client.get(f"/players/{me}", params={"result": "lose"})
    assert bad.status_code == 400 and "loss" in bad.text
    french = client.get(f"/players/{me}", headers={"Accept-Language": "fr"}).text
    assert "Page 1 sur 2" in french and "parties classées" in french


def test_a_rated_game_draws_a_point(client: TestClient) -> None:
    """Played, not seeded: the rating the game gave is the graph's one point."""
    other = second_client(client)
    me = account(client, "mia")
    account(other, "ann")
    assert 'id="rating-history"' not in client.get(f"/players/{me}").text  # nothing rated yet
    gid = seek_and_join(client, other)["id"]
    client.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 1})
    other.post(f"/api/games/{gid}/moves", json={"action": "place S a1", "version": 2})
    done = other.post(f"/api/games/{gid}/resign").json()
    mine = next(c for c in done["rating_changes"] if c["player"] == me)
    page = client.get(f"/players/{me}").text
    assert 'id="rating-history"' in page and "<circle" in page  # one point
    assert f"{mine['after']} to {mine['after']} over 1 rated game" in page
