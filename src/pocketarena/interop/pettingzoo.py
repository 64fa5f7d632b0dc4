"""PettingZoo adapter: ``env(game_id, **options)`` is an AEC environment for a game.

>>> from pocketarena.interop.pettingzoo import env
>>> arena = env("stack-a-cash", protect="placed")
>>> arena.reset(seed=7)
>>> arena.agent_selection
'player_0'
>>> observation, reward, terminated, truncated, info = arena.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((16, 3, 3), 27)

Agents are ``player_0`` (seat 0: Heads, the Union, Blue) and ``player_1``; ``env.unwrapped.seats``
names their seats. Each observation is ``{"observation": float32 tensor, "action_mask": int8}``
(the tensor is :mod:`pocketarena.observe`'s, seen by that agent; the mask is all zeros when it is
not that agent's turn). Actions are decision ids (``game.actions``). The same agent may act
several times in a row (a Coin Age turn, two HH flips in a row in Wallet Battles). Chance nodes
never reach the agents: the environment throws the coins itself, with a generator seeded by
``reset(seed=...)``; ``env.unwrapped.thrown`` lists the outcomes thrown so far, in notation.

``fixed_actions=True``: every map and mode of the game share one action space, the largest
(ids past the game's own are never legal). ``cycle=True``: the agents act in a fixed cycle,
``player_0`` then ``player_1``, whoever is to move; the one not to move has an all-zero mask
and its action (any id, or None) is ignored. The game then changes only once per cycle, which
is what ``pettingzoo.utils.conversions.aec_to_parallel`` asks (``is_parallelizable`` is set);
without it the environment is turn-based (``turn_based_aec_to_parallel`` converts it).

Rewards come at the end: +1 for a win, -1 for a loss, 0 for a draw. ``env()`` wraps the raw
environment as PettingZoo's classic games are: an illegal action ends the game with -1 for
the agent who played it (0 for the other) and a warning; an out-of-range action is an error.
Render modes: ``"ansi"`` (the engine's text picture) and ``"svg"`` (the web board, for the
games that have a renderer).
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from pocketarena.core import TERMINAL, State
from pocketarena.core.errors import Refusal
from pocketarena.observe import observation_shape, observation_tensor

from ._common import (
    action_mask,
    action_space_size,
    check_render_mode,
    load,
    padded_decision,
    render_modes,
    render_state,
    settle_chance,
)

__all__ = ["PocketArenaAEC", "env", "raw_env"]

AGENTS = ("player_0", "player_1")


class PocketArenaAEC(AECEnv):  # type: ignore[misc]
    """A two-agent, turn-based PettingZoo environment over one Pocket Arena game."""

    metadata: dict[str, Any] = {
        "name": "pocketarena_v0",
        "render_modes": ["ansi", "svg"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game_id: str,
        render_mode: str | None = None,
        fixed_actions: bool = False,
        cycle: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = load(game_id, options)
        check_render_mode(self.game, render_mode)
        for name, value in (("fixed_actions", fixed_actions), ("cycle", cycle)):
            if not isinstance(value, bool):
                raise Refusal("interop.true-or-false", name=name, value=value)
        self.render_mode = render_mode
        self.cycle = cycle
        self.metadata = {
            **type(self).metadata,
            "name": f"pocketarena_{self.game.ID.replace('-', '_')}_v0",
            "render_modes": render_modes(self.game),
            "is_parallelizable": cycle,
        }
        self.seats = dict(zip(AGENTS, self.game.SEATS, strict=True))
        self.possible_agents = list(AGENTS)
        shape = observation_shape(self.game)
        n = self.num_actions = action_space_size(self.game, fixed_actions)
        self.observation_spaces = {
            agent: gymnasium.spaces.Dict(
                {
                    "observation": gymnasium.spaces.Box(0.0, 1.0, shape, np.float32),
                    "action_mask": gymnasium.spaces.Box(0, 1, (n,), np.int8),
                }
            )
            for agent in AGENTS
        }
        self.action_spaces = {agent: gymnasium.spaces.Discrete(n) for agent in AGENTS}
        self._rng: np.random.Generator | None = None
        self.state: State = self.game.new_initial_state()
        self.thrown: list[str] = []
        self.forfeit: str | None = None  # who played an illegal action (cycle=True)
        self.acting: str | None = None  # who decides in this cycle, until it has (cycle=True)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = AGENTS.index(agent)
        state = self.state
        waits = self.cycle and agent != self.acting  # decides in the next cycle, if at all
        if state.current_player == seat and not waits and self.forfeit is None:
            mask = action_mask(state, self.num_actions)
        else:
            mask = np.zeros(self.num_actions, dtype=np.int8)
        return {"observation": observation_tensor(state, seat), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.thrown = [a.text for a in settle_chance(self.state, self._rng)]
        self.forfeit = None
        if self.cycle:
            self.agent_selection = AGENTS[0]
            self.acting = AGENTS[self.state.current_player]
            self._accumulate_rewards()
        else:
            self._after_action(AGENTS[1])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._rng is None:
            raise RuntimeError("call reset() before step()")
        if self.cycle:
            self._cycle_step(agent, action)
            return
        move = padded_decision(self.game, action, self.num_actions)
        if move is None or move not in self.state.legal_actions():
            if move is None:  # an id past the game's own, in a fixed action space
                raise Refusal("interop.id-not-legal-now", id=action, agent=agent)
            raise Refusal("interop.not-legal-now", move=move.text, agent=agent)
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(move)
        self.thrown += [a.text for a in settle_chance(self.state, self._rng)]
        self._after_action(agent)

    def _cycle_step(self, agent: str, action: Any) -> None:
        """``cycle=True``: the agent to move when the cycle began plays, the other's action is
        ignored (even if the turn passes to it meanwhile: it decides in the next cycle, having
        seen the position); the game's end (or an illegal action's) is told once the cycle is
        complete."""
        state = self.state
        self._cumulative_rewards[agent] = 0.0
        if agent == self.acting:
            self.acting = None
            move = padded_decision(self.game, action, self.num_actions)
            if move is None or move not in state.legal_actions():
                self.forfeit = agent  # as PettingZoo's TerminateIllegalWrapper: -1 and over
                self.infos[agent] = {**self.infos[agent], "illegal_action": True}
            else:
                state.apply(move)
                self.thrown += [a.text for a in settle_chance(state, self._rng)]  # type: ignore[arg-type]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if agent == AGENTS[-1]:
            if self.forfeit is not None:
                self.rewards[self.forfeit] = -1.0
                self.terminations = dict.fromkeys(self.agents, True)
            elif state.current_player == TERMINAL:
                returns = state.returns()
                self.rewards = {a: float(returns[i]) for i, a in enumerate(AGENTS)}
                self.terminations = dict.fromkeys(self.agents, True)
            else:
                self.acting = AGENTS[state.current_player]
        self.agent_selection = AGENTS[(AGENTS.index(agent) + 1) % len(AGENTS)]
        self._accumulate_rewards()

    def _after_action(self, mover: str) -> None:
        """Rewards, terminations and the next agent after ``mover`` changed the state."""
        state = self.state
        if state.current_player == TERMINAL:
            returns = state.returns()
            self.rewards = {agent: float(returns[i]) for i, agent in enumerate(AGENTS)}
            self.terminations = dict.fromkeys(self.agents, True)
            # Each agent is told in turn, the one who just moved last.
            self.agent_selection = AGENTS[1 - AGENTS.index(mover)]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = AGENTS[state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        last = self.state.history[-1] if self.state.history else None
        return render_state(self.state, self.render_mode, last)

    def close(self) -> None:
        return None

    def __str__(self) -> str:
        return str(self.metadata["name"])


def raw_env(game_id: str, render_mode: str | None = None, **options: Any) -> PocketArenaAEC:
    """The environment without PettingZoo's safety wrappers."""
    return PocketArenaAEC(game_id, render_mode=render_mode, **options)


def env(game_id: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The AEC environment for ``game_id`` with ``options``, wrapped as PettingZoo's classic
    games are (illegal action -> game over with -1; out-of-range action -> error; order checks)."""
    aec: AECEnv = raw_env(game_id, render_mode=render_mode, **options)
    if aec.cycle:  # the waiting agent's action is ignored: no mask or range check for it
        return wrappers.OrderEnforcingWrapper(aec)
    aec = wrappers.TerminateIllegalWrapper(aec, illegal_reward=-1)
    aec = wrappers.AssertOutOfBoundsWrapper(aec)
    return wrappers.OrderEnforcingWrapper(aec)
