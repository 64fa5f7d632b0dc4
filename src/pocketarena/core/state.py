"""The state side of the engine contract. Games implement a few hooks; the checks that every
caller relies on (illegal actions raise and change nothing, chance vs decision nodes, history,
JSON) live here once.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

from .action import Action
from .chance import sample_outcome
from .errors import IllegalActionError, Message, NotationError, UnreadableActionError, message
from .words import seat_of

if TYPE_CHECKING:
    from .game import Game

CHANCE = -1  # OpenSpiel's kChancePlayerId
TERMINAL = -4  # OpenSpiel's kTerminalPlayerId


class State(ABC):
    """A position of a game together with the history that led to it.

    Subclasses keep ``current_player`` up to date as a plain attribute (it is read in every
    hot loop) and implement ``_legal_actions``, ``_chance_outcomes``, ``_apply``, ``_copy``,
    ``scores`` and ``position``, and ``_why_illegal`` to say why the rules refuse an action.

    Each rule is written once, where the legal actions are made: ``apply`` checks an action
    against them (and a chance outcome against the outcomes) for every game, as pgx's
    ``Env.step`` checks the mask once, and asks the game only *why* when it refuses one.
    ``_apply`` then never meets an illegal action. ``push`` is the trusted path beside
    ``apply`` (python-chess's ``push`` beside ``push_san``): bots and playouts that took the
    action from this very state's lists skip the check.
    """

    # ``_legal``: the legal actions (or chance outcomes) last listed for this position, kept
    # until the state moves on, so that ``apply`` checks against what the caller just chose
    # from without making the list again. Immutable (a tuple, a lazy view, or the outcomes as
    # a tuple of pairs): a caller may do what it likes with the list it was given.
    __slots__ = ("game", "history", "current_player", "_legal")

    game: Game
    history: list[Action]
    current_player: int

    def __init__(self, game: Game) -> None:
        self.game = game
        self.history = []
        self.current_player = 0
        self._legal: Sequence[Any] | None = None

    # -- hooks ------------------------------------------------------------------------
    @abstractmethod
    def _legal_actions(self) -> Sequence[Action]:
        """Legal decisions at a decision node (never called at chance or terminal nodes)."""

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        """Outcomes at a chance node (never called elsewhere)."""
        raise NotImplementedError(f"{self.game.ID} has no chance nodes")

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply an action that is legal here (one of ``_legal_actions()`` at a decision node,
        of ``_chance_outcomes()`` at a chance node): ``apply`` has checked it."""

    def _why_illegal(self, action: Action) -> Message | str:
        """Why the rules refuse ``action``, an action of this game of the node's kind that is
        not among the legal ones here: a message id with parameters (or a game's own
        sentence). Games say it in their own words; this is the fallback."""
        return message("core.not-legal", action=action.text)

    def _is_legal(self, action: Action) -> bool:
        """Is ``action`` (this game's own object, of the node's kind) legal here? Looked up in
        the legal actions (the chance outcomes at a chance node): a lazy view answers ``in``
        itself, a plain tuple or list by identity (each action is one object per game)."""
        try:
            legal = self._legal
        except AttributeError:  # a state a game built without __init__ or clone
            legal = None
        if self.current_player == CHANCE:
            outcomes = legal if legal is not None else self._chance_outcomes()
            # Plain loops: about twice as fast here as any() over a generator or map(is_).
            for outcome, _ in outcomes:  # noqa: SIM110
                if outcome is action:
                    return True
            return False
        if legal is None:
            legal = self._legal_actions()
        if type(legal) is tuple or type(legal) is list:
            for listed in legal:  # noqa: SIM110
                if listed is action:
                    return True
            return False
        return action in legal  # a view that answers by id, as Placements does

    @abstractmethod
    def _copy(self) -> State:
        """A deep-enough copy of the position; ``history`` is copied by the caller."""

    @abstractmethod
    def scores(self) -> tuple[float, float]:
        """Points each seat would score if the game ended now."""

    def scores_name(self) -> str:
        """What ``scores`` counts, as an id the screens word: ``score`` (points, the
        default) or ``rounds-won`` (a series of rounds, such as FlipWars' tactical one)."""
        return "score"

    @abstractmethod
    def position(self) -> dict[str, Any]:
        """The position as JSON-safe data (board, banks, whose turn…), for viewers and services."""

    def facts(self) -> dict[str, int | str]:
        """What reports tally about a game besides its plies and decisions: a number is a
        measure (its own unit of length), a word a category (how it ended). None by default."""
        return {}

    def winner(self) -> int | None:
        """0 or 1 once the game is over and someone won; None while it runs or on a draw."""
        if self.current_player != TERMINAL:
            return None
        a, b = self.scores()
        if a > b:
            return 0
        if b > a:
            return 1
        return None

    # -- the public contract ------------------------------------------------------------
    def legal_actions(self) -> Sequence[Action]:
        """Legal decisions; empty at chance and terminal nodes."""
        if self.current_player < 0:
            return ()
        legal = self._legal_actions()
        self._legal = legal if type(legal) is not list else tuple(legal)
        return legal

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``(outcome, probability)`` pairs summing to 1 at a chance node; empty elsewhere."""
        if self.current_player != CHANCE:
            return []
        outcomes = self._chance_outcomes()
        self._legal = tuple(outcomes)
        return outcomes

    def apply(self, action: Action | str) -> None:
        """Apply a decision or chance outcome (an Action or notation). Raises
        IllegalActionError saying why, leaving the state unchanged, if it cannot be applied."""
        game = self.game
        try:
            if type(action) is Action:
                table = game.actions
                if not (action.id < len(table) and table[action.id] is action):
                    action = game.action(action)  # an equal action from another Game object
            else:
                action = game.action(action)
        except NotationError as e:
            # apply refuses unreadable text as it refuses an illegal action (the contract).
            raise UnreadableActionError(e.message) from None
        player = self.current_player
        if player == TERMINAL:
            raise IllegalActionError("core.game-over", action=action.text)
        if action.chance:
            if player != CHANCE:
                raise IllegalActionError(
                    "core.not-chance-now", action=action.text, seat=seat_of(game.SEATS[player])
                )
        elif player == CHANCE:
            example = self._chance_outcomes()[0][0].text
            raise IllegalActionError("core.throw-first", action=action.text, example=example)
        if not self._is_legal(action):
            raise IllegalActionError(self._why_illegal(action))
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def push(self, action: Action) -> None:
        """Apply one of this game's own actions that this very state listed as legal
        (``legal_actions()``, or an outcome of ``chance_outcomes()``), without checking it:
        the trusted path for bots, playouts and perft (python-chess's ``push`` beside
        ``push_san``). Anything else leaves the state undefined; ``apply`` checks."""
        self._legal = None
        self._apply(action)
        self.history.append(action)

    def child(self, action: Action | str) -> State:
        """A new state with ``action`` applied; this one is untouched."""
        c = self.clone()
        c.apply(action)
        return c

    def pushed(self, action: Action) -> State:
        """``child`` on the trusted path (see ``push``): a new state with an action that this
        state listed as legal pushed; this one is untouched."""
        c = self.clone()
        c._apply(action)
        c.history.append(action)
        return c

    def clone(self) -> State:
        c = self._copy()
        c.history = self.history.copy()
        c._legal = None
        return c

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player == CHANCE

    def returns(self) -> tuple[float, float]:
        """+1 / -1 / 0 per seat once the game is over (OpenSpiel's returns); zeros before."""
        if self.current_player != TERMINAL:
            return (0.0, 0.0)
        w = self.winner()
        if w is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0)

    def apply_random(self, rng: random.Random) -> Action:
        """Apply a random legal action, or sample a chance outcome by its probability."""
        if self.current_player == CHANCE:
            action = sample_outcome(self._chance_outcomes(), rng)
        else:
            action = rng.choice(self._legal_actions())
        self.push(action)  # drawn from this state's own lists: legal
        return action

    @property
    def ply(self) -> int:
        return len(self.history)

    def to_json(self) -> dict[str, Any]:
        """JSON-safe: game, options, history in notation, and the position it leads to."""
        return {
            "game": self.game.ID,
            "options": dict(self.game.options),
            "history": [a.text for a in self.history],
            "current_player": self.current_player,
            "position": self.position(),
            "scores": list(self.scores()),
            "winner": self.winner(),
        }

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.game == other.game and self.history == other.history

    # A state changes as it is played, so it is no dict key or set member (python-chess's Board
    # is not hashable either); tables of positions key them by ``position_key()``.
    __hash__ = None  # type: ignore[assignment]

    def position_key(self) -> Hashable:
        """A hashable key for the position this state is in now, history left out: two states
        with equal keys have the same future, so transpositions (the same coins placed in
        another order) share a key. Built from the state's slots (every game keeps its whole
        position there) with the player to move first; a game may override it."""
        cls = type(self)
        names = _SLOTS.get(cls)
        if names is None:
            names = _SLOTS[cls] = tuple(
                name
                for c in cls.__mro__
                for name in getattr(c, "__slots__", ())
                if name
                not in ("game", "history", "current_player", "_legal", "_game", "__weakref__")
            )
        # Most slots are numbers, tuples or flat lists: freeze those in one go and let a single
        # hash say whether anything deeper (dicts, sets, nested lists) needs the slow way.
        key = (
            self.current_player,
            *[tuple(v) if type(v) is list else v for v in [getattr(self, n) for n in names]],
        )
        try:
            hash(key)
        except TypeError:
            return (self.current_player, *[_frozen(getattr(self, name)) for name in names])
        return key

    def __repr__(self) -> str:
        return f"<{self.game.ID} state after {len(self.history)} actions, player {self.current_player}>"


# Per state class: the slots that hold its position (all but game, history and the player).
_SLOTS: dict[type, tuple[str, ...]] = {}


def _frozen(value: Any) -> Hashable:
    kind = type(value)
    if kind is list or kind is tuple:
        frozen = tuple(value)
        try:
            hash(frozen)
        except TypeError:  # lists inside: freeze them too
            return tuple(_frozen(v) for v in frozen)
        return frozen
    if kind is dict:
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if kind is set:
        return frozenset(value)
    frozen_value: Hashable = value
    return frozen_value
