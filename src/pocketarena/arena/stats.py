"""Confidence intervals for match results.

Win, draw and loss rates get Wilson score intervals (good for small counts and rates near 0
or 1). The score rate (a win 1, a draw 1/2) is a mean of three-valued outcomes, so it gets a
percentile bootstrap (seeded, so a report is reproducible) with the normal interval as a check.
A median (of game lengths, which are skewed and capped) gets the distribution-free interval
between two order statistics; a mean (of margins) the normal interval.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion ``successes / n``; (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..{n}, got {successes}")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def score_normal(wins: int, draws: int, losses: int, z: float = Z95) -> tuple[float, float]:
    """The normal-approximation interval of the score rate, from the outcomes' variance."""
    n = wins + draws + losses
    if n == 0:
        return (0.0, 1.0)
    mean = (wins + 0.5 * draws) / n
    variance = (wins + 0.25 * draws) / n - mean * mean
    half = z * math.sqrt(max(variance, 0.0) / n)
    return (max(0.0, mean - half), min(1.0, mean + half))


def score_bootstrap(
    wins: int, draws: int, losses: int, *, resamples: int = 4000, seed: int = 0
) -> tuple[float, float]:
    """95% percentile bootstrap interval of the score rate (a win 1, a draw 1/2, a loss 0).

    When every game had the same result the bootstrap has nothing to resample (it would say
    [1, 1] after 4 wins in 4), so then the Wilson interval of the score stands in."""
    n = wins + draws + losses
    if n == 0:
        return (0.0, 1.0)
    if max(wins, draws, losses) == n:
        return wilson(wins + 0.5 * draws, n)
    # numpy on first use: the program's every command imports this module (arena's report).
    import numpy as np

    rng = np.random.default_rng(seed)
    counts = rng.multinomial(n, [wins / n, draws / n, losses / n], size=resamples)
    scores = (counts[:, 0] + 0.5 * counts[:, 1]) / n
    low, high = np.quantile(scores, [0.025, 0.975])
    return (float(low), float(high))


def median_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Distribution-free interval for the median: the j-th smallest and j-th largest values,
    with j the largest rank such that Binomial(n, 1/2) < j has probability at most
    (1 - level) / 2. Exact for any continuous distribution; conservative with ties. Too few
    values for the level (n < 6 at 95%) give the whole range."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        raise ValueError("a median interval needs at least one value")
    tail = (1 - level) / 2
    below = 0.0  # P(Binomial(n, 1/2) < j), for j = rank + 1
    j = 0
    for k in range(n):
        below += math.comb(n, k) / 2**n
        if below > tail:
            break
        j = k + 1
    if j == 0:
        return (ordered[0], ordered[-1])
    return (ordered[j - 1], ordered[n - j])


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """Normal interval of a mean: mean +- z * sd / sqrt(n) (sd with n - 1)."""
    n = len(values)
    if n == 0:
        raise ValueError("a mean interval needs at least one value")
    mean = sum(values) / n
    if n == 1:
        return (mean, mean)
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (mean - half, mean + half)


@dataclass(frozen=True)
class Tally:
    """Wins, draws and losses from one side's view, with their rates and intervals."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """Score rate: (wins + draws / 2) / games; 1/2 before any game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def add(self, result: float) -> Tally:
        """This tally with one more game: ``result`` 1 a win, 0.5 a draw, 0 a loss."""
        if result == 1:
            return Tally(self.wins + 1, self.draws, self.losses)
        if result == 0.5:
            return Tally(self.wins, self.draws + 1, self.losses)
        if result == 0:
            return Tally(self.wins, self.draws, self.losses + 1)
        raise ValueError(f"a game result is 1, 0.5 or 0, got {result!r}")

    def flipped(self) -> Tally:
        """The same games from the other side's view."""
        return Tally(self.losses, self.draws, self.wins)

    def to_json(self, seed: int = 0) -> dict[str, object]:
        n = self.games
        return {
            "games": n,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(self.score, 4),
            "score_ci": [round(x, 4) for x in score_bootstrap(*self.counts(), seed=seed)],
            "win_rate": round(self.wins / n, 4) if n else None,
            "win_ci": [round(x, 4) for x in wilson(self.wins, n)],
            "draw_rate": round(self.draws / n, 4) if n else None,
            "draw_ci": [round(x, 4) for x in wilson(self.draws, n)],
            "loss_rate": round(self.losses / n, 4) if n else None,
            "loss_ci": [round(x, 4) for x in wilson(self.losses, n)],
        }

    def counts(self) -> tuple[int, int, int]:
        return (self.wins, self.draws, self.losses)
