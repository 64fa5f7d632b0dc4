"""Every kind of page the site has, with the games and players they need: used by the browser
tests of the site's pages and by scripts/screenshots.py.

``seed_site`` plays real games over the HTTP API of a running server (a finished game with
coin throws, one in progress, a player with a history) and returns the address of each page.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import httpx
import uvicorn

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .serving import free_port

if TYPE_CHECKING:
    from playwright.sync_api import Page

# Pages the game page's engineers own are listed apart: the site's tests skip them.
GAME_PAGES = ("game in progress", "finished game")
SMALL_WALLET = {"coins": {"Q": 1, "N": 1, "P": 1, "D": 1}}
# How long a test waits for its own server's answer. On a loaded machine a request waits for
# the CPU behind everything else: a registration hashes its password with argon2 (64 MiB, 3
# passes, 4 lanes), 0.2-0.4 s on a quiet core and 4.7 s measured for a fixture's first one at
# load 15-21, against httpx's default of 5 s (test_browser_bidi's fixture timed out on it).
# A server that does not answer in 30 s is still a failure.
REQUEST_TIMEOUT_S = 30


def http(base: str) -> httpx.Client:
    """A client of the test's server at ``base`` that waits as a loaded machine needs."""
    return httpx.Client(base_url=base, timeout=REQUEST_TIMEOUT_S)


def whole(page: Page) -> None:
    """Wait until the page just opened is whole: its load event has passed and what its scripts
    started on opening (its words, its requests) has come back and is drawn: ``html[data-ready]``
    (static/ready.js). Waiting for a quiet network instead costs half a second more a page."""
    page.wait_for_selector("html[data-ready]", state="attached")


def settled(page: Page) -> None:
    """Two frames after a change of the window's size or colour scheme under an open page: what
    its scripts redraw for it (on a ResizeObserver's or a media query's word) is drawn."""
    page.evaluate(
        "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
    )


@contextmanager
def running(settings: Settings) -> Iterator[str]:
    """A Uvicorn server of the app on a free port, in a thread; yields its base address."""
    port = free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def play_out(client: httpx.Client, gid: str, rng: random.Random, max_steps: int = 400) -> None:
    """Play this player's side with random legal moves (and throws) until the game ends."""
    for _ in range(max_steps):
        view: dict[str, Any] = client.get(f"/api/games/{gid}", params={"svg": "false"}).json()
        if view["status"] != "active":
            return
        mine = view["you"]
        if view["thrower"] in mine and view["node"] == "chance":
            client.post(f"/api/games/{gid}/throw", json={"version": view["version"]})
        elif view["to_move"] in mine and view["legal"]:
            action = rng.choice(view["legal"])["text"]
            client.post(
                f"/api/games/{gid}/moves", json={"action": action, "version": view["version"]}
            )
        else:
            time.sleep(0.05)  # the bot, or the server's throw
    raise RuntimeError(f"game {gid} did not finish")


def seed_site(base: str, seed: int = 7) -> dict[str, str]:
    """Make the games and the player the pages show; {kind of page: its address}."""
    rng = random.Random(seed)
    with http(base) as client:
        me = client.get("/api/me").json()["id"]
        client.patch("/api/me", json={"name": "Ada"})
        finished = client.post(
            "/api/games",
            json={
                "game": "wallet-battles",
                "options": SMALL_WALLET,
                "mode": "bot",
                "bot": "random",
                "seat": 0,
            },
        ).json()["id"]
        play_out(client, finished, rng)
        running_game = client.post(
            "/api/games",
            json={"game": "coin-age", "options": {}, "mode": "bot", "bot": "easy", "seat": 0},
        ).json()["id"]
        view = client.get(f"/api/games/{running_game}", params={"svg": "false"}).json()
        client.post(f"/api/games/{running_game}/throw", json={"version": view["version"]})
        client.post(
            "/api/games",
            json={"game": "flipwars", "options": {"mode": "tactical"}, "mode": "seek", "seat": 0},
        )
    tournament = finished_tournament(base)
    catalog = httpx.get(f"{base}/api/catalog", timeout=REQUEST_TIMEOUT_S).json()
    pages = {
        "home": "/",
        "new game": "/new?game=coin-age",
        "lobby": "/lobby",
        "rules index": "/rules",
        **{f"rules {g['id']}": f"/rules/{g['id']}" for g in catalog},
        "verify form": "/verify",
        "fairness, finished": f"/g/{finished}/verify",
        "fairness, in progress": f"/g/{running_game}/verify",
        "replay": f"/g/{finished}/replay",
        "player": f"/players/{me}",
        "account": "/account",
        "not found": "/no-such-page",
        "analysis, empty": "/analysis",
        "analysis, from a game": f"/analysis?game={finished}&ply=4",
        "analysis, set up": "/analysis?game_id=stack-a-cash&moves=place L b2; place M b2; place S a1",
        "puzzles": "/puzzles",
        "learn": "/learn",
        **{f"learn {g['id']}": f"/learn/{g['id']}" for g in catalog},
        "game in progress": f"/g/{running_game}",
        "finished game": f"/g/{finished}",
        "tournaments": "/tournaments",
        "tournament": f"/t/{tournament}",
    }
    return pages


def finished_tournament(base: str) -> str:
    """A Swiss of eight bots played to its end (and an arena announced for later); its id."""
    with http(base) as org:
        org.post("/api/auth/register", json={"username": "organiser", "password": "longenough"})
        body = {"name": "Sunday Swiss", "kind": "swiss", "game": "stack-a-cash", "rounds": 3}
        tid = str(org.post("/api/tournaments", json={**body, "starts_in_s": 3600}).json()["id"])
        for level in ("random", "greedy"):
            org.post(f"/api/tournaments/{tid}/bots", json={"level": level, "count": 4})
        org.post(f"/api/tournaments/{tid}/start")
        arena = {"name": "Evening arena", "kind": "arena", "game": "flipwars", "duration_s": 1800}
        org.post("/api/tournaments", json={**arena, "clock": {"initial_s": 180, "increment_s": 2}})
        deadline = time.monotonic() + 180
        while org.get(f"/api/tournaments/{tid}").json()["status"] != "finished":
            if time.monotonic() > deadline:
                raise RuntimeError(f"tournament {tid} did not finish")
            time.sleep(0.2)
    return tid


def friend_game(server: str, first: Page, second: Page) -> str:
    """A game of Stack-a-Cash started by clicks: ``first`` opens it for a friend (first seat),
    ``second`` joins by the invitation; its id once both see it in progress."""
    first.goto(f"{server}/new?game=stack-a-cash")
    first.check('input[name="mode"][value="friend"]', force=True)
    first.check('input[name="seat"][value="0"]', force=True)
    first.click("#start")
    first.wait_for_url("**/g/*")
    invite = first.input_value("#invite-url")
    assert "invite=" in invite
    second.goto(invite)  # opening the invitation is all it takes to join
    second.wait_for_function("() => window.paGame.view.status === 'active'")
    first.wait_for_function("() => window.paGame.view.status === 'active'")
    return first.url.rsplit("/", 1)[1]
