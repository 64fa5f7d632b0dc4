"""What every bot is: a named player that picks an action at a decision node.

A bot owns its randomness (its own ``random.Random``, seeded by the caller) and never changes
the state it is shown: it looks ahead on ``state.child``/``state.clone`` copies only.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from pocketarena.core import Action, Game, State


class Bot(ABC):
    """A player for one game. Subclasses set ``name`` and implement ``choose``.

    ``budget`` holds search limits (``iterations=2000``…); each subclass lists the names it
    accepts in ``BUDGET`` so a typo is an error rather than silently ignored.
    """

    name: ClassVar[str] = "bot"
    BUDGET: ClassVar[tuple[str, ...]] = ()

    def __init__(self, game: Game, *, seed: int | str | None = None, **budget: Any) -> None:
        unknown = sorted(set(budget) - set(self.BUDGET))
        if unknown:
            accepted = ", ".join(self.BUDGET) if self.BUDGET else "none"
            raise ValueError(
                f"{self.name} bot has no budget {unknown[0]!r}; it accepts: {accepted}"
            )
        self.game = game
        self.seed = seed
        self.budget = budget
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, state: State) -> Action:
        """The action to play at ``state`` (a decision node of this bot's game); ``state`` is
        left exactly as it was."""

    def reset(self) -> None:
        """Forget anything learnt during a game (search trees, caches). Called on undo and
        between games; the default bot keeps nothing."""
        return None

    def reseed(self, seed: int | str | None) -> None:
        """Go on as if built with ``seed``: its random numbers start again from it and what it
        learnt is forgotten, so its next choice depends on the state and the seed alone (a
        server seeds its bots for every move, and a game then replays exactly)."""
        self.seed = seed
        self.rng = random.Random(seed)
        self.reset()

    def legal_decisions(self, state: State) -> Sequence[Action]:
        """The legal decisions at ``state``; ValueError if this is not a decision node of
        this bot's game (bots decide; they do not throw coins)."""
        if state.game.ID != self.game.ID:
            raise ValueError(f"a {self.game.ID} bot was shown a {state.game.ID} state")
        if state.current_player < 0:
            kind = "chance" if state.is_chance_node() else "terminal"
            raise ValueError(f"{self.name} decides at decision nodes only; this is a {kind} node")
        return state.legal_actions()

    def __repr__(self) -> str:
        extra = "".join(f", {k}={v!r}" for k, v in self.budget.items())
        return f"{type(self).__name__}({self.game!r}, seed={self.seed!r}{extra})"
