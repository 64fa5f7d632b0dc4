"""The words drawn on every game's board, on the web (the SVG's text and its labels for screen
readers) and in the terminal (at 40, 60 and 80 columns), go through the engine catalog: in the
pseudo-locale nothing is bare English but the names the games give (places, regions, maps)
and the notation; in French the boards' English words are gone. FlipWars' tiles are named in
the reader's language ("戦車"), while the notation keeps its words (``place tank c3 r0``)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest

import pocketarena as pa
from pocketarena import i18n, render
from pocketarena.games.coin_age import CoinAge
from pocketarena.games.flipwars import FlipWars
from pocketarena.games.flipwars.render import short_name
from pocketarena.games.wallet_battles import WalletBattles
from pocketarena.games.wallet_battles.render import battle_date
from tests.cli.test_width import positions, rendered
from tests.conftest import all_variants, variant_id

VARIANTS = all_variants()
LABELS = re.compile(r'(?:aria-label|data-label)="([^"]*)"')


def names(game: pa.Game) -> set[str]:
    """The game's own names, shown as they are in every language."""
    found = {game.TITLE}
    if isinstance(game, CoinAge):
        found |= {game.map.title}
        found |= {s.name for s in game.map.spaces} | {s.id for s in game.map.spaces}
        found |= {r.name for r in game.map.regions}
    if isinstance(game, WalletBattles):
        battle = game.battle_map
        found |= {battle.title, battle_date(battle)}
        found |= {p.name for p in battle.locations} | {f.name for f in battle.features}
    if isinstance(game, FlipWars):
        # A terminal's cell holds a tile's short name (three letters in English), too narrow
        # for the pseudo-locale's brackets, which fold: the short names as it words them.
        found |= {short_name(k.name).strip("⟦⟧") for k in game.kinds}
    return found


def drawn_texts(state: pa.State) -> list[str]:
    """What a reader reads of a position: the SVG's text and labels, the terminal's lines."""
    last = state.history[-1] if state.history else None
    svg = render.svg_board(state, last=last)
    # One text: a status drawn over two lines is still one ⟦…⟧.
    texts = [" ".join(html.unescape(t) for t in re.findall(r">([^<>]+)<", svg))]
    texts += [html.unescape(t) for t in LABELS.findall(svg)]
    for width in (40, 60, 80):
        # Whole: a message folded over two lines is still one ⟦…⟧.
        texts.append(rendered(render.rich_board(state, last=last, width=width), width))
    return texts


def bare(text: str, known: set[str]) -> str:
    """What is left of ``text`` once the catalog's words (⟦…⟧) and the known names are out."""
    rest, before = text, None
    while rest != before:
        before, rest = rest, re.sub(r"⟦[^⟦⟧]*⟧", " ", rest)
    # A name folded at the end of a line is still the name.
    rest = re.sub(r"\s+", " ", rest)
    for name in sorted(known, key=len, reverse=True):
        rest = rest.replace(re.sub(r"\s+", " ", name), " ")
    return rest


@pytest.mark.parametrize("variant", VARIANTS, ids=[variant_id(v) for v in VARIANTS])
def test_every_word_on_a_board_goes_through_the_catalog(variant: tuple[str, Any]) -> None:
    game = pa.load(variant[0], **variant[1])
    problems: set[str] = set()
    with i18n.use_locale(i18n.PSEUDO):
        known = names(game)
        for state in positions(game, seed=5):
            # The last move is shown in notation.
            played = {state.history[-1].text} if state.history else set()
            for text in drawn_texts(state):
                rest = bare(text, known | played)
                problems |= set(re.findall(r"[^\W\d_]{2,}(?:\W+[^\W\d_]{2,})*", rest))
    assert not problems, sorted(problems)[:20]


# Words each board drew in English on every position (the header, legends, columns).
ENGLISH_WORDS = {
    "coin-age": ["next to", " bank ", "coins, value", "regions, spaces held", "turn "],
    "flipwars": ["Blue's tile", "tiles left", "Last:", "Blue:", "rocket", "TNK", "twin-rifle"],
    "wallet-battles": ["stacks top coin first", "Last:", "pile  held", "in the pile"],
}


@pytest.mark.parametrize("game_id", sorted(ENGLISH_WORDS))
def test_a_board_in_french_has_none_of_its_english_words(game_id: str) -> None:
    game = pa.load(game_id)
    state = positions(game, seed=2)[2]
    english = "\n".join(drawn_texts(state))
    with i18n.use_locale("fr"):
        french = "\n".join(drawn_texts(state))
    for words in ENGLISH_WORDS[game_id]:
        assert words in english, words
        assert words not in french, (words, french)


def test_a_stack_a_cash_coin_shows_the_initial_of_its_side_in_the_readers_language() -> None:
    """A top coin carries its side's initial: H and T read as Heads and Tails in English only
    (in French the sides are Face and Pile)."""
    state = pa.load("stack-a-cash").new_initial_state()
    state.apply("place L b2")
    state.apply("place L a1")
    faces = re.compile(r'font-weight="bold" fill="#[0-9a-f]+">([^<]+)</text>')

    def drawn() -> tuple[list[str], str]:
        letters = [t for t in faces.findall(render.svg_board(state)) if t != "Stack-a-Cash"]
        return letters, rendered(render.rich_board(state), 80)

    english, english_terminal = drawn()
    with i18n.use_locale("fr"):
        french, french_terminal = drawn()
    with i18n.use_locale("ja"):
        japanese, _ = drawn()
    assert sorted(english) == ["H", "T"] and sorted(french) == ["F", "P"], (english, french)
    assert sorted(japanese) == ["表", "裏"]
    assert " L H " in english_terminal and " L F " in french_terminal
    assert " L H " not in french_terminal


def test_flipwars_tiles_are_named_in_the_readers_language_and_notation_keeps_its_words() -> None:
    """A Japanese player reads 戦車 on the tiles, in the terminal's cells and legend, the
    screen readers' labels and the move's sentence; the move's notation is the same text in
    every language and still reads back as the same move."""
    game = pa.load("flipwars")
    state = game.new_initial_state()
    state.apply("place tank c3 r90")
    last = state.history[-1]
    with i18n.use_locale("ja"):
        svg = render.svg_board(state, last=last)
        terminal = rendered(render.rich_board(state, last=last, width=80), 80)
        said = render.describe("flipwars", last)
        texts = re.findall(r">([^<>]+)<", svg) + LABELS.findall(svg)
        legal = [a.text for a in state.legal_actions()]
    assert "戦車" in " ".join(texts) and "tank" not in " ".join(texts)
    assert "戦 " in terminal and "戦車" in terminal and "TNK" not in terminal
    assert "tank" not in terminal.replace("place tank c3 r90", "")  # the last move, as played
    assert "戦車" in said and "tank" not in said, said
    assert last.text == "place tank c3 r90" and "place rocket a1 r0" in legal
    assert game.action("place rocket a1 r0").text == "place rocket a1 r0"
