"""Perft: the number of distinct action sequences (chance outcomes included) to a depth.

A regression guard in the style of chess engines: any change to move generation shows up as a
changed count, and ``divide`` says under which first action it changed.
"""

from __future__ import annotations

from .state import CHANCE, TERMINAL, State


def perft(state: State, depth: int) -> int:
    if depth == 0 or state.current_player == TERMINAL:
        return 1
    if state.current_player == CHANCE:
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = list(state.legal_actions())
    if depth == 1:
        return len(actions)
    return sum(perft(state.pushed(a), depth - 1) for a in actions)


def divide(state: State, depth: int) -> dict[str, int]:
    """Perft below each first action, for finding where two move generators disagree."""
    if state.current_player == CHANCE:
        actions = [a for a, _ in state.chance_outcomes()]
    else:
        actions = list(state.legal_actions())
    return {a.text: perft(state.pushed(a), depth - 1) for a in actions}
