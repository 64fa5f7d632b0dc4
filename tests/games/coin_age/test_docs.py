"""The rules page: its generated map drawings and map listings are current, its example game
replays as it says, and it carries every SPEC ruling."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pocketarena as pa

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "rules" / "coin-age.md"


def _docs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "coin_age_docs", ROOT / "scripts" / "coin_age_docs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_map_drawings_and_listings_are_up_to_date() -> None:
    stale = [
        str(path.relative_to(ROOT))
        for path, text in _docs_script().expected_files().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    assert not stale, f"run: PYTHONPATH=src python scripts/coin_age_docs.py (stale: {stale})"


def test_the_page_shows_all_four_maps() -> None:
    page = PAGE.read_text(encoding="utf-8")
    for name in ("classic", "mint-isle", "sterling-strait", "five-fiefs"):
        assert f"](maps/coin-age-{name}.svg)" in page
        for space_id in pa.load("coin-age", map=name).map.space_ids:
            assert space_id in page


def test_the_example_game_replays_with_the_scores_it_states() -> None:
    page = PAGE.read_text(encoding="utf-8")
    block = page.split("A short game start", 1)[1].split("```")[1]
    moves = [line.split("  ")[0].strip() for line in block.strip().splitlines()]
    state = pa.load("coin-age").new_initial_state()
    for move in moves:
        state.apply(move)
    heads, tails = state.scores()
    assert f"so {heads} points; Tails" in page and f"so {tails} points." in page


def test_every_ruling_is_on_the_page() -> None:
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    for phrase in (
        "strictly higher-ranked",  # stacking by rank on anyone's coin
        "Only matching thrown coins are placed or paid, each once",
        "Pay one to place a third",
        "adjacent empty spaces, with the whole stack, anyone's",
        "Capture from anyone into your bank",
        "the turn ends by itself",
        "The game ends at once",
        "Thrown but unplaced coins stay in the bank",
        "200-turn guard",
        "strictly more controlled spaces than the opponent",
        "a tie goes to the higher bank value; still tied is a draw",
        "Silver Vale",
        "map=random",
    ):
        assert phrase in page, phrase
    assert len(re.findall(r"\*Why:\*", page)) >= 14
