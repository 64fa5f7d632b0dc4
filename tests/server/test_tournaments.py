"""Tournaments through the API: a Swiss of 16 bots to its end on SQLite and PostgreSQL (the
standings equal to what the stored games say), a round robin and an arena of bots, the
WebSocket's pushes, and every refusal."""

from __future__ import annotations

import itertools
import re
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app
from pocketarena.server.tournaments import game_id_for
from pocketarena.tournaments import Played, standings
from tests.server.conftest import make_settings, second_client

SWISS = {"name": "Friday Swiss", "kind": "swiss", "game": "stack-a-cash", "rounds": 4}


def register(client: TestClient, username: str) -> str:
    r = client.post("/api/auth/register", json={"username": username, "password": "pw-" + "x" * 10})
    assert r.status_code == 200, r.text
    return str(r.json()["id"])


def create(client: TestClient, **settings: Any) -> dict[str, Any]:
    r = client.post("/api/tournaments", json={**SWISS, "starts_in_s": 3600, **settings})
    assert r.status_code == 201, r.text
    return dict(r.json())


def wait_until_finished(client: TestClient, tid: str, seconds: float = 240) -> dict[str, Any]:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        view = client.get(f"/api/tournaments/{tid}").json()
        if view["status"] == "finished":
            return dict(view)
        time.sleep(0.3)
    raise AssertionError(f"not finished in {seconds} s: {view['status']}, {len(view['rounds'])}")


def your_game(client: TestClient, tid: str, seconds: float = 30) -> str:
    """The id of the client's game in the tournament's round, once it is paired."""
    end = time.monotonic() + seconds
    while not (view := client.get(f"/api/tournaments/{tid}").json())["you"]["game"]:
        assert time.monotonic() < end, "no game paired"
        time.sleep(0.2)
    return str(view["you"]["game"])


def stored_results(client: TestClient, view: dict[str, Any]) -> list[Played]:
    """Every board's result as its stored game tells it (byes score a point)."""
    games = []
    for rnd in view["rounds"]:
        for b in rnd["boards"]:
            if b["second"] is None:
                games.append(Played(b["first"]["id"], None, 1.0))
                continue
            game = client.get(f"/api/games/{b['game_id']}", params={"svg": False}).json()
            assert game["status"] == "finished", game["status"]
            assert [s["player"] for s in game["seats"]] == [b["first"]["id"], b["second"]["id"]]
            winner = game["winner"]
            score = 0.5 if winner is None else (1.0 if winner == 0 else 0.0)
            assert b["score"] == score
            games.append(Played(b["first"]["id"], b["second"]["id"], score))
    return games


@pytest.mark.slow
def test_a_swiss_of_16_bots_runs_to_its_end(db_settings: Settings) -> None:
    with TestClient(create_app(db_settings)) as client:
        register(client, "organiser")
        tid = create(client)["id"]
        r = client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 10})
        assert r.status_code == 200, r.text
        r = client.post(f"/api/tournaments/{tid}/bots", json={"level": "greedy", "count": 6})
        assert r.status_code == 200 and r.json()["players"] == 16
        with client.websocket_connect("/ws") as ws:
            assert ws.receive_json()["type"] == "hello"
            ws.send_json({"type": "tournament", "id": tid})
            first = ws.receive_json()
            assert first["type"] == "tournament" and first["tournament"]["status"] == "created"
            assert client.post(f"/api/tournaments/{tid}/start").status_code == 200
            # The socket hears the pairings of round 1 without asking.
            while True:
                msg = ws.receive_json()
                if msg["type"] == "tournament" and msg["tournament"]["rounds"]:
                    break
        view = wait_until_finished(client, tid)
        assert [len(r["boards"]) for r in view["rounds"]] == [8, 8, 8, 8]
        games = stored_results(client, view)
        met = [frozenset((g.first, g.second)) for g in games]
        assert len(met) == len(set(met)) == 32
        # Each game was created once, under the id its board fixed.
        ids = [b["game_id"] for r in view["rounds"] for b in r["boards"]]
        assert ids == [
            game_id_for(tid, r["round"], b["board"] - 1)
            for r in view["rounds"]
            for b in r["boards"]
        ]
        # The table is the one the stored games make.
        seeds = [row["id"] for row in sorted(view["standings"], key=lambda r: r["rank"])]
        expected = standings(seeds, games)
        assert [
            (s["id"], s["points"], s["buchholz"], s["sonneborn_berger"]) for s in view["standings"]
        ] == [(s.player, s.points, s.buchholz, s.sonneborn_berger) for s in expected]
        assert sum(s["points"] for s in view["standings"]) == 32
        listed = client.get("/api/tournaments", params={"status": "finished"}).json()
        assert [t["id"] for t in listed["tournaments"]] == [tid]


def test_a_round_robin_and_an_arena_of_bots(tmp_path: Any) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        register(client, "organiser")
        rr = create(client, kind="round-robin", rounds=None, name="Robin")["id"]
        client.post(f"/api/tournaments/{rr}/bots", json={"level": "random", "count": 5})
        assert client.post(f"/api/tournaments/{rr}/start").status_code == 200
        arena = create(
            client, kind="arena", rounds=None, duration_s=60, clock={"initial_s": 10}, name="Arena"
        )["id"]
        client.post(f"/api/tournaments/{arena}/bots", json={"level": "random", "count": 4})
        assert client.post(f"/api/tournaments/{arena}/start").status_code == 200
        view = wait_until_finished(client, rr)
        assert len(view["rounds"]) == 5
        games = stored_results(client, view)
        met = {frozenset((g.first, g.second)) for g in games if g.second is not None}
        ids = [row["id"] for row in view["standings"]]
        assert met == {frozenset(p) for p in itertools.combinations(ids, 2)}
        # The arena pairs again as games end; pause stops it, resume goes on.
        time.sleep(3)
        assert client.post(f"/api/tournaments/{arena}/pause").status_code == 200
        paused = client.get(f"/api/tournaments/{arena}").json()
        assert paused["status"] == "paused" and len(paused["rounds"]) >= 2
        assert (
            client.post(f"/api/tournaments/{arena}/pause", params={"resume": True}).json()["status"]
            == "running"
        )
        pairs = [
            (b["first"]["id"], b["second"]["id"]) for r in paused["rounds"] for b in r["boards"]
        ]
        assert all(a != b for a, b in pairs)
        points = {row["id"]: row["points"] for row in paused["standings"]}
        assert sum(points.values()) >= 0


@pytest.mark.parametrize(
    "body, status, fragment",
    [
        ({"kind": "swiss", "rounds": None}, 400, "a Swiss needs a number of rounds"),
        ({"kind": "round-robin", "rounds": 3}, 400, "rounds are for a Swiss"),
        ({"kind": "arena", "rounds": None}, 400, "an arena needs a duration"),
        (
            {"kind": "arena", "rounds": None, "duration_s": 600},
            400,
            "an arena is played on the clock",
        ),
        ({"duration_s": 600}, 400, "a duration is for an arena"),
        ({"game": "chess"}, 400, "unknown game 'chess'"),
        ({"options": {"map": "x"}}, 400, "unknown option 'map'"),
        ({"max_players": 501}, 400, "at most 500 players"),
        ({"rounds": 0}, 422, "rounds"),
        ({"kind": "knockout"}, 422, "kind"),
        ({"name": ""}, 422, "name"),
        ({"name": "   "}, 400, "needs a name"),
        ({"surprise": 1}, 422, "surprise"),
        ({"days_per_move": 4}, 400, "days per move is one of 1, 2, 3, 5, 7, 14, not 4"),
        ({"days_per_move": 3, "clock": {"initial_s": 60}}, 400, "a clock or days per move"),
        (
            {"kind": "arena", "rounds": None, "duration_s": 600, "days_per_move": 3},
            400,
            "an arena is played on the clock, not by the day",
        ),
    ],
)
def test_every_invalid_setting_is_refused_clearly(
    client: TestClient, body: dict[str, Any], status: int, fragment: str
) -> None:
    register(client, "organiser")
    r = client.post("/api/tournaments", json={**SWISS, **body})
    assert r.status_code == status, r.text
    assert fragment in r.text
    assert client.get("/api/tournaments").json()["tournaments"] == []


def test_who_may_create_join_and_organise(tmp_path: Any) -> None:
    settings = make_settings(tmp_path, tournaments_per_day=2)
    with TestClient(create_app(settings)) as client:
        guest = second_client(client)
        r = guest.post("/api/tournaments", json=SWISS)
        assert r.status_code == 403 and "sign in to an account" in r.json()["detail"]
        register(client, "organiser")
        rated = create(client, rated=True)["id"]
        r = guest.post(f"/api/tournaments/{rated}/join")
        assert r.status_code == 403 and "rated tournament; guests watch" in r.json()["detail"]
        assert guest.get(f"/api/tournaments/{rated}").status_code == 200  # watching is open
        private = create(client, invite_only=True)
        r = guest.post(f"/api/tournaments/{private['id']}/join")
        assert r.status_code == 403 and "by invitation" in r.json()["detail"]
        r = guest.post(f"/api/tournaments/{private['id']}/join", json={"invite": private["invite"]})
        assert r.status_code == 200 and r.json()["you"]["joined"]
        assert "invite" not in r.json()  # only the organiser sees the link's token
        r = client.post("/api/tournaments", json=SWISS)
        assert r.status_code == 429 and "2 tournaments in the last 24 hours" in r.json()["detail"]
        r = guest.post(f"/api/tournaments/{rated}/bots", json={"level": "easy"})
        assert r.status_code == 403 and "only the organiser" in r.json()["detail"]
        r = client.post(f"/api/tournaments/{rated}/bots", json={"level": "wizard"})
        assert r.status_code == 400 and "choose one of: random" in r.json()["detail"]
        r = client.post(f"/api/tournaments/{rated}/start")
        assert r.status_code == 409 and "at least two players" in r.json()["detail"]
        r = client.post(f"/api/tournaments/{rated}/pause")
        assert r.status_code == 400 and "only an arena pauses" in r.json()["detail"]
        r = guest.post(f"/api/tournaments/{rated}/withdraw")
        assert r.status_code == 403 and "not playing" in r.json()["detail"]
        r = client.get("/api/tournaments/nope")
        assert r.status_code == 404 and "no tournament 'nope'" in r.json()["detail"]
        r = client.get("/api/tournaments", params={"status": "soon"})
        assert r.status_code == 400


def test_a_full_tournament_takes_no_one_more(tmp_path: Any) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        register(client, "organiser")
        tid = create(client, max_players=3)["id"]
        r = client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 5})
        assert r.status_code == 200 and r.json()["players"] == 3
        other = second_client(client)
        r = other.post(f"/api/tournaments/{tid}/join")
        assert r.status_code == 409 and "full (3 players)" in r.json()["detail"]


def test_the_pages_list_show_and_follow_a_tournament(tmp_path: Any) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        guest = second_client(client)
        assert "Sign in to an account to create a tournament" in guest.get("/tournaments").text
        register(client, "organiser")
        assert 'id="tournament-form"' in client.get("/tournaments").text
        tid = create(client, name="Sunday Swiss", rounds=1)["id"]
        home = client.get("/").text
        assert f'href="/t/{tid}"' in home and "Sunday Swiss" in home
        listing = client.get("/tournaments").text
        assert "Sunday Swiss" in listing.split('id="tournaments-soon"')[1]
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 2})
        page = client.get(f"/t/{tid}").text
        assert 'data-action="start"' in page and "Randy (random) 2" in page
        assert 'data-action="join"' in guest.get(f"/t/{tid}").text
        assert 'data-action="start"' not in guest.get(f"/t/{tid}").text
        client.post(f"/api/tournaments/{tid}/start")
        view = wait_until_finished(client, tid)
        live = client.get(f"/t/{tid}/live").text
        assert (
            "Final standings" in live
            and f'href="/g/{view["rounds"][0]["boards"][0]["game_id"]}"' in live
        )
        assert client.get("/t/nope").status_code == 404


def test_a_turn_based_swiss_gives_each_game_its_days_per_move(tmp_path: Any) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as client:
        register(client, "organiser")
        person = second_client(client)
        made = create(client, rounds=1, days_per_move=3)
        assert made["days_per_move"] == 3 and made["clock"] is None
        tid = made["id"]
        assert person.post(f"/api/tournaments/{tid}/join").status_code == 200
        client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 1})
        client.post(f"/api/tournaments/{tid}/start")
        game = person.get(f"/api/games/{your_game(person, tid)}", params={"svg": False}).json()
        assert game["days_per_move"] == 3
        # The person's turn shows in their "your turn" list, as any turn-based game's.
        if game["to_move"] in game["you"]:
            turns = person.get("/api/me/turns").json()
            assert [g["id"] for g in turns["games"]] == [game["id"]]
        assert "3 days a move" in person.get(f"/t/{tid}").text


def test_a_tournaments_bots_are_named_in_the_readers_language(tmp_path: Any) -> None:
    """A tournament's bots are each a level's bot with a number ("Randy (random) 2"), stored in
    the catalog's source words: the pages word the level's name in the reader's language, as
    for any bot ("Randy (au hasard) 2"), and so does the organiser's list of levels to add.
    They stayed English in every language."""
    with TestClient(create_app(make_settings(tmp_path))) as client:
        register(client, "organiser")
        tid = create(client, name="Sunday Swiss", rounds=1)["id"]
        r = client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 2})
        assert r.status_code == 200, r.text
        stored = {p["name"] for p in client.get(f"/api/tournaments/{tid}").json()["standings"]}
        assert stored == {"Randy (random) 1", "Randy (random) 2"}  # one name for every reader
        client.cookies.set("lang", "fr")
        page = re.sub(r"<script.*?</script>", "", client.get(f"/t/{tid}").text, flags=re.S)
        assert ">Randy (au hasard) 1</a>" in page and ">Randy (au hasard) 2</a>" in page
        assert "Randy (random)" not in page
        assert '<option value="random">Randy (au hasard)</option>' in page
        client.cookies.set("lang", "ja")
        live = client.get(f"/t/{tid}/live").text
        assert ">ランディ（ランダム） 2</a>" in live and "Randy" not in live


def a_person_paired_with_a_bot(client: TestClient, name: str) -> tuple[TestClient, str, str]:
    """A one-round turn-based Swiss of a person and a random bot, started: the person's
    client, the tournament's id and their game's."""
    register(client, "organiser")
    person = second_client(client)
    tid = create(client, name=name, rounds=1, days_per_move=3)["id"]
    assert person.post(f"/api/tournaments/{tid}/join").status_code == 200
    client.post(f"/api/tournaments/{tid}/bots", json={"level": "random", "count": 1})
    client.post(f"/api/tournaments/{tid}/start")
    return person, str(tid), your_game(person, tid)


def test_a_tournament_game_says_whose_it_is_in_every_language(tmp_path: Any) -> None:
    """A tournament's game page links its tournament and round in its header, and the page's
    script says "tournament game" where a game off a tournament says rated or casual: a
    tournament's unrated game was called "casual" ("amicale" in French), a friendly game."""
    with TestClient(create_app(make_settings(tmp_path))) as client:
        person, tid, gid = a_person_paired_with_a_bot(client, "Club Swiss")
        game = person.get(f"/api/games/{gid}", params={"svg": False}).json()
        assert (game["mode"], game["rated"]) == ("tourney", False)
        link = f'<a href="/t/{tid}">Club Swiss</a>'
        for lang, round_ in (("en", "Round 1"), ("fr", "Ronde 1"), ("ja", "第 1 回戦")):
            person.cookies.set("lang", lang)
            page = person.get(f"/g/{gid}").text
            head = page.split('class="board-head"')[1].split("</div>")[0]
            assert f"{link} · {round_}</p>" in head, (lang, head)
        other = create_game(person)
        assert 'id="tournament-of"' not in person.get(f"/g/{other}").text
        script = person.get("/static/format.js").text
        assert 't("tournament game")' in script and 'g.mode === "tourney"' in script
        for lang, word in (("fr", "partie de tournoi"), ("ja", "大会の対局")):
            assert person.get(f"/i18n/{lang}.json").json()["messages"]["tournament game"] == word


def create_game(client: TestClient) -> str:
    r = client.post(
        "/api/games", json={"game": "stack-a-cash", "options": {}, "mode": "bot", "bot": "random"}
    )
    assert r.status_code == 201, r.text
    return str(r.json()["id"])


def test_a_tournament_game_cannot_be_aborted(tmp_path: Any) -> None:
    """A tournament's game counts for the standings whoever is paired: calling it off before the
    second move scored half a point each (a way out of a game one expects to lose), and its page
    offered "Abort". It is not abortable: the view says so (no button) and the request is
    refused with a reason; resigning stays open."""
    with TestClient(create_app(make_settings(tmp_path))) as client:
        person, _, gid = a_person_paired_with_a_bot(client, "No Way Out")
        game = person.get(f"/api/games/{gid}", params={"svg": False}).json()
        assert game["status"] == "active" and game["abortable"] is False
        r = person.post(f"/api/games/{gid}/abort")
        assert r.status_code == 403, r.text
        assert "tournament" in r.json()["detail"]
        assert person.get(f"/api/games/{gid}", params={"svg": False}).json()["status"] == "active"
        person.cookies.set("lang", "fr")
        r = person.post(f"/api/games/{gid}/abort")
        assert r.status_code == 403 and "tournoi" in r.json()["detail"], r.text
        r = person.post(f"/api/games/{gid}/resign")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "finished"
