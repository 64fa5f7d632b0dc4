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
import hashlib
import json
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pocketarena.core import GAMES, TERMINAL, ActionError, RecordError, State, load_shared
from pocketarena.core.errors import Message, message
from pocketarena.core.words import and_list, seat_name
from pocketarena.explore import EXPLORABLE, ExplorerError, MoveValue, explorable, explore
from pocketarena.messages import speak
from pocketarena.records import Record

__all__ = [
    "Judgement",
    "Puzzle",
    "PuzzleError",
    "blunders",
    "check",
    "from_games",
    "generate",
    "load",
    "position",
]

PUZZLE_FILE = "puzzles.json"
BLUNDER_FILE = "blunder-puzzles.json"  # --from-games writes here unless told
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
    """A puzzle or an answer that cannot be used; ``said`` is why, as a message to word in the
    reader's language (``str`` is its English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


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
    # Where a puzzle from a real game's blunder came from: {"game", "ply", "played",
    # "result"}; None for the solver-generated set.
    source: dict[str, Any] | None = None

    def goal(self) -> Message:
        """What the player is asked, as a message to word in the reader's language."""
        state = position(self)
        seat = seat_name(state.game.SEATS[state.current_player])
        if self.margin is not None:
            return message("puzzle.goal.round", seat=seat, count=self.plies, margin=self.margin)
        if self.plies == 1:
            return message("puzzle.goal.at-once", seat=seat)
        plies = message("study.plies", count=self.plies or 0)
        return message("puzzle.goal.wins-in", seat=seat, plies=plies)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if self.source is None:
            del out["source"]  # the generated set stays as it was written
        return out


@dataclass(frozen=True)
class Judgement:
    """An answer judged by the solver."""

    correct: bool
    move: str  # the move as the engine writes it
    value: MoveValue  # the solver's value of the move played
    best: MoveValue  # the puzzle's best move, with its value
    reply: str | None  # the solver's best reply after the move played (None: the end)
    message: Message

    def to_json(self) -> dict[str, Any]:
        """The judgement, worded in the language of the moment (English when none is set)."""
        return {
            "correct": self.correct,
            "move": self.move,
            "result": speak(self.value.describe_message()),
            "best": self.best.move,
            "best_result": speak(self.best.describe_message()),
            "reply": self.reply,
            "message": speak(self.message),
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
        raise PuzzleError(message("study.type-a-move"))
    try:
        after = state.child(move)
    except ActionError as e:  # the engine's reason, as its message (apply raises no other)
        raise PuzzleError(e.message) from None
    action = after.history[-1]
    values = {m.move: m for m in explore(state)}
    best = values[puzzle.answer]
    played = values[action.text]
    correct = _same(played, best)
    reply = _reply(after)
    seat = seat_name(state.game.SEATS[state.current_player])
    result = played.describe_message()
    if correct:
        said = message("puzzle.right", move=action.text, result=result, seat=seat)
    else:
        best_result = best.describe_message()
        said = message(
            "puzzle.wrong",
            move=action.text,
            result=result,
            seat=seat,
            answer=puzzle.answer,
            best=best_result,
        )
    if reply is not None:
        said = message("puzzle.solver-answers", said=said, reply=reply)
    return Judgement(correct, action.text, played, best, reply, said)


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
        out.append(_make(state, values, best, f"{prefix}-{tag}-{len(out) + 1:03d}"))
    return out


def _kind(state: State) -> tuple[str, str]:
    """The id prefix and the rule tag of a puzzle of ``state``'s game."""
    prefix = "sac" if state.game.ID == "stack-a-cash" else "fw"
    return prefix, str(state.game.options.get("protect") or state.game.options.get("mode"))


def _make(
    state: State,
    values: Sequence[MoveValue],
    best: MoveValue,
    puzzle_id: str,
    source: dict[str, Any] | None = None,
) -> Puzzle:
    """The puzzle of ``state``, whose only best move is ``best`` among ``values``."""
    plies = best.plies or 0
    return Puzzle(
        id=puzzle_id,
        game_id=state.game.ID,
        options=dict(state.game.options),
        moves=[a.text for a in state.history],
        answer=best.move,
        value=best.value,
        plies=best.plies,
        margin=best.margin,
        rating=_rating(plies, len(values), best.margin),
        legal=len(values),
        tags=[state.game.ID, _kind(state)[1], f"in-{plies}"] + (["blunder"] if source else []),
        source=source,
    )


# -- puzzles from real games' blunders ------------------------------------------------------


def blunders(record: Record, label: str | None = None) -> list[Puzzle]:
    """Puzzles from ``record``'s blunders: every move that threw away a win, judged by the exact
    solver, where the position before it had exactly one best move (the check the generated set
    passes). The puzzle asks for that move; its ``source`` names the game (``label``, else the
    record's GameId header) and the ply of the blunder.

    Only positions the solver reaches are judged: all of Stack-a-Cash, FlipWars rounds a few
    cells from their end. RecordError when the record does not replay, PuzzleError for a game
    without an exact solver."""
    if record.game not in EXPLORABLE:
        title = GAMES[record.game].TITLE if record.game in GAMES else repr(record.game)
        solved = and_list(GAMES[g].TITLE for g in EXPLORABLE)
        raise PuzzleError(message("puzzle.no-solver", game=title, games=solved))
    record.replay(check_result=False)  # RecordError, naming the move, for one that is illegal
    name = label or record.headers.get("GameId") or "a game"
    out: list[Puzzle] = []
    state = record.load_game().new_initial_state()
    for text in record.moves:
        puzzle = _blunder(state, text, name) if state.current_player >= 0 else None
        if puzzle is not None:
            out.append(puzzle)
        state.apply(text)
    return out


def _blunder(state: State, text: str, name: str) -> Puzzle | None:
    """The puzzle of ``state`` when playing ``text`` there throws away its only winning line."""
    if explorable(state) is not None:
        return None
    try:
        values = explore(state)
    except ExplorerError:  # a FlipWars round past the solver's node budget
        return None
    best = _only_best(values)
    if best is None:
        return None
    played = state.game.parse_action(text).text
    value = next(m for m in values if m.move == played)
    if value.value == 1:  # still a win (FlipWars: by less): a slip, not a blunder
        return None
    moves = [a.text for a in state.history]
    key = json.dumps([state.game.ID, sorted(state.game.options.items()), moves])
    digest = hashlib.sha256(key.encode()).hexdigest()[:10]
    source = {"game": name, "ply": state.ply + 1, "played": played, "result": value.describe()}
    return _make(state, values, best, f"{_kind(state)[0]}-blunder-{digest}", source)


def from_games(records: Iterable[tuple[str, Record]]) -> list[Puzzle]:
    """The blunder puzzles of every ``(label, record)``, each position once."""
    seen: set[str] = set()
    out: list[Puzzle] = []
    for label, record in records:
        try:
            found = blunders(record, label)
        except RecordError as e:
            raise RecordError(message("record.in-file", path=label, problem=e.message)) from None
        except PuzzleError as e:
            raise PuzzleError(message("record.in-file", path=label, problem=e.said)) from None
        for puzzle in found:
            if puzzle.id not in seen:
                seen.add(puzzle.id)
                out.append(puzzle)
    return out


def generate(seed: int = DEFAULT_SEED, scale: float = 1.0) -> list[Puzzle]:
    """The puzzle set for ``seed`` (the same seed gives the same set); ``scale`` shrinks or
    grows every part of the recipe."""
    out: list[Puzzle] = []
    for game_id, options, count in RECIPE:
        out += _find(game_id, options, max(1, round(count * scale)), seed)
    return out


def write(puzzles: Sequence[Puzzle], path: Path, seed: int | None) -> None:
    data: dict[str, Any] = {"seed": seed} if seed is not None else {}
    data |= {"count": len(puzzles), "puzzles": [p.to_json() for p in puzzles]}
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m pocketarena.puzzles [--seed N] [--scale X] [--out PATH]``: write the set;
    ``--from-games FILE…``: write the puzzles of those game records' blunders instead."""
    import argparse
    import sys

    from pocketarena.records import load as load_record

    parser = argparse.ArgumentParser(prog="python -m pocketarena.puzzles", description=__doc__)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument(
        "--from-games",
        nargs="+",
        type=Path,
        metavar="FILE",
        help="game records (JSON or text): make puzzles from their blunders",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help=f"where to write (default: the shipped {PUZZLE_FILE}, or "
        f"{BLUNDER_FILE} with --from-games)",
    )
    args = parser.parse_args(argv)
    if args.from_games is None:
        out = args.out or Path(__file__).with_name(PUZZLE_FILE)
        puzzles = generate(args.seed, args.scale)
        write(puzzles, out, args.seed)
        print(f"{len(puzzles)} puzzles written to {out}")
        return 0
    out = args.out or Path(BLUNDER_FILE)
    if out.is_dir() or not out.parent.is_dir():
        print(f"error: cannot write {out}: no such folder, or it is a folder", file=sys.stderr)
        return 2
    try:
        records = [(str(f), load_record(f)) for f in args.from_games]
        puzzles = from_games(records)
    except (RecordError, PuzzleError) as e:  # RecordError names the file; nothing is written
        print(f"error: {e}", file=sys.stderr)
        return 1
    try:
        write(puzzles, out, None)
    except OSError as e:
        print(f"error: cannot write {out}: {e.strerror}", file=sys.stderr)
        return 1
    games = len(records)
    print(
        f"{len(puzzles)} puzzles from the blunders of {games} game{'s' * (games != 1)} written to {out}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
