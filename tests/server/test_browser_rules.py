"""The rules pages in a real Chromium, as a French, German or Arabic player reads them: in their
language (Arabic right to left, its notation and the starting boards beside it left to right),
every picture shown, no word of a board cut at its edge, nothing scrolling sideways on a phone
or a laptop, and axe-core clean in Arabic."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from pocketarena import i18n
from pocketarena.server import catalog

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import running

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}

# The page as read: its languages and directions, pictures loaded, and how far it (or anything
# in it not inside its own scrolling box, as a wide table or code block is) reaches past the
# window's edge.
READ = """() => {
  const text = document.querySelector('.rules-text');
  const width = document.documentElement.clientWidth;
  const past = [];
  for (const el of document.querySelectorAll('main *')) {
    const r = el.getBoundingClientRect();
    if (r.right <= width + 1 && r.left >= -1) continue;
    let box = el.parentElement, scrolls = false;
    for (; box && box !== document.body; box = box.parentElement) {
      if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)) {
        scrolls = true;
        break;
      }
    }
    if (!scrolls) past.push(el.tagName + ': ' + (el.textContent || '').slice(0, 40));
  }
  return {
    lang: text.lang,
    dir: getComputedStyle(text).direction,
    notation: [...text.querySelectorAll('pre, code')].map((c) => getComputedStyle(c).direction),
    pictures: [...text.querySelectorAll('img')].map((i) => i.naturalWidth > 0),
    sideways: document.scrollingElement.scrollWidth - width,
    // Notation in a table cell on more lines than it has words: a word of it cut in two.
    split: [...text.querySelectorAll('td code')]
      .filter((c) => c.getClientRects().length > c.textContent.split(/[\\s-]+/).length)
      .map((c) => c.textContent),
    // The starting boards beside the text: every word drawn inside its picture.
    cut: [...document.querySelectorAll('.rules-diagrams svg')].flatMap((svg) => {
      const box = svg.getBoundingClientRect();
      return [...svg.querySelectorAll('text')].filter((t) => {
        const r = t.getBoundingClientRect();
        return r.width && (r.left < box.left - 1 || r.right > box.right + 1);
      }).map((t) => t.textContent);
    }),
    past: past.slice(0, 5),
  };
}"""


def followed(page: Page, where: str) -> list[str]:
    """Where the page's first link to one of its headings leads: the heading is its href
    decoded (a heading in Arabic or Japanese keeps its script as id, the href is encoded), and
    following it brings that heading, far down the page, to the top of the window."""
    link = page.locator('.rules-text a[href^="#"]').first
    heading = link.evaluate("(a) => decodeURIComponent(a.hash.slice(1))")
    link.click()
    page.wait_for_function("() => window.scrollY > 0")
    top = page.evaluate(
        "(id) => document.getElementById(id)?.getBoundingClientRect().top ?? null", heading
    )
    if top is None or not -1 <= top < 100:
        return [f"{where}: the link to #{heading} leads to {top} px from the top"]
    return []


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("rules")))) as base:
        yield base


@pytest.mark.parametrize("code", ["fr", "de", "ar"])
def test_the_rules_read_in_the_players_language_without_sideways_scroll(
    server: str, browser: Browser, code: str
) -> None:
    problems: list[str] = []
    for size, (width, height) in SIZES.items():
        ctx = browser.new_context(viewport={"width": width, "height": height})
        ctx.add_cookies([{"name": "lang", "value": code, "url": server}])
        page = ctx.new_page()
        for game in catalog.game_ids():
            page.goto(f"{server}/rules/{game}")  # "load": the pictures are decoded below
            for image in page.locator(".rules-text img").all():  # loaded lazily: look at each
                image.scroll_into_view_if_needed()
                image.evaluate("(i) => i.decode()")
            seen = page.evaluate(READ)
            where = f"{code} {size} /rules/{game}"
            translated = (Path(__file__).parents[2] / "docs/rules" / code / f"{game}.md").exists()
            if translated:  # a page not yet translated reads in English, left to right
                assert seen["lang"] == i18n.html_lang(code), where
                assert seen["dir"] == ("rtl" if i18n.is_rtl(code) else "ltr"), where
            else:
                assert (seen["lang"], seen["dir"]) == ("en", "ltr"), where
            assert seen["notation"] and set(seen["notation"]) == {"ltr"}, where
            assert all(seen["pictures"]), f"{where}: a picture did not load"
            if seen["split"] and size == "laptop":  # a phone may break one to fit
                problems.append(f"{where}: notation cut mid-word in a table {seen['split']}")
            if seen["cut"]:
                problems.append(f"{where}: board words cut at the picture's edge {seen['cut']}")
            if seen["sideways"] > 0 or seen["past"]:
                problems.append(
                    f"{where}: {seen['sideways']}px sideways, past the edge {seen['past']}"
                )
            if game == "coin-age" and size == "phone":  # "see the maps" leads to them
                problems += followed(page, where)
            if code == "ar" and size == "phone" and game == "coin-age":
                violations = axe_violations(page)
                if violations:
                    problems.append(f"{where}:\n{describe(violations)}")
        ctx.close()
    assert not problems, "\n".join(problems)
