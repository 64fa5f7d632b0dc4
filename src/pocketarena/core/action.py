"""Actions: small immutable values that print as canonical notation and compare by it."""

from __future__ import annotations

from typing import Any


class Action:
    """One action of a game: a decision (``place L b2``) or a chance outcome (``flip HH``).

    A game builds each of its actions once, in a table indexed by ``id``; ``str(action)`` is the
    canonical notation, and two actions are equal when their notation is. An action also equals
    its canonical text, so ``"pass" in state.legal_actions()`` reads naturally.
    """

    __slots__ = ("id", "text", "verb", "args", "chance")

    id: int
    text: str
    verb: str
    args: tuple[Any, ...]
    chance: bool

    def __init__(
        self, id: int, text: str, verb: str, args: tuple[Any, ...] = (), chance: bool = False
    ) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "verb", verb)
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "chance", chance)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("actions are immutable")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Action({self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Action):
            return self.text == other.text
        if isinstance(other, str):
            return self.text == other
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def __hash__(self) -> int:
        return hash(self.text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (Action, (self.id, self.text, self.verb, self.args, self.chance))
