"""A tournament's standings and a tournament game's header in Chromium, on a phone (390x844)
and a laptop (1280x800), in several languages: every column of the table shows (its last one
was cut off on a phone), the viewer's own row lines up with the others, and the game's header
says it is the tournament's game (it said "casual", "amicale" in French)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import make_settings
from .site_pages import running, settled, whole

pytestmark = pytest.mark.browser

# Where each header cell and each of the viewer's cells is, and what would hide a column.
GEOMETRY = """(me) => {
  const table = document.querySelector('#standings');
  const box = table.parentElement;
  const edges = (row) => [...row.children].map((c) => Math.round(c.getBoundingClientRect().left));
  const you = table.querySelector(`tbody tr:has(a[href="/players/${me}"])`);
  return {
    tableWidth: table.scrollWidth, boxWidth: box.clientWidth, boxScroll: box.scrollWidth,
    lastRight: table.querySelector('thead th:last-child').getBoundingClientRect().right,
    viewport: innerWidth, page: document.documentElement.scrollWidth,
    heads: edges(table.querySelector('thead tr')), first: edges(table.querySelector('tbody tr')),
    you: you ? edges(you) : null, youDisplay: you ? getComputedStyle(you).display : null,
  };
}"""


@pytest.fixture(scope="module")
def tournament(
    tmp_path_factory: pytest.TempPathFactory, browser: Browser
) -> Iterator[dict[str, str]]:
    """A running Swiss of seven bots and the organiser, who plays in it: the server's address,
    the tournament's id, the organiser's game, id and signed-in browser state."""
    settings = make_settings(Path(tmp_path_factory.mktemp("standings")))
    with running(settings) as base:
        ctx = browser.new_context(base_url=base)
        api = ctx.request
        origin = {"origin": base}
        r = api.post(
            "/api/auth/register",
            data={"username": "organiser", "password": "long-enough"},
            headers=origin,
        )
        assert r.ok, r.text()
        r = api.post(
            "/api/tournaments",
            data={
                "name": "Sunday Swiss of the club",
                "kind": "swiss",
                "game": "stack-a-cash",
                "rounds": 3,
            },
            headers=origin,
        )
        assert r.status == 201, r.text()
        tid = r.json()["id"]
        for level, count in (("random", 6), ("greedy", 1)):
            r = api.post(
                f"/api/tournaments/{tid}/bots",
                data={"level": level, "count": count},
                headers=origin,
            )
            assert r.ok, r.text()
        for step in ("join", "start"):
            assert api.post(f"/api/tournaments/{tid}/{step}", data={}, headers=origin).ok
        end = time.monotonic() + 60
        while not (game := api.get(f"/api/tournaments/{tid}").json()["you"]["game"]):
            assert time.monotonic() < end, "the organiser's game was never paired"
            time.sleep(0.2)
        me = api.get("/api/me").json()["id"]
        state = str(Path(tmp_path_factory.mktemp("state")) / "state.json")
        ctx.storage_state(path=state)
        ctx.close()
        yield {"base": base, "tid": tid, "game": game, "state": state, "me": me}


# A phone, then a laptop: the page is opened on the phone and widened under it to the laptop's
# size, where its styles and scripts lay it out again (one load for both sizes).
SIZES = ((390, 844), (1280, 800))


@contextmanager
def seen(browser: Browser, tournament: dict[str, str], path: str, lang: str) -> Iterator[Page]:
    """The organiser's page at ``path``, whole, in this language, opened in a phone's window."""
    width, height = SIZES[0]
    ctx = browser.new_context(
        viewport={"width": width, "height": height}, storage_state=tournament["state"]
    )
    try:
        ctx.add_cookies([{"name": "lang", "value": lang, "url": tournament["base"]}])
        page = ctx.new_page()
        page.goto(tournament["base"] + path)
        whole(page)
        yield page
    finally:
        ctx.close()


def at_each_size(page: Page) -> Iterator[int]:
    """The page at each of SIZES in turn (the first as it was opened): the width."""
    for width, height in SIZES:
        if page.viewport_size != {"width": width, "height": height}:
            page.set_viewport_size({"width": width, "height": height})
            settled(page)
        yield width


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ar"])
def test_every_standings_column_shows_and_the_viewers_row_lines_up(
    tournament: dict[str, str], browser: Browser, lang: str
) -> None:
    with seen(browser, tournament, f"/t/{tournament['tid']}", lang) as page:
        for width in at_each_size(page):
            at = page.evaluate(GEOMETRY, tournament["me"])
            at["width"] = width
            # the row was class "me", as the header's chip is: a flex box, its cells out of line
            assert at["youDisplay"] == "table-row", at
            assert page.locator("#standings tbody tr.you").count() == 1, at
            assert at["you"] == at["heads"] == at["first"], at
            assert at["boxScroll"] <= at["boxWidth"] and at["tableWidth"] <= at["boxWidth"], at
            assert at["lastRight"] <= at["viewport"] and at["page"] <= at["viewport"], at


@pytest.mark.parametrize(
    ("lang", "said", "casual", "round_"),
    [
        ("en", "tournament game", "casual", "Round 1"),
        ("fr", "partie de tournoi", "amicale", "Ronde 1"),
        ("ja", "大会の対局", "レーティングなし", "第 1 回戦"),
    ],
)
def test_a_tournament_games_header_names_its_tournament(
    tournament: dict[str, str], browser: Browser, lang: str, said: str, casual: str, round_: str
) -> None:
    with seen(browser, tournament, f"/g/{tournament['game']}", lang) as page:
        page.wait_for_function("() => document.querySelector('#game-meta').textContent !== ''")
        for width in at_each_size(page):
            meta = page.locator("#game-meta").inner_text()
            assert meta.startswith(said) and casual not in meta, (width, meta)
            link = page.locator("#tournament-of a")
            assert link.get_attribute("href") == f"/t/{tournament['tid']}"
            assert link.inner_text() == "Sunday Swiss of the club"
            assert page.locator("#tournament-of").inner_text().endswith(round_), width
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
