"""The analysis board's API and page: positions from moves, records and finished games; exact
and bot evaluations; bad input refused in words."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.server.analyses import Busy, Job, StudySlots, rough
from pocketarena.server.main import create_app
from pocketarena.study import evaluate

from .conftest import create, make_settings
from .test_limits import at

# Heads makes a line on the fifth ply: a finished game in five moves.
QUICK_WIN = ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]


def finished_game(client: TestClient) -> str:
    gid: str = create(client, game="stack-a-cash", options={}, mode="local")["id"]
    for version, move in enumerate(QUICK_WIN):
        r = client.post(f"/api/games/{gid}/moves", json={"action": move, "version": version})
        assert r.status_code == 200, r.text
    return gid


def test_position_from_moves(client: TestClient) -> None:
    r = client.post(
        "/api/analysis/position", json={"game_id": "stack-a-cash", "moves": ["place L b2"]}
    )
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["svg"].startswith("<svg") and data["to_move"] == 1
    state = pa.load("stack-a-cash").new_initial_state()
    state.apply("place L b2")
    assert data["legal"] == [a.text for a in state.legal_actions()]
    assert data["options"] == {"protect": "touched"} and data["status"] == "Tails to move"


def test_chance_position_lists_the_throws(client: TestClient) -> None:
    r = client.post("/api/analysis/position", json={"game_id": "coin-age", "options": {}})
    data = r.json()
    assert data["chance"] and data["legal"] == []
    assert abs(sum(t["probability"] for t in data["throws"]) - 1) < 1e-6
    assert data["options"]["seed"] is not None or data["options"]["map"] != "random"


def test_exact_evaluation_with_the_explorer(client: TestClient) -> None:
    r = client.post("/api/analysis/evaluate", json={"game_id": "stack-a-cash"})
    assert r.status_code == 200, r.text
    data = r.json()
    assert data["exact"] and data["summary"] == "Heads wins in 15 plies with best play"
    assert len(data["explorer"]) == 27
    assert {b["move"] for b in data["best"]} == {
        "place M a1",
        "place M c1",
        "place M b2",
        "place M a3",
        "place M c3",
    }
    # The expected line is best play: it ends the game as the evaluation says.
    state = pa.load("stack-a-cash").new_initial_state()
    for move in data["line"]:
        state.apply(move)
    assert len(data["line"]) == 15 and state.winner() == 0


def test_bot_evaluation_of_a_chance_game_says_so() -> None:
    report = evaluate(
        "wallet-battles", {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}, [], seconds=0.1
    )
    assert not report["exact"] and "expectations over the throws" in report["note"]
    assert abs(sum(report["expected"]) - 1) < 1e-6


def test_record_upload_gives_the_position(client: TestClient) -> None:
    gid = finished_game(client)
    text = client.get(f"/api/games/{gid}/record?format=text").text
    r = client.post("/api/analysis/record", content=text, headers={"content-type": "text/plain"})
    assert r.status_code == 200, r.text
    assert r.json() == {
        "game_id": "stack-a-cash",
        "options": {"protect": "touched"},
        "moves": QUICK_WIN,
    }
    bad = client.post(
        "/api/analysis/record", content="nonsense", headers={"content-type": "text/plain"}
    )
    assert bad.status_code == 400 and "not a readable record" in bad.json()["detail"]


def test_page_from_a_finished_game_at_a_ply(client: TestClient) -> None:
    gid = finished_game(client)
    page = client.get(f"/analysis?game={gid}&ply=3")
    assert page.status_code == 200
    data = json.loads(page.text.split('id="page-data">')[1].split("</script>")[0])
    assert data["start"]["moves"] == QUICK_WIN[:3] and data["start"]["from_game"] == gid
    running = create(client, game="stack-a-cash", options={}, mode="local")["id"]
    page = client.get(f"/analysis?game={running}")
    assert "analysed once it is over" in page.text
    assert "there is no game" in client.get("/analysis?game=nope").text


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"game_id": "chess"}, "there is no game 'chess'"),
        ({"game_id": "stack-a-cash", "moves": ["place L b9"]}, "move 1 ('place L b9')"),
        ({"game_id": "stack-a-cash", "options": {"protect": "never"}}, "protect"),
        ({"game_id": "stack-a-cash", "moves": QUICK_WIN + ["flip b1"]}, "move 6"),
        ({"game_id": "stack-a-cash", "moves": ["x" * 200]}, "at most 80 characters"),
    ],
)
def test_bad_positions_get_a_clear_message(
    client: TestClient, body: dict[str, object], fragment: str
) -> None:
    for path in ("/api/analysis/position", "/api/analysis/evaluate"):
        r = client.post(path, json=body)
        assert r.status_code == 400, r.text
        assert fragment in r.json()["detail"]


def test_set_up_link_with_bad_options_still_shows_the_page(client: TestClient) -> None:
    page = client.get("/analysis", params={"game_id": "stack-a-cash", "options": "{oops"})
    assert page.status_code == 200 and "not JSON" in page.text


def test_flipwars_endgame_is_evaluated_exactly() -> None:
    import random

    rng = random.Random(7)
    state = pa.load("flipwars", mode="enclosed").new_initial_state()
    while len(state.empty) > 4:  # type: ignore[attr-defined]
        state.apply(rng.choice(list(state.legal_actions())))
    moves = [a.text for a in state.history]
    report = evaluate("flipwars", {"mode": "enclosed"}, moves)
    assert report["exact"] and report["method"] == "the FlipWars endgame solver"
    assert all("margin" in m for m in report["explorer"])
    # The expected line plays the round out.
    for move in report["line"]:
        state.apply(move)
    assert state.is_terminal() and len(report["line"]) == 4
    far = evaluate("flipwars", {"mode": "enclosed"}, moves[:2], seconds=0.05)
    assert not far["exact"] and far["note"] is None


def test_busy_workers_and_slow_evaluations_are_said_in_words(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pocketarena.server.api.routes import analysis

    body = {"game_id": "stack-a-cash"}
    monkeypatch.setattr(analysis, "SLOT_WAIT_S", 0.05)
    app: Any = client.app
    app.state.study_slots = StudySlots(slots=0, queue=4)  # every turn taken
    r = client.post("/api/analysis/evaluate", json=body)
    assert r.status_code == 503 and "busy" in r.json()["detail"]
    assert int(r.headers["Retry-After"]) >= 1
    app.state.study_slots = StudySlots(slots=1, queue=4)
    monkeypatch.setattr(analysis, "EVALUATE_LIMIT_S", 0.01)
    monkeypatch.setattr(analysis, "evaluate", slow_evaluate)
    r = client.post("/api/analysis/evaluate", json=body)
    assert r.status_code == 503 and "took too long" in r.json()["detail"]
    assert r.headers["Retry-After"]
    monkeypatch.setattr(analysis, "EVALUATE_LIMIT_S", 20.0)
    monkeypatch.setattr(analysis, "evaluate", evaluate)
    assert client.post("/api/analysis/evaluate", json=body).status_code == 200  # turn given back


def slow_evaluate(*args: Any) -> dict[str, Any]:
    import time

    time.sleep(0.3)
    return evaluate(*args)


# -- the study budget: per address, per player, and a bounded line ---------------------------
def budgeted(tmp_path: Path, **overrides: Any) -> TestClient:
    """An app whose test client plays a trusted proxy: each request names its address."""
    settings = make_settings(tmp_path, trusted_proxies="*", **overrides)
    return TestClient(create_app(settings))


START = {"game_id": "stack-a-cash"}


def test_evaluations_are_limited_per_address_cookie_less_clients_included(
    tmp_path: Path,
) -> None:
    with budgeted(tmp_path, address_analysis_per_minute=3) as client:
        codes = []
        for _ in range(5):
            client.cookies.clear()
            r = client.post("/api/analysis/evaluate", json=START, headers=at("10.1.1.1"))
            codes.append(r.status_code)
        assert codes == [200, 200, 200, 429, 429]
        assert int(r.headers["Retry-After"]) >= 1 and "your address" in r.json()["detail"]
        other = client.post("/api/analysis/evaluate", json=START, headers=at("10.2.2.2"))
        assert other.status_code == 200
        # A game analysis draws on the same budget.
        gid = finished_game(client)
        r = client.post(f"/api/games/{gid}/analysis", headers=at("10.1.1.1"))
        assert r.status_code == 429


def test_evaluations_are_limited_per_player_whatever_the_address(tmp_path: Path) -> None:
    with budgeted(tmp_path, analysis_per_minute=2) as client:
        client.get("/api/me")  # a player with a cookie
        codes = [
            client.post("/api/analysis/evaluate", json=START, headers=at(f"10.3.0.{i}")).status_code
            for i in range(4)
        ]
        assert codes == [200, 200, 429, 429]


def test_a_full_line_of_game_analyses_is_refused_with_retry_after(tmp_path: Path) -> None:
    with budgeted(tmp_path, analysis_queue=1) as client:
        first, second = finished_game(client), finished_game(client)
        assert client.get(f"/api/games/{first}/analysis").json()["status"] == "none"
        # One analysis already waits its turn: the line (of one) is full.
        client.app.state.game_analyses.jobs[("waiting", 1)] = Job()  # type: ignore[attr-defined]
        r = client.post(f"/api/games/{second}/analysis")
        assert r.status_code == 503 and int(r.headers["Retry-After"]) >= 1, r.text
        assert client.get(f"/api/games/{second}/analysis").json()["status"] == "none"
        del client.app.state.game_analyses.jobs[("waiting", 1)]  # type: ignore[attr-defined]
        assert client.post(f"/api/games/{second}/analysis").status_code == 200


def test_the_study_slots_keep_a_bounded_line() -> None:
    """One slot, a line of two: the fourth asker is refused at once, never queued; an asker
    that waits too long is refused too, and nothing is left counted."""

    async def scenario() -> None:
        slots = StudySlots(slots=1, queue=2)
        release = asyncio.Event()
        refusals: list[int] = []

        async def evaluation(wait_s: float) -> None:
            try:
                async with slots.evaluation(wait_s, seconds_each=1.0):
                    await release.wait()
            except Busy as e:
                refusals.append(e.retry_after)

        tasks = [asyncio.create_task(evaluation(5.0)) for _ in range(3)]
        await asyncio.sleep(0.01)
        assert slots.waiting == 2
        await evaluation(5.0)  # the line is full: refused without waiting
        assert refusals == [3]
        release.set()
        await asyncio.gather(*tasks)
        assert slots.waiting == 0 and refusals == [3]
        release.clear()
        holder = asyncio.create_task(evaluation(5.0))
        await asyncio.sleep(0.01)
        await evaluation(0.05)  # waited its time: refused
        assert refusals == [3, 2] and slots.waiting == 0
        release.set()
        await holder

    asyncio.run(scenario())


def test_a_full_line_costs_no_budget(tmp_path: Path) -> None:
    with budgeted(tmp_path, address_analysis_per_minute=1) as client:
        app: Any = client.app
        app.state.study_slots = StudySlots(slots=0, queue=0)  # every slot taken, no line
        for _ in range(3):
            r = client.post("/api/analysis/evaluate", json=START, headers=at("10.4.4.4"))
            assert r.status_code == 503 and r.headers["Retry-After"], r.text
        app.state.study_slots = StudySlots(slots=1, queue=0)
        r = client.post("/api/analysis/evaluate", json=START, headers=at("10.4.4.4"))
        assert r.status_code == 200, r.text
        r = client.post("/api/analysis/evaluate", json=START, headers=at("10.4.4.4"))
        assert r.status_code == 429


def test_the_analysis_is_called_rough_where_it_measured_short() -> None:
    """docs/study.md (40 games a row, 2026-12-06): in Wallet Battles and FlipWars' Standard,
    Enclosed Battle and Tactical War the random side gets more ? and ?? than the hard bot in
    fewer than 95% of the games; in Capture the Flag in all 40, but at 8 empty cells the best
    move lost a won round in 1 of 10 positions; Coin Age met its goal (38 of 40, 95%), and
    Stack-a-Cash is judged by its solution."""
    assert not rough("coin-age", {"map": "classic"})
    assert rough("wallet-battles", {})
    for mode in ("standard", "enclosed", "tactical", "flag"):
        assert rough("flipwars", {"mode": mode, "series": mode == "tactical"})
    assert not rough("stack-a-cash", {})
