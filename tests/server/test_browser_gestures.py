"""The gestures between two people in two browsers, a third watching: the spectator count, a
takeback asked and agreed, a draw offered and declined then offered and accepted, the rematch
offer seen as an offer, an abort; a turn-based game's deadline and the "your turn" badge;
the "thinking…" cue while a bot thinks."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .conftest import make_settings
from .site_pages import friend_game, running

SHOTS = Path(os.environ.get("POCKETARENA_SHOTS", "/tmp/pocketarena-shots"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # The bot takes its time, so the "thinking…" cue can be seen.
    settings = make_settings(Path(tmp_path_factory.mktemp("arena")), bot_min_delay_ms=2500)
    with running(settings) as base:
        yield base


def view(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate("() => ({...window.paGame.view})")
    return data


def send_move(page: Page) -> None:
    """This player's first legal move, through the page's own socket."""
    v = view(page)
    page.evaluate(
        "([text, version]) => window.paGame.live.send("
        "{type: 'move', game: window.paGame.id, action: text, version})",
        [page.evaluate("() => window.paGame.view.legal[0].text"), v["version"]],
    )
    page.wait_for_function("v => window.paGame.view.version > v", arg=v["version"])


def at_version(pages: list[Page], version: int) -> None:
    for page in pages:
        page.wait_for_function("v => window.paGame.view.version >= v", arg=version)


def test_gestures_between_two_browsers_with_a_spectator(server: str, browser: Browser) -> None:
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(3)]
    try:
        alice, bob, carol = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (alice, bob, carol):
            p.on("pageerror", lambda e: errors.append(str(e)))
        gid = friend_game(server, alice, bob)
        carol.goto(f"{server}/g/{gid}")
        alice.wait_for_selector("#spectators:not([hidden])")
        assert alice.inner_text("#spectators") == "1 spectator watching"
        # Before each side has moved either player may abort; a spectator has no buttons.
        assert alice.is_visible("#abort-btn") and bob.is_visible("#abort-btn")
        assert carol.is_hidden("#abort-btn") and carol.is_hidden("#draw-btn")
        assert alice.is_hidden("#takeback-btn")  # nothing to take back yet

        # A takeback: Alice moves, asks; Bob and Carol see the request at once; Bob agrees.
        send_move(alice)
        alice.click("#takeback-btn")
        bob.wait_for_selector("[data-offer=takeback] [data-answer=accept]")
        carol.wait_for_selector("[data-offer=takeback]")
        assert "asks to take back" in carol.inner_text("[data-offer=takeback]")
        assert carol.locator("[data-offer=takeback] button").count() == 0
        assert "waiting for the answer" in alice.inner_text("[data-offer=takeback]")
        version = view(bob)["version"]
        bob.click("[data-offer=takeback] [data-answer=accept]")
        at_version([alice, bob, carol], version + 1)
        for page in (alice, bob, carol):
            assert view(page)["plies"] == 0
            assert page.locator("#moves li").count() == 0
            assert page.locator("[data-offer]").count() == 0

        # Both move: no abort now. A draw offered and declined, then offered and accepted.
        send_move(alice)
        bob.wait_for_function("() => window.paGame.view.to_move === 1")
        send_move(bob)
        alice.wait_for_function("() => window.paGame.view.abortable === false")
        assert alice.is_hidden("#abort-btn") and alice.is_visible("#resign-btn")
        alice.click("#draw-btn")
        bob.wait_for_selector("[data-offer=draw] [data-answer=decline]")
        carol.wait_for_selector("[data-offer=draw]")
        assert bob.inner_text("#draw-btn") == "Accept the draw"
        bob.click("[data-offer=draw] [data-answer=decline]")
        for page in (alice, bob, carol):
            page.wait_for_function("() => !document.querySelector('[data-offer=draw]')")
        bob.click("#draw-btn")
        alice.wait_for_selector("[data-offer=draw] [data-answer=accept]")
        alice.click("[data-offer=draw] [data-answer=accept]")
        for page in (alice, bob, carol):
            page.wait_for_selector("#summary:not([hidden])")
            assert page.inner_text("#summary h2").startswith("Draw by agreement")

        # The rematch offer reaches the other side as an offer.
        bob.click("#rematch-btn")
        alice.wait_for_selector("[data-offer=rematch]")
        assert "offers a rematch" in alice.inner_text("[data-offer=rematch]")
        assert alice.inner_text("#rematch-btn") == "Accept rematch"
        assert bob.inner_text("#rematch-btn") == "Rematch offered…"
        alice.click("#rematch-btn")
        for page in (alice, bob):
            page.wait_for_function(
                "gid => location.pathname !== '/g/' + gid && window.paGame?.view.status === 'active'",
                arg=gid,
            )
        # The rematch aborted before anyone moved: no result.
        alice.click("#abort-btn")
        for page in (alice, bob):
            page.wait_for_function("() => window.paGame.view.status === 'aborted'")
            assert "aborted" in page.inner_text("#status")
        assert errors == []
    finally:
        for c in contexts:
            c.close()


def test_a_bot_thinks_visibly_and_a_turn_based_deadline_shows(
    server: str, browser: Browser
) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900}, timezone_id="Asia/Tokyo")
    try:
        page = context.new_page()
        page.goto(f"{server}/new?game=stack-a-cash")
        page.check('input[name="mode"][value="bot"]', force=True)
        page.select_option("#bot", "random")
        page.check('input[name="seat"][value="0"]', force=True)
        # (centred first: the sticky Start bar covers the foot of the window)
        days = page.locator('input[name="clock"][value="days:3"]')
        days.evaluate("e => e.closest('label').scrollIntoView({block: 'center'})")
        days.check(force=True)
        page.click("#start")
        page.wait_for_url("**/g/*")
        page.wait_for_function("() => window.paGame?.view.status === 'active'")
        v = view(page)
        assert v["days_per_move"] == 3 and v["deadline"]
        assert "3 days per move" in page.inner_text("#game-meta")
        due = page.inner_text("[data-deadline]")
        assert due.startswith("move by ")
        # shown in the reader's time zone (Tokyo: UTC+9), not the server's
        hour = page.evaluate(
            "d => new Date(d).toLocaleString(undefined, {timeZone: 'Asia/Tokyo', hour: '2-digit'})",
            v["deadline"],
        )
        assert hour.split()[0] in due
        send_move(page)
        page.wait_for_selector("#status.thinking")
        assert "is thinking…" in page.inner_text("#status")
        page.wait_for_function("() => window.paGame.view.to_move === 0")
        assert page.is_hidden("#status.thinking") or "thinking" not in page.inner_text("#status")
        # every page's header lists the game awaiting the move, with the count
        page.goto(f"{server}/lobby")
        assert page.inner_text("#turns-count") == "1"
        page.click("#turns summary")
        page.click("#turns .turns-list a")
        page.wait_for_url("**/g/*")
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_the_thinking_cue_shows_to_the_player_and_a_spectator_in_their_words(
    server: str, browser: Browser, width: int, height: int
) -> None:
    """While the bot's move is pending, the player (English) and a spectator (French) both
    read that it is thinking, each in their own language; the cue goes when the move comes.
    Screenshots of both go to ``SHOTS``."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts = [
        browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        for locale in ("en-US", "fr-FR")
    ]
    try:
        player, spectator = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (player, spectator):
            p.on("pageerror", lambda e: errors.append(str(e)))
        player.goto(f"{server}/")
        body = {"game": "stack-a-cash", "mode": "bot", "bot": "random", "seat": 0}
        r = player.request.post(f"{server}/api/games", data=body)
        assert r.ok, r.text()
        gid = r.json()["id"]
        for page in (player, spectator):
            page.goto(f"{server}/g/{gid}")
            page.wait_for_function("() => window.paGame?.view.status === 'active'")
        assert "thinking" not in (player.get_attribute("#status", "class") or "")
        send_move(player)
        for page, words in ((player, "is thinking…"), (spectator, "réfléchit…")):
            page.wait_for_selector("#status.thinking")
            assert page.inner_text("#status").endswith(words), page.inner_text("#status")
        for page, who in ((player, "player"), (spectator, "spectator")):
            page.screenshot(path=str(SHOTS / f"thinking-{who}-{width}.png"))
        for page in (player, spectator):  # the bot's move arrives: the cue goes
            page.wait_for_function("() => window.paGame.view.to_move === 0")
            assert "thinking" not in (page.get_attribute("#status", "class") or "")
        assert player.inner_text("#status") == "Your turn"
        assert errors == []
    finally:
        for c in contexts:
            c.close()


def register(page: Page, server: str, name: str) -> str:
    page.goto(f"{server}/")
    r = page.request.post(
        f"{server}/api/auth/register", data={"username": name, "password": "longenough"}
    )
    assert r.ok, r.text()
    pid: str = page.request.get(f"{server}/api/me").json()["id"]
    return pid


def test_follow_and_challenge_by_name_in_two_browsers(server: str, browser: Browser) -> None:
    """Ann follows Dan and challenges him to a turn-based game from his page; Dan sees the
    challenge counted in every page's header, accepts it on his page, and both are in the
    game; Ann's page then shows Dan online and playing."""
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(2)]
    try:
        ann, dan = (c.new_page() for c in contexts)
        errors: list[str] = []
        for p in (ann, dan):
            p.on("pageerror", lambda e: errors.append(str(e)))
        register(ann, server, "annf")
        dan_id = register(dan, server, "danf")
        ann.goto(f"{server}/players/{dan_id}")
        ann.click("#follow-btn")
        ann.wait_for_function("() => document.querySelector('#follow-btn').dataset.on === 'true'")
        assert ann.inner_text("#follow-btn") == "Unfollow"
        ann.select_option("#challenge-form select[name=game]", "flipwars")
        ann.select_option("#challenge-form select[name=time]", "days:2")
        ann.select_option("#challenge-form select[name=seat]", "0")
        ann.click("#challenge-form button[type=submit]")
        ann.wait_for_selector("#challenge-sent:not([hidden])")
        dan.goto(f"{server}/lobby")
        assert dan.inner_text("#challenges-link .turns-count") == "1"
        # the bell rings too; opened, it lists the challenge and counts it read
        assert dan.inner_text("#bell-count") == "1"
        dan.click("#bell summary")
        dan.wait_for_selector("#bell-list [data-kind=challenge]")
        assert "annf challenges you" in dan.inner_text("#bell-list")
        dan.wait_for_selector("#bell-count", state="hidden")
        dan.click("#bell summary")
        dan.click("#challenges-link")
        dan.wait_for_selector("#challenges-in [data-answer=accept]")
        assert "From annf: FlipWars · 2 days per move" in dan.inner_text("#challenges-in")
        dan.click("#challenges-in [data-answer=accept]")
        dan.wait_for_url("**/g/*")
        dan.wait_for_function("() => window.paGame?.view.status === 'active'")
        gid = dan.url.rsplit("/", 1)[1]
        assert view(dan)["days_per_move"] == 2
        ann.goto(f"{server}/players/{ann.request.get(f'{server}/api/me').json()['id']}")
        ann.wait_for_selector(f"#following [data-follow='{dan_id}'] a[href='/g/{gid}']")
        assert "online" in ann.inner_text("#following")
        # Ann's move awaits: the header says so
        assert ann.inner_text("#turns-count") == "1"
        assert errors == []
    finally:
        for c in contexts:
            c.close()
