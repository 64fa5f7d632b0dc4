"""Perft counts per game and option set, kept in tests/data/perft/<game>.json.

Each file holds ``{"variants": [{"options": {...}, "counts": [d1, d2, ...]}]}``; ``counts[i]`` is
the number of distinct action sequences (chance outcomes included) of length i + 1 from the
initial state, or from the position after the moves of an entry's ``from`` list (for rules that
only matter mid-game). A mismatch prints the per-first-action breakdown (``divide``) of the
failing depth.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import pocketarena as pa
from pocketarena.core import divide, perft

DATA = Path(__file__).parent.parent / "data" / "perft"


def _cases() -> list[Any]:
    cases = []
    for path in sorted(DATA.glob("*.json")):
        data = json.loads(path.read_text())
        for entry in data["variants"]:
            start = entry.get("from", [])
            for depth, count in enumerate(entry["counts"], start=1):
                label = f"{path.stem}{json.dumps(entry['options'], sort_keys=True)}"
                label += f"-from{len(start)}" if start else ""
                cases.append(
                    pytest.param(
                        path.stem, entry["options"], start, depth, count, id=f"{label}-d{depth}"
                    )
                )
    return cases


@pytest.mark.parametrize(("game_id", "options", "start", "depth", "expected"), _cases())
def test_perft(
    game_id: str, options: dict[str, Any], start: list[str], depth: int, expected: int
) -> None:
    state = pa.load(game_id, **options).new_initial_state()
    for move in start:
        state.apply(move)
    got = perft(state, depth)
    if got != expected:
        breakdown = divide(state, depth)
        pytest.fail(f"perft({depth}) = {got}, expected {expected}; per first action: {breakdown}")


def test_every_variant_has_perft_data() -> None:
    covered = set()
    for path in DATA.glob("*.json"):
        for entry in json.loads(path.read_text())["variants"]:
            if entry.get("from"):
                continue  # a mid-game position: the variant still needs its opening's counts
            covered.add((path.stem, json.dumps(entry["options"], sort_keys=True)))
    for game_id, cls in pa.GAMES.items():
        for options in cls.VARIANTS:
            assert (game_id, json.dumps(dict(options), sort_keys=True)) in covered, (
                f"no perft data for {game_id} {dict(options)}"
            )
