"""``pocketarena games``: every installed game with its options and variants."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import typer
from rich.markup import escape

import pocketarena as pa
from pocketarena.core import format_options

from .common import say


def _option(option: pa.Option) -> str:
    line = f"[bold]{option.name}[/]={escape(json.dumps(option.default))}"
    if option.choices:
        line += " (" + ", ".join(escape(str(c)) for c in option.choices) + ")"
    return line + f"  [dim]{escape(option.help)}[/]"


def games() -> None:
    """List the games, their options and variants."""
    if not pa.GAMES:
        say("No games are installed.")
        return
    for game_id in sorted(pa.GAMES):
        cls = pa.GAMES[game_id]
        chance = "  [dim](with chance)[/]" if cls.CHANCE else ""
        say(f"[bold]{escape(game_id)}[/]  {escape(cls.TITLE)}{chance}")
        if cls.PITCH:
            say(f"  {escape(cls.PITCH)}")
        say(f"  seats: {escape(' / '.join(cls.SEATS))}")
        if cls.OPTIONS:
            say("  options:")
            for option in cls.OPTIONS:
                say(f"    {_option(option)}")
        say("  variants: " + "; ".join(escape(_variant(v)) for v in cls.VARIANTS))
        say()


def _variant(options: Mapping[str, Any]) -> str:
    return format_options(dict(options)) or "defaults"


def register(app: typer.Typer) -> None:
    app.command("games")(games)
