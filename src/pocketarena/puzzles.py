"""Puzzles: positions with exactly one best move, found and checked by the exact solvers.

- **Stack-a-Cash, win in N**: the side to move wins with best play (the shipped solution says
  so) and exactly one legal move keeps the win; ``plies`` counts that move until the game ends
  when the winner hurries and the loser delays.
- **FlipWars endgames**: a round a few placements from its end where exactly one placement
  reaches the best final margin (the exact endgame solver's), and that margin is a win.

A puzzle is plain data (the game, its options, the moves from the start, the answer), so the
set ships as JSON with the package (``puzzles.json``, made by ``generate`` from a seed) and
every answer is judged again by the solver when it is played, never by the stored answer
alone: a move counts as right when the solver gives it the answer's value (the same win, or
in FlipWars the same margin).

>>> p = next(p for p in load() if p.game_id == "stack-a-cash")
>>> check(p, p.answer).correct
True
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pocketarena.core import TERMINAL, IllegalActionError, State, load_shared
from pocketarena.explore import ExplorerError, MoveValue, explore

__all__ = [
    "Judgement",
    "Puzzle",
    "PuzzleError",
    "check",
    "generate",
    "load",
    "position",
]

PUZZLE_FILE = "puzzles.json"
DEFAULT_SEED = 13
# The set: (game, options, how many). FlipWars rounds are taken at a few empty cells, so the
# solver judges an answer in a fraction of a second.
RECIPE: tuple[tuple[str, dict[str, Any], int], ...] = (
    ("stack-a-cash", {"protect": "touched"}, 160),
    ("stack-a-cash", {"protect": "placed"}, 60),
    ("flipwars", {"mode": "standard"}, 30),
    ("flipwars", {"mode": "enclosed"}, 30),
    ("flipwars", {"mode": "flag"}, 20),
    ("flipwars", {"mode": "tactical", "series": False}, 20),
)
SAC_MAX_PLIES = 11  # "win in N" puzzles up to this many plies
FLIPWARS_EMPTY = (3, 4, 5)  # empty cells a FlipWars puzzle may have (before the move)


class PuzzleError(ValueError):
    """A puzzle or an answer that cannot be used (the message says why)."""


@dataclass(frozen=True)
class Puzzle:
    """A position (``moves`` from the start of ``game_id`` with ``options``) whose only best
    move is ``answer``, worth ``value`` (1 a win) in ``plies`` (and ``margin`` for FlipWars)."""

    id: str
    game_id: str
    options: dict[str, Any]
    moves: list[str]
    answer: str
    value: int
    plies: int | None
    margin: int | None
    rating: int  # the puzzle's difficulty on the player rating scale
    legal: int  # how many legal moves the position has
    tags: list[str] = field(default_factory=list)

    def goal(self) -> str:
        """What the player is asked, in words."""
        state = position(self)
        seat = state.game.SEATS[state.current_player]
        if self.margin is not None:
            cells = "cell is" if self.plies == 1 else "cells are"
            return (
                f"{seat} to move ({self.plies} {cells} empty): find the only placement that "
                f"wins the round by {self.margin}."
            )
        if self.plies == 1:
            return f"{seat} to move: find the only move that wins at once."
        return f"{seat} to move: find the only move that wins (in {self.plies} plies)."

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Judgement:
    """An answer judged by the solver."""

    correct: bool
    move: str  # the move as the engine writes it
    value: MoveValue  # the solver's value of the move played
    best: MoveValue  # the puzzle's best move, with its value
    reply: str | None  # the solver's best reply after the move played (None: the end)
    message: str

    def to_json(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "move": self.move,
            "result": self.value.describe(),
            "best": self.best.move,
            "best_result": self.best.describe(),
            "reply": self.reply,
            "message": self.message,
        }


def position(puzzle: Puzzle) -> State:
    """The puzzle's position, played from the start by the engine."""
    state = load_shared(puzzle.game_id, puzzle.options).new_initial_state()
    for text in puzzle.moves:
        state.apply(text)
    return state


def _same(a: MoveValue, b: MoveValue) -> bool:
    """Whether ``a`` keeps ``b``'s value: the same result (FlipWars: the same margin)."""
    return a.value == b.value and a.margin == b.margin


def check(puzzle: Puzzle, move: str) -> Judgement:
    """Judge ``move`` by the solver: right when it keeps the value of the puzzle's answer.
    PuzzleError for text that is no legal move here (the engine says why)."""
    state = position(puzzle)
    if not isinstance(move, str) or not move.strip():
        raise PuzzleError("type a move in notation, as the moves are listed")
    try:
        after = state.child(move)
    except (IllegalActionError, ValueError) as e:
        raise PuzzleError(str(e)) from None
    action = after.history[-1]
    values = {m.move: m for m in explore(state)}
    best = values[puzzle.answer]
    played = values[action.text]
    correct = _same(played, best)
    reply = _reply(after)
    seat = state.game.SEATS[state.current_player]
    if correct:
        message = f"Right: {action.text} is a {played.describe()} for {seat}."
    else:
        message = (
            f"Not this one: {action.text} is only a {played.describe()} for {seat}. "
            f"The winning move was {puzzle.answer} ({best.describe()})."
        )
    if reply is not None:
        message += f" The solver answers {reply}."
    return Judgement(correct, action.text, played, best, reply, message)


def _reply(child: State) -> str | None:
    if child.current_player == TERMINAL:
        return None
    try:
        return explore(child)[0].move
    except ExplorerError:  # between rounds: no reply to show
        return None


# -- the set --------------------------------------------------------------------------------


@functools.cache
def load() -> tuple[Puzzle, ...]:
    """The shipped puzzle set."""
    text = resources.files("pocketarena").joinpath(PUZZLE_FILE).read_text(encoding="utf-8")
    return tuple(Puzzle(**p) for p in json.loads(text)["puzzles"])


@functools.cache
def by_id() -> dict[str, Puzzle]:
    return {p.id: p for p in load()}


def _only_best(values: Sequence[MoveValue]) -> MoveValue | None:
    """The best move when no other move keeps its value, and it wins."""
    best = values[0]
    if best.value != 1 or any(_same(m, best) for m in values[1:]):
        return None
    return best


def _rating(plies: int, legal: int, margin: int | None) -> int:
    """A starting difficulty: longer wins and more moves to choose from are harder."""
    if margin is not None:
        return 1100 + 40 * plies + 6 * legal
    return 1000 + 45 * plies + 8 * legal


def _candidates(game_id: str, options: Mapping[str, Any], rng: random.Random) -> Iterator[State]:
    """Positions of random games, one game after another."""
    game = load_shared(game_id, dict(options))
    while True:
        state = game.new_initial_state()
        path: list[State] = []
        while state.current_player >= 0:
            path.append(state.clone())
            state.apply(rng.choice(state.legal_actions()))
        if game_id == "flipwars":
            path = [s for s in path if len(s.empty) in FLIPWARS_EMPTY]  # type: ignore[attr-defined]
        else:
            path = path[2:]
        rng.shuffle(path)
        yield from path[:2]  # two positions a game, for variety


def _find(game_id: str, options: Mapping[str, Any], count: int, seed: int) -> list[Puzzle]:
    rng = random.Random(f"{seed}:{game_id}:{sorted(options.items())}")
    seen: set[tuple[str, ...]] = set()
    out: list[Puzzle] = []
    prefix = "sac" if game_id == "stack-a-cash" else "fw"
    tag = str(options.get("protect") or options.get("mode"))
    for state in _candidates(game_id, options, rng):
        if len(out) >= count:
            break
        moves = tuple(a.text for a in state.history)
        if moves in seen:
            continue
        seen.add(moves)
        try:
            values = explore(state)
        except ExplorerError:
            continue
        best = _only_best(values)
        if best is None or (game_id == "stack-a-cash" and (best.plies or 0) > SAC_MAX_PLIES):
            continue
        plies = best.plies or 0
        if plies == 1 and 6 * sum(p.plies == 1 for p in out) >= count:
            continue  # wins in one ply are a sixth of the set at most
        out.append(
            Puzzle(
                id=f"{prefix}-{tag}-{len(out) + 1:03d}",
                game_id=game_id,
                options=dict(state.game.options),
                moves=list(moves),
                answer=best.move,
                value=best.value,
                plies=best.plies,
                margin=best.margin,
                rating=_rating(plies, len(values), best.margin),
                legal=len(values),
                tags=[game_id, tag, f"in-{plies}"],
            )
        )
    return out


def generate(seed: int = DEFAULT_SEED, scale: float = 1.0) -> list[Puzzle]:
    """The puzzle set for ``seed`` (the same seed gives the same set); ``scale`` shrinks or
    grows every part of the recipe."""
    out: list[Puzzle] = []
    for game_id, options, count in RECIPE:
        out += _find(game_id, options, max(1, round(count * scale)), seed)
    return out


def write(puzzles: Sequence[Puzzle], path: Path, seed: int) -> None:
    data = {"seed": seed, "count": len(puzzles), "puzzles": [p.to_json() for p in puzzles]}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pocketarena.puzzles [--seed N] [--scale X] [--out PATH]``: write the set."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pocketarena.puzzles", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=float, default=1.0)
    default_out = Path(__file__).with_name(PUZZLE_FILE)
    parser.add_argument("--out", type=Path, default=default_out)
    args = parser.parse_args(argv)
    puzzles = generate(args.seed, args.scale)
    write(puzzles, args.out, args.seed)
    print(f"{len(puzzles)} puzzles written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
