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

from pocketarena.core import CHANCE, TERMINAL, State, fresh_seed, load_shared, with_seed
from pocketarena.explore import ExplorerError, MoveValue, explorable, explore

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
        raise PositionError(str(e)) from None
    if len(moves) > MAX_MOVES:
        raise PositionError(f"a position is set up with at most {MAX_MOVES} moves")
    state = game.new_initial_state()
    for n, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise PositionError(f"move {n} must be notation text")
        try:
            state.apply(text)
        except ValueError as e:
            raise PositionError(f"move {n} ({text!r}) cannot be played: {e}") from None
    return state


def seat_name(state: State, seat: int) -> str:
    return state.game.SEATS[seat] if 0 <= seat < len(state.game.SEATS) else "chance"


def to_move_text(state: State) -> str:
    if state.current_player == TERMINAL:
        return "The game is over"
    if state.current_player == CHANCE:
        return "A throw decides next"
    return f"{seat_name(state, state.current_player)} to move"


def result_text(state: State) -> str:
    winner = state.winner()
    a, b = state.scores()
    score = f" ({_num(a)}–{_num(b)})"
    if winner is None:
        return "The game ended in a draw" + score
    return f"{seat_name(state, winner)} won" + score


def _plies(n: int | None) -> str:
    return "1 ply" if n == 1 else f"{n} plies"


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


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
        out["exact_reason"] = explorable(state)
    return out


def evaluate(
    game_id: str, options: Mapping[str, Any], moves: Sequence[str], seconds: float = 1.0
) -> dict[str, Any]:
    """The position's evaluation (JSON): exact where a solver reaches, else the strongest
    bot's, searching about ``seconds`` for the position and less for each move of the line."""
    state = load_position(game_id, options, moves)
    if state.is_terminal():
        return {
            "exact": True,
            "method": "the rules",
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
        summary = "A draw with best play"
    else:
        winner = mover if best.value > 0 else other
        summary = f"{seat_name(state, winner)} wins in {_plies(best.plies)} with best play"
        if flipwars:
            summary = (
                f"{seat_name(state, winner)} wins the round by {abs(best.margin or 0)} "
                f"with best play ({_plies(best.plies)} left)"
            )
    if flipwars and best.value == 0:
        left = len(getattr(state, "empty", ()))
        summary = f"The round ends level with best play ({_plies(left)} left)"
    expected = [0.5, 0.5]
    expected[mover] = (best.value + 1) / 2
    expected[other] = 1 - expected[mover]
    top = [
        m for m in moves if (m.value, m.plies, m.margin) == (best.value, best.plies, best.margin)
    ]
    return {
        "exact": True,
        "method": "the FlipWars endgame solver" if flipwars else "the Stack-a-Cash solution",
        "summary": summary,
        "expected": expected,
        "best": [_move_json(m) for m in top[:BEST_SHOWN]],
        "line": _exact_line(state),
        "explorer": [_move_json(m) for m in moves],
        "note": "values for this round of the series" if state.game.options.get("series") else None,
    }


def _move_json(m: MoveValue) -> dict[str, Any]:
    return {**m.to_json(), "describe": m.describe()}


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
    return bot, f"the hard bot ({recipe.method}, {seconds:g} s)"


def _by_bot(state: State, seconds: float) -> dict[str, Any]:
    bot, method = _analyst(state, seconds)
    note = (
        "values are expectations over the throws (each throw weighed by its chance)"
        if state.game.CHANCE
        else None
    )
    if state.current_player == CHANCE:
        value0 = float(bot.state_value(state, 0))
        expected = [round((value0 + 1) / 2, 4), round((1 - value0) / 2, 4)]
        return {
            "exact": False,
            "method": method,
            "summary": _expected_text(state, expected) + " before the throw",
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
            "describe": f"expected {first:.2f} for {seats[0]}",
        }
        for av in values[:BEST_SHOWN]
    ]
    return {
        "exact": False,
        "method": method,
        "summary": _expected_text(state, expected),
        "expected": expected,
        "best": best,
        "line": _bot_line(state, values[0].action.text, seconds),
        "explorer": None,
        "note": note,
    }


def _expected_text(state: State, expected: list[float]) -> str:
    seats = state.game.SEATS
    return f"Expected score {seats[0]} {expected[0]:.2f} · {seats[1]} {expected[1]:.2f}"


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
        line.append("(a throw)")
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
