"""``pocketarena rules GAME``: the game's rules page, drawn in the terminal."""

from __future__ import annotations

from importlib.resources import files

import typer
from rich.markdown import Markdown

from .common import FAILED, GameArg, console, fail, game_id_or_fail


def rules_text(game_id: str) -> str | None:
    """The Markdown rules page of a game, or None when it has none yet."""
    page = files("pocketarena") / "rulebook" / f"{game_id}.md"
    return page.read_text(encoding="utf-8") if page.is_file() else None


def rules(game_id: GameArg) -> None:
    """Print the rules of GAME."""
    key = game_id_or_fail(game_id)
    text = rules_text(key)
    if text is None:
        fail(f"{key} has no rules page yet (docs/rules/{key}.md is missing)", FAILED)
    console.print(Markdown(text))


def register(app: typer.Typer) -> None:
    app.command("rules")(rules)
