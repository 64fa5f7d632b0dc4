"""The rules page stays true: it names every location, and its sample opening plays as told."""

from __future__ import annotations

import re
from pathlib import Path

import pocketarena as pa
from pocketarena.games.wallet_battles import MAPS, load_map

PAGE = Path(__file__).parents[3] / "docs" / "rules" / "wallet-battles.md"


def test_the_page_names_every_location_of_both_maps() -> None:
    text = PAGE.read_text()
    for name in MAPS:
        for loc in load_map(name).location_ids:
            assert f"`{loc}`" in text, loc


def test_the_sample_opening_plays_as_the_page_says() -> None:
    text = " ".join(PAGE.read_text().split())
    sample = text.split("A sample opening:", 1)[1].split(".", 1)[0]
    moves = re.findall(r"`([^`]+)`", sample)
    assert len(moves) == 7
    state = pa.load("wallet-battles").new_initial_state()
    for move in moves:
        state.apply(move)
    culps = next(loc for loc in state.position()["locations"] if loc["id"] == "culps-hill")
    assert culps["holder"] == 1 and culps["stack"] == ["Q"]  # the captured Union quarter
    assert state.position()["piles"][0]["Q"] == 5
