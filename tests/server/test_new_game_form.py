"""The new-game form as a person meets it (issue 24, item 3): Start is in view on the first
screen at desktop and phone sizes; a menu shows its whole choice; its help is words, not code
values; a guest is not offered a rated game (they are never rated), an account is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import make_settings
from .site_pages import running

pytestmark = pytest.mark.browser

# The width the selected choice's words need in the menu's own font, against the menu's room.
CHOICE_FITS = """(sel) => {
  const s = document.querySelector(sel);
  const style = getComputedStyle(s);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const need = ctx.measureText(s.options[s.selectedIndex].text).width;
  const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
  return [need, room];
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("newform")))) as base:
        yield base


def start_in_view(page: Page, height: int) -> None:
    box = page.locator("#start").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_start_is_in_view_and_menus_show_their_choice(
    server: str, browser: Browser, size: tuple[int, int]
) -> None:
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    try:
        for game in ("stack-a-cash", "coin-age", "flipwars", "wallet-battles"):
            page.goto(f"{server}/new?game={game}")
            page.wait_for_selector("#options .field")
            start_in_view(page, size[1])
            for sel in page.eval_on_selector_all(
                "#options select", "ns => ns.map((n) => '#' + n.id)"
            ):
                need, room = page.evaluate(CHOICE_FITS, sel)
                assert need <= room, (game, sel, need, room)
            helps = " ".join(page.locator("#options .help").all_inner_texts())
            # words, not code: no quoted option values, JSON or name=value in what a player reads
            assert not re.search(r"'[a-z-]+'|[{}=]", helps), helps
        page.mouse.wheel(0, 600)  # scrolled to the clocks: Start is still there
        start_in_view(page, size[1])
    finally:
        page.context.close()


def test_a_guest_is_offered_no_rated_game_and_an_account_is(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{server}/new?game=stack-a-cash")
        assert page.locator("#rated").count() == 0 and page.is_visible("#guest-unrated")
        page.check('input[name="mode"][value="bot"]', force=True)
        with page.expect_request(lambda r: r.url.split("?")[0].endswith("/api/games")) as sent:
            page.click("#start")
        body = sent.value.post_data_json
        assert body is not None and body["rated"] is False
        page.wait_for_url("**/g/*")
        answer = page.request.post(
            f"{server}/api/auth/register", data={"username": "rita", "password": "long enough"}
        )
        assert answer.ok, answer.text()
        page.goto(f"{server}/new?game=stack-a-cash")
        assert page.is_checked("#rated") and page.locator("#guest-unrated").count() == 0
    finally:
        page.context.close()
