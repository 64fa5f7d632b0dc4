"""The site in each language in a real Chromium: the pseudo-locale finds no word the pages'
scripts wrote outside the catalog; each language's main pages fit a phone and a laptop without
sideways scrolling and pass axe-core (Arabic right to left included, light and dark); a whole
game is played in Japanese and in Arabic."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import Browser, BrowserContext

from pocketarena import i18n, puzzles
from pocketarena.lessons import LESSONS
from pocketarena.messages import render
from pocketarena.server import catalog

from .axe import SERIOUS, WORDING_RULES, axe_violations, describe
from .conftest import make_settings
from .site_pages import running, settled, whole
from .test_browser import play_to_the_end, start_game, watch_errors

pytestmark = pytest.mark.browser

SIZES = {"phone": (390, 844), "laptop": (1280, 800)}
MAIN_PAGES = ["/", "/new", "/lobby", "/rules", "/puzzles", "/account"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running(make_settings(Path(tmp_path_factory.mktemp("i18n")))) as base:
        yield base


def in_language(
    browser: Browser, code: str, size: str = "laptop", dark: bool = False
) -> BrowserContext:
    width, height = SIZES[size]
    ctx = browser.new_context(
        viewport={"width": width, "height": height},
        locale=i18n.html_lang(code) if code != i18n.PSEUDO else "en-US",
        timezone_id="Asia/Tokyo",
        color_scheme="dark" if dark else "light",
    )
    if code == i18n.PSEUDO:
        ctx.add_cookies([{"name": "lang", "value": code, "url": "http://127.0.0.1"}])
    return ctx


# Visible text of the page (each element's own text nodes together) and the words people hear
# (aria-label, title, placeholder): what the pseudo-locale must show wrapped in ⟦…⟧. Left out:
# boards, notation and code; text declared English (lang="en": a rules page not yet
# translated into the reader's language); and what is marked data-words="engine" (a refusal,
# a replay's caption with its notation), which the engine's catalog words, checked by its own
# tests.
VISIBLE_TEXT = """() => {
  const ENGINE_OR_NOTATION = 'svg, code, script, style, #moves .mv, .an-move-text, .notation, '
    + '[data-words="engine"], [lang="en"], [hidden], option, time';
  const skip = (n) => n.closest(ENGINE_OR_NOTATION);
  const out = [];
  // An element's own text nodes read as one text (notation set apart inside a sentence,
  // "⟦Expected line: <span>place L b2</span>⟧", leaves the sentence in two nodes).
  const byParent = new Map();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !n.textContent.trim()) continue;
    const style = getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') continue;
    if (!byParent.has(el)) byParent.set(el, []);
    byParent.get(el).push(n.textContent.trim());
  }
  for (const parts of byParent.values()) out.push(parts.join(' '));
  for (const el of document.body.querySelectorAll('[aria-label], [title], [placeholder]')) {
    if (skip(el)) continue;
    for (const a of ['aria-label', 'title', 'placeholder']) {
      const v = el.getAttribute(a);
      if (v && v.trim()) out.push(v.trim());
    }
  }
  return out;
}"""
# (− is the minus of a rating change, "−16".)
ALLOWED = re.compile(r"^[\s\d·•—–−\-+±?!.,:;/()|«»◀▶←→↑↻°✓✗…%#●]*$")
# Notation inside a worded text: a coin's letter (L, M, S), a square (b2).
NOTATION = re.compile(r"(?<![\w])([A-Z]|[a-e][1-5])(?![\w])")


def outside_catalog(texts: list[str], names: set[str]) -> list[str]:
    found = []
    for text in texts:
        rest, before = text, None
        while rest != before:
            before, rest = rest, re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
        for name in sorted(names, key=len, reverse=True):
            rest = rest.replace(name, " ")
        rest = NOTATION.sub(" ", rest)
        if not ALLOWED.match(rest):
            found.append(text)
    return found


def test_pseudo_locale_game_page_shows_no_word_outside_the_catalog(
    server: str, browser: Browser
) -> None:
    ctx = in_language(browser, i18n.PSEUDO)
    page = ctx.new_page()
    errors = watch_errors(page)
    start_game(page, server, "stack-a-cash")
    page.wait_for_function("() => document.querySelector('#status').textContent.length > 0")
    page.wait_for_function("() => window.paGame.you.length")
    # The bots' names are the names allowed: a guest's given one ("Guest 0467", the player's
    # own in the header and on their seat) is worded in the reader's language like any text.
    seats = page.evaluate(
        "() => window.paGame.view.seats.map((s) => s && s.kind === 'bot' && s.name)"
    )
    titles = {catalog.game_class(g).TITLE for g in catalog.game_ids()}
    names = {*[s for s in seats if s], "Pocket Arena", "API", *titles}
    found = outside_catalog(page.evaluate(VISIBLE_TEXT), names)
    final = play_to_the_end(page, seed=3)
    assert final["status"] == "finished"
    found += outside_catalog(page.evaluate(VISIBLE_TEXT), names)
    replay = page.url.removeprefix(server) + "/replay"  # the game just played, step by step
    for path in [replay, "/", "/new", "/lobby", "/analysis", "/puzzles", "/learn/stack-a-cash"]:
        page.goto(server + path)
        whole(page)
        found += [f"{path}: {t}" for t in outside_catalog(page.evaluate(VISIBLE_TEXT), names)]
    # What a lesson and a puzzle say after a move: the hint, the praise, the solver's verdict.
    page.goto(server + "/learn/stack-a-cash")
    page.click("#ln-steps li:nth-child(2) button")
    page.click('#lesson[data-step="1"] #ln-choices button[data-move="place S a2"]')
    page.wait_for_selector("#ln-feedback:not([hidden])")
    found += [f"lesson: {t}" for t in outside_catalog(page.evaluate(VISIBLE_TEXT), names)]
    page.goto(server + "/puzzles")
    page.click("#puzzles[data-puzzle] #pz-choices button[data-move] >> nth=0")
    page.wait_for_selector("#pz-feedback:not([hidden])")
    found += [f"puzzle: {t}" for t in outside_catalog(page.evaluate(VISIBLE_TEXT), names)]
    assert not found, "\n".join(found)
    assert not errors, errors
    ctx.close()


@pytest.mark.parametrize("code", list(i18n.LANGUAGES))
def test_main_pages_fit_and_pass_axe_in_each_language(
    server: str, browser: Browser, code: str
) -> None:
    problems: list[str] = []
    # All of axe in one language of each kind (left to right, right to left, CJK glyphs);
    # in the others the rules a translation can break (axe.WORDING_RULES).
    axe_rules = None if code in ("en", "ar", "ja") else WORDING_RULES
    # Each page is opened once, on a laptop, then seen at each size and in each colour scheme
    # by changing the window and the scheme under it (as a reader turning a tablet or their
    # system's theme does): the page's styles and scripts follow, and the checks below run on
    # what is drawn then. A reload for each was 120 page loads for the eight languages, now 48.
    schemes = (False, True) if code in DARK else (False,)
    ctx = in_language(browser, code)
    page = ctx.new_page()
    errors = watch_errors(page)
    for path in MAIN_PAGES:
        page.goto(server + path)
        whole(page)
        for size, dark in [(size, dark) for size in SIZES for dark in schemes]:
            width, height = SIZES[size]
            page.set_viewport_size({"width": width, "height": height})
            page.emulate_media(color_scheme="dark" if dark else "light")
            settled(page)
            where = f"{code} {size} {'dark' if dark else 'light'} {path}"
            lang, direction = page.evaluate(
                "() => [document.documentElement.lang, document.documentElement.dir]"
            )
            assert lang == i18n.html_lang(code), where
            assert direction == ("rtl" if code == "ar" else "ltr"), where
            wide = page.evaluate(
                "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            if wide > 0:
                problems.append(f"{where}: {wide}px of sideways scroll")
            violations = axe_violations(page, rules=axe_rules)
            if violations:
                problems.append(f"{where}:\n{describe(violations)}")
    if errors:
        problems.append(f"{code}: script errors {errors}")
    ctx.close()
    assert not problems, "\n".join(problems)


# The languages whose pages are checked in the dark colour scheme as well as the light: one of
# each direction.
DARK = ("en", "ar")


def test_the_wording_rules_alone_still_find_a_translation_gone_wrong(
    server: str, browser: Browser
) -> None:
    """The axe rules the languages checked by their wording run (axe.WORDING_RULES) are all
    axe-core's, and they catch what a bad translation does: a button left without words, an
    accessible name that no longer holds the visible label."""
    ctx = in_language(browser, "fr", "phone", False)
    page = ctx.new_page()
    page.goto(server + "/new")
    whole(page)
    assert axe_violations(page, rules=WORDING_RULES) == []
    page.evaluate(
        """() => {
          const empty = document.createElement('button');
          document.querySelector('main').append(empty);
          const renamed = document.createElement('button');
          renamed.textContent = 'Jouer';
          renamed.setAttribute('aria-label', 'Play');
          document.querySelector('main').append(renamed);
        }"""
    )
    found = {
        v["id"] for v in axe_violations(page, impacts=SERIOUS + ("moderate",), rules=WORDING_RULES)
    }
    assert {"button-name", "label-content-name-mismatch"} <= found, found
    ctx.close()


@pytest.mark.parametrize(("code", "wins", "turn"), [("ja", "の勝ち", "手番"), ("ar", "فاز", "دور")])
def test_a_whole_game_in_japanese_and_in_arabic(
    server: str, browser: Browser, code: str, wins: str, turn: str
) -> None:
    ctx = in_language(browser, code, "laptop")
    page = ctx.new_page()
    errors = watch_errors(page)
    start_game(page, server, "stack-a-cash")
    assert page.evaluate("() => document.documentElement.lang") == i18n.html_lang(code)
    status = page.inner_text("#status")
    assert turn in status or wins in status or status, status
    final = play_to_the_end(page, seed=11)
    assert final["status"] == "finished"
    summary = page.inner_text("#summary")
    if final["winner"] is not None:
        assert wins in summary, summary
    # the buttons at the end speak the language too
    assert page.inner_text("#replay-link") == i18n.translations(code, "site").gettext("Replay")
    assert not re.search(r"\b(wins|Draw|Replay|Rematch)\b", summary), summary
    if code == "ja":  # times on the reader's clock: the browser's zone is Tokyo, not UTC
        page.click("#chat-quick button")
        said = page.wait_for_selector("#chat-log li time")
        assert said is not None
        assert said.inner_text() == tokyo(said.get_attribute("datetime"), "%H:%M")
        # The guest's given name, in the chat, the header and their seat: in Japanese.
        number = page.evaluate("() => window.paGame.view.seats[0].player.slice(0, 4)")
        assert page.inner_text("#chat-log li strong") == f"ゲスト {number}"
        assert page.inner_text("#me-name") == f"ゲスト {number}"
        assert f"ゲスト {number}" in page.inner_text("#players")
        page.click("#replay-link")
        played = page.wait_for_selector("#replay-meta time")
        assert played is not None
        # Japanese writes the hour of a date without a leading zero (0:12, not 00:12).
        clock = tokyo(played.get_attribute("datetime"), "%H:%M").removeprefix("0")
        assert clock in played.inner_text(), played.inner_text()
        assert tokyo(played.get_attribute("datetime"), "%Y/%m/%d") in played.inner_text()
    assert not errors, errors
    ctx.close()


def tokyo(iso: str | None, pattern: str) -> str:
    """A moment the page was sent (ISO 8601, UTC) as a clock in Tokyo shows it."""
    assert iso
    return datetime.fromisoformat(iso).astimezone(ZoneInfo("Asia/Tokyo")).strftime(pattern)


# The words a Japanese or an Arabic reader sees of a lesson step and a puzzle, and the English
# they replaced ("Protection", "Heads to move: find the only move…").
LESSON_WORDS = {
    "ja": {"title": "保護", "wrong": "求められている手ではありません", "puzzle": "手番"},
    "ar": {"title": "الحماية", "wrong": "ليست ما تطلبه هذه الخطوة", "puzzle": "دور"},
}
ENGLISH = re.compile(r"\b(the|to|step|asks|protected|cover|coin|wins?|find|only|Right)\b")


@pytest.mark.parametrize("code", list(LESSON_WORDS))
@pytest.mark.parametrize("size", list(SIZES))
def test_a_lesson_and_a_puzzle_in_japanese_and_in_arabic(
    server: str, browser: Browser, code: str, size: str
) -> None:
    """A lesson's step (its title and rule, whose turn, a wrong move's hint, the right move's
    praise) and a puzzle (its goal, the solver's verdict) in the reader's language, laid out
    in its direction, with no English left and no sideways scroll."""
    words = LESSON_WORDS[code]
    engine = i18n.translations(code, "engine")
    ctx = in_language(browser, code, size)
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(f"{server}/learn/stack-a-cash")
    page.click("#ln-steps li:nth-child(2) button")
    page.wait_for_selector('#lesson[data-step="1"] #ln-choices button[data-move]')
    lang, direction = page.evaluate(
        "() => [document.documentElement.lang, document.documentElement.dir]"
    )
    assert (lang, direction) == (i18n.html_lang(code), "rtl" if code == "ar" else "ltr")
    step = LESSONS["stack-a-cash"][1]
    assert page.inner_text("#ln-step-title") == words["title"]
    assert page.inner_text("#ln-text") == render(step.text, engine)
    # No part of the step is declared English any more: it reads in the page's language.
    assert page.evaluate("() => document.querySelectorAll('#lesson [lang]').length") == 0
    shown = [page.inner_text(s) for s in ("#ln-step-title", "#ln-text", "#ln-status")]
    page.click('#ln-choices button[data-move="place S a2"]')  # legal, not a win
    page.wait_for_selector("#ln-feedback:not([hidden])")
    wrong = page.inner_text("#ln-feedback")
    assert words["wrong"] in wrong and render(step.hint, engine) in wrong, wrong
    page.click("#ln-retry")
    page.fill("#ln-move", "place S c1")
    page.press("#ln-move", "Enter")
    page.wait_for_selector('#ln-feedback[data-result="right"]')
    assert page.inner_text("#ln-feedback") == render(step.done, engine)
    shown += [wrong, page.inner_text("#ln-feedback"), page.inner_text("#ln-steps")]
    assert page.evaluate(WIDE) <= 0, f"{code} {size}: the lesson scrolls sideways"

    page.goto(f"{server}/puzzles?game=stack-a-cash")
    page.wait_for_selector("#puzzles[data-puzzle] #pz-choices button[data-move]")
    pid = page.get_attribute("#puzzles", "data-puzzle")
    assert pid
    p = puzzles.by_id()[pid]
    goal = page.inner_text("#pz-goal")
    assert goal == render(p.goal(), engine) and words["puzzle"] in goal, goal
    page.fill("#pz-move", p.answer)
    page.press("#pz-move", "Enter")
    page.wait_for_selector("#pz-feedback:not([hidden])")
    said = page.inner_text("#pz-feedback")
    assert said == render(puzzles.check(p, p.answer).message, engine), said
    shown += [goal, said]
    assert page.evaluate(WIDE) <= 0, f"{code} {size}: the puzzle scrolls sideways"
    english = [text for text in shown if ENGLISH.search(text)]
    assert not english, english
    assert not errors, errors
    ctx.close()


WIDE = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_the_pages_scripts_name_a_tournaments_bot_in_the_readers_language(
    server: str, browser: Browser
) -> None:
    """A game's seats, the lobby and the chat name players through ``personName``: a
    tournament's bot ("Randy (random) 2", a level's bot and its number) reads in the reader's
    language as any bot does. It stayed English."""
    ctx = in_language(browser, "fr", "phone")
    page = ctx.new_page()
    page.goto(server + "/")
    named = page.evaluate(
        """async () => {
          const { personName } = await import('/static/format.js');
          return [
            personName({ kind: 'bot', name: 'Randy (random) 2' }),
            personName({ kind: 'bot', name: 'Greta (greedy)' }),
            personName({ kind: 'account', name: 'Ada 2' }),
          ];
        }"""
    )
    assert named == ["Randy (au hasard) 2", "Greta (gourmande)", "Ada 2"]
    ctx.close()
