"""Lessons: every step's position is played by the engine from its moves, has a move that
does what the step asks and one that does not; the API judges moves (right, wrong, refused in
the engine's words); the pages exist for each game and are linked from home and rules."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.lessons import LESSONS, LessonError, accepted, check, position

STEPS = [(g, n) for g, steps in LESSONS.items() for n in range(len(steps))]


def test_every_game_has_a_lesson() -> None:
    assert set(LESSONS) == set(pa.GAMES)
    assert all(len(steps) >= 4 for steps in LESSONS.values())


@pytest.mark.parametrize(("game_id", "n"), STEPS)
def test_each_step_has_a_right_and_a_wrong_move(game_id: str, n: int) -> None:
    step = LESSONS[game_id][n]
    state = position(game_id, step)
    assert state.current_player >= 0, "a step waits for a player's decision"
    moves = [a.text for a in state.legal_actions()]
    right = [m for m in moves if accepted(state, step, state.child(m))]
    assert right, "some move does what the step asks"
    result = check(step, right[0], game_id)
    assert result.correct and result.message == step.done
    wrong = [m for m in moves if m not in right]
    if wrong:  # the recall step has one legal move only
        result = check(step, wrong[0], game_id)
        assert not result.correct and step.hint in result.message


def test_goals_are_judged_by_the_engine() -> None:
    sac = LESSONS["stack-a-cash"]
    # Protection: the engine's own reason for a protected coin.
    with pytest.raises(LessonError, match="protected"):
        check(sac[1], "flip c1", "stack-a-cash")
    assert check(sac[1], "place S c1", "stack-a-cash").after.winner() == 0
    # Lines made for the opponent: a move showing a Heads line loses for Tails.
    state = position("stack-a-cash", sac[2])
    losing = [a for a in state.legal_actions() if state.child(a).winner() == 0]
    assert losing and not check(sac[2], losing[0].text, "stack-a-cash").correct
    # Repetition: the move drawn by the third occurrence.
    after = check(sac[3], "flip b3", "stack-a-cash").after
    assert after.is_terminal() and after.winner() is None
    # Coin Age: a quarter never covers, in the engine's words.
    with pytest.raises(LessonError, match="a quarter goes only on an empty space"):
        check(LESSONS["coin-age"][1], "place Q treewood", "coin-age")
    # FlipWars "most": the wrong move says by how much.
    fw = check(LESSONS["flipwars"][0], "place tank a1 r0", "flipwars")
    assert not fw.correct and "the best move leaves +2" in fw.message


def test_the_api_judges_moves_and_refuses_bad_ones(client: TestClient) -> None:
    lesson = client.get("/api/lessons/wallet-battles").json()
    assert [s["title"] for s in lesson["steps"]] == [s.title for s in LESSONS["wallet-battles"]]
    assert lesson["steps"][1]["status"] == "Confederacy to move"
    assert lesson["steps"][1]["svg"].startswith("<svg")
    r = client.post("/api/lessons/wallet-battles/1", json={"move": "capture cemetery-hill"})
    assert r.status_code == 200 and r.json()["correct"]
    wrong = client.post("/api/lessons/wallet-battles/1", json={"move": "pass"}).json()
    assert not wrong["correct"] and "capture the coin on Cemetery Hill" in wrong["message"]
    bad = client.post("/api/lessons/wallet-battles/1", json={"move": "place Q moon"})
    assert bad.status_code == 400 and "cannot be played" in bad.json()["detail"]
    for url, body in (
        ("/api/lessons/chess/0", {"move": "e4"}),
        ("/api/lessons/coin-age/9", {"move": "end"}),
        ("/api/lessons/coin-age/-1", {"move": "end"}),
    ):
        assert client.post(url, json=body).status_code == 404
    assert client.post("/api/lessons/coin-age/0", json={}).status_code == 422
    assert client.post("/api/lessons/coin-age/0", json={"move": ""}).status_code == 400
    assert client.get("/api/lessons/chess").status_code == 404


def test_pages_and_links(client: TestClient) -> None:
    for game_id in LESSONS:
        page = client.get(f"/learn/{game_id}")
        assert page.status_code == 200 and "/static/learn.js" in page.text
        assert f'href="/learn/{game_id}"' in client.get("/").text
        assert f'href="/learn/{game_id}"' in client.get(f"/rules/{game_id}").text
    index = client.get("/learn")
    assert index.status_code == 200 and all(f"/learn/{g}" in index.text for g in LESSONS)
    missing = client.get("/learn/chess")
    assert missing.status_code == 404 and "no lesson" in missing.text
