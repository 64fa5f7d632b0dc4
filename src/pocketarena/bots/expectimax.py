"""Expectimax with *-minimax pruning (Ballard's Star1 and Star2) for the chance games, over
whole turns, with the game's heuristic at the horizon and iterative deepening within a time
budget.

Depth counts *turns*, not plies: a seat's decisions in a row (a Coin Age turn is a throw and
then up to four decisions by the same seat) are searched to the turn's end at the same depth,
and the depth falls by one when the turn passes to a throw, the other seat or the end. At depth
1 the bot searches every way to play its own turn and judges the position the turn leaves (at
the next throw) by the heuristic; at depth 2 it also averages over the opponent's throw and
the opponent's best reply; and so on.

Values are from seat 0's view, in [-1, 1]: seat 0 maximises, seat 1 minimises, a throw is the
probability-weighted average of its outcomes. Alpha-beta prunes decisions; at a throw Star1
stops as soon as the outcomes seen, with the remaining ones at their extreme values, already
decide the comparison with the window, and Star2 first *probes* every outcome that leads to a
decision (one move each) to get a bound before searching any fully. A transposition table keyed
by the position (not the history) shares the work between orders of the same coins and holds
the best move of the last iteration for move ordering.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Any

from pocketarena.core import CHANCE, TERMINAL, Action, Game, State

from .base import Bot
from .evaluation import ActionValue, Evaluate, leaf_evaluation, position_key

LOW, HIGH = -1.0, 1.0  # the bounds of every value (Star1/Star2 rely on them)
EXACT, LOWER, UPPER = 0, 1, 2  # what a table entry's value is
# Throws in a row (Wallet Battles' odd flips) searched before judging by the heuristic.
MAX_CHANCE_CHAIN = 3
TABLE_LIMIT = 300_000  # entries before a table starts afresh (keys are big tuples)


class _Timeout(Exception):
    """The time budget ran out in the middle of an iteration."""


class ExpectimaxBot(Bot):
    """Depth-limited expectimax over whole turns with Star1/Star2 pruning.

    Budget: ``depth`` (turns; the search deepens 1, 2, … up to it) and/or ``seconds`` (stop
    deepening when time runs out; the last completed depth decides). With neither, depth 2.
    ``probe`` turns Star2 probing off or on; ``order`` sorts decisions by the heuristic.
    """

    name = "expectimax"
    BUDGET = ("depth", "seconds")

    def __init__(
        self,
        game: Game,
        *,
        seed: int | str | None = None,
        probe: bool = True,
        order: bool = True,
        evaluate: Evaluate | None = None,
        **budget: Any,
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        depth = budget.get("depth")
        seconds = budget.get("seconds")
        if depth is None and seconds is None:
            depth = 2
        if depth is not None and (
            isinstance(depth, bool) or not isinstance(depth, int) or depth < 1
        ):
            raise ValueError(f"expectimax depth must be a positive integer, got {depth!r}")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0
        ):
            raise ValueError(f"expectimax seconds must be a positive number, got {seconds!r}")
        self.depth: int | None = depth
        self.seconds: float | None = float(seconds) if seconds is not None else None
        self.probe = probe
        self.order = order
        self.evaluate: Evaluate = evaluate or leaf_evaluation(game)
        self.table: dict[Hashable, tuple[int, int, float, int]] = {}
        self.leaves: dict[Hashable, float] = {}
        self.nodes = 0
        self.deadline = float("inf")
        self.last_depth = 0  # deepest completed iteration of the last search
        self.last_nodes = 0
        self.last_seconds = 0.0

    # -- the public interface -------------------------------------------------------------
    def choose(self, state: State) -> Action:
        legal = self.legal_decisions(state)
        if len(legal) == 1:
            return legal[0]
        values = self._root_search(state, exact=False)
        return values[0].action

    def reset(self) -> None:
        self.table.clear()
        self.leaves.clear()

    def action_values(self, state: State, *, include: str | None = None) -> list[ActionValue]:
        """The exact value (at the search depth) of every legal action for the mover, best
        first; the support is the depth searched (every action is there, ``include`` too)."""
        self.legal_decisions(state)
        return self._root_search(state, exact=True)

    def state_value(self, state: State, seat: int) -> float:
        """The searched value of any state (a decision, a throw or the end) for ``seat``."""
        if state.is_terminal():
            return state.returns()[seat]
        if state.current_player >= 0:
            best = self._root_search(state, exact=True)[0]
            return best.value if seat == state.current_player else -best.value
        value = 0.0
        depth = self.depth or 1
        self.deadline = float("inf")
        for outcome, p in state.chance_outcomes():
            value += p * self.search(state.pushed(outcome), depth, LOW, HIGH, 0)
        return value if seat == 0 else -value

    # -- iterative deepening at the root ----------------------------------------------------
    def _root_search(self, state: State, *, exact: bool) -> list[ActionValue]:
        """Values of the root's actions for the mover, best first, from the deepest search
        completed within the budget. ``exact``: every action gets its exact value (for
        analysis); otherwise alpha-beta only proves which one is best."""
        start = time.perf_counter()
        self.deadline = start + self.seconds if self.seconds is not None else float("inf")
        self.nodes = 0
        if len(self.table) > TABLE_LIMIT:
            self.table.clear()
        if len(self.leaves) > TABLE_LIMIT:
            self.leaves.clear()
        mover = state.current_player
        sign = 1.0 if mover == 0 else -1.0
        legal = list(state.legal_actions())
        # Shuffled so that actions the search cannot tell apart are picked at random, not
        # always the first listed (a fixed habit an opponent can exploit).
        self.rng.shuffle(legal)
        children = [(action, state.pushed(action)) for action in legal]
        # Before any search, the heuristic ranks the actions (and orders the first iteration).
        ranked = [ActionValue(a, sign * self.evaluate(c, 0), 0) for a, c in children]
        ranked.sort(key=lambda av: -av.value)
        if self.order:
            order = {av.action.id: i for i, av in enumerate(ranked)}
            children.sort(key=lambda ac: order[ac[0].id])
        limit = self.depth if self.depth is not None else 64
        depth = 1
        completed = 0
        while depth <= limit:
            try:
                values = self._search_root_children(children, mover, depth, exact)
            except _Timeout:
                break
            completed = depth
            ranked = [ActionValue(a, v, depth) for (a, _), v in zip(children, values, strict=True)]
            ranked.sort(key=lambda av: -av.value)
            order = {av.action.id: i for i, av in enumerate(ranked)}
            children.sort(key=lambda ac: order[ac[0].id])
            if time.perf_counter() >= self.deadline or (not exact and ranked[0].value >= HIGH):
                break  # out of time, or a certain win found (deeper search cannot beat it)
            if self.seconds is not None and self.depth is None:
                # The next depth costs far more than this one; stop if it cannot finish.
                spent = time.perf_counter() - start
                if spent * 4 > self.seconds:
                    break
            depth += 1
        self.last_depth = completed
        self.last_nodes = self.nodes
        self.last_seconds = time.perf_counter() - start
        return ranked

    def _search_root_children(
        self, children: list[tuple[Action, State]], mover: int, depth: int, exact: bool
    ) -> list[float]:
        """The value of each root action for the mover at ``depth``; with alpha-beta, actions
        after the best get a bound no better than the best (enough to rank it first)."""
        sign = 1.0 if mover == 0 else -1.0
        values: list[float] = []
        best = LOW
        twins: dict[Hashable, float] = {}  # the value of each position searched so far
        for _action, child in children:
            key = position_key(child) if child.current_player != TERMINAL else None
            if key is not None and key in twins:
                # The same position as an earlier action: the same value (or, searched in a
                # narrower window then, a bound that still ranks it no better than the best).
                values.append(twins[key])
                continue
            if exact:
                window = (LOW, HIGH)
            else:
                # The mover needs only to know whether a later action beats the best so far.
                window = (best, HIGH) if sign > 0 else (LOW, -best)
                if best >= HIGH:
                    values.append(LOW)
                    continue
            v = sign * self._child_value(child, mover, depth, *window)
            values.append(v)
            if key is not None:
                twins[key] = v
            best = max(best, v)
        if not exact:
            # Fail-low bounds equal to the best would tie it; push them just below.
            top = max(values)
            first = values.index(top)
            values = [v if i == first or v < top else top - 1e-9 for i, v in enumerate(values)]
        return values

    # -- the search ---------------------------------------------------------------------------
    def _child_value(
        self, child: State, mover: int, depth: int, alpha: float, beta: float
    ) -> float:
        """The value of ``child``, reached by a decision of ``mover`` with ``depth`` turns left."""
        player = child.current_player
        if player == mover:
            return self.search(child, depth, alpha, beta, 0)
        if player == TERMINAL:
            return child.returns()[0]
        if depth <= 1:
            return self._leaf(child)
        return self.search(child, depth - 1, alpha, beta, 0)

    def _leaf(self, state: State) -> float:
        """The heuristic's value (seat 0's view), cached by position: the same turn played in
        another order leads to the same position."""
        key = position_key(state)
        value = self.leaves.get(key)
        if value is None:
            value = self.leaves[key] = self.evaluate(state, 0)
        return value

    def search(self, state: State, depth: int, alpha: float, beta: float, chain: int) -> float:
        """Fail-soft value of ``state`` (seat 0's view) within the window ``(alpha, beta)``."""
        self.nodes += 1
        if time.perf_counter() >= self.deadline:
            raise _Timeout
        player = state.current_player
        if player == TERMINAL:
            return state.returns()[0]
        if player == CHANCE:
            if chain >= MAX_CHANCE_CHAIN:
                return self._leaf(state)
            return self._chance(state, depth, alpha, beta, chain)
        key = position_key(state)
        entry = self.table.get(key)
        best_id = -1
        if entry is not None:
            known = _known_value(entry, depth, alpha, beta)
            if known is not None:
                return known
            best_id = entry[3]
        moves = self._ordered(state, player, best_id, depth)
        maximise = player == 0
        a, b = alpha, beta
        best = LOW - 1.0 if maximise else HIGH + 1.0
        best_action = -1
        for action, child in moves:
            v = self._child_value(child, player, depth, a, b)
            if maximise:
                if v > best:
                    best, best_action = v, action.id
                    if v > a:
                        a = v
            else:
                if v < best:
                    best, best_action = v, action.id
                    if v < b:
                        b = v
            if a >= b:
                break
        flag = UPPER if best <= alpha else LOWER if best >= beta else EXACT
        self.table[key] = (depth, flag, best, best_action)
        return best

    def _ordered(
        self, state: State, player: int, best_id: int, depth: int
    ) -> list[tuple[Action, State]]:
        """Decisions with the states they lead to, in the order to search them: the table's
        best move first, then (if ordering) by the heuristic of the state each leads to.
        Above the horizon a move whose position another already reaches is left out: it has
        the same value (a Wallet Battles coin onto either of two empty locations)."""
        moves = [(a, state.pushed(a)) for a in state.legal_actions()]
        if self.order and len(moves) > 1 and depth > 1:
            seen: set[Hashable] = set()
            distinct = []
            for move in moves:
                key = position_key(move[1])
                if key not in seen:
                    seen.add(key)
                    distinct.append(move)
            moves = distinct
            sign = 1.0 if player == 0 else -1.0
            evaluate = self.evaluate
            moves.sort(key=lambda m: -sign * evaluate(m[1], 0))
        if best_id >= 0:
            for i, (action, _) in enumerate(moves):
                if action.id == best_id:
                    if i:
                        moves.insert(0, moves.pop(i))
                    break
        return moves

    def _chance(self, state: State, depth: int, alpha: float, beta: float, chain: int) -> float:
        """A throw: the expectation of its outcomes, cut off by Star2 probes and Star1 bounds."""
        outcomes = state.chance_outcomes()
        children = [(state.pushed(a), p) for a, p in outcomes]
        lower = [LOW] * len(children)  # bounds on each outcome's value
        upper = [HIGH] * len(children)
        if self.probe and depth > 1:
            # Star2: one move of each outcome that leads to a decision bounds its value
            # (below for a maximising seat, above for a minimising one).
            lo_sum = hi_sum = 0.0
            for i, (child, p) in enumerate(children):
                player = child.current_player
                if player >= 0:
                    v = self._probe(child, depth, player)
                    if player == 0:
                        lower[i] = v
                    else:
                        upper[i] = v
                lo_sum += p * lower[i]
                hi_sum += p * upper[i]
            if lo_sum >= beta:
                return lo_sum
            if hi_sum <= alpha:
                return hi_sum
        # Star1 with the probed bounds: stop once the outcomes seen decide the comparison.
        lo_rest = sum(p * lo for (_, p), lo in zip(children, lower, strict=True))
        hi_rest = sum(p * hi for (_, p), hi in zip(children, upper, strict=True))
        total = 0.0
        for i, (child, p) in enumerate(children):
            lo_rest -= p * lower[i]
            hi_rest -= p * upper[i]
            # The window this outcome must be searched in for the sum to matter.
            a = max(lower[i], (alpha - total - hi_rest) / p)
            b = min(upper[i], (beta - total - lo_rest) / p)
            if child.current_player == CHANCE:
                v = self.search(child, depth, a, b, chain + 1)
            else:
                v = self.search(child, depth, a, b, 0)
            total += p * v
            if total + hi_rest <= alpha:
                return total + hi_rest
            if total + lo_rest >= beta:
                return total + lo_rest
        return total

    def _probe(self, child: State, depth: int, player: int) -> float:
        """The value of the first move (the table's best, or the heuristic's) at ``child``:
        a bound on its value from the side of its mover."""
        key = position_key(child)
        entry = self.table.get(key)
        if entry is not None and entry[0] >= depth and entry[1] == EXACT:
            return entry[2]
        best_id = entry[3] if entry is not None else -1
        moves = self._ordered(child, player, best_id, depth)
        return self._child_value(moves[0][1], player, depth, LOW, HIGH)


def _known_value(
    entry: tuple[int, int, float, int], depth: int, alpha: float, beta: float
) -> float | None:
    """The value a transposition-table entry settles for a search of ``depth`` in the window
    ``(alpha, beta)``, or None when the position must be searched."""
    e_depth, flag, value, _ = entry
    if e_depth < depth:
        return None
    if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
        return value
    return None
