"""Signed numbers in a right-to-left page: a rating change of -1 reads "-1" in Arabic too, not
"1-" (the sign is a neutral character, which the page's direction would carry to the right of
the digits unless the number is isolated left to right)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from pocketarena.server.core.db import make_engine, session_factory
from pocketarena.server.store import Store

from .conftest import make_settings
from .site_pages import http, running
from .test_profiles import seed

pytestmark = pytest.mark.browser

# Each sign written before a digit in the element's text, and whether it is drawn left of it
# (the laptop's width: a profile's rating column is hidden on a phone).
SIGNS = r"""(box) => {
  const seen = [];
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node; (node = walk.nextNode());) {
    const s = node.textContent;
    for (let i = 0; i + 1 < s.length; i++) {
      if (!'+-\u2212'.includes(s[i]) || !/\d/.test(s[i + 1])) continue;
      const at = (k) => {
        const r = document.createRange();
        r.setStart(node, k);
        r.setEnd(node, k + 1);
        return r.getBoundingClientRect().left;
      };
      seen.push([s.slice(i, i + 4), at(i) < at(i + 1)]);
    }
  }
  return seen;
}"""


@pytest.fixture(scope="module")
def arabic(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[Page]:
    """A server with Ann's 15 rated games lost, drawn, won by a point each (she has -1 in
    each), and an Arabic reader's page."""
    settings = make_settings(Path(tmp_path_factory.mktemp("bidi")))
    with running(settings) as base:
        ids = []
        for name in ("mia", "ann", "bob"):
            with http(base) as client:
                r = client.post("/api/auth/register", json={"username": name, "password": "x" * 10})
                assert r.status_code < 300, r.text
                ids.append(client.get("/api/me").json()["id"])
        engine = make_engine(settings)
        seed(Store(engine, session_factory(engine)), *ids)
        engine.dispose()
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=base)
        ctx.add_cookies([{"name": "lang", "value": "ar", "url": base}])
        page = ctx.new_page()
        page.goto(f"/players/{ids[1]}")
        assert page.locator("html").get_attribute("dir") == "rtl"
        yield page
        ctx.close()


def test_a_rating_change_in_a_profiles_games(arabic: Page) -> None:
    arabic.goto(arabic.url)
    signs = arabic.locator("#games tbody").evaluate(SIGNS)
    assert signs and all(left for _, left in signs), signs


def test_a_rating_change_under_a_finished_game(arabic: Page) -> None:
    arabic.goto("/g/seeded00")
    box = arabic.locator(".rating-changes")
    box.wait_for()
    signs = box.evaluate(SIGNS)
    assert [s for s, _ in signs] == ["+1)", "-1)"] and all(left for _, left in signs), signs
    for line in box.locator("div").all():  # before → after, in that order from the left
        text = line.locator("bdi").inner_text()
        assert text.index("→") < text.index("(") and "(" in text, text


def test_a_puzzle_rating_change(arabic: Page) -> None:
    arabic.goto("/puzzles")
    # The page fills in the player's standing (no change yet) once its puzzle has come.
    arabic.wait_for_selector("#puzzles[data-puzzle] #pz-choices button[data-move]")
    arabic.wait_for_function("() => document.querySelector('#pz-rating').textContent !== '…'")
    change = arabic.locator("#pz-change")
    change.evaluate("(c) => { c.textContent = '\u221212'; }")  # as Puzzles.standing writes it
    assert change.evaluate(SIGNS) == [["−12", True]]


def test_a_lessons_margins(arabic: Page) -> None:
    """A 'most' step's verdict names both margins ("0", "+2"): in Arabic a sign stays left of
    its digits (the lesson page writes the verdict as text into its RTL flow)."""
    arabic.goto("/learn/flipwars")
    r = arabic.request.post("/api/lessons/flipwars/0", data={"move": "place tank a1 r0"})
    said = r.json()["message"]
    box = arabic.evaluate_handle(
        """(text) => {
          const p = document.createElement("p");
          p.textContent = text;
          document.querySelector("main").append(p);
          return p;
        }""",
        said,
    )
    signs = box.evaluate(SIGNS)
    assert signs and all(left for _, left in signs), (said, signs)
