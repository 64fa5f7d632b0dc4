"""What the server needs to know about each game, gathered from the games, their drawings and
the bots: titles, pitches, options as form fields, bot levels, the board picture, who throws.

The games and drawings are used as they are (found like everyone finds them, through
:mod:`pocketarena.core.registry` and :mod:`pocketarena.render`); where a game needs a
server-side decision that the rules do not make (who presses "throw", the seed of a set-up
left to chance), it is made here, in one place.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pocketarena as pa
from pocketarena import i18n, render
from pocketarena.bots import Bot
from pocketarena.bots import make_bot as _make_bot
from pocketarena.core import (
    CHANCE,
    Action,
    Game,
    Message,
    Option,
    State,
    fresh_seed,
    load_shared,
    with_seed,
)
from pocketarena.core import game_class as _game_class
from pocketarena.core.errors import SAID
from pocketarena.i18n import N_, _
from pocketarena.match import deciders_after_throw
from pocketarena.messages import speak
from pocketarena.render.words import button_words
from pocketarena.rulepages import rules_text

log = logging.getLogger(__name__)

# Bot levels in the order they are offered; a game gets those its bots support.
BOT_LEVELS: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard", "perfect")
BOT_NAMES = {
    "random": N_("Randy (random)"),
    "greedy": N_("Greta (greedy)"),
    "easy": N_("Bot · easy"),
    "medium": N_("Bot · medium"),
    "hard": N_("Bot · hard"),
    "perfect": N_("Bot · perfect"),
}


def game_ids() -> list[str]:
    return sorted(pa.GAMES)


def game_class(game_id: str) -> type[Game]:
    """The game's class (ids forgiven case, spaces and underscores); ValueError if unknown."""
    return _game_class(game_id)


def option_field(option: Option) -> dict[str, Any]:
    """An option as a form field description (JSON), for the new-game page and the API."""
    kind = {bool: "bool", int: "int", str: "str", dict: "dict", list: "list"}.get(
        option.type, "str"
    )
    return {
        "name": option.name,
        "label": _(option.title),
        "type": kind,
        "default": option.default,
        "help": _(option.help) if option.help else option.help,
        "choices": list(option.choices) if option.choices is not None else None,
        "choice_labels": (
            [_(option.choice_title(c)) for c in option.choices]
            if option.choices is not None
            else None
        ),
        "applies_when": (
            {"option": option.applies_when[0], "values": list(option.applies_when[1])}
            if option.applies_when is not None
            else None
        ),
    }


def words_json(game_id: str) -> dict[str, Any]:
    """The game's words for the game page's buttons (pocketarena.render.words), in the
    reader's language: the page knows no game's words of its own."""
    words = button_words(game_id)
    return {
        "names": {token: _(text) for token, text in words.names.items()},
        "choices": {token: _(text) for token, text in words.choices.items()},
        "verbs": {verb: _(text) for verb, text in words.verbs.items()},
        "rotations": list(words.rotations),
    }


def options_text(game_id: str, options: Mapping[str, Any]) -> str:
    """Options in players' words, for info lines and captions: "Battlefield: Antietam ·
    Coins in each pile: 2 Q, 2 N, 2 P, 2 D". A box left unticked and an empty value are not
    mentioned (FlipWars' standard mode reports ``series=False``: it says nothing of series)."""
    parts = []
    for option in game_class(game_id).OPTIONS:
        value = options.get(option.name)
        if value is None or value is False:
            continue
        if value is True:
            parts.append(_(option.title))
            continue
        if isinstance(value, dict):
            text = ", ".join(f"{count} {key}" for key, count in value.items())
        else:
            text = _(option.choice_title(value))
        parts.append(_("%(option)s: %(value)s", option=_(option.title), value=text))
    return " · ".join(parts)


def game_words() -> list[str]:
    """The words the games themselves bring to the site (pitches, seats, options and their
    choices): scripts/catalogs.py adds them to the site's catalog, this module words them."""
    words: list[str] = []
    for game_id in game_ids():
        cls = game_class(game_id)
        words += [cls.PITCH, *cls.SEATS]
        for option in cls.OPTIONS:
            words += [option.title, *([option.help] if option.help else [])]
            words += [option.choice_title(c) for c in option.choices or ()]
        words += button_words(game_id).all()
    # Words without letters ("↻ 90°") read the same in every language.
    return [w for w in dict.fromkeys(words) if any(c.isalpha() for c in w)]


def game_info(game_id: str) -> dict[str, Any]:
    cls = game_class(game_id)
    return {
        "id": cls.ID,
        "title": cls.TITLE,
        "pitch": _(cls.PITCH),
        "seats": [_(seat) for seat in cls.SEATS],
        "chance": cls.CHANCE,
        "options": [option_field(o) for o in cls.OPTIONS],
        "variants": [dict(v) for v in cls.VARIANTS],
        "bots": bot_levels(game_id),
        "bot_names": [bot_name(level) for level in bot_levels(game_id)],
        "rules": rules_available(game_id),
        "words": words_json(game_id),
    }


# -- bots -----------------------------------------------------------------------------------
def make_bot(spec: str, game: Game, seed: int | None = None) -> Bot:
    return _make_bot(spec, game, seed=seed)


@functools.cache
def bot_levels(game_id: str) -> list[str]:
    """The bot levels this game can be played against (those ``make_bot`` accepts)."""
    game = game_class(game_id)()
    out = []
    for level in BOT_LEVELS:
        try:
            make_bot(level, game, seed=0)
        except (ValueError, KeyError, NotImplementedError):
            continue
        out.append(level)
    return out


def bot_name(spec: str) -> str:
    """The bot's name in the reader's language (for the lists a page shows)."""
    return _(BOT_NAMES[spec]) if spec in BOT_NAMES else _("Bot · %(level)s", level=spec)


def stored_bot_name(spec: str) -> str:
    """The bot's name as stored with its player (the catalog's source words): one name for
    every reader, which each page words in its own language. Storing the creator's words made
    the first visitor's language (say Arabic) every later visitor's bot name."""
    return BOT_NAMES.get(spec, f"Bot · {spec}")


# -- drawing ----------------------------------------------------------------------------------
def svg_board(state: State, last: Action | None = None) -> str:
    return render.svg_board(state, last=last)


def describe(game_id: str, action: Action, before: State | None = None) -> str:
    """The game's sentence for ``action`` in English; with ``before`` (the state it is played
    in) the places are named as on the board ("Gentle Wood", not "gentle-wood") and the mover
    too."""
    return said_in_english(describe_said(game_id, action, before))


def describe_said(game_id: str, action: Action, before: State | None = None) -> Message:
    """The sentence as a message, kept once in the move list and worded for each reader."""
    try:
        return render.describe_message(game_id, action, before)
    except Exception:  # a describe bug must not break the game page
        log.exception("describe(%s) failed in %s", action, game_id)
        return Message(SAID, {"text": action.text})


def said_in_english(said: Message) -> str:
    with i18n.use_locale(i18n.DEFAULT):
        return speak(said)


# -- actions as data --------------------------------------------------------------------------
def action_json(action: Action) -> dict[str, Any]:
    """An action with the structured fields the click-to-play client builds choices from:
    ``verb`` and ``tokens`` (the words after the verb, in notation order)."""
    words = action.text.split()
    return {"id": action.id, "text": action.text, "verb": action.verb, "tokens": words[1:]}


def legal_json(state: State) -> list[dict[str, Any]]:
    return [action_json(a) for a in state.legal_actions()]


def thrower(state: State) -> int | None:
    """The seat who throws the coins at this chance node in person, or None when the server
    throws at once. A throw is a person's when exactly one seat decides after it: Coin Age's
    slap starts the mover's turn; Wallet Battles' flips are both players' at once."""
    if state.current_player != CHANCE:
        return None
    seats = deciders_after_throw(state)
    return next(iter(seats)) if len(seats) == 1 else None


def max_plies(game: Game) -> int:
    return max(1, game.info.max_game_length)


def load_game(game_id: str, options: Mapping[str, Any]) -> Game:
    """The game with these options, shared with every other game that has them (a Game's rules
    never change once built, only its caches fill, and building one takes milliseconds the
    event loop would otherwise spend for every new game). A set-up left to chance (Coin Age's ``map="random"``) gets a
    seed drawn here, which the game's options, and so its record, keep."""
    cls = game_class(game_id)
    return load_shared(cls.ID, with_seed(cls.ID, options, fresh_seed()))


def load_state(game_id: str, options: dict[str, Any], history: Sequence[str]) -> State:
    """Rebuild a stored game (used when a game is resumed after a restart)."""
    game = load_game(game_id, options)
    state = game.new_initial_state()
    for text in history:
        state.apply(text)
    return state


# -- rules pages -------------------------------------------------------------------------------
def rules_available(game_id: str) -> bool:
    return rules_text(game_id) is not None
