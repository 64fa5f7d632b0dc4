"""``pocketarena explore``: the JSON list, the table, and clear one-line errors."""

from __future__ import annotations

import json
import random

import pytest

import pocketarena as pa
from pocketarena import i18n
from pocketarena.solve.stack_a_cash import solve
from tests.cli.test_languages import pseudo_bare

from .helpers import assert_clean_error, run


def test_opening_json_lists_every_move_with_the_solution_values() -> None:
    result = run("explore", "stack-a-cash", "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    opening = pa.load("stack-a-cash").new_initial_state()
    assert sorted(m["move"] for m in listed) == sorted(a.text for a in opening.legal_actions())
    for entry in listed:
        assert set(entry) == {"move", "value", "plies"}
        assert entry["value"] in (1, 0, -1)
        assert (entry["plies"] is None) == (entry["value"] == 0)
    best = [m for m in listed if m["value"] == 1 and m["plies"] == 15]
    assert {m["move"] for m in best} == {a.text for a in solve().best_actions(opening)}
    assert listed[: len(best)] == best  # best first
    assert all(m["value"] < 1 for m in listed[len(best) :])


def test_moves_and_protect_choose_the_position() -> None:
    moves = "place L b2; place M a1; place S b2;"
    result = run("explore", "stack-a-cash", "--protect", "placed", "--moves", moves, "--json")
    assert result.exit_code == 0, result.output
    state = pa.load("stack-a-cash", protect="placed").new_initial_state()
    for move in ["place L b2", "place M a1", "place S b2"]:
        state.apply(move)
    solution = solve("placed")
    listed = {m["move"]: (m["value"], m["plies"]) for m in json.loads(result.output)}
    for action, value, plies in solution.outcomes(state):
        assert listed[action.text] == (value, plies if value else None)


def test_table_says_results_in_words() -> None:
    result = run("explore", "stack-a-cash", "--moves", "place L b2; place M a1")
    assert result.exit_code == 0, result.output
    assert "Heads to move after 2 plies" in result.output
    assert "place S b2" in result.output and "win" in result.output
    assert "With best play Heads wins in 13 plies (1 of 39 moves do)." in result.output


def test_flipwars_endgame_json_has_margins() -> None:
    state, moves = flipwars_endgame()
    result = run("explore", "flipwars", "--mode", "enclosed", "--moves", moves, "--json")
    assert result.exit_code == 0, result.output
    listed = json.loads(result.output)
    assert len(listed) == len(state.legal_actions())
    assert all(set(m) == {"move", "value", "plies", "margin"} for m in listed)
    table = run("explore", "flipwars", "--mode", "enclosed", "--moves", moves)
    assert "margin" in table.output
    assert f"{state.game.SEATS[state.current_player]} to move after" in table.output


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["stack-a-cash", "--moves", "place L b2; plce M a1"], ["move 2", "'plce M a1'"]),
        (["stack-a-cash", "--moves", "place L b2; place L b2"], ["move 2", "cannot be played"]),
        (["stack-a-cash", "--protect", "nope"], ["protect", "touched, placed"]),
        (["coin-age"], ["no exact explorer", "stack-a-cash, flipwars"]),
        (["chess"], ["chess"]),
        (["flipwars"], ["25 cells are empty", "explores a standard round from 6 empty cells"]),
        (["flipwars", "--mode", "enclosed"], ["explores an enclosed round from 8 empty cells"]),
        (["flipwars", "--mode", "huge"], ["mode"]),
        (
            [
                "stack-a-cash",
                "--moves",
                "place L a1; place S b1; place M a2; place S b2; place L a3",
            ],
            ["the game is over"],
        ),
        (
            [
                "stack-a-cash",
                "--moves",
                "place L a1; place S b1; place M a2; place S b2; place L a3; flip b1",
            ],
            ["move 6"],
        ),
    ],
)
def test_bad_input_gets_one_clear_line(args: list[str], fragments: list[str]) -> None:
    assert_clean_error(run("explore", *args, "--json"), 2, *fragments)


def flipwars_endgame(empty: int = 4) -> tuple[pa.State, str]:
    """An enclosed FlipWars round played at random down to ``empty`` empty cells, and its
    moves as ``--moves`` takes them."""
    rng = random.Random(2)
    state = pa.load("flipwars", mode="enclosed").new_initial_state()
    while len(state.empty) > empty:  # type: ignore[attr-defined]
        state.apply(rng.choice(list(state.legal_actions())))
    return state, "; ".join(a.text for a in state.history)


@pytest.mark.parametrize("game", ["stack-a-cash", "flipwars"])
def test_the_whole_table_speaks_the_readers_language(game: str) -> None:
    """The board, the title, the headings, the results and the summary go through the
    catalogs: in the pseudo-locale nothing of them is bare English but the moves' notation
    and the games' names; in French the words are French."""
    if game == "stack-a-cash":
        args = [game, "--moves", "place L b2; place M a1"]
    else:
        args = [game, "--mode", "enclosed", "--moves", flipwars_endgame()[1]]
    listed = json.loads(run("explore", *args, "--json").output)
    names = {m["move"] for m in listed} | {"Stack-a-Cash", "FlipWars"}
    pseudo = run("--lang", i18n.PSEUDO, "explore", *args)
    assert pseudo.exit_code == 0, pseudo.output
    bare = pseudo_bare(pseudo.output, names)
    assert not bare, bare
    french = run("--lang", "fr", "explore", *args).output
    for english in ("to move after", "exact values", "With best play", " win ", " draw "):
        assert english not in french, french
    assert "meilleur jeu" in french and "coup" in french and "résultat" in french
