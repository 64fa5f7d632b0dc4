"""``pocketarena rules GAME``: the game's rules page, drawn in the terminal, in the terminal's
language (``--lang``, else ``LANGUAGE``/``LANG``) where the page is translated, else in
English."""

from __future__ import annotations

import typer

from ..rulepages import rules_text
from .common import FAILED, GameArg, _, console, fail, game_id_or_fail


def rules(game_id: GameArg) -> None:
    """Print the rules of GAME."""
    from rich.markdown import Markdown  # here: markdown-it and pygments only for this command

    key = game_id_or_fail(game_id)
    text = rules_text(key)
    if text is None:
        fail(
            _("%(game)s has no rules page yet (docs/rules/%(game)s.md is missing)", game=key),
            FAILED,
        )
    if console.is_terminal:
        console.print(Markdown(text))
        return
    # Piped or redirected: the page without the spaces rich pads every line with.
    with console.capture() as page:
        console.print(Markdown(text))
    console.file.write("\n".join(line.rstrip() for line in page.get().splitlines()) + "\n")


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
