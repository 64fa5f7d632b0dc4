"""A person joins a Swiss of bots in a real headless Chromium and plays it to its end: the page
tells them when each game starts (pushed over the WebSocket), links it, and shows the final
table."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .conftest import make_settings
from .site_pages import running
from .test_browser import play_to_the_end, watch_errors

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("tourney")))) as base:
        yield base


def test_a_person_joins_a_swiss_of_bots_and_plays_it_to_the_end(
    server: str, browser: Browser
) -> None:
    organiser = browser.new_context()
    person = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        org = organiser.new_page()
        org.goto(f"{server}/tournaments")
        r = org.request.post(
            f"{server}/api/auth/register",
            data={"username": "organiser", "password": "longenough"},
            headers={"origin": server},
        )
        assert r.ok, r.text()
        # The create form, as a person fills it.
        org.goto(f"{server}/tournaments")
        org.fill("#tournament-form [name=name]", "Evening Swiss")
        org.select_option("#tournament-form [name=game]", "stack-a-cash")
        org.fill("#tournament-form [name=rounds]", "2")
        org.uncheck("#tournament-form [name=timed]")
        org.fill("#tournament-form [name=starts_in_min]", "60")
        org.click("#tournament-form button")
        org.wait_for_url("**/t/*")
        tid = org.url.rsplit("/", 1)[1]
        org.select_option("#bots-form [name=level]", "random")
        org.fill("#bots-form [name=count]", "3")
        org.click("#bots-form button")
        org.wait_for_function("() => document.querySelectorAll('#standings tbody tr').length === 3")

        page = person.new_page()
        errors = watch_errors(page)
        page.goto(f"{server}/t/{tid}")
        page.click("[data-action=join]")
        page.wait_for_selector("[data-action=withdraw]")
        assert page.locator("#standings tbody tr").count() == 4
        org.click("[data-action=start]")

        for round_ in (1, 2):  # four players, two rounds: no bye
            # The page hears that the round is paired and says the game has started.
            page.wait_for_selector("#your-game", timeout=30_000)
            page.click("#your-game a")
            page.wait_for_url("**/g/*")
            final = play_to_the_end(page, seed=round_)
            assert final["status"] == "finished"
            page.goto(f"{server}/t/{tid}")
            if round_ == 1:
                page.wait_for_function(
                    "() => document.querySelectorAll('.round').length === 2 || "
                    "document.getElementById('your-game')",
                    timeout=30_000,
                )
        # The page reloads itself when the tournament ends: what follows reads the new page.
        page.wait_for_selector("#tournament-status[data-status=finished]", timeout=60_000)
        page.wait_for_load_state("load")
        assert page.is_visible("text=Final standings")
        rows = page.locator("#standings tbody tr")
        assert rows.count() == 4
        assert page.locator(".round").count() == 2
        # Each board links its game; the person's own row is marked.
        assert page.locator(".pairings a[href^='/g/']").count() == 4
        assert page.locator("#standings tr.you").count() == 1
        assert errors == []
    finally:
        organiser.close()
        person.close()
