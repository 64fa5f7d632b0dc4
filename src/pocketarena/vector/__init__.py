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

- An environment is a ``pgx.core.Env`` (``id``, ``version``, ``num_players``, ``num_actions``,
  ``observation_shape``) and a state a ``pgx.core.State`` (a frozen dataclass registered as a
  pytree, with ``.replace(**fields)``, ``_step_count`` and ``env_id``), so pgx's helpers take
  them as pgx's own games: ``pgx.experimental.auto_reset(env.step, env.init)``, ``act_randomly``,
  pgx's AlphaZero example (only the line that makes the env changed; docs/research.md).
- ``env.init(key) -> State`` and ``env.step(state, action, key) -> State`` are pure functions of
  arrays on *one* game; ``jax.vmap`` batches them and ``jax.jit`` compiles them. Chance (the
  throws of a game that has them, ``env.chance``) is drawn inside ``step`` from ``key`` with the
  engine's probabilities, and such a game refuses a step without a key (ValueError, as pgx's
  backgammon refuses one); a game without chance ignores the key.
- Every game's State has pgx's fields, then its own, then ``_game`` (static: the engine game and
  its options, so that ``state.to_svg()``, ``state.save_svg(path)`` and a notebook draw the
  position with :mod:`pocketarena.render`, one game or a batch in a grid):

  =====================  ============================  ========================================
  ``current_player``     int32 ``()``                  the seat to decide (0 or 1); seats are
                                                       players, never shuffled
  ``observation``        float32 ``observation_shape``  ``current_player``'s view: exactly
                                                       :func:`pocketarena.observe.observation_tensor`
  ``rewards``            float32 ``(2,)``              what the last step gave each seat: +1 to
                                                       the winner, -1 to the loser, 0 on a draw
  ``terminated``         bool ``()``                   the game is over by its rules
  ``truncated``          bool ``()``                   always False: every game has its own end
  ``legal_action_mask``  bool ``(num_actions,)``       legal actions; all True once the game is
                                                       over (pgx's convention: no empty softmax)
  ``_step_count``        int32 ``()``                  steps taken by the running game
  =====================  ============================  ========================================

- **Action ids** are the engine's, which are exactly those of
  :mod:`pocketarena.interop.openspiel` for the same game and options, so a policy moves between
  the two unchanged.
- Shared step rules (here, once): stepping a finished game changes nothing and gives zero
  rewards; an illegal action (or an id out of range) ends the game, the mover getting -1 and the
  other seat +1.
- ``env.to_engine(state)`` converts one (unbatched) state to the exact engine, and
  ``env.from_engine(engine_state)`` one engine state (or a sequence of them: a batch) back, so
  any position can be checked against the rules.

Install with ``pip install 'pocketarena[jax]'``.
"""

from __future__ import annotations

import functools
import importlib.util
import re
from abc import abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

try:
    import jax
    import jax.numpy as jnp
    import numpy as np
    import pgx.core  # type: ignore[import-untyped]
    from pgx._src.struct import (  # type: ignore[import-untyped]  # pgx's state dataclass
        dataclass,
        field,
    )
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        "pocketarena.vector needs JAX and pgx: pip install 'pocketarena[jax]' "
        "(from a clone: pip install -e '.[jax]')"
    ) from error

import pocketarena  # noqa: F401  (registers the games)
from pocketarena.core import GAMES, Game, for_game, game_class
from pocketarena.core import State as EngineState

__all__ = [
    "Env",
    "State",
    "dataclass",
    "field",
    "games",
    "make",
    "rewards_for",
    "save_svg",
    "tree_where",
]

S = TypeVar("S", bound="State")  # a game's State
E = TypeVar("E", bound=EngineState)  # the game's engine State
T = TypeVar("T")
VERSION = "v1"  # pgx's Env.version: changes when a game's behaviour or its arrays change


@dataclass
class State(pgx.core.State):  # type: ignore[misc]
    """What every game's state is: a pgx state (``pgx.core.State``, a frozen dataclass
    registered as a pytree, ``.replace(**fields)``) with pgx's fields (``current_player``,
    ``observation``, ``rewards``, ``terminated``, ``truncated``, ``legal_action_mask``,
    ``_step_count``), then the game's own, then ``_game``: the engine game (options included)
    the state belongs to, static (part of the pytree's structure, not an array), so that a state
    draws itself (``to_svg``, ``save_svg``, in a notebook) with :mod:`pocketarena.render`."""

    @property
    def env_id(self) -> str:
        """The game's id (``"stack-a-cash"``): pgx's ``env_id``."""
        game: Game = self._game
        return game.ID

    if TYPE_CHECKING:  # pgx's dataclass adds it; typed here for our games

        def replace(self: T, **changes: Any) -> T: ...

    def _replace(self: T, **changes: Any) -> T:
        """``replace``'s old name, from when states were NamedTuples."""
        out: T = self.replace(**changes)  # type: ignore[attr-defined]
        return out

    def to_svg(
        self,
        *,
        color_theme: Literal["light", "dark"] | None = None,
        scale: float | None = None,
    ) -> str:
        """The position drawn by :func:`pocketarena.render.svg_board` (a batch: every game,
        in a grid of up to eight a row, as pgx draws one). ``color_theme`` is accepted for
        pgx's signature; our boards have one theme."""
        del color_theme
        env = _env_of(self._game)
        from pocketarena.render import svg_board

        host = jax.device_get(self)
        if np.ndim(host.current_player) == 0:
            boards = [svg_board(env.to_engine(host))]
        else:
            games = np.shape(host.current_player)[0]
            boards = [
                svg_board(env.to_engine(jax.tree.map(lambda x, i=i: x[i], host)))
                for i in range(games)
            ]
        return _grid(boards, 1.0 if scale is None else scale)

    def save_svg(
        self,
        filename: str | Path,
        *,
        color_theme: Literal["light", "dark"] | None = None,
        scale: float | None = None,
    ) -> None:
        """Write :meth:`to_svg` to ``filename``, which must end with ``.svg`` (as pgx's)."""
        if not str(filename).endswith(".svg"):
            raise ValueError(f"the file name must end with .svg, got {str(filename)!r}")
        Path(filename).write_text(self.to_svg(color_theme=color_theme, scale=scale), "utf-8")


def save_svg(
    state: State,
    filename: str | Path,
    *,
    color_theme: Literal["light", "dark"] | None = None,
    scale: float | None = None,
) -> None:
    """``pgx.save_svg`` for our states (pgx's own draws only pgx's games)."""
    state.save_svg(filename, color_theme=color_theme, scale=scale)


_VIEW_BOX = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def _grid(boards: list[str], scale: float, per_row: int = 8) -> str:
    """One SVG of ``boards`` (each an ``<svg viewBox="0 0 W H" ...>``) side by side, rows of
    ``per_row``."""
    sizes = []
    for board in boards:
        found = _VIEW_BOX.search(board)
        if found is None:  # pragma: no cover - every renderer writes a viewBox
            raise ValueError("a board without a viewBox cannot be laid out")
        sizes.append((float(found[1]), float(found[2])))
    width = max(w for w, _ in sizes)
    height = max(h for _, h in sizes)
    columns = min(per_row, len(boards))
    rows = -(-len(boards) // columns)
    parts = []
    for i, board in enumerate(boards):
        x, y = (i % columns) * width, (i // columns) * height
        w, h = sizes[i]
        parts.append(
            board.replace("<svg ", f'<svg x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" ', 1)
        )
    total_w, total_h = columns * width, rows * height
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w * scale:g}" '
        f'height="{total_h * scale:g}" viewBox="0 0 {total_w:g} {total_h:g}">'
        + "".join(parts)
        + "</svg>"
    )


class Env(pgx.core.Env, Generic[S, E]):  # type: ignore[misc]
    """One game with its options, as pure functions on arrays (see the module's docstring):
    a ``pgx.core.Env``, so pgx's helpers and examples take it as they take pgx's own games."""

    id: str = ""  # pgx's Env.id: the game's id (pgx's abstract properties, as attributes here)
    version: str = VERSION
    num_players: int = 2
    num_actions: int = 0
    observation_shape: tuple[int, ...] = ()
    options: dict[str, Any]
    # Whether ``step`` draws chance from its key (a key must then be given, as pgx's backgammon
    # requires).
    chance: ClassVar[bool] = False

    def __init__(self, game: Game) -> None:
        super().__init__()
        self.game = game
        self.id = game.ID
        self.options = dict(game.options)
        self.num_actions = game.num_decisions
        self._complete_one: Callable[[Any], Any] = jax.jit(self._completed)
        self._complete_batch: Callable[[Any], Any] = jax.jit(jax.vmap(self._completed))

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
    def _observe(self, state: S, player_id: jax.Array | int) -> jax.Array:
        """``player_id``'s view of ``state`` (float32 ``observation_shape``)."""

    @abstractmethod
    def to_engine(self, state: S) -> E:
        """The engine state of one (unbatched) State."""

    @abstractmethod
    def _host(self, engine_state: E) -> dict[str, Any]:
        """The fields of the State of one engine state, as numpy values (the derived ones,
        filled in by ``_completed``, as placeholders); ValueError for a state of another game
        or options, or one this environment cannot hold."""

    @abstractmethod
    def _completed(self, state: S) -> S:
        """The derived fields (legal mask, rewards, observation) of a state made by
        ``_host``."""

    # -- the shared API ----------------------------------------------------------------------
    def init(self, key: jax.Array) -> S:
        """A new game (one; vmap for a batch)."""
        state: Any = self._init(key)
        return state.replace(observation=self._observe(state, state.current_player))  # type: ignore[no-any-return]

    def observe(self, state: S, player_id: jax.Array | int | None = None) -> jax.Array:
        """``player_id``'s view of ``state`` (``current_player``'s when left out); unlike pgx's,
        asking for another seat's view is supported, not deprecated."""
        if player_id is None:
            player_id = state.current_player
        return jax.lax.stop_gradient(self._observe(state, player_id))

    def step(self, state: S, action: jax.Array | int, key: jax.Array | None = None) -> S:
        """``state`` after ``action`` (one game; vmap for a batch). ``key`` feeds the chance of
        a game that has it (``env.chance``), which then requires it, as pgx's backgammon does;
        the others ignore it and may leave it out."""
        if key is None:
            if self.chance:
                raise ValueError(
                    f"{self.id} has chance, drawn from the key: call step(state, action, key) "
                    "with a jax.random key (as pgx's backgammon requires)"
                )
            key = jax.random.PRNGKey(0)
        old: Any = state
        action = jnp.asarray(action, dtype=jnp.int32)
        in_range = (action >= 0) & (action < self.num_actions)
        clipped = jnp.clip(action, 0, self.num_actions - 1)
        legal = in_range & old.legal_action_mask[clipped]
        done = old.terminated | old.truncated
        all_legal = jnp.ones_like(old.legal_action_mask)
        # One pass over the state: the move where it was legal in a running game, else the old
        # state, whose end, rewards and mask are then set for each case; the observation last,
        # from the result (so the old one is never read: it is most of a state's bytes).
        applies = legal & ~done
        out: Any = self._step_where(state, clipped, key, applies)
        penalty = jnp.where(jnp.arange(2) == old.current_player, -1.0, 1.0)
        out = out.replace(
            terminated=jnp.where(done, old.terminated, ~legal | out.terminated),
            rewards=jnp.where(
                done, 0.0, jnp.where(legal, out.rewards, penalty.astype(jnp.float32))
            ),
            legal_action_mask=jnp.where(
                applies & ~out.terminated, out.legal_action_mask, all_legal
            ),
            _step_count=old._step_count + (~done).astype(jnp.int32),
        )
        out = out.replace(observation=self._observe(out, out.current_player))
        result: S = out
        return result

    def from_engine(self, engine_state: E | Sequence[E]) -> S:
        """The State of an engine state of this game and options (ValueError for another), or
        the batch of a sequence of them (a leading batch axis on every field)."""
        if isinstance(engine_state, EngineState):
            host = self._host(engine_state)
            return self._complete_one(self._new_state(host))  # type: ignore[no-any-return]
        states = list(engine_state)
        if not states:
            raise ValueError("from_engine takes an engine state or a non-empty sequence of them")
        hosts = [self._host(e) for e in states]
        batch = {name: np.stack([h[name] for h in hosts]) for name in hosts[0]}
        return self._complete_batch(self._new_state(batch))  # type: ignore[no-any-return]

    def _new_state(self, host: dict[str, Any]) -> S:
        """The game's State of ``host``'s fields (``_step_count`` 0 when it has none)."""
        cls = self._state_class
        fields = {"_step_count": np.zeros(np.shape(host["current_player"]), np.int32), **host}
        out: S = cls(**fields, _game=self.game)
        return out

    _state_class: ClassVar[type[Any]]


@functools.lru_cache(maxsize=64)
def _env_of(game: Game) -> Env[Any, Any]:
    """The environment of an engine game (its options), made once."""
    return make(game.ID, **game.options)


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
