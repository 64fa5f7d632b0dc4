"""``pocketarena replay``: scripted navigation and ``--check``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import pocketarena as pa
from pocketarena.bots.simple import RandomBot
from pocketarena.match import SeededChance, play_match
from pocketarena.records import load

from .helpers import assert_clean_error, run


@pytest.fixture
def record_file(tmp_path: Path, coin_race: pa.Game) -> Path:
    bots = [RandomBot(coin_race, seed=1), RandomBot(coin_race, seed=2)]
    return play_match(coin_race, bots, SeededChance(8)).save(tmp_path / "game.txt")


def test_stepping_through_a_record(record_file: Path) -> None:
    moves = load(record_file).moves
    total = len(moves)
    script = "\n".join(["", "n", "b", "j 3", "e", "n", "s", "b", "j 999", "what", "4", "q"]) + "\n"
    result = run("replay", str(record_file), input=script)
    out = result.output
    assert result.exit_code == 0, out
    assert "Traceback" not in out
    assert f"Start (0/{total})" in out
    assert f"Move 1/{total}: {moves[0]}" in out
    assert f"Move 2/{total}: {moves[1]}" in out
    assert f"Move 3/{total}: {moves[2]}" in out
    assert f"Move 4/{total}: {moves[3]}" in out
    assert f"Move {total}/{total}: {moves[-1]}" in out
    assert "End of the record: " in out
    assert "Already at the end." in out and "Already at the start." in out
    assert f"There is no move 999; the record goes to move {total}." in out
    assert "n or Enter: next · b: back" in out
    # The order the positions were shown in: start, 1, 2, 1, 3, end, start, 4.
    shown = re.findall(r"Start \(0/\d+\)|Move \d+/\d+", out)
    start = f"Start (0/{total})"
    expected = [
        start,
        *(f"Move {n}/{total}" for n in (1, 2, 1, 3, total)),
        start,
        f"Move 4/{total}",
    ]
    assert shown == expected


def test_end_of_input_quits(record_file: Path) -> None:
    result = run("replay", str(record_file), input="n\n")
    assert result.exit_code == 0 and "Move 1/" in result.output


def test_check_a_good_record(record_file: Path) -> None:
    record = load(record_file)
    result = run("replay", str(record_file), "--check")
    assert result.exit_code == 0, result.output
    a, b = record.scores or (0, 0)
    assert (
        result.output.strip()
        == f"ok: coin-race: {len(record.moves)} moves, result {record.result}, scores {a}-{b}"
    )


def test_check_a_tampered_record(record_file: Path, tmp_path: Path) -> None:
    text = record_file.read_text().splitlines()
    blank = text.index("")
    # Move 2 is the first decision; make it "add 3" after a tails throw, or tamper a throw.
    first_throw = text[blank + 1]
    text[blank + 2] = "add 3" if first_throw == "flip T" else "add 9"
    tampered = tmp_path / "tampered.txt"
    tampered.write_text("\n".join(text) + "\n")
    result = run("replay", str(tampered), "--check")
    reason = (
        "add 3 needs heads on this turn's flip" if first_throw == "flip T" else "'add 9' is not"
    )
    assert_clean_error(result, 1, "tampered.txt: move 2 (", "is illegal: ", reason)

    wrong_result = tmp_path / "wrong.json"
    data = load(record_file).to_json()
    data["result"] = "0-1" if data["result"] == "1-0" else "1-0"
    wrong_result.write_text(json.dumps(data))
    assert_clean_error(run("replay", str(wrong_result), "--check"), 1, "states the result")


def test_viewer_shows_where_a_bad_record_stops(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Game "coin-race"]\n\nflip T\nadd 3\n*\n')
    result = run("replay", str(path), input="e\nq\n")
    assert result.exit_code == 0
    assert "The record stops here: move 2 ('add 3') is illegal: add 3 needs heads" in result.output


@pytest.mark.parametrize("check", [[], ["--check"]])
def test_unreadable_files(tmp_path: Path, check: list[str]) -> None:
    assert_clean_error(run("replay", str(tmp_path / "nope.json"), *check), 2, "no such record file")
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("just some words\n")
    # A file that is no record is a usage error (2) with or without --check; 1 is kept for a
    # record whose moves or result do not hold up.
    assert_clean_error(run("replay", str(garbage), *check), 2, "not a Pocket Arena record")
    unknown = tmp_path / "go.txt"
    unknown.write_text('[Game "go"]\n\n*\n')
    assert_clean_error(run("replay", str(unknown), *check), 2, "unknown game 'go'")


def test_viewer_says_when_the_record_does_not_hold_up(record_file: Path, tmp_path: Path) -> None:
    """Every move is legal but the stated result is not what they give: the end says so,
    not "End of the record: 1-0" beside a score that says otherwise."""
    data = load(record_file).to_json()
    real = data["result"]
    data["result"] = "0-1" if real == "1-0" else "1-0"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data))
    out = run("replay", str(edited), input="e\nq\n").output
    said = f"record states the result {data['result']}, but its moves end the game {real}"
    assert f"Warning: {said}" in out
    assert f"End of the moves; the record does not hold up: {said}" in out
    assert "End of the record:" not in out


def test_counts_read_naturally(tmp_path: Path) -> None:
    path = tmp_path / "one.txt"
    path.write_text('[Game "stack-a-cash"]\n\nplace L b2\n*\n')
    out = run("replay", str(path), "--check").output
    assert out.strip() == "ok: stack-a-cash: 1 move, result *, scores 0-0"


def test_check_quiet_and_verbose(record_file: Path, tmp_path: Path) -> None:
    """``replay --check`` takes ``-q`` and ``-v`` as ``arena`` does: ``-q`` prints the verdict
    alone (the result or the error), ``-v`` a line for each move before it; both at once, or
    either without ``--check`` (the viewer is interactive), are refused in one line."""
    record = load(record_file)
    total = len(record.moves)
    normal = run("replay", str(record_file), "--check")
    quiet = run("replay", str(record_file), "--check", "-q")
    assert quiet.exit_code == 0, quiet.output
    assert quiet.output == normal.output and quiet.output.startswith("ok: ")
    verbose = run("replay", str(record_file), "--check", "--verbose")
    assert verbose.exit_code == 0, verbose.output
    lines = verbose.output.splitlines()
    assert lines[0].startswith(f"Move 1/{total}: {record.moves[0]}"), lines[0]
    assert len([line for line in lines if line.startswith("Move ")]) == total
    assert lines[-1] == normal.output.strip()
    text = record_file.read_text().splitlines()
    blank = text.index("")
    text[blank + 2] = "add 9"  # move 2, the first decision, cannot be played
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(text) + "\n")
    assert_clean_error(run("replay", str(bad), "--check", "-q"), 1, "bad.txt: move 2 (")
    said = run("replay", str(bad), "--check", "-v")
    assert said.exit_code == 1, said.output
    assert said.output.splitlines()[0].startswith(f"Move 1/{total}: {record.moves[0]}")
    assert "error: " in said.output.splitlines()[-1]
    both = run("replay", str(record_file), "--check", "-q", "-v")
    assert_clean_error(both, 2, "--quiet and --verbose")
    for flag in ("-q", "-v"):
        alone = run("replay", str(record_file), flag, input="q\n")
        assert_clean_error(alone, 2, "--quiet and --verbose go with --check")
