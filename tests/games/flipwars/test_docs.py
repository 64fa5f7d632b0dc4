"""The rules page says what the engine does: its example replays as drawn, its pattern list is
the patterns file, and it names every ruling."""

from __future__ import annotations

import re
from pathlib import Path

import pocketarena as pa
from pocketarena.games.flipwars import KINDS

PAGE = Path(__file__).resolve().parents[3] / "docs" / "rules" / "flipwars.md"


def test_the_example_table_replays() -> None:
    rows = re.findall(
        r"^\| [^|]+ \| `(place [^`]+)` \| [^|]+ \| `([^`]+)` \| `([^`]+)` \|$",
        PAGE.read_text(encoding="utf-8"),
        re.MULTILINE,
    )
    assert len(rows) == 6
    state = pa.load("flipwars").new_initial_state()
    picture = str(state).splitlines()
    for move, rank3, rank2 in rows:
        state.apply(move)
        picture = str(state).splitlines()
        # str(state): rank 5 first; files a..e; the example covers files b..e.
        assert picture[2][4:] == rank3, move
        assert picture[3][4:] == rank2, move


def test_the_pattern_list_matches_the_patterns_file() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for kind in KINDS:
        if kind.name == "trex":
            continue  # written "all eight neighbours"
        if not kind.pattern:
            assert f"{kind.name} none" in page
            continue
        offsets = " ".join(f"({x},{y})" for x, y in kind.pattern)
        assert f"{kind.name} {offsets}" in page.replace("\n", " ")


def test_the_page_names_every_ruling() -> None:
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    for phrase in (
        "Canonical notation always includes the rotation",
        "attacks **pass over** it",
        "even your own",
        "first placement must be their flag",
        "counts 2",
        "first player to win **3 rounds**",
        "**9 rounds**",
        "the player who moved **second** in that round chooses",
        "`series=false`",
        "Blue moves first",
    ):
        assert phrase in page, phrase
