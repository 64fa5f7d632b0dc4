"""Ratings per game, with openskill's Plackett-Luce model (a maintained TrueSkill-like library).

A rating is a belief about skill: ``mu`` (the estimate) and ``sigma`` (its uncertainty). We show
``display`` = round(60 * mu), so a newcomer starts at 1500 like on most game sites, and call a
rating provisional while sigma is still high. The web platform and the arena share this module.

>>> a, b = Rating(), Rating()
>>> a2, b2 = rate(a, b, winner=0)
>>> a2.display > 1500 > b2.display
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DISPLAY_SCALE = 60.0  # mu 25 (openskill's default) shows as 1500
PROVISIONAL_SIGMA = 6.0  # above this (about the first dozen games) it shows as "1500?"


@dataclass(frozen=True)
class Rating:
    """One player's rating in one game."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def display(self) -> int:
        return round(self.mu * DISPLAY_SCALE)

    @property
    def deviation(self) -> int:
        """Two standard deviations on the display scale (a 95% band)."""
        return round(2 * self.sigma * DISPLAY_SCALE)

    @property
    def provisional(self) -> bool:
        return self.sigma > PROVISIONAL_SIGMA

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate (mu - 3 sigma), for leaderboards."""
        return self.mu - 3 * self.sigma

    def __str__(self) -> str:
        return f"{self.display}{'?' if self.provisional else ''}"


def rate(first: Rating, second: Rating, winner: int | None) -> tuple[Rating, Rating]:
    """New ratings after a game between ``first`` (seat 0) and ``second`` (seat 1).

    ``winner`` is 0, 1 or None for a draw.
    """
    if winner not in (0, 1, None):
        raise ValueError(f"winner must be 0, 1 or None, got {winner!r}")
    ranks = [1.0, 1.0] if winner is None else ([1.0, 2.0] if winner == 0 else [2.0, 1.0])
    teams = [[MODEL.rating(first.mu, first.sigma)], [MODEL.rating(second.mu, second.sigma)]]
    (r0,), (r1,) = MODEL.rate(teams, ranks=ranks)
    return (
        replace(first, mu=r0.mu, sigma=r0.sigma, games=first.games + 1),
        replace(second, mu=r1.mu, sigma=r1.sigma, games=second.games + 1),
    )


def win_probability(first: Rating, second: Rating) -> float:
    """The model's probability that ``first`` beats ``second``."""
    p0, _ = MODEL.predict_win(
        [[MODEL.rating(first.mu, first.sigma)], [MODEL.rating(second.mu, second.sigma)]]
    )
    return float(p0)


class RatingTable:
    """Ratings of many players in one or more games, kept in memory (the arena's view).

    The web platform stores the same ``Rating`` values in its database instead.
    """

    def __init__(self) -> None:
        self._ratings: dict[tuple[str, str], Rating] = {}

    def get(self, player: str, game: str) -> Rating:
        return self._ratings.get((player, game), Rating())

    def record(
        self, game: str, first: str, second: str, winner: int | None
    ) -> tuple[Rating, Rating]:
        """Update both players' ratings in ``game`` after one game and return the new ones."""
        if first == second:
            raise ValueError("a player cannot be rated against themselves")
        new = rate(self.get(first, game), self.get(second, game), winner)
        self._ratings[(first, game)], self._ratings[(second, game)] = new
        return new

    def record_many(self, game: str, results: Iterable[tuple[str, str, int | None]]) -> None:
        for first, second, winner in results:
            self.record(game, first, second, winner)

    def leaderboard(self, game: str) -> list[tuple[str, Rating]]:
        """Players of ``game``, best first by the conservative estimate."""
        rows = [(p, r) for (p, g), r in self._ratings.items() if g == game]
        return sorted(rows, key=lambda pr: pr[1].ordinal, reverse=True)
