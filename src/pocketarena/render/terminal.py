"""What the games' terminal pictures share: the compact form below 80 columns, and lines laid
out for the terminal's width by the picture itself (so that a board is the same wherever it is
shown, never folded by the terminal mid-cell)."""

from __future__ import annotations

import io

from rich.console import Console
from rich.text import Text

COMPACT_BELOW = 80  # columns: a narrower terminal gets each game's compact form


def is_compact(width: int) -> bool:
    return width < COMPACT_BELOW


def fold(text: Text | str, width: int) -> Text:
    """``text`` broken between words into lines of at most ``width`` columns (a longer word is
    cut), styles kept."""
    text = Text(text) if isinstance(text, str) else text
    console = Console(width=width, file=io.StringIO(), color_system=None)
    return Text("\n").join(text.wrap(console, width, overflow="fold"))
