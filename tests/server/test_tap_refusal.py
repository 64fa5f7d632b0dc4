"""A tap the rules refuse is answered about what was tapped (issue 24, item 1): tapping the
opponent's protected coin in Stack-a-Cash with nothing picked says the coin is protected,
not why 'place L b3' (a move the player never chose) would be refused."""

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
    with running(make_settings(Path(tmp_path_factory.mktemp("tap")))) as base:
        yield base


def test_tapping_a_protected_coin_says_it_is_protected(server: str, browser: Browser) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    try:
        page.goto(f"{server}/")
        body = {"game": "stack-a-cash", "options": {}, "mode": "local"}
        created = page.request.post(f"{server}/api/games", data=body).json()
        gid = created["id"]
        move = {"action": "place M b3", "version": 0}
        assert page.request.post(f"{server}/api/games/{gid}/moves", data=move).ok
        page.goto(created["url"])
        page.wait_for_function("() => window.paGame?.view?.version === 1")
        page.locator('#board [data-place="b3"]').tap(
            force=True
        )  # aria-disabled: no move starts there
        page.wait_for_selector("#refusal:not([hidden])")
        said = page.inner_text("#refusal")
        assert "protected" in said and "b3" in said, said
        assert "large coin" not in said, said  # no refusal of a placement nobody chose
    finally:
        page.context.close()
