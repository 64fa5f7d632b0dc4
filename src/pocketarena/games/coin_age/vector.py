"""Coin Age in JAX, in pgx's environment style: ``init(key)`` and ``step(state, action, key)``
are pure functions of arrays, so ``jax.jit(jax.vmap(env.step))`` plays thousands of games at
once, on any map.

>>> import jax
>>> from pocketarena.games.coin_age.vector import make
>>> env = make(map="five-fiefs")
>>> env.num_actions, env.observation_shape
(95, (340,))
>>> state = jax.jit(env.init)(jax.random.key(0))  # compiled: much faster than op by op
>>> bool(state.legal_action_mask[env.num_actions - 1])  # "end" is always legal
True

Action ids are the engine's own decision ids (and so :mod:`pocketarena.interop.openspiel`'s):
``place`` (Q N P D, each on every space), ``pay``, ``move`` (the map's adjacent pairs, both
ways), ``capture`` and ``end``. The map is fixed when the environment is made: the action ids
depend on it, so ``map="random"`` needs a ``seed`` (which picks the map, as in the engine).

Chance happens inside ``init`` and ``step``: when a turn ends, the next mover slaps (each coin
of each kind in their bank lands heads or tails with probability 1/2, as in the engine) and,
if that slap allows nothing, the turn ends and the other seat slaps, until someone can act or
the turn limit ends the game. So ``current_player`` is always the mover. A call records how many
slaps it threw (``slaps_drawn``); every slap but the last allowed nothing (it matched no coin
on an empty map, so how its coins lay is known), and the last one is ``thrown``/``heads``: the
engine can replay them exactly. The turn limit is a rule of the game, scored like any end: it
sets ``terminated``; ``truncated`` is never set.

As in pgx: ``observation`` is :mod:`pocketarena.observe`'s tensor for ``current_player``;
``rewards`` are +1 / -1 / 0 on the step that ends the game and 0 otherwise; an illegal action
ends the game with -1 for the seat that played it and +1 for the other; stepping a finished
game changes nothing and rewards 0; at a finished game every action is marked legal (so masks
can be normalised) and ``current_player`` is the mover of the last turn.
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

from .atlas import MAP_NAMES, load_map
from .rules import (
    _CAPTURE,
    _END,
    _MOVE,
    _PAY,
    _PLACE,
    ALLOWANCE,
    MAX_TURNS,
    START_BANK,
    CoinAge,
    CoinAgeState,
)

__all__ = ["Env", "State", "make"]

_REGION_SLOTS = max(len(load_map(name).regions) for name in MAP_NAMES)  # as the observation


# Speed on CPU, measured case by case in pgx's loop: writing at a per-game index is a select over
# a one-hot mask; reading one entry a game is a gather (``_decide``, ``_share``: faster than a
# masked sum once vmapped); sets of spaces are bits of a word where a mask entry or a count
# would otherwise reduce over a table; small tables are arithmetic.
def _row(rows: jax.Array, seat: jax.Array | int) -> jax.Array:
    """``rows[seat]`` of a two-row array."""
    return jnp.where(seat == 0, rows[0], rows[1])


def _lowest_kind(kinds: jax.Array) -> jax.Array:
    """The top coin's kind of 4-bit sets of kinds (bit k: a coin of kind k, 0 D .. 3 Q): the
    lowest, as a coin goes only on a higher one; -1 when empty."""
    return jnp.where(
        kinds & 1, 0, jnp.where(kinds & 2, 1, jnp.where(kinds & 4, 2, jnp.where(kinds & 8, 3, -1)))
    )


def _count(mask: jax.Array) -> jax.Array:
    return (mask & 1) + (mask >> 1 & 1) + (mask >> 2 & 1) + (mask >> 3 & 1)


def _allowance(matches: jax.Array) -> tuple[jax.Array, ...]:
    """Places, pays, moves, captures a slap with ``matches`` matching coins allows."""
    return (
        jnp.minimum(matches, 2),
        (matches == 4).astype(jnp.int32),
        (matches <= 1).astype(jnp.int32),
        (matches == 0).astype(jnp.int32),
    )


assert (
    tuple(  # the formula is the engine's table
        (min(m, 2), int(m == 4), int(m <= 1), int(m == 0)) for m in range(5)
    )
    == ALLOWANCE
)


def _share(counts: jax.Array, table: jax.Array) -> jax.Array:
    """``table[i, counts[i]]`` for each row ``i``: a gather of one entry a row from a constant
    table (vmapped, 1.2x the steps/s of a one-hot sum over the table's 21 columns)."""
    return table[jnp.arange(table.shape[0]), counts].astype(jnp.float32)


@dataclass
class State(VectorState):
    """One game (or a batch of games, each field with a leading batch axis): pgx's fields
    (:class:`pocketarena.vector.State`), then the position's."""

    kinds: jax.Array  # int32[spaces]: bit k set when the stack holds a coin of kind k (D P N Q)
    tails: jax.Array  # int32[spaces]: bit k set when that coin is Tails' (seat 1's)
    banks: jax.Array  # int32[2, 4]: coins of each kind D P N Q in each seat's bank
    turn: jax.Array  # int32: 1-based number of the turn in progress (or the last one)
    thrown: jax.Array  # int32: kinds the turn's slap threw (bit mask)
    heads: jax.Array  # int32: ... of which landed heads
    matched: jax.Array  # int32: ... of which show the mover's side
    unused: jax.Array  # int32: matched kinds not yet placed or paid
    places: jax.Array  # int32: places, pays, moves, captures still allowed this turn
    pays: jax.Array
    moves: jax.Array
    captures: jax.Array
    slaps_drawn: jax.Array  # int32: slaps thrown by the call that made this state
    _game: Game | None = field(pytree_node=False, default=None)


FIRST_SLAPS = 9  # a new game's first slap that allows something is slap 1 to 9 (_first_slap_draw)


def _first_slap_draw(key: jax.Array) -> tuple[jax.Array, jax.Array]:
    """(slaps that allowed nothing, the coins the next one matched) of a new game, drawn from
    one random word (see ``Env._first_slaps``)."""
    assert all(START_BANK), "every kind in the bank: each slap throws all four"
    word = jax.random.bits(key, (), jnp.uint32)
    lowest = word & -word
    failed = (jax.lax.population_count(lowest - jnp.uint32(1)) // 4).astype(jnp.int32)
    nibble = ((word >> (4 * jnp.minimum(failed, 7)).astype(jnp.uint32)) & 15).astype(jnp.int32)
    return failed, jnp.where(word == 0, 15, nibble)


class Env(VectorEnv[State, CoinAgeState]):
    """Coin Age on one map (see :func:`make`)."""

    game: CoinAge
    _state_class = State
    chance = True

    def __init__(self, game: CoinAge) -> None:
        super().__init__(game)
        self._games: State | None = None  # every new game, made on first use (_new_games)
        self.num_spaces = n = game.num_spaces
        if n > 31:  # every atlas map has ten
            raise ValueError(f"the vector Coin Age keeps spaces as bits of an int32: {n} > 31")
        self.num_actions = game.num_decisions
        self.observation_shape: tuple[int, ...] = (n * (16 + _REGION_SLOTS + n) + 30,)
        decisions = range(game.num_decisions)
        self._verb = jnp.array([game.verb[a] for a in decisions], jnp.int32)
        self._arg_a = jnp.array([game.arg_a[a] for a in decisions], jnp.int32)
        self._arg_b = jnp.array([game.arg_b[a] for a in decisions], jnp.int32)
        # the map's moves (both ways between adjacent spaces): start and end space of each
        self._move_from = jnp.array([a for a, _, _ in game.move_list], jnp.int32)
        self._move_to = jnp.array([b for _, b, _ in game.move_list], jnp.int32)
        self._space_bits = jnp.asarray(1 << np.arange(n), jnp.int32)  # a space's bit in a word
        # The mask is built in id order: places (Q N P D, each on every space), pays (Q N P D),
        # moves (the engine's list), captures, end.
        layout = [(_PLACE, k, sp) for k in (3, 2, 1, 0) for sp in range(n)]
        layout += [(_PAY, k, 0) for k in (3, 2, 1, 0)]
        layout += [(_MOVE, a, b) for a, b, _ in game.move_list]
        layout += [(_CAPTURE, sp, 0) for sp in range(n)] + [(_END, 0, 0)]
        if layout != [(game.verb[i], game.arg_a[i], game.arg_b[i]) for i in decisions]:
            raise AssertionError("Coin Age action ids are not in the order the mask uses")
        regions = np.zeros((len(game.region_spaces), n), bool)
        for r, spaces in enumerate(game.region_spaces):
            regions[r, list(spaces)] = True
        self._region_words = jnp.asarray(regions @ (1 << np.arange(n)), jnp.int32)
        fixed = np.zeros((n, _REGION_SLOTS + n), np.float32)  # the map's rows of the tensor
        fixed[:, :_REGION_SLOTS][regions.T.nonzero()] = 1.0
        for s, neighbours in enumerate(game.neighbours):
            fixed[s, _REGION_SLOTS + np.array(neighbours, int)] = 1.0
        self._map_rows = (
            jnp.asarray(fixed[:, :_REGION_SLOTS].reshape(-1)),
            jnp.asarray(fixed[:, _REGION_SLOTS:].reshape(-1)),
        )
        # Fractions as tables, rounded once as the engine rounds them (XLA's float32 division
        # may differ from it in the last bit).
        most = 2 * sum(START_BANK)
        self._bank_share = jnp.asarray(
            np.array([[c / (2 * b) for c in range(most + 1)] for b in START_BANK]), jnp.float32
        )
        self._place_share = jnp.asarray((np.arange(4) / 3)[None], jnp.float32)
        self._turn_share = jnp.asarray((np.arange(MAX_TURNS + 1) / MAX_TURNS)[None], jnp.float32)

    # -- the rules --------------------------------------------------------------------------
    def _init(self, key: jax.Array) -> State:
        """A new game, Heads' first slap (and any that follow it) thrown from ``key``."""
        state = self._first_slaps(self._empty(), key)
        return state.replace(legal_action_mask=self._legal(state))  # no end, no rewards yet

    def _empty(self) -> State:
        """The empty map before the first slap."""
        n = self.num_spaces
        zero = jnp.int32(0)
        return State(
            current_player=zero,
            observation=jnp.zeros(self.observation_shape, jnp.float32),
            legal_action_mask=jnp.zeros(self.num_actions, jnp.bool_),
            rewards=jnp.zeros(2, jnp.float32),
            terminated=jnp.bool_(False),
            truncated=jnp.bool_(False),
            kinds=jnp.zeros(n, jnp.int32),
            tails=jnp.zeros(n, jnp.int32),
            banks=jnp.array([START_BANK, START_BANK], jnp.int32),
            turn=jnp.int32(1),
            thrown=zero,
            heads=zero,
            matched=zero,
            unused=zero,
            places=zero,
            pays=zero,
            moves=zero,
            captures=zero,
            slaps_drawn=zero,
            _step_count=zero,
            _game=self.game,
        )

    def _first_slaps(self, s: State, key: jax.Array) -> State:
        """The slaps of a new game, drawn at once rather than one by one in a loop (``init``
        runs in every step of pgx's ``auto_reset``, for every game). On the empty map a slap
        allows something exactly when it matches a coin; every bank holds all four kinds, so
        each slap throws all four. Slap ``i``'s four coins are nibble ``i`` of one random word,
        read from the mover's side (Heads' matches are the heads, Tails' the tails): a slap
        that matches nothing is a zero nibble, so the slaps before the first that allows
        something are the word's trailing zero nibbles, and that slap's matches are the first
        nonzero nibble (uniform over the 15 nonzero ones, as a slap conditioned on matching).
        A word of eight zero nibbles (probability 2**-32) counts as eight failed slaps and then
        a slap matching all four."""
        failed, matched = _first_slap_draw(key)
        return self._slapped(s, failed, matched)

    def _slapped(self, s: State, failed: jax.Array, matched: jax.Array) -> State:
        """A new game ``s`` after ``failed`` slaps that allowed nothing and one that matched
        the coins ``matched`` (a mask of the four kinds)."""
        mover = failed % 2
        places, pays, moves, captures = _allowance(_count(matched))
        return s.replace(
            current_player=mover,
            turn=1 + failed,
            thrown=jnp.int32(15),
            heads=jnp.where(mover == 0, matched, 15 & ~matched),
            matched=matched,
            unused=matched,
            places=places,
            pays=pays,
            moves=moves,
            captures=captures,
            slaps_drawn=failed + 1,
        )

    def init(self, key: jax.Array) -> State:
        """A new game (observation included), looked up: a new game is one of the 9 x 15
        outcomes of ``_first_slap_draw``, each made once by ``_init``'s own code
        (``_new_games``), so ``init``, which pgx's ``auto_reset`` runs in every step for every
        game, costs one draw and one row of a table (pgx's loop: 17-31% more steps/s)."""
        failed, matched = _first_slap_draw(key)
        games = self._new_games()
        state: State = jax.tree.map(lambda table: jnp.asarray(table)[failed * 16 + matched], games)
        return state

    def _new_games(self) -> State:
        """Every new game, indexed ``failed * 16 + matched`` (``failed`` 0-8, ``matched``
        1-15; row ``matched`` 0 is never read), made once, as constants."""
        if self._games is None:
            with jax.ensure_compile_time_eval():
                failed = jnp.repeat(jnp.arange(FIRST_SLAPS, dtype=jnp.int32), 16)
                matched = jnp.tile(jnp.arange(16, dtype=jnp.int32), FIRST_SLAPS)

                def one(failed: jax.Array, matched: jax.Array) -> State:
                    s = self._slapped(self._empty(), failed, jnp.maximum(matched, 1))
                    s = s.replace(legal_action_mask=self._legal(s))
                    return s.replace(observation=self._observe(s, s.current_player))

                self._games = jax.tree.map(np.asarray, jax.vmap(one)(failed, matched))
        return self._games

    def _step(self, state: State, action: jax.Array, key: jax.Array) -> State:
        """Apply the mover's legal decision to a running game; if the turn ends, slap for the
        next one."""
        return self._step_where(state, action, key, jnp.bool_(True))

    def _step_where(
        self, state: State, action: jax.Array, key: jax.Array, applies: jax.Array
    ) -> State:
        """``_step`` where ``applies``; elsewhere no verb is played, no turn ends, and the
        state stays as it is by itself (no select after the step: see the base class)."""
        played, turn_over = self._decide(state, action, applies)
        return self._finish(self._next_turns(played, turn_over, key))

    def _decide(
        self, s: State, action: jax.Array, applies: jax.Array | bool = True
    ) -> tuple[State, jax.Array]:
        """The decision applied (``slaps_drawn`` reset), and whether the turn ends with it;
        where ``applies`` is false, nothing changes and the turn goes on."""
        mover = s.current_player
        # gathers (the action's verb and arguments, then the stacks at a and b): 1.15x the
        # steps/s of masked sums over one-hot masks
        verb = jnp.where(applies, self._verb[action], -1)  # -1: no verb at all
        a = self._arg_a[action]
        b = self._arg_b[action]
        place, pay, move = verb == _PLACE, verb == _PAY, verb == _MOVE
        capture = verb == _CAPTURE
        bit = jnp.left_shift(1, a)
        side = jnp.where(mover == 1, bit, 0)
        # place: coin a on space b; move: the stack on a to b; capture: the top coin of a
        spaces = jnp.arange(self.num_spaces)
        at_a, at_b = spaces == a, spaces == b
        kinds_a, tails_a = s.kinds[a], s.tails[a]
        kinds_b, tails_b = s.kinds[b], s.tails[b]
        top = jnp.maximum(_lowest_kind(kinds_a), 0)
        top_bit = jnp.left_shift(1, top)
        to_b = at_b & (place | move)
        from_a = at_a & (move | capture)
        kinds = jnp.where(
            to_b,
            jnp.where(place, kinds_b | bit, kinds_a),
            jnp.where(from_a, jnp.where(move, 0, kinds_a & ~top_bit), s.kinds),
        )
        tails = jnp.where(
            to_b,
            jnp.where(place, tails_b | side, tails_a),
            jnp.where(from_a, jnp.where(move, 0, tails_a & ~top_bit), s.tails),
        )
        spent = place | pay
        kind = a & 3  # a is a kind for a place or pay (a space otherwise: then unused)
        seats = jnp.arange(2)[:, None]
        columns = jnp.arange(4)[None, :]
        banks = (
            s.banks
            + jnp.where(
                (seats == mover) & (columns == jnp.where(capture, top, kind)),
                jnp.where(spent, -1, jnp.where(capture, 1, 0)),
                0,
            )
            + jnp.where((seats == 1 - mover) & (columns == kind) & pay, 1, 0)
        )
        decided = s.replace(
            kinds=kinds,
            tails=tails,
            banks=banks,
            unused=jnp.where(spent, s.unused & ~bit, s.unused),
            places=s.places - place.astype(jnp.int32) + pay.astype(jnp.int32),
            pays=jnp.where(pay, 0, s.pays),
            moves=jnp.where(move, 0, s.moves),
            captures=jnp.where(capture, 0, s.captures),
            slaps_drawn=jnp.where(applies, 0, s.slaps_drawn).astype(jnp.int32),
        )
        finished = spent & (_row(banks, mover).sum() == 0) | place & jnp.all(kinds != 0)
        turn_over = applies & ~finished & ((verb == _END) | ~self._can_act(decided))
        cleared = self._clear(decided).replace(terminated=jnp.bool_(True))
        chosen: State = jax.tree.map(lambda x, y: jnp.where(finished, x, y), cleared, decided)
        return chosen, turn_over

    def _can_act(self, s: State) -> jax.Array:
        """Is anything but ``end`` legal?"""
        occupied = self._occupied(s)
        return (
            ((s.places > 0) | (s.pays > 0)) & (s.unused != 0)
            | (s.captures > 0) & (occupied != 0)
            | (s.moves > 0) & jnp.any(self._open_moves(occupied))
        )

    def _occupied(self, s: State) -> jax.Array:
        """The occupied spaces as one word (bit ``i``: space ``i``)."""
        return jnp.sum(jnp.where(s.kinds != 0, self._space_bits, 0))

    def _open_moves(self, occupied: jax.Array) -> jax.Array:
        """Per move of the map's list, whether its start is occupied and its end empty: two
        bits of the ``occupied`` word per move (vmapped, any-reductions over a moves x spaces
        table cost more than the rest of the mask)."""
        start = jnp.right_shift(occupied, self._move_from) & 1
        end = jnp.right_shift(occupied, self._move_to) & 1
        return (start & ~end) != 0

    @staticmethod
    def _clear(s: State) -> State:
        """Nothing more to do this turn."""
        zero = jnp.zeros_like(s.places)
        return s.replace(unused=zero, places=zero, pays=zero, moves=zero, captures=zero)

    def _throw(self, s: State, key: jax.Array) -> State:
        """The mover slaps one coin of each kind in their bank."""
        mover = s.current_player
        thrown = jnp.sum(jnp.where(_row(s.banks, mover) > 0, jnp.array([1, 2, 4, 8]), 0))
        # each coin 1/2 heads: four random bits (one word, cheaper than randint's draw)
        heads = (jax.random.bits(key, (), jnp.uint32) & 15).astype(jnp.int32) & thrown
        matched = jnp.where(mover == 0, heads, thrown & ~heads)
        places, pays, moves, captures = _allowance(_count(matched))
        return s.replace(
            thrown=thrown.astype(jnp.int32),
            heads=heads,
            matched=matched,
            unused=matched,
            places=places,
            pays=pays,
            moves=moves,
            captures=captures,
            slaps_drawn=s.slaps_drawn + 1,
        )

    def _next_turns(self, s: State, turn_over: jax.Array, key: jax.Array) -> State:
        """While the turn is over: end the game at the turn limit, or the other seat slaps.

        The first next turn is taken outside the loop: vmapped, a loop runs for the whole batch
        while any game needs it, and a slap that allows nothing (the only reason for a second
        turn) comes only on an empty map."""

        def more(carry: tuple[State, jax.Array, jax.Array]) -> jax.Array:
            return carry[1]

        def next_turn(carry: tuple[State, jax.Array, jax.Array]) -> tuple[State, Any, Any]:
            s, over, i = carry
            s, over = self._next_turn(s, over, jax.random.fold_in(key, i))
            return s, over, i + 1

        state, _, _ = jax.lax.while_loop(more, next_turn, next_turn((s, turn_over, jnp.int32(0))))
        return state

    def _next_turn(self, s: State, over: jax.Array, key: jax.Array) -> tuple[State, jax.Array]:
        """If ``over``: the game ends at the turn limit, or the other seat slaps; and whether
        that turn is over at once too."""
        last = s.turn >= MAX_TURNS
        ended = self._clear(s).replace(terminated=jnp.bool_(True))
        slapped = self._throw(
            self._clear(s).replace(
                turn=s.turn + 1, current_player=(1 - s.current_player).astype(jnp.int32)
            ),
            key,
        )
        new: State = jax.tree.map(
            lambda x, y, z: jnp.where(over, jnp.where(last, x, y), z), ended, slapped, s
        )
        return new, over & ~last & ~self._can_act(new)

    def _finish(self, s: State) -> State:
        """Mask and rewards for the position in ``s`` (just reached by a running game)."""
        ended = s.terminated
        a, b = self._scores(s)
        value = jnp.sum(s.banks * jnp.arange(1, 5), axis=1)  # the tie-break: ranks in banks
        a, b = jnp.where(a == b, value[0], a), jnp.where(a == b, value[1], b)
        won = jnp.where(a > b, 1.0, jnp.where(b > a, -1.0, 0.0))
        rewards = jnp.where(ended, jnp.stack([won, -won]), 0.0).astype(jnp.float32)
        mask = jnp.where(s.terminated, True, self._legal(s))
        return s.replace(legal_action_mask=mask, rewards=rewards)

    def _tops(self, s: State) -> tuple[jax.Array, jax.Array]:
        """Per space, the top coin's kind (-1 when empty) and its owner."""
        top = _lowest_kind(s.kinds)
        return top, jnp.right_shift(s.tails, jnp.maximum(top, 0)) & 1

    def _scores(self, s: State) -> tuple[jax.Array, jax.Array]:
        """Each seat's score: its bank, and per region the ranks of the coins it tops there,
        doubled where it tops more spaces of the region than the other seat. Counted with
        popcounts of words (per seat and kind, the spaces it tops with that kind) against each
        region's word, rather than sums over regions x spaces tables."""
        top, owner = self._tops(s)
        kinds = jnp.arange(4)
        topped = (top == kinds[:, None]) & (owner == jnp.arange(2)[:, None, None])  # [2, 4, n]
        words = jnp.sum(jnp.where(topped, self._space_bits, 0), axis=2)  # [2, 4]
        count = jax.lax.population_count(words[:, None, :] & self._region_words[:, None])
        held = count.sum(axis=2)  # [2, regions]: spaces each seat tops in each region
        points = (count * (kinds + 1)).sum(axis=2)  # [2, regions]: their ranks
        banks = s.banks.sum(axis=1)
        return (
            banks[0] + jnp.sum(points[0] * jnp.where(held[0] > held[1], 2, 1)),
            banks[1] + jnp.sum(points[1] * jnp.where(held[1] > held[0], 2, 1)),
        )

    def _legal(self, s: State) -> jax.Array:
        occupied = s.kinds != 0
        kinds = jnp.array([3, 2, 1, 0])[:, None]  # Q N P D, as the ids go
        below = jnp.left_shift(2, kinds) - 1  # kinds of rank up to the placed coin's
        unused = (jnp.right_shift(s.unused, kinds) & 1) > 0  # [4, 1]
        place_ok = (s.places > 0) & unused & ((s.kinds[None, :] & below) == 0)  # [4, spaces]
        pay_ok = (s.pays > 0) & unused[:, 0]
        move_ok = (s.moves > 0) & self._open_moves(self._occupied(s))
        capture_ok = (s.captures > 0) & occupied
        end_ok = jnp.ones(1, jnp.bool_)
        return jnp.concatenate([place_ok.reshape(-1), pay_ok, move_ok, capture_ok, end_ok])

    def _observe(self, s: State, seat: jax.Array | int) -> jax.Array:
        """``seat``'s view: :mod:`pocketarena.games.coin_age.observe`'s layout."""
        kinds = jnp.arange(4)
        coins = (jnp.right_shift(s.kinds[:, None], kinds) & 1) > 0  # [spaces, 4]
        tails = (jnp.right_shift(s.tails[:, None], kinds) & 1) > 0
        own = coins & (tails == (seat == 1))
        top, owner = self._tops(s)
        on_top = top[:, None] == kinds[None, :]
        own_top = on_top & (owner == seat)[:, None]
        live = ~s.terminated
        mine = s.current_player == seat  # the observing seat's turn
        f32 = jnp.float32

        def bits(mask: jax.Array) -> jax.Array:
            return ((jnp.right_shift(mask, kinds) & 1) > 0).astype(f32)

        regions, adjacent = self._map_rows
        parts = [
            own.reshape(-1).astype(f32),
            (coins & ~own).reshape(-1).astype(f32),
            own_top.reshape(-1).astype(f32),
            (on_top & ~own_top).reshape(-1).astype(f32),
            regions,
            adjacent,
            _share(_row(s.banks, seat), self._bank_share),
            _share(_row(s.banks, 1 - seat), self._bank_share),
            jnp.stack([live & mine, live & ~mine, jnp.bool_(False), live, s.terminated]).astype(
                f32
            ),
            bits(s.thrown),
            bits(s.matched),
            bits(s.unused),
            _share(jnp.minimum(s.places, 3)[None], self._place_share),
            jnp.minimum(jnp.stack([s.pays, s.moves, s.captures]), 1).astype(f32),
            _share(jnp.minimum(s.turn, MAX_TURNS)[None], self._turn_share),
        ]
        return jnp.concatenate(parts).astype(f32)

    # -- the engine's states ----------------------------------------------------------------
    def to_engine(self, state: State) -> CoinAgeState:
        """The engine position of one (unbatched) state; it has no history."""
        if np.ndim(state.current_player) != 0:
            raise ValueError("to_engine takes one state, not a batch: index the batch first")
        game = self.game
        engine = game.new_initial_state()
        stacks = []
        for kinds, tails in zip(
            np.asarray(state.kinds).tolist(), np.asarray(state.tails).tolist(), strict=True
        ):
            stacks.append(tuple((tails >> k & 1) << 2 | k for k in (3, 2, 1, 0) if kinds >> k & 1))
        engine.stacks = stacks
        engine.tops = [st[-1] if st else -1 for st in stacks]
        engine.banks = [[int(x) for x in row] for row in np.asarray(state.banks)]
        engine.turn = int(state.turn)
        engine.mover = int(state.current_player)
        engine.slap = self._slap(int(state.thrown), int(state.heads))
        engine.matched = int(state.matched)
        engine.unused = int(state.unused)
        engine.places = int(state.places)
        engine.pays = int(state.pays)
        engine.moves = int(state.moves)
        engine.captures = int(state.captures)
        engine.current_player = TERMINAL if bool(state.terminated) else engine.mover
        return engine

    def _slap(self, thrown: int, heads: int) -> Any:
        """The engine's slap action that throws ``thrown`` with ``heads`` up."""
        game = self.game
        for action, _ in game.outcomes_for[thrown]:
            if game.arg_b[action.id] == heads:
                return action
        raise ValueError(f"no slap throws kinds {thrown:04b} with heads {heads:04b}")

    def _host(self, engine: EngineState) -> dict[str, Any]:
        """The state of an engine position at a decision or the end (not at a slap: throw it
        first)."""
        if not isinstance(engine, CoinAgeState) or engine.game != self.game:
            raise ValueError(
                f"from_engine takes a state of {self.game.TITLE} with options "
                f"{self.game.options}, got {engine!r}"
            )
        if engine.current_player == CHANCE or engine.slap is None:
            raise ValueError(
                "the engine state is at a slap; vector states are decisions or finished games: "
                "apply the slap first"
            )
        game = self.game
        kinds = [sum(1 << (c & 3) for c in st) for st in engine.stacks]
        tails = [sum((c >> 2) << (c & 3) for c in st) for st in engine.stacks]
        i32 = np.int32
        host: dict[str, Any] = dict(  # numpy: one transfer into the compiled call
            current_player=i32(engine.mover),
            observation=np.zeros(self.observation_shape, np.float32),
            legal_action_mask=np.zeros(self.num_actions, np.bool_),
            rewards=np.zeros(2, np.float32),
            terminated=np.bool_(engine.current_player == TERMINAL),
            truncated=np.bool_(False),
            kinds=np.array(kinds, i32),
            tails=np.array(tails, i32),
            banks=np.array(engine.banks, i32),
            turn=i32(engine.turn),
            thrown=i32(game.arg_a[engine.slap.id]),
            heads=i32(game.arg_b[engine.slap.id]),
            matched=i32(engine.matched),
            unused=i32(engine.unused),
            places=i32(engine.places),
            pays=i32(engine.pays),
            moves=i32(engine.moves),
            captures=i32(engine.captures),
            slaps_drawn=i32(0),
        )
        host["rewards"] = np.array(engine.returns(), np.float32)  # kept by _completed
        return host

    def _completed(self, s: State) -> State:
        """Mask and observation of a position made from an engine state (its rewards, the
        engine's returns, as they are)."""
        s = self._finish(s).replace(rewards=s.rewards)
        return s.replace(observation=self._observe(s, s.current_player))


def make(**options: Any) -> Env:
    """Coin Age with ``options`` (``map``, and ``seed`` for ``map="random"``: the engine's,
    checked by the engine with its messages)."""
    return Env(CoinAge(**options))
