"""A tab left open across an upgrade runs the old scripts against the new server: when the
socket's ``hello`` names another build than the page's, the page says Pocket Arena was updated
and offers a reload (it never reloads by itself: the player may be typing); a page of the
server's build says nothing. Screenshots at a phone's and a laptop's size."""

# ruff: noqa: F811  (the server fixture comes from test_browser, browser from conftest)

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .axe import axe_violations, describe
from .test_browser import server, watch_errors  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("POCKETARENA_SHOTS", "/tmp/pocketarena-shots"))

# Every socket the page opens, to close one as a network or a restart would.
KEEP_SOCKETS = """
window.paSockets = [];
const Native = window.WebSocket;
window.WebSocket = class extends Native {
  constructor(...args) { super(...args); window.paSockets.push(this); }
};
"""
SOCKETS = "() => window.paSockets.length"
OPEN = "(n) => window.paSockets.length >= n && window.paSockets.at(-1).readyState === 1"


def open_lobby(page: Page, server: str) -> None:
    page.add_init_script(KEEP_SOCKETS)
    page.goto(f"{server}/lobby")
    page.wait_for_function(OPEN, arg=1)


def reconnect(page: Page) -> None:
    """The socket closed (the server restarted): socket.js opens another by itself."""
    count = page.evaluate(SOCKETS)
    page.evaluate("() => window.paSockets.at(-1).close()")
    page.wait_for_function(OPEN, arg=count + 1)


def notice(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        """() => {
          const n = document.querySelector('#upgrade-notice');
          if (!n || n.hidden) return {shown: false};
          const b = n.querySelector('button');
          const r = n.getBoundingClientRect();
          return {shown: true, role: n.getAttribute('role'), text: n.textContent,
                  button: b ? b.textContent : null, width: r.width, right: r.right,
                  overflow: document.documentElement.scrollWidth > innerWidth};
        }"""
    )
    return found


@pytest.mark.parametrize(
    ("size", "language"), [((390, 844), "en"), ((1280, 800), "en"), ((390, 844), "fr")]
)
def test_an_old_page_is_told_to_reload(
    server: str, browser: Browser, size: tuple[int, int], language: str
) -> None:
    width, height = size
    context = browser.new_context(
        viewport={"width": width, "height": height}, locale="fr-FR" if language == "fr" else "en-US"
    )
    try:
        page = context.new_page()
        errors = watch_errors(page)
        open_lobby(page, server)
        page.evaluate(
            "() => document.querySelector('meta[name=pa-build]').content = 'old0old0old0'"
        )
        reconnect(page)
        page.wait_for_selector("#upgrade-notice:not([hidden]) button", timeout=5000)
        seen = notice(page)
        assert seen["role"] in ("status", "alert")
        assert seen["button"]
        if language == "en":
            assert "Pocket Arena was updated" in seen["text"]
            assert seen["button"] == "Reload"
        else:
            assert "Pocket Arena" in seen["text"] and "updated" not in seen["text"]
            assert seen["button"] != "Reload"
        assert not seen["overflow"] and seen["right"] <= width
        assert page.url.endswith("/lobby")  # still here: no reload by itself
        serious = axe_violations(page)
        assert not serious, describe(serious)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"upgrade-notice-{width}x{height}-{language}.png"))
        # Another hello of the old build does not add a second notice.
        reconnect(page)
        page.wait_for_timeout(300)
        assert page.locator("#upgrade-notice").count() == 1
        with page.expect_navigation():
            page.click("#upgrade-notice button")
        page.wait_for_function(OPEN, arg=1)
        assert not notice(page)["shown"]
        assert not errors
    finally:
        context.close()


def test_a_page_of_the_servers_build_says_nothing(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        errors = watch_errors(page)
        open_lobby(page, server)
        reconnect(page)
        page.wait_for_timeout(500)
        assert not notice(page)["shown"]
        assert page.locator("#upgrade-notice").count() == 0
        assert not errors
    finally:
        context.close()
