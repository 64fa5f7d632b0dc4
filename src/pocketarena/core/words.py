"""Small helpers for the sentences games and tools show to people."""

from __future__ import annotations


def possessive(name: str) -> str:
    """``Heads'`` and ``Tails'``, but ``Blue's``: a name ending in s takes the apostrophe
    alone ("Heads' quarter"), as English writes a plural."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"
