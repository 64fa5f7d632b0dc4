"""The live game page in Chromium as players meet it: the throw strip never contradicts the
board; every game finishes with the keyboard alone and passes axe-core; on a phone nothing
scrolls sideways and the prompt, the buttons and the result stay in view; a pick the rules
refuse says why in the rules' words; FlipWars' rounds end in a clear interlude."""

# ruff: noqa: F811  (the server fixture comes from test_browser, browser from conftest)

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

import pocketarena as pa
from pocketarena.core import IllegalActionError
from pocketarena.games.coin_age import render as coin_age_render
from pocketarena.games.flipwars import render as flipwars_render
from pocketarena.games.stack_a_cash import render as stack_a_cash_render
from pocketarena.games.wallet_battles import render as wallet_battles_render
from pocketarena.server import catalog

from .axe import axe_violations
from .site_pages import settled
from .test_browser import (  # noqa: F401  (fixtures)
    FAST_OPTIONS,
    click_once,
    server,
    view,
    wait_change,
    wait_my_turn,
    watch_errors,
)

pytestmark = pytest.mark.browser


def new_game(page: Page, server: str, game: str, bot: str = "random", **options: Any) -> None:
    """A game against ``bot`` with the person first, started from the new-game form."""
    page.goto(f"{server}/new?game={game}")
    for name, value in {**FAST_OPTIONS.get(game, {}), **options}.items():
        if isinstance(value, dict):
            for key, count in value.items():
                page.fill(f'[data-opt="{name}"] input[data-key="{key}"]', str(count))
        else:
            page.select_option(f"#opt-{name}", str(value))
    page.check('input[name="mode"][value="bot"]', force=True)
    page.select_option("#bot", bot)
    page.check('input[name="seat"][value="0"]', force=True)
    page.click("#start")
    page.wait_for_url("**/g/*")
    page.wait_for_function(
        "() => window.paGame && ['active', 'finished'].includes(window.paGame.view.status)"
    )


def boxes_overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


# -- one source of truth ---------------------------------------------------------------------------
STRIP = """() => {
  const v = window.paGame.view;
  let i = v.history.length - 1;
  while (i >= 0 && !v.history[i].chance) i--;
  const s = document.querySelector('#throw-stage');
  const r = (n) => { const b = n.getBoundingClientRect(); return {x: b.x, y: b.y, width: b.width, height: b.height}; };
  return {
    last: i + 1, entry: i >= 0 ? v.history[i] : null, hidden: s.hidden, ply: s.dataset.ply,
    text: s.dataset.text, caption: s.querySelector('.caption')?.textContent || '',
    faces: [...s.querySelectorAll('.coin')].map((c) => c.dataset.face).join(''),
    strip: r(s), board: r(document.querySelector('#board')),
    moves: document.querySelectorAll('#moves li').length, plies: v.history.length,
    svgVersion: window.paGame.lastSvg === v.svg || !v.svg,
  };
}"""


@pytest.mark.parametrize(("game", "bot"), [("wallet-battles", "easy"), ("coin-age", "random")])
def test_the_throw_strip_always_shows_the_boards_latest_throw(
    server: str, browser: Browser, game: str, bot: str
) -> None:
    """Played quickly (no pause at all), at every turn of the person the strip shows the
    latest throw of the move list the board is drawn from, beside the board and not over it;
    once the game is over nothing animates."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    rng = random.Random(7)
    turns = 0
    fresh = 0  # throws that arrived while the page was open (those on loading are not said)
    announced = 0
    for _ in range(10):  # a game can end before a throw arrives with the page open: another
        new_game(page, server, game, bot=bot)
        wait_my_turn(page)
        if view(page)["status"] != "active":
            continue  # the bot's throws ended it before the person acted
        seen_throw = page.evaluate(STRIP)["last"]
        for _ in range(400):
            wait_my_turn(page)
            if view(page)["status"] != "active":
                break
            s = page.evaluate(STRIP)
            assert s["moves"] == s["plies"]
            if s["entry"] is not None:
                turns += 1
                assert not s["hidden"] and s["ply"] == str(s["last"]), s
                assert s["text"] == s["entry"]["text"]
                assert (s["entry"]["say"] or s["entry"]["text"]) in s["caption"]
                expected = "".join(
                    c.split(":")[-1] if ":" in c else c for c in s["entry"]["text"].split()[1:]
                ).replace("odd", "HT")
                assert s["faces"] == expected, s
            assert not boxes_overlap(s["strip"], s["board"]), s
            if s["entry"] is not None and s["last"] > seen_throw:
                seen_throw = s["last"]
                fresh += 1
                announced += "Throw:" in page.inner_text("#announce")
            click_once(page, rng)
        page.wait_for_selector("#summary:not([hidden])")
        if turns >= 2 and fresh >= 1:
            break
    assert turns >= 2 and fresh >= 1, (turns, fresh)
    assert announced >= 1  # throws are said to screen readers too
    final = page.evaluate(STRIP)
    assert final["ply"] == str(final["last"]) or final["last"] == 0
    running = page.evaluate(
        "() => document.getAnimations().filter((a) => a.playState === 'running').length"
    )
    assert running == 0
    assert "Game over" in page.inner_text("#announce")
    assert not errors, errors
    context.close()


# -- the keyboard alone ---------------------------------------------------------------------------
def score_text(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


def assert_the_result_is_said_one_way(page: Page) -> None:
    """The result card names the winner with their score first, as the boards do (Coin Age's
    board: "Tails wins 28-7"); a draw in seat order. It is said once: the status line above the
    card, which said the same words, is hidden at the end (issue 24)."""
    v = view(page)
    assert page.is_hidden("#status")
    said = [page.inner_text("#summary h2")]
    w = v["winner"]
    if w is None:
        score = f"{score_text(v['scores'][0])}–{score_text(v['scores'][1])}"
        assert all(t.startswith("Draw") and t.endswith(score) for t in said), said
        return
    score = f"{score_text(v['scores'][w])}–{score_text(v['scores'][1 - w])}"
    name = v["seats"][w]["name"]
    assert all(t.startswith(f"{name} ({v['seat_names'][w]}) wins") for t in said), said
    assert all(t.endswith(f" · {score}") for t in said), (said, score)
    if v["game"] == "coin-age" and v["termination"] not in ("resignation", "time forfeit"):
        assert f"{v['seat_names'][w]} wins {score.replace('–', '-')}" in page.inner_text("#board")


def tab_to(page: Page, selector: str, limit: int = 80) -> None:
    """Tab until the focus is on an element matching ``selector``."""
    for _ in range(limit):
        if page.evaluate("(s) => !!document.activeElement?.matches(s)", selector):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


# The arrow keys that lead from the focused board element to a highlighted one (the page's own
# arrow moves, searched breadth first): null when no highlighted place can be reached.
ARROW_PATH = """(goal) => {
  const ns = [...document.querySelectorAll('#board [role=button]')];
  const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];
  const start = ns.indexOf(document.activeElement);
  const targets = ns.filter((n) => n.classList.contains('pa-target'));
  if (start < 0 || !targets.length) return null;
  const want = ns.indexOf(targets[Math.floor(goal * targets.length)]);
  const back = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const u = queue.shift();
    if (u === want) break;
    for (const k of keys) {
      const v = ns.indexOf(window.paGame.arrowFrom(ns[u], k));
      if (v >= 0 && !back.has(v)) { back.set(v, [u, k]); queue.push(v); }
    }
  }
  if (!back.has(want)) return null;
  const path = [];
  for (let v = want; back.get(v); v = back.get(v)[0]) path.unshift(back.get(v)[1]);
  return path;
}"""


def arrow_to_a_target(page: Page, rng: random.Random) -> None:
    """With the focus on the board, arrow keys until it is on a highlighted place."""
    path = page.evaluate(ARROW_PATH, rng.random())
    assert path is not None, "no highlighted place can be reached with the arrow keys"
    for key in path:
        page.keyboard.press(key)
    assert page.evaluate("() => document.activeElement.classList.contains('pa-target')")


def keyboard_turn(page: Page, rng: random.Random) -> None:
    """One step of the person's turn with the keyboard only."""
    v = view(page)
    if page.is_visible("#throw-btn"):
        tab_to(page, "#throw-btn")
        page.keyboard.press("Enter")
        wait_change(page, v["version"], v["sel"])
        return
    targets = page.locator("#board .pa-target").count()
    buttons = page.locator("#choices .btn.token, #choices .btn.play").count()
    if not targets and not buttons:
        return
    if targets and (not buttons or rng.random() < 0.6):
        if not page.evaluate(
            "() => document.querySelector('#board').contains(document.activeElement)"
        ):
            tab_to(page, "#board [role=button]")
        arrow_to_a_target(page, rng)
    else:
        tab_to(page, "#choices .btn.token, #choices .btn.play")
        for _ in range(rng.randrange(buttons)):
            page.keyboard.press("Tab")
        if not page.evaluate(
            "() => document.activeElement.matches('#choices .btn.token, #choices .btn.play')"
        ):
            tab_to(page, "#choices .btn.token, #choices .btn.play")
    if rng.random() < 0.1 and page.evaluate(
        "() => document.activeElement.matches('#board .pa-target')"
    ):
        # Enter picks a place, Escape takes the pick back, the focus stays on the board.
        page.keyboard.press("Enter")
        if view(page)["version"] == v["version"] and view(page)["sel"] > v["sel"]:
            page.keyboard.press("Escape")
            assert view(page)["sel"] == 0
            assert page.evaluate(
                "() => document.querySelector('#board').contains(document.activeElement)"
            )
        return
    page.keyboard.press("Enter")
    wait_change(page, v["version"], v["sel"])
    # The focus stays on the page's controls: never dropped to the page itself.
    assert page.evaluate("() => document.activeElement !== document.body"), "focus was dropped"


NAMES = {
    "coin-age": r"\((.+)\), (empty|(Heads|Tails) (quarter|nickel|penny|dime))",
    "wallet-battles": r".+, (empty|held by the (Union|Confederacy))",
    "stack-a-cash": r"[abc][123], (empty|(Heads|Tails) (large|medium|small))",
    "flipwars": r"[a-h][1-8], (empty|the block|(Blue|Red) )",
}


@pytest.mark.parametrize("game", sorted(pa.GAMES))
def test_a_whole_game_with_the_keyboard_alone_passing_axe(
    server: str, browser: Browser, game: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    rng = random.Random(hash(game) % 1000)
    checked = False
    # Wallet Battles' flips are thrown for both players at once, so a game can end before the
    # person is ever let act (a bot's pile runs out): such a game is replaced by another.
    for _ in range(10):
        new_game(page, server, game)
        wait_my_turn(page)
        if view(page)["status"] == "active":
            break
    for _ in range(600):
        wait_my_turn(page)
        if view(page)["status"] != "active":
            break
        if not checked and page.locator("#board .pa-target").count():
            # Every place and piece is a named button; the page passes axe-core.
            labels = page.eval_on_selector_all(
                "#board [data-place]", "ns => ns.map((n) => n.getAttribute('aria-label'))"
            )
            assert labels and all(labels)
            assert any(re.search(NAMES[game], x) for x in labels), labels[:5]
            assert page.eval_on_selector_all(
                "#board [data-place]", "ns => ns.every((n) => n.getAttribute('role') === 'button')"
            )
            assert axe_violations(page) == []
            # Refusals name places as the board does: the server words them so now (the page
            # no longer rewrites English), tested in test_refusals.py.
            checked = True
        keyboard_turn(page, rng)
    page.wait_for_selector("#summary:not([hidden])")
    assert checked
    final = view(page)
    assert final["status"] == "finished" and any(h["seat"] == 0 for h in final["history"])
    assert_the_result_is_said_one_way(page)
    assert axe_violations(page) == []
    if game == "stack-a-cash" and final["position"]["lines"]:
        lit = page.eval_on_selector_all(
            "#board .pa-win", "ns => ns.map((n) => n.getAttribute('data-place'))"
        )
        assert sorted(lit) == sorted({c for line in final["position"]["lines"] for c in line})
    assert not errors, errors
    context.close()


ARROW_GRAPH = """() => {
  const ns = [...document.querySelectorAll('#board [role=button]')];
  const keys = ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown'];
  const adj = ns.map((n) => keys.map((k) => ns.indexOf(window.paGame.arrowFrom(n, k))).filter((i) => i >= 0));
  const unreachable = [];
  for (let s = 0; s < ns.length; s++) {
    const seen = new Set([s]);
    const queue = [s];
    while (queue.length) for (const v of adj[queue.shift()]) if (!seen.has(v)) { seen.add(v); queue.push(v); }
    if (seen.size < ns.length) unreachable.push(ns[s].getAttribute('aria-label'));
  }
  return {count: ns.length, unreachable};
}"""


@pytest.mark.parametrize(
    ("game", "options"),
    [("coin-age", {"map": m}) for m in ("classic", "mint-isle", "sterling-strait", "five-fiefs")]
    + [("wallet-battles", {"map": m}) for m in ("gettysburg", "antietam")]
    + [("stack-a-cash", {}), ("flipwars", {"mode": "tactical"})],
)
def test_the_arrow_keys_reach_every_place_from_every_place(
    server: str, browser: Browser, game: str, options: dict[str, str]
) -> None:
    """On a phone (390 px) and on a laptop (1280 px): the game is opened on the phone, then
    seen on the laptop by widening the window under it, where the page lays its board out
    again (one game for both widths, where there was one for each)."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    new_game(page, server, game, **options)
    for width in (390, 1280):
        if width != 390:
            page.set_viewport_size({"width": width, "height": 844})
            settled(page)
        graph = page.evaluate(ARROW_GRAPH)
        assert graph["count"] >= 9 and graph["unreachable"] == [], (width, graph)
    context.close()


# -- phones -----------------------------------------------------------------------------------------
# The room between the board's foot and the dock's top, after the next frame has been laid out
# (the page fits the board to the dock when the dock's size changes).
BOARD_ABOVE_DOCK = """() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => {
  const board = document.querySelector("#board svg").getBoundingClientRect();
  const dock = document.querySelector(".turn-dock").getBoundingClientRect();
  done(dock.top - board.bottom);
})))"""


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    vp = page.viewport_size
    assert box is not None and vp is not None
    return box["y"] >= 0 and box["y"] + box["height"] <= vp["height"] + 0.5


@pytest.mark.parametrize(
    ("game", "size"),
    [
        (game, size)
        for game in ("coin-age", "flipwars")
        for size in ((360, 740), (390, 844), (430, 932), (1280, 800))
    ]
    + [("stack-a-cash", (390, 844)), ("wallet-battles", (390, 844))],
)
def test_on_a_phone_the_turn_and_the_result_stay_in_view(
    server: str, browser: Browser, game: str, size: tuple[int, int]
) -> None:
    width, height = size
    context: BrowserContext = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    new_game(page, server, game)
    rng = random.Random(3)
    seen = 0
    for _ in range(400):
        wait_my_turn(page)
        if view(page)["status"] != "active":
            break
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
        if page.is_visible("#throw-btn"):
            box = page.locator("#throw-btn").bounding_box()
            assert box is not None and box["height"] >= 44
            assert box["y"] + box["height"] <= height * 0.6, "the throw button is at the bottom"
        else:
            assert in_view(page, "#prompt")
            if width >= 390:  # board places are touch targets of 44 px or more
                sides = page.eval_on_selector_all(
                    "#board [data-place]",
                    "ns => ns.map((n) => { const b = n.getBoundingClientRect(); return Math.min(b.width, b.height); })",
                )
                assert min(sides) >= 44, sides
            # Measured in one go: the buttons are redrawn as the game moves on.
            for y, h, w in page.eval_on_selector_all(
                "#choices .btn",
                "ns => ns.map((n) => n.getBoundingClientRect()).filter((b) => b.width > 0)"
                ".map((b) => [b.y, b.height, b.width])",
            ):
                assert h >= 44 and w >= 44
                assert y + h <= height + 0.5, "a choice is below the fold"
            if width >= 900:  # the docked prompt never covers the board (measured once drawn)
                gap = page.evaluate(BOARD_ABOVE_DOCK)
                assert gap >= -1, f"the dock covers {-gap:.0f} px of the board"
            seen += 1
        if seen > 6 and rng.random() < 0.5:
            page.on("dialog", lambda d: d.accept())
            page.click("#resign-btn")
            break
        click_once(page, rng)
    page.wait_for_selector("#summary:not([hidden])")
    assert in_view(page, "#summary") and in_view(page, "#rematch-btn")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    if game == "flipwars":
        # the supply tiles are big enough to read and to touch
        sizes = page.eval_on_selector_all(
            "#board [data-tile]", "ns => ns.map((n) => n.getBoundingClientRect().width)"
        )
        assert min(sizes) >= 30, sizes
        if width >= 390:  # and their names are drawn 9 px tall or more (they were 5 px)
            heights = page.eval_on_selector_all(
                "#board [data-tile] text",
                "ns => ns.filter((t) => /[a-z]/i.test(t.textContent))"
                ".map((t) => t.getBoundingClientRect().height)",
            )
            assert len(heights) == len(sizes) and min(heights) >= 9, heights
    context.close()


# -- refusals ---------------------------------------------------------------------------------------
def refusal_for(page: Page, v: dict[str, Any], action: str, cell: str) -> tuple[str, str]:
    """Why the rules refuse ``action`` in the position of the view ``v``, and what the page
    says when ``cell`` is clicked."""
    game = catalog.load_game(v["game"], v["options"])
    state = game.new_initial_state()
    for h in v["history"]:
        state.apply(game.parse_action(h["text"]))
    with pytest.raises(IllegalActionError) as refused:
        state.child(game.parse_action(action))
    page.click(f'#board [data-place="{cell}"]', force=True)
    page.wait_for_selector("#refusal:not([hidden])")
    return str(refused.value), page.inner_text("#refusal")


def test_a_refused_pick_says_why_in_the_rules_words(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    new_game(page, server, "stack-a-cash")
    rng = random.Random(1)
    for _ in range(60):
        wait_my_turn(page)
        v = view(page)
        assert v["status"] == "active"
        if page.locator('#choices .btn.token[data-token="L"]').count():
            page.click('#choices .btn.token[data-token="L"]')
            wrong = page.eval_on_selector_all(
                "#board [data-place]:not(.pa-target)",
                "ns => ns.map((n) => n.getAttribute('data-place'))",
            )
            starts = {a["tokens"][0] for a in v["legal"] if a["tokens"]}
            wrong = [c for c in wrong if c not in starts]  # a fresh start is not refused
            if wrong:
                cell = wrong[0]
                why, text = refusal_for(page, v, f"place L {cell}", cell)
                assert text.startswith(cell) and why in text
                assert text.count(cell) == 1, text  # the place named once
                assert view(page)["version"] == v["version"]  # nothing was played
                page.keyboard.press("Escape")
                break
            page.keyboard.press("Escape")
        click_once(page, rng)
    else:
        pytest.fail("no refused cell in 60 turns")
    # Not your turn, or an opponent's piece: said too, without asking the server.
    assert not errors, errors
    context.close()


def test_flipwars_names_a_refused_place_once_and_its_tiles_as_the_supply_does(
    server: str, browser: Browser
) -> None:
    """On a phone: a tap on a taken cell says why once ("c3 is already taken (by a red
    tank)."), and the piece buttons use the supply's names ("twin-rifle", "T-rex")."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors = watch_errors(page)
    new_game(page, server, "flipwars", mode="enclosed")
    wait_my_turn(page)
    names = dict(
        page.eval_on_selector_all(
            "#board [data-tile]",
            "ns => ns.map((n) => [n.getAttribute('data-tile'), n.getAttribute('data-name')])",
        )
    )
    assert names["twin"] == "twin-rifle" and names["trex"] == "T-rex"
    buttons = dict(
        page.eval_on_selector_all(
            "#choices .btn.token", "bs => bs.map((b) => [b.dataset.token, b.textContent])"
        )
    )
    assert buttons == {k: names[k] for k in buttons} and "twin" in buttons, buttons
    rng = random.Random(2)
    for _ in range(20):
        wait_my_turn(page)
        v = view(page)
        assert v["status"] == "active"
        taken = [c for c, t in v["position"]["cells"].items() if t is not None]
        if taken and v["sel"] == 0 and not page.is_visible("#interlude"):
            cell = taken[0]
            why, text = refusal_for(page, v, f"place tank {cell} r0", cell)
            assert text == f"{why}.", text  # "c3 is already taken (by …)."
            assert text.count(cell) == 1
            break
        click_once(page, rng)
    else:
        pytest.fail("no taken cell in 20 turns")
    assert not errors, errors
    context.close()


# -- FlipWars' rounds --------------------------------------------------------------------------------
def test_flipwars_rounds_end_in_an_interlude(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=False)
    page = context.new_page()
    errors = watch_errors(page)
    rng = random.Random(5)
    cards = 0
    new_game(page, server, "flipwars", mode="tactical")
    for _ in range(2000):
        wait_my_turn(page)
        v = view(page)
        if v["status"] != "active":  # the bot chose every time: another series
            new_game(page, server, "flipwars", mode="tactical")
            continue
        phase = v["position"]["phase"]
        if phase in ("block", "first"):
            cards += 1
            card = page.inner_text("#interlude")
            last = v["position"]["series"]["rounds"][-1]
            assert page.is_visible("#interlude") and card.startswith(f"Round {last['round']}:")
            wins = v["position"]["series"]["round_wins"]
            assert f"Round wins: Blue {wins['blue']} – Red {wins['red']}" in card
            assert ("where the block goes" if phase == "block" else "who starts") in card
            assert f"Round {last['round']}:" in page.inner_text("#announce") or cards > 1
        else:
            assert not page.is_visible("#interlude")
        if phase == "first":
            labels = page.eval_on_selector_all(
                "#choices .btn", "bs => bs.map((b) => b.textContent)"
            )
            assert sorted(labels) == ["Blue starts", "Red starts"], labels
            break
        click_once(page, rng)
    else:
        pytest.fail("the person never chose who starts a round")
    assert not errors, errors
    context.close()


# -- the players' cards ---------------------------------------------------------------------------------
# Each side's colour as its board draws it.
SEAT_COLOURS = {
    "coin-age": coin_age_render.SEAT_FILL,
    "flipwars": flipwars_render.FILL,
    "stack-a-cash": stack_a_cash_render.FACE_FILL,
    "wallet-battles": wallet_battles_render.SVG_SIDE,
}


def rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.parametrize("game", sorted(SEAT_COLOURS))
def test_each_seats_marker_is_in_its_sides_colour(server: str, browser: Browser, game: str) -> None:
    """The dot on a player's card is their side's colour on the board (FlipWars' Blue was
    gold), on the game page and in the replay."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    new_game(page, server, game)
    expected = {seat: rgb(colour) for seat, colour in enumerate(SEAT_COLOURS[game])}
    dots = "ps => ps.map((p) => [Number(p.className.match(/seat(\\d)/)[1]), getComputedStyle(p.querySelector('.dot')).backgroundColor])"
    assert dict(page.eval_on_selector_all("#players .player", dots)) == expected
    page.goto(page.url + "/replay")
    page.wait_for_selector("#players .player")
    assert dict(page.eval_on_selector_all("#players .player", dots)) == expected
    context.close()


# Every word the page's own card says about its player's presence, from the first paint on.
OWN_PRESENCE = """(() => {
  window.paOwnPresence = [];
  const look = () => {
    for (const row of document.querySelectorAll('#players .player')) {
      const tag = row.querySelector('.presence');
      if (row.querySelector('.you-tag') && tag) window.paOwnPresence.push(tag.textContent);
    }
  };
  new MutationObserver(look).observe(document, {subtree: true, childList: true, characterData: true});
})()"""


def test_a_player_on_their_own_game_page_is_online_from_the_start(
    server: str, browser: Browser
) -> None:
    """The page is served with the presence of before its socket opened: the player's own
    card said "offline" for half a second. It says "online" from the first paint, on a
    reload too, and "offline" only while the connection is lost."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    context.add_init_script(script=OWN_PRESENCE)
    page = context.new_page()
    errors = watch_errors(page)
    new_game(page, server, "stack-a-cash")
    for _ in range(2):  # the page as the new-game form opens it, then reloaded
        page.wait_for_function("() => window.paGame.live.open")
        page.wait_for_timeout(1000)  # the presence of the other seats has come
        said = page.evaluate("() => window.paOwnPresence")
        assert said and set(said) == {"online"}, said
        page.reload()
        page.wait_for_function("() => window.paGame && window.paGame.view")
    own = "#players .player:has(.you-tag) .presence"
    # The connection is lost and the page's retry finds no server (the retry is counted, so the
    # server comes back only after it: put back before it, the retry's socket and the test's
    # would both open, and the first to open sent on the other, still connecting: a script
    # error seen under load).
    page.evaluate(
        "() => { const live = window.paGame.live; live._connect = live.connect;"
        " window.paRetries = 0; live.connect = () => { window.paRetries += 1; };"
        " live.ws.close(); }"
    )
    page.wait_for_function(f"() => document.querySelector('{own}').textContent === 'offline'")
    page.wait_for_function("() => window.paRetries > 0")
    page.evaluate(
        "() => { const live = window.paGame.live; live.connect = live._connect; live.connect(); }"
    )
    page.wait_for_function(f"() => document.querySelector('{own}').textContent === 'online'")
    assert not errors, errors
    context.close()


# -- what BGA and lichess players expect ---------------------------------------------------------------
def test_step_back_during_a_live_game_title_sound_and_share(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors = watch_errors(page)
    rng = random.Random(4)
    for _ in range(10):  # a random game may end early: start another
        new_game(page, server, "stack-a-cash")
        while len(view(page)["history"]) < 4 and view(page)["status"] == "active":
            wait_my_turn(page)
            click_once(page, rng)
        wait_my_turn(page)
        if view(page)["status"] == "active":
            break
    assert view(page)["status"] == "active"
    assert page.title().startswith("● Your turn")
    live_board = page.inner_html("#board")
    n = len(view(page)["history"])
    page.click("#nav-back")
    page.wait_for_selector(".board-wrap.past")
    assert page.inner_html("#board") != live_board
    assert page.locator("#board .pa-target").count() == 0  # nothing to play in the past
    assert f"Action {n - 1} of {n}" in page.inner_text("#nav-pos")
    assert "earlier position" in page.inner_text("#prompt")
    page.click(f'#moves li[data-ply="{n - 3}"]')
    page.wait_for_function("n => window.paGame.ply === n", arg=n - 3)
    page.click("#nav-live")
    page.wait_for_function("() => window.paGame.ply === null")
    assert not page.is_visible(".board-wrap.past")
    page.wait_for_selector("#board .pa-target, #choices .btn.token")
    # The sound is off until the player turns it on, and stays as they left it.
    assert page.get_attribute("#sound-btn", "aria-pressed") == "false"
    page.click("#sound-btn")
    page.reload()
    page.wait_for_function("() => window.paGame && window.paGame.view")
    assert page.get_attribute("#sound-btn", "aria-pressed") == "true"
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-btn")
    page.wait_for_selector("#summary:not([hidden]) #share-btn")
    url = page.get_attribute("#share-btn", "data-url")
    assert url is not None and url.endswith(f"/g/{view(page)['id']}/replay")
    assert page.request.get(url).ok
    assert not page.title().startswith("● Your turn")
    assert not errors, errors
    context.close()


def test_offline_the_throw_button_and_the_status_agree(server: str, browser: Browser) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    new_game(page, server, "coin-age")
    page.wait_for_selector("#throw-btn:not([hidden])")
    # The connection drops and stays down (no reconnect) until we let it come back.
    page.evaluate(
        "() => { const live = window.paGame.live; live._connect = live.connect;"
        " live.connect = () => {}; live.ws.close(); }"
    )
    page.wait_for_function("() => document.querySelector('#throw-btn').disabled")
    assert page.is_visible("#throw-btn")
    assert "reconnecting" in page.inner_text("#status")
    page.wait_for_timeout(1200)  # the page's own retry (0.5 s) passes, still cut off
    assert page.is_disabled("#throw-btn")
    page.evaluate(
        "() => { const live = window.paGame.live; live.connect = live._connect; live.connect(); }"
    )
    page.wait_for_function("() => !document.querySelector('#throw-btn').disabled")
    assert "press “Throw the coins”" in page.inner_text("#status")
    page.click("#throw-btn")
    page.wait_for_function("() => window.paGame.view.history.length > 0")
    context.close()


# A WebSocket that opens only after 1.5 s, as on a slow phone network: what the page sends
# before then must not be lost.
SLOW_SOCKET = """(() => {
  const Real = window.WebSocket;
  class Slow extends EventTarget {
    constructor(url) {
      super();
      this.readyState = Real.CONNECTING;
      setTimeout(() => {
        const ws = (this.ws = new Real(url));
        const pass = (type, make) => ws.addEventListener(type, (e) => {
          this.readyState = ws.readyState;
          this.dispatchEvent(make(e));
        });
        pass('open', () => new Event('open'));
        pass('message', (e) => new MessageEvent('message', { data: e.data }));
        pass('close', (e) => new CloseEvent('close', { code: e.code, reason: e.reason }));
        pass('error', () => new Event('error'));
      }, 1500);
    }
    send(data) {
      if (this.readyState !== Real.OPEN) throw new DOMException('not open', 'InvalidStateError');
      this.ws.send(data);
    }
    close() { if (this.ws) this.ws.close(); }
  }
  for (const k of ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED']) Slow[k] = Real[k];
  window.WebSocket = Slow;
})();"""


def test_what_the_player_does_while_the_page_still_connects_is_sent_once_it_can(
    server: str, browser: Browser
) -> None:
    """Resigning in the first second of a page (the socket not open yet) resigns once the
    socket opens, instead of a "reconnecting" toast for a connection never lost."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    errors = watch_errors(page)
    # Stack-a-Cash with the person first: no throw lets the bot play (and a short Wallet
    # Battles end) before the person has acted, so the game is still going at the reload.
    new_game(page, server, "stack-a-cash", bot="random")
    page.add_init_script(SLOW_SOCKET)
    page.reload()
    page.wait_for_function("() => window.paGame && window.paGame.view")
    assert view(page)["status"] == "active"
    assert page.evaluate("() => !window.paGame.live.open")  # still connecting
    page.on("dialog", lambda d: d.accept())
    page.click("#resign-btn")
    page.wait_for_selector("#summary:not([hidden]) #share-btn")
    assert view(page)["status"] == "finished"
    assert not page.is_visible(".toast.error")
    assert not errors, errors
    context.close()
