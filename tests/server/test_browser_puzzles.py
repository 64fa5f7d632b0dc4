"""The puzzles page in a real headless Chromium: a puzzle solved right (green, the streak
grows, the rating rises), the next one answered wrong (red, the answer named, the streak
reset), a move played by clicking the board, and the page at phone size."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from pocketarena import puzzles
from pocketarena.explore import explore

from .test_browser import context, server, watch_errors  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser


def current(page: Page) -> puzzles.Puzzle:
    page.wait_for_selector("#puzzles[data-puzzle] #pz-choices button")
    pid = page.get_attribute("#puzzles", "data-puzzle")
    assert pid
    return puzzles.by_id()[pid]


def feedback(page: Page) -> str:
    page.wait_for_selector("#pz-feedback:not([hidden])")
    return page.inner_text("#pz-feedback")


def test_solving_a_puzzle_right_then_wrong(server: str, context: BrowserContext) -> None:  # noqa: F811
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}/puzzles?game=stack-a-cash")
    p = current(page)
    assert page.inner_text("#pz-goal") == str(p.goal())
    assert page.inner_text("#pz-rating") == "1500?"
    # Right: typed in, judged by the solver.
    page.fill("#pz-move", p.answer)
    page.press("#pz-move", "Enter")
    assert feedback(page).startswith(f"Right: {p.answer}")
    assert page.get_attribute("#pz-feedback", "data-result") == "right"
    colour = page.eval_on_selector("#pz-feedback", "n => getComputedStyle(n).backgroundColor")
    red, green, blue = (int(x) for x in colour.removeprefix("rgb(").rstrip(")").split(","))
    assert green > red and green > blue, colour  # the "right" green (the theme sets its shade)
    assert page.inner_text("#pz-streak") == "1"
    assert page.inner_text("#pz-change").strip().startswith("+")
    assert page.inner_text("#pz-solved") == "1/1"
    # Next, wrong: a clicked move from the list that is not the answer.
    page.click("#pz-next")
    page.wait_for_function(
        "id => document.querySelector('#puzzles').dataset.puzzle !== id", arg=p.id
    )
    q = current(page)
    wrong = next(m.move for m in explore(puzzles.position(q)) if m.move != q.answer)
    page.click(f'#pz-choices button[data-move="{wrong}"]')
    text = feedback(page)
    assert text.startswith(f"Not this one: {wrong}") and q.answer in text
    assert page.get_attribute("#pz-feedback", "data-result") == "wrong"
    assert page.inner_text("#pz-streak") == "0" and page.inner_text("#pz-best") == "1"
    assert page.inner_text("#pz-solved") == "1/2"
    assert page.is_disabled(f'#pz-choices button[data-move="{q.answer}"]')
    href = page.get_attribute("#pz-analyse", "href")
    assert href and href.startswith("/analysis?game_id=stack-a-cash")
    # An illegal typed move is refused in words and the puzzle stays open.
    page.click("#pz-next")
    page.wait_for_function(
        "id => document.querySelector('#puzzles').dataset.puzzle !== id", arg=q.id
    )
    current(page)
    page.fill("#pz-move", "place Q z9")
    page.press("#pz-move", "Enter")
    assert "cannot be played here" in feedback(page)
    assert page.get_attribute("#pz-feedback", "data-result") == "error"
    assert not page.is_disabled("#pz-move")
    assert errors == []


def test_clicking_the_board_narrows_and_plays(server: str, browser: Browser) -> None:  # noqa: F811
    phone = browser.new_context(viewport={"width": 390, "height": 844})
    page = phone.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}/puzzles?game=flipwars")
    p = current(page)
    # A FlipWars placement names a tile, a cell and a rotation: clicking the answer's cell
    # keeps only the placements there.
    cell = next(w for w in p.answer.split() if w[0].isalpha() and w[1:].isdigit())
    page.click(f'#board [data-place="{cell}"]')
    moves = page.eval_on_selector_all(
        "#pz-choices button[data-move]", "ns => ns.map(n => n.dataset.move)"
    )
    assert moves and all(cell in m.split() for m in moves) and p.answer in moves
    if len(moves) > 1:
        page.click(f'#pz-choices button[data-move="{p.answer}"]')
    assert feedback(page).startswith("Right:")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    assert errors == []
    phone.close()
