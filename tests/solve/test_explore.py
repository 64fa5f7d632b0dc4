"""The exact explorer against the solvers, on the opening and on sampled positions.

Values are also checked by the rules engine alone where that is cheap: a move listed as a win
in 1 must end the game won, a loss in 2 must give the opponent a winning reply, and FlipWars
margins with two empty cells left are searched out in full.
"""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from pocketarena.bots.flipwars_endgame import solve_endgame
from pocketarena.core import TERMINAL, State
from pocketarena.explore import ExplorerError, MoveValue, explorable, explore, flipwars_reach
from pocketarena.solve.stack_a_cash import solve


def random_positions(game: pa.Game, count: int, seed: int, max_plies: int) -> list[State]:
    """Positions (game not over) from seeded random play, of varied lengths."""
    rng = random.Random(seed)
    out: list[State] = []
    while len(out) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(max_plies)):
            if state.current_player == TERMINAL:
                break
            state.apply(rng.choice(list(state.legal_actions())))
        if state.current_player != TERMINAL:
            out.append(state)
    return out


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_stack_a_cash_opening(protect: str) -> None:
    opening = pa.load("stack-a-cash", protect=protect).new_initial_state()
    solution = solve(protect, progress=False)
    moves = explore(opening)
    assert sorted(m.move for m in moves) == sorted(a.text for a in opening.legal_actions())
    best = [m for m in moves if (m.value, m.plies) == (moves[0].value, moves[0].plies)]
    assert {m.move for m in best} == {a.text for a in solution.best_actions(opening)}
    assert moves[0].value == solution.value(opening)
    if protect == "touched":
        assert [m.to_json() for m in best] == [
            {"move": m, "value": 1, "plies": 15}
            for m in ["place M a1", "place M c1", "place M b2", "place M a3", "place M c3"]
        ]


def _wins_at_once(state: State, action: str) -> bool:
    child = state.child(action)
    return child.current_player == TERMINAL and child.returns()[state.current_player] > 0


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_stack_a_cash_sampled_positions_agree_with_the_solution(protect: str) -> None:
    game = pa.load("stack-a-cash", protect=protect)
    solution = solve(protect, progress=False)
    for state in random_positions(game, 25, seed=13 + len(protect), max_plies=14):
        moves = explore(state)
        mover = state.current_player
        assert len(moves) == len(state.legal_actions())
        # The best listed move has the position's value and length.
        assert moves[0].value == solution.value(state)
        assert (moves[0].plies or 0) == solution.plies(state)
        for m in moves:
            child = state.child(m.move)
            if child.current_player == TERMINAL:
                result = child.returns()[mover]
                assert m.value == (result > 0) - (result < 0)
                assert m.plies == (1 if m.value else None)
                continue
            assert m.value == solution.value(child, seat=mover)
            assert m.plies == (solution.plies(child) + 1 if m.value else None)
            # Cheap checks by the engine alone.
            assert (m.value, m.plies) != (1, 1)  # a win in 1 ends the game
            if (m.value, m.plies) == (-1, 2):
                assert any(_wins_at_once(child, a.text) for a in child.legal_actions())
        for m in moves:
            if m.value == 1 and m.plies == 1:
                assert _wins_at_once(state, m.move)
        assert moves == sorted(moves, key=lambda m: (-m.value, (m.plies or 0) * m.value))


def _brute_margin(state: State) -> int:
    """The round's final margin for the side to move, by searching every line (tiny rounds)."""
    mover = state.current_player
    best: int | None = None
    for action in state.legal_actions():
        child = state.child(action)
        if child.current_player == TERMINAL or not child.empty:  # type: ignore[attr-defined]
            a, b = child.round_scores()  # type: ignore[attr-defined]
            value = int(a - b) if mover == 0 else int(b - a)
        else:
            reply = _brute_margin(child)
            value = -reply if child.current_player != mover else reply
        best = value if best is None else max(best, value)
    assert best is not None
    return best


def flipwars_at(mode: str, empty: int, seed: int) -> State:
    rng = random.Random(seed)
    state = pa.load("flipwars", mode=mode).new_initial_state()
    while len(state.empty) > empty:  # type: ignore[attr-defined]
        state.apply(rng.choice(list(state.legal_actions())))
    return state


@pytest.mark.parametrize("mode", ["standard", "enclosed", "flag", "tactical"])
def test_flipwars_margins_agree_with_the_endgame_solver(mode: str) -> None:
    for seed in range(3):
        state = flipwars_at(mode, 4, seed)
        moves = explore(state)
        assert len(moves) == len(state.legal_actions())
        assert moves[0].margin == solve_endgame(state)[0]
        assert all(m.plies in (4, None) for m in moves)
        assert all(
            m.value == (m.margin > 0) - (m.margin < 0) for m in moves if m.margin is not None
        )
        margins = [m.margin or 0 for m in moves]
        assert margins == sorted(margins, reverse=True)


@pytest.mark.parametrize("mode", ["standard", "flag"])
def test_flipwars_margins_by_full_search(mode: str) -> None:
    state = flipwars_at(mode, 2, seed=5)
    mover = state.current_player
    for m in explore(state):
        child = state.child(m.move)
        reply = _brute_margin(child)
        assert m.margin == (-reply if child.current_player != mover else reply), m


def test_flipwars_beyond_reach_and_between_rounds() -> None:
    state = flipwars_at("standard", 12, seed=1)
    with pytest.raises(ExplorerError, match="12 cells are empty.*from 6 empty cells"):
        explore(state)
    assert flipwars_reach(state) == 6
    assert flipwars_reach(pa.load("flipwars", mode="enclosed").new_initial_state()) == 8
    series = pa.load("flipwars", mode="tactical").new_initial_state()
    rng = random.Random(3)
    while series.phase == 0:  # type: ignore[attr-defined]
        series.apply(rng.choice(list(series.legal_actions())))
    if series.current_player != TERMINAL:
        assert "between rounds" in (explorable(series) or "")


def test_other_games_and_finished_games_are_refused() -> None:
    with pytest.raises(ExplorerError, match="Coin Age has no exact explorer"):
        explore(pa.load("coin-age").new_initial_state())
    state = pa.load("stack-a-cash").new_initial_state()
    for move in ["place L a1", "place S b1", "place M a2", "place S b2", "place L a3"]:
        state.apply(move)
    assert state.current_player == TERMINAL
    with pytest.raises(ExplorerError, match="the game is over"):
        explore(state)


def test_move_value_json_and_words() -> None:
    assert MoveValue("flip b2", 1, 3).to_json() == {"move": "flip b2", "value": 1, "plies": 3}
    assert MoveValue("flip b2", 0, None).describe() == "draw"
    assert MoveValue("flip b2", 1, 7).describe() == "win in 7"
    assert MoveValue("place tank a1 r0", -1, 2, -3).to_json()["margin"] == -3
    assert MoveValue("place tank a1 r0", -1, 2, -3).describe() == "loss by 3 in 2"


def test_docstring_examples_run() -> None:
    import doctest

    from pocketarena import explore as explore_module
    from pocketarena import study

    for module in (explore_module, study):
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0, module.__name__
