"""The perfect Stack-a-Cash bot plays from the solution and judges exactly."""

from __future__ import annotations

import pytest

import pocketarena as pa
from pocketarena.analysis import analyze
from pocketarena.bots import make_bot
from pocketarena.bots.perfect import PerfectBot
from pocketarena.match import SeededChance, play_match
from pocketarena.records import Record
from pocketarena.solve.stack_a_cash import solve
from tests.bots.scenarios import find, has_threat_to_block, immediate, threats


@pytest.mark.parametrize("protect", ["touched", "placed"])
def test_perfect_self_play_gets_the_solved_result(protect: str) -> None:
    game = pa.load("stack-a-cash", protect=protect)
    value = solve(protect, progress=False).value(game.new_initial_state())
    bots = [make_bot("perfect", game, seed=s) for s in (1, 2)]
    record = play_match(game, bots, SeededChance(1))
    assert record.result == {1: "1-0", 0: "1/2-1/2", -1: "0-1"}[value]
    if value == 1:  # the winner hurries: the game lasts exactly the solved number of plies
        assert len(record.moves) == solve(protect, progress=False).plies(game.new_initial_state())


def test_perfect_never_loses_to_mcts() -> None:
    game = pa.load("stack-a-cash")
    for seed in range(2):
        bots = [make_bot("mcts:200", game, seed=seed), make_bot("perfect", game, seed=seed)]
        record = play_match(game, bots, SeededChance(seed))
        assert record.result in ("0-1", "1/2-1/2")  # perfect sits second, where Heads wins


def test_perfect_values_are_exact_and_name_the_blunder() -> None:
    game = pa.load("stack-a-cash")
    bot = PerfectBot(game, seed=1)

    def savable(state: pa.State) -> bool:  # a threat to block, and blocking it saves the game
        return has_threat_to_block(state) and bot.state_value(state, state.current_player) > -1

    state = find(game, savable, seed=4, max_legal=40)
    values = {av.action.text: av.value for av in bot.action_values(state)}
    assert set(values.values()) <= {-1.0, 0.0, 1.0}
    for move, loses in threats(state).items():
        if loses:
            assert values[move] == -1.0  # the opponent wins at once
    assert bot.state_value(state, state.current_player) == max(values.values())
    blunder = next(m for m, loses in threats(state).items() if loses)
    state.apply(blunder)
    state.apply(next(a for a, r in immediate(state).items() if r == 1.0))
    annotations = analyze(Record.from_state(state), bot)
    judged = annotations[-2]
    mover = judged.seat
    assert judged.move == blunder and judged.mark == "??"
    assert judged.value_after == (0.0 if mover == 0 else 1.0)  # the first seat's scale
    assert values[judged.best] == max(values.values()) > -1.0
    assert judged.value_before == judged.best_value > judged.value_after or mover == 1


def test_perfect_is_only_for_stack_a_cash() -> None:
    with pytest.raises(ValueError, match="there is no perfect bot for coin-age"):
        PerfectBot(pa.load("coin-age"))
