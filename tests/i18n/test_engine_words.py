"""The engine's words: every message id has its entry in the engine catalog's template (the id
as context, the English as msgid), and every language words every refusal."""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from pocketarena import i18n, render
from pocketarena.core.errors import SAID
from pocketarena.messages import ENGLISH, speak


def test_the_template_holds_every_message_and_nothing_else() -> None:
    template = i18n.read_catalog(i18n.template_path("engine"))
    in_template = {
        m.context: (m.id if isinstance(m.id, str) else tuple(m.id)) for m in template if m.context
    }
    assert in_template == {k: v for k, v in ENGLISH.items() if k != SAID}


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_refusals_of_random_games_are_worded_in_each_language(code: str) -> None:
    rng = random.Random(11)
    worded = 0
    for game_id in sorted(pa.GAMES):
        game = pa.load(game_id)
        state = game.new_initial_state()
        for _ in range(30):
            if state.is_terminal():
                break
            for action in rng.sample(game.actions, 4):
                try:
                    state.clone().apply(action)
                except pa.ActionError as e:
                    with i18n.use_locale(code):
                        said = speak(e.message)
                    assert said and said != str(e), (code, e.reason, said)
                    worded += 1
            state.apply_random(rng)
    assert worded > 20


def test_move_sentences_are_worded_in_the_readers_language() -> None:
    game = pa.load("stack-a-cash")
    state = game.new_initial_state()
    action = game.parse_action("place M b2")
    with i18n.use_locale("ja"):
        assert render.describe(game.ID, action, state) == "表が中のコインを b2 に置く"
    with i18n.use_locale("de"):
        assert render.describe(game.ID, action, state) == "Kopf setzt eine mittlere Münze auf b2"
    assert render.describe(game.ID, action, state) == "Heads places a medium coin on b2"
    flip = pa.load("flipwars")
    first = flip.new_initial_state()
    with i18n.use_locale("fr"):
        said = render.describe(flip.ID, flip.parse_action("place grenade c3 r90"), first)
    assert said.startswith("Bleu pose la tuile grenade en c3, tournée de 90° dans le sens horaire")


def test_a_wallet_battles_card_speaks_the_readers_language() -> None:
    """The words drawn beside the map (the status line, each pile's title, points, size and
    held locations) are the reader's: English words gone in the pseudo-locale, German ones there
    in German."""
    game = pa.load("wallet-battles")
    state = game.new_initial_state()
    rng = random.Random(1)
    while not state.is_terminal():
        state.apply_random(rng)
    english = render.svg_board(state)
    for words in ("Game over after", "Union (Heads)", " pts<", "pile ", " locations<"):
        assert words in english, words
    with i18n.use_locale(i18n.PSEUDO):
        pseudo = render.svg_board(state)
    for words in ("Game over after", "Union (Heads)", " pts<", "pile ", " locations<"):
        assert words not in pseudo, words
    with i18n.use_locale("de"):
        german = render.svg_board(state)
    assert "Partie vorbei nach 40 Würfen" in german and "Pkt.<" in german


def test_a_flipwars_board_speaks_the_readers_language() -> None:
    """The status line drawn under a FlipWars board (the tiles, whose placement it is, how it
    ended) is the reader's: gone in the pseudo-locale, German in German."""
    game = pa.load("flipwars")
    state = game.new_initial_state()
    english = render.svg_board(state)
    assert "tiles Blue 0 - Red 0" in english and "Blue to place" in english
    with i18n.use_locale(i18n.PSEUDO):
        pseudo = render.svg_board(state)
    assert "tiles Blue" not in pseudo and "to place" not in pseudo
    with i18n.use_locale("de"):
        assert "Plättchen Blau 0 - Rot 0; Blau setzt" in render.svg_board(state)


@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_how_a_game_ended_is_one_message_the_terminal_and_the_site_both_word(code: str) -> None:
    """Each way a record says a game ended (and a record that says none) is one engine message,
    worded in every language; the terminal's replay and a player's page both ask it (they
    kept a table of the words each, in two catalogs)."""
    from pocketarena.cli.replay import termination_word
    from pocketarena.records import TERMINATIONS, termination_message

    for termination in (*TERMINATIONS, None):
        said = termination_message(termination)
        assert said.id in ENGLISH and said.id.startswith("record.termination."), said
        with i18n.use_locale(code):
            worded = speak(said)
            assert termination_word(termination) == worded
        if termination != "normal":  # "normal" reads the same in Spanish and Portuguese
            assert worded and worded != speak(said), (code, termination)  # translated
    assert speak(termination_message("by a meteor")) == "by a meteor"  # unknown: as written
