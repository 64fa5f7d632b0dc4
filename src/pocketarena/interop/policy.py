"""A trained policy as a Pocket Arena :class:`~pocketarena.bots.Bot`: the opponent of a
Gymnasium env (self-play against a frozen copy), a player in ``pocketarena.arena`` matches, or
one agent of the PettingZoo env.

The policy sees what the adapters show: the seat's observation tensor
(:mod:`pocketarena.observe`) and the action mask, and answers a decision id.

>>> import numpy as np
>>> import pocketarena as pa
>>> from pocketarena.interop.policy import PolicyBot
>>> game = pa.load("stack-a-cash")
>>> first_legal = PolicyBot(game, lambda observation, mask: int(np.flatnonzero(mask)[0]))
>>> first_legal.choose(game.new_initial_state()).text
'place L a1'

``PolicyBot.from_model(model)`` wraps anything with Stable-Baselines3's
``predict(observation, action_masks=..., deterministic=...)``, e.g. a trained sb3-contrib
``MaskablePPO``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from pocketarena.bots.base import Bot
from pocketarena.core import Action, Game, State
from pocketarena.observe import observation_tensor

from ._common import action_mask, action_space_size

__all__ = ["Policy", "PolicyBot"]

Policy = Callable[[np.ndarray, np.ndarray], Any]
"""``policy(observation, mask) -> decision id``: ``mask`` is int8, 1 for the legal ids."""


class PolicyBot(Bot):
    """Plays ``policy``'s choice, shown the mover's observation and the legal-action mask.

    ``fixed_actions``: the mask has the game's fixed size (as the envs made with
    ``fixed_actions=True`` give). A policy that answers an illegal id is an error, not a
    silent replacement: a bot that hides its policy's mistakes would mislead an evaluation.
    """

    name = "policy"

    def __init__(
        self,
        game: Game,
        policy: Policy,
        *,
        seed: int | str | None = None,
        fixed_actions: bool = False,
    ) -> None:
        super().__init__(game, seed=seed)
        if not callable(policy):
            raise TypeError(f"policy must be callable as policy(observation, mask), got {policy!r}")
        self.policy = policy
        self.size = action_space_size(game, fixed_actions)

    @classmethod
    def from_model(
        cls,
        game: Game,
        model: Any,
        *,
        deterministic: bool = True,
        fixed_actions: bool = False,
    ) -> PolicyBot:
        """A bot from a model with Stable-Baselines3's ``predict`` and sb3-contrib's
        ``action_masks`` keyword (``MaskablePPO``): its most likely legal action, or a sample
        when ``deterministic`` is False (drawn by torch's generator, not this bot's seed)."""
        if not callable(getattr(model, "predict", None)):
            raise TypeError(f"the model has no predict() method: {model!r}")

        def policy(observation: np.ndarray, mask: np.ndarray) -> int:
            action, _ = model.predict(
                observation, action_masks=mask.astype(bool), deterministic=deterministic
            )
            return int(action)

        return cls(game, policy, fixed_actions=fixed_actions)

    def choose(self, state: State) -> Action:
        self.legal_decisions(state)  # a decision node of this game, or ValueError
        mask = action_mask(state, self.size)
        chosen = self.policy(observation_tensor(state, state.current_player), mask)
        if isinstance(chosen, np.ndarray) and chosen.shape in ((), (1,)):
            chosen = chosen.item()
        if isinstance(chosen, np.integer):
            chosen = int(chosen)
        if isinstance(chosen, bool) or not isinstance(chosen, int):
            raise ValueError(f"the policy answered {chosen!r}, not a decision id")
        if not 0 <= chosen < self.size or not mask[chosen]:
            raise ValueError(
                f"the policy chose action {chosen}, which is not legal here "
                f"({int(mask.sum())} legal actions)"
            )
        return self.game.actions[chosen]
