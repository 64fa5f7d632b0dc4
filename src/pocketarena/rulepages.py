"""The rules pages (Markdown shipped in the package), read by the terminal and the site.

A page is written for players, except its last section, headed ``## For programmers``: what a
program sees of the game (the position as JSON, scores as numbers, how options are reported).
Players are shown the page without it (:func:`rules_text`); developers read the whole file in
docs/rules (:func:`rulebook_text`)."""

from __future__ import annotations

import re
from importlib.resources import files

PROGRAMMERS_HEADING = "## For programmers"
_PROGRAMMERS = re.compile(rf"^{re.escape(PROGRAMMERS_HEADING)}[ \t]*$", re.MULTILINE)


def rulebook_text(game_id: str) -> str | None:
    """The whole rules page of a game as stored (players' rules and the programmers' section),
    or None when it has none."""
    try:
        page = files("pocketarena") / "rulebook" / f"{game_id}.md"
        return page.read_text(encoding="utf-8") if page.is_file() else None
    except (FileNotFoundError, NotADirectoryError):
        return None


def for_players(text: str) -> str:
    """A rules page without its closing ``## For programmers`` section."""
    match = _PROGRAMMERS.search(text)
    return text if match is None else text[: match.start()].rstrip() + "\n"


def rules_text(game_id: str) -> str | None:
    """The rules page of a game as players read it (the site's /rules/<game> and
    ``pocketarena rules``), or None when it has none."""
    text = rulebook_text(game_id)
    return None if text is None else for_players(text)
