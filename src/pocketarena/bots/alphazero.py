"""The ``alphazero`` bot: Stack-a-Cash (``protect="touched"``) played by a small network trained
by AlphaZero self-play (``scripts/train_alphazero.py``), shipped in ``nets/``.

The network is a multilayer perceptron on the observation tensor
(:func:`pocketarena.observe.observation_tensor`, the vector environment's ``observation``):
hidden ReLU layers (``hidden_0``, ``hidden_1``, ...: as many as the file holds), then policy
logits over every action id and a value in [-1, 1]. The bot plays
the legal action its policy likes best, without search. The weights are a numpy ``.npz``, so
playing needs numpy only; training needs the jax extra.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pocketarena.core import Action, Game, State, format_options, game_class
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


def save_params(path: Path, params: Any, meta: dict[str, Any]) -> None:
    """Write flax-style ``{layer: {"kernel", "bias"}}`` parameters and ``meta`` to ``path``."""
    arrays: dict[str, Any] = {
        f"{layer}.{name}": np.asarray(params[layer][name], np.float32)
        for layer in _layers(params)
        for name in ("kernel", "bias")
    }
    arrays["meta"] = np.array(json.dumps(meta))
    np.savez_compressed(path, **arrays)


def load_params(path: Path | Any) -> tuple[dict[str, dict[str, F32]], dict[str, Any]]:
    """The parameters and meta data written by :func:`save_params`."""
    with np.load(path) as data:
        layers = _layers({key.split(".")[0] for key in data.files if key.endswith(".kernel")})
        params = {
            layer: {name: data[f"{layer}.{name}"] for name in ("kernel", "bias")}
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


class AlphaZeroBot(Bot):
    """Plays the legal action the trained policy prefers (by default the shipped network:
    Stack-a-Cash, protect="touched")."""

    name = "alphazero"

    def __init__(
        self,
        game: Game,
        *,
        seed: int | str | None = None,
        network: Network | None = None,
        **budget: Any,
    ) -> None:
        super().__init__(game, seed=seed, **budget)
        self.network = network or shipped_network()
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
        from pocketarena.observe import observation_tensor

        legal = list(self.legal_decisions(state))
        obs = observation_tensor(state, state.current_player)
        logits, _ = self.network.policy_value(obs[None])
        return max(legal, key=lambda a: float(logits[0, a.id]))
