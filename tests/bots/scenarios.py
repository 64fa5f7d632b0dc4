"""Positions for bot tests, found by seeded random play so every game gets the same kinds of
scenario without hand-building its rules: a win in one, a move that loses on the spot, and
(for games without chance) a threat that must be blocked."""

from __future__ import annotations

import random
from collections.abc import Callable

import pocketarena as pa
from pocketarena.core import CHANCE, TERMINAL


def result_for(state: pa.State, seat: int) -> float | None:
    """The finished game's result for ``seat`` (1, 0, -1), or None while it runs."""
    if state.current_player != TERMINAL:
        return None
    return state.returns()[seat]


def immediate(state: pa.State) -> dict[str, float | None]:
    """Each legal action with the result it ends the game with at once (None: it does not)."""
    mover = state.current_player
    return {a.text: result_for(state.child(a), mover) for a in state.legal_actions()}


def find(
    game: pa.Game,
    wanted: Callable[[pa.State], bool],
    seed: int = 0,
    games: int = 3000,
    max_legal: int = 60,
) -> pa.State:
    """The first decision of seeded random games, with at most ``max_legal`` actions (to keep
    the look-ahead cheap), that ``wanted`` accepts."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            small = state.current_player >= 0 and len(state.legal_actions()) <= max_legal
            if small and wanted(state):
                return state
            state.apply_random(rng)
    raise AssertionError(f"no such position in {games} random {game.ID} games")


def has_win_in_one(state: pa.State) -> bool:
    results = immediate(state).values()
    return 1.0 in results and any(r != 1.0 for r in results)


def has_losing_move(state: pa.State) -> bool:
    """Some actions lose at once, some do not (they draw, win, or the game goes on)."""
    results = list(immediate(state).values())
    return -1.0 in results and any(r != -1.0 for r in results)


# Scenarios one ply deep: name -> (which positions, is the chosen action's immediate result
# right?).
ONE_PLY: dict[str, tuple[Callable[[pa.State], bool], Callable[[float | None], bool]]] = {
    "takes a win in one": (has_win_in_one, lambda result: result == 1.0),
    "avoids a move that loses at once": (has_losing_move, lambda result: result != -1.0),
}


def winning_replies(state: pa.State) -> int:
    """How many replies win at once for the side to move (0 at a throw or the end)."""
    if state.current_player < 0:
        return 0
    return sum(r == 1.0 for r in immediate(state).values())


def threats(state: pa.State) -> dict[str, bool]:
    """For a game without chance: does each action leave the opponent a win in one?"""
    return {
        a.text: state.child(a).current_player not in (CHANCE, TERMINAL)
        and winning_replies(state.child(a)) > 0
        for a in state.legal_actions()
    }


def has_threat_to_block(state: pa.State) -> bool:
    """No win in one; some actions let the opponent win at once, at least one does not."""
    if any(r is not None for r in immediate(state).values()):
        return False
    allowed = threats(state).values()
    return any(allowed) and not all(allowed)
