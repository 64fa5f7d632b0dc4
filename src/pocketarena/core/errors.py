"""Errors raised by the engine, split by stage as python-chess does, all ``ValueError``s.

An action error says *why* as a :class:`Message`: an id (``stack-a-cash.protected``) and
parameters (``{"place": "b2", "seat": 1}``), with no language in it. The English sentence
(``str(error)``) and every translation are worded by :mod:`pocketarena.messages`, the one
place that holds the text.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# A message id is dotted words ("core.game-over"); anything else given where a reason is
# expected is a sentence a game wrote itself (a plugin's raise), kept as it is.
_MESSAGE_ID = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)+")
SAID = "core.said"
# Words a message in English; pocketarena.messages (the text's one home) installs itself here
# when the package is imported, so the engine never imports its words.
_wording: Callable[[Message], str] | None = None


def set_wording(wording: Callable[[Message], str]) -> None:
    global _wording
    _wording = wording


@dataclass(frozen=True, slots=True)
class Message:
    """What the engine says, as an id and parameters; the presentation layer words it.

    A parameter is text that is never translated (notation, a cell, a number) or another
    ``Message`` (a seat's name, a coin's name) that is worded in the reader's language too.
    """

    id: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        if _wording is None:
            return f"{self.id} {dict(self.params)}"
        return _wording(self)

    def to_json(self) -> dict[str, Any]:
        """``{"id": ..., "params": {...}}`` with inner messages as the same kind of object."""
        return {"id": self.id, "params": _json_params(self.params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Message:
        """The message ``to_json`` wrote (inner messages and lists of them included)."""
        return cls(str(data["id"]), {k: _from_json(v) for k, v in data["params"].items()})


def message(id: str, /, **params: Any) -> Message:
    return Message(id, params)


def _json_params(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: _to_json(v) for k, v in params.items()}


def _to_json(value: Any) -> Any:
    if isinstance(value, Message):
        return value.to_json()
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


def _from_json(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"id", "params"}:
        return Message.from_json(value)
    if isinstance(value, list):
        return [_from_json(v) for v in value]
    return value


def _said(reason: str | Message, params: Mapping[str, Any]) -> Message:
    """An error's message: a message (more parameters added), an id and its parameters, or a
    plain sentence kept as it is (``core.said``)."""
    if isinstance(reason, Message):
        return Message(reason.id, {**reason.params, **params})
    if _MESSAGE_ID.fullmatch(reason):
        return Message(reason, dict(params))
    return Message(SAID, {"text": reason})


class Refusal(ValueError):
    """Something refused, said as a message and worded where it is shown (English in
    ``str``): a message (more parameters added), an id and its parameters, or a plain sentence
    kept as it is. Actions, records, bot names and arenas are refused this way."""

    def __init__(self, reason: str | Message, /, **params: Any) -> None:
        self.message = _said(reason, params)
        super().__init__(self.message.id)

    def __str__(self) -> str:
        return str(self.message)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.message,))  # across processes (arena's workers) too


class ActionError(Refusal):
    """An action that cannot be read or cannot be played; ``reason`` and ``params`` say why.

    ``ActionError("stack-a-cash.protected", place="b2", seat=...)``; a plain sentence instead
    of an id is kept as it is (reason ``core.said``), for games that have no message ids.
    """

    @property
    def reason(self) -> str:
        return self.message.id

    @property
    def params(self) -> Mapping[str, Any]:
        return self.message.params

    def to_json(self) -> dict[str, Any]:
        """``{"reason": ..., "params": {...}}``, JSON-safe, for services and clients."""
        return {"reason": self.message.id, "params": _json_params(self.message.params)}


class IllegalActionError(ActionError):
    """An action of the game that the rules refuse here (a taken cell, the wrong node's kind,
    a finished game). The state it was offered to is left unchanged.
    """


class NotationError(ActionError):
    """Text that does not read as any action of the game (a typo, an unknown cell, "")."""


class UnreadableActionError(NotationError, IllegalActionError):
    """Text offered to ``State.apply`` that reads as no action. The engine contract refuses an
    unreadable action to ``apply`` as it refuses an illegal one, so this one error is both;
    reading text alone (``Game.parse_action``) raises a plain ``NotationError``."""


class RecordError(Refusal):
    """A game record that cannot be read or does not replay; ``message`` says why, as a
    message id and parameters (``RecordError("record.empty")``), worded where it is shown.
    A plain sentence instead of an id is kept as it is."""
