"""The screenshots of docs/study.md, from a running server:

    pocketarena serve --port 8000 &
    python scripts/study_screenshots.py http://127.0.0.1:8000

Plays a short Stack-a-Cash game on one screen, analyses it on the replay page, opens the
analysis board at the explorer's opening and at a Coin Age throw, and writes small PNGs (128
colours) into docs/img/study/. Chromium from $POCKETARENA_CHROMIUM or /usr/bin/chromium.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PIL import Image
from playwright.sync_api import Page, sync_playwright

OUT = Path(__file__).resolve().parents[1] / "docs" / "img" / "study"
QUICK_WIN = ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]


def save(page: Page, name: str, selector: str | None = None) -> None:
    path = OUT / f"{name}.png"
    page.add_style_tag(content=".topbar { position: static; }")  # not over an element shot
    page.evaluate("window.scrollTo(0, 0)")
    if selector:
        page.locator(selector).screenshot(path=path)
    else:
        page.screenshot(path=path)
    image = Image.open(path).convert("RGB")
    image.quantize(colors=128, method=Image.Quantize.FASTOCTREE).save(path, optimize=True)
    print(f"{path.relative_to(OUT.parents[2])}: {path.stat().st_size // 1024} kB")


def main(base: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    chromium = os.environ.get("POCKETARENA_CHROMIUM", "/usr/bin/chromium")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        wide = browser.new_page(viewport={"width": 1280, "height": 800})
        wide.goto(f"{base}/")
        gid = wide.request.post(
            f"{base}/api/games", data={"game": "stack-a-cash", "options": {}, "mode": "local"}
        ).json()["id"]
        for version, move in enumerate(QUICK_WIN):
            wide.request.post(
                f"{base}/api/games/{gid}/moves", data={"action": move, "version": version}
            )
        wide.goto(f"{base}/g/{gid}/replay")
        wide.click("#ga-start")
        wide.wait_for_selector("#ga-graph", timeout=60_000)
        wide.click('#moves li[data-ply="2"]')
        wide.wait_for_timeout(400)
        save(wide, "replay-analysis", "#replay .side-col")
        wide.goto(f"{base}/analysis?game_id=stack-a-cash")
        wide.wait_for_selector("#an-eval-card[data-state=done]", timeout=60_000)
        save(wide, "analysis-board")
        narrow = browser.new_page(viewport={"width": 390, "height": 844})
        narrow.goto(f"{base}/analysis?game_id=coin-age&options=%7B%22map%22%3A%22classic%22%7D")
        narrow.wait_for_selector("#an-eval-card[data-state=done]", timeout=60_000)
        narrow.click("#an-draw")
        narrow.wait_for_function("() => document.querySelector('#board').dataset.ply === '1'")
        narrow.wait_for_selector("#an-eval-card[data-state=done]", timeout=60_000)
        save(narrow, "analysis-phone")
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000")
