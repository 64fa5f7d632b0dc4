"""Game analysis: planted blunders are marked, the better move is named, the record is
annotated."""

from __future__ import annotations

import pytest

import pocketarena as pa
from pocketarena.analysis import Annotation, analyze, annotated, judge, mark_for
from pocketarena.bots import make_bot
from pocketarena.records import Player, Record, loads
from tests.bots.scenarios import find, has_losing_move, has_threat_to_block, immediate, threats


def record_of(state: pa.State) -> Record:
    return Record.from_state(state, players=[Player("a", "human"), Player("b", "human")])


def blunder_game() -> tuple[Record, int, set[str]]:
    """A Stack-a-Cash game where one side lets the other win at once (and it does): the
    record, the blunder's ply and the moves that would have avoided it."""
    game = pa.load("stack-a-cash")
    state = find(game, has_threat_to_block, seed=4, max_legal=40)
    allowed = threats(state)
    safe = {move for move, loses in allowed.items() if not loses}
    blunder = next(move for move, loses in allowed.items() if loses)
    state.apply(blunder)
    ply = state.ply
    reply = next(a for a, r in immediate(state).items() if r == 1.0)
    state.apply(reply)
    assert state.is_terminal()
    return record_of(state), ply, safe


def test_a_planted_blunder_is_marked_and_the_better_move_named() -> None:
    record, ply, safe = blunder_game()
    analyst = make_bot("mcts:1500", record.load_game(), seed=1)
    annotations = analyze(record, analyst)
    assert [a.ply for a in annotations] == list(range(1, len(record.moves) + 1))
    blunder = annotations[ply - 1]
    assert blunder.mark == "?" and blunder.after == -1.0 and blunder.loss >= 0.25
    assert blunder.best in safe
    finish = annotations[-1]  # the winning reply is the best move: no mark, nothing lost
    assert finish.mark == "" and finish.before == finish.after == 1.0 and finish.loss == 0.0
    assert all(a.seat == (a.ply - 1) % 2 for a in annotations)  # no throws in Stack-a-Cash


@pytest.mark.parametrize("game_id", ["wallet-battles", "coin-age"])
def test_a_move_that_loses_at_once_is_a_blunder_in_the_chance_games(game_id: str) -> None:
    game = pa.load(game_id)
    analyst = make_bot("expectimax:1", game, seed=1)

    def losing_with_a_good_alternative(state: pa.State) -> bool:
        if not has_losing_move(state):
            return False
        values = {av.action.text: av.value for av in analyst.action_values(state)}  # type: ignore[attr-defined]
        return max(values.values()) > 0.0

    state = find(game, losing_with_a_good_alternative, seed=2)
    losing = next(m for m, r in immediate(state).items() if r == -1.0)
    before, after, best = judge(analyst, state, losing)
    assert after == -1.0 and before > 0.0 and immediate(state)[best] != -1.0
    values = {av.action.text: av.value for av in analyst.action_values(state)}  # type: ignore[attr-defined]
    best_moves = {m for m, v in values.items() if v == max(values.values())}
    state.apply(losing)
    annotations = analyze(record_of(state), analyst)
    last = annotations[-1]
    assert last.move == losing and last.mark == "?" and last.best in best_moves
    # Throws are not judged: only the decisions are annotated.
    decisions = sum(1 for a in annotations)
    assert decisions < len(state.history)


def test_marks_follow_the_thresholds() -> None:
    assert mark_for(0.05) == "" and mark_for(0.1) == "?!" and mark_for(0.3) == "?"
    assert mark_for(0.2, inaccuracy=0.05, blunder=0.15) == "?"
    with pytest.raises(ValueError, match="0 < inaccuracy <= blunder <= 1"):
        analyze(
            Record(game="stack-a-cash"),
            make_bot("mcts:5", pa.load("stack-a-cash")),
            inaccuracy=0.5,
            blunder=0.2,
        )


def test_bots_that_cannot_explain_themselves_are_refused() -> None:
    game = pa.load("stack-a-cash")
    with pytest.raises(ValueError, match="the greedy bot cannot explain its moves"):
        judge(make_bot("greedy", game), game.new_initial_state(), "place L b2")


def test_annotated_record_carries_the_judgements_as_comments() -> None:
    record, ply, _safe = blunder_game()
    annotations = [
        Annotation(
            ply=ply,
            seat=(ply - 1) % 2,
            move=record.moves[ply - 1],
            before=0.0,
            after=-1.0,
            best="flip a1",
            mark="?",
        ),
    ]
    out = annotated(record, annotations, "mcts:1500")
    assert out.headers["Annotator"] == "mcts:1500"
    text = out.to_text()
    again = loads(text)
    assert again.moves == record.moves and again.replay().is_terminal()
    (comment,) = again.comments
    assert comment[0] == ply
    assert (
        comment[1].startswith("? ")
        and "expected score -0.50" in comment[1]
        and "better flip a1" in comment[1]
    )
    # Analysing an annotated record again replaces the old judgements, keeping other comments.
    again.comments.append((0, "a friendly game"))
    twice = annotated(again, annotations, "hard")
    texts = [t for _, t in twice.comments]
    assert "a friendly game" in texts and len(texts) == 2
