"""Bots by name: ``make_bot("greedy", game)``. A spec is a name, optionally ``name:argument``
(``mcts:2000``); the argument is the factory's to read.

Adding a bot is one line in ``FACTORIES``: a callable ``(game, seed, argument) -> Bot``.
"""

from __future__ import annotations

from collections.abc import Callable

from pocketarena.core import Game

from .base import Bot
from .simple import GreedyBot, RandomBot

Factory = Callable[[Game, "int | str | None", "str | None"], Bot]


def _plain(cls: type[Bot]) -> Factory:
    """A factory for a bot that takes no argument in its spec."""

    def make(game: Game, seed: int | str | None, argument: str | None) -> Bot:
        if argument is not None:
            raise ValueError(f"bot {cls.name!r} takes no argument (got {cls.name}:{argument})")
        return cls(game, seed=seed)

    return make


FACTORIES: dict[str, Factory] = {
    "random": _plain(RandomBot),
    "greedy": _plain(GreedyBot),
}


def bot_names() -> list[str]:
    return sorted(FACTORIES)


def make_bot(spec: str, game: Game, seed: int | str | None = None) -> Bot:
    """The bot a spec names (``random``, ``greedy``…) for ``game``; ValueError lists the valid ones."""
    name, sep, argument = str(spec).strip().lower().partition(":")
    factory = FACTORIES.get(name)
    if factory is None:
        raise ValueError(f"unknown bot {spec!r}; valid bots: {', '.join(bot_names())}")
    return factory(game, seed, argument if sep else None)
