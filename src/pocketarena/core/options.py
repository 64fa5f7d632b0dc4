"""Game options: declared as data, validated with messages that name the valid choices."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    # Extra check on a coerced value; returns an error message or None.
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)
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
                raise ValueError(
                    f"{game_id} option {self.name!r} must be true or false, got {value!r}"
                )
        elif self.type is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(
                    f"{game_id} option {self.name!r} must be an integer, got {value!r}"
                )
        elif not isinstance(value, self.type):
            raise ValueError(
                f"{game_id} option {self.name!r} must be a {self.type.__name__}, got {value!r}"
            )
        if self.type is str:
            value = value.strip().lower()
        if self.choices is not None and value not in self.choices:
            valid = ", ".join(str(c) for c in self.choices)
            raise ValueError(
                f"{game_id} option {self.name}={value!r} is not valid; choose one of: {valid}"
            )
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(f"{game_id} option {self.name!r}: {problem}")
        return value

    def _from_text(self, game_id: str, text: str) -> Any:
        t = text.strip()
        if self.type is bool:
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise ValueError(f"{game_id} option {self.name!r} must be true or false, got {text!r}")
        if self.type is int:
            try:
                return int(t)
            except ValueError:
                raise ValueError(
                    f"{game_id} option {self.name!r} must be an integer, got {text!r}"
                ) from None
        if self.type in (dict, list):
            try:
                return json.loads(t)
            except json.JSONDecodeError:
                raise ValueError(
                    f"{game_id} option {self.name!r} must be JSON, e.g. {json.dumps(self.default)}"
                ) from None
        return t


def resolve_options(
    game_id: str, declared: tuple[Option, ...], given: dict[str, Any]
) -> dict[str, Any]:
    """Validate ``given`` against ``declared``; fill defaults. Unknown names raise ValueError."""
    by_name = {o.name: o for o in declared}
    unknown = [k for k in given if k not in by_name]
    if unknown:
        valid = ", ".join(by_name) if by_name else "none"
        raise ValueError(f"unknown option {unknown[0]!r} for {game_id}; valid options: {valid}")
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
            raise ValueError(f"option {pair!r} must look like name=value")
        out[name.strip().replace("-", "_")] = value.strip()
    return out
