"""Analyses of finished games: computed in the bot workers on request, stored once per game and
depth (kept across a restart), marks and better moves that agree with the exact solution."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.server import analyses
from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app
from pocketarena.solve.stack_a_cash import solve

from .conftest import create

# Heads wins on the fifth ply. By the solution, Heads' "place L a1" throws away the opening's
# win (a draw) and Tails' "place S b1" the draw (a loss): two blunders.
QUICK_WIN = ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]


def play(client: TestClient, game: str, options: dict[str, Any], moves: list[str]) -> str:
    gid: str = create(client, game=game, options=options, mode="local")["id"]
    for version, move in enumerate(moves):
        r = client.post(f"/api/games/{gid}/moves", json={"action": move, "version": version})
        assert r.status_code == 200, r.text
    return gid


def wait_done(client: TestClient, gid: str, depth: int = 1, timeout: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = client.get(f"/api/games/{gid}/analysis?depth={depth}").json()
        assert status["status"] != "failed", status
        if status["status"] == "done":
            return dict(status["analysis"])
        time.sleep(0.05)
    raise AssertionError(f"the analysis of {gid} did not finish: {status}")


def test_stack_a_cash_analysis_is_exact_and_stored(db_settings: Settings) -> None:
    with TestClient(create_app(db_settings)) as client:
        check_exact_and_stored(client, db_settings)


def check_exact_and_stored(client: TestClient, settings: Settings) -> None:
    gid = play(client, "stack-a-cash", {}, QUICK_WIN)
    assert client.get(f"/api/games/{gid}/analysis").json() == {"status": "none"}
    started = client.post(f"/api/games/{gid}/analysis").json()
    assert started["status"] in ("queued", "running", "done")
    analysis = wait_done(client, gid)
    assert analysis["exact"] and analysis["analyst"] == "perfect" and analysis["note"] is None
    decisions = analysis["decisions"]
    assert [d["move"] for d in decisions] == QUICK_WIN
    # Against the solution: a mark exactly where the move lowered the exact value.
    solution = solve()
    state = pa.load("stack-a-cash").new_initial_state()
    for d in decisions:
        mover = state.current_player
        before = solution.value(state)
        child = state.child(d["move"])
        after = solution.value(child, seat=mover)
        # The first seat's expected score, whoever moves.
        heads = (lambda v: (v + 1) / 2) if mover == 0 else (lambda v: (1 - v) / 2)
        assert (d["value_before"], d["value_after"]) == (heads(before), heads(after))
        assert d["value_before"] == d["best_value"] and d["exact"]
        assert (d["mark"] == "??") == (after < before), d
        if d["mark"]:
            assert d["best"] in {a.text for a in solution.best_actions(state)}
        state = child
    assert [d["mark"] for d in decisions] == ["??", "??", "", "", ""]
    assert decisions[1]["seat_name"] == "Tails" and decisions[1]["best"] == "place L b2"
    assert [s["blunders"] for s in analysis["summary"]] == [1, 1]
    assert analysis["thresholds"] == {"?!": 0.06, "?": 0.10, "??": 0.15}
    assert analysis["rough"] is False
    points = analysis["graph"]
    assert len(points) == len(decisions) + 1 and points[-1]["expected"] == 1.0
    # Asked again, it is the stored one; after a restart too.
    assert client.post(f"/api/games/{gid}/analysis").json()["analysis"] == analysis
    with TestClient(create_app(settings)) as again:
        assert again.get(f"/api/games/{gid}/analysis").json()["analysis"] == analysis


def test_chance_game_analysis_says_it_judges_by_expectation(client: TestClient) -> None:
    options = {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}
    gid: str = create(client, game="wallet-battles", options=options, mode="local")["id"]
    rng = random.Random(4)
    for _ in range(3):
        view = client.get(f"/api/games/{gid}?svg=false").json()
        move = rng.choice(view["legal"])["text"]
        r = client.post(
            f"/api/games/{gid}/moves", json={"action": move, "version": view["version"]}
        )
        assert r.status_code == 200, r.text
    assert client.post(f"/api/games/{gid}/resign").status_code == 200
    client.post(f"/api/games/{gid}/analysis?depth=1")
    analysis = wait_done(client, gid)
    assert analysis["chance"] and "expectation over the throws" in analysis["note"]
    assert not analysis["exact"] and analysis["analyst"] == "hard:0.3s"
    # Measured short of the goals in Wallet Battles (docs/study.md): the page says it is rough.
    assert analysis["rough"] is True
    assert len(analysis["decisions"]) == 3
    assert all(0 <= p["expected"] <= 1 for p in analysis["graph"])
    # Ended by a resignation, not by the rules: the graph ends at the recorded result.
    view = client.get(f"/api/games/{gid}?svg=false").json()
    assert analysis["graph"][-1]["expected"] == (0.0 if view["result"] == "0-1" else 1.0)


def test_a_stored_analysis_says_rough_as_the_measurements_do_now(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether a game's analysis is rough follows docs/study.md's latest measurements, not the
    day the analysis was stored (Coin Age's stopped being rough; its judgements did not change)."""
    gid = play(client, "stack-a-cash", {}, QUICK_WIN)
    client.post(f"/api/games/{gid}/analysis?depth=1")
    assert wait_done(client, gid)["rough"] is False
    monkeypatch.setattr(analyses, "ROUGH", frozenset({"stack-a-cash"}))
    stored = client.get(f"/api/games/{gid}/analysis?depth=1").json()
    assert stored["status"] == "done" and stored["analysis"]["rough"] is True


def test_only_finished_games_and_known_depths(client: TestClient) -> None:
    gid = play(client, "stack-a-cash", {}, QUICK_WIN[:2])
    r = client.post(f"/api/games/{gid}/analysis")
    assert r.status_code == 409 and "once it is finished" in r.json()["detail"]
    done = play(client, "stack-a-cash", {}, QUICK_WIN)
    assert client.get(f"/api/games/{done}/analysis?depth=3").status_code == 422
    assert client.get("/api/games/nope/analysis").status_code == 404


def test_why_an_analysis_failed_is_said_in_the_readers_language() -> None:
    """A failed analysis says why on the replay page (``error``): worded when its status is
    asked for, in the asker's language, not kept as an English sentence."""
    from pocketarena import i18n

    late = analyses.Job(status="failed")
    late.fail(analyses.TOO_LONG)
    broken = analyses.Job(status="failed")
    broken.fail(analyses.FAILED, kind="RuntimeError")
    assert late.to_json()["error"] == "a move took the analyst too long; try again"
    with i18n.use_locale("fr"):
        said = [late.to_json()["error"], broken.to_json()["error"]]
    for text in said:
        assert text and "took" not in text and "try again" not in text, text
    assert "RuntimeError" in said[1]
