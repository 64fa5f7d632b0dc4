"""Wallet Battles in JAX, in pgx's environment style: ``init(key)`` and ``step(state, action,
key)`` are pure functions of arrays, so ``jax.jit(jax.vmap(env.step))`` plays thousands of
games at once.

>>> import jax
>>> from pocketarena.games.wallet_battles.vector import make
>>> env = make(map="antietam")
>>> env.num_actions, env.observation_shape
(43, (84,))
>>> state = jax.jit(env.init)(jax.random.key(0))  # compiled: much faster than op by op
>>> bool(state.legal_action_mask[env.num_actions - 1])  # "pass" is always legal
True

Action ids are the engine's own decision ids (and so :mod:`pocketarena.interop.openspiel`'s):
``place <coin> <location>`` is ``4 * location + coin`` (coins Q N P D), then ``capture``,
``recall`` (one per location each) and ``pass``.

Chance happens inside ``init`` and ``step``: after a decision the coins are flipped, with the
engine's probabilities (HH 1/4, TT 1/4, odd 1/2), until a seat must decide (act on HH or TT,
recall after the third odd in a row) or the game ends, so ``current_player`` is always the seat
to decide. The run of flips a call made is kept in the state, ``odd_drawn`` odd flips and then
``face_drawn`` (0 HH, 1 TT, -1 when the run ended on an odd flip: a recall or the flip guard),
so the same flips can be replayed on the engine. The flip guard and the map's end are rules of
the game, scored like any end: they set ``terminated``; ``truncated`` is never set.

As in pgx: ``observation`` is :mod:`pocketarena.observe`'s tensor for ``current_player``;
``rewards`` are +1 / -1 / 0 on the step that ends the game and 0 otherwise; an illegal action
ends the game with -1 for the seat that played it and +1 for the other; stepping a finished
game changes nothing and rewards 0; at a finished game every action is marked legal (so masks
can be normalised) and ``current_player`` is the seat that decided last.
"""

from __future__ import annotations

from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from pocketarena.core import CHANCE, TERMINAL, Game
from pocketarena.core import State as EngineState
from pocketarena.vector import Env as VectorEnv
from pocketarena.vector import State as VectorState
from pocketarena.vector import dataclass, field

from .rules import (
    CAPTURE,
    FLIP_LIMIT,
    FLIP_PROBABILITIES,
    NOBODY,
    PASS,
    PLACE,
    RECALL,
    WalletBattles,
    WalletBattlesState,
)

__all__ = ["Env", "State", "make"]

_ODD_STEPS = 3  # odd flips in a row before a recall
assert FLIP_PROBABILITIES == (0.25, 0.25, 0.5)  # what the flips below draw


# Speed on CPU: XLA gathers and scatters with a per-game index are slow once vmapped, so reading
# or writing at an index is a masked sum or a select over a one-hot mask, and small tables are
# arithmetic.
def _pick(values: jax.Array, at: jax.Array) -> jax.Array:
    """``values[i]`` for the one-hot mask ``at`` of ``i``."""
    return jnp.sum(jnp.where(at, values, 0), axis=-1)


def _row(rows: jax.Array, seat: jax.Array | int) -> jax.Array:
    """``rows[seat]`` of a two-row array."""
    return jnp.where(seat == 0, rows[0], rows[1])


def _top_coin(stack: jax.Array) -> jax.Array:
    """The top coin of 4-bit stacks (bit c: a coin of kind c, 0 Q .. 3 D): the largest index,
    as stacks grow towards smaller coins; -1 when empty."""
    return jnp.where(
        stack & 8, 3, jnp.where(stack & 4, 2, jnp.where(stack & 2, 1, jnp.where(stack & 1, 0, -1)))
    )


def _height(stack: jax.Array) -> jax.Array:
    return (stack & 1) + (stack >> 1 & 1) + (stack >> 2 & 1) + (stack >> 3 & 1)


def _share(counts: jax.Array, table: jax.Array) -> jax.Array:
    """``table[i, counts[i]]`` for each row ``i`` (a one-hot sum rather than a gather)."""
    return jnp.sum(
        jnp.where(counts[:, None] == jnp.arange(table.shape[1]), table, 0.0), axis=1
    ).astype(jnp.float32)


@dataclass
class State(VectorState):
    """One game (or a batch of games, each field with a leading batch axis): pgx's fields
    (:class:`pocketarena.vector.State`), then the position's."""

    stacks: jax.Array  # int32[L]: bit c set when a coin of kind c (0 Q .. 3 D) is in the stack
    holder: jax.Array  # int32[L]: 0 Union, 1 Confederacy, -1 nobody
    piles: jax.Array  # int32[2, 4]: coins of each kind Q N P D in each seat's pile
    used: jax.Array  # bool[L]: a coin has stood on the location at some time
    odd: jax.Array  # int32: odd flips in a row (0..2)
    flips: jax.Array  # int32: flips made
    recalling: jax.Array  # bool: current_player owes a recall
    odd_drawn: jax.Array  # int32: odd flips thrown by the call that made this state
    face_drawn: jax.Array  # int32: then 0 HH, 1 TT, or -1 (the run ended on an odd flip)
    _game: Game | None = field(pytree_node=False, default=None)


_ODD_DRAWS = 33  # odd flips a draw gives: 0-32 (_flip_draw)


def _flip_draw(key: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(odd flips before the first HH or TT, that flip: HH 0 or TT 1) from two random words:
    the first word's trailing zero bits and a bit of the second (see ``Env._flip``)."""
    # The odd flips are the first word's trailing zero bits (each bit 0 with probability 1/2;
    # 32 when all are, probability 2**-32, so the run is cut there: jax.random.geometric's
    # float32 draw cuts it near 24), and HH or TT is a bit of the second. Cheaper than a
    # geometric (a logarithm) and a Bernoulli draw, each with its own key: this runs in every
    # step and in every init.
    bits = jax.random.bits(key, (2,), jnp.uint32)
    k = jax.lax.population_count((bits[0] & -bits[0]) - jnp.uint32(1)).astype(jnp.int32)
    return k, (bits[1] & 1).astype(jnp.int32)


class Env(VectorEnv[State, WalletBattlesState]):
    """Wallet Battles with its options fixed (see :func:`make`)."""

    game: WalletBattles
    _state_class = State
    chance = True

    def __init__(self, game: WalletBattles) -> None:
        super().__init__(game)
        self._games: State | None = None  # every new game, made on first use (_new_games)
        self.num_locations = n = len(game.location_ids)
        self.num_actions = game.num_decisions
        self.observation_shape: tuple[int, ...] = (9 * n + 21,)
        self.ends_when_used = game.ends_when_used
        decisions = range(game.num_decisions)
        self._kind = jnp.array([game.kinds[a] for a in decisions], jnp.int32)
        self._loc = jnp.array([max(game.loc_of[a], 0) for a in decisions], jnp.int32)
        self._coin = jnp.array([max(game.coin_of[a], 0) for a in decisions], jnp.int32)
        # The mask is built in id order: places location by location, captures, recalls, pass.
        layout = [(PLACE, loc, c) for loc in range(n) for c in range(4)]
        layout += [(CAPTURE, loc, -1) for loc in range(n)] + [(RECALL, loc, -1) for loc in range(n)]
        layout.append((PASS, -1, -1))
        if layout != [(game.kinds[a], game.loc_of[a], game.coin_of[a]) for a in decisions]:
            raise AssertionError("Wallet Battles action ids are not in the order the mask uses")
        self._start_pile = jnp.array([game.start_pile, game.start_pile], jnp.int32)
        # Fractions as tables, rounded once as the engine rounds them (XLA's float32 division
        # may differ from it in the last bit): [kind, coins in a pile], [flips].
        most = 2 * max(game.start_pile)
        self._pile_share = jnp.asarray(
            np.array([[n / max(1, 2 * c) for n in range(most + 1)] for c in game.start_pile]),
            jnp.float32,
        )
        self._flip_share = jnp.asarray(np.arange(FLIP_LIMIT + 1) / FLIP_LIMIT, jnp.float32)

    # -- the rules --------------------------------------------------------------------------
    def _init(self, key: jax.Array) -> State:
        """A new game, its first flips thrown from ``key``."""
        state = self._flip(self._empty(), jnp.bool_(True), key)
        return self._finish(state).replace(rewards=jnp.zeros(2, jnp.float32))

    def init(self, key: jax.Array) -> State:
        """A new game (observation included), looked up: its first flips are one of the 33 x 2
        outcomes of ``_flip_draw``, each new game made once by ``_init``'s own code
        (``_new_games``), so ``init``, which pgx's ``auto_reset`` runs in every step for every
        game, costs one draw and one row of a table."""
        odd, face = _flip_draw(key)
        games = self._new_games()
        state: State = jax.tree.map(lambda table: jnp.asarray(table)[odd * 2 + face], games)
        return state

    def _new_games(self) -> State:
        """Every new game, indexed ``odd * 2 + face`` (odd flips 0-32 before HH 0 or TT 1),
        made once, as constants."""
        if self._games is None:
            with jax.ensure_compile_time_eval():
                odd = jnp.repeat(jnp.arange(_ODD_DRAWS, dtype=jnp.int32), 2)
                face = jnp.tile(jnp.arange(2, dtype=jnp.int32), _ODD_DRAWS)

                def one(odd: jax.Array, face: jax.Array) -> State:
                    s = self._flipped(self._empty(), jnp.bool_(True), odd, face)
                    s = self._finish(s).replace(rewards=jnp.zeros(2, jnp.float32))
                    return s.replace(observation=self._observe(s, s.current_player))

                self._games = jax.tree.map(np.asarray, jax.vmap(one)(odd, face))
        return self._games

    def _empty(self) -> State:
        """The empty map before the first flips."""
        n = self.num_locations
        zero = jnp.int32(0)
        return State(
            current_player=zero,
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            legal_action_mask=jnp.zeros(self.num_actions, jnp.bool_),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            stacks=jnp.zeros(n, jnp.int32),
            holder=jnp.full(n, NOBODY, jnp.int32),
            piles=self._start_pile,
            used=jnp.zeros(n, jnp.bool_),
            odd=zero,
            flips=zero,
            recalling=jnp.bool_(False),
            odd_drawn=zero,
            face_drawn=jnp.int32(-1),
            _step_count=zero,
            _game=self.game,
        )

    def _step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        """Apply a legal decision to a running game, then flip until someone decides."""
        played, owed = self._decide(state, action)
        return self._finish(self._flip(played, owed, key))

    def _decide(self, s: State, action: jax.Array) -> tuple[State, jax.Array]:
        """The decision applied, and whether flips are owed next."""
        seat = s.current_player
        chosen = jnp.arange(self.num_actions) == action
        kind = _pick(self._kind, chosen)
        loc = _pick(self._loc, chosen)
        coin = _pick(self._coin, chosen)
        at = jnp.arange(self.num_locations) == loc
        stack = _pick(s.stacks, at)
        top = _top_coin(stack)
        place = kind == PLACE
        take = (kind == CAPTURE) | (kind == RECALL)  # the top coin into the decider's pile
        taken = stack & ~jnp.left_shift(1, jnp.maximum(top, 0))
        new_stack = jnp.where(place, stack | jnp.left_shift(1, coin), jnp.where(take, taken, stack))
        new_holder = jnp.where(
            place, seat, jnp.where(take & (taken == 0), NOBODY, _pick(s.holder, at))
        ).astype(jnp.int32)
        holder = jnp.where(at, new_holder, s.holder)
        used = s.used | (at & place)
        moved = jnp.where(place, coin, jnp.maximum(top, 0))
        delta = jnp.where(place, -1, jnp.where(take, 1, 0)).astype(jnp.int32)
        cell = (jnp.arange(2) == seat)[:, None] & (jnp.arange(4) == moved)[None, :]
        piles = s.piles + jnp.where(cell, delta, 0)
        map_done = jnp.all(used) if self.ends_when_used else jnp.all(holder != NOBODY)
        ended = place & (map_done | (_row(piles, seat).sum() == 0))
        # After the Union's recall the Confederacy recalls too, if it has coins on the map.
        second_recall = (kind == RECALL) & (seat == 0) & jnp.any(holder == 1)
        owed = ~ended & ~second_recall
        decided = s.replace(
            current_player=jnp.where(second_recall, 1, seat).astype(jnp.int32),
            terminated=ended,
            stacks=jnp.where(at, new_stack, s.stacks),
            holder=holder,
            piles=piles,
            used=used,
            recalling=second_recall,
            odd_drawn=jnp.int32(0),
            face_drawn=jnp.int32(-1),
        )
        return decided, owed

    def _flip(self, s: State, owed: jax.Array, key: jax.Array) -> State:
        """If ``owed``, flip until a seat decides or the guard ends the game.

        The run is drawn at once: the number of odd flips before the first HH or TT is
        geometric (each flip is odd with probability 1/2) and that flip is HH or TT alike. A
        run reaching the third odd in a row stops there for a recall when anyone has coins on
        the map; every flip that leaves nobody to decide checks the guard, as the engine does.
        """
        k, face = _flip_draw(key)
        return self._flipped(s, owed, k, face)

    def _flipped(self, s: State, owed: jax.Array, k: jax.Array, face: jax.Array) -> State:
        """``_flip`` with its draw given: ``k`` odd flips before one HH (``face`` 0) or TT (1)."""
        flips = s.flips
        guard_now = owed & (flips >= FLIP_LIMIT)
        throw = owed & ~guard_now
        to_recall = jnp.any(s.holder != NOBODY) & (s.odd + k >= _ODD_STEPS)
        before_recall = _ODD_STEPS - s.odd
        checked = jnp.where(to_recall, before_recall - 1, k)  # odd flips that check the guard
        guard_hit = flips + checked >= FLIP_LIMIT
        odds = jnp.where(guard_hit, FLIP_LIMIT - flips, jnp.where(to_recall, before_recall, k))
        decides = throw & ~guard_hit
        recaller = jnp.where(jnp.any(s.holder == 0), 0, 1)
        return s.replace(
            current_player=jnp.where(
                decides, jnp.where(to_recall, recaller, face), s.current_player
            ).astype(jnp.int32),
            terminated=s.terminated | guard_now | (throw & guard_hit),
            odd=jnp.where(
                throw, jnp.where(guard_hit, (s.odd + odds) % _ODD_STEPS, 0), s.odd
            ).astype(jnp.int32),
            flips=jnp.where(
                throw,
                jnp.where(guard_hit, FLIP_LIMIT, flips + odds + (~to_recall).astype(jnp.int32)),
                flips,
            ).astype(jnp.int32),
            recalling=jnp.where(decides, to_recall, s.recalling),
            odd_drawn=jnp.where(throw, odds, 0).astype(jnp.int32),
            face_drawn=jnp.where(decides & ~to_recall, face, -1).astype(jnp.int32),
        )

    def _finish(self, s: State) -> State:
        """Mask and rewards for the position in ``s`` (just reached by a running game)."""
        ended = s.terminated
        a, b = self._scores(s)
        won = jnp.where(a > b, 1.0, jnp.where(b > a, -1.0, 0.0))
        rewards = jnp.where(ended, jnp.stack([won, -won]), 0.0).astype(jnp.float32)
        mask = jnp.where(s.terminated, True, self._legal(s))
        return s.replace(legal_action_mask=mask, rewards=rewards)

    def _scores(self, s: State) -> tuple[jax.Array, jax.Array]:
        n = _height(s.stacks)
        value = jnp.where(n > 0, 2 + jnp.where(n >= 3, 2 * n, n), 0)
        totals = s.piles.sum(axis=1)
        return (
            totals[0] + jnp.sum(jnp.where(s.holder == 0, value, 0)),
            totals[1] + jnp.sum(jnp.where(s.holder == 1, value, 0)),
        )

    def _legal(self, s: State) -> jax.Array:
        seat = s.current_player
        has = _row(s.piles, seat) > 0  # [4]
        top = _top_coin(s.stacks)  # [L]
        coins = jnp.arange(4)
        fits = (s.holder == NOBODY)[:, None] | (
            (s.holder == seat)[:, None] & (coins[None, :] > top[:, None])
        )
        place_ok = fits & has[None, :] & ~s.recalling  # [L, 4]
        capture_ok = (s.holder == 1 - seat) & ~s.recalling
        recall_ok = (s.holder == seat) & s.recalling
        pass_ok = ~s.recalling[None]  # no passing in a recall
        return jnp.concatenate([place_ok.reshape(-1), capture_ok, recall_ok, pass_ok])

    def _observe(self, s: State, seat: jax.Array | int) -> jax.Array:
        """``seat``'s view: :mod:`pocketarena.games.wallet_battles.observe`'s layout."""
        bits = (jnp.right_shift(s.stacks[:, None], jnp.arange(4)) & 1) > 0  # [L, 4]
        own = bits & (s.holder == seat)[:, None]
        opp = bits & (s.holder == 1 - seat)[:, None]
        live = ~s.terminated
        mine = s.current_player == seat  # the observing seat decides now
        f32 = jnp.float32
        parts = [
            own.reshape(-1).astype(f32),
            opp.reshape(-1).astype(f32),
            _share(_row(s.piles, seat), self._pile_share),
            _share(_row(s.piles, 1 - seat), self._pile_share),
            jnp.stack([live & mine, live & ~mine, seat == 0, seat == 1]).astype(f32),
            jnp.stack(
                [jnp.bool_(False), live & ~s.recalling, live & s.recalling, s.terminated]
            ).astype(f32),
            jax.nn.one_hot(jnp.minimum(s.odd, _ODD_STEPS - 1), _ODD_STEPS, dtype=f32),
            self._flip_share[jnp.minimum(s.flips, FLIP_LIMIT)][None],
            s.used.astype(f32),
            jnp.full(1, float(self.ends_when_used), f32),
        ]
        return jnp.concatenate(parts).astype(f32)

    # -- the engine's states ----------------------------------------------------------------
    def to_engine(self, state: State) -> WalletBattlesState:
        """The engine position of one (unbatched) state; it has no history."""
        if np.ndim(state.current_player) != 0:
            raise ValueError("to_engine takes one state, not a batch: index the batch first")
        stacks = np.asarray(state.stacks).tolist()
        holder = [int(h) for h in np.asarray(state.holder)]
        piles = np.asarray(state.piles).astype(int)
        used = np.asarray(state.used).tolist()
        engine = self.game.new_initial_state()
        engine.stacks = [tuple(c for c in range(4) if m >> c & 1) for m in stacks]
        engine.holder = holder
        engine.piles = [int(x) for x in piles.reshape(-1)]
        engine.pile_total = [int(piles[0].sum()), int(piles[1].sum())]
        engine.held = [holder.count(0), holder.count(1)]
        engine.empty = holder.count(NOBODY)
        engine.ever = sum(1 << loc for loc, u in enumerate(used) if u)
        engine.unused = used.count(False)
        engine.odd = int(state.odd)
        engine.flips = int(state.flips)
        engine.recalling = bool(state.recalling)
        engine.current_player = TERMINAL if bool(state.terminated) else int(state.current_player)
        return engine

    def _host(self, engine: EngineState) -> dict[str, Any]:
        """The state of an engine position at a decision or the end (not at a flip: flip it
        first). A finished game's ``current_player`` is the seat that decided last, read from
        the engine state's history (seat 0 when it has none)."""
        if not isinstance(engine, WalletBattlesState) or engine.game != self.game:
            raise ValueError(
                f"from_engine takes a state of {self.game.TITLE} with options "
                f"{self.game.options}, got {engine!r}"
            )
        if engine.current_player == CHANCE:
            raise ValueError(
                "the engine state is at a flip; vector states are decisions or finished games: "
                "apply the flip first"
            )
        over = engine.current_player == TERMINAL
        seat = _last_decider(engine) if over else engine.current_player
        host: dict[str, Any] = dict(  # numpy: one transfer into the compiled call
            current_player=np.int32(seat),
            observation=np.zeros(self.observation_shape, np.float32),
            legal_action_mask=np.zeros(self.num_actions, np.bool_),
            rewards=np.zeros(2, np.float32),
            terminated=np.bool_(over),
            truncated=np.bool_(False),
            stacks=np.array([sum(1 << c for c in st) for st in engine.stacks], np.int32),
            holder=np.array(engine.holder, np.int32),
            piles=np.array(engine.piles, np.int32).reshape(2, 4),
            used=np.array([engine.used(loc) for loc in range(self.num_locations)], np.bool_),
            odd=np.int32(engine.odd),
            flips=np.int32(engine.flips),
            recalling=np.bool_(engine.recalling),
            odd_drawn=np.int32(0),
            face_drawn=np.int32(-1),
        )
        host["rewards"] = np.array(engine.returns(), np.float32)  # kept by _completed
        return host

    def _completed(self, s: State) -> State:
        """Mask and observation of a position made from an engine state (its rewards, the
        engine's returns, as they are)."""
        s = self._finish(s).replace(rewards=s.rewards)
        return s.replace(observation=self._observe(s, s.current_player))


def _last_decider(engine: EngineState) -> int:
    """The seat that made the last decision in ``engine``'s history (0 if it has none)."""
    replay = engine.game.new_initial_state()
    seat = 0
    for action in engine.history:
        if not action.chance:
            seat = replay.current_player
        replay.apply(action)
    return seat


def make(**options: Any) -> Env:
    """Wallet Battles with ``options`` (``map``, ``coins``, ``end``: the engine's, checked by
    the engine with its messages)."""
    return Env(WalletBattles(**options))
