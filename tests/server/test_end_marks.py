"""The end of a game, in Chromium: Coin Age's finished board lights the regions each player
rules and Wallet Battles' the stacks that scored, on the finished game page and in the replay,
with the marks named for screen readers and axe-core finding nothing serious."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from pocketarena.core import load

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import SMALL_WALLET, play_out, running, whole

pytestmark = pytest.mark.browser

SEATS = {"coin-age": ("Heads", "Tails"), "wallet-battles": ("Union", "Confederacy")}


def finished_game(base: str, game: str, options: dict[str, Any], seed: int) -> str:
    """A game against the random bot played to its end over the API; its id."""
    with httpx.Client(base_url=base, timeout=30) as client:
        client.get("/api/me")
        body = {"game": game, "options": options, "mode": "bot", "bot": "random", "seat": 0}
        gid: str = client.post("/api/games", json=body).json()["id"]
        play_out(client, gid, random.Random(seed))
    return gid


def final_state(base: str, gid: str) -> Any:
    """The finished game's last position, replayed here by the rules from its record."""
    record = httpx.get(
        f"{base}/api/games/{gid}/record", params={"format": "json"}, timeout=30
    ).json()
    state = load(record["game"], **record.get("options", {})).new_initial_state()
    for move in record["moves"]:
        state.apply(move if isinstance(move, str) else move["text"])
    assert state.is_terminal()
    return state


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    with running(make_settings(Path(tmp_path_factory.mktemp("end")))) as base:
        yield (
            base,
            {
                "coin-age": finished_game(base, "coin-age", {}, 3),
                "wallet-battles": finished_game(base, "wallet-battles", SMALL_WALLET, 5),
            },
        )


def expected_marks(game: str, state: Any) -> dict[str, str]:
    """{region or location id: the seat name} computed from the rules' state."""
    if game == "coin-age":
        out = {}
        for region in state.game.map.regions:
            tops = [state.tops[state.game.map.index(s)] for s in region.spaces]
            held = [sum(1 for t in tops if t >= 0 and t >> 2 == seat) for seat in (0, 1)]
            if held[0] != held[1]:
                out[region.id] = SEATS[game][0 if held[0] > held[1] else 1]
        return out
    return {
        lid: SEATS[game][state.holder[i]]
        for i, lid in enumerate(state.game.location_ids)
        if state.holder[i] >= 0 and state.stacks[i]
    }


MARKS = """(game) => {
  const svg = document.querySelector('#board svg');
  const sel = game === 'coin-age' ? '#board .region.ruled' : '#board .location.scored';
  const attr = game === 'coin-age' ? ['data-region', 'data-ruler'] : ['data-place', 'data-scorer'];
  const marks = Object.fromEntries([...document.querySelectorAll(sel)].map(
    (n) => [n.getAttribute(attr[0]), Number(n.getAttribute(attr[1]))]));
  const glow = [...document.querySelectorAll(sel)].map((n) => getComputedStyle(
    game === 'coin-age' ? n : n.querySelector('.score-ring')).filter);
  return { marks, glow, name: svg.getAttribute('aria-label') };
}"""


def marks_on(page: Page, game: str) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(MARKS, game)
    found["marks"] = {k: SEATS[game][v] for k, v in found["marks"].items()}
    return found


@pytest.mark.parametrize("game", ["coin-age", "wallet-battles"])
@pytest.mark.parametrize("where", ["game page", "replay"])
def test_the_finished_board_marks_what_each_player_won(
    games: tuple[str, dict[str, str]], browser: Browser, game: str, where: str
) -> None:
    base, ids = games
    gid = ids[game]
    expected = expected_marks(game, final_state(base, gid))
    assert expected, "the game ended with nothing to mark"
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(f"{base}/g/{gid}" + ("/replay" if where == "replay" else ""))
        page.wait_for_selector("#board svg")
        whole(page)
        found = marks_on(page, game)
        assert found["marks"] == expected
        assert all(g and g != "none" for g in found["glow"]), found["glow"]  # the CSS applies
        if game == "coin-age":
            names = {r.id: r.name for r in final_state(base, gid).game.map.regions}
            for rid, seat in expected.items():
                assert f"{names[rid]}: ruled by {seat}" in found["name"]
                legend = page.locator(f'#board .legend.ruled[data-region="{rid}"]')
                assert (legend.text_content() or "").startswith(f"{names[rid]}: ruled by {seat}")
        else:
            for lid, seat in expected.items():
                label = page.get_attribute(f'#board [data-place="{lid}"]', "data-label") or ""
                assert f"for the {seat}" in label, label
            for seat in SEATS[game]:
                assert f"the {seat} scored" in found["name"]
        violations = axe_violations(page)
        assert not violations, describe(violations)
    finally:
        page.context.close()
