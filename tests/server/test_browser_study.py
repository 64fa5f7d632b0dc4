"""The study pages in a real headless Chromium: a finished game's analysis with its graph, the
analysis board opened from a game's position and set up by hand, the explorer's exact values on
the Stack-a-Cash opening."""

from __future__ import annotations

from urllib.parse import parse_qs, urlparse

import pytest
from playwright.sync_api import BrowserContext, Page

import pocketarena as pa
from pocketarena.explore import explore

from .test_browser import context, server, watch_errors  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# Heads wins on the fifth ply; the first two moves throw away a win and a draw (two blunders).
QUICK_WIN = ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]


def finished_game(page: Page, base: str) -> str:
    """A Stack-a-Cash game played to its end on one screen, by this browser's player."""
    page.goto(f"{base}/")
    r = page.request.post(
        f"{base}/api/games", data={"game": "stack-a-cash", "options": {}, "mode": "local"}
    )
    assert r.ok, r.text()
    gid: str = r.json()["id"]
    for version, move in enumerate(QUICK_WIN):
        moved = page.request.post(
            f"{base}/api/games/{gid}/moves", data={"action": move, "version": version}
        )
        assert moved.ok, moved.text()
    return gid


def finished_replay(page: Page, base: str) -> str:
    """The replay of a game ``finished_game`` played, open on this page."""
    gid = finished_game(page, base)
    page.goto(f"{base}/g/{gid}/replay")
    return gid


def wait_evaluated(page: Page) -> None:
    page.wait_for_selector("#an-eval-card[data-state=done]", timeout=30_000)


def open_board(browsing: BrowserContext, url: str) -> tuple[Page, list[str]]:
    """The analysis board at ``url``, evaluated, with its page errors collected."""
    page = browsing.new_page()
    errors = watch_errors(page)
    page.goto(url)
    wait_evaluated(page)
    return page, errors


def test_game_analysis_with_its_graph(context: BrowserContext, server: str) -> None:  # noqa: F811
    page = context.new_page()
    errors = watch_errors(page)
    gid = finished_replay(page, server)
    page.click("#ga-start")
    page.wait_for_selector("#ga-graph", timeout=30_000)
    # Two blunders, marked on their moves with the better move, and as dots on the graph.
    assert page.locator("#moves .ga-mark.blunder").count() == 2
    assert page.locator('#moves li[data-ply="2"] .ga-mark').inner_text() == "??"
    # The better move with its own value; apart, what the played move gave away.
    better = page.locator('#moves li[data-ply="2"] .ga-better').inner_text()
    assert "better: place L b2 (a draw)" in better and "gave away 0.50" in better
    better = page.locator('#moves li[data-ply="1"] .ga-better').inner_text()
    assert "(Heads wins in 15)" in better and "gave away 0.50" in better
    assert page.locator("#ga-graph circle.ga-blunder").count() == 2
    assert (page.locator("#ga-graph path.ga-line").get_attribute("d") or "").count("L") == len(
        QUICK_WIN
    )
    summary = page.locator(".ga-summary").inner_text()
    assert "Heads: 0 ?! · 0 ? · 1 ??" in summary
    result = page.locator("#ga-result").inner_text()
    assert "Exact, from the solved game" in result
    # One scale, said in one line under the graph.
    assert "the expected score of Heads" in page.locator("#ga-scale").inner_text()
    # A dot on the graph takes the replay to that move, and the board link follows it.
    page.locator('#ga-graph circle[data-ply="2"]').click()
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '2'")
    assert page.get_attribute("#ga-board-link", "href") == f"/analysis?game={gid}&ply=2"
    # Stored: a reload shows it without asking again.
    page.reload()
    page.wait_for_selector("#ga-graph", timeout=10_000)
    assert errors == []


def test_analysis_board_from_a_game_position(context: BrowserContext, server: str) -> None:  # noqa: F811
    page = context.new_page()
    errors = watch_errors(page)
    finished_replay(page, server)
    page.click('#moves li[data-ply="3"]')
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '3'")
    page.click("#ga-board-link")
    page.wait_for_url("**/analysis?**")
    wait_evaluated(page)
    assert page.locator("#an-history li[data-ply]").count() == 3
    state = pa.load("stack-a-cash").new_initial_state()
    for move in QUICK_WIN[:3]:
        state.apply(move)
    best = explore(state)[0]  # Tails to move, lost: the slowest loss
    assert best.value == -1
    assert (
        page.locator("#an-eval").inner_text() == f"Heads wins in {best.plies} plies with best play"
    )
    # Play the best move from the explorer: the board, the line and the link follow.
    page.locator(f'#an-explorer tr[data-move="{best.move}"]').click()
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '4'")
    wait_evaluated(page)
    query = parse_qs(urlparse(page.url).query)
    assert query["game_id"] == ["stack-a-cash"]
    assert query["moves"] == ["; ".join([*QUICK_WIN[:3], best.move])]
    assert (
        page.locator("#an-eval").inner_text()
        == f"Heads wins in {(best.plies or 0) - 1} plies with best play"
    )
    # The link is the position: opened afresh, it shows the same board.
    board = page.inner_html("#board")
    fresh, _ = open_board(context, page.url)
    assert fresh.inner_html("#board") == board
    # Take a move back and forward.
    page.click("#an-back")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '3'")
    assert errors == []


def test_analysis_board_set_up_by_hand(context: BrowserContext, server: str) -> None:  # noqa: F811
    page, errors = open_board(context, f"{server}/analysis")
    page.select_option("#an-game", "stack-a-cash")
    page.select_option('#an-options select[name="protect"]', "placed")
    page.fill("#an-setup-moves", "place L b2; place M a1")
    page.click("#an-setup button[type=submit]")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '2'")
    wait_evaluated(page)
    assert '"protect":"placed"' in parse_qs(urlparse(page.url).query)["options"][0].replace(" ", "")
    state = pa.load("stack-a-cash", protect="placed").new_initial_state()
    for move in ["place L b2", "place M a1"]:
        state.apply(move)
    rows = page.locator("#an-explorer tbody tr")
    assert rows.count() == len(state.legal_actions())
    # A move that is not legal is refused in words and changes nothing.
    page.fill("#an-move", "place L b9")
    page.click("#an-type button")
    page.wait_for_selector("#an-error:not([hidden])")
    assert "b9" in page.inner_text("#an-error")
    assert page.get_attribute("#board", "data-ply") == "2"
    # A chance game: choose a throw, or draw one; then its moves are offered.
    page.select_option("#an-game", "coin-age")
    page.fill("#an-setup-moves", "")
    page.click("#an-setup button[type=submit]")
    page.wait_for_selector("#an-draw")
    wait_evaluated(page)
    assert "expectations over the throws" in page.inner_text("#an-method")
    page.click("#an-draw")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '1'")
    # The drawn throw usually leaves Heads moves to make; all four tails (1 in 16) pass the turn
    # to Tails' slap, another throw to choose or draw.
    page.wait_for_function(
        "() => window.paAnalysis.report.ply === 1 && (window.paAnalysis.report.legal.length > 0"
        " || window.paAnalysis.report.throws.length > 0)"
    )
    if page.evaluate("() => window.paAnalysis.report.legal.length") > 0:
        assert page.is_visible("#an-move")
    else:
        assert page.is_visible("#an-draw")
    assert errors == []


def test_explorer_values_on_the_stack_a_cash_opening(context: BrowserContext, server: str) -> None:  # noqa: F811
    page, errors = open_board(context, f"{server}/analysis?game_id=stack-a-cash")
    assert page.inner_text("#an-eval") == "Heads wins in 15 plies with best play"
    shown = [
        (row.get_attribute("data-move"), row.locator(".an-result").inner_text())
        for row in page.locator("#an-explorer tbody tr").all()
    ]
    opening = pa.load("stack-a-cash").new_initial_state()
    assert shown == [(m.move, m.describe()) for m in explore(opening)]
    # In words, not colour alone (the arrows come from the style sheet).
    assert [result for _, result in shown[:6]] == ["win in 15"] * 5 + ["draw"]
    assert {move for move, _ in shown[:5]} == {
        "place M a1",
        "place M c1",
        "place M b2",
        "place M a3",
        "place M c3",
    }
    assert errors == []


def test_analysis_board_from_a_pasted_record(context: BrowserContext, server: str) -> None:  # noqa: F811
    page, errors = open_board(context, f"{server}/analysis")
    gid = finished_game(page, server)
    record = page.request.get(f"{server}/api/games/{gid}/record?format=text").text()
    page.goto(f"{server}/analysis")
    wait_evaluated(page)
    page.fill("#an-record-text", "not a record")
    page.click("#an-record button[type=submit]")
    page.wait_for_selector("#an-error:not([hidden])")
    assert "not a readable record" in page.inner_text("#an-error")
    page.fill("#an-record-text", record)
    page.click("#an-record button[type=submit]")
    page.wait_for_function(
        f"() => document.querySelector('#board').dataset.ply === '{len(QUICK_WIN)}'"
    )
    wait_evaluated(page)
    assert page.inner_text("#an-eval").startswith("Heads won")
    assert "The game is over here" in page.inner_text("#an-choices")
    page.click("#an-back")
    page.wait_for_function("() => document.querySelector('#board').dataset.ply === '4'")
    wait_evaluated(page)
    assert page.inner_text("#an-eval") == "Heads wins in 1 ply with best play"
    assert errors == []


def test_game_analysis_names_the_seats_in_the_readers_language(
    context: BrowserContext,  # noqa: F811
    server: str,  # noqa: F811
) -> None:
    """The analysis is stored with the seats' names as the game gives them (English); the
    page words them in the reader's language: the scale, the summary, the better moves."""
    assert context.browser is not None
    french = context.browser.new_context(viewport={"width": 1100, "height": 900}, locale="fr-FR")
    page = french.new_page()
    errors = watch_errors(page)
    finished_replay(page, server)
    page.click("#ga-start")
    page.wait_for_selector("#ga-graph", timeout=30_000)
    summary = page.locator(".ga-summary").inner_text()
    scale = page.locator("#ga-scale").inner_text()
    better = page.locator('#moves li[data-ply="1"] .ga-better').inner_text()
    titles = " ".join(
        page.eval_on_selector_all("#ga-graph title", "ns => ns.map((n) => n.textContent)")
    )
    for text in (summary, scale, better, titles):
        assert "Heads" not in text and "Tails" not in text, text
    assert "Face" in summary and "Pile" in summary and "Face" in scale and "Face" in better
    assert errors == []
    french.close()
