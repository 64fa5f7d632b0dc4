"""Slaps sampled with ``pocketarena.core.sample_outcome`` over many seeded games land as often as
their probabilities say: each of the 2^k outcomes 1/2^k, each coin heads half the time, and the
number of matches binomial. Seeds are fixed, so the test is deterministic; the bounds are those
a fair sampler passes with probability 0.999."""

from __future__ import annotations

import math
import random
from collections import Counter

import pocketarena as pa
from pocketarena.core import sample_outcome

# Chi-square critical values at p = 0.001, by degrees of freedom.
CHI2_999 = {1: 10.828, 2: 13.816, 3: 16.266, 4: 18.467, 7: 24.322, 15: 37.697}


def _chi_square(observed: dict[object, int], expected: dict[object, float]) -> float:
    return sum((observed.get(key, 0) - e) ** 2 / e for key, e in expected.items())


def _collect_slaps(games: int) -> list[tuple[int, str, int]]:
    """(seat, slap text, number of coins thrown) for every slap of ``games`` seeded games."""
    game = pa.load("coin-age")
    slaps = []
    for seed in range(games):
        rng = random.Random(10_000 + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player == pa.CHANCE:
                outcomes = state.chance_outcomes()
                action = sample_outcome(outcomes, rng)
                slaps.append(
                    (
                        state.position()["mover"] == "Tails",
                        action.text,
                        len(action.text.split()) - 1,
                    )
                )
                state.apply(action)
            else:
                state.apply(rng.choice(list(state.legal_actions())))
    return slaps


SLAPS = _collect_slaps(1500)


def test_enough_slaps_of_every_size() -> None:
    sizes = Counter(k for _, _, k in SLAPS)
    assert set(sizes) == {1, 2, 3, 4}
    assert sizes[4] > 5000


def test_each_of_the_sixteen_four_coin_slaps_is_equally_likely() -> None:
    observed = Counter(text for _, text, k in SLAPS if k == 4)
    total = sum(observed.values())
    assert len(observed) == 16
    expected = {text: total / 16 for text in observed}
    assert _chi_square(dict(observed), expected) < CHI2_999[15]


def test_match_counts_are_binomial_for_every_number_of_coins() -> None:
    for k in (1, 2, 3, 4):
        counts: Counter[int] = Counter()
        for tails, text, size in SLAPS:
            if size == k:
                side = "T" if tails else "H"
                counts[sum(word.endswith(side) for word in text.split()[1:])] += 1
        total = sum(counts.values())
        expected = {m: total * math.comb(k, m) / 2**k for m in range(k + 1)}
        if min(expected.values()) < 5:  # too few slaps of this size for a chi-square
            continue
        assert _chi_square(dict(counts), expected) < CHI2_999[k], (k, counts)


def test_every_coin_lands_heads_half_the_time() -> None:
    for coin in "QNPD":
        faces = Counter(
            word[-1] for _, text, _ in SLAPS for word in text.split()[1:] if word[0] == coin
        )
        n = faces["H"] + faces["T"]
        # Within 4 standard deviations of n/2 (fails by chance with probability < 1e-4).
        assert abs(faces["H"] - n / 2) < 4 * math.sqrt(n / 4), (coin, faces)
