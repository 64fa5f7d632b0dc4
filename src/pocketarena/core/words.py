"""Small helpers for the messages games and tools give to people: the pieces a message's
parameters are made of (a seat's name, a list), as messages themselves so that each is worded
in the reader's language. ``possessive`` is English's own rule, used by the English wording."""

from __future__ import annotations

from collections.abc import Iterable

from .errors import Message, message


def possessive(name: str) -> str:
    """``Heads'`` and ``Tails'``, but ``Blue's``: a name ending in s takes the apostrophe
    alone ("Heads' quarter"), as English writes a plural."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def seat_name(name: str) -> Message:
    """A seat's name ("Heads", "Blue", "Union") as a word to translate."""
    return message(f"seat.{name.lower()}")


def seat_of(name: str) -> Message:
    """``Heads'`` (``de Pile`` in French): a seat's name as the owner of something."""
    return message("core.possessive", name=seat_name(name))


def comma_list(items: Iterable[str | Message]) -> Message:
    """Items joined as "a, b, c" (the separator is the reader's language's)."""
    return message("core.list", items=list(items))


def and_list(items: Iterable[str | Message]) -> Message:
    """Items joined as "a, b and c"."""
    return message("core.all", items=list(items))


def or_list(items: Iterable[str | Message]) -> Message:
    """Items joined as "a or b or c"."""
    return message("core.alternatives", items=list(items))
