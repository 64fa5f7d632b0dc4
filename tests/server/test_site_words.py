"""What the site's pages say, in players' words: options, rules pages without developer
internals, names kept for bots."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from pocketarena.rulepages import PROGRAMMERS_HEADING, rulebook_text, rules_text
from pocketarena.server import catalog
from pocketarena.server.store import reserved_name

from .conftest import create


def test_options_in_words() -> None:
    assert catalog.options_text("flipwars", {"mode": "standard", "series": False}) == (
        "Mode: Standard (5×5)"
    )
    assert catalog.options_text("flipwars", {"mode": "tactical", "series": True}) == (
        "Mode: Tactical (the block on c3) · A series of rounds (first to 3 wins)"
    )
    text = catalog.options_text(
        "wallet-battles",
        {"map": "antietam", "coins": {"Q": 2, "N": 2, "P": 2, "D": 2}, "end": "used"},
    )
    assert text == (
        "Battlefield: Antietam · Coins in each pile: 2 Q, 2 N, 2 P, 2 D · "
        "The map ends the game when: every location has held a coin"
    )
    assert catalog.options_text("coin-age", {"map": "classic", "seed": None}).startswith("Map: ")
    assert "classic" not in catalog.options_text("coin-age", {"map": "classic", "seed": None})


def test_views_and_the_lobby_carry_the_options_in_words(client: TestClient) -> None:
    view = create(client, game="flipwars", options={"mode": "standard"}, mode="seek")["game"]
    assert view["options"]["series"] is False and view["options_text"] == "Mode: Standard (5×5)"
    entry = client.get("/api/lobby").json()["seeks"][0]
    assert entry["options_text"] == "Mode: Standard (5×5)"


@pytest.mark.parametrize("game", catalog.game_ids())
def test_rules_pages_are_written_for_players(client: TestClient, game: str) -> None:
    html = client.get(f"/rules/{game}").text
    main = html.split("<main", 1)[1].split("</main>", 1)[0]
    text = re.sub(r"<[^>]+>", " ", main)
    for internal in (
        *("Game id", "shared/", "seeds/", "SPEC", ".py", "src/", "scripts/", "{'", '{"'),
        *("position(", "scores(", "game.options", "seat 0", "seat 1", "seed 0", "For programmers"),
    ):
        assert internal not in text, f"{game}: {internal!r} on the rules page"
    calls = re.findall(r"[\w.]+\(\)", text)
    assert not calls, f"{game}: {calls} on the rules page"
    assert "=" not in text.split("Starting board", 1)[-1]  # diagram captions in words


@pytest.mark.parametrize("game", catalog.game_ids())
def test_the_programmers_section_stays_in_the_developers_docs(game: str) -> None:
    """docs/rules keeps the whole page; players get it without its closing section."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "rules" / f"{game}.md").read_text()
    assert page.count(PROGRAMMERS_HEADING) == 1, f"{game}: no {PROGRAMMERS_HEADING!r} section"
    programmers = page.split(PROGRAMMERS_HEADING, 1)[1]
    assert "\n## " not in programmers, f"{game}: {PROGRAMMERS_HEADING!r} is not the last section"
    assert "scores()" in programmers or "position()" in programmers
    players = rules_text(game)
    assert players is not None and rulebook_text(game) == page
    assert page.startswith(players.rstrip()) and PROGRAMMERS_HEADING not in players


@pytest.mark.parametrize(
    "name",
    ["Bot · easy", "bot-easy", "B.o.t · Easy", "Easy Bot", "Randy (random)", "ＢＯＴ 2", "Admin"],
)
def test_names_kept_for_the_site_are_refused_with_a_reason(client: TestClient, name: str) -> None:
    assert reserved_name(name)
    before = client.get("/api/me").json()["name"]
    r = client.patch("/api/me", json={"name": name})
    assert r.status_code == 400 and "kept for the site's bots" in r.json()["detail"]
    assert client.get("/api/me").json()["name"] == before


def test_ordinary_names_are_fine(client: TestClient) -> None:
    for name in ("Botond", "Abbot", "Randy", "Greta", "Robot fan"):
        assert not reserved_name(name)
        assert client.patch("/api/me", json={"name": name}).json()["name"] == name
    r = client.post("/api/auth/register", json={"username": "bot_easy", "password": "longenough"})
    assert r.status_code == 400 and "kept for the site's bots" in r.json()["detail"]
