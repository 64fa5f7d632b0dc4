"""The game side of the engine contract: what a game is (as data), its actions and notation."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from .action import Action
from .errors import IllegalActionError, Message, NotationError, message
from .options import Option, resolve_options
from .words import comma_list, or_list

if TYPE_CHECKING:
    from .state import State


@dataclass(frozen=True)
class GameInfo:
    """What a game is, as data (OpenSpiel's GameType + GameInfo in one)."""

    id: str
    title: str
    chance: bool  # does the game have chance nodes?
    seats: tuple[str, str]  # seat names: seat 0 first
    num_distinct_actions: int  # decisions
    max_chance_outcomes: int
    max_game_length: int  # plies, chance outcomes included
    min_utility: float = -1.0
    max_utility: float = 1.0


def normalize_notation(text: str) -> str:
    """Forgive case and extra spaces: the key every game's parser looks actions up by."""
    return " ".join(text.split()).lower()


class Game(ABC):
    """A game with its options fixed. Subclasses declare ``ID``, ``TITLE``, ``SEATS``,
    ``CHANCE``, ``OPTIONS`` and ``VARIANTS``, build their action table and make states.
    """

    ID: ClassVar[str]
    TITLE: ClassVar[str]
    SEATS: ClassVar[tuple[str, str]]
    CHANCE: ClassVar[bool] = False
    OPTIONS: ClassVar[tuple[Option, ...]] = ()
    # Option sets that together cover every mode/map: the conformance suite, perft data,
    # benchmarks and balance reports iterate over these.
    VARIANTS: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    # Options that choose between readings of an ambiguous printed rule, with the readings to
    # weigh: the balance lab plays every combination of them on each variant's other options.
    READINGS: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    PITCH: ClassVar[str] = ""
    # Keys of ``State.position()`` that only count towards a guard ending an endless game
    # (Wallet Battles' flips): positions equal but for them are one position for a searcher
    # that merges runs of chance (the OpenSpiel adapter's ``merge_chance``).
    GUARD_COUNTERS: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = self._resolve(
            resolve_options(self.ID, self.OPTIONS, options)
        )
        decisions, outcomes = self._build_actions()
        self.actions: tuple[Action, ...] = tuple(decisions) + tuple(outcomes)
        self.num_decisions = len(decisions)
        for i, action in enumerate(self.actions):
            if action.id != i:
                raise AssertionError(f"{self.ID}: action {action} has id {action.id}, expected {i}")
        self._by_key: dict[str, Action] = {normalize_notation(a.text): a for a in self.actions}
        for alias, action in self._aliases():
            self._by_key.setdefault(normalize_notation(alias), action)
        self.info = GameInfo(
            id=self.ID,
            title=self.TITLE,
            chance=self.CHANCE,
            seats=self.SEATS,
            num_distinct_actions=len(decisions),
            max_chance_outcomes=len(outcomes),
            max_game_length=self._max_game_length(),
        )

    # -- hooks for subclasses -------------------------------------------------------------
    @classmethod
    def recorded_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """The options a stored game (a record, a saved game) was played with. Stores name
        every option, so a name left out means the store predates that option; a game whose
        new option or changed default would alter such a game says here what it was then."""
        return dict(options)

    @classmethod
    def needs_seed(cls, options: Mapping[str, Any]) -> bool:
        """Do these validated options leave part of the set-up to chance with no ``seed``
        option given? The engine never draws randomness: the caller supplies the seed."""
        return False

    def _resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        """Turn validated options into their final form (e.g. the map a seed picks)."""
        return options

    @abstractmethod
    def _build_actions(self) -> tuple[list[Action], list[Action]]:
        """Every decision and every chance outcome of the game, ids 0.. in that order."""

    def _aliases(self) -> Iterable[tuple[str, Action]]:
        """Extra spellings the parser accepts (e.g. FlipWars rotations with the same effect)."""
        return ()

    @abstractmethod
    def _max_game_length(self) -> int: ...

    @abstractmethod
    def new_initial_state(self) -> State: ...

    def explain_unreadable(self, text: str) -> Message:
        """Say why ``text`` is not an action of this game. Games may refine this."""
        words = normalize_notation(text).split()
        if not words:
            return message("core.empty-action", example=self._example())
        verbs = sorted({a.verb for a in self.actions})
        if words[0] not in verbs:
            return message(
                "core.unknown-verb", text=text.strip(), word=words[0], verbs=comma_list(verbs)
            )
        shapes = {str(s): s for s in (self._shape(a) for a in self.actions if a.verb == words[0])}
        return message(
            "core.not-an-action",
            text=text.strip(),
            game=self.TITLE,
            word=words[0],
            shapes=or_list(shapes[k] for k in sorted(shapes)),
        )

    def _shape(self, action: Action) -> str | Message:
        return action.text

    def _example(self) -> str:
        return repr(self.actions[0].text) if self.actions else "''"

    # -- the public contract --------------------------------------------------------------
    @property
    def id(self) -> str:
        return self.ID

    @property
    def title(self) -> str:
        return self.TITLE

    def parse_action(self, text: str) -> Action:
        """Read notation (any case, any spacing) as one of this game's actions."""
        if not isinstance(text, str):
            raise NotationError("core.not-text", type=type(text).__name__)
        action = self._by_key.get(normalize_notation(text))
        if action is None:
            raise NotationError(self.explain_unreadable(text))
        return action

    def action(self, ref: Action | str | int) -> Action:
        """This game's own action object for an Action, notation text or action id."""
        if isinstance(ref, Action):
            own = self._by_key.get(normalize_notation(ref.text))
            if own is None or own.text != ref.text:
                raise IllegalActionError("core.foreign-action", action=ref.text, game=self.TITLE)
            return own
        if isinstance(ref, str):
            return self.parse_action(ref)
        if isinstance(ref, int) and not isinstance(ref, bool):
            if not 0 <= ref < len(self.actions):
                raise IllegalActionError("core.id-out-of-range", id=ref, last=len(self.actions) - 1)
            return self.actions[ref]
        raise NotationError("core.not-text", type=type(ref).__name__)

    @property
    def decisions(self) -> tuple[Action, ...]:
        return self.actions[: self.num_decisions]

    @property
    def chance_actions(self) -> tuple[Action, ...]:
        return self.actions[self.num_decisions :]

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from ``State.to_json()``: same game, same options, same history
        (checked to reach ``data['position']`` when that is given)."""
        if not isinstance(data, Mapping):
            raise ValueError("a state in JSON must be an object with 'game' and 'history'")
        if data.get("game", self.ID) != self.ID:
            raise ValueError(f"this JSON is a {data.get('game')!r} state, not {self.ID!r}")
        options = data.get("options")
        if options is not None and dict(options) != self.options:
            raise ValueError(
                f"this JSON was made with options {dict(options)}, the game has {self.options}"
            )
        history = data.get("history", [])
        if not isinstance(history, list):
            raise ValueError("'history' must be a list of actions in notation")
        state = self.new_initial_state()
        for i, text in enumerate(history):
            try:
                state.apply(text)
            except IllegalActionError as e:
                raise ValueError(
                    f"history entry {i + 1} ({text!r}) cannot be replayed: {e}"
                ) from None
        position = data.get("position")
        if position is not None and position != state.position():
            raise ValueError(
                "the 'position' in this JSON does not match the one its history leads to"
            )
        return state

    def to_json(self) -> dict[str, Any]:
        return {"game": self.ID, "options": dict(self.options)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and other.ID == self.ID and other.options == self.options

    def __hash__(self) -> int:
        return hash((self.ID, repr(sorted(self.options.items()))))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"pa.load({self.ID!r}{', ' if opts else ''}{opts})"
