"""``arena --kind swiss`` and ``--kind round-robin``: bot tournaments in rounds, paired and
ranked by ``pocketarena.tournaments``, and their clean errors."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from pocketarena.records import load
from pocketarena.tournaments import Played, standings
from tests.cli.helpers import assert_clean_error, run

BOTS = "random,greedy,easy,mcts:30,mcts:20"  # seeded, untimed: the same games each run


def summary(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "summary.json").read_text())
    return data


def played(data: dict[str, Any]) -> list[Played]:
    return [
        Played(b["first"], b["second"], 1.0 if b["second"] is None else b["score"])
        for r in data["rounds"]
        for b in r["boards"]
    ]


def test_a_swiss_of_bots_runs_its_rounds_and_ranks_by_points_and_tie_breaks(
    tmp_path: Path,
) -> None:
    out = tmp_path / "swiss"
    args = ["--kind", "swiss", "--rounds", "3", "--bots", BOTS, "--jobs", "1", "--seed", "3"]
    result = run("arena", "stack-a-cash", *args, "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "Buchholz" in result.output and "swiss, 3 rounds" in result.output
    data = summary(out)
    assert data["kind"] == "swiss" and len(data["rounds"]) == 3 and data["games"] == 6
    games = played(data)
    met = [frozenset((g.first, g.second)) for g in games if g.second is not None]
    assert len(met) == len(set(met))
    byes = [g.first for g in games if g.second is None]
    assert len(byes) == 3 and len(set(byes)) == 3
    # The table is the one the games make, and each record's result is its board's.
    expected = standings(data["bots"], games)
    assert [(r["bot"], r["points"], r["buchholz"]) for r in data["standings"]] == [
        (s.player, s.points, s.buchholz) for s in expected
    ]
    for name in data["records"]:
        record = load(out / name)
        rnd, board = name.removeprefix("records/round").removesuffix(".txt").split("-board")
        entry = data["rounds"][int(rnd) - 1]["boards"][int(board) - 1]
        assert [p.name for p in record.players] == [entry["first"], entry["second"]]
    # Same seed, same tournament.
    again = run("arena", "stack-a-cash", *args, "--out", str(tmp_path / "again"))
    assert again.exit_code == 0
    assert summary(tmp_path / "again")["rounds"] == data["rounds"]


def test_a_round_robin_meets_every_pair_once(tmp_path: Path) -> None:
    out = tmp_path / "rr"
    result = run(
        "arena", "stack-a-cash", "--kind", "round-robin", "--bots", BOTS, "--jobs", "1",
        "--out", str(out),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = summary(out)
    assert len(data["rounds"]) == 5 and data["games"] == 10
    met = {frozenset((g.first, g.second)) for g in played(data) if g.second is not None}
    assert met == {frozenset(p) for p in itertools.combinations(BOTS.split(","), 2)}


@pytest.mark.parametrize(
    "args, fragments",
    [
        (["--kind", "knockout"], ["unknown --kind 'knockout'; kinds: all-pairs, swiss"]),
        (["--kind", "swiss"], ["a Swiss needs --rounds, e.g. --rounds 5"]),
        (["--kind", "swiss", "--rounds", "0"], ["a Swiss needs --rounds of at least 1, got 0"]),
        (["--kind", "swiss", "--rounds", "2", "--games", "4"], ["drop --games"]),
        (["--kind", "round-robin", "--rounds", "2"], ["drop --rounds"]),
        (["--rounds", "2"], ["--rounds is for --kind swiss"]),
    ],
)
def test_bad_settings_are_one_clean_line(
    args: list[str], fragments: list[str], tmp_path: Path
) -> None:
    result = run(
        "arena", "stack-a-cash", "--bots", "random,greedy", *args, "--out", str(tmp_path / "x")
    )
    assert_clean_error(result, 2, *fragments)
    assert not (tmp_path / "x").exists()
