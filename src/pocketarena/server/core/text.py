"""The one rule for a line of text people show each other: chat messages, display names and
usernames. The text is kept in NFC (a letter typed as a base and a combining accent is the same
name as the precomposed letter), on one line, single-spaced, and made only of characters that
show as themselves: no control characters, no format characters (category Cf: bidirectional
marks, embeddings, overrides and isolates, the Arabic letter mark, zero widths, the byte order
mark, tag characters...), no surrogates, private-use or unassigned code points, no line or
paragraph separators. Those change how the text around them is shown, hide inside a name that
looks like another, or mean nothing yet. The cost: emoji joined by U+200D (ZWJ) show as their
parts, and scripts that use U+200C/U+200D between letters are written without them.
"""

from __future__ import annotations

import unicodedata

# Unicode general categories refused anywhere in a line of text.
REFUSED = {
    "Cc": "a control character",
    "Cf": "a format character",
    "Cs": "a surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}


class TextError(ValueError):
    """A line of text refused, with a message that names the character and says why."""


def visible_line(text: str) -> str:
    """``text`` in NFC, stripped, with every run of spaces one space; TextError if it holds a
    character of a category in ``REFUSED`` (the first one is named by its code point)."""
    text = unicodedata.normalize("NFC", text)
    for ch in text:
        kind = REFUSED.get(unicodedata.category(ch))
        if kind is not None:
            name = unicodedata.name(ch, "")
            shown = f"U+{ord(ch):04X}" + (f" {name}" if name else "")
            raise TextError(f"{shown}, {kind} (it changes or hides how text is shown)")
    return " ".join(text.split())
