"""Observation tensors for learning: what one seat sees of a state, as a float32 numpy array.

All four games are perfect-information, so a seat sees the whole position; the tensor encodes it
relative to the seat (own coins or tiles vs the opponent's), so one network can play either side.
Each game's folder has an ``observe.py`` giving ``layout(game)`` (the named blocks, see
:mod:`pocketarena.observe.layout`) and ``write(state, seat, out)``; this module finds it
(:func:`pocketarena.core.for_game`) and checks what goes in and out:

>>> import pocketarena as pa
>>> from pocketarena.observe import observation_shape, observation_tensor
>>> game = pa.load("stack-a-cash")
>>> observation_shape(game)
(16, 3, 3)
>>> state = game.new_initial_state()
>>> state.apply("place L b2")
>>> float(observation_tensor(state, 1)[3, 1, 1])  # seat 1 sees an opponent's L coin on b2
1.0

Every value lies in [0, 1]; the layouts are documented in each game's ``observe.py`` and in docs/research.md.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np

from pocketarena.core import Game, State, for_game

from .layout import Block, Layout

__all__ = [
    "Block",
    "Layout",
    "module_for",
    "observation_layout",
    "observation_shape",
    "observation_tensor",
]


def module_for(game_id: str) -> ModuleType:
    """The observation module of a game; ValueError if the game has none."""
    module = for_game(game_id, "observe")
    if module is None:
        raise ValueError(f"there is no observation tensor for {game_id!r} yet")
    return module


def observation_layout(game: Game) -> Layout:
    """The named blocks of ``game``'s observation tensor."""
    layout: Layout = module_for(game.ID).layout(game)
    return layout


def observation_shape(game: Game) -> tuple[int, ...]:
    """The shape of every observation tensor of ``game`` (fixed by its options)."""
    return observation_layout(game).shape


def observation_tensor(state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
    """``seat``'s view of ``state`` (seat 0 or 1), as a new float32 array or written into
    ``out`` (which must have the game's shape and dtype float32)."""
    if seat not in (0, 1) or isinstance(seat, bool):
        raise ValueError(f"seat must be 0 or 1, got {seat!r}")
    module = module_for(state.game.ID)
    layout: Layout = module.layout(state.game)
    if out is None:
        out = layout.zeros()
    else:
        if out.shape != layout.shape or out.dtype != np.float32:
            raise ValueError(
                f"out must be a float32 array of shape {layout.shape}, got {out.dtype} {out.shape}"
            )
        out.fill(0.0)
    module.write(state, seat, out)
    return out
