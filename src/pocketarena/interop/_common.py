"""What the three research adapters share: loading a game with options, action masks, chance
nodes resolved with a seeded numpy generator, and action ids checked with a clear message."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import numpy as np

from pocketarena import render
from pocketarena.core import (
    CHANCE,
    Action,
    Game,
    State,
    fresh_seed,
    game_class,
    load_shared,
    outcome_from_unit,
    with_seed,
)
from pocketarena.core.errors import Refusal

__all__ = [
    "action_mask",
    "action_space_size",
    "max_decisions",
    "check_render_mode",
    "decision",
    "padded_decision",
    "load",
    "render_modes",
    "render_state",
    "settle_chance",
]


def load(game_id: str, options: dict[str, object]) -> Game:
    """The game (shared with every other user of the same options); a set-up left to chance
    (Coin Age's ``map="random"``) gets a fresh seed, kept in the game's options."""
    if not isinstance(game_id, str):
        raise TypeError(f"game_id must be a game id such as 'stack-a-cash', got {game_id!r}")
    cls = game_class(game_id)
    return load_shared(cls.ID, with_seed(cls.ID, options, fresh_seed()))


@functools.cache
def max_decisions(game_id: str) -> int:
    """The most decision ids ``game_id`` has under any choice of its options (every map, mode
    and switch; options without a finite set of choices keep their default): the size of a
    fixed action space that one network can use on every map and mode."""
    cls = game_class(game_id)
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for option in cls.OPTIONS:
        if option.choices is not None:
            axes.append((option.name, option.choices))
        elif option.type is bool:
            axes.append((option.name, (False, True)))
    names = [name for name, _ in axes]
    most = 0
    for values in itertools.product(*(choices for _, choices in axes)):
        # A set-up left to chance (Coin Age's random map) is one of the fixed ones.
        options = with_seed(cls.ID, dict(zip(names, values, strict=True)), 0)
        most = max(most, load_shared(cls.ID, options).num_decisions)
    return most


def action_space_size(game: Game, fixed: bool) -> int:
    """The size of the action space: the game's own decisions, or the most over every map
    and mode of the game when ``fixed``."""
    return max_decisions(game.ID) if fixed else game.num_decisions


def action_mask(state: State, size: int | None = None) -> np.ndarray:
    """1 for each legal decision id, 0 elsewhere (int8, as gymnasium's ``Discrete.sample``
    expects); all zeros at chance and terminal nodes. ``size``: the length of the mask when
    the action space is larger than the game's decisions (a fixed action space)."""
    mask = np.zeros(state.game.num_decisions if size is None else size, dtype=np.int8)
    legal = state.legal_actions()
    if legal:
        mask[[a.id for a in legal]] = 1
    return mask


def settle_chance(state: State, rng: np.random.Generator) -> list[Action]:
    """Throw the coins until someone must decide (or the game ends); the outcomes, in order.

    Each outcome takes one ``rng.random()`` draw, so a seeded generator replays the game.
    """
    thrown: list[Action] = []
    while state.current_player == CHANCE:
        outcome = outcome_from_unit(state.chance_outcomes(), float(rng.random()))
        state.apply(outcome)
        thrown.append(outcome)
    return thrown


def decision(game: Game, action: object) -> Action:
    """The decision with id ``action`` (a Python or numpy integer); ValueError if it is not one."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    if isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int):
        raise Refusal("interop.not-an-id", action=action)
    if not 0 <= action < game.num_decisions:
        raise Refusal(
            "interop.id-out-of-range", id=action, game=game.TITLE, last=game.num_decisions - 1
        )
    return game.actions[action]


# -- rendering: "ansi" is the engine's text picture, "svg" the web board ----------------------
def render_state(state: State, mode: str, last: Action | None) -> str:
    if mode == "svg":
        return render.svg_board(state, last=last)
    return str(state)


def render_modes(game: Game) -> list[str]:
    return ["ansi", "svg"] if render.has_svg(game.ID) else ["ansi"]


def check_render_mode(game: Game, mode: str | None) -> None:
    modes = render_modes(game)
    if mode is not None and mode not in modes:
        raise Refusal("interop.render-mode", modes=", ".join(modes), game=game.ID, mode=mode)


def padded_decision(game: Game, action: object, size: int) -> Action | None:
    """:func:`decision` in an action space of ``size`` ids: None for an id past the game's own
    decisions (the padding of a fixed action space, never legal)."""
    if isinstance(action, np.ndarray) and action.shape == ():
        action = action.item()
    padding = isinstance(action, (int, np.integer)) and not isinstance(action, bool)
    if padding and game.num_decisions <= int(action) < size:  # type: ignore[call-overload]
        return None
    return decision(game, action)
