"""The rules pages (Markdown shipped in the package), read by the terminal and the site.

A page is written for players, except its last section, headed ``## For programmers``: what a
program sees of the game (the position as JSON, scores as numbers, how options are reported).
Players are shown the page without it (:func:`rules_page`); developers read the whole file in
docs/rules (:func:`rulebook_text`).

The players' part is translated: ``docs/rules/<code>/<game>.md`` (``fr/coin-age.md``,
``pt_BR/stack-a-cash.md``) holds it in language ``<code>``, with the English page's headings,
notation and pictures. A reader whose language has no translation of a page reads the English
one, and is told so (:attr:`RulesPage.lang`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

from . import i18n

PROGRAMMERS_HEADING = "## For programmers"
_PROGRAMMERS = re.compile(rf"^{re.escape(PROGRAMMERS_HEADING)}[ \t]*$", re.MULTILINE)


@dataclass(frozen=True)
class RulesPage:
    """A rules page as players read it: ``text`` (Markdown) is written in ``lang`` (a code of
    :data:`pocketarena.i18n.LANGUAGES`), which is English when the reader's language has no
    translation of it; ``folder`` is where it lies in the rulebook ("" or "fr"), for its
    relative links."""

    text: str
    lang: str
    folder: str = ""


def _read(*parts: str) -> str | None:
    try:
        page = files("pocketarena") / "rulebook"
        for part in parts:
            page = page / part
        return page.read_text(encoding="utf-8") if page.is_file() else None
    except (FileNotFoundError, NotADirectoryError):
        return None


def rulebook_text(game_id: str) -> str | None:
    """The whole English rules page of a game as stored (players' rules and the programmers'
    section), or None when it has none."""
    return _read(f"{game_id}.md")


def translation_text(game_id: str, lang: str) -> str | None:
    """The players' part of a game's rules page translated into ``lang``, or None when there
    is no such translation (English is :func:`rulebook_text`)."""
    if lang == i18n.DEFAULT or lang not in i18n.LANGUAGES:
        return None
    return _read(lang, f"{game_id}.md")


def for_players(text: str) -> str:
    """A rules page without its closing ``## For programmers`` section."""
    match = _PROGRAMMERS.search(text)
    return text if match is None else text[: match.start()].rstrip() + "\n"


def rules_page(game_id: str, lang: str | None = None) -> RulesPage | None:
    """The rules page of a game as players read it (the site's /rules/<game> and
    ``pocketarena rules``) in ``lang`` (the language now spoken when None), the English page
    where there is no translation; None when the game has no rules page at all."""
    lang = i18n.current() if lang is None else lang
    translated = translation_text(game_id, lang)
    if translated is not None:
        return RulesPage(for_players(translated), lang, lang)
    text = rulebook_text(game_id)
    return None if text is None else RulesPage(for_players(text), i18n.DEFAULT)


def rules_text(game_id: str, lang: str | None = None) -> str | None:
    """The text of :func:`rules_page` (in ``lang``, else English), or None."""
    page = rules_page(game_id, lang)
    return None if page is None else page.text
