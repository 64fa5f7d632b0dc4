"""In a real headless Chromium: beside each seat's name a game page says, in words, whether
that player is online, and says so again when they leave and come back; the lobby counts the
players online."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .conftest import make_settings
from .site_pages import friend_game, running

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("arena")))) as base:
        yield base


def seat_presence(page: Page, seat: int) -> tuple[str, str]:
    """The word beside a seat's name and its accessible label."""
    tag = page.locator(f'#players [data-presence="{seat}"]')
    return tag.inner_text(), tag.get_attribute("aria-label") or ""


def test_a_seat_says_whether_its_player_is_online(server: str, browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 900, "height": 900}) for _ in range(3)]
    try:
        alice, bob, carol = (c.new_page() for c in contexts)
        errors: list[str] = []
        for page in (alice, bob, carol):
            page.on("pageerror", lambda e: errors.append(str(e)))
        gid = friend_game(server, alice, bob)
        carol.goto(f"{server}/g/{gid}")
        carol.wait_for_selector('#players [data-presence="1"]')
        carol.wait_for_function(
            "() => [0, 1].every((s) => document.querySelector("
            "`#players [data-presence=\"${s}\"]`)?.textContent === 'online')",
            timeout=10_000,
        )
        word, label = seat_presence(carol, 1)
        bob_name = carol.evaluate("() => window.paGame.view.seats[1].name")
        assert word == "online" and label == f"{bob_name} is online"
        # Bob closes his page: Carol reads "offline" beside his name, in words
        bob.close()
        carol.wait_for_function(
            "() => document.querySelector('#players [data-presence=\"1\"]')?.textContent"
            " === 'offline'",
            timeout=10_000,
        )
        assert seat_presence(carol, 1) == ("offline", f"{bob_name} is offline")
        assert seat_presence(carol, 0)[0] == "online"
        # and "online" again when he comes back
        bob = contexts[1].new_page()
        bob.goto(f"{server}/g/{gid}")
        carol.wait_for_function(
            "() => document.querySelector('#players [data-presence=\"1\"]')?.textContent"
            " === 'online'",
            timeout=10_000,
        )
        # the lobby says how many players have a page open
        lobby = contexts[2].new_page()
        lobby.goto(f"{server}/lobby")
        assert re.fullmatch(r"\d+ players? online", lobby.inner_text("#online-count"))
        assert errors == []
    finally:
        for c in contexts:
            c.close()
