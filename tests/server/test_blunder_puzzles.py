"""Finished games' blunders feed the puzzles: a Stack-a-Cash game that throws away its only
win gives a stored puzzle (found off the event loop), which the puzzles API hands out and
judges by the solver; a game without a blunder gives none."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

import pocketarena as pa
from pocketarena import puzzles
from pocketarena.ratings import DISPLAY_SCALE
from pocketarena.records import Record
from pocketarena.server import blunder_puzzles
from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app
from pocketarena.server.models import BlunderPuzzleRow, PuzzleRatingRow
from pocketarena.server.puzzle_ratings import choose

from ..solve.test_puzzles_blunders import SAC_BLUNDER, SAC_PERFECT
from .conftest import create


def play(client: TestClient, moves: list[str]) -> str:
    gid: str = create(client, game="stack-a-cash", options={}, mode="local")["id"]
    for version, move in enumerate(moves):
        r = client.post(f"/api/games/{gid}/moves", json={"action": move, "version": version})
        assert r.status_code == 200, r.text
    assert client.get(f"/api/games/{gid}").json()["status"] == "finished"
    return gid


def expected(moves: list[str]) -> puzzles.Puzzle:
    state = pa.load("stack-a-cash").new_initial_state()
    for m in moves:
        state.apply(m)
    (p,) = puzzles.blunders(Record.from_state(state))
    return p


def wait_for(client: TestClient, url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while True:
        r = client.get(url)
        if r.status_code == 200 or time.monotonic() > deadline:
            assert r.status_code == 200, r.text
            data: dict[str, Any] = r.json()
            return data
        time.sleep(0.1)


def test_a_finished_games_blunder_becomes_a_puzzle(db_settings: Settings) -> None:
    want = expected(SAC_BLUNDER)
    with TestClient(create_app(db_settings)) as client:
        gid = play(client, SAC_BLUNDER)
        view = wait_for(client, f"/api/puzzles/{want.id}")
        assert view["source"] == {
            "game": f"game {gid}",
            "ply": 3,
            "played": "place L c1",
            "result": "draw",
            "replay": f"/g/{gid}/replay",
        }
        assert view["moves"] == SAC_BLUNDER[:2] and "answer" not in view
        store = client.app.state.ctx.store  # type: ignore[attr-defined]
        # The page's pool holds it; choosing among the nearest can hand it out.
        assert [p.id for p in blunder_puzzles.pool(store, "stack-a-cash")] == [want.id]
        assert blunder_puzzles.pool(store, "flipwars") == []
        # A player rated like the puzzle is handed it among the nearest (400 draws of 24).
        assert client.get("/api/puzzles/next").status_code == 200  # the player's row
        pid = client.get("/api/me").json()["id"]
        with store.sessions.begin() as s:
            s.get(PuzzleRatingRow, pid).mu = want.rating / DISPLAY_SCALE
        rng = random.Random(0)
        handed = {choose(store, pid, "stack-a-cash", None, rng)[0].id for _ in range(400)}
        assert want.id in handed
        # A second game through the same position adds nothing.
        assert blunder_puzzles.collect(store, gid, "stack-a-cash", {}, SAC_BLUNDER) == 0
        wrong = client.post(f"/api/puzzles/{want.id}/answer", json={"move": "place L c1"})
        assert wrong.status_code == 200 and not wrong.json()["correct"]
        right = client.post(f"/api/puzzles/{want.id}/answer", json={"move": want.answer})
        assert right.status_code == 200 and right.json()["correct"]


def test_a_game_without_a_blunder_gives_no_puzzle(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        perfect = play(client, SAC_PERFECT)
        store = client.app.state.ctx.store  # type: ignore[attr-defined]
        gid = play(client, SAC_BLUNDER)
        wait_for(client, f"/api/puzzles/{expected(SAC_BLUNDER).id}")
        assert blunder_puzzles.collect(store, perfect, "stack-a-cash", {}, SAC_PERFECT) == 0
        assert [p.source["game"] for p in blunder_puzzles.pool(store, None) if p.source] == [
            f"game {gid}"
        ]


def test_found_puzzles_are_stored_once_each_in_one_go_or_one_by_one(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``store_found`` stores a game's puzzles in one transaction, each position once (twice
    in one list or already stored: once); when another node stores one of them meanwhile
    (the transaction's INSERT fails on its key), the others are stored one at a time."""
    want = expected(SAC_BLUNDER)
    with TestClient(create_app(settings)) as client:
        gid = play(client, SAC_BLUNDER)
        wait_for(client, f"/api/puzzles/{want.id}")
        store = client.app.state.ctx.store  # type: ignore[attr-defined]
        found = blunder_puzzles.find_in_game(gid, "stack-a-cash", {}, SAC_BLUNDER)
        assert [p["id"] for p in found] == [want.id]
        assert blunder_puzzles.store_found(store, gid, found + found) == 0  # stored already

        def forget() -> None:
            with store.engine.begin() as conn:
                conn.execute(delete(BlunderPuzzleRow))

        forget()
        assert blunder_puzzles.store_found(store, gid, found + found) == 1
        assert [p.id for p in blunder_puzzles.pool(store, None)] == [want.id]
        forget()
        real = blunder_puzzles._insert_new
        calls: list[int] = []

        def raced(conn: Any, rows: list[dict[str, Any]]) -> int:
            calls.append(len(rows))
            if len(calls) == 1:  # another node's row arrived between the SELECT and INSERT
                raise IntegrityError("INSERT", {}, Exception("UNIQUE constraint failed"))
            return real(conn, rows)

        monkeypatch.setattr(blunder_puzzles, "_insert_new", raced)
        assert blunder_puzzles.store_found(store, gid, found) == 1
        assert calls == [1, 1]
        assert blunder_puzzles.store_found(store, gid, []) == 0
