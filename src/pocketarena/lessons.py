"""Lessons: each game taught in short steps on set positions, where the player must make the
move that shows a rule. A step's position is played by the engine from a move list, and the
engine judges the move: one that cannot be played is refused with the engine's own reason, a
legal one is right when it does what the step asks:

- ``moves``: one of the listed moves (a trailing ``*`` matches any ending: ``place Q *``);
- ``wins``: the move wins the game at once;
- ``draws``: the move ends the game in a draw at once;
- ``most``: no legal move leaves the mover a better score margin (FlipWars: the round's).

A step's words (its title, rule and task, hint and praise) are messages of the engine's
catalog, ``lesson.<key>.title`` and so on, whose English is in :mod:`pocketarena.messages`:
the page words them in the reader's language, as it words the judgement.

>>> step = LESSONS["stack-a-cash"][0]
>>> check(step, "place M c1").correct
True
>>> str(step.title)
'Three in a row'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pocketarena.core import TERMINAL, ActionError, State, load_shared
from pocketarena.core.errors import Message, message

__all__ = ["LESSONS", "LessonError", "Step", "StepResult", "check", "position"]


class LessonError(ValueError):
    """A move that cannot be played in the step's position; ``said`` is the engine's reason as
    a message, to word in the reader's language (``str`` is its English)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said


@dataclass(frozen=True)
class Step:
    key: str  # the step's words are the messages lesson.<key>.title, .text, .hint and .done
    setup: tuple[str, ...]  # moves from the start to the step's position
    goal: str  # moves | wins | draws | most
    accept: tuple[str, ...] = ()  # for goal "moves"
    options: dict[str, Any] = field(default_factory=dict)
    hint_id: str | None = None  # a hint steps share, instead of lesson.<key>.hint

    @property
    def title(self) -> Message:
        return message(f"lesson.{self.key}.title")

    @property
    def text(self) -> Message:
        """The rule, and what to do."""
        return message(f"lesson.{self.key}.text")

    @property
    def hint(self) -> Message:
        """Said after a legal move that does not do what is asked."""
        return message(self.hint_id or f"lesson.{self.key}.hint")

    @property
    def done(self) -> Message:
        """Said after the right move."""
        return message(f"lesson.{self.key}.done")


@dataclass(frozen=True)
class StepResult:
    correct: bool
    move: str  # as the engine writes it
    message: Message
    after: State


def position(game_id: str, step: Step) -> State:
    state = load_shared(game_id, dict(step.options)).new_initial_state()
    for move in step.setup:
        state.apply(move)
    return state


def _margin(state: State, seat: int) -> float:
    flipwars = state.game.ID == "flipwars"
    scores = state.round_scores() if flipwars else state.scores()  # type: ignore[attr-defined]
    return float(scores[seat] - scores[1 - seat])


def _matches(pattern: str, move: str) -> bool:
    if pattern.endswith("*"):
        return move.startswith(pattern[:-1])
    return move == pattern


def accepted(state: State, step: Step, after: State) -> bool:
    """Whether ``after`` (the step's position and one move) does what the step asks."""
    mover = state.current_player
    move = after.history[-1].text
    if step.goal == "moves":
        return any(_matches(p, move) for p in step.accept)
    if step.goal == "wins":
        return after.current_player == TERMINAL and after.winner() == mover
    if step.goal == "draws":
        return after.current_player == TERMINAL and after.winner() is None
    if step.goal == "most":
        best = max(_margin(state.child(a), mover) for a in state.legal_actions())
        return _margin(after, mover) == best
    raise ValueError(f"unknown goal {step.goal!r}")


def check(step: Step, move: str, game_id: str | None = None) -> StepResult:
    """Play ``move`` in the step's position and judge it; LessonError if it cannot be played."""
    game_id = game_id or _game_of(step)
    state = position(game_id, step)
    if not isinstance(move, str) or not move.strip():
        raise LessonError(message("study.type-a-move"))
    try:
        after = state.child(move)
    except ActionError as e:  # the engine's reason, as its message
        raise LessonError(e.message) from None
    except ValueError as e:
        # A game refusing with a bare ValueError of its own breaks the engine's contract
        # (``State.apply`` raises ActionError): its English sentence is no words for a
        # player, who reads the engine's refusal in their language; the sentence stays the
        # refusal's cause.
        raise LessonError(message("core.not-legal", action=move.strip())) from e
    text = after.history[-1].text
    if accepted(state, step, after):
        return StepResult(True, text, step.done, after)
    if step.goal == "most":
        mover = state.current_player
        got = _margin(after, mover)
        best = max(_margin(state.child(a), mover) for a in state.legal_actions())
        said = message(
            "lesson.not-most", move=text, hint=step.hint, got=_signed(got), best=_signed(best)
        )
    else:
        said = message("lesson.not-asked", move=text, hint=step.hint)
    return StepResult(False, text, said, after)


def _signed(x: float) -> str:
    n = int(x) if float(x).is_integer() else x
    return f"+{n}" if x > 0 else str(n)


def _game_of(step: Step) -> str:
    for game_id, steps in LESSONS.items():
        if step in steps:
            return game_id
    raise ValueError("this step belongs to no lesson")


# -- the lessons ------------------------------------------------------------------------------

_CA1 = ("slap Q:H N:H P:T D:T",)
_CA2 = (*_CA1, "place Q stone-rock", "place N treewood", "slap Q:T N:H P:T D:H")
_CA3 = (*_CA2, "place P stone-rock", "end", "slap N:T P:T D:T")

_WB2 = ("flip HH", "place Q cemetery-hill", "flip TT")
_WB3 = ("flip HH", "place Q cemetery-hill", "flip odd", "flip odd", "flip odd")
_WB4 = (
    "flip HH",
    "place Q cemetery-hill",
    "flip TT",
    "pass",
    "flip HH",
    "place N cemetery-hill",
    "flip TT",
    "pass",
    "flip HH",
)

LESSONS: dict[str, list[Step]] = {
    "coin-age": [
        Step("coin-age.slap", _CA1, "moves", accept=("place Q *",)),
        Step("coin-age.stacking", _CA2, "moves", accept=("place P stone-rock",)),
        Step("coin-age.capture", _CA3, "moves", accept=("capture stone-rock",)),
        Step(
            "coin-age.regions",
            (
                "slap Q:T N:T P:H D:H",
                "place D treewood",
                "place P mount-cragro",
                "slap Q:T N:H P:H D:H",
                "move treewood silver-city",
                "place Q gentle-wood",
                "slap Q:T N:T P:H D:H",
                "place D hellag-dum",
            ),
            "most",
        ),
    ],
    "stack-a-cash": [
        Step("stack-a-cash.line", ("place L a1", "place S c3", "place L b1", "place S a3"), "wins"),
        Step(
            "stack-a-cash.protection",
            ("place L a1", "place L c1", "place M b1", "place M c1"),
            "wins",
        ),
        Step(
            "stack-a-cash.opponent-lines",
            ("place L b2", "place M a1", "place M c3", "place S b2", "place L a3"),
            "wins",
        ),
        Step(
            "stack-a-cash.repetition",
            (
                "place L b2",
                "place S b1",
                "place L a3",
                "flip b1",
                "place S a2",
                "move b2 b3 flip",
                "flip a2",
                "flip b3",
                "flip a2",
                "flip b3",
                "flip a2",
                "flip b3",
                "flip a2",
            ),
            "draws",
        ),
    ],
    "flipwars": [
        Step("flipwars.attack", ("place tank c3 r0",), "most"),
        Step(
            "flipwars.rotation",
            (
                "place rocket e3 r0",
                "place foxhole c5 r0",
                "place grenade b5 r90",
                "place tank c1 r0",
            ),
            "most",
        ),
        Step(
            "flipwars.own-tiles",
            (
                "place foxhole d4 r90",
                "place paratrooper e4 r270",
                "place sniper d5 r270",
                "place grenade a3 r180",
                "place trex a1 r0",
                "place grenade c2 r270",
            ),
            "most",
        ),
        Step(
            "flipwars.enclosed",
            ("place tank b2 r0", "place grenade c3 r0"),
            "most",
            options={"mode": "enclosed"},
            hint_id="lesson.flipwars.more-red",
        ),
        Step(
            "flipwars.flag",
            (
                "place flag c2 r0",
                "place flag e4 r0",
                "place grenade e3 r180",
                "place grenade d1 r0",
            ),
            "most",
            options={"mode": "flag"},
        ),
        Step(
            "flipwars.tactical",
            (
                "place grenade d1 r180",
                "place foxhole a4 r270",
                "place sniper d5 r180",
                "place sniper c5 r0",
            ),
            "most",
            options={"mode": "tactical", "series": False},
            hint_id="lesson.flipwars.more-red",
        ),
    ],
    "wallet-battles": [
        Step("wallet-battles.flips", ("flip HH",), "moves", accept=("place *",)),
        Step("wallet-battles.capture", _WB2, "moves", accept=("capture cemetery-hill",)),
        Step("wallet-battles.recall", _WB3, "moves", accept=("recall *",)),
        Step("wallet-battles.scoring", _WB4, "most"),
    ],
}
