"""OpenSpiel adapter: importing this module registers every Pocket Arena game with ``pyspiel``.

>>> import pyspiel
>>> import pocketarena.interop.openspiel
>>> game = pyspiel.load_game("pocketarena_stack_a_cash(protect=placed)")
>>> state = game.new_initial_state()
>>> state.apply_action(4)  # the action id of "place L b2"
>>> state.history_str()
'4'
>>> state.action_to_string(0, 4)
'place L b2'

Each game is ``pocketarena_<id with underscores>`` and takes the game's options as parameters
with the same defaults. Two kinds of option have no OpenSpiel type of their own:

- a dict option (Wallet Battles ``coins``) is a string ``Q:6;N:6;P:6;D:6`` (no commas, so it
  survives OpenSpiel's game strings), or JSON when passed in a parameter dict;
- an option that may be "none" (Coin Age ``seed``) takes ``-1`` for none if it is an integer
  (``""`` if it is text).

Action ids are the engine's own (``game.actions``): decisions ``0..num_distinct_actions-1``,
then chance outcomes, so ``max_chance_outcomes`` is the size of the whole table. States wrap an
engine state (``spiel_state.pocketarena``); cloning clones it, and serialising stores the game
and the action ids, which deserialising replays. Observation tensors are
:mod:`pocketarena.observe`'s; the information state string is the history in notation.

A game with chance takes one more parameter, ``merge_chance`` (default false). OpenSpiel's
``expectiminimax`` spends no depth on chance nodes, and Wallet Battles' odd flips chain chance
nodes up to its flip guard (500 flips), so from the first position it never returns. With
``merge_chance=true`` a run of chance nodes in a row is one chance node: its outcomes are the
positions the runs end in, counters that only feed a guard left out (``Game.GUARD_COUNTERS``:
Wallet Battles' flips, Coin Age's turns), each played as its shortest run with the summed
probability. Everything else is the game as it is; the guard counter then counts the flips of
the runs played, so a game reaches its guard later (the games end long before it in practice).
An outcome's id is its index in the list:

>>> game = pyspiel.load_game("pocketarena_wallet_battles(merge_chance=true)")
>>> state = game.new_initial_state()
>>> [(i, round(p, 6)) for i, p in state.chance_outcomes()]  # HH, TT, the guard after 500 odd
[(0, 0.5), (1, 0.5), (2, 0.0)]
>>> state.action_to_string(pyspiel.PlayerId.CHANCE, 1)
'flip TT'
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found]

import pocketarena as pa
from pocketarena.core import Action, Game, Option, State
from pocketarena.core.errors import Refusal
from pocketarena.observe import observation_shape, observation_tensor

from ._common import load

__all__ = [
    "PocketArenaSpielGame",
    "PocketArenaSpielState",
    "encode_mapping",
    "registered_names",
    "spiel_name",
]

PREFIX = "pocketarena_"
MERGE_CHANCE = "merge_chance"  # the adapter's own parameter, for games with chance
NONE_INT = -1  # a nullable integer option's "none": OpenSpiel parameters cannot be None
INT32 = 2**31  # OpenSpiel's integer parameters are 32-bit


def spiel_name(game_id: str) -> str:
    """OpenSpiel's short name for a game: ``stack-a-cash`` -> ``pocketarena_stack_a_cash``."""
    return PREFIX + game_id.replace("-", "_")


# -- options <-> OpenSpiel parameters -----------------------------------------------------------
def encode_mapping(value: Mapping[str, Any]) -> str:
    """A dict option as OpenSpiel text: ``{"Q": 6, "N": 6}`` -> ``Q:6;N:6``."""
    return ";".join(f"{k}:{v}" for k, v in value.items())


def _decode_mapping(game_id: str, option: Option, text: object) -> Any:
    if not isinstance(text, str):
        return text  # let the game's own check say what is wrong
    text = text.strip()
    if text.startswith("{") or text.startswith("["):
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
    else:
        out: dict[str, Any] = {}
        for pair in filter(None, text.split(";")):
            key, sep, value = pair.partition(":")
            if not sep:
                break
            value = value.strip()
            out[key.strip()] = int(value) if value.lstrip("+-").isdigit() else value
        else:
            return out
    raise Refusal(
        "interop.written-like",
        game=game_id,
        name=option.name,
        example=encode_mapping(option.default),
        json=json.dumps(option.default),
        text=text,
    )


def _spiel_value(option: Option, value: Any) -> bool | int | float | str:
    """An option value as an OpenSpiel parameter value."""
    if option.type in (dict, list):
        return encode_mapping(value) if isinstance(value, Mapping) else json.dumps(value)
    if value is None:
        return NONE_INT if option.type is int else ""
    if isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _options(cls: type[Game], params: Mapping[str, Any]) -> dict[str, Any]:
    """Engine options from OpenSpiel parameters (which carry every default)."""
    out: dict[str, Any] = {}
    for option in cls.OPTIONS:
        if option.name not in params:
            continue
        value = params[option.name]
        if option.type in (dict, list):
            value = _decode_mapping(cls.ID, option, value)
        elif option.nullable and value == _spiel_value(option, None):
            value = None
        out[option.name] = value
    names = [o.name for o in cls.OPTIONS] + ([MERGE_CHANCE] if cls.CHANCE else [])
    unknown = sorted(set(params) - set(names))
    if unknown and not names:
        raise Refusal("interop.no-parameters", name=unknown[0], game=spiel_name(cls.ID))
    if unknown:
        raise Refusal(
            "interop.unknown-parameter",
            name=unknown[0],
            game=spiel_name(cls.ID),
            valid=", ".join(names),
        )
    return out


def _load_for_spiel(cls: type[Game], options: dict[str, Any]) -> Game:
    """The game, shared (OpenSpiel reloads a game from its string for every deserialised
    state); a seed it is given must fit OpenSpiel's 32-bit parameters to be kept in the game
    string (the seeds drawn for a set-up left to chance always do)."""
    for option in cls.OPTIONS:
        value = options.get(option.name)
        if option.type is int and isinstance(value, int) and not -INT32 <= value < INT32:
            raise Refusal("interop.32-bits", game=cls.ID, name=option.name)
    return load(cls.ID, options)


def _game_type(cls: type[Game]) -> pyspiel.GameType:
    chance = pyspiel.GameType.ChanceMode
    return pyspiel.GameType(
        short_name=spiel_name(cls.ID),
        long_name=f"Pocket Arena {cls.TITLE}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=chance.EXPLICIT_STOCHASTIC if cls.CHANCE else chance.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(cls, {o.name: o.default for o in cls.OPTIONS}),
    )


def _parameters(cls: type[Game], options: Mapping[str, Any], merge: bool = False) -> dict[str, Any]:
    """OpenSpiel parameters: the game's options, and ``merge_chance`` for a game with chance."""
    out = {o.name: _spiel_value(o, options[o.name]) for o in cls.OPTIONS}
    if cls.CHANCE:
        out[MERGE_CHANCE] = merge
    return out


def chance_runs(state: State) -> list[tuple[list[Action], float]]:
    """The outcomes of ``state`` (a chance node) with its runs of chance merged: every run of
    outcomes to the next node that is not one, grouped by the position it ends in (the game's
    ``GUARD_COUNTERS`` left out), each group played as its shortest run with the group's whole
    probability; groups in the order the engine's outcomes first reach them."""
    guards = state.game.GUARD_COUNTERS
    groups: dict[str, tuple[list[Action], float]] = {}
    stack: list[tuple[State, list[Action], float]] = [(state, [], 1.0)]
    while stack:
        node, run, p = stack.pop()
        if node.is_chance_node():
            for action, q in reversed(node.chance_outcomes()):
                child = node.clone()
                child.apply(action)
                stack.append((child, [*run, action], p * q))
            continue
        position = {k: v for k, v in node.position().items() if k not in guards}
        key = json.dumps(position, sort_keys=True)
        kept, total = groups.get(key, (run, 0.0))
        groups[key] = (kept if len(kept) <= len(run) else run, total + p)
    return list(groups.values())


# -- the game and its states ----------------------------------------------------------------------
class PocketArenaSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A Pocket Arena game seen by OpenSpiel; ``pocketarena`` is the engine's Game."""

    def __init__(self, cls: type[Game], params: Mapping[str, Any] | None = None) -> None:
        params = dict(params or {})
        merge = params.pop(MERGE_CHANCE, False) if cls.CHANCE else False
        if not isinstance(merge, bool):
            raise Refusal("interop.true-or-false", name=MERGE_CHANCE, value=merge)
        game = _load_for_spiel(cls, _options(cls, params))
        info = game.info
        chance_table = len(game.actions) - game.num_decisions
        if merge:
            # A run has at most max_game_length throws, and each throw but the last ends it in
            # all but one of its outcomes: an upper bound on the runs from one node.
            outcomes = chance_table * info.max_game_length + 1
        else:
            outcomes = len(game.actions) if cls.CHANCE else 0
        super().__init__(
            _game_type(cls),
            pyspiel.GameInfo(
                num_distinct_actions=game.num_decisions,
                max_chance_outcomes=outcomes,
                num_players=2,
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=0.0,
                max_game_length=info.max_game_length,
            ),
            _parameters(cls, game.options, merge),
        )
        self.pocketarena = game
        self.merge_chance: bool = merge

    def new_initial_state(self, *args: Any) -> PocketArenaSpielState:
        if args:
            raise Refusal("interop.initial-state-arguments")
        return PocketArenaSpielState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        if params:
            raise Refusal("interop.observation-parameters", params=dict(params))
        history = iig_obs_type is not None and bool(iig_obs_type.perfect_recall)
        return _Observer(self.pocketarena, history)


class _Engine:
    """The engine state inside an OpenSpiel state. OpenSpiel clones a Python state by
    deep-copying its attributes and serialises it by pickling them: this holder makes both
    cheap and exact (clone the engine state; pickle the game and the action ids)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        game = self.state.game
        return (_replay, (game.ID, json.dumps(game.options), [a.id for a in self.state.history]))


def _replay(game_id: str, options: str, ids: list[int]) -> _Engine:
    game = load(game_id, json.loads(options))
    state = game.new_initial_state()
    for i in ids:
        state.apply(game.actions[i])
    return _Engine(state)


class PocketArenaSpielState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an engine state (``self.pocketarena``)."""

    def __init__(self, game: PocketArenaSpielGame) -> None:
        super().__init__(game)
        self._engine = _Engine(game.pocketarena.new_initial_state())
        self._merge = game.merge_chance

    @property
    def pocketarena(self) -> State:
        """The engine state (read it; apply actions through OpenSpiel to keep both in step)."""
        return self._engine.state

    def current_player(self) -> int:
        return self._engine.state.current_player  # CHANCE and TERMINAL are OpenSpiel's ids

    def _legal_actions(self, player: int) -> list[int]:
        ids = [a.id for a in self._engine.state.legal_actions()]
        ids.sort()  # games list them in id order already; OpenSpiel requires it, so make sure
        return ids

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._merge:
            return [(i, p) for i, (_, p) in enumerate(chance_runs(self._engine.state))]
        return sorted((a.id, p) for a, p in self._engine.state.chance_outcomes())

    def _run(self, action: int) -> list[Action]:
        """The engine's actions for an OpenSpiel action (a merged chance outcome is a run)."""
        state = self._engine.state
        if not (self._merge and state.is_chance_node()):
            return [state.game.action(int(action))]
        runs = chance_runs(state)
        if not 0 <= action < len(runs):
            raise Refusal(
                "interop.chance-outcome", outcome=action, count=len(runs), last=len(runs) - 1
            )
        return runs[action][0]

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        for step in self._run(int(action)):
            state.apply(step)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._merge and player == pa.CHANCE and self._engine.state.is_chance_node():
            return "; ".join(step.text for step in self._run(int(action)))
        return self._engine.state.game.action(int(action)).text

    def is_terminal(self) -> bool:
        return self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        return list(self._engine.state.returns())

    def __str__(self) -> str:
        return str(self._engine.state)


class _Observer:
    """OpenSpiel's Python observer: the observation tensor, or (for the information state) the
    history, which in a perfect-information game is all a player knows."""

    def __init__(self, game: Game, history: bool) -> None:
        self.history = history
        if history:
            self.tensor: np.ndarray | None = None
            self.dict: dict[str, np.ndarray] = {}
        else:
            shape = observation_shape(game)
            self.tensor = np.zeros(int(np.prod(shape)), np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: PocketArenaSpielState, player: int) -> None:
        if self.tensor is not None:
            observation_tensor(state.pocketarena, player, out=self.dict["observation"])

    def string_from(self, state: PocketArenaSpielState, player: int) -> str:
        engine = state.pocketarena
        if self.history:
            return "; ".join(a.text for a in engine.history)
        return str(engine)


# -- registration ---------------------------------------------------------------------------------
def _game_class(cls: type[Game]) -> type[PocketArenaSpielGame]:
    """A subclass per game, registered as the game's creator, as OpenSpiel's own Python games
    are. (A class, not a closure: OpenSpiel's registry keeps its creator until after Python has
    shut down, and a class, which refers to itself, is never freed then; a closure would be,
    too late, and abort the interpreter on exit.)"""

    def __init__(self: PocketArenaSpielGame, params: Mapping[str, Any] | None = None) -> None:
        PocketArenaSpielGame.__init__(self, cls, params)

    name = "".join(part.capitalize() for part in cls.ID.split("-")) + "SpielGame"
    game_class = type(
        name,
        (PocketArenaSpielGame,),
        {"__init__": __init__, "__module__": __name__, "__qualname__": name},
    )
    globals()[name] = game_class  # found by name, so games pickle
    return game_class


def _register_all() -> list[str]:
    known = set(pyspiel.registered_names())
    names = []
    for game_id in sorted(pa.GAMES):
        cls = pa.GAMES[game_id]
        name = spiel_name(game_id)
        if name not in known:
            pyspiel.register_game(_game_type(cls), _game_class(cls))
        names.append(name)
    return names


_NAMES = _register_all()


def registered_names() -> list[str]:
    """The OpenSpiel names of every Pocket Arena game (registered on import)."""
    return list(_NAMES)
