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

from pocketarena.i18n import N_, _

# Unicode general categories refused anywhere in a line of text.
REFUSED = {
    "Cc": N_("a control character"),
    "Cf": N_("a format character"),
    "Cs": N_("a surrogate"),
    "Co": N_("a private-use character"),
    "Cn": N_("an unassigned code point"),
    "Zl": N_("a line separator"),
    "Zp": N_("a paragraph separator"),
}


class TextError(ValueError):
    """A line of text refused because of ``char``; its text names the character and says why,
    in the language of the moment it is shown (``str``)."""

    def __init__(self, char: str) -> None:
        super().__init__(char)
        self.char = char

    def __str__(self) -> str:
        return refused_character(self.char)


def refused_character(ch: str) -> str:
    """Why ``ch`` is refused, in the reader's language: its code point and, where it has one,
    its Unicode name. The standard names characters in English only (no catalog of names in
    other languages ships with Python or CLDR), so a translation keeps the name as it is and
    says that it is the character's Unicode name: "U+202E (nom Unicode : RIGHT-TO-LEFT
    OVERRIDE)"."""
    code = f"U+{ord(ch):04X}"
    name = unicodedata.name(ch, "")
    if name:
        # The parameters' names are the translator's context: a code point, a Unicode name.
        code = _("%(code_point)s %(unicode_name)s", code_point=code, unicode_name=name)
    kind = _(REFUSED[unicodedata.category(ch)])
    return _("%(char)s, %(kind)s (it changes or hides how text is shown)", char=code, kind=kind)


def visible_line(text: str) -> str:
    """``text`` in NFC, stripped, with every run of spaces one space; TextError if it holds a
    character of a category in ``REFUSED`` (the first one is named by its code point)."""
    text = unicodedata.normalize("NFC", text)
    for ch in text:
        if unicodedata.category(ch) in REFUSED:
            raise TextError(ch)
    return " ".join(text.split())
