"""Pocket Arena's games in JAX, following pgx's environment API: batched, jit- and vmap-able.

>>> import jax
>>> import pocketarena.vector as pv
>>> env = pv.make("stack-a-cash", protect="placed")
>>> keys = jax.random.split(jax.random.PRNGKey(0), 1024)
>>> state = jax.jit(jax.vmap(env.init))(keys)  # 1,024 games at once
>>> state.legal_action_mask.shape
(1024, 180)
>>> step = jax.jit(jax.vmap(env.step))
>>> state = step(state, jax.numpy.full(1024, 4), keys)  # every game: "place L b2"
>>> print(env.to_engine(jax.tree.map(lambda x: x[0], state)))  # game 0, as the engine's
3 | .        .        .
2 | .        LH       .
1 | .        .        .
    a        b        c
Tails to move; supply L1 M2 S2; protected b2

``make(game_id, **options)`` takes the engine's options (``pocketarena.load``'s), fixed for the
environment's life; each game's folder provides the environment in its ``vector.py``
(``pocketarena.core.for_game(game_id, "vector")``), whose ``make(**options)`` returns an
:class:`Env`.

The contract every game's environment keeps (pgx's, with the choices pgx leaves open):

- ``env.init(key) -> State`` and ``env.step(state, action, key) -> State`` are pure functions of
  arrays on *one* game; ``jax.vmap`` batches them and ``jax.jit`` compiles them. Chance (the
  throws of a game that has them) is drawn inside ``step`` from ``key`` with the engine's
  probabilities; a game without chance ignores the key.
- **State** is a ``typing.NamedTuple`` (a pytree without any registration, so the games' modules
  need no shared State class). Every game's State has these fields first, then its own:

  =====================  ============================  ========================================
  ``current_player``     int32 ``()``                  the seat to decide (0 or 1); seats are
                                                       players, never shuffled
  ``observation``        float32 ``observation_shape``  ``current_player``'s view: exactly
                                                       :func:`pocketarena.observe.observation_tensor`
  ``legal_action_mask``  bool ``(num_actions,)``       legal actions; all True once the game is
                                                       over (pgx's convention: no empty softmax)
  ``rewards``            float32 ``(2,)``              what the last step gave each seat: +1 to
                                                       the winner, -1 to the loser, 0 on a draw
  ``terminated``         bool ``()``                   the game is over by its rules
  ``truncated``          bool ``()``                   always False: every game has its own end
  =====================  ============================  ========================================

- **Action ids** are the engine's, which are exactly those of
  :mod:`pocketarena.interop.openspiel` for the same game and options, so a policy moves between
  the two unchanged.
- Shared step rules (here, once): stepping a finished game changes nothing and gives zero
  rewards; an illegal action ends the game, the mover getting -1 and the other seat +1.
- ``env.to_engine(state)`` and ``env.from_engine(engine_state)`` convert one (unbatched) state
  to and from the exact engine, so any position can be checked against the rules.

Install with ``pip install 'pocketarena[jax]'``.
"""

from __future__ import annotations

import importlib.util
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any, Generic, TypeVar

try:
    import jax
    import jax.numpy as jnp
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "pocketarena.vector needs JAX: pip install 'pocketarena[jax]' "
        "(from a clone: pip install -e '.[jax]')"
    ) from error

import pocketarena  # noqa: F401  (registers the games)
from pocketarena.core import GAMES, Game, State, for_game, game_class

__all__ = ["Env", "games", "make", "rewards_for", "tree_where"]

S = TypeVar("S")  # a game's State: a NamedTuple with the common fields first
E = TypeVar("E", bound=State)  # the game's engine State
T = TypeVar("T")


class Env(ABC, Generic[S, E]):
    """One game with its options, as pure functions on arrays (see the module's docstring)."""

    id: str
    options: dict[str, Any]
    num_actions: int
    observation_shape: tuple[int, ...]
    num_players = 2

    def __init__(self, game: Game) -> None:
        self.game = game
        self.id = game.ID
        self.options = dict(game.options)
        self.num_actions = game.num_decisions

    def __repr__(self) -> str:
        options = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<pocketarena.vector {self.id}({options})>"

    # -- what a game fills in --------------------------------------------------------------
    @abstractmethod
    def _init(self, key: jax.Array) -> S:
        """The initial position, every field but ``observation`` filled in."""

    @abstractmethod
    def _step(self, state: S, action: jax.Array, key: jax.Array) -> S:
        """Apply a legal action to a running game: the new position with ``current_player``,
        ``legal_action_mask``, ``rewards`` and ``terminated`` (not ``observation``)."""

    def _step_where(self, state: S, action: jax.Array, key: jax.Array, applies: jax.Array) -> S:
        """``_step`` where ``applies`` (a legal action in a running game), else ``state`` as it
        is (every field but those ``step`` sets itself: rewards, mask, termination and the
        observation). This default selects between the two, field by field. A game whose
        ``_step`` can leave the state untouched by itself overrides it: once vmapped, a select
        after the step leaves XLA to recompute the step's results inside every consumer of
        them instead of storing them once (Coin Age's step ran 2-3x slower so)."""
        out: S = tree_where(applies, self._step(state, action, key), state)
        return out

    @abstractmethod
    def observe(self, state: S, seat: jax.Array | int) -> jax.Array:
        """``seat``'s view of ``state`` (float32 ``observation_shape``)."""

    @abstractmethod
    def to_engine(self, state: S) -> E:
        """The engine state of one (unbatched) State."""

    @abstractmethod
    def from_engine(self, engine_state: E) -> S:
        """One (unbatched) State from an engine state of this game and options."""

    # -- the shared API ----------------------------------------------------------------------
    def init(self, key: jax.Array) -> S:
        """A new game (one; vmap for a batch)."""
        state: Any = self._init(key)
        return state._replace(observation=self.observe(state, state.current_player))  # type: ignore[no-any-return]

    def step(self, state: S, action: jax.Array | int, key: jax.Array | None = None) -> S:
        """``state`` after ``action`` (one game; vmap for a batch). ``key`` feeds the chance of
        games that have it and may be left out for the others."""
        if key is None:
            key = jax.random.PRNGKey(0)
        old: Any = state
        action = jnp.asarray(action, dtype=jnp.int32)
        in_range = (action >= 0) & (action < self.num_actions)
        legal = in_range & old.legal_action_mask[jnp.clip(action, 0, self.num_actions - 1)]
        done = old.terminated | old.truncated
        all_legal = jnp.ones_like(old.legal_action_mask)
        # One pass over the state: the move where it was legal in a running game, else the old
        # state, whose end, rewards and mask are then set for each case; the observation last,
        # from the result (so the old one is never read: it is most of a state's bytes).
        applies = legal & ~done
        clipped = jnp.clip(action, 0, self.num_actions - 1)
        out: Any = self._step_where(state, clipped, key, applies)
        penalty = jnp.where(jnp.arange(2) == old.current_player, -1.0, 1.0)
        out = out._replace(
            terminated=jnp.where(done, old.terminated, ~legal | out.terminated),
            rewards=jnp.where(
                done, 0.0, jnp.where(legal, out.rewards, penalty.astype(jnp.float32))
            ),
            legal_action_mask=jnp.where(
                applies & ~out.terminated, out.legal_action_mask, all_legal
            ),
        )
        out = out._replace(observation=self.observe(out, out.current_player))
        result: S = out
        return result


def tree_where(condition: jax.Array, a: T, b: T) -> T:
    """``a`` where ``condition`` holds, else ``b``, field by field (same-shaped pytrees)."""
    out: T = jax.tree.map(lambda x, y: jnp.where(condition, x, y), a, b)
    return out


def rewards_for(winner: jax.Array) -> jax.Array:
    """Rewards (float32 ``(2,)``) for a finished game won by ``winner`` (-1: a draw)."""
    seats = jnp.arange(2)
    won = jnp.where(seats == winner, 1.0, -1.0)
    return jnp.where(winner >= 0, won, 0.0).astype(jnp.float32)


def games() -> list[str]:
    """Ids of the games that have a vector environment."""
    out = []
    for game_id, cls in sorted(GAMES.items()):
        folder = cls.__module__.rpartition(".")[0]
        if importlib.util.find_spec(f"{folder}.vector") is not None:
            out.append(game_id)
    return out


def make(game_id: str, **options: Any) -> Env[Any, Any]:
    """The vector environment of ``game_id`` with the engine's ``options`` (fixed from now on).
    ValueError for an unknown game, a game without one, or bad options."""
    cls = game_class(game_id)
    module = for_game(cls.ID, "vector")
    if module is None:
        have = ", ".join(games()) or "none"
        raise ValueError(f"{cls.ID} has no vector environment yet; games with one: {have}")
    maker: Callable[..., Env[Any, Any]] = module.make
    return maker(**options)
