"""Errors raised by the engine. All are ``ValueError``s, split by stage as python-chess does."""

from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that cannot be applied here: unreadable, wrong kind of node, or against the rules.

    The state it was offered to is left unchanged.
    """


class NotationError(IllegalActionError):
    """Text that does not read as any action of the game (a typo, an unknown cell, "")."""


class RecordError(ValueError):
    """A game record that cannot be read or does not replay."""
