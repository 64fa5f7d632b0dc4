"""Screenshots of every page of the site, at desktop (1280x800) and phone (390x844) size.

    python scripts/screenshots.py                       # into build/screenshots/
    python scripts/screenshots.py --out /tmp/shots --only rules
    python scripts/screenshots.py --docs                # also refresh the few in docs/img/site/
    python scripts/screenshots.py --languages           # every language, into <out>/<code>/
    python scripts/screenshots.py --languages ar ja --dark --only home
    python scripts/screenshots.py --docs --only turn-based  # the turn-based flow, as Bob

A server runs in this process on a fresh temporary database; real games are played on it over
the API first (a finished game with coin throws, one in progress, an open seek), so every page
has something to show; at each size the browser also starts a game of its own ("game in play"),
its game page shot at the player's turn. Each page is captured whole (full page), named ``<page>-<size>.png``.
The browser is ``POCKETARENA_CHROMIUM``, Playwright's own, or the system's Chromium.
``--docs`` writes the pages listed in DOCS to docs/img/site/, optimised with Pillow (a palette
PNG), for docs/server.md.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from itertools import product
from pathlib import Path

import httpx
from PIL import Image
from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.site_pages import running, seed_site  # noqa: E402
from tests.services import chromium  # noqa: E402

from pocketarena.i18n import LANGUAGES, html_lang  # noqa: E402
from pocketarena.server.core.config import Settings  # noqa: E402

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
# The ones docs/server.md shows: (page, size), captured as the viewport (not the whole page).
DOCS = (
    ("home", "desktop"),
    ("lobby", "phone"),
    ("new game", "phone"),
    ("rules coin-age", "phone"),
    ("fairness, in progress", "desktop"),
    ("replay", "desktop"),
    ("not found", "phone"),
    ("game in play", "desktop"),
    ("game in play", "phone"),
    ("tournament", "desktop"),
    ("tournaments", "phone"),
)
# A game page as its player sees it (the other game pages are seen by a visitor): Coin Age
# against the easy bot, the person's coins thrown and one picked, the places it can go lit.
IN_PLAY = "game in play"
# The turn-based flow as Bob sees it (signed in): the header's "your turn" list opened, a
# turn-based game awaiting his move with its deadline, and the bell opened. Each is shot at the
# top of the window, after the setting up of ``turn_based_games``.
TURNS = ("turn-based: your turn", "turn-based: game", "turn-based: bell")
DOCS_TURNS = (
    ("turn-based: your turn", "phone"),
    ("turn-based: game", "desktop"),
    ("turn-based: bell", "desktop"),
)
BOB = {"username": "Bob", "password": "screenshots-bob"}


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def optimise(source: Path, target: Path, width: int) -> None:
    """A smaller copy for the docs: scaled to ``width`` pixels and reduced to 128 colours."""
    with Image.open(source) as opened:
        image = opened.convert("RGB")
    if image.width > width:
        size = (width, round(image.height * width / image.width))
        image = image.resize(size, Image.Resampling.LANCZOS)
    image.quantize(colors=128, method=Image.Quantize.MEDIANCUT).save(target, optimize=True)


def game_in_play(page: Page, base: str) -> str:
    """A game of the page's own player, at their turn after a throw; its address."""
    for _ in range(20):  # a throw with no match passes the turn to the bot: another game
        body = {"game": "coin-age", "options": {}, "mode": "bot", "bot": "easy", "seat": 0}
        gid = page.request.post(f"{base}/api/games", data=body).json()["id"]
        view = page.request.get(f"{base}/api/games/{gid}?svg=false").json()
        page.request.post(f"{base}/api/games/{gid}/throw", data={"version": view["version"]})
        view = page.request.get(f"{base}/api/games/{gid}?svg=false").json()
        if view["node"] == "decision" and view["to_move"] == 0 and len(view["legal"]) > 1:
            return f"/g/{gid}"
    raise RuntimeError("no throw left the person a choice in 20 games")


def turn_based_games(base: str) -> str:
    """Ann and Bob, accounts, with turn-based games between them: two awaiting Bob's move
    (Ann moved first), one Ann resigned (the bell tells both); the path of the first."""
    with (
        httpx.Client(base_url=base, timeout=30) as ann,
        httpx.Client(base_url=base, timeout=30) as bob,
    ):
        ann.post("/api/auth/register", json={"username": "Ann", "password": "screenshots-ann"})
        bob.post("/api/auth/register", json=BOB)
        games = []
        for game, days in (("stack-a-cash", 2), ("flipwars", 3), ("coin-age", 1)):
            body = {"game": game, "mode": "friend", "seat": 0, "days_per_move": days}
            made = ann.post("/api/games", json=body).json()
            invite = made["invite_url"].split("invite=")[1]
            view = bob.post(f"/api/games/{made['id']}/join", json={"invite": invite}).json()
            games.append((made["id"], view))
        for gid, view in games[:2]:
            legal = view["legal"]
            ann.post(
                f"/api/games/{gid}/moves",
                json={"action": legal[len(legal) // 2]["text"], "version": view["version"]},
            )
        ann.post(f"/api/games/{games[2][0]}/resign", json={})
    return f"/g/{games[0][0]}"


def shoot_turns(
    page: Page, base: str, game: str, out: Path, size: str, language: str | None
) -> dict[str, Path]:
    """The turn-based flow's shots (``TURNS``) as Bob, in this page's browser; by name, the
    window's view of each."""
    page.request.post(f"{base}/api/auth/login", data=BOB)
    if language:  # signing in brings the account's language: Bob chooses this one
        page.request.post(f"{base}/api/settings", data={"language": language})
    views = {}
    for name in TURNS:
        page.goto(base + (game if name.endswith("game") else "/lobby"))
        page.wait_for_load_state("networkidle")
        if not name.endswith("game"):  # the header's list, opened
            menu = "turns" if name.endswith("your turn") else "bell"
            page.click(f"#{menu} summary")
            page.wait_for_selector(f"#{menu} .turns-list a")
        page.wait_for_timeout(400)  # animations settle
        views[name] = out / f"{slug(name)}-{size}.png"
        page.screenshot(path=str(views[name]))
        print(views[name])
    return views


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "screenshots")
    parser.add_argument("--only", default="", help="only pages whose name contains this")
    parser.add_argument("--docs", action="store_true", help="also refresh docs/img/site/")
    parser.add_argument(
        "--languages",
        nargs="*",
        choices=list(LANGUAGES),
        help="shoot in these languages (all when none is named), each into <out>/<code>/",
    )
    parser.add_argument("--dark", action="store_true", help="in dark mode")
    args = parser.parse_args()
    languages = (args.languages or list(LANGUAGES)) if args.languages is not None else [None]
    browser_path = chromium()
    if browser_path is None:
        print("no Chromium found: set POCKETARENA_CHROMIUM", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(
            data_dir=Path(data), bot_executor="thread", bot_workers=1, bot_min_delay_ms=0
        )
        with running(settings) as base, sync_playwright() as p:
            pages = seed_site(base)
            turns_game = turn_based_games(base) if any(args.only in n for n in TURNS) else ""
            browser = p.chromium.launch(
                executable_path=browser_path, args=["--no-sandbox", "--disable-gpu"]
            )
            shots: dict[tuple[str, str], Path] = {}
            for language, (size, (width, height)) in product(languages, SIZES.items()):
                out = args.out / language if language else args.out
                out.mkdir(parents=True, exist_ok=True)
                context = browser.new_context(
                    viewport={"width": width, "height": height},
                    is_mobile=size == "phone",
                    has_touch=size == "phone",
                    device_scale_factor=1,
                    locale=html_lang(language) if language else "en-US",
                    color_scheme="dark" if args.dark else "light",
                )
                if language:  # the selector's cookie: the language whatever the browser asks
                    context.add_cookies([{"name": "lang", "value": language, "url": base}])
                page = context.new_page()
                own = {IN_PLAY: game_in_play(page, base)} if args.only in IN_PLAY else {}
                for name, path in {**pages, **own}.items():
                    if args.only not in name:
                        continue
                    page.goto(base + path)
                    page.wait_for_load_state("networkidle")
                    if name == IN_PLAY:  # a coin picked: the places it can go glow
                        page.click("#choices .btn.token >> nth=0")
                        page.wait_for_selector("#board [data-place].pa-target")
                    page.wait_for_timeout(400)  # animations settle
                    file = out / f"{slug(name)}-{size}.png"
                    page.screenshot(path=str(file), full_page=True)
                    if (name, size) in DOCS and not language:
                        view = args.out / f"{slug(name)}-{size}-view.png"
                        page.screenshot(path=str(view))
                        shots[(name, size)] = view
                    print(file)
                if turns_game:
                    for name, view in shoot_turns(
                        page, base, turns_game, out, size, language
                    ).items():
                        if (name, size) in DOCS_TURNS and not language:
                            shots[(name, size)] = view
                context.close()
            browser.close()
    if args.docs:
        folder = ROOT / "docs" / "img" / "site"
        folder.mkdir(parents=True, exist_ok=True)
        for (name, size), view in shots.items():
            target = folder / f"{slug(name)}-{size}.png"
            optimise(view, target, 640 if size == "desktop" else 390)
            print(target, f"{target.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
