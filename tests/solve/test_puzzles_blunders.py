"""Puzzles from real games' blunders: a move that threw away the only winning line, found and
checked by the exact solvers, becomes a puzzle; games without one give none; bad files get a
message and nothing is written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena import puzzles
from pocketarena.core import RecordError
from pocketarena.explore import explore
from pocketarena.puzzles import Puzzle, PuzzleError, blunders, check, from_games, position
from pocketarena.records import Record

# Stack-a-Cash (protect touched): at ply 3 "place S a1" is the only win (in 13 plies);
# "place L c1" throws it away and the game ends drawn by repetition.
SAC_BLUNDER = ["place M a1", "place L b1", "place L c1", *["flip a1", "flip b1", "flip c1"] * 4]
# The solver's own line from the opening: First wins in 15 plies and nobody errs.
SAC_PERFECT = [
    "place M a1",
    "place L b1",
    "place S a1",
    "place M c1",
    "move b1 a2 flip",
    "move a1 a3 flip",
    "flip c1",
    "flip a1",
    "move a3 c1 flip",
    "place S a1",
    "place L b1",
    "flip c1",
    "flip a1",
    "flip b1",
    "move c1 b1 flip",
]
# A FlipWars (standard) game played at random: three placements near the end lose a round the
# mover could win, each with a single best placement.
FW_GAME = [
    *["place foxhole e4 r270", "place foxhole b2 r180", "place paratrooper e1 r180"],
    *["place grenade e5 r0", "place sniper b5 r270", "place paratrooper b3 r270"],
    *["place foxhole d1 r270", "place foxhole b1 r0", "place grenade d2 r0"],
    *["place grenade a5 r270", "place twin c1 r0", "place sniper c2 r0", "place tank a1 r0"],
    *["place tank a2 r90", "place rocket d3 r0", "place paratrooper a4 r0"],
    *["place paratrooper c3 r90", "place sniper e3 r0", "place twin b4 r0", "place tank c4 r0"],
    *["place tank a3 r0", "place trex c5 r0", "place sniper d5 r270", "place trex d4 r0"],
    "place trex e2 r0",
]


def record(game_id: str, moves: list[str], **options: object) -> Record:
    state = pa.load(game_id, **options).new_initial_state()
    for m in moves:
        state.apply(m)
    assert state.is_terminal()
    return Record.from_state(state, headers={"GameId": "g42"})


def assert_only_winning_answer(p: Puzzle) -> None:
    """The solver, asked again, finds exactly one move at the answer's value, and it wins."""
    values = explore(position(p))
    best = [m for m in values if m.value == p.value and m.margin == p.margin]
    assert [m.move for m in best] == [p.answer]
    assert p.value == 1 and best[0].plies == p.plies


def test_a_thrown_away_win_in_stack_a_cash_becomes_a_puzzle() -> None:
    (p,) = blunders(record("stack-a-cash", SAC_BLUNDER, protect="touched"))
    assert p.moves == SAC_BLUNDER[:2] and p.answer == "place S a1" and p.plies == 13
    assert p.source == {"game": "g42", "ply": 3, "played": "place L c1", "result": "draw"}
    assert "blunder" in p.tags and p.id.startswith("sac-blunder-")
    assert_only_winning_answer(p)
    assert [m.move for m in explore(position(p)) if m.value == 1] == ["place S a1"]
    assert check(p, "place S a1").correct
    wrong = check(p, "place L c1")
    assert not wrong.correct and "place S a1" in str(wrong.message)


def test_flipwars_blunders_within_the_endgame_solvers_reach() -> None:
    found = blunders(record("flipwars", FW_GAME, mode="standard"), "my-game.json")
    assert [(p.source["ply"], p.source["played"]) for p in found if p.source] == [
        (21, "place tank a3 r0"),
        (22, "place trex c5 r0"),
        (24, "place trex d4 r0"),
    ]
    for p in found:
        assert p.source is not None and p.source["game"] == "my-game.json"
        assert p.moves == FW_GAME[: p.source["ply"] - 1]
        assert p.margin is not None and p.margin > 0
        assert_only_winning_answer(p)
        assert check(p, p.answer).correct and not check(p, p.source["played"]).correct


def test_games_without_a_blunder_give_no_puzzle() -> None:
    assert blunders(record("stack-a-cash", SAC_PERFECT, protect="touched")) == []
    # The same position twice (two copies of one game) is one puzzle.
    r = record("stack-a-cash", SAC_BLUNDER, protect="touched")
    assert len(from_games([("a", r), ("b", r)])) == 1


def test_blunder_puzzles_round_trip_through_json_and_the_shipped_set_is_unchanged() -> None:
    (p,) = blunders(record("stack-a-cash", SAC_BLUNDER, protect="touched"))
    assert Puzzle(**json.loads(json.dumps(p.to_json()))) == p
    assert all("source" not in q.to_json() for q in puzzles.load()[:5])


def test_games_without_a_solver_and_bad_records_are_refused_in_words() -> None:
    state = pa.load("coin-age").new_initial_state()
    with pytest.raises(PuzzleError, match="Coin Age has no exact solver"):
        blunders(Record.from_state(state))
    bad = record("stack-a-cash", SAC_BLUNDER, protect="touched")
    bad.moves[4] = "flip c3"
    with pytest.raises(RecordError, match=r"^x: move 5 \('flip c3'\) is illegal"):
        from_games([("x", bad)])


def test_cli_writes_the_puzzles_of_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = record("stack-a-cash", SAC_BLUNDER, protect="touched").save(tmp_path / "a.json")
    b = record("stack-a-cash", SAC_PERFECT, protect="touched").save(tmp_path / "b.txt")
    out = tmp_path / "out.json"
    assert puzzles.main(["--from-games", str(a), str(b), "--out", str(out)]) == 0
    assert "1 puzzles from the blunders of 2 games" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["count"] == 1 and data["puzzles"][0]["source"]["game"] == str(a)
    assert_only_winning_answer(Puzzle(**data["puzzles"][0]))


def test_cli_bad_files_get_a_message_and_nothing_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = record("stack-a-cash", SAC_BLUNDER, protect="touched").save(tmp_path / "a.json")
    junk = tmp_path / "junk.json"
    junk.write_text("{not json")
    coin = Record.from_state(pa.load("coin-age").new_initial_state()).save(tmp_path / "c.json")
    out = tmp_path / "out.json"
    cases = [
        (tmp_path / "missing.json", "no such record file"),
        (junk, "junk.json"),
        (tmp_path, "is a folder"),
        (coin, "Coin Age has no exact solver"),
    ]
    for path, words in cases:
        assert puzzles.main(["--from-games", str(good), str(path), "--out", str(out)]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: ") and words in err and "Traceback" not in err
        assert not out.exists()
    assert puzzles.main(["--from-games", str(good), "--out", str(tmp_path / "no/dir.json")]) == 2
    assert "cannot write" in capsys.readouterr().err
