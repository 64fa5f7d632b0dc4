"""Studying on a phone (390x844) and a laptop (1280x800) in a real headless Chromium: the board's
rectangle measured after each step of a replay, a tap on the analysis graph, a move played on
the analysis board by tapping it, a lesson's verdict, and every board's text heights."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from pocketarena.lessons import LESSONS

from .test_browser import server, watch_errors  # noqa: F401  (fixtures)
from .test_browser_lessons import moves_for
from .test_browser_study import QUICK_WIN, finished_replay

pytestmark = pytest.mark.browser

SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
IDS = ["phone", "laptop"]
MIN_TEXT_PX = 12
Viewer = tuple[Page, list[str]]


@pytest.fixture
def viewer(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Viewer]:
    """A page of its own at the test's size (parametrized indirectly; a phone otherwise) and
    the script errors it meets, which each test finds none of at its end."""
    ctx = browser.new_context(viewport=getattr(request, "param", SIZES[0]))
    page = ctx.new_page()
    yield page, watch_errors(page)
    ctx.close()


def rect(page: Page, selector: str) -> dict[str, float]:
    found: dict[str, float] = page.eval_on_selector(
        selector,
        "n => { const r = n.getBoundingClientRect(); return {top: r.top, bottom: r.bottom,"
        " height: r.height, scroll: scrollY, inner: innerHeight} }",
    )
    return found


def header_bottom(page: Page) -> float:
    """Where the header ends on screen (0 when it has scrolled away)."""
    bottom: float = page.evaluate(
        "() => Math.max(0, document.querySelector('.topbar').getBoundingClientRect().bottom)"
    )
    return bottom


def assert_board_in_view(page: Page, where: str) -> dict[str, float]:
    """The whole board on screen, below the header."""
    r = rect(page, "#board svg")
    top = header_bottom(page)
    assert r["height"] > 150, (where, r)
    assert r["top"] >= top - 1 and r["bottom"] <= r["inner"] + 1, (where, r, top)
    return r


def played_out(page: Page, base: str, game: str, options: dict[str, Any], plies: int) -> str:
    """A local game of random legal moves (throws when a throw is due), resigned if still on."""
    page.goto(f"{base}/")
    r = page.request.post(
        f"{base}/api/games", data={"game": game, "options": options, "mode": "local"}
    )
    assert r.ok, r.text()
    gid: str = r.json()["id"]
    rng = random.Random(3)
    for _ in range(plies):
        view = page.request.get(f"{base}/api/games/{gid}?svg=false").json()
        if view["status"] != "active":
            break
        if not view["legal"]:
            page.request.post(f"{base}/api/games/{gid}/throw", data={"version": view["version"]})
            continue
        move = rng.choice(view["legal"])["text"]
        page.request.post(
            f"{base}/api/games/{gid}/moves", data={"action": move, "version": view["version"]}
        )
    if page.request.get(f"{base}/api/games/{gid}?svg=false").json()["status"] == "active":
        assert page.request.post(f"{base}/api/games/{gid}/resign").ok
    return gid


@pytest.mark.parametrize("viewer", SIZES, ids=IDS, indirect=True)
def test_stepping_a_replay_keeps_the_board_in_view(
    server: str,  # noqa: F811
    viewer: Viewer,
) -> None:
    page, errors = viewer
    gid = played_out(page, server, "coin-age", {}, 40)
    page.goto(f"{server}/g/{gid}/replay")
    page.wait_for_selector("#moves li.current")
    # The board is fetched after the list is drawn: on a busy machine that is a visible gap.
    page.wait_for_selector("#board svg")
    # It opens on the board, not on the move list.
    opened = assert_board_in_view(page, "opened")
    assert opened["scroll"] == 0
    page.click("#rp-start")
    for step in range(4):
        page.click("#rp-next")
        page.wait_for_function(
            f"() => document.querySelector('#board').dataset.ply === '{step + 1}'"
        )
        r = assert_board_in_view(page, f"next {step + 1}")
        assert r["scroll"] == 0  # the page did not move; the list did
    # The reader scrolls down to the list and taps moves: the board stays on screen.
    for ply in (12, 13, 6):
        page.locator(f'#moves li[data-ply="{ply}"]').click()
        page.wait_for_function(f"() => document.querySelector('#board').dataset.ply === '{ply}'")
        assert_board_in_view(page, f"move {ply}")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '7'")
    assert_board_in_view(page, "arrow key")
    assert errors == []


@pytest.mark.parametrize("viewer", SIZES, ids=IDS, indirect=True)
def test_a_graph_dot_moves_the_board_not_the_page(
    server: str,  # noqa: F811
    viewer: Viewer,
) -> None:
    page, errors = viewer
    finished_replay(page, server)
    page.click("#ga-start")
    page.wait_for_selector("#ga-graph circle")
    # The reader scrolls the graph up to just under the board (which stays), then taps the dot
    # of move 2 (a blunder): the replay goes there, the page stays.
    page.evaluate(
        "() => { const g = document.querySelector('#ga-graph').getBoundingClientRect();"
        " const b = document.querySelector('#replay .board-col').getBoundingClientRect();"
        " const floor = Math.max(b.bottom, document.querySelector('.topbar').getBoundingClientRect().bottom);"
        " scrollBy(0, g.top - floor - 12); }"
    )
    before = page.evaluate("scrollY")
    dot = page.locator('#ga-graph circle[data-ply="2"]').bounding_box()
    assert dot is not None
    x, y = dot["x"] + dot["width"] / 2, dot["y"] + dot["height"] / 2
    # The dot is what a tap there reaches: not covered by the board.
    assert page.evaluate(f"document.elementFromPoint({x}, {y})?.dataset?.ply") == "2"
    page.mouse.click(x, y)
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '2'")
    assert page.evaluate("scrollY") == before
    assert_board_in_view(page, "graph dot")
    # The graph's scale is said under it.
    assert "expected score of Heads" in page.inner_text("#ga-scale")
    assert len(QUICK_WIN) == 5 and errors == []


@pytest.mark.parametrize("viewer", SIZES, ids=IDS, indirect=True)
def test_the_analysis_board_takes_moves_by_tapping_the_board(
    server: str,  # noqa: F811
    viewer: Viewer,
) -> None:
    page, errors = viewer
    page.goto(f"{server}/analysis?game_id=stack-a-cash&moves=place L a1")
    page.wait_for_selector("#an-eval-card[data-state=done]", timeout=30_000)
    assert_board_in_view(page, "opened")
    # A cell first: the moves there are offered; then the coin: the one move left is played.
    page.click('#board [data-place="b2"]')
    offered = page.eval_on_selector_all(
        "#an-choices button[data-move]", "ns => ns.map(n => n.dataset.move)"
    )
    assert offered and all("b2" in m.split() for m in offered)
    assert page.locator('#board [data-place="b2"].pz-selected').count() == 1
    page.click('#board [data-size="S"]')
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '2'")
    assert page.locator("#an-history li[data-ply]").all_inner_texts()[-1] == "place S b2"
    assert parse_qs(urlparse(page.url).query)["moves"] == ["place L a1; place S b2"]
    assert_board_in_view(page, "after the move")
    assert errors == []


@pytest.mark.parametrize("viewer", SIZES, ids=IDS, indirect=True)
def test_a_lessons_verdict_appears_where_the_player_looks(
    server: str,  # noqa: F811
    viewer: Viewer,
) -> None:
    game_id = "stack-a-cash"
    page, errors = viewer
    page.goto(f"{server}/learn/{game_id}")
    n = next(i for i in range(len(LESSONS[game_id])) if moves_for(game_id, i)[1] is not None)
    if n:
        page.click(f"#ln-steps li:nth-child({n + 1}) button")
    page.wait_for_selector(f'#lesson[data-step="{n}"] #ln-choices button[data-move]')
    _right, wrong = moves_for(game_id, n)
    page.click(f'#ln-choices button[data-move="{wrong}"]')
    page.wait_for_selector("#ln-feedback:not([hidden])")
    page.wait_for_timeout(300)  # a smooth scroll, if any, has ended
    for selector in ("#ln-feedback", "#ln-retry"):
        r = rect(page, selector)
        assert r["top"] >= header_bottom(page) - 1 and r["bottom"] <= r["inner"] + 1, (selector, r)
    assert page.get_attribute("#ln-feedback", "data-result") == "wrong"
    # The verdict sits right under the board.
    board, box = rect(page, ".board-wrap"), rect(page, "#ln-verdict")
    assert 0 <= box["top"] - board["bottom"] < 80
    assert errors == []


def text_heights(page: Page) -> list[float]:
    heights: list[float] = page.eval_on_selector_all(
        "#board svg text",
        "ns => ns.filter(n => n.textContent.trim()).map(n => n.getBoundingClientRect().height)"
        ".filter(h => h > 0)",
    )
    return heights


@pytest.mark.parametrize(
    "game, options",
    [("coin-age", {}), ("flipwars", {"mode": "standard"}), ("wallet-battles", {})],
)
def test_a_tap_makes_every_boards_text_readable_on_a_phone(
    server: str,  # noqa: F811
    viewer: Viewer,
    game: str,
    options: dict[str, Any],
) -> None:
    page, errors = viewer
    gid = played_out(page, server, game, options, 12)
    for url in (f"/g/{gid}/replay", f"/analysis?game={gid}&ply=6"):
        page.goto(f"{server}{url}")
        page.wait_for_selector("#board svg text")
        small = min(text_heights(page))
        button = page.locator(".board-wrap .board-zoom")
        if small >= MIN_TEXT_PX:
            continue
        assert button.is_visible(), (url, small)
        button.click()
        page.wait_for_selector(".board-wrap.zoomed")
        assert min(text_heights(page)) >= MIN_TEXT_PX, (url, sorted(text_heights(page))[:5])
        # Another tap gives the board back its size.
        button.click()
        page.wait_for_selector(".board-wrap:not(.zoomed)")
        assert min(text_heights(page)) == pytest.approx(small, abs=0.5)
    assert errors == []


def test_the_page_says_where_the_analysis_is_rough(server: str, viewer: Viewer) -> None:  # noqa: F811
    """Wallet Battles' analysis measured short of its goals (docs/study.md): the page says so."""
    page, errors = viewer
    coins = {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}
    gid = played_out(page, server, "wallet-battles", coins, 6)
    page.goto(f"{server}/g/{gid}/replay")
    page.click("#ga-start")
    page.wait_for_selector("#ga-rough", timeout=60_000)
    assert "rough" in page.inner_text("#ga-rough")
    assert "expected score of" in page.inner_text("#ga-scale")
    assert errors == []
