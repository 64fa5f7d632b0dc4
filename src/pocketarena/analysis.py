"""Game analysis: every decision of a finished game judged by a strong bot.

For each decision the analyst gives the value of the position for the mover before the move
(the value of its best action) and after it (the value of the action played), both in [-1, 1]
from the mover's view. Their difference in *expected score* (a win 1, a draw 1/2, a loss 0) is
what the move cost: at least ``inaccuracy`` (default 0.1) marks it ``?!``, at least
``blunder`` (0.25) marks it ``?``, and the analyst's best move is named. Throws are not judged:
luck is not a mistake, and values are compared at the same decision, so the coins the mover
was dealt do not count against them.

With the perfect Stack-a-Cash bot the values are exact (1, 0 or -1), so a ``?`` there means the
move threw away a win or a draw.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from .bots.base import Bot
from .bots.evaluation import Analyst, expected_score
from .core import State
from .records import Record

INACCURACY = 0.10  # expected score lost for "?!"
BLUNDER = 0.25  # expected score lost for "?"
_JUDGEMENT = re.compile(r"^(\?!? )?[\w ]+: value [+-]\d")
# An MCTS value needs this many simulations behind it; a less-visited move is searched anew.
MIN_SUPPORT = 30


@dataclass(frozen=True)
class Annotation:
    """The analyst's judgement of one decision (``ply`` counts every record move from 1)."""

    ply: int
    seat: int
    move: str
    before: float  # the position's value for the mover (its best action's)
    after: float  # the played action's value for the mover
    best: str  # the analyst's best action
    mark: str  # "", "?!" or "?"

    @property
    def loss(self) -> float:
        """Expected score the move gave away (0 for the best move)."""
        return max(0.0, expected_score(self.before) - expected_score(self.after))

    def comment(self, seat_name: str) -> str:
        text = (
            f"{self.mark + ' ' if self.mark else ''}{seat_name}: value {self.before:+.2f} -> "
            f"{self.after:+.2f}"
        )
        if self.loss > 0.005:
            text += f" (expected score -{self.loss:.2f}); better {self.best}"
        return text

    def to_json(self) -> dict[str, object]:
        return {
            "ply": self.ply,
            "seat": self.seat,
            "move": self.move,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "loss": round(self.loss, 4),
            "best": self.best,
            "mark": self.mark,
        }


def mark_for(loss: float, inaccuracy: float = INACCURACY, blunder: float = BLUNDER) -> str:
    if loss >= blunder:
        return "?"
    if loss >= inaccuracy:
        return "?!"
    return ""


def judge(analyst: Bot, state: State, played: str) -> tuple[float, float, str]:
    """(value before, value after, best action) of playing ``played`` at ``state``, for the
    mover. The state is left unchanged."""
    if not isinstance(analyst, Analyst):
        raise ValueError(
            f"the {analyst.name} bot cannot explain its moves; analyse with a search bot"
        )
    mover = state.current_player
    values = analyst.action_values(state)
    if not values:
        raise ValueError(f"the analyst found no action at ply {state.ply + 1}")
    best = values[0]
    after = None
    for av in values:
        if av.action.text == played:
            if av.support is None or av.support >= MIN_SUPPORT:
                after = av.value
            break
    if after is None:
        after = analyst.state_value(state.child(played), mover)
    before = max(best.value, after)
    best_text = best.action.text if best.value >= after else played
    return before, after, best_text


def analyze(
    record: Record,
    analyst: Bot,
    *,
    inaccuracy: float = INACCURACY,
    blunder: float = BLUNDER,
    on_decision: Callable[[Annotation], None] | None = None,
) -> list[Annotation]:
    """Judge every decision of ``record`` (which must replay) with ``analyst``."""
    if not 0 < inaccuracy <= blunder <= 1:
        raise ValueError(
            f"thresholds must satisfy 0 < inaccuracy <= blunder <= 1, got {inaccuracy} and {blunder}"
        )
    out: list[Annotation] = []
    for state, move in _decisions(record):
        before, after, best = judge(analyst, state, move)
        annotation = Annotation(
            ply=state.ply + 1,
            seat=state.current_player,
            move=move,
            before=before,
            after=after,
            best=best,
            mark="",
        )
        annotation = replace(annotation, mark=mark_for(annotation.loss, inaccuracy, blunder))
        out.append(annotation)
        if on_decision is not None:
            on_decision(annotation)
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


def annotated(record: Record, annotations: list[Annotation], analyst: str) -> Record:
    """A copy of ``record`` with a comment after each judged move and an Annotator header."""
    seats = record.load_game().SEATS
    # A record analysed before keeps its other comments, not the old judgements.
    comments = [(n, t) for n, t in record.comments if not _JUDGEMENT.match(t)]
    for a in annotations:
        comments.append((a.ply, a.comment(seats[a.seat])))
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
