"""The endgame solver against plain minimax, and its contract."""

from __future__ import annotations

import random

import pytest

import pocketarena as pa
from pocketarena.bots.flipwars_endgame import EndgameLimitExceeded, EndgameSolver, solve_endgame
from tests.games.flipwars.helpers import LAST_QUIET, QUIET_23, play


def _position(options: dict[str, object], empty: int, seed: int) -> pa.State:
    """A seeded random position of the current round with ``empty`` empty cells."""
    state = pa.load("flipwars", **options).new_initial_state()
    rng = random.Random(seed)
    while sum(cell is None for cell in state.position()["cells"].values()) - _blocks(state) > empty:
        state.apply_random(rng)
    return state


def _blocks(state: pa.State) -> int:
    return 1 if state.position()["block"] else 0


def _margin(state: pa.State, seat: int) -> int:
    score = state.position()["score"]
    mine, theirs = (score["blue"], score["red"]) if seat == 0 else (score["red"], score["blue"])
    return int(mine - theirs)


def _round_over(state: pa.State) -> bool:
    return state.position()["phase"] != "place"


def minimax(state: pa.State) -> int:
    """Plain minimax over every legal action to the end of the round: the final margin for the
    side to move."""
    seat = state.current_player
    best = None
    for action in state.legal_actions():
        child = state.child(action)
        if _round_over(child):
            value = _margin(child, seat)
        else:
            value = minimax(child)
            if child.current_player != seat:
                value = -value
        if best is None or value > best:
            best = value
    assert best is not None
    return best


CASES = [
    ({"mode": "standard"}, 2, range(4)),
    ({"mode": "standard"}, 3, range(6)),
    ({"mode": "enclosed"}, 3, range(4)),
    ({"mode": "enclosed"}, 4, range(6)),
    ({"mode": "flag"}, 3, range(5)),
    ({"mode": "tactical", "series": False}, 3, range(4)),
]


@pytest.mark.parametrize(("options", "empty", "seeds"), CASES, ids=lambda x: str(x))
def test_solver_agrees_with_minimax(options: dict[str, object], empty: int, seeds: range) -> None:
    for seed in seeds:
        state = _position(options, empty, seed)
        value, action = solve_endgame(state)
        assert value == minimax(state), (seed, state.history)
        # The action it names achieves the value.
        child = state.child(action)
        if _round_over(child):
            assert _margin(child, state.current_player) == value
        else:
            assert -minimax(child) == value


def test_the_sign_alone_is_the_values_sign() -> None:
    """``sign`` (null windows around 0 only) says what ``solve``'s margin says about the round,
    for won, drawn and lost positions alike; at 7 empty cells (won by 4 to 6) it searches under
    a third of the nodes."""
    signs = set()
    for options, empty, seed in [
        *((c[0], c[1], s) for c in CASES for s in c[2]),
        *(({"mode": "enclosed"}, 7, s) for s in range(4)),
    ]:
        state = _position(options, empty, seed)
        exact = EndgameSolver(state.game)
        value = exact.solve(state)[0]
        settled = EndgameSolver(state.game)
        sign = settled.sign(state)
        assert sign == (value > 0) - (value < 0), (options, empty, seed, value)
        signs.add(sign)
        if empty == 7:
            assert 0 < 3 * settled.nodes < exact.nodes, (seed, settled.nodes, exact.nodes)
    assert signs == {-1, 0, 1}


def test_solver_in_a_series_solves_the_current_round() -> None:
    state = play(pa.load("flipwars", mode="tactical").new_initial_state(), QUIET_23 + [LAST_QUIET])
    state.apply("block a1")
    state.apply("first red")
    rng = random.Random(3)
    while sum(cell is None for cell in state.position()["cells"].values()) > 1 + 3:
        state.apply_random(rng)
    value, action = solve_endgame(state)
    assert value == minimax(state)
    assert action in state.legal_actions()


def test_the_principal_variation_keeps_its_value() -> None:
    """Playing the solver's move, the next solve sees the same value from the other side."""
    for options in ({"mode": "standard"}, {"mode": "enclosed"}):
        state = _position(options, 6, 11)
        value, action = solve_endgame(state)
        while True:
            mover = state.current_player
            state.apply(action)
            if state.is_terminal():
                assert _margin(state, mover) == value
                break
            value_next, action = solve_endgame(state)
            assert value_next == -value
            value = value_next


def test_a_solver_reuses_its_table() -> None:
    state = _position({"mode": "enclosed"}, 7, 2)
    solver = EndgameSolver(state.game)
    first = solver.solve(state)
    nodes = solver.nodes
    assert solver.solve(state) == first
    assert solver.nodes - nodes < nodes / 10


def test_the_node_budget_is_kept() -> None:
    state = _position({"mode": "standard"}, 8, 1)
    with pytest.raises(EndgameLimitExceeded):
        solve_endgame(state, max_nodes=50)


def test_refuses_what_it_cannot_solve() -> None:
    over = play(
        pa.load("flipwars", mode="tactical", series=False).new_initial_state(),
        QUIET_23 + [LAST_QUIET],
    )
    with pytest.raises(ValueError, match="the game is over"):
        solve_endgame(over)
    between = play(
        pa.load("flipwars", mode="tactical").new_initial_state(), QUIET_23 + [LAST_QUIET]
    )
    with pytest.raises(ValueError, match="between rounds"):
        solve_endgame(between)
    with pytest.raises(ValueError, match="expected a FlipWars state"):
        solve_endgame(pa.load("stack-a-cash").new_initial_state())
    solver = EndgameSolver(pa.load("flipwars", mode="enclosed"))
    with pytest.raises(ValueError, match="another game"):
        solver.solve(pa.load("flipwars").new_initial_state())


def _mirror_rotation(kind: str, degrees: int) -> int:
    """The rotation of ``kind`` whose pattern is the mirror image (left-right) of ``degrees``."""
    from pocketarena.games.flipwars import KIND_BY_NAME

    tile = KIND_BY_NAME[kind]
    mirrored = frozenset((-x, y) for x, y in tile.offsets(degrees // 90))
    return next(q * 90 for q in range(4) if tile.offsets(q) == mirrored)


def test_every_pattern_set_is_closed_under_mirroring() -> None:
    """What lets the solver fold mirror-image positions together."""
    from pocketarena.games.flipwars import KINDS

    for tile in KINDS:
        for q in range(4):
            _mirror_rotation(tile.name, q * 90)  # raises StopIteration if there is none


def test_mirror_image_positions_have_the_same_value() -> None:
    state = _position({"mode": "enclosed"}, 6, 5)
    mirror = pa.load("flipwars", mode="enclosed").new_initial_state()
    for action in state.history:
        kind, cell, degrees = action.args
        mirrored_cell = "dcba"["abcd".index(cell[0])] + cell[1]
        mirror.apply(f"place {kind} {mirrored_cell} r{_mirror_rotation(kind, degrees)}")
    assert solve_endgame(mirror)[0] == solve_endgame(state)[0]
    assert mirror.round_scores() == state.round_scores()


@pytest.mark.parametrize("options", [{"mode": "enclosed"}, {"mode": "flag"}, {"mode": "tactical"}])
def test_folding_symmetries_keeps_the_values(options: dict[str, object]) -> None:
    """Folding mirror images into one table entry (here at every depth) changes no value."""
    for seed in range(3):
        state = _position(options, 5, seed)
        plain = EndgameSolver(state.game, fold_symmetries_from=99).solve(state)[0]
        folded = EndgameSolver(state.game, fold_symmetries_from=3).solve(state)[0]
        assert plain == folded


def test_a_full_table_is_emptied_without_changing_the_value() -> None:
    state = _position({"mode": "standard"}, 6, 4)
    roomy = EndgameSolver(state.game).solve(state)[0]
    cramped = EndgameSolver(state.game, table_limit=10).solve(state)[0]
    assert roomy == cramped
