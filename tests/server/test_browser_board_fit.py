"""Every game's board drawn in every language fits: in Chromium, each word on the SVG lies
inside the picture, and Stack-a-Cash's supply label keeps clear of the coins beside it (the
Arabic label ran into the first coin on the game page). The boards sit in a left-to-right box
inside a page of the language's direction, as on the site (``.board { direction: ltr }``)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

import pocketarena as pa
from pocketarena import i18n, render
from pocketarena.core import message
from pocketarena.messages import speak
from tests.conftest import all_variants, variant_id

VARIANTS = all_variants()

# Every <text>'s box in the SVG's own units, the picture's viewBox, and the supply's boxes.
MEASURE = """() => {
  const svg = document.querySelector("svg");
  const box = svg.viewBox.baseVal;
  const texts = [...svg.querySelectorAll("text")]
    .filter((t) => t.textContent.trim())
    .map((t) => { const b = t.getBBox(); return {text: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height}; });
  const supply = [...svg.querySelectorAll("circle[data-supply]")]
    .map((c) => { const b = c.getBBox(); return {x: b.x, y: b.y, w: b.width, h: b.height}; });
  return {view: {x: box.x, y: box.y, w: box.width, h: box.height}, texts, supply};
}"""


def page_of(svg: str, code: str) -> str:
    direction = "rtl" if i18n.is_rtl(code) else "ltr"
    return (
        f'<!doctype html><html lang="{i18n.html_lang(code)}" dir="{direction}"><body>'
        f'<div style="direction: ltr; width: 480px">{svg}</div></body></html>'
    )


@pytest.fixture(scope="module")
def page(browser: Browser) -> Iterator[Page]:
    """One page for the module, its content replaced for each board."""
    one = browser.new_page()
    yield one
    one.close()


def boxes(page: Page, state: pa.State, code: str) -> dict[str, Any]:
    with i18n.use_locale(code):
        svg = render.svg_board(state, last=state.history[-1] if state.history else None)
    page.set_content(page_of(svg, code))
    return page.evaluate(MEASURE)  # type: ignore[no-any-return]


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and (a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
    )


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_every_word_on_a_board_lies_inside_it_in_every_language(
    page: Page, variant: tuple[str, Any]
) -> None:
    game_id, options = variant
    state = pa.load(game_id, **options).new_initial_state()
    rng = random.Random(3)
    for _ in range(4):  # a few moves in: last-move marks, smaller supplies
        if state.is_terminal():
            break
        state.apply_random(rng)
    outside = []
    for code in i18n.LANGUAGES:
        found = boxes(page, state, code)
        view = found["view"]
        for t in found["texts"]:
            if t["x"] < view["x"] - 0.5 or t["x"] + t["w"] > view["x"] + view["w"] + 0.5:
                outside.append(
                    f"{code}: {t['text']!r} from x={t['x']:.0f} to {t['x'] + t['w']:.0f}"
                )
    assert not outside, f"words past the board's edge (0 to {view['w']:.0f}): {outside}"


def test_the_supply_label_keeps_clear_of_the_coins_in_every_language(page: Page) -> None:
    state = pa.load("stack-a-cash").new_initial_state()
    crowded = []
    for code in i18n.LANGUAGES:
        found = boxes(page, state, code)
        assert found["supply"], "the supply's coins are drawn"
        with i18n.use_locale(code):
            word = speak(message("stack-a-cash.board.supply"))
        (label,) = [t for t in found["texts"] if t["text"] == word]
        if any(overlap(label, coin) for coin in found["supply"]):
            crowded.append(f"{code}: {word!r} ends at x={label['x'] + label['w']:.0f}")
    assert not crowded, f"the supply label runs into a coin: {crowded}"
