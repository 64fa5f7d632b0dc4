"""Chance in Wallet Battles: flips land HH, TT, odd at 1/4, 1/4, 1/2 over many seeded games,
recalls come as often as three odds in a row should, and a seeded game replays exactly."""

from __future__ import annotations

import json
import random
from collections import Counter

import pocketarena as pa
from pocketarena.core import sample_outcome


def seeded_game(seed: int, options: dict[str, object] | None = None) -> pa.State:
    """A random game by the occupied end (longer games, more flips to count)."""
    rng = random.Random(seed)
    state = pa.load("wallet-battles", **{"end": "occupied", **(options or {})}).new_initial_state()
    while not state.is_terminal():
        if state.current_player == pa.CHANCE:
            state.apply(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply(rng.choice(list(state.legal_actions())))
    return state


def test_flip_frequencies_match_a_quarter_a_quarter_and_a_half() -> None:
    counts: Counter[str] = Counter()
    for seed in range(600):
        counts.update(a.text for a in seeded_game(seed).history if a.chance)
    n = sum(counts.values())
    assert n > 25_000
    expected = {"flip HH": 0.25, "flip TT": 0.25, "flip odd": 0.5}
    for text, p in expected.items():
        sd = (p * (1 - p) / n) ** 0.5
        assert abs(counts[text] / n - p) < 5 * sd, (text, counts[text] / n)
    # Pearson's chi-square with 2 degrees of freedom: 13.8 is the 0.1% critical value.
    chi2 = sum((counts[t] - n * p) ** 2 / (n * p) for t, p in expected.items())
    assert chi2 < 13.8, chi2


def test_the_third_odd_comes_as_often_as_three_odds_in_a_row_should() -> None:
    # From a fresh count, three odds in a row before any HH/TT has probability 1/8 per
    # "attempt"; over a long run the recall trigger frequency per flip is 1/14 (a renewal
    # argument: a cycle ends at HH/TT or the third odd; its mean length is 1.75 flips).
    triggers = flips = 0
    for seed in range(200):
        state = seeded_game(seed, {"coins": {"Q": 20, "N": 20, "P": 20, "D": 20}})
        run = 0
        for action in state.history:
            if not action.chance:
                continue
            flips += 1
            run = run + 1 if action.text == "flip odd" else 0
            if run == 3:
                triggers += 1
                run = 0
    p = (1 / 8) / 1.75
    sd = (p * (1 - p) / flips) ** 0.5
    assert abs(triggers / flips - p) < 5 * sd, (triggers / flips, p)


def test_a_seeded_game_replays_exactly_from_its_record() -> None:
    for seed in (1, 2, 3):
        first = seeded_game(seed, {"map": "antietam"})
        again = seeded_game(seed, {"map": "antietam"})
        assert [a.text for a in first.history] == [a.text for a in again.history]
        record = json.loads(json.dumps(first.to_json()))
        replayed = first.game.state_from_json(record)
        assert replayed == first and replayed.position() == first.position()
        assert replayed.scores() == first.scores() and replayed.winner() == first.winner()
