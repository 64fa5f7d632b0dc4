"""Game options: declared as data, validated with messages that name the valid choices."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import Message, Refusal, message

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class Option:
    """One option of a game: its name, type, default and (when finite) its choices."""

    name: str
    type: type
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    nullable: bool = False  # may also be None ("none" on a command line)
    # Extra check on a coerced value; returns why it is refused (a message, or a plain
    # sentence from a game that has no message ids) or None. A dict or list option's check
    # also sees a value of another type (JSON's null, a number), so the game says what it wants.
    check: Callable[[Any], Message | str | None] | None = field(default=None, compare=False)
    # How forms name the option and its choices for a person (the name and values otherwise).
    label: str = ""
    choice_labels: tuple[tuple[Any, str], ...] = ()
    # The option matters only while another has one of some values (a random map's number:
    # ``applies_when=("map", ("random",))``): forms show it only then, and send it only then.
    applies_when: tuple[str, tuple[Any, ...]] | None = None

    @property
    def title(self) -> str:
        """The option's name for a person: its label, or its name in words."""
        return self.label or self.name.replace("_", " ").capitalize()

    def choice_title(self, choice: Any) -> str:
        """A choice's name for a person: its label, or the value itself."""
        labels: dict[Any, str] = dict(self.choice_labels)
        return labels.get(choice, str(choice))

    def coerce(self, game_id: str, value: Any) -> Any:
        """Turn ``value`` (possibly a string from a command line) into a valid option value."""
        if self.nullable and (
            value is None or (isinstance(value, str) and value.strip().lower() in ("", "none"))
        ):
            return None
        if isinstance(value, str) and self.type is not str:
            value = self._from_text(game_id, value)
        if self.type is bool:
            if not isinstance(value, bool):
                raise self._refusal("option.true-or-false", game_id, value=value)
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise self._refusal("option.integer", game_id, value=value)
        elif not isinstance(value, self.type):
            if self.type in (dict, list):
                self._check(game_id, value)  # the game's words for what the value must be
            raise self._refusal("option.type", game_id, type=self.type.__name__, value=value)
        if self.type is str:
            value = value.strip().lower()
        if self.choices is not None and value not in self.choices:
            valid = ", ".join(str(c) for c in self.choices)
            raise self._refusal("option.choice", game_id, value=value, choices=valid)
        self._check(game_id, value)
        return value

    def _check(self, game_id: str, value: Any) -> None:
        """Refuse ``value`` if the option's own check finds a problem with it."""
        problem = self.check(value) if self.check is not None else None
        if problem:
            said = problem if isinstance(problem, Message) else message("core.said", text=problem)
            raise self._refusal("option.problem", game_id, problem=said)

    def _refusal(self, reason: str, game_id: str, **params: Any) -> Refusal:
        """A refused value of this option: ``reason``'s message with the game and the name."""
        return Refusal(reason, game=game_id, name=self.name, **params)

    def _from_text(self, game_id: str, text: str) -> Any:
        t = text.strip()
        if self.type is bool:
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise self._refusal("option.true-or-false", game_id, value=text)
        if self.type is int:
            try:
                return int(t)
            except ValueError:
                raise self._refusal("option.integer", game_id, value=text) from None
        if self.type in (dict, list):
            try:
                return json.loads(t)
            except json.JSONDecodeError:
                example = json.dumps(self.default)
                raise self._refusal("option.json", game_id, example=example) from None
        return t


def resolve_options(
    game_id: str, declared: tuple[Option, ...], given: dict[str, Any]
) -> dict[str, Any]:
    """Validate ``given`` against ``declared``; fill defaults. Unknown names raise ValueError."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown and not by_name:
        raise Refusal("option.none", name=unknown[0], game=game_id)
    if unknown:
        raise Refusal("option.unknown", name=unknown[0], game=game_id, valid=", ".join(by_name))
    resolved: dict[str, Any] = {}
    for option in declared:
        if option.name in given:
            resolved[option.name] = option.coerce(game_id, given[option.name])
        else:
            resolved[option.name] = option.default
    return resolved


def format_options(options: dict[str, Any]) -> str:
    """Options as they are typed after ``-o``, for people to read and copy:
    ``mode=tactical, series=false`` (text bare, anything else as JSON)."""
    return ", ".join(
        f"{name}={value if isinstance(value, str) else json.dumps(value)}"
        for name, value in options.items()
    )


def parse_option_pairs(pairs: list[str]) -> dict[str, str]:
    """Read ``["mode=tactical", "series=false"]`` (as typed on a command line) into a dict."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise Refusal("option.pair", pair=pair)
        out[name.strip().replace("-", "_")] = value.strip()
    return out
