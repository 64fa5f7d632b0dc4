"""The ``alphazero`` bot: Stack-a-Cash (``protect="touched"``) played by a small network trained
by AlphaZero self-play (``scripts/train_alphazero.py``), shipped in ``nets/``.

The network is a multilayer perceptron on the observation tensor
(:func:`pocketarena.observe.observation_tensor`, the vector environment's ``observation``):
hidden ReLU layers (``hidden_0``, ``hidden_1``, ...: as many as the file holds), then policy
logits over every action id and a value in [-1, 1]. By default the bot plays the legal action
its policy likes best, without search. Given a budget (``alphazero:64``: simulations a move, or
``alphazero:0.5s``: seconds), it searches as AlphaZero plays: a PUCT search over the real game,
the network's policy as the priors and its value at the leaves (a finished game counts its
result), each ply discounted as in training, and plays the root's most visited move. With a
count of simulations its choice is deterministic. The weights are a numpy ``.npz`` (float32 or
float16, computed in float32), so playing needs numpy only; training needs the jax extra.
"""

from __future__ import annotations

import json
import math
import time
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pocketarena.core import TERMINAL, Action, Game, State, format_options, game_class
from pocketarena.core.errors import Refusal

from .base import Bot

__all__ = [
    "HEADS",
    "AlphaZeroBot",
    "Network",
    "hidden_layers",
    "load_params",
    "save_params",
    "shipped_network",
]

# The heads, after the hidden layers ``hidden_0``, ``hidden_1``, ... (hidden_layers(n)).
HEADS = ("policy", "value")
SHIPPED = "stack_a_cash_az.npz"
F32 = npt.NDArray[np.float32]


def hidden_layers(count: int) -> tuple[str, ...]:
    """The names of ``count`` hidden layers, in order."""
    return tuple(f"hidden_{i}" for i in range(count))


def _layers(names: Any) -> tuple[str, ...]:
    """Every layer in order (the hidden ones, then the heads) of a network with these layer
    names."""
    count = sum(1 for name in names if str(name).startswith("hidden_"))
    return (*hidden_layers(count), *HEADS)


def save_params(
    path: Path, params: Any, meta: dict[str, Any], dtype: type[np.floating[Any]] = np.float32
) -> None:
    """Write flax-style ``{layer: {"kernel", "bias"}}`` parameters and ``meta`` to ``path``,
    stored as ``dtype`` (``np.float16`` halves the file; loading computes in float32)."""
    arrays: dict[str, Any] = {
        f"{layer}.{name}": np.asarray(params[layer][name], dtype)
        for layer in _layers(params)
        for name in ("kernel", "bias")
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)


def load_params(path: Path | Any) -> tuple[dict[str, dict[str, F32]], dict[str, Any]]:
    """The parameters (as float32, however stored) and meta data written by
    :func:`save_params`."""
    with np.load(path) as data:
        layers = _layers({key.split(".")[0] for key in data.files if key.endswith(".kernel")})
        params = {
            layer: {
                name: np.asarray(data[f"{layer}.{name}"], np.float32) for name in ("kernel", "bias")
            }
            for layer in layers
        }
        meta: dict[str, Any] = json.loads(str(data["meta"]))
    return params, meta


class Network:
    """The trained network in numpy: ``policy_value(observations)`` for a batch."""

    def __init__(self, params: dict[str, dict[str, F32]], meta: dict[str, Any]) -> None:
        self.params = params
        self.meta = meta

    @classmethod
    def load(cls, path: Path | Any) -> Network:
        return cls(*load_params(path))

    def policy_value(self, observations: npt.NDArray[Any]) -> tuple[F32, F32]:
        """Logits ``(n, actions)`` and values ``(n,)`` for observations ``(n, *shape)``."""
        x = np.asarray(observations, np.float32).reshape(len(observations), -1)
        for layer in _layers(self.params)[: -len(HEADS)]:
            p = self.params[layer]
            x = np.maximum(x @ p["kernel"] + p["bias"], 0.0)
        head, value = (self.params[name] for name in HEADS)
        logits: F32 = x @ head["kernel"] + head["bias"]
        values: F32 = np.tanh(x @ value["kernel"] + value["bias"])[:, 0]
        return logits, values


@cache
def shipped_network() -> Network:
    """The network shipped with the package."""
    with resources.as_file(resources.files("pocketarena.bots") / "nets" / SHIPPED) as path:
        return Network.load(path)


# PUCT's exploration constant: 0.5 kept the value more often than AlphaZero's 1.25 on the
# seed 1 sample of docs/research.md (91.45% against 90.6% at 256 simulations, 93.15% against
# 92.55% at 1,024).
C_PUCT = 0.5


class _Node:
    """A position in the search tree: its legal actions with the network's priors, and per
    action the visits and the sum of the values backed up through it (the mover's view)."""

    __slots__ = ("state", "actions", "priors", "value", "visits", "totals", "children", "c")

    def __init__(
        self, state: State, actions: Any, priors: npt.NDArray[np.float64], value: float, c: float
    ):
        self.c = c  # the exploration constant
        self.state = state
        self.actions = actions
        self.priors = priors
        self.value = value  # the network's value here, for the mover
        self.visits = np.zeros(len(actions), np.int64)
        self.totals = np.zeros(len(actions))
        self.children: list[_Node | float | None] = [None] * len(actions)  # float: game over

    def select(self) -> int:
        """The action with the best PUCT score; an action not tried yet is valued as this
        position (first-play urgency), and ties go to the first, so the search replays."""
        seen = self.visits > 0
        q = np.where(seen, self.totals / np.maximum(self.visits, 1), self.value)
        u = self.c * self.priors * math.sqrt(max(int(self.visits.sum()), 1)) / (1 + self.visits)
        return int(np.argmax(q + u))


class AlphaZeroBot(Bot):
    """Plays the legal action the trained policy prefers (by default the shipped network:
    Stack-a-Cash, protect="touched"); with a budget (``simulations``, ``seconds``), the most
    visited action of a PUCT search guided by the network."""

    name = "alphazero"
    BUDGET = ("simulations", "seconds")

    def __init__(
        self,
        game: Game,
        *,
        seed: int | str | None = None,
        network: Network | None = None,
        exploration: float = C_PUCT,
        **budget: Any,
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        if not exploration > 0:
            raise ValueError(f"alphazero exploration must be more than 0, got {exploration!r}")
        self.exploration = exploration  # the search's PUCT constant
        for name in self.BUDGET:
            limit = budget.get(name)
            if limit is not None and (
                isinstance(limit, bool) or not isinstance(limit, int | float) or limit <= 0
            ):
                raise ValueError(f"alphazero {name} must be a positive number, got {limit!r}")
        self.simulations: int | None = budget.get("simulations")
        self.seconds: float | None = budget.get("seconds")
        self.network = network or shipped_network()
        # Each ply's discount in the search, as in training (the shipped recipe's 0.97).
        self.discount = float(self.network.meta.get("recipe", {}).get("discount", 1.0))
        # A network says what it was trained on; the shipped one predates saying it.
        trained = str(self.network.meta.get("game", "stack-a-cash"))
        options = dict(self.network.meta.get("options", {"protect": "touched"}))
        if trained != game.ID or any(game.options.get(k) != v for k, v in options.items()):
            raise Refusal(
                "bot.alphazero-elsewhere",
                trained=game_class(trained).TITLE,
                options=format_options(options),
                game=game.ID,
                played=format_options(dict(game.options)),
            )

    def choose(self, state: State) -> Action:
        legal = list(self.legal_decisions(state))
        if self.simulations is None and self.seconds is None:
            logits, _ = self._evaluate(state)
            return max(legal, key=lambda a: float(logits[a.id]))
        root = self._expand(state)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else math.inf
        done = 0
        while (self.simulations is None or done < self.simulations) and (
            time.perf_counter() < deadline
        ):
            self._simulate(root)
            done += 1
        # The most visited action; between equals, the one the network prefers.
        best = max(range(len(legal)), key=lambda i: (root.visits[i], root.priors[i]))
        return legal[best]

    def _evaluate(self, state: State) -> tuple[F32, float]:
        from pocketarena.observe import observation_tensor

        obs = observation_tensor(state, state.current_player)
        logits, values = self.network.policy_value(obs[None])
        return logits[0], float(values[0])

    def _expand(self, state: State) -> _Node:
        actions = state.legal_actions()
        logits, value = self._evaluate(state)
        legal = logits[[a.id for a in actions]].astype(np.float64)
        priors = np.exp(legal - legal.max())
        return _Node(state, actions, priors / priors.sum(), value, self.exploration)

    def _simulate(self, root: _Node) -> None:
        """One simulation: down the tree by PUCT to a position not searched yet, valued by the
        network (or the game's result), and that value backed up the path, discounted a ply
        at a time and negated wherever the turn changed hands."""
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            i = node.select()
            path.append((node, i))
            child = node.children[i]
            if child is None:
                mover = node.state.current_player
                state = node.state.pushed(node.actions[i])
                if state.current_player == TERMINAL:
                    child = float(state.returns()[mover])
                    value = child
                else:
                    child = self._expand(state)
                    sign = 1.0 if state.current_player == mover else -1.0
                    value = self.discount * sign * child.value
                node.children[i] = child
                break
            if isinstance(child, float):
                value = child
                break
            node = child
        for depth in range(len(path) - 1, -1, -1):
            node, i = path[depth]
            node.visits[i] += 1
            node.totals[i] += value
            if depth:
                parent = path[depth - 1][0]
                sign = 1.0 if parent.state.current_player == node.state.current_player else -1.0
                value = self.discount * sign * value
