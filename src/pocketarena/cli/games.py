"""``pocketarena games``: every installed game with its options and variants."""

from __future__ import annotations

import json

import typer
from rich.markup import escape
from rich.table import Table

import pocketarena as pa

from .common import console


def _option(option: pa.Option) -> str:
    line = f"[bold]{option.name}[/]={escape(json.dumps(option.default))}"
    if option.choices:
        line += " (" + ", ".join(escape(str(c)) for c in option.choices) + ")"
    return line + f"  [dim]{escape(option.help)}[/]"


def games() -> None:
    """List the games, their options and variants."""
    table = Table(show_lines=True)
    table.add_column("game")
    table.add_column("seats")
    table.add_column("options")
    table.add_column("variants")
    for game_id in sorted(pa.GAMES):
        cls = pa.GAMES[game_id]
        title = f"[bold]{escape(game_id)}[/]\n{escape(cls.TITLE)}" + (
            " [dim](chance)[/]" if cls.CHANCE else ""
        )
        if cls.PITCH:
            title += f"\n[dim]{escape(cls.PITCH)}[/]"
        options = "\n".join(_option(o) for o in cls.OPTIONS) or "[dim]none[/]"
        variants = "\n".join(
            escape(", ".join(f"{k}={json.dumps(v)}" for k, v in v.items()) or "(defaults)")
            for v in cls.VARIANTS
        )
        table.add_row(title, " / ".join(cls.SEATS), options, variants)
    if not pa.GAMES:
        console.print("No games are installed.")
        return
    console.print(table)


def register(app: typer.Typer) -> None:
    app.command("games")(games)
