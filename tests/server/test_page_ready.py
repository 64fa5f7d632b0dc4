"""``html[data-ready]`` (static/ready.js), the mark the browser tests wait for instead of a quiet
network: it comes only once what a page's scripts fetched on opening is drawn. Here the reader's
words and every request to the API are held back a while, so a mark set by the load event, or
before the scripts drew what came back, would find the page still bare."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Route

from pocketarena import i18n

from .conftest import make_settings
from .site_pages import running, whole

pytestmark = pytest.mark.browser

HELD_S = 0.4


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("ready")))) as base:
        yield base


def held_back(route: Route) -> None:
    time.sleep(HELD_S)
    route.continue_()


def worded(msgid: str) -> re.Pattern[str]:
    """The French of ``msgid`` with any text where its parameters go."""
    french = i18n.translations("fr", "site").gettext(msgid)
    assert french != msgid, msgid
    return re.compile(re.sub(r"%\\\(\w+\\\)s", ".+", re.escape(french)))


def test_a_page_is_ready_once_what_it_fetched_on_opening_is_drawn(
    server: str, browser: Browser
) -> None:
    ctx = browser.new_context(locale="fr-FR", timezone_id="Asia/Tokyo")
    ctx.add_cookies([{"name": "lang", "value": "fr", "url": server}])
    ctx.route("**/i18n/*", held_back)
    ctx.route("**/api/**", held_back)
    page = ctx.new_page()
    # The puzzle: the French catalog, then the puzzle's request, then its drawing.
    page.goto(f"{server}/puzzles")
    whole(page)
    assert page.get_attribute("#puzzles", "data-puzzle")
    assert worded("Puzzle: %(title)s").fullmatch(page.inner_text("#pz-title"))
    # The lesson, in French too.
    page.goto(f"{server}/learn/stack-a-cash")
    whole(page)
    assert page.get_attribute("#lesson", "data-step") == "0"
    assert worded("Learn %(game)s").fullmatch(page.inner_text("#ln-title"))
    # The account page's line about the sessions, asked of the server after the load event.
    signed = {"username": "ready", "password": "longenough"}
    assert page.request.post(f"{server}/api/auth/register", data=signed).ok
    page.goto(f"{server}/account")
    whole(page)
    said = i18n.translations("fr", "site").gettext("You are signed in on this browser only.")
    assert page.inner_text("#sessions-line") == said
    ctx.close()
