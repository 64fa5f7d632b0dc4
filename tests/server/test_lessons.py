"""Lessons: every step's position is played by the engine from its moves, has a move that
does what the step asks and one that does not; the API judges moves (right, wrong, refused in
the engine's words); the pages exist for each game and are linked from home and rules."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena import i18n, lessons
from pocketarena.lessons import LESSONS, LessonError, accepted, check, position
from pocketarena.messages import render, speak

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
        assert not result.correct and result.message.params["hint"] == step.hint


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
    assert not fw.correct and "the best move leaves +2" in str(fw.message)


def test_the_api_judges_moves_and_refuses_bad_ones(client: TestClient) -> None:
    lesson = client.get("/api/lessons/wallet-battles").json()
    assert [s["title"] for s in lesson["steps"]] == [
        str(s.title) for s in LESSONS["wallet-battles"]
    ]
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


@pytest.mark.parametrize(
    ("code", "title", "status", "wrong", "refused"),
    [
        ("ja", "保護", "表の手番", "求められている手ではありません", "守られています"),
        ("ar", "الحماية", "دور الصورة", "ليست ما تطلبه هذه الخطوة", "محمية"),
    ],
)
def test_a_lesson_speaks_the_readers_language(
    client: TestClient, code: str, title: str, status: str, wrong: str, refused: str
) -> None:
    """The step's words, whose turn, and the feedback (a wrong move's hint, a 'most' step's
    margins, the praise, the engine's refusal) in the reader's language, not English."""
    words = i18n.translations(code, "engine")
    client.cookies.set("lang", code)
    step = LESSONS["stack-a-cash"][1]
    lesson = client.get("/api/lessons/stack-a-cash").json()
    shown = lesson["steps"][1]
    assert (shown["title"], shown["status"]) == (title, status)
    assert shown["text"] == render(step.text, words) != str(step.text)
    r = client.post("/api/lessons/stack-a-cash/1", json={"move": "place S a2"}).json()
    assert not r["correct"] and wrong in r["message"] and render(step.hint, words) in r["message"]
    r = client.post("/api/lessons/stack-a-cash/1", json={"move": "place S c1"}).json()
    assert r["correct"] and r["message"] == render(step.done, words)
    r = client.post("/api/lessons/stack-a-cash/1", json={"move": "flip c1"})
    assert r.status_code == 400 and refused in r.json()["detail"]
    assert "protected" not in r.json()["detail"]
    most = client.post("/api/lessons/flipwars/0", json={"move": "place tank a1 r0"}).json()
    assert "+2" in most["message"] and "best move" not in most["message"]
    client.cookies.delete("lang")


def test_nothing_a_lesson_says_is_outside_the_catalog(client: TestClient) -> None:
    """In the pseudo-locale every word of every step, status and verdict is wrapped ⟦…⟧."""
    client.cookies.set("lang", "qps")
    said: list[str] = []
    for game_id, steps in LESSONS.items():
        lesson = client.get(f"/api/lessons/{game_id}").json()
        said += [s[k] for s in lesson["steps"] for k in ("title", "text", "status")]
        for n in range(len(steps)):
            right, wrong = right_and_wrong(game_id, n)
            for move in (right, wrong) if wrong else (right,):
                r = client.post(f"/api/lessons/{game_id}/{n}", json={"move": move}).json()
                said += [r["message"], r["status"]]
    r = client.post("/api/lessons/coin-age/0", json={"move": "fly"})
    said.append(r.json()["detail"])
    client.cookies.delete("lang")
    bare = [text for text in said if unwrapped(text).strip(" .")]
    assert not bare, bare


def unwrapped(text: str) -> str:
    """What is left of ``text`` outside the pseudo-locale's ⟦…⟧, innermost first."""
    before = None
    while text != before:
        before, text = text, re.sub(r"⟦[^⟦⟧]*⟧", "", text)
    return text


def right_and_wrong(game_id: str, n: int) -> tuple[str, str | None]:
    step = LESSONS[game_id][n]
    state = position(game_id, step)
    moves = [a.text for a in state.legal_actions()]
    right = [m for m in moves if accepted(state, step, state.child(m))]
    return right[0], next((m for m in moves if m not in right), None)


def test_a_games_own_english_sentence_is_not_what_the_player_reads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move the game refuses with a bare ValueError of its own (not the engine's
    ActionError: a game breaking the contract) reaches the player as the engine's catalog
    refusal in their language, not as the game's English sentence; the sentence stays the
    refusal's cause for whoever debugs."""

    class Stubborn:
        def child(self, move: str) -> pa.State:
            raise ValueError("the goblin will not stand there")

    monkeypatch.setattr(lessons, "position", lambda game_id, step: Stubborn())
    with pytest.raises(LessonError) as refused:
        check(LESSONS["stack-a-cash"][0], " place L b2 ", "stack-a-cash")
    assert refused.value.said.id == "core.not-legal"
    assert isinstance(refused.value.__cause__, ValueError)
    with i18n.use_locale("ja"):
        said = speak(refused.value.said)
    assert "goblin" not in said and "place L b2" in said and "legal" not in said, said
