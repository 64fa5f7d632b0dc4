"""Game analysis: every decision of a finished game judged at the position where it was made.

For each decision one search of the position *before* the move values both the move played and
the analyst's best move, so the two are compared at the same node. (Comparing the values of
successive positions, each searched from its own mover's side, adds each search's bias towards
its mover to every move: the graph zigzags and every move of both sides seems to lose.) Where
an exact solver reaches, its values replace the search's: Stack-a-Cash always (the shipped
solution), FlipWars rounds once few cells are empty (the endgame solver; not in a tactical
series, where the round is not the game).

Every value is on one scale: the **first seat's expected score** in [0, 1] (a win 1, a draw
1/2, a loss 0). ``value_before`` is the position's value (its best move's, so equal to
``best_value``), ``value_after`` the played move's; ``loss`` is the expected score the mover
gave away by playing it (never negative). Marks, as chess players read them, by ``loss``:
``?!`` an inaccuracy (at least 0.06), ``?`` a mistake (0.10), ``??`` a blunder (0.15). With
exact values a move that keeps the result is never marked, and one that turns a win into a
draw (0.5) or a loss (1.0) is a blunder.

Throws are not judged: luck is not a mistake, and the values are expectations over the throws
still to come (each weighed by its chance).

>>> import pocketarena as pa
>>> opening = pa.load("stack-a-cash").new_initial_state()
>>> j = judge("hard", opening, "place S a1")
>>> j.exact, j.value_before, j.value_after, j.mark, outcome_of(j)
(True, 1.0, 0.0, '??', ('wins_in', {'seat': 0, 'plies': 15}))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .bots.base import Bot
from .bots.evaluation import Analyst
from .core import Message, State, message, seat_name
from .messages import render
from .records import Record

INACCURACY = 0.06  # expected score given away for "?!"
MISTAKE = 0.10  # for "?"
BLUNDER = 0.15  # for "??"
MARKS = ("?!", "?", "??")
# Simulations an MCTS analyst spends below the played move at least, so its value is measured
# as well as the best move's, in the same tree.
MIN_SUPPORT = 40
# Empty cells from which FlipWars rounds are judged exactly (per mode, "*" any other). One
# more than the explorer on the 5x5 boards: the analysis solves two positions, not every move,
# and at 7 empty cells the quick search's best move sometimes turns a won round into a lost one
# (1 of 12 positions with 7 or 8 empty cells, docs/study.md). Enclosed Battle's 4x4 board: 8.
FLIPWARS_EXACT_EMPTY = {"enclosed": 8, "*": 7}
# Earlier judgements (any version) in an annotated record's comments, replaced on re-analysis.
_JUDGEMENT = re.compile(r"^(\?[!?]? )?[\w ]+: (value [+-]\d|[\w ]+ expected \d)")

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MARKS",
    "MISTAKE",
    "Judgement",
    "analyst_for",
    "analyze",
    "annotated",
    "decision_count",
    "exact_reach",
    "graph",
    "judge",
    "mark_for",
    "outcome_message",
    "outcome_of",
    "outcome_words",
    "summary",
]


@dataclass(frozen=True)
class Judgement:
    """The analyst's judgement of one decision (``ply`` counts every record move from 1).
    Values are the first seat's expected score; ``loss`` is the mover's."""

    ply: int
    seat: int
    move: str
    value_before: float  # the position's value: its best move's
    value_after: float  # the played move's
    best: str
    best_value: float
    loss: float
    mark: str  # "", "?!", "?" or "??"
    exact: bool = False
    # Exact judgements: the best move's result for the mover (1 win, 0 draw, -1 loss), the
    # plies to the end with best play (Stack-a-Cash) and the round's margin (FlipWars).
    best_result: int | None = None
    best_plies: int | None = None
    best_margin: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The figures ``pocketarena analyze --json`` prints for each decision."""
        return {
            "ply": self.ply,
            "seat": self.seat,
            "move": self.move,
            "value_before": round(self.value_before, 4),
            "value_after": round(self.value_after, 4),
            "best": self.best,
            "best_value": round(self.best_value, 4),
            "loss": round(self.loss, 4),
            "mark": self.mark,
        }

    def to_data(self) -> dict[str, Any]:
        """Everything, as plain data (for a worker process and the stored analysis)."""
        return {
            **self.to_json(),
            "exact": self.exact,
            "best_result": self.best_result,
            "best_plies": self.best_plies,
            "best_margin": self.best_margin,
        }

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Judgement:
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


def mark_for(
    loss: float,
    inaccuracy: float = INACCURACY,
    mistake: float = MISTAKE,
    blunder: float = BLUNDER,
) -> str:
    """The mark for giving away ``loss`` of expected score."""
    if loss >= blunder:
        return "??"
    if loss >= mistake:
        return "?"
    if loss >= inaccuracy:
        return "?!"
    return ""


def check_thresholds(inaccuracy: float, mistake: float, blunder: float) -> None:
    if not 0 < inaccuracy <= mistake <= blunder <= 1:
        raise ValueError(
            "thresholds must satisfy 0 < inaccuracy <= mistake <= blunder <= 1, got "
            f"{inaccuracy}, {mistake} and {blunder}"
        )


def outcome_of(j: Judgement) -> tuple[str, dict[str, Any]]:
    """What the better move leads to, as a message id and its parameters, for a renderer to
    word: ``wins_in`` (seat, plies), ``wins_round_by`` (seat, margin), ``draw``,
    ``round_level`` or ``expected`` (value: the first seat's expected score)."""
    if not j.exact or j.best_result is None:
        return "expected", {"value": round(j.best_value, 2)}
    winner = j.seat if j.best_result > 0 else 1 - j.seat
    if j.best_margin is not None:
        if j.best_result == 0:
            return "round_level", {}
        return "wins_round_by", {"seat": winner, "margin": abs(j.best_margin)}
    if j.best_result == 0:
        return "draw", {}
    return "wins_in", {"seat": winner, "plies": j.best_plies}


def _first_seat(value: float, seat: int) -> float:
    """A value in [-1, 1] for ``seat`` as the first seat's expected score."""
    mine = (value + 1.0) / 2.0
    return mine if seat == 0 else 1.0 - mine


def analyst_for(game_state: State, spec: str, ply: int, seed: int | str | None = None) -> Bot:
    """The analyst ``spec`` names (a level such as ``hard`` or ``hard:0.3s``, or any bot that
    explains itself) for the decision at ``ply``: fresh, seeded by the ply and counting
    simulations instead of seconds, so a decision gets the same judgement on any machine, in
    the terminal and on the web."""
    from .bots import make_bot

    return make_bot(
        spec,
        game_state.game,
        seed=f"analysis:{ply}" if seed is None else f"{seed}:{ply}",
        reproducible=True,
    )


def judge(
    analyst: Bot | str,
    state: State,
    played: str,
    *,
    inaccuracy: float = INACCURACY,
    mistake: float = MISTAKE,
    blunder: float = BLUNDER,
) -> Judgement:
    """The judgement of playing ``played`` at ``state`` (left unchanged): exact where a solver
    reaches, else from one search of ``state`` by ``analyst`` (a bot, or a spec for
    ``analyst_for``)."""
    move = state.game.parse_action(played).text
    exact = _exact(state, move)
    if exact is not None:
        best, best_value, after, result, plies, margin = exact
        return _judgement(
            state,
            move,
            best,
            best_value,
            after,
            (inaccuracy, mistake, blunder),
            result,
            plies,
            margin,
        )
    bot = analyst_for(state, analyst, state.ply + 1) if isinstance(analyst, str) else analyst
    if not isinstance(bot, Analyst):
        raise ValueError(f"the {bot.name} bot cannot explain its moves; analyse with a search bot")
    values = list(bot.action_values(state, include=move))
    if not values:
        raise ValueError(f"the analyst found no action at ply {state.ply + 1}")
    played_value = next((av.value for av in values if av.action.text == move), None)
    if played_value is None:  # an analyst that does not list it: its own search of the move
        played_value = bot.state_value(state.child(move), state.current_player)
    best, best_value = values[0].action.text, values[0].value
    if played_value >= best_value:  # the search liked the played move as much
        best, best_value = move, played_value
    return _judgement(
        state,
        move,
        best,
        best_value,
        played_value,
        (inaccuracy, mistake, blunder),
        None,
        None,
        None,
    )


def _judgement(
    state: State,
    move: str,
    best: str,
    best_value: float,
    after: float,
    thresholds: tuple[float, float, float],
    result: int | None,
    plies: int | None,
    margin: int | None,
) -> Judgement:
    """Values for the mover in [-1, 1] turned into the judgement (the first seat's scale)."""
    seat = state.current_player
    loss = max(0.0, (best_value - after) / 2.0)
    return Judgement(
        ply=state.ply + 1,
        seat=seat,
        move=move,
        value_before=_first_seat(best_value, seat),
        value_after=_first_seat(after, seat),
        best=best,
        best_value=_first_seat(best_value, seat),
        loss=loss,
        mark=mark_for(loss, *thresholds),
        exact=result is not None,
        best_result=result,
        best_plies=plies,
        best_margin=margin,
    )


_Exact = tuple[str, float, float, int, "int | None", "int | None"]


def exact_reach(state: State) -> int:
    """How many empty cells a FlipWars round may have left for the analysis to judge it
    exactly (``FLIPWARS_EXACT_EMPTY``)."""
    mode = str(state.game.options.get("mode", ""))
    return FLIPWARS_EXACT_EMPTY.get(mode, FLIPWARS_EXACT_EMPTY["*"])


def _exact(state: State, move: str) -> _Exact | None:
    """(best move, its value, the played move's value, the best's result, plies, margin) for
    the mover, from a solver; None where none reaches."""
    from .explore import ExplorerError, explorable, explore

    if state.game.ID == "flipwars":
        from .games.flipwars import FlipWarsState
        from .games.flipwars.modes import PLACING

        assert isinstance(state, FlipWarsState)
        if state.game.options.get("series"):
            return None  # the solver knows the round, not the series
        if state.phase != PLACING or len(state.empty) > exact_reach(state):
            return None
        return _flipwars_exact(state, move)
    if explorable(state) is not None:
        return None
    try:
        moves = explore(state)
    except ExplorerError:
        return None
    played = next(m for m in moves if m.move == move)
    best = moves[0]
    return best.move, float(best.value), float(played.value), best.value, best.plies, best.margin


def _flipwars_exact(state: State, move: str) -> _Exact | None:
    """The best and the played move's exact round values: two solves sharing one table (the
    explorer would solve every legal move)."""
    from .bots.flipwars_endgame import EndgameLimitExceeded, EndgameSolver
    from .explore import FLIPWARS_MAX_NODES
    from .games.flipwars import FlipWars, FlipWarsState

    game = state.game
    assert isinstance(game, FlipWars) and isinstance(state, FlipWarsState)
    solver = EndgameSolver(game)
    mover = state.current_player
    child = state.child(move)
    assert isinstance(child, FlipWarsState)
    try:
        best_margin, best_action = solver.solve(state, max_nodes=FLIPWARS_MAX_NODES)
        if child.empty:
            reply, _ = solver.solve(child, max_nodes=FLIPWARS_MAX_NODES)
            played_margin = -reply if child.current_player != mover else reply
        else:
            scores = child.round_scores()
            played_margin = scores[mover] - scores[1 - mover]
    except EndgameLimitExceeded:
        return None
    if played_margin >= best_margin:
        best_margin, best_action = played_margin, child.history[-1]
    sign = (best_margin > 0) - (best_margin < 0)
    played_sign = (played_margin > 0) - (played_margin < 0)
    return best_action.text, float(sign), float(played_sign), sign, len(state.empty), best_margin


def analyze(
    record: Record,
    analyst: Bot | str,
    *,
    inaccuracy: float = INACCURACY,
    mistake: float = MISTAKE,
    blunder: float = BLUNDER,
    seed: int | str | None = None,
    on_decision: Callable[[Judgement], None] | None = None,
) -> list[Judgement]:
    """Judge every decision of ``record`` (which must replay) with ``analyst``: a bot, or a spec
    for a fresh analyst per decision (``analyst_for``: what the web's analyses do)."""
    check_thresholds(inaccuracy, mistake, blunder)
    out: list[Judgement] = []
    for state, move in _decisions(record):
        bot = (
            analyst_for(state, analyst, state.ply + 1, seed)
            if isinstance(analyst, str)
            else analyst
        )
        j = judge(bot, state, move, inaccuracy=inaccuracy, mistake=mistake, blunder=blunder)
        out.append(j)
        if on_decision is not None:
            on_decision(j)
    return out


def decision_count(record: Record) -> int:
    return sum(1 for _ in _decisions(record))


def _decisions(record: Record) -> Iterator[tuple[State, str]]:
    """Each decision of the record: the state before it, and the move played (canonical)."""
    state = record.load_game().new_initial_state()
    for move in record.moves:
        if state.current_player >= 0:
            canonical = state.game.parse_action(move).text
            yield state.clone(), canonical
        state.apply(move)


def graph(judgements: list[Judgement], final: float) -> list[dict[str, Any]]:
    """The first seat's expected score before each decision (``ply`` moves played), and
    ``final``, the result, at the end (``ply`` None)."""
    points: list[dict[str, Any]] = [
        {"ply": j.ply - 1, "expected": round(j.value_before, 4)} for j in judgements
    ]
    return points + [{"ply": None, "expected": round(final, 4)}]


def summary(judgements: list[Judgement], seats: list[str]) -> list[dict[str, Any]]:
    """Per seat: decisions, marks of each kind, and the average expected score given away."""
    out = []
    for seat, name in enumerate(seats):
        mine = [j for j in judgements if j.seat == seat]
        out.append(
            {
                "seat": seat,
                "name": name,
                "decisions": len(mine),
                "inaccuracies": sum(j.mark == "?!" for j in mine),
                "mistakes": sum(j.mark == "?" for j in mine),
                "blunders": sum(j.mark == "??" for j in mine),
                "average_loss": round(sum(j.loss for j in mine) / len(mine), 4) if mine else 0.0,
            }
        )
    return out


def outcome_message(j: Judgement, seats: list[str] | tuple[str, ...]) -> Message:
    """What the better move leads to, as a message (``analysis.outcome.<kind>``) to word in
    the reader's language: "Heads wins in 15", "expected 0.62 for Blue"."""
    kind, params = outcome_of(j)
    said: dict[str, Any] = {k: v for k, v in params.items() if k not in ("seat", "value")}
    if "seat" in params:
        said["winner"] = seat_name(seats[params["seat"]])
    if kind == "expected":
        said |= {"value": f"{params['value']:.2f}", "first": seat_name(seats[0])}
    return message(f"analysis.outcome.{kind}", **said)


def outcome_words(j: Judgement, seats: list[str] | tuple[str, ...]) -> str:
    """``outcome_message`` in English, as records keep it."""
    return render(outcome_message(j, seats))


def comment(j: Judgement, seats: list[str] | tuple[str, ...]) -> str:
    """The judgement as a record comment (records keep English; the page words its own)."""
    first = seats[0]
    text = (
        f"{j.mark + ' ' if j.mark else ''}{seats[j.seat]}: {first} expected "
        f"{j.value_before:.2f} -> {j.value_after:.2f}"
    )
    if j.loss > 0.005:
        text += f"; gave away {j.loss:.2f}; better {j.best} ({outcome_words(j, seats)})"
    return text


def annotated(record: Record, judgements: list[Judgement], analyst: str) -> Record:
    """A copy of ``record`` with a comment after each judged move and an Annotator header."""
    seats = record.load_game().SEATS
    # A record analysed before keeps its other comments, not the old judgements.
    comments = [(n, t) for n, t in record.comments if not _JUDGEMENT.match(t)]
    for j in judgements:
        comments.append((j.ply, comment(j, seats)))
    comments.sort(key=lambda c: c[0])
    return Record(
        game=record.game,
        options=dict(record.options),
        players=list(record.players),
        moves=list(record.moves),
        result=record.result,
        termination=record.termination,
        scores=record.scores,
        started=record.started,
        ended=record.ended,
        seed=record.seed,
        headers={**record.headers, "Annotator": analyst},
        comments=comments,
    )
