"""The account page's notifications in Chromium, on a phone and a laptop: an address given
(the verification email arrives at a real SMTP server), a channel switched and still switched
after a reload, push offered on this browser (a service worker registered at the site's root);
no sideways scroll, no serious axe finding."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import running
from .test_browser_gestures import register
from .test_delivery import Inbox, smtp_server

pytestmark = pytest.mark.browser
SHOTS = Path(os.environ.get("POCKETARENA_SHOTS", "/tmp/pocketarena-shots"))


@pytest.fixture(scope="module")
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_server() as found:
        yield found


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, inbox: tuple[Inbox, int]) -> Iterator[str]:
    settings = make_settings(
        Path(tmp_path_factory.mktemp("arena")), smtp_url=f"smtp://127.0.0.1:{inbox[1]}"
    )
    with running(settings) as base:
        yield base


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "laptop"])
def test_the_account_page_switches_notifications(
    server: str, browser: Browser, inbox: tuple[Inbox, int], size: tuple[int, int]
) -> None:
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        name = f"nina{size[0]}"
        register(page, server, name)
        page.goto(f"{server}/account")
        page.wait_for_selector("#push-btn:not([hidden])")  # the service worker is registered
        assert page.inner_text("#push-btn") == "Turn on push on this browser"
        scope = page.evaluate(
            "async () => (await navigator.serviceWorker.getRegistration('/')).scope"
        )
        assert scope == f"{server}/"
        # an address: the verification email is sent
        page.fill("#email-form input[name=email]", f"{name}@example.com")
        page.click("#email-form button[type=submit]")
        page.wait_for_function(
            "() => document.querySelector('#email-state').textContent.startsWith('Sent')"
        )
        (sent,) = inbox[0].wait(f"{name}@example.com", 1)
        assert "/email/verify?t=" in str(sent.get_body(("plain",)).get_content())  # type: ignore[union-attr]
        # a switch, kept
        box = '#notices-table tr[data-kind="followed_started"] input[data-channel="email"]'
        assert not page.is_checked(box)
        with page.expect_response("**/api/me/notices/channels") as answer:
            page.check(box)
        assert answer.value.ok
        page.reload()
        assert page.is_checked(box)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= size[0], f"the page is {width} px wide"
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.evaluate("() => window.scrollTo(0, 0)")
        page.screenshot(path=str(SHOTS / f"account-notices-{size[0]}.png"), full_page=True)
        found = axe_violations(page)
        assert not found, describe(found)
        assert not errors, errors
    finally:
        context.close()
