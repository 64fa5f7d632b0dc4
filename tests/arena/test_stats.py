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


def test_median_interval_uses_the_binomial_order_statistics() -> None:
    from pocketarena.arena.stats import median_interval

    # n = 40: P(Binomial(40, 1/2) <= 13) = 0.0192 and <= 14 is 0.0403, so the 14th smallest
    # and the 14th largest (the 27th smallest) bound the median.
    values = list(range(1, 41))
    assert median_interval(values) == (14, 27)
    # n = 10: j = 2 (P(X <= 1) = 0.0107, P(X <= 2) = 0.0547): 2nd smallest to 2nd largest.
    assert median_interval([5, 1, 9, 3, 7, 2, 8, 4, 6, 10]) == (2, 9)
    assert median_interval([3, 1, 2]) == (1, 3)  # too few for 95%: the whole range
    assert median_interval([7] * 50) == (7, 7)
    with pytest.raises(ValueError):
        median_interval([])


def test_mean_interval_is_the_normal_one() -> None:
    from pocketarena.arena.stats import mean_interval

    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    half = Z95 * math.sqrt(2.5) / math.sqrt(5)
    assert mean_interval(values) == pytest.approx((3 - half, 3 + half))
    assert mean_interval([4.0]) == (4.0, 4.0)
