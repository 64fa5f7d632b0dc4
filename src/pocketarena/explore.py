"""The exact explorer: every legal move of a position with its value under perfect play.

- Stack-a-Cash, from the shipped solution: each move is a win, a draw or a loss for the side
  to move, with ``plies`` counting this move until the game ends when the winner hurries and
  the loser delays (``None`` for a draw).
- FlipWars, from the exact endgame solver, while the round has few enough empty cells: each
  placement's exact final margin of the round (the mover's tiles minus the opponent's, a flag
  counting 2), its sign as the value, and the placements left in the round as ``plies`` (every
  placement fills one cell, so every line of the round is as long). In a tactical series the
  values are the round's, not the series'.

>>> import pocketarena as pa
>>> opening = pa.load("stack-a-cash").new_initial_state()
>>> best = explore(opening)[0]
>>> best.value, best.plies
(1, 15)

Moves are listed best first: the fastest wins, then draws, then the slowest losses (FlipWars:
the largest margin first). ``ExplorerError`` (a ``ValueError``) says in one sentence why a
position cannot be explored: another game, a finished game, a FlipWars round too far from its
end, a position between rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from pocketarena.core import TERMINAL, State
from pocketarena.core.errors import Message, message

__all__ = [
    "EXPLORABLE",
    "FLIPWARS_MAX_EMPTY",
    "ExplorerError",
    "MoveValue",
    "explore",
    "explorable",
    "explorable_message",
    "rank",
]

EXPLORABLE = ("stack-a-cash", "flipwars")
# FlipWars rounds are explored from this many empty cells (per mode, "*" any other): where the
# hard bot hands rounds to the solver, so every move of such a position is solved in seconds.
FLIPWARS_MAX_EMPTY = {"enclosed": 8, "*": 6}
# Search nodes the explorer may spend on one FlipWars position before it gives up.
FLIPWARS_MAX_NODES = 2_000_000


class ExplorerError(ValueError):
    """The position cannot be explored exactly; ``said`` is why, as a message to word in the
    reader's language (``str`` is its English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its exact value for the side to move."""

    move: str
    value: int  # 1 win, 0 draw, -1 loss, for the side to move
    plies: int | None  # plies from this move to the end with best play; None for a draw
    margin: int | None = None  # FlipWars: the round's final margin for the side to move

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"move": self.move, "value": self.value, "plies": self.plies}
        if self.margin is not None:
            out["margin"] = self.margin
        return out

    def describe(self) -> str:
        """``win in 15``, ``draw``, ``loss in 4``; FlipWars: ``win by 3 in 5``, ``loss by 2 in
        5``, ``draw``."""
        return str(self.describe_message())

    def describe_message(self) -> Message:
        """What :meth:`describe` says, as a message to word in the reader's language."""
        if self.value == 0:
            return message("explore.draw")
        word = "win" if self.value > 0 else "loss"
        if self.margin is None:
            return message(f"explore.{word}", plies=self.plies)
        return message(f"explore.{word}-by", margin=abs(self.margin), plies=self.plies)


def flipwars_reach(state: State) -> int:
    """How many empty cells a FlipWars round may have left for the explorer."""
    mode = str(state.game.options.get("mode", ""))
    return FLIPWARS_MAX_EMPTY.get(mode, FLIPWARS_MAX_EMPTY["*"])


def explorable(state: State) -> str | None:
    """None when ``state`` can be explored exactly, else why not (one sentence)."""
    why = explorable_message(state)
    return None if why is None else str(why)


def explorable_message(state: State) -> Message | None:
    """What :func:`explorable` says, as a message to word in the reader's language."""
    game_id = state.game.ID
    if game_id not in EXPLORABLE:
        return message("explore.no-explorer", game=state.game.TITLE)
    if state.current_player == TERMINAL:
        return message("explore.over")
    if game_id == "flipwars":
        from pocketarena.games.flipwars import FlipWarsState
        from pocketarena.games.flipwars.modes import PLACING

        assert isinstance(state, FlipWarsState)
        if state.phase != PLACING:
            return message("explore.between-rounds")
        reach = flipwars_reach(state)
        if len(state.empty) > reach:
            mode = str(state.game.options["mode"])
            return message(
                "explore.too-many-empty",
                empty=len(state.empty),
                round=message(f"explore.round.{mode}"),
                reach=reach,
            )
    return None


def explore(state: State) -> list[MoveValue]:
    """Every legal move of ``state`` with its exact value, best first."""
    why = explorable_message(state)
    if why is not None:
        raise ExplorerError(why)
    moves = _stack_a_cash(state) if state.game.ID == "stack-a-cash" else _flipwars(state)
    return sorted(moves, key=rank)


def rank(m: MoveValue) -> tuple[int, int, int]:
    # Best first: larger margin, then win > draw > loss; quick wins, slow losses.
    margin = -(m.margin or 0)
    if m.value > 0:
        return (0, margin, m.plies or 0)
    if m.value == 0:
        return (1, margin, 0)
    return (2, margin, -(m.plies or 0))


def _stack_a_cash(state: State) -> list[MoveValue]:
    from pocketarena.solve.stack_a_cash import solve

    solution = solve(str(state.game.options["protect"]), progress=False)
    try:
        outcomes = solution.outcomes(state)
    except ValueError:  # a position the solution does not hold (not reachable)
        raise ExplorerError(message("explore.unreachable")) from None
    return [
        MoveValue(action.text, value, plies if value else None) for action, value, plies in outcomes
    ]


def _flipwars(state: State) -> list[MoveValue]:
    from pocketarena.bots.flipwars_endgame import EndgameLimitExceeded, EndgameSolver
    from pocketarena.games.flipwars import FlipWars, FlipWarsState

    game = state.game
    assert isinstance(game, FlipWars) and isinstance(state, FlipWarsState)
    solver = EndgameSolver(game)  # one table for every reply: they share most positions
    mover = state.current_player
    plies = len(state.empty)
    out = []
    for action in state.legal_actions():
        child = state.child(action)
        assert isinstance(child, FlipWarsState)
        if child.empty:
            budget = max(1, FLIPWARS_MAX_NODES - solver.nodes)
            try:
                reply, _ = solver.solve(child, max_nodes=budget)
            except EndgameLimitExceeded:
                raise ExplorerError(message("explore.beyond-reach")) from None
            margin = -reply if child.current_player != mover else reply
        else:
            scores = child.round_scores()
            margin = scores[mover] - scores[1 - mover]
        value = (margin > 0) - (margin < 0)
        out.append(MoveValue(action.text, value, plies if value else None, margin))
    return out
