"""Opening an invitation is all a friend does to play (issue 24, item 2): on a phone the friend
lands in the started game with the board in view, never on a Join box below the fold."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import make_settings
from .site_pages import running

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("invite")))) as base:
        yield base


def test_opening_an_invitation_on_a_phone_joins_the_game(server: str, browser: Browser) -> None:
    host = browser.new_context(viewport={"width": 1280, "height": 800})
    friend = browser.new_context(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True
    )
    try:
        alice, bob = host.new_page(), friend.new_page()
        alice.goto(f"{server}/")
        body = {"game": "stack-a-cash", "options": {}, "mode": "friend", "seat": 0}
        created = alice.request.post(f"{server}/api/games", data=body).json()
        alice.goto(created["url"])
        assert alice.is_visible("#invite-box")
        bob.goto(created["invite_url"])
        bob.wait_for_function("() => window.paGame.view.status === 'active'", timeout=15_000)
        assert bob.evaluate("() => window.paGame.you") == [1]
        assert bob.is_hidden("#join-box")
        board = bob.locator("#board svg").bounding_box()
        assert board is not None and board["y"] < 844 and board["height"] > 100
        alice.wait_for_function("() => window.paGame.view.status === 'active'", timeout=15_000)
        # Opening it again, or by a third person, takes no seat and changes nothing.
        bob.goto(created["invite_url"])
        bob.wait_for_function("() => window.paGame.view.status === 'active'")
        assert bob.evaluate("() => window.paGame.you") == [1]
    finally:
        host.close()
        friend.close()
