"""``pocketarena rules GAME``: the game's rules page, drawn in the terminal."""

from __future__ import annotations

import typer
from rich.markdown import Markdown

from ..rulepages import rules_text
from .common import FAILED, GameArg, _, console, fail, game_id_or_fail


def rules(game_id: GameArg) -> None:
    """Print the rules of GAME."""
    key = game_id_or_fail(game_id)
    text = rules_text(key)
    if text is None:
        fail(
            _("%(game)s has no rules page yet (docs/rules/%(game)s.md is missing)", game=key),
            FAILED,
        )
    console.print(Markdown(text))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
