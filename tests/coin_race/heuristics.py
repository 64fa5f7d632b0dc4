"""How good a Coin Race position looks: the lead in points, against the goal."""

from __future__ import annotations

from pocketarena.core import State


def evaluate(state: State, seat: int) -> float:
    """In [-1, 1] for ``seat``: the lead over the opponent as a share of the goal."""
    totals = state.position()["totals"]
    lead = totals[seat] - totals[1 - seat]
    return max(-1.0, min(1.0, lead / state.game.options["goal"]))
