"""Golden playthroughs: every registered variant still plays its seeded game exactly as the
file in tests/data/playthroughs/ says, ply by ply (action, legal-action count, position()).
After an intended change, rewrite them with ``python -m tests.playthroughs --write`` and read
the diff."""

from __future__ import annotations

import copy

import pytest

from tests import playthroughs
from tests.playthroughs import DATA, check, compare, decode, encode, file_name, play, variants

NAMES = [file_name(g, o) for g, o in variants()]


@pytest.mark.parametrize("name", NAMES)
def test_the_variant_plays_its_playthrough(name: str) -> None:
    problem = check(name)
    assert problem is None, problem


def test_every_file_is_a_registered_variant_and_every_variant_has_one() -> None:
    assert sorted(p.name for p in DATA.glob("*.jsonl")) == sorted(NAMES)
    assert len(NAMES) == len(set(NAMES)) == 15  # 4 Coin Age maps, 5 FlipWars, 2 + 4 others


def test_a_file_reads_back_as_the_game_it_was_written_from() -> None:
    records = play("flipwars", {"mode": "tactical"})
    assert decode(encode(records)) == records
    assert records[-1]["winner"] in (0, 1, None) and "action" not in records[-1]


def test_a_renamed_position_key_is_named_with_the_first_ply_it_breaks() -> None:
    records = play("stack-a-cash", {"protect": "touched"})
    renamed = copy.deepcopy(records)
    for record in renamed[4:]:
        record["position"]["side_to_move"] = record["position"].pop("to_move")
    problem = compare(records, renamed, "x.jsonl")
    assert problem is not None
    assert problem.startswith(f"x.jsonl: ply 3 (after {records[3]['action']!r}) differs")
    assert ".to_move: gone now" in problem and ".side_to_move: new, not in the file" in problem


def test_a_changed_count_and_a_shorter_game_are_said() -> None:
    records = play("coin-age", {"map": "classic"})
    changed = copy.deepcopy(records)
    changed[6]["legal"] += 1
    problem = compare(records, changed, "y.jsonl")
    assert problem is not None and "ply 5" in problem and ".legal: expected" in problem
    shorter = compare(records, records[:-1], "y.jsonl")
    assert shorter is not None and "plies now" in shorter


def test_the_script_reports_no_difference_on_the_files_as_kept() -> None:
    assert playthroughs.main([]) == 0
