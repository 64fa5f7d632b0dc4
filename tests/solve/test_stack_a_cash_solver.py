"""The Stack-a-Cash solution: checked against the engine's own move generator, against a
brute-force search, by playing its wins out, and (slow) by rebuilding it from scratch."""

from __future__ import annotations

import doctest
import json
import random
from functools import cache

import numpy as np
import pytest
import typer

import pocketarena as pa
from pocketarena.cli.solve import solve_command
from pocketarena.games.stack_a_cash import StackACashState
from pocketarena.solve import stack_a_cash as solver
from pocketarena.solve.stack_a_cash import Solution

PROTECTS = ["touched", "placed"]


@cache
def solution(protect: str) -> Solution:
    return solver.solve(protect, progress=False)


def state_of(protect: str, key: int) -> StackACashState:
    """An engine state (Heads to move, no history) for a class key: face bit 0 is the mover's.
    (Set through the state's internals: the engine only builds positions by playing.)"""
    state = pa.load("stack-a-cash", protect=protect).new_initial_state()
    assert isinstance(state, StackACashState)
    for cell in range(9):
        code = (key >> (6 * cell)) & 63
        state._set(cell, code)
        for size in range(3):
            state.left -= (code >> (2 * size) & 1) << (2 * size)
    prot = key >> 54
    state.protected = -1 if prot == 9 else prot
    state.seen = {}
    return state


def fresh(state: StackACashState) -> StackACashState:
    """The same position with no history, so repetition and the ply limit stay out of the way."""
    copy = state.clone()
    assert isinstance(copy, StackACashState)
    copy.seen, copy.plies, copy.history = {}, 0, []
    return copy


def sample_keys(protect: str, count: int, seed: int) -> list[int]:
    keys = solution(protect).keys
    rng = np.random.default_rng(seed)
    return [int(k) for k in keys[rng.choice(keys.size, size=count, replace=False)]]


# -- the numpy move generator is the engine's -------------------------------------------------
@pytest.mark.parametrize("protect", PROTECTS)
def test_vectorised_actions_match_the_engine(protect: str) -> None:
    keys = sample_keys(protect, 300, seed=1) + [solver.INITIAL_KEY]
    expanded = solver._expand(np.array(keys, dtype=np.int64), protect == "touched")
    codes, prot = solver._decode(np.array(keys, dtype=np.int64))
    actions = solver._legal(codes, prot, protect == "touched")
    for i, key in enumerate(keys):
        state = state_of(protect, key)
        legal = state.legal_actions()
        assert np.count_nonzero(actions.pos == i) == len(legal)
        engine_succ, engine_win = [], False
        for action in legal:
            child = state.child(action)
            assert isinstance(child, StackACashState)
            if child.winner_seat == 0:
                engine_win = True
            elif child.winner_seat < 0:
                engine_succ.append(solver._state_key(child.cells, child.protected, 1))
        assert engine_win == bool(expanded.win[i])
        assert sorted(engine_succ) == sorted(expanded.succ[expanded.pos == i].tolist())


def test_the_key_forgets_symmetry_and_colour() -> None:
    game = pa.load("stack-a-cash")
    a = game.new_initial_state()
    for move in ["place L a1", "place M b2", "place S c1"]:
        a.apply(move)
    b = game.new_initial_state()  # the mirror image (files a <-> c)
    for move in ["place L c1", "place M b2", "place S a1"]:
        b.apply(move)
    assert isinstance(a, StackACashState) and isinstance(b, StackACashState)
    assert solver._state_key(a.cells, a.protected, 1) == solver._state_key(b.cells, b.protected, 1)
    # The same coins with the faces turned over and the other side to move: the same class.
    swapped = [solver.R.SWAP_FACES[c] for c in a.cells]
    assert solver._state_key(swapped, a.protected, 0) == solver._state_key(a.cells, a.protected, 1)


# -- the values satisfy best play, position by position ----------------------------------------
def bellman(sol: Solution, state: StackACashState) -> int:
    """The signed distance a position must have, given its children's stored values."""
    outcomes = sol.outcomes(fresh(state))
    wins = [p for _, v, p in outcomes if v == 1]
    if wins:
        return min(wins)
    if all(v == -1 for _, v, _ in outcomes):
        return -max(p for _, _, p in outcomes)
    return 0


@pytest.mark.parametrize("protect", PROTECTS)
def test_every_sampled_value_follows_from_its_children(protect: str) -> None:
    sol = solution(protect)
    for key in sample_keys(protect, 1500, seed=2):
        state = state_of(protect, key)
        stored = int(sol.dtw[np.searchsorted(sol.keys, key)])
        assert bellman(sol, state) == stored, f"class {key:#x}:\n{state}"


# -- a brute-force search agrees ------------------------------------------------------------
def wins_within(state: StackACashState, n: int) -> bool:
    if n < 1:
        return False
    mover = state.current_player
    children = [state.child(a) for a in state.legal_actions()]
    if any(c.winner() == mover for c in children):
        return True
    return any(
        c.winner() is None and loses_within(c, n - 1)  # type: ignore[arg-type]
        for c in children
    )


def loses_within(state: StackACashState, n: int) -> bool:
    if n < 1:
        return False
    mover = state.current_player
    for action in state.legal_actions():
        child = state.child(action)
        assert isinstance(child, StackACashState)
        if child.winner() == 1 - mover:
            continue
        if child.winner() == mover or not wins_within(child, n - 1):
            return False
    return True


def brute_force(state: StackACashState, depth: int) -> int | None:
    """The exact signed distance when the game is decided within ``depth`` plies, else None."""
    for n in range(1, depth + 1):
        if wins_within(state, n):
            return n
        if loses_within(state, n):
            return -n
    return None


@pytest.mark.parametrize("protect", PROTECTS)
def test_values_agree_with_a_brute_force_search(protect: str) -> None:
    sol = solution(protect)
    rng = random.Random(3)
    depth = 3
    by_distance: dict[int, list[int]] = {}
    for key, d in zip(sol.keys[::97].tolist(), sol.dtw[::97].tolist(), strict=True):
        by_distance.setdefault(max(-4, min(4, d)), []).append(key)
    checked = 0
    for _, keys in sorted(by_distance.items()):
        for key in rng.sample(keys, min(8, len(keys))):
            state = state_of(protect, key)
            stored = int(sol.dtw[np.searchsorted(sol.keys, key)])
            expected = stored if stored and abs(stored) <= depth else None
            assert brute_force(state, depth) == expected, f"class {key:#x}:\n{state}"
            checked += 1
    assert checked >= 40


# -- wins can be played out -------------------------------------------------------------------
def play_out(sol: Solution, state: StackACashState, rng: random.Random, defend: bool) -> int:
    """The winner follows best_actions, the loser random replies (or its best defence);
    returns the plies until the winner's line."""
    winner = state.current_player if sol.value(state) == 1 else 1 - state.current_player
    plies = 0
    while not state.is_terminal():
        if state.current_player == winner or defend:
            action = rng.choice(sol.best_actions(state))
        else:
            action = rng.choice(list(state.legal_actions()))
        state.apply(action)
        plies += 1
    assert state.winner() == winner
    return plies


@pytest.mark.parametrize("protect", PROTECTS)
def test_wins_are_realisable(protect: str) -> None:
    sol = solution(protect)
    rng = random.Random(5)
    won = sol.keys[sol.dtw > 0]
    for key in rng.sample(won.tolist(), 25):
        state = state_of(protect, key)
        n = sol.plies(state)
        assert play_out(sol, fresh(state), rng, defend=True) == n
        for _ in range(3):
            assert play_out(sol, fresh(state), rng, defend=False) <= n


def test_every_reply_loses_in_time() -> None:
    """Exhaustively: against every defence, best_actions wins within the promised plies."""
    sol = solution("touched")
    rng = random.Random(6)

    def forced(state: StackACashState, budget: int) -> None:
        assert not state.is_terminal() and budget > 0
        attack = sol.best_actions(state)[0]
        after = state.child(attack)
        assert isinstance(after, StackACashState)
        if after.is_terminal():
            assert after.winner() == state.current_player
            return
        for reply in after.legal_actions():
            child = after.child(reply)
            assert isinstance(child, StackACashState)
            if child.is_terminal():  # the defender showed the attacker's line
                assert child.winner() == state.current_player
                continue
            forced(child, budget - 2)

    for n in (3, 5):
        keys = sol.keys[sol.dtw == n].tolist()
        for key in rng.sample(keys, 3):
            forced(state_of("touched", key), n)


# -- the opening -------------------------------------------------------------------------------
@pytest.mark.parametrize("protect", PROTECTS)
def test_opening_value_is_consistent(protect: str) -> None:
    sol = solution(protect)
    opening = pa.load("stack-a-cash", protect=protect).new_initial_state()
    assert isinstance(opening, StackACashState)
    v, n = sol.value(opening), sol.plies(opening)
    assert bellman(sol, opening) == (v * n if v else 0)
    assert sol.value(opening, seat=1) == -v
    assert sol.classes == sol.keys.size and sol.positions > 8 * sol.classes // 2
    best = sol.best_actions(opening)
    assert best and all(sol.value(opening.child(a)) == -v for a in best)
    if v == 1:
        assert play_out(sol, opening.clone(), random.Random(7), defend=True) == n  # type: ignore[arg-type]


def test_the_two_protection_rules_solve_differently() -> None:
    """The solved results recorded in docs/rules/stack-a-cash.md: Heads wins in 15 plies with
    protect="touched"; with protect="placed" (the printed rule) the opening is a draw."""
    touched, placed = solution("touched"), solution("placed")
    opening_t = pa.load("stack-a-cash").new_initial_state()
    opening_p = pa.load("stack-a-cash", protect="placed").new_initial_state()
    assert (touched.value(opening_t), touched.plies(opening_t)) == (1, 15)
    assert (placed.value(opening_p), placed.plies(opening_p)) == (0, 0)


def test_questions_the_solution_cannot_answer_are_refused() -> None:
    sol = solution("touched")
    with pytest.raises(ValueError, match="protect='touched'"):
        sol.value(pa.load("stack-a-cash", protect="placed").new_initial_state())
    done = pa.load("stack-a-cash").new_initial_state()
    for move in ["place L a1", "place L a3", "place M b1", "place M b3", "place S c1"]:
        done.apply(move)
    with pytest.raises(ValueError, match="game is over"):
        sol.value(done)
    assert sol.value(done, seat=0) == 1 and sol.value(done, seat=1) == -1
    assert sol.plies(done) == 0 and sol.best_actions(done) == []
    with pytest.raises(ValueError, match="touched, placed"):
        solver.solve("sometimes")


# -- storage and the command ----------------------------------------------------------------
def test_save_and_load_round_trip(tmp_path: pytest.TempPathFactory) -> None:
    sol = solution("placed")
    path = solver.save(sol, tmp_path)  # type: ignore[arg-type]
    again = solver.load("placed", tmp_path)  # type: ignore[arg-type]
    assert again is not None and path.stat().st_size < 2_000_000
    assert np.array_equal(again.keys, sol.keys) and np.array_equal(again.dtw, sol.dtw)
    assert again.positions == sol.positions
    assert solver.load("touched", tmp_path) is None  # type: ignore[arg-type]
    path.write_bytes(b"not a solution")
    assert solver.load("placed", tmp_path) is None  # type: ignore[arg-type]


def test_solve_command_prints_the_opening_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    solve_command("stack-a-cash", protect="touched", json_out=True)
    out = json.loads(capsys.readouterr().out)
    assert out == {"value": 1, "plies": 15, "positions": solution("touched").positions}
    solve_command("Stack_A_Cash", protect="placed")
    text = capsys.readouterr().out
    assert "draw" in text and f"{solution('placed').positions:,}" in text


@pytest.mark.parametrize(
    ("game", "protect", "words"),
    [
        ("flipwars", "touched", "solvable games: stack-a-cash"),
        ("stack-a-cash", "never", "touched, placed"),
    ],
)
def test_solve_command_refuses_bad_input(
    game: str, protect: str, words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(typer.Exit) as info:
        solve_command(game, protect=protect)
    assert info.value.exit_code == 2
    assert words in capsys.readouterr().err


@pytest.mark.slow
def test_a_fresh_build_matches_the_shipped_solution() -> None:
    built = solver.build("placed")
    stored = solver.shipped("placed")
    assert stored is not None
    assert np.array_equal(built.keys, stored.keys) and np.array_equal(built.dtw, stored.dtw)
    assert built.positions == stored.positions


def test_the_module_examples_hold() -> None:
    assert doctest.testmod(solver, raise_on_error=False).failed == 0


class _Stop(Exception):
    pass


def test_the_rebuilds_progress_bar_speaks_the_readers_language(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``solve --rebuild``'s bar says what is being done as a message (exploring, the
    retrograde analysis), worded in the reader's language as arena's bar is."""
    from pocketarena import i18n
    from pocketarena.core.errors import Message, message

    said: list[str | Message] = []

    def first(what: str | Message, done: int, total: int) -> None:
        said.append(what)
        raise _Stop  # one report is enough: the whole exploration takes a minute

    with pytest.raises(_Stop):
        solver._explore(True, first)
    assert isinstance(said[0], Message) and said[0].id == "solve.exploring", said
    shown = ""
    for what in (said[0], message("solve.retrograde")):  # the bar's last words are shown
        with i18n.use_locale("fr"), solver.progress_bar("touched") as update:
            update(what, 1, 2)
        shown += capsys.readouterr().err
    assert "exploration" in shown and "analyse rétrograde" in shown, shown
    assert "exploring" not in shown and "Solving" not in shown, shown
