"""Confidence intervals against their textbook formulas and known values."""

from __future__ import annotations

import math

import pytest

from pocketarena.arena.stats import Z95, Tally, score_bootstrap, score_normal, wilson


def test_wilson_matches_known_values() -> None:
    # Wilson (1927) / Newcombe (1998), method 3: 81 of 263 -> 0.2553 to 0.3662.
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    # Newcombe's table: 15 of 148 -> 0.0624 to 0.1605; 0 of 20 -> 0 to 0.1611.
    assert wilson(15, 148) == pytest.approx((0.0624, 0.1605), abs=1e-4)
    assert wilson(0, 20) == pytest.approx((0.0, 0.1611), abs=1e-4)
    assert wilson(20, 20) == pytest.approx((1 - 0.1611, 1.0), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="successes must lie in 0..5"):
        wilson(6, 5)


def test_wilson_formula() -> None:
    k, n, z = 37, 90, Z95
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson(k, n) == pytest.approx((centre - half, centre + half), abs=1e-12)


def test_score_intervals() -> None:
    # 60 wins, 20 draws, 20 losses: mean 0.7, variance (60 + 20/4)/100 - 0.49 = 0.16.
    low, high = score_normal(60, 20, 20)
    assert (low + high) / 2 == pytest.approx(0.7)
    assert (high - low) / 2 == pytest.approx(Z95 * math.sqrt(0.16 / 100))
    boot = score_bootstrap(60, 20, 20, seed=1)
    assert boot[0] == pytest.approx(low, abs=0.02) and boot[1] == pytest.approx(high, abs=0.02)
    assert score_bootstrap(60, 20, 20, seed=1) == boot  # seeded
    # Every game alike: nothing to resample, so the Wilson interval of the score stands in.
    assert score_bootstrap(4, 0, 0) == wilson(4, 4)
    assert score_bootstrap(0, 6, 0) == wilson(3, 6)


def test_tally() -> None:
    tally = Tally()
    for result in (1, 1, 0.5, 0):
        tally = tally.add(result)
    assert tally.counts() == (2, 1, 1) and tally.games == 4 and tally.score == 0.625
    assert tally.flipped().counts() == (1, 1, 2)
    data = tally.to_json()
    assert data["win_ci"] == [round(x, 4) for x in wilson(2, 4)]
    assert data["score"] == 0.625
    with pytest.raises(ValueError, match="a game result is 1, 0.5 or 0"):
        tally.add(0.25)
    assert Tally().score == 0.5
