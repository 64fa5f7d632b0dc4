"""Lessons: each game taught in short steps on set positions, where the player must make the
move that shows a rule. A step's position is played by the engine from a move list, and the
engine judges the move: one that cannot be played is refused with the engine's own reason, a
legal one is right when it does what the step asks:

- ``moves``: one of the listed moves (a trailing ``*`` matches any ending: ``place Q *``);
- ``wins``: the move wins the game at once;
- ``draws``: the move ends the game in a draw at once;
- ``most``: no legal move leaves the mover a better score margin (FlipWars: the round's).

>>> step = LESSONS["stack-a-cash"][0]
>>> check(step, "place M c1").correct
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pocketarena.core import TERMINAL, IllegalActionError, State, load_shared

__all__ = ["LESSONS", "LessonError", "Step", "StepResult", "check", "position"]


class LessonError(ValueError):
    """A move that cannot be played in the step's position (the engine's reason)."""


@dataclass(frozen=True)
class Step:
    title: str
    text: str  # the rule, and what to do
    setup: tuple[str, ...]  # moves from the start to the step's position
    goal: str  # moves | wins | draws | most
    hint: str  # said after a legal move that does not do what is asked
    done: str  # said after the right move
    accept: tuple[str, ...] = ()  # for goal "moves"
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class StepResult:
    correct: bool
    move: str  # as the engine writes it
    message: str
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
        raise LessonError("type a move in notation, as the moves are listed")
    try:
        after = state.child(move)
    except (IllegalActionError, ValueError) as e:
        raise LessonError(str(e)) from None
    text = after.history[-1].text
    if accepted(state, step, after):
        return StepResult(True, text, step.done, after)
    message = f"{text} can be played, but it is not what this step asks: {step.hint}"
    if step.goal == "most":
        mover = state.current_player
        got = _margin(after, mover)
        best = max(_margin(state.child(a), mover) for a in state.legal_actions())
        message += f" (it leaves you {_signed(got)}; the best move leaves {_signed(best)})"
    return StepResult(False, text, message, after)


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
        Step(
            "The slap",
            "Every turn starts with a slap: you throw one coin of each kind in your bank and "
            "count the matches, the coins showing your side. Heads threw quarter and nickel "
            "heads up: two matches, so Heads may place up to two coins, and only the coins that "
            "matched. Place your quarter on an empty space.",
            _CA1,
            "moves",
            "with two matches you place coins; place the quarter that matched (the penny and "
            "the dime landed tails up and stay in the bank this turn).",
            "Placed. Two or three matches allow two places, four allow a third by paying a "
            "coin, one match a place and a move, none a capture and a move.",
            accept=("place Q *",),
        ),
        Step(
            "Stacking by rank",
            "A coin may go on an empty space or on a coin of strictly higher rank, anyone's: a "
            "dime on anything but a dime, a quarter only on an empty space. Tails matched the "
            "quarter and the penny. Cover Heads' quarter on Stone Rock with your penny: the top "
            "coin holds the space.",
            _CA2,
            "moves",
            "put the penny on the quarter at Stone Rock.",
            "Covered: Stone Rock is Tails' now, and the quarter under the penny scores "
            "nothing while it is covered.",
            accept=("place P stone-rock",),
        ),
        Step(
            "No match: capture",
            "Heads threw no match: no place, but a capture and a move. A capture takes the top "
            "coin of any stack into your bank; it is yours from then on. Take Tails' penny off "
            "Stone Rock, so your quarter holds the space again.",
            _CA3,
            "moves",
            "capture the penny on Stone Rock.",
            "Captured: the penny is in your bank now and your quarter is on top again.",
            accept=("capture stone-rock",),
        ),
        Step(
            "Regions double",
            "Spaces score their top coin's rank; in each region a player holding strictly more "
            "spaces than the other doubles their points there, and every coin in a bank scores "
            "1. The Silver Vale has two spaces: your dime holds Silver City, Tails' quarter "
            "Gentle Wood, a tie that doubles nobody. You matched the penny: make the move that "
            "scores most.",
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
            "look for the move that wins a region's majority.",
            "Both Silver Vale spaces are yours: the region doubles for you and Tails loses the "
            "quarter's 4. The game ends at once when a coin fills the last empty space or an "
            "action empties the mover's bank; then the totals decide.",
        ),
    ],
    "stack-a-cash": [
        Step(
            "Three in a row",
            "Three coins showing your side on the top layer, in a row, column or diagonal, win. "
            "Nobody owns a coin: what shows on top counts. Heads to move: win.",
            ("place L a1", "place S c3", "place L b1", "place S a3"),
            "wins",
            "Heads has a1 and b1: finish the row.",
            "A line: Heads wins.",
        ),
        Step(
            "Protection",
            "The coin your opponent placed, moved or flipped last turn is protected: you "
            "cannot flip or move it (try flip c1), but you may cover it with a smaller coin. "
            "Win.",
            ("place L a1", "place L c1", "place M b1", "place M c1"),
            "wins",
            "the medium coin on c1 is protected; a small coin may still cover it.",
            "Covered with your side up: Heads wins the row.",
        ),
        Step(
            "Lines made for the opponent",
            "After every action the opponent's lines are checked first: a move that shows a "
            "line for the other side loses, even if it makes yours too. Tails to move: do not "
            "flip or uncover a Heads line; win instead.",
            ("place L b2", "place M a1", "place M c3", "place S b2", "place L a3"),
            "wins",
            "that move shows a line for the other side, or does not win.",
            "A line of your own and none for Heads: Tails wins.",
        ),
        Step(
            "Repetition",
            "The same position (board, side to move and protected coin) a third time is a "
            "draw; flips and moves could go on for ever, and this ends them. Heads and Tails "
            "have been flipping a2 and b3 in turn. Tails to move: repeat the position a third "
            "time.",
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
            "the draw comes from playing the same flip once more.",
            "The third time: the game is drawn.",
        ),
    ],
    "flipwars": [
        Step(
            "Attack patterns",
            "Every tile attacks the cells its dots show; placing it flips every tile there to "
            "the other colour. Red to move: flip the blue tile with the placement that gains "
            "most.",
            ("place tank c3 r0",),
            "most",
            "choose a tile whose pattern reaches blue tiles.",
            "Flipped: attacked tiles change colour, whoever owned them.",
        ),
        Step(
            "Rotation",
            "A tile may be turned before it is placed (r0 as printed, r90, r180, r270 "
            "clockwise), and its pattern turns with it. Blue to move: find the placement, "
            "turned as it must be, that gains most.",
            (
                "place rocket e3 r0",
                "place foxhole c5 r0",
                "place grenade b5 r90",
                "place tank c1 r0",
            ),
            "most",
            "turn the tile so that its pattern points at the red tiles.",
            "Right: turned a quarter, the tank's line reaches the most.",
        ),
        Step(
            "Flipping your own tiles",
            "An attack flips every tile it reaches, your own too. Blue to move: gain the most, "
            "counting the blue tiles a placement would turn red.",
            (
                "place foxhole d4 r90",
                "place paratrooper e4 r270",
                "place sniper d5 r270",
                "place grenade a3 r180",
                "place trex a1 r0",
                "place grenade c2 r270",
            ),
            "most",
            "that placement turns some of your own tiles, or misses red ones.",
            "Right: most tiles, counting those flipped both ways.",
        ),
        Step(
            "Enclosed Battle",
            "Each mode changes the field. Enclosed Battle plays on a 4x4 board with one of "
            "each tile per player, all of them placed. Blue to move: gain the most.",
            ("place tank b2 r0", "place grenade c3 r0"),
            "most",
            "a placement that reaches more red tiles gains more.",
            "Right: on the small board every cell counts.",
            options={"mode": "enclosed"},
        ),
        Step(
            "Capture the Flag",
            "Capture the Flag adds a flag to each side, placed first; it attacks nothing and "
            "counts 2 for whoever's colour it shows. Blue to move: gain the most.",
            (
                "place flag c2 r0",
                "place flag e4 r0",
                "place grenade e3 r180",
                "place grenade d1 r0",
            ),
            "most",
            "a flag turned to your colour counts 2.",
            "Right: flags are the tiles worth taking.",
            options={"mode": "flag"},
        ),
        Step(
            "Tactical War",
            "Tactical War blocks a cell (c3 in the first round): no tile fills it, nothing "
            "flips it, attacks pass over it. As a series, first to three rounds, the loser of "
            "a round moves the block and chooses who starts the next. Blue to move: gain the "
            "most.",
            (
                "place grenade d1 r180",
                "place foxhole a4 r270",
                "place sniper d5 r180",
                "place sniper c5 r0",
            ),
            "most",
            "a placement that reaches more red tiles gains more.",
            "Right. That is every mode: the most tiles when the board is full wins.",
            options={"mode": "tactical", "series": False},
        ),
    ],
    "wallet-battles": [
        Step(
            "Flips",
            "Each round both players flip a coin: two heads and the Union acts, two tails and "
            "the Confederacy acts, one of each and nobody does. The flips came HH: place a coin "
            "from your pile on an empty location.",
            ("flip HH",),
            "moves",
            "after HH the Union places a coin here (or captures, or passes, but no enemy coin "
            "is on the map yet).",
            "Placed: the location is the Union's while its coins are there.",
            accept=("place *",),
        ),
        Step(
            "Capture",
            "The act may instead capture: take the top coin of an enemy stack into your pile, "
            "to place later as your own. The flips came TT: capture the Union's quarter.",
            _WB2,
            "moves",
            "capture the coin on Cemetery Hill.",
            "Captured: the quarter is in the Confederacy's pile now.",
            accept=("capture cemetery-hill",),
        ),
        Step(
            "The recall",
            "The third odd flip in a row forces a recall: each side with coins on the map, "
            "Union first, returns one of its own top coins to its pile. Recall your quarter.",
            _WB3,
            "moves",
            "the recall returns one of your own top coins.",
            "Recalled, and the count of odd flips starts again from zero.",
            accept=("recall *",),
        ),
        Step(
            "Stacks and scoring",
            "You may place a coin on your own stack whose top coin is strictly larger. A "
            "location you hold scores 2 plus its coins, doubled from three coins up; a coin in "
            "your pile scores 1. Make the move that scores most.",
            _WB4,
            "most",
            "a third coin on your own stack doubles it.",
            "Three coins: the stack is worth 8 now.",
        ),
    ],
}
