"""Monte-Carlo tree search: UCT with chance nodes, a solver for proven results, subtree reuse
between moves, heuristic cut-off rollouts, and progressive widening with heuristic ordering for
games whose moves are too many to try each one (FlipWars).

One iteration walks down the tree from the root on a copy of the state: at a decision node it
either adds one new child (while the node may still widen) or follows the child with the best
UCT score; at a chance node it samples an outcome by its probability from ``chance_outcomes``
and follows (or adds) that outcome's child. From the new node a rollout plays random moves
(throws sampled) up to ``rollout_depth`` decisions and asks the game's heuristic how the
position looks there; a finished game counts its exact result. The value is backed up along the
path. Nodes whose result is certain (a finished game; a decision with a winning child or with
every child proven; a throw with every outcome proven) are marked proven and never rolled out
again, so a forced win in one is found and kept.

Values are stored from seat 0's view and read with the mover's sign. ``choose`` keeps the tree:
the next call finds its new root by following the actions played since (the history suffix),
so the statistics gathered below the moves actually played are not thrown away.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from typing import Any

from pocketarena.core import CHANCE, TERMINAL, Action, Game, State

from .base import Bot
from .evaluation import ActionValue, Evaluate, leaf_evaluation

_INF = float("inf")


class Node:
    """One state in the search tree, reached from its parent by ``action``."""

    __slots__ = (
        "action",
        "player",
        "n",
        "w",
        "kids",
        "untried",
        "outcomes",
        "cumulative",
        "by_outcome",
        "prior",
        "priors",
        "proven",
    )

    def __init__(self, action: Action | None, player: int) -> None:
        self.action = action
        self.player = player  # who acts at this node: 0, 1, CHANCE or TERMINAL
        self.n = 0  # visits
        self.w = 0.0  # sum of backed-up values, seat 0's view
        self.kids: list[Node] = []  # expanded children (decision nodes)
        self.untried: list[Action] | None = None  # decisions not expanded yet; None: not listed
        self.outcomes: list[tuple[Action, float]] | None = None  # chance nodes
        self.cumulative: list[float] = []
        self.by_outcome: dict[int, Node] = {}  # chance nodes: outcome id -> child
        self.prior = 0.0  # heuristic prior of the action leading here, in [0, 1]
        # Priors of the untried actions, in the same order, once sorted by the heuristic.
        self.priors: list[float] | None = None
        self.proven: float | None = None  # exact value (seat 0's view) once known

    def children(self) -> list[Node]:
        return self.kids if self.player >= 0 else list(self.by_outcome.values())

    def mean(self, seat: int) -> float:
        """Average value for ``seat``; a proven node gives its exact value."""
        value = self.proven if self.proven is not None else (self.w / self.n if self.n else 0.0)
        return value if seat == 0 else -value

    def size(self) -> int:
        return 1 + sum(child.size() for child in self.children())

    def __repr__(self) -> str:
        return (
            f"<Node {self.action} player={self.player} n={self.n} "
            f"mean0={self.mean(0):+.3f} proven={self.proven}>"
        )


class MCTSBot(Bot):
    """UCT Monte-Carlo tree search.

    Budget: ``iterations`` (simulations per move) and/or ``seconds`` (thinking time per move);
    the search stops at whichever comes first (1000 iterations when neither is given).

    Tuning (keyword arguments; see ``TUNING`` in ``levels`` for the per-game values):
    ``c`` the UCT exploration constant (values in [-1, 1]); ``rollout_depth`` decisions played
    at random before the heuristic judges the position (None: to the end of the game; 0: the
    heuristic at once); ``widen`` a node with more than this many actions adds children one by
    one, ``widen_k * visits ** widen_alpha`` at most, best by the heuristic first (0 or None:
    every action may be tried at once); ``order_visits`` the visits after which a widening
    node sorts its remaining actions by the heuristic (the root does at once); ``prior_weight``
    a progressive bias ``prior_weight * prior / (visits + 1)`` from the heuristic;
    ``reuse`` keep the tree between moves; ``stratified`` follow the throw outcome furthest
    behind its probability's share of visits instead of drawing one at random.
    """

    name = "mcts"
    BUDGET = ("iterations", "seconds")

    def __init__(
        self,
        game: Game,
        *,
        seed: int | str | None = None,
        c: float = 1.0,
        rollout_depth: int | None = None,
        widen: int | None = None,
        widen_k: float = 2.0,
        widen_alpha: float = 0.5,
        order_visits: int = 16,
        prior_weight: float = 0.0,
        reuse: bool = True,
        stratified: bool = True,
        settle: bool = False,
        evaluate: Evaluate | None = None,
        **budget: Any,
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        iterations = budget.get("iterations")
        seconds = budget.get("seconds")
        if iterations is None and seconds is None:
            iterations = 1000
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise ValueError(f"mcts iterations must be a positive integer, got {iterations!r}")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0
        ):
            raise ValueError(f"mcts seconds must be a positive number, got {seconds!r}")
        if rollout_depth is not None and rollout_depth < 0:
            raise ValueError(f"mcts rollout_depth must be >= 0 or None, got {rollout_depth!r}")
        self.iterations: int | None = iterations
        self.seconds: float | None = float(seconds) if seconds is not None else None
        self.c = float(c)
        self.rollout_depth = rollout_depth if rollout_depth is not None else 1 << 30
        self.widen = widen or 0
        self.widen_k = float(widen_k)
        self.widen_alpha = float(widen_alpha)
        self.order_visits = int(order_visits)
        self.prior_weight = float(prior_weight)
        self.reuse = reuse
        self.stratified = stratified
        self.settle = settle
        self.evaluate: Evaluate = evaluate or leaf_evaluation(game)
        self.root: Node | None = None
        self.root_history: list[int] = []
        self.last_iterations = 0  # simulations run by the last search (for benchmarks, tests)
        self.last_seconds = 0.0

    # -- the public interface -------------------------------------------------------------
    def choose(self, state: State) -> Action:
        legal = self.legal_decisions(state)  # checks the game and the node kind
        if len(legal) == 1:
            return legal[0]  # nothing to think about
        root = self.search(state)
        return self._best(root).action  # type: ignore[return-value]

    def reset(self) -> None:
        self.root = None
        self.root_history = []

    def search(self, state: State) -> Node:
        """Run the budgeted search from ``state`` (never changed) and return the root."""
        root = self._root_for(state)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else _INF
        limit = self.iterations if self.iterations is not None else 1 << 62
        start = time.perf_counter()
        done = 0
        iterate = self._iterate
        clock = time.perf_counter
        while done < limit and root.proven is None:
            iterate(root, state.clone())
            done += 1
            if clock() >= deadline:
                break
        self.last_iterations = done
        self.last_seconds = time.perf_counter() - start
        return root

    def action_values(
        self, state: State, *, include: str | None = None, min_support: int = 40
    ) -> list[ActionValue]:
        """Every action the search tried at ``state``, with its value for the mover and its
        visits, best first.

        ``include``: an action to judge beside the search's choice. Both are searched further,
        in the same tree, until each has the same number of simulations (``min_support`` at
        least, the choice's count if more), so their values are measured alike: a move visited
        less looks better than it is (its replies are searched less), so values backed by
        unequal counts are not comparable."""
        self.legal_decisions(state)
        root = self.search(state)
        best = self._best(root) if root.kids else None
        if include is not None:
            action = state.game.parse_action(include)
            target = max(min_support, best.n if best is not None else 0)
            if best is not None and best.proven is None and best.n < target:
                self._deepen(root, state, best.action, target)  # type: ignore[arg-type]
            played = self._deepen(root, state, action, target)
            if best is None:
                best = played
        seat = state.current_player
        out = [
            ActionValue(kid.action, kid.mean(seat), None if kid.proven is not None else kid.n)
            for kid in root.kids
            if kid.action is not None
        ]
        first = best.action if best is not None else None
        out.sort(key=lambda av: (av.action != first, -(av.support or 1 << 30), -av.value))
        return out

    def _deepen(self, root: Node, state: State, action: Action, support: int) -> Node:
        """Simulations below ``action``'s child of ``root`` (added if the search left it
        untried) until it has ``support`` visits or a proven value."""
        kid = next(
            (k for k in root.kids if k.action is not None and k.action.id == action.id), None
        )
        child_state = state.child(action)
        if kid is None:
            if root.untried:
                at = next((i for i, a in enumerate(root.untried) if a.id == action.id), None)
                if at is not None:
                    root.untried.pop(at)
                    if root.priors is not None and at < len(root.priors):
                        root.priors.pop(at)
            kid = Node(action, child_state.current_player)
            root.kids.append(kid)
        while kid.proven is None and kid.n < support:
            self._iterate(kid, child_state.clone())
        return kid

    def state_value(self, state: State, seat: int) -> float:
        """The searched value of ``state`` (any node: decision, throw or finished) for ``seat``."""
        if state.is_terminal():
            return state.returns()[seat]
        root = self.search(state)
        if root.proven is not None:
            return root.proven if seat == 0 else -root.proven
        if state.current_player >= 0 and root.kids:
            return self._best(root).mean(seat)
        return root.mean(seat)

    # -- tree upkeep ----------------------------------------------------------------------
    def _root_for(self, state: State) -> Node:
        """The tree node for ``state``: the old tree's node if the moves played since the last
        search lead to one (so its statistics are kept), otherwise a fresh root."""
        history = [a.id for a in state.history]
        node = None
        if self.reuse and self.root is not None:
            old = self.root_history
            if len(history) >= len(old) and history[: len(old)] == old:
                node = self.root
                for action_id in history[len(old) :]:
                    node = self._child_by_id(node, action_id)
                    if node is None:
                        break
        if node is None or node.player != state.current_player:
            node = Node(None, state.current_player)
        node.action = None
        self.root = node if self.reuse else None
        self.root_history = history
        return node

    @staticmethod
    def _child_by_id(node: Node, action_id: int) -> Node | None:
        if node.player == CHANCE:
            return node.by_outcome.get(action_id)
        for kid in node.kids:
            if kid.action is not None and kid.action.id == action_id:
                return kid
        return None

    def _best(self, root: Node) -> Node:
        """The child to play: a proven win if there is one, else the most visited child that
        is not a proven loss (ties by value)."""
        seat = root.player
        if not root.kids:
            raise ValueError("the search ran no iteration from this state")
        proven = [k for k in root.kids if k.proven is not None]
        if proven:
            best_proven = max(proven, key=lambda k: k.mean(seat))
            if best_proven.mean(seat) >= 1.0 or (root.proven is not None and not root.untried):
                return best_proven
        candidates = [k for k in root.kids if k.proven is None or k.mean(seat) > -1.0]
        if not candidates:
            candidates = root.kids
        return max(candidates, key=lambda k: (k.n, k.mean(seat)))

    # -- one simulation -------------------------------------------------------------------
    def _iterate(self, root: Node, state: State) -> None:
        """One simulation from ``root`` on ``state`` (a copy this iteration may change)."""
        node = root
        path = [root]
        while True:
            if node.proven is not None:
                value = node.proven
                break
            player = node.player
            if player == CHANCE:
                outcomes = node.outcomes
                if outcomes is None:
                    outcomes = node.outcomes = state.chance_outcomes()
                    acc = 0.0
                    for _, p in outcomes:
                        acc += p
                        node.cumulative.append(acc)
                if self.stratified:
                    outcome = self._stratified(node, outcomes)
                else:
                    r = self.rng.random() * node.cumulative[-1]
                    i = 0
                    cumulative = node.cumulative
                    while i < len(cumulative) - 1 and r >= cumulative[i]:
                        i += 1
                    outcome = outcomes[i][0]
                state.push(outcome)
                child = node.by_outcome.get(outcome.id)
                if child is None:
                    child = node.by_outcome[outcome.id] = Node(outcome, state.current_player)
                    path.append(child)
                    value = self._leaf(child, state)
                    break
                node = child
                path.append(node)
                continue
            if player == TERMINAL:  # only a terminal root gets here
                value = node.proven = state.returns()[0]
                break
            untried = node.untried
            if untried is None:
                untried = node.untried = self._list_actions(node, state)
            elif (
                self.widen
                and node.priors is None
                and untried
                and node.n >= self.order_visits
                and len(node.kids) + len(untried) > self.widen
            ):
                self._order(node, state)
                untried = node.untried
            if untried and (
                not self.widen
                or len(node.kids) + len(untried) <= self.widen
                or len(node.kids) < self.widen_k * (node.n + 1) ** self.widen_alpha
            ):
                action = untried.pop()
                state.push(action)
                child = Node(action, state.current_player)
                if node.priors is not None:
                    child.prior = node.priors.pop()
                node.kids.append(child)
                path.append(child)
                value = self._leaf(child, state)
                break
            node = self._select(node)
            state.push(node.action)  # type: ignore[arg-type]
            path.append(node)
        for visited in path:
            visited.n += 1
            visited.w += value
        self._prove(path)

    @staticmethod
    def _stratified(node: Node, outcomes: list[tuple[Action, float]]) -> Action:
        """The outcome furthest behind its share of the visits (``p * visits - own visits``):
        over many visits each outcome is followed in proportion to its probability, as
        sampling would, but without sampling's noise (the throw is the largest source of
        variance in the chance games)."""
        total = node.n + 1
        by_outcome = node.by_outcome
        best = outcomes[0][0]
        best_deficit = -_INF
        for action, p in outcomes:
            child = by_outcome.get(action.id)
            deficit = p * total - (child.n if child is not None else 0)
            if deficit > best_deficit:
                best_deficit = deficit
                best = action
        return best

    def _select(self, node: Node) -> Node:
        """The child with the best UCT score for the mover at ``node``."""
        sign = 1.0 if node.player == 0 else -1.0
        explore = self.c * math.sqrt(math.log(node.n + 1))
        bias = self.prior_weight
        best = node.kids[0]
        best_score = -_INF
        for kid in node.kids:
            if kid.proven is not None:
                score = sign * kid.proven
            else:
                n = kid.n
                score = sign * kid.w / n + explore / math.sqrt(n)
                if bias:
                    score += bias * kid.prior / (n + 1)
            if score > best_score:
                best_score = score
                best = kid
        return best

    def _list_actions(self, node: Node, state: State) -> list[Action]:
        """The untried actions of a newly visited decision node, in the order to try them
        (popped from the end): random, or by the heuristic at a wide root."""
        actions = list(state.legal_actions())
        self.rng.shuffle(actions)
        node.untried = actions
        wide = self.widen and len(actions) > self.widen
        if wide and (node.n >= self.order_visits or node.action is None):
            self._order(node, state)
        return node.untried

    def _order(self, node: Node, state: State) -> None:
        """Sort the untried actions by the heuristic value of the state each leads to (best
        tried first) and remember priors for the progressive bias."""
        assert node.untried is not None
        seat = node.player
        evaluate = self.evaluate
        scored = []
        for action in node.untried:
            child = state.pushed(action)
            scored.append((evaluate(child, seat), action))
        scored.sort(key=lambda va: va[0])  # worst first: pop() takes from the end
        node.untried = [a for _, a in scored]
        node.priors = [(v + 1.0) / 2.0 for v, _ in scored]

    def _leaf(self, node: Node, state: State) -> float:
        """The value (seat 0's view) of a newly added node: exact if the game is over,
        otherwise a rollout judged by the heuristic at its horizon."""
        if node.player == TERMINAL:
            node.proven = state.returns()[0]
            return node.proven
        rng = self.rng
        random = rng.random
        steps = self.rollout_depth
        settle = self.settle
        while True:
            player = state.current_player
            if player == TERMINAL:
                return state.returns()[0]
            if player == CHANCE:
                if steps <= 0 and settle:
                    return self.evaluate(state, 0)
                outcomes = state.chance_outcomes()
                r = random()
                acc = 0.0
                pick = outcomes[-1][0]
                for action, p in outcomes:
                    acc += p
                    if r < acc:
                        pick = action
                        break
                state.push(pick)
                continue
            if steps <= 0 and not settle:
                return self.evaluate(state, 0)
            legal = state.legal_actions()
            state.push(legal[int(random() * len(legal))])
            steps -= 1

    @staticmethod
    def _prove(path: Sequence[Node]) -> None:
        """Mark nodes above a newly proven one proven too, where the result is now certain."""
        for i in range(len(path) - 1, 0, -1):
            child, node = path[i], path[i - 1]
            if child.proven is None or node.proven is not None:
                return
            if node.player == CHANCE:
                outcomes = node.outcomes
                if outcomes is None or len(node.by_outcome) < len(outcomes):
                    return
                total = 0.0
                for action, p in outcomes:
                    value = node.by_outcome[action.id].proven
                    if value is None:
                        return
                    total += p * value
                node.proven = total
                continue
            sign = 1.0 if node.player == 0 else -1.0
            if sign * child.proven >= 1.0:
                node.proven = child.proven
                continue
            if node.untried is None or node.untried:
                return
            best = -_INF
            for kid in node.kids:
                if kid.proven is None:
                    return
                best = max(best, sign * kid.proven)
            node.proven = sign * best
