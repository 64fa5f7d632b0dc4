"""What the three research adapters share: loading a game with options, action masks, chance
nodes resolved with a seeded numpy generator, and action ids checked with a clear message."""

from __future__ import annotations

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

__all__ = [
    "action_mask",
    "check_render_mode",
    "decision",
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


def action_mask(state: State) -> np.ndarray:
    """1 for each legal decision id, 0 elsewhere (int8, as gymnasium's ``Discrete.sample``
    expects); all zeros at chance and terminal nodes."""
    mask = np.zeros(state.game.num_decisions, dtype=np.int8)
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
        raise ValueError(f"an action is a decision id (an integer), got {action!r}")
    if not 0 <= action < game.num_decisions:
        raise ValueError(
            f"action id {action} is out of range: {game.TITLE} decisions are 0..{game.num_decisions - 1}"
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
        raise ValueError(
            f"render_mode must be one of {', '.join(modes)} for {game.ID}, got {mode!r}"
        )
