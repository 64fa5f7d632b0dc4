"""Bots by name: ``make_bot("greedy", game)``. A spec is a name, optionally ``name:argument``
(``mcts:2000`` iterations, ``mcts:1.5s`` seconds, ``expectimax:3`` turns deep, ``alphazero:64``
simulations of its network-guided search); the argument is
the factory's to read. The levels ``easy``, ``medium``, ``hard`` and ``perfect`` pick the
method and budget per game (see ``levels``); ``hard:0.2s`` is a level with its thinking time
changed.

Adding a bot is one line in ``FACTORIES``: a callable ``(game, seed, argument) -> Bot``. Bots
that live outside this package are entry points of group ``pocketarena.bots`` naming such a
callable: OpenSpiel's own MCTS (``openspiel-mcts``, for comparison; needs the rl extra) is one,
in :mod:`pocketarena.interop.openspiel_mcts`, since it plays through the OpenSpiel adapter, which
sits above the bots.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any

from pocketarena.core import Game
from pocketarena.core.errors import Message, Refusal, message

from .base import Bot
from .levels import LEVEL_NAMES, counted
from .simple import GreedyBot, RandomBot

Factory = Callable[[Game, "int | str | None", "str | None"], Bot]


def _plain(cls: type[Bot]) -> Factory:
    """A factory for a bot that takes no argument in its spec."""

    def make(game: Game, seed: int | str | None, argument: str | None) -> Bot:
        if argument is not None:
            raise Refusal("bot.no-argument", name=cls.name, spec=f"{cls.name}:{argument}")
        return cls(game, seed=seed)

    return make


# What the whole number after ``name:`` counts, per search bot: (budget name, in words).
_COUNTS: dict[str, tuple[str, Message, int]] = {
    "mcts": ("iterations", message("bot.count.iterations"), 2000),
    "expectimax": ("depth", message("bot.count.turns-deep"), 2),
    "alphazero": ("simulations", message("bot.count.simulations"), 64),
}


def _budget(name: str, argument: str | None) -> dict[str, Any]:
    return parse_budget(name, argument, *_COUNTS[name])


def parse_budget(
    name: str, argument: str | None, budget: str, words: Message, example: int
) -> dict[str, Any]:
    """Read a search budget after ``name:``: ``2000`` (a count of ``budget``, e.g. iterations,
    described as ``words``, a message such as ``bot.count.iterations``) or ``1.5s`` (seconds)."""
    if argument is None:
        return {}
    text = argument.strip()
    try:
        if text.endswith("s"):
            seconds = float(text[:-1])
            if not 0 < seconds <= 3600:
                raise ValueError
            return {"seconds": seconds}
        count = int(text)
        if count < 1:
            raise ValueError
        return {budget: count}
    except ValueError:
        raise Refusal(
            "bot.budget",
            spec=f"{name}:{argument}",
            name=name,
            counts=words,
            example=f"{name}:{example}",
        ) from None


def _mcts(game: Game, seed: int | str | None, argument: str | None) -> Bot:
    from .levels import mcts_settings
    from .mcts import MCTSBot

    return MCTSBot(game, seed=seed, **mcts_settings(game), **_budget("mcts", argument))


def _expectimax(game: Game, seed: int | str | None, argument: str | None) -> Bot:
    from .expectimax import ExpectimaxBot

    return ExpectimaxBot(game, seed=seed, **_budget("expectimax", argument))


def _alphazero(game: Game, seed: int | str | None, argument: str | None) -> Bot:
    from .alphazero import AlphaZeroBot

    return AlphaZeroBot(game, seed=seed, **_budget("alphazero", argument))


def _level(level: str) -> Factory:
    def make(game: Game, seed: int | str | None, argument: str | None) -> Bot:
        return _level_bot(game, level, seed, argument, reproducible=False)

    return make


def _level_bot(
    game: Game, level: str, seed: int | str | None, argument: str | None, *, reproducible: bool
) -> Bot:
    from .levels import make_level

    seconds = None
    if argument is not None:
        text = argument.strip()
        try:
            seconds = float(text[:-1]) if text.endswith("s") else -1.0
        except ValueError:
            seconds = -1.0
        if not 0 < seconds <= 3600:
            raise Refusal("bot.level-seconds", spec=f"{level}:{argument}", level=level)
    return make_level(game, level, seed, seconds=seconds, reproducible=reproducible)


FACTORIES: dict[str, Factory] = {
    "random": _plain(RandomBot),
    "greedy": _plain(GreedyBot),
    "mcts": _mcts,
    "expectimax": _expectimax,
    "easy": _level("easy"),
    "medium": _level("medium"),
    "hard": _level("hard"),
    "perfect": _level("perfect"),
    "alphazero": _alphazero,
}


@functools.cache
def _installed() -> dict[str, Any]:
    """Bots from entry points (group ``pocketarena.bots``), by name; loaded when first used."""
    return {point.name: point for point in entry_points(group="pocketarena.bots")}


class UnknownBotError(Refusal):
    """A bot name no factory answers to (``bot.unknown``)."""


def bot_names() -> list[str]:
    return sorted({*FACTORIES, *_installed()})


def _factory(name: str) -> Factory | None:
    factory = FACTORIES.get(name)
    if factory is None and name in _installed():
        loaded: Factory = _installed()[name].load()
        factory = FACTORIES[name] = loaded
    return factory


def make_bot(
    spec: str, game: Game, seed: int | str | None = None, *, reproducible: bool = False
) -> Bot:
    """The bot a spec names (``random``, ``greedy``…) for ``game``; ValueError lists the valid ones.

    ``reproducible``: a thinking time (``hard``, ``mcts:0.5s``) becomes a count worth about as
    much (``levels.counted``), so with the same seed the bot decides the same on any machine."""
    name, sep, argument = str(spec).strip().lower().partition(":")
    factory = _factory(name)
    if factory is None:
        raise UnknownBotError(message("bot.unknown", spec=spec, bots=", ".join(bot_names())))
    if not reproducible:
        return factory(game, seed, argument if sep else None)
    if name in LEVEL_NAMES:
        return _level_bot(game, name, seed, argument if sep else None, reproducible=True)
    if name in _COUNTS and sep:
        method = name if name in ("expectimax", "alphazero") else "mcts"
        budget = counted(game, method, _budget(name, argument))
        argument = str(next(iter(budget.values())))
    return factory(game, seed, argument if sep else None)
