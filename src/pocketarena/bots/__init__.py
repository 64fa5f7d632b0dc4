"""Bots: players that choose an action for a state. They import the rules, never the reverse."""

from .base import Bot
from .registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot"]
