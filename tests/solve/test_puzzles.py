"""The puzzle set: every shipped puzzle has exactly one winning move by the solvers' own
judgement, the generator is reproducible from its seed, and answers are judged by the solver."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pocketarena import puzzles
from pocketarena.explore import explore
from pocketarena.puzzles import Puzzle, PuzzleError, check, position


def shipped(game_id: str) -> list[Puzzle]:
    return [p for p in puzzles.load() if p.game_id == game_id]


def test_the_set_is_a_few_hundred_puzzles_with_unique_ids() -> None:
    ps = puzzles.load()
    assert 250 <= len(ps) <= 400
    assert len({p.id for p in ps}) == len(ps)
    assert len({(p.game_id, str(p.options), tuple(p.moves)) for p in ps}) == len(ps)
    assert {p.game_id for p in ps} == {"stack-a-cash", "flipwars"}
    modes = {p.options["mode"] for p in shipped("flipwars")}
    assert modes == {"standard", "enclosed", "flag", "tactical"}
    assert {p.options["protect"] for p in shipped("stack-a-cash")} == {"touched", "placed"}


def test_every_stack_a_cash_puzzle_has_exactly_one_winning_move() -> None:
    for p in shipped("stack-a-cash"):
        values = explore(position(p))
        winning = [m.move for m in values if m.value == 1]
        assert winning == [p.answer], p.id
        assert values[0].plies == p.plies and p.plies is not None
        assert p.plies <= puzzles.SAC_MAX_PLIES and p.plies % 2 == 1


def test_sampled_flipwars_puzzles_have_exactly_one_move_reaching_the_best_margin() -> None:
    sample = random.Random(7).sample(shipped("flipwars"), 12)
    for p in sample:
        values = explore(position(p))
        best = max(m.margin or 0 for m in values)
        assert [m.move for m in values if m.margin == best] == [p.answer], p.id
        assert best == p.margin and best > 0
        assert len(position(p).empty) in puzzles.FLIPWARS_EMPTY  # type: ignore[attr-defined]


def test_the_generator_is_reproducible_from_its_seed() -> None:
    touched = shipped("stack-a-cash")[:4]
    again = puzzles._find("stack-a-cash", {"protect": "touched"}, 4, puzzles.DEFAULT_SEED)
    assert again == touched
    enclosed = [p for p in shipped("flipwars") if p.options["mode"] == "enclosed"][:2]
    assert puzzles._find("flipwars", {"mode": "enclosed"}, 2, puzzles.DEFAULT_SEED) == enclosed
    other = puzzles._find("stack-a-cash", {"protect": "touched"}, 4, puzzles.DEFAULT_SEED + 1)
    assert [p.moves for p in other] != [p.moves for p in touched]


def test_the_answer_is_right_and_another_move_wrong_with_the_solvers_reply() -> None:
    p = shipped("stack-a-cash")[0]
    right = check(p, p.answer.upper())  # notation in any case
    assert right.correct and right.move == p.answer and right.value.value == 1
    assert str(right.message).startswith("Right:")
    if p.plies and p.plies > 1:
        assert right.reply is not None
        after = position(p).child(p.answer).child(right.reply)
        assert explore(after)[0].value == 1  # the win is still there after the reply
    wrong_move = next(a.text for a in position(p).legal_actions() if a.text != p.answer)
    wrong = check(p, wrong_move)
    assert not wrong.correct and wrong.value.value < 1
    assert p.answer in str(wrong.message) and "Not this one" in str(wrong.message)


def test_another_winning_move_counts_when_it_keeps_the_value() -> None:
    # The opening has five winning moves; a puzzle made of it accepts each of them.
    opening = Puzzle(
        id="x",
        game_id="stack-a-cash",
        options={"protect": "touched"},
        moves=[],
        answer="place M a1",
        value=1,
        plies=15,
        margin=None,
        rating=1500,
        legal=27,
    )
    assert check(opening, "place M c3").correct
    assert not check(opening, "place L a1").correct  # a draw only
    fw = shipped("flipwars")[0]
    assert check(fw, fw.answer).correct
    assert not check(replace(fw, answer=fw.answer), explore(position(fw))[-1].move).correct


@pytest.mark.parametrize("move", ["", "   ", "place Q a1", "place M z9", "fly away"])
def test_a_move_that_cannot_be_played_is_refused_in_words(move: str) -> None:
    p = shipped("stack-a-cash")[0]
    with pytest.raises(PuzzleError) as e:
        check(p, move)
    assert str(e.value)
