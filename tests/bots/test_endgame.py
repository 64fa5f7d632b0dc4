"""The FlipWars hand-over to the exact endgame solver."""

from __future__ import annotations

import json
import random

import pytest

import pocketarena as pa
from pocketarena.bots import make_bot
from pocketarena.bots.endgame import EndgameBot
from pocketarena.bots.flipwars_endgame import solve_endgame
from pocketarena.bots.mcts import MCTSBot
from pocketarena.core import TERMINAL
from pocketarena.games.flipwars import FlipWarsState


def with_empty(mode: str, empty: int, seed: int) -> FlipWarsState:
    state = pa.load("flipwars", mode=mode).new_initial_state()
    rng = random.Random(seed)
    while len(state.empty) > empty or state.current_player < 0:  # type: ignore[attr-defined]
        state.apply_random(rng)
    assert isinstance(state, FlipWarsState)
    return state


def margin_after(state: pa.State, action: pa.Action) -> int:
    """The mover's final margin with perfect play after ``action`` (by the solver)."""
    child = state.child(action)
    if child.current_player == TERMINAL:
        a, b = child.scores()
        return int(a - b) if state.current_player == 0 else int(b - a)
    margin, _ = solve_endgame(child)
    return -margin


@pytest.mark.parametrize("mode", ["standard", "enclosed", "flag"])
def test_hard_hands_the_endgame_to_the_solver(mode: str) -> None:
    bot = make_bot("hard:0.05s", pa.load("flipwars", mode=mode), seed=1)
    assert isinstance(bot, EndgameBot) and isinstance(bot.inner, MCTSBot)
    for seed in (1, 2):
        state = with_empty(mode, 4, seed)
        before = json.dumps(state.to_json(), sort_keys=True)
        action = bot.choose(state)
        assert json.dumps(state.to_json(), sort_keys=True) == before
        best, _ = solve_endgame(state)
        assert margin_after(state, action) == best  # the best margin, not just a good move
    assert bot.solved_moves == 2


def test_the_inner_bot_plays_until_the_endgame() -> None:
    game = pa.load("flipwars")
    bot = EndgameBot(game, MCTSBot(game, seed=1, iterations=20), empty_cells=5)
    early = with_empty("standard", 12, 3)
    assert not bot.in_endgame(early)
    bot.choose(early)
    assert bot.solved_moves == 0 and bot.inner.last_iterations == 20  # type: ignore[attr-defined]
    late = with_empty("standard", 5, 3)
    assert bot.in_endgame(late)
    bot.choose(late)
    assert bot.solved_moves == 1


def test_endgame_values_are_exact_for_single_rounds() -> None:
    game = pa.load("flipwars", mode="enclosed")
    bot = EndgameBot(game, MCTSBot(game, seed=1, iterations=20), empty_cells=6)
    state = with_empty("enclosed", 4, 5)
    values = {av.action.text: av.value for av in bot.action_values(state)}
    for action in state.legal_actions():
        margin = margin_after(state, action)
        assert values[action.text] == (margin > 0) - (margin < 0)
    best, _ = solve_endgame(state)
    assert bot.state_value(state, state.current_player) == (best > 0) - (best < 0)


def test_endgame_bot_is_for_flipwars_only() -> None:
    game = pa.load("coin-age")
    with pytest.raises(ValueError, match="plays FlipWars, not coin-age"):
        EndgameBot(game, make_bot("random", game), empty_cells=4)
