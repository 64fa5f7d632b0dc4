"""Gymnasium adapter: one seat of a game against a bot, as a single-agent environment.

Importing this module registers ``pocketarena/<game id>-v0`` for every game:

>>> import gymnasium
>>> import pocketarena.interop.gymnasium
>>> env = gymnasium.make("pocketarena/stack-a-cash-v0", opponent="random", protect="placed")
>>> observation, info = env.reset(seed=0)
>>> observation.shape, info["action_mask"].dtype.name
((16, 3, 3), 'int8')

Gymnasium 1.x has no plug-in entry points any more, so without the import name the module in
the id: ``gymnasium.make("pocketarena.interop.gymnasium:pocketarena/stack-a-cash-v0")``.

- ``opponent``: a bot spec (``"random"``, ``"greedy"``… see ``pocketarena.bots.make_bot``) or
  a ``Bot`` for this game (reseeded at each reset); ``seat``: the agent's seat, 0, 1,
  ``"random"`` (drawn at each reset) or ``"alternate"`` (0, 1, 0… one reset after the other);
  ``reset(options={"seat": ...})`` sets it for one episode. ``fixed_actions=True``: the action
  space is the largest over every map and mode of the game (ids past the game's own are never
  legal), so one network fits them all. Other keywords are the game's options.
- Observation: :mod:`pocketarena.observe`'s tensor for the agent's seat, in a ``Box(0, 1)``.
- Action: a decision id, ``Discrete(num_distinct_actions)``; ``info["action_mask"]`` (int8)
  marks the legal ones, e.g. ``env.action_space.sample(info["action_mask"])``, and so does
  ``env.action_masks()`` (bool), the method sb3-contrib's ``MaskablePPO`` calls.
- ``reset()`` always returns a position where the agent decides: a game that the bot and the
  coins finish before that (possible in Wallet Battles) is thrown away and a new one begun.
- An illegal action does not raise: it ends the episode at once (``terminated=True``) with the
  reward ``illegal_reward`` (default -1, a loss) and ``info["illegal_action"] = True``, the state
  unchanged. This is what masked-action RL code expects (PettingZoo's classic games do the same).
- Reward: at the end only, +1 win, -1 loss, 0 draw (the game's ``returns`` for the agent's seat).
  Episodes never truncate: every game ends by its own rules (they have length guards).
- Randomness: chance nodes and the bot's own choices are drawn from ``reset(seed=...)``'s
  generator, so a seed replays an episode exactly.
- ``info``: ``action_mask``, ``seat``, ``history`` (every action since the last observation, in
  notation: the bot's moves and the coins thrown), and at the end ``returns`` and ``winner``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np

import pocketarena as pa
from pocketarena.bots import Bot, make_bot
from pocketarena.core import CHANCE, TERMINAL, Game, State, outcome_from_unit
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
)

__all__ = ["PocketArenaEnv", "env_id", "register_all"]

NAMESPACE = "pocketarena"
SEED_RANGE = 2**31
SEATS = (0, 1, "random", "alternate")
# reset() begins a new game when the bot and the coins end one before the agent decides; so
# many in a row means the agent's seat can never decide.
MAX_FINISHED_RESETS = 1000


def check_seat(seat: object) -> int | str:
    if isinstance(seat, bool) or seat not in SEATS:
        raise Refusal("interop.seat", seat=seat)
    return seat


def env_id(game_id: str) -> str:
    return f"{NAMESPACE}/{game_id}-v0"


class PocketArenaEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a Pocket Arena game; the other seat is played by a bot."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "svg"], "render_fps": 1}

    def __init__(
        self,
        game_id: str,
        opponent: str | Bot = "random",
        seat: int | str = 0,
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
        fixed_actions: bool = False,
        **options: Any,
    ) -> None:
        self.game: Game = load(game_id, options)
        if not isinstance(fixed_actions, bool):
            raise Refusal("interop.true-or-false", name="fixed_actions", value=fixed_actions)
        self.fixed_actions = fixed_actions
        check_render_mode(self.game, render_mode)
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata, "render_modes": render_modes(self.game)}
        self.seat_choice = check_seat(seat)
        if isinstance(opponent, Bot):
            if opponent.game != self.game:
                raise Refusal(
                    "interop.opponent-game", theirs=repr(opponent.game), ours=repr(self.game)
                )
        else:
            make_bot(opponent, self.game)  # check the spec now, not at the first reset
        self.opponent_spec = opponent
        self.illegal_reward = float(illegal_reward)
        self.observation_space = gymnasium.spaces.Box(
            0.0, 1.0, observation_shape(self.game), np.float32
        )
        self.num_actions = action_space_size(self.game, fixed_actions)
        self.action_space = gymnasium.spaces.Discrete(self.num_actions)
        self.state: State = self.game.new_initial_state()
        self.seat = seat if isinstance(seat, int) else 0
        self.episodes = 0  # resets so far ("alternate" plays seat 0 first)
        self.bot: Bot | None = None
        self.forfeited = False  # the agent played an illegal action; the episode is over
        self.mask = np.zeros(self.num_actions, dtype=np.int8)
        self.discarded = 0  # games the bot and the coins finished before the agent decided

    # -- the episode ----------------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        extra = sorted(set(options or {}) - {"seat"})
        if extra:
            raise Refusal("interop.reset-options", option=extra[0])
        choice = check_seat((options or {}).get("seat", self.seat_choice))
        super().reset(seed=seed)  # after the checks: a bad option changes nothing
        rng = self.np_random
        if choice == "random":
            self.seat = int(rng.integers(2))
        elif choice == "alternate":
            self.seat = self.episodes % 2
        else:
            self.seat = int(choice)
        self.episodes += 1
        bot_seed = int(rng.integers(SEED_RANGE))
        if isinstance(self.opponent_spec, Bot):
            self.bot = self.opponent_spec
            self.bot.rng.seed(bot_seed)
            self.bot.reset()
        else:
            self.bot = make_bot(self.opponent_spec, self.game, seed=bot_seed)
        self.forfeited = False
        for _ in range(MAX_FINISHED_RESETS):
            self.state = self.game.new_initial_state()
            played = self._advance()
            if self.state.current_player == self.seat:
                return self._observation(), self._info(played)
            self.discarded += 1  # over before the agent could decide: begin another
            self.bot.reset()
        raise RuntimeError(
            f"{MAX_FINISHED_RESETS} games in a row ended before seat {self.seat} could decide"
        )

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as booleans (what sb3-contrib's ``MaskablePPO`` asks for)."""
        return self.mask.astype(bool)

    def step(self, action: Any) -> tuple[np.ndarray, SupportsFloat, bool, bool, dict[str, Any]]:
        state = self.state
        if state.current_player == TERMINAL:
            raise RuntimeError("the episode is over: call reset() before step()")
        if self.forfeited:
            raise RuntimeError("the episode ended on an illegal action: call reset() before step()")
        move = padded_decision(self.game, action, self.num_actions)
        if move is None or move not in state.legal_actions():
            self.forfeited = True  # the position stays as it was, for render()
            info = self._info([])
            info["action_mask"][:] = 0  # nothing more is legal: the episode is over
            self.mask[:] = 0
            info["illegal_action"] = True
            return self._observation(), self.illegal_reward, True, False, info
        state.apply(move)
        played = self._advance()
        reward = state.returns()[self.seat] if state.current_player == TERMINAL else 0.0
        terminated = state.current_player == TERMINAL
        return self._observation(), float(reward), terminated, False, self._info(played)

    def _advance(self) -> list[str]:
        """Throw coins and let the bot play until the agent must decide or the game ends."""
        state = self.state
        played: list[str] = []
        assert self.bot is not None
        while True:
            player = state.current_player
            if player == TERMINAL or player == self.seat:
                return played
            if player == CHANCE:
                action = outcome_from_unit(state.chance_outcomes(), float(self.np_random.random()))
            else:
                action = self.bot.choose(state)
            state.apply(action)
            played.append(action.text)

    # -- views ------------------------------------------------------------------------------------
    def _observation(self) -> np.ndarray:
        return observation_tensor(self.state, self.seat)

    def _info(self, played: list[str]) -> dict[str, Any]:
        state = self.state
        self.mask = action_mask(state, self.num_actions)
        info: dict[str, Any] = {
            "action_mask": self.mask.copy(),
            "seat": self.seat,
            "history": played,
        }
        if state.current_player == TERMINAL:
            info["returns"] = tuple(state.returns())
            info["winner"] = state.winner()
        return info

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        state = self.state
        last = state.history[-1] if state.history else None
        return render_state(state, self.render_mode, last)

    def close(self) -> None:
        return None


def register_all() -> list[str]:
    """Register ``pocketarena/<game id>-v0`` for every game (done on import); the ids."""
    ids = []
    for game_id in sorted(pa.GAMES):
        name = env_id(game_id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point=f"{__name__}:PocketArenaEnv",
                kwargs={"game_id": game_id},
            )
        ids.append(name)
    return ids


ENV_IDS = register_all()
