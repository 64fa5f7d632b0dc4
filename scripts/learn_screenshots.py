"""The puzzle and lesson screenshots of docs/study.md, from a running server:

    pocketarena serve --port 8000 &
    python scripts/learn_screenshots.py http://127.0.0.1:8000

Answers a Stack-a-Cash puzzle right at 1280x800 and a FlipWars one wrong at 390x844, plays a
wrong move in the second step of the Stack-a-Cash (1280x800) and Coin Age (390x844) lessons,
and writes small PNGs (128 colours, as scripts/study_screenshots.py does) into docs/img/study/.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from study_screenshots import OUT, save  # noqa: E402

from pocketarena import puzzles  # noqa: E402
from pocketarena.lessons import LESSONS, accepted, position  # noqa: E402


def puzzle(browser: Browser, base: str, game: str, size: tuple[int, int], right: bool) -> None:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(f"{base}/puzzles?game={game}")
    page.wait_for_selector("#puzzles[data-puzzle] #pz-choices button[data-move]")
    pid = page.get_attribute("#puzzles", "data-puzzle")
    assert pid
    answer = puzzles.by_id()[pid].answer
    moves = page.eval_on_selector_all(
        "#pz-choices button[data-move]", "ns => ns.map(n => n.dataset.move)"
    )
    move = answer if right else next(m for m in moves if m != answer)
    page.fill("#pz-move", move)
    page.press("#pz-move", "Enter")
    page.wait_for_selector("#pz-feedback:not([hidden])")
    save(page, "puzzle-right" if right else "puzzle-phone")
    ctx.close()


def lesson(browser: Browser, base: str, game: str, size: tuple[int, int], name: str) -> None:
    """A lesson's second step answered wrong: the verdict names what the step asks."""
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = ctx.new_page()
    page.goto(f"{base}/learn/{game}")
    page.wait_for_selector("#ln-choices button[data-move]")
    page.click("#ln-steps li:nth-child(2) button")
    page.wait_for_selector('#lesson[data-step="1"] #ln-choices button[data-move]')
    step = LESSONS[game][1]
    state = position(game, step)
    wrong = next(a.text for a in state.legal_actions() if not accepted(state, step, state.child(a)))
    page.fill("#ln-move", wrong)
    page.press("#ln-move", "Enter")
    page.wait_for_selector("#ln-feedback:not([hidden])")
    save(page, name)
    ctx.close()


def main(base: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("POCKETARENA_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        puzzle(browser, base, "stack-a-cash", (1280, 800), right=True)
        puzzle(browser, base, "flipwars", (390, 844), right=False)
        lesson(browser, base, "stack-a-cash", (1280, 800), "lesson-stack-a-cash")
        lesson(browser, base, "coin-age", (390, 844), "lesson-phone")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
