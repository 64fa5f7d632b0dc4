"""Every page of the site other than the live game page, in Chromium: no page scrolls
sideways on a phone (360 and 390 px), axe-core finds nothing serious, errors are pages in the
site's look, and the fairness page of a game in progress is neutral."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from sqlalchemy import create_engine, update

from pocketarena.server.models import GameRecord, utcnow

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import GAME_PAGES, running, seed_site, settled, whole

pytestmark = pytest.mark.browser

# Wider than the viewport by this much is a sideways scroll (a sub-pixel rounding is not).
TOLERANCE_PX = 1
# Elements past the right edge, leaving out what scrolls on purpose (.scroll-x, tables, pre) and
# what an ancestor inside the page clips (the phone's one-line status under the study board
# ends in an ellipsis: its notation span runs on, unseen, and scrolls nothing).
OVERFLOW = """() => {
  const width = document.documentElement.clientWidth;
  const clipped = (e) => {
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const x = getComputedStyle(a).overflowX;
      if ((x === 'hidden' || x === 'clip') && a.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  const wide = [...document.querySelectorAll('body *')]
    .filter((e) => e.getClientRects().length && e.getBoundingClientRect().right > width + 1
      && !e.closest('.scroll-x, table, pre') && !clipped(e))
    .slice(0, 5)
    .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')} right=${Math.round(e.getBoundingClientRect().right)}`);
  return { scroll: document.documentElement.scrollWidth, width, wide };
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    settings = make_settings(Path(tmp_path_factory.mktemp("site")))
    with running(settings) as base:
        pages = {k: v for k, v in seed_site(base).items() if k not in GAME_PAGES}
        yield base, pages


def phone(browser: Browser, width: int) -> Page:
    context = browser.new_context(
        viewport={"width": width, "height": 800}, is_mobile=True, has_touch=True
    )
    return context.new_page()


@dataclass
class Survey:
    """Every page of the site once at one width: how far each reaches past the window's edge,
    axe-core's serious findings (where asked), and the script errors on the way."""

    overflow: dict[str, dict[str, Any]] = field(default_factory=dict)
    axe: dict[str, str] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def survey(
    browser: Browser, base: str, pages: dict[str, str], widths: tuple[int, ...], axe: bool
) -> dict[int, Survey]:
    """Each page opened once at the first width (axe-core runs there, if asked), then seen at
    the others by changing the window's width under it: {width: what was seen there}."""
    first = widths[0]
    page = (
        phone(browser, first)
        if first < 1000
        else browser.new_page(viewport={"width": first, "height": 800})
    )
    seen = {width: Survey() for width in widths}
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    for name, path in pages.items():
        page.set_viewport_size({"width": first, "height": 800})
        page.goto(base + path)
        whole(page)
        for width in widths:
            if width != first:
                page.set_viewport_size({"width": width, "height": 800})
                settled(page)
            seen[width].overflow[name] = page.evaluate(OVERFLOW)
            violations = axe_violations(page) if axe and width == first else []
            if violations:
                seen[width].axe[name] = describe(violations)
    page.context.close()
    for width in widths:
        seen[width].errors = errors
    return seen


@pytest.fixture(scope="module")
def on_phones(site: tuple[str, dict[str, str]], browser: Browser) -> dict[int, Survey]:
    """The phone widths the sideways and the axe tests look at: each page opened at 390 px,
    where axe-core runs, then narrowed to 360 (one load of each page, where there was one at
    each width)."""
    return survey(browser, *site, (390, 360), axe=True)


@pytest.mark.parametrize("width", [360, 390])
def test_no_page_scrolls_sideways_on_a_phone(on_phones: dict[int, Survey], width: int) -> None:
    seen = on_phones[width]
    wide = {
        name: found
        for name, found in seen.overflow.items()
        if found["scroll"] > found["width"] + TOLERANCE_PX or found["wide"]
    }
    assert not wide, f"pages wider than {width} px: {wide}"
    assert not seen.errors, seen.errors


def test_axe_finds_nothing_serious_on_any_page(
    site: tuple[str, dict[str, str]], browser: Browser, on_phones: dict[int, Survey]
) -> None:
    laptop = survey(browser, *site, (1280,), axe=True)[1280]
    found = {
        f"{name} at {size}": said
        for size, seen in ((390, on_phones[390]), (1280, laptop))
        for name, said in seen.axe.items()
    }
    assert not found, "\n".join(f"{k}:\n{v}" for k, v in found.items())


def test_errors_are_pages_in_the_site_look(
    site: tuple[str, dict[str, str]], browser: Browser
) -> None:
    base, _ = site
    page = phone(browser, 390)
    response = page.goto(f"{base}/no/such/page")
    assert response is not None and response.status == 404
    assert page.is_visible("header.topbar") and page.is_visible("text=Back to the games")
    assert "Page not found" in page.title() and "detail" not in page.inner_text("main")
    page.click("text=Back to the games")
    page.wait_for_url(f"{base}/")
    page.context.close()


def test_fairness_of_a_game_in_progress_is_neutral(
    site: tuple[str, dict[str, str]], browser: Browser
) -> None:
    base, pages = site
    page = phone(browser, 390)
    page.goto(base + pages["fairness, in progress"])
    verdict = page.locator("#verdict")
    assert "revealed when the game ends" in verdict.inner_text()
    assert "NOT VERIFIED" not in page.inner_text("main") and "✗" not in page.inner_text("main")
    assert "pending" in (verdict.get_attribute("class") or "")
    page.goto(base + pages["fairness, finished"])
    assert page.inner_text("#verdict").startswith("✓ VERIFIED")
    page.context.close()


def friend_game(alice: Page, bob: Page, base: str) -> str:
    """A Stack-a-Cash game between Alice (first seat, has moved) and Bob, whose turn it is."""
    alice.goto(f"{base}/")
    bob.goto(f"{base}/")
    body = {"game": "stack-a-cash", "options": {}, "mode": "friend", "seat": 0}
    created = alice.request.post(f"{base}/api/games", data=body).json()
    gid: str = created["id"]
    invite = created["invite_url"].split("invite=")[1]
    assert bob.request.post(f"{base}/api/games/{gid}/join", data={"invite": invite}).ok
    move = {"action": "place L b2", "version": 1}
    assert alice.request.post(f"{base}/api/games/{gid}/moves", data=move).ok
    return gid


def test_the_waiting_player_claims_the_win_once_the_opponent_has_left(
    browser: Browser, tmp_path: Path
) -> None:
    with running(make_settings(tmp_path, claim_win_after_s=3)) as base:
        contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in "ab"]
        try:
            alice, bob = (c.new_page() for c in contexts)
            gid = friend_game(alice, bob, base)
            bob.goto(f"{base}/g/{gid}")  # Bob is here, thinking: nothing to claim
            alice.goto(f"{base}/g/{gid}")
            alice.wait_for_function("() => window.paGame && window.paGame.view")
            alice.wait_for_timeout(1500)
            assert alice.is_hidden("#claim-box") and bob.is_hidden("#claim-box")
            bob.goto(f"{base}/lobby")  # Bob leaves the game
            alice.wait_for_selector("#claim-box:not([hidden])", timeout=15_000)
            assert "has left" in alice.inner_text("#claim-text")
            alice.wait_for_selector("#claim-btn:not([disabled])", timeout=10_000)
            assert alice.inner_text("#claim-btn") == "Claim the win"
            alice.click("#claim-btn")
            alice.wait_for_function("() => window.paGame.view.status === 'finished'")
            view = alice.request.get(f"{base}/api/games/{gid}?svg=false").json()
            assert view["winner"] == 0 and view["termination"] == "abandoned"
            assert alice.is_hidden("#claim-box")
        finally:
            for c in contexts:
                c.close()


def test_the_lobby_drops_games_abandoned_before_a_restart(browser: Browser, tmp_path: Path) -> None:
    settings = make_settings(tmp_path, abandon_after_s=3600)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        alice, bob = context.new_page(), browser.new_page()
        with running(settings) as base:
            old = friend_game(alice, bob, base)
            fresh = friend_game(alice, bob, base)
            alice.goto(f"{base}/lobby")
            for gid in (old, fresh):
                alice.wait_for_selector(f'#live li[data-id="{gid}"]')
        engine = create_engine(settings.database_url)
        with engine.begin() as conn:  # nobody played it for two hours while the server was down
            conn.execute(
                update(GameRecord)
                .where(GameRecord.id == old)
                .values(updated_at=utcnow() - timedelta(hours=2))
            )
        engine.dispose()
        with running(settings) as base:
            alice.goto(f"{base}/lobby")
            alice.wait_for_selector(f'#live li[data-id="{fresh}"]')
            assert alice.locator(f'#live li[data-id="{old}"]').count() == 0
            alice.goto(f"{base}/g/{old}")
            alice.wait_for_function("() => window.paGame && window.paGame.view")
            assert alice.evaluate("() => window.paGame.view.status") == "aborted"
        bob.context.close()
    finally:
        context.close()


def test_the_new_game_form_speaks_in_words(
    site: tuple[str, dict[str, str]], browser: Browser
) -> None:
    base, _ = site
    page = phone(browser, 390)
    page.goto(f"{base}/new?game=coin-age")
    assert page.inner_text("label[for=opt-map]").startswith("Map")
    assert "Classic" in page.inner_text("#opt-map") and "Bot · easy" in page.inner_text("#bot")
    assert page.is_hidden("#opt-seed")  # a map's number matters only for a random map
    page.select_option("#opt-map", "random")
    assert page.is_visible("#opt-seed")
    page.goto(f"{base}/new?game=flipwars")
    assert "Standard (5×5)" in page.inner_text("#opt-mode")
    # A series of rounds is only Tactical War's: the box is offered only there (it was shown
    # ticked in every mode and silently ignored), and a standard game is asked without it.
    for mode in ("standard", "enclosed", "flag", "tactical", "standard"):
        page.select_option("#opt-mode", mode)
        assert page.is_visible("#opt-series") == (mode == "tactical"), mode
    page.check('input[name="mode"][value="bot"]', force=True)
    with page.expect_request(
        lambda r: r.url.split("?")[0].endswith("/api/games") and r.method == "POST"
    ) as sent:
        page.click("#start")
    body = sent.value.post_data_json
    assert body is not None and body["options"] == {"mode": "standard"}
    page.wait_for_url("**/g/*")
    page.wait_for_function("() => window.paGame && window.paGame.view")
    assert page.evaluate("() => window.paGame.view.options.series") is False
    assert "series" not in page.inner_text("#game-meta").lower()
    page.context.close()


def fits(page: Page) -> bool:
    found = page.evaluate(OVERFLOW)
    return bool(found["scroll"] <= found["width"] + TOLERANCE_PX and not found["wide"])


def test_a_tampered_record_and_an_account_page_on_a_small_phone(
    site: tuple[str, dict[str, str]], browser: Browser
) -> None:
    base, pages = site
    page = phone(browser, 360)
    finished = pages["replay"].split("/")[2]
    text = page.request.get(f"{base}/api/games/{finished}/record?format=text").text()
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("flip "))
    moves_before = sum(1 for line in lines[:first] if line and not line.startswith("["))
    lines[first] = "flip TT" if lines[first] != "flip TT" else "flip HH"
    page.goto(f"{base}/verify")
    page.fill("textarea[name=record]", "\n".join(lines))
    with page.expect_navigation():  # the verdict is a new page: read it once it is whole
        page.click("form button")
    whole(page)
    verdict = page.inner_text("#verdict")
    assert verdict.startswith("✗ NOT VERIFIED")
    assert f"the throw at move {moves_before + 1} is recorded as" in verdict
    assert fits(page), page.evaluate(OVERFLOW)
    assert not axe_violations(page), describe(axe_violations(page))
    body = {"username": "ada_lovelace", "password": "longenough"}
    assert page.request.post(f"{base}/api/auth/register", data=body).ok
    page.goto(f"{base}/account")
    whole(page)
    assert "ada_lovelace" in page.inner_text("main")
    assert fits(page), page.evaluate(OVERFLOW)
    assert not axe_violations(page), describe(axe_violations(page))
    page.context.close()
