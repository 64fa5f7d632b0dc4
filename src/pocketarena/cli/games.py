"""``pocketarena games``: every installed game with its options and variants. The games' own
words (pitches, options' help) are the site's catalog words, as the site shows them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any

import typer
from rich.markup import escape
from rich.text import Text

import pocketarena as pa
from pocketarena import i18n
from pocketarena.core import format_options, seat_name
from pocketarena.messages import speak

from .common import N_, _, console, say


def _line(markup: str, indent: int) -> None:
    """A line of the listing, wrapped at the terminal's width (80 columns when piped) with
    its continuation lines indented as its first, never past the edge."""
    for piece in Text.from_markup(markup).wrap(console, max(20, console.width - indent)):
        piece.rstrip()
        console.print(Text(" " * indent) + piece, soft_wrap=True)


def _option(option: pa.Option) -> str:
    line = f"[bold]{option.name}[/]={escape(json.dumps(option.default))}"
    if option.choices:
        line += " (" + ", ".join(escape(str(c)) for c in option.choices) + ")"
    return line + f"  [dim]{escape(i18n.SITE.gettext(option.help))}[/]"


def games(
    as_json: Annotated[
        bool, typer.Option("--json", help=N_("Print the games, options and variants as JSON."))
    ] = False,
) -> None:
    """List the games, their options and variants."""
    if as_json:
        listing = [
            {
                "id": game_id,
                "title": cls.TITLE,
                "chance": bool(cls.CHANCE),
                "seats": list(cls.SEATS),
                "options": [
                    {"name": o.name, "default": o.default, "choices": list(o.choices or [])}
                    for o in cls.OPTIONS
                ],
                "variants": [dict(v) for v in cls.VARIANTS],
            }
            for game_id, cls in sorted(pa.GAMES.items())
        ]
        console.print_json(json.dumps(listing))
        return
    if not pa.GAMES:
        say(_("No games are installed."))
        return
    for game_id in sorted(pa.GAMES):
        cls = pa.GAMES[game_id]
        with_chance = _("(with chance)")
        chance = f"  [dim]{with_chance}[/]" if cls.CHANCE else ""
        say(f"[bold]{escape(game_id)}[/]  {escape(cls.TITLE)}{chance}")
        if cls.PITCH:
            _line(escape(i18n.SITE.gettext(cls.PITCH)), 2)
        seats = " / ".join(speak(seat_name(s)) for s in cls.SEATS)
        say("  " + _("seats: %(seats)s", seats=escape(seats)))
        if cls.OPTIONS:
            say("  " + _("options:"))
            for option in cls.OPTIONS:
                _line(_option(option), 4)
        variants = "; ".join(escape(_variant(v)) for v in cls.VARIANTS)
        _line(_("variants: %(variants)s", variants=variants), 2)
        say()


def _variant(options: Mapping[str, Any]) -> str:
    return format_options(dict(options)) or _("defaults")


def register(app: typer.Typer) -> None:
    app.command("games")(games)
