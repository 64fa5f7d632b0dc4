"""Table chat in a real headless Chromium: two players talk (an account in free text, a guest
in quick phrases) while a spectator talks in the spectators' room and cannot write in the
players'; mute and the off switch are remembered; the replay shows the players' chat."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from .axe import axe_violations, describe
from .conftest import make_settings
from .site_pages import friend_game, running

pytestmark = pytest.mark.browser

SHOTS = os.environ.get("POCKETARENA_CHAT_SHOTS")  # a folder: save the screenshots there


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("arena")))) as base:
        yield base


def log_texts(page: Page) -> list[str]:
    texts = page.eval_on_selector_all(
        "#chat-log li:not([hidden]) .chat-text", "els => els.map(e => e.textContent)"
    )
    return [str(t) for t in texts]


def no_horizontal_scroll(page: Page) -> bool:
    return bool(
        page.evaluate(
            "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
        )
    )


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.locator("#chat").scroll_into_view_if_needed()
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def test_two_players_chat_while_a_spectator_cannot_write_in_their_room(
    server: str, browser: Browser
) -> None:
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    contexts.append(browser.new_context(viewport={"width": 390, "height": 844}))
    try:
        alice, bob, carol = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (alice, bob, carol):
            p.on("pageerror", lambda e: errors.append(str(e)))
        alice.goto(f"{server}/")
        r = alice.request.post(
            f"{server}/api/auth/register",
            data={"username": "alicechat", "password": "longenough"},
            headers={"origin": server},
        )
        assert r.ok, r.text()
        gid = friend_game(server, alice, bob)
        carol.goto(f"{server}/g/{gid}")

        # The account writes free text; it arrives as text, never as markup.
        alice.wait_for_selector("#chat-form:not([hidden])")
        assert alice.inner_text("#chat-title") == "Players' chat"
        alice.fill("#chat-input", "<b>hi</b> Bob, good luck")
        alice.press("#chat-input", "Enter")
        bob.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
        assert log_texts(bob) == ["<b>hi</b> Bob, good luck"]
        assert bob.locator("#chat-log b").count() == 0
        assert alice.input_value("#chat-input") == ""

        # The guest has quick phrases only.
        assert bob.is_hidden("#chat-form") and bob.is_visible("#chat-quick")
        bob.get_by_role("button", name="Thanks", exact=True).click()
        alice.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 2")
        assert log_texts(alice) == ["<b>hi</b> Bob, good luck", "Thanks"]

        # The spectator is in the spectators' room: the players' messages never show there,
        # and the server refuses a message for the players' room.
        carol.wait_for_selector("#chat-quick:not([hidden])")
        assert carol.inner_text("#chat-title") == "Spectators' chat"
        assert log_texts(carol) == []
        refused = carol.evaluate(
            """async (gid) => {
                const r = await fetch(`/api/games/${gid}/chat`, {method: "POST",
                    headers: {"content-type": "application/json"},
                    body: JSON.stringify({room: "players", text: "Good luck"})});
                return [r.status, (await r.json()).detail];
            }""",
            gid,
        )
        assert refused[0] == 403 and "players" in refused[1]
        carol.get_by_role("button", name="Well played", exact=True).click()
        carol.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 1")
        assert log_texts(carol) == ["Well played"]
        assert no_horizontal_scroll(carol)
        shot(carol, "chat-spectator-phone")
        # Another players' message arrives after the spectator's: the players still have two
        # before it, so the spectator's never reached them.
        bob.get_by_role("button", name="Good game", exact=True).click()
        alice.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 3")
        assert log_texts(alice)[-1] == "Good game" and "Well played" not in log_texts(alice)
        assert log_texts(carol) == ["Well played"]
        shot(alice, "chat-player-desktop")
        for page in (alice, carol):  # the panel with messages, mute buttons and the form
            violations = axe_violations(page)
            assert not violations, describe(violations)

        # Mute, kept across a reload; the keyboard reaches the mute button.
        bob.locator("#chat-log li").first.get_by_role("button", name="Mute").focus()
        bob.keyboard.press("Enter")
        assert log_texts(bob) == ["Thanks", "Good game"]
        bob.reload()
        bob.wait_for_selector("#chat-muted:not([hidden])")
        assert log_texts(bob) == ["Thanks", "Good game"]
        bob.get_by_role("button", name="Unmute").click()
        assert len(log_texts(bob)) == 3

        # The off switch hides the chat and is remembered.
        carol.click("#chat-toggle")
        assert carol.is_hidden("#chat-body")
        carol.reload()
        carol.wait_for_selector("#chat-toggle[aria-pressed=true]")
        assert carol.is_hidden("#chat-body")

        alice.set_viewport_size({"width": 390, "height": 844})  # the text box fits a phone
        assert alice.is_visible("#chat-input") and no_horizontal_scroll(alice)
        alice.set_viewport_size({"width": 1280, "height": 800})

        # The replay shows the players their chat.
        alice.on("dialog", lambda d: d.accept())
        alice.click("#resign-btn")
        alice.wait_for_selector("#summary:not([hidden])")
        alice.goto(f"{server}/g/{gid}/replay")
        alice.wait_for_function("() => document.querySelectorAll('#chat-log li').length === 3")
        assert log_texts(alice) == ["<b>hi</b> Bob, good luck", "Thanks", "Good game"]
        assert alice.is_hidden("#chat-form") and alice.is_hidden("#chat-quick")
        shot(alice, "chat-replay-desktop")
        assert errors == []
    finally:
        for c in contexts:
            c.close()
