"""What the analysis board asks of the engine: a position from its moves, and its evaluation.

The evaluation is exact where a solver reaches (Stack-a-Cash always, FlipWars rounds near their
end): who wins, in how many plies, with what margin, every move's exact value and the line
best play follows. Elsewhere the strongest bot judges: its expected score for each seat (a win
1, a draw 1/2), its best moves and the line it expects, up to the next throw. In games with
throws the bots weigh every throw by its probability (expectimax) or by sampling throws
(MCTS), so their values are expectations over the throws; the text says so.

Everything here is plain data in, JSON out, so a bot worker process can run it.

>>> report = evaluate("stack-a-cash", {}, [])
>>> report["exact"], report["summary"]
(True, 'Heads wins in 15 plies with best play')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pocketarena import i18n
from pocketarena.core import (
    CHANCE,
    TERMINAL,
    State,
    fresh_seed,
    load_shared,
    with_seed,
)
from pocketarena.core.errors import Message, message
from pocketarena.core.words import seat_name as seat_word
from pocketarena.explore import ExplorerError, MoveValue, explorable, explorable_message, explore
from pocketarena.messages import speak, speak_error

__all__ = ["MAX_MOVES", "PositionError", "evaluate", "load_position", "position_report"]

MAX_MOVES = 1000  # moves a position may be set up with (the longest game is shorter)
LINE_DECISIONS = 4  # decisions of a bot's expected line (each one is a search)
EXACT_LINE_PLIES = 30
BEST_SHOWN = 5


class PositionError(ValueError):
    """The position cannot be set up: the message names the move and why."""


def load_position(game_id: str, options: Mapping[str, Any], moves: Sequence[str]) -> State:
    """The position ``moves`` (decisions and throws, in notation) reach from the start of
    ``game_id`` with ``options``; a set-up left to chance with no seed named gets a fresh one
    (the state's game options then name it)."""
    try:
        game = load_shared(game_id, with_seed(game_id, dict(options), fresh_seed()))
    except (ValueError, TypeError) as e:
        raise PositionError(speak_error(e)) from None
    if len(moves) > MAX_MOVES:
        raise PositionError(speak(message("study.too-many-moves", most=MAX_MOVES)))
    state = game.new_initial_state()
    for n, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise PositionError(speak(message("study.move-not-text", number=n)))
        try:
            state.apply(text)
        except ValueError as e:
            said = message("study.move-illegal", number=n, text=text, why=speak_error(e))
            raise PositionError(speak(said)) from None
    return state


# Everything worded here is said in the language of the moment (``i18n.use_locale``: the
# request's, or the one ``evaluate`` is given in a bot worker), English when none is set.


def seat_name(state: State, seat: int) -> Message:
    return seat_word(state.game.SEATS[seat]) if 0 <= seat < len(state.game.SEATS) else CHANCE_SEAT


CHANCE_SEAT = message("core.said", text="chance")
THROW = message("study.a-throw")  # where a bot's expected line stops: nobody predicts a throw


def to_move_text(state: State) -> str:
    if state.current_player == TERMINAL:
        return speak(message("study.over"))
    if state.current_player == CHANCE:
        return speak(message("study.throw-next"))
    return speak(message("study.to-move", seat=seat_name(state, state.current_player)))


def result_text(state: State) -> str:
    winner = state.winner()
    a, b = state.scores()
    score = f"{_num(a)}–{_num(b)}"
    if winner is None:
        return speak(message("study.ended-drawn", score=score))
    return speak(message("study.ended-won", seat=seat_name(state, winner), score=score))


def _plies(n: int | None) -> Message:
    return message("study.plies", count=n or 0)


def _num(x: float) -> str:
    return i18n.format_number(int(x) if float(x).is_integer() else x)


def _fixed(x: float) -> str:
    """``0.53`` with two decimals, in the reader's way of writing numbers (``0,53``)."""
    return i18n.format_number(x, "0.00")


def position_report(state: State) -> dict[str, Any]:
    """What the board shows before any search: whose turn, the legal moves or the throws."""
    out: dict[str, Any] = {
        "game_id": state.game.ID,
        "title": state.game.TITLE,
        "options": dict(state.game.options),
        "seats": list(state.game.SEATS),
        "moves": [a.text for a in state.history],
        "ply": state.ply,
        "to_move": state.current_player if state.current_player >= 0 else None,
        "chance": state.current_player == CHANCE,
        "over": state.current_player == TERMINAL,
        "status": result_text(state) if state.is_terminal() else to_move_text(state),
        "scores": list(state.scores()),
        "legal": [a.text for a in state.legal_actions()] if state.current_player >= 0 else [],
        "throws": [
            {"move": a.text, "probability": round(p, 6)} for a, p in state.chance_outcomes()
        ],
        "exact_reason": None,
    }
    if state.current_player >= 0:
        why = explorable_message(state)
        out["exact_reason"] = None if why is None else speak(why)
    return out


def evaluate(
    game_id: str,
    options: Mapping[str, Any],
    moves: Sequence[str],
    seconds: float = 1.0,
    language: str | None = None,
) -> dict[str, Any]:
    """The position's evaluation (JSON): exact where a solver reaches, else the strongest
    bot's, searching about ``seconds`` for the position and less for each move of the line;
    its words in ``language`` (a bot worker knows no request's), else the current one."""
    if language is not None:
        with i18n.use_locale(language):
            return evaluate(game_id, options, moves, seconds)
    state = load_position(game_id, options, moves)
    if state.is_terminal():
        return {
            "exact": True,
            "method": speak(message("study.by-the-rules")),
            "summary": result_text(state),
            "expected": _expected_from_returns(state),
            "best": [],
            "line": [],
            "explorer": None,
            "note": None,
        }
    if state.current_player >= 0 and explorable(state) is None:
        try:
            return _exact(state)
        except ExplorerError:
            pass  # beyond the solver's node budget: the bot judges instead
    return _by_bot(state, seconds)


def _expected_from_returns(state: State) -> list[float]:
    r = state.returns()
    return [round((r[0] + 1) / 2, 4), round((r[1] + 1) / 2, 4)]


def _exact(state: State) -> dict[str, Any]:
    moves = explore(state)
    best = moves[0]
    mover = state.current_player
    other = 1 - mover
    flipwars = best.margin is not None
    if best.value == 0:
        said = message("study.draw-best")
    else:
        winner = seat_name(state, mover if best.value > 0 else other)
        said = message("study.wins-best", seat=winner, plies=_plies(best.plies))
        if flipwars:
            margin = abs(best.margin or 0)
            said = message(
                "study.wins-round-best", seat=winner, margin=margin, plies=_plies(best.plies)
            )
    if flipwars and best.value == 0:
        left = len(getattr(state, "empty", ()))
        said = message("study.level-round-best", plies=_plies(left))
    summary = speak(said)
    expected = [0.5, 0.5]
    expected[mover] = (best.value + 1) / 2
    expected[other] = 1 - expected[mover]
    top = [
        m for m in moves if (m.value, m.plies, m.margin) == (best.value, best.plies, best.margin)
    ]
    return {
        "exact": True,
        "method": speak(
            message("study.by-flipwars-solver" if flipwars else "study.by-stack-a-cash-solution")
        ),
        "summary": summary,
        "expected": expected,
        "best": [_move_json(m) for m in top[:BEST_SHOWN]],
        "line": _exact_line(state),
        "explorer": [_move_json(m) for m in moves],
        "note": speak(message("study.series-note")) if state.game.options.get("series") else None,
    }


def _move_json(m: MoveValue) -> dict[str, Any]:
    return {**m.to_json(), "describe": speak(m.describe_message())}


def _exact_line(state: State) -> list[str]:
    """Best play to the end: the first best move each ply (fastest win, slowest loss)."""
    line: list[str] = []
    state = state.clone()
    while state.current_player >= 0 and len(line) < EXACT_LINE_PLIES:
        if explorable(state) is not None:
            break
        move = explore(state)[0].move
        line.append(move)
        state.apply(move)
    return line


def _analyst(state: State, seconds: float) -> tuple[Any, str]:
    from pocketarena.bots.levels import levels_for, make_level

    game = state.game
    level = "hard"
    recipe = levels_for(game)[level]
    bot = make_level(game, level, seed=f"board:{state.ply}", seconds=seconds)
    return bot, speak(
        message("study.by-hard-bot", method=recipe.method, seconds=i18n.format_number(seconds))
    )


def _by_bot(state: State, seconds: float) -> dict[str, Any]:
    bot, method = _analyst(state, seconds)
    note = speak(message("study.throws-note")) if state.game.CHANCE else None
    if state.current_player == CHANCE:
        value0 = float(bot.state_value(state, 0))
        expected = [round((value0 + 1) / 2, 4), round((1 - value0) / 2, 4)]
        return {
            "exact": False,
            "method": method,
            "summary": _expected_text(state, expected, "study.expected-before-throw"),
            "expected": expected,
            "best": [],
            "line": [],
            "explorer": None,
            "note": note,
        }
    mover = state.current_player
    values = list(bot.action_values(state))
    best_value = values[0].value
    expected = [0.0, 0.0]
    expected[mover] = round((best_value + 1) / 2, 4)
    expected[1 - mover] = round(1 - expected[mover], 4)
    seats = state.game.SEATS
    # One scale, as the game analysis and the graph: the first seat's expected score.
    best = [
        {
            "move": av.action.text,
            "value": round(av.value, 4),
            "expected": round(first := (av.value + 1) / 2 if mover == 0 else (1 - av.value) / 2, 4),
            "describe": speak(
                message("study.expected-for", value=_fixed(first), seat=seat_word(seats[0]))
            ),
        }
        for av in values[:BEST_SHOWN]
    ]
    return {
        "exact": False,
        "method": method,
        "summary": _expected_text(state, expected),
        "expected": expected,
        "best": best,
        "line": (line := _bot_line(state, values[0].action.text, seconds)),
        "line_to_throw": line[-1] == speak(THROW),
        "explorer": None,
        "note": note,
    }


def _expected_text(state: State, expected: list[float], key: str = "study.expected") -> str:
    seats = state.game.SEATS
    return speak(
        message(
            key,
            first=seat_word(seats[0]),
            first_value=_fixed(expected[0]),
            second=seat_word(seats[1]),
            second_value=_fixed(expected[1]),
        )
    )


def _bot_line(state: State, first: str, seconds: float) -> list[str]:
    """The bot's expected line: its best move, then its choice for each side in turn, up to
    the next throw (which nobody can predict) or ``LINE_DECISIONS`` decisions."""
    line = [first]
    state = state.child(first)
    while state.current_player >= 0 and len(line) < LINE_DECISIONS:
        bot, _ = _analyst(state, max(0.05, seconds / 4))
        move = bot.choose(state).text
        line.append(move)
        state.apply(move)
    if state.current_player == CHANCE:
        line.append(speak(THROW))
    return line


# -- game analysis, one decision at a time (so a bot worker is never held for long) ------------
DEPTHS = {
    1: ("quick", 0.3),
    2: ("deep", None),
}  # name, the hard bot's thinking time (None: its own)


def analyst_name(game_id: str, depth: int) -> str:
    """Who judges a game at ``depth``: the exact solution where there is one, else the hard bot
    (``quick`` thinks a fifth as long)."""
    from pocketarena.bots.levels import DEFAULT_LEVELS, LEVELS

    if "perfect" in LEVELS.get(game_id, DEFAULT_LEVELS):
        return "perfect"
    _name, seconds = DEPTHS[depth]
    return "hard" if seconds is None else f"hard:{seconds:g}s"


def judge_decision(
    game_id: str, options: Mapping[str, Any], moves: Sequence[str], played: str, depth: int
) -> dict[str, Any]:
    """The judgement (``Judgement.to_data``) of ``played`` after ``moves`` by the analyst for
    ``depth``: exact where a solver reaches, else one search of the position before the move,
    with a counted budget seeded by the ply, so the same game gets the same judgement on any
    machine and from ``pocketarena analyze``."""
    from pocketarena.analysis import judge

    state = load_position(game_id, options, moves)
    return judge(analyst_name(game_id, depth), state, played).to_data()
