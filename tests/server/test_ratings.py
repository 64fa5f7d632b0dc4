"""Ratings per game (openskill)."""

from __future__ import annotations

import pytest

from pocketarena.ratings import Rating, RatingTable, rate, win_probability


def test_a_win_moves_ratings_apart_and_counts_games() -> None:
    a, b = rate(Rating(), Rating(), winner=0)
    assert a.mu > Rating().mu > b.mu
    assert a.sigma < Rating().sigma and b.sigma < Rating().sigma
    assert (a.games, b.games) == (1, 1)
    assert a.display > 1500 > b.display
    b2, a2 = rate(b, a, winner=1)  # the same result seen from the other seat
    assert a2.mu > a.mu and b2.mu < b.mu


def test_a_draw_between_equals_keeps_them_equal() -> None:
    a, b = rate(Rating(), Rating(), winner=None)
    assert a.mu == pytest.approx(b.mu)
    assert a.sigma < Rating().sigma


def test_provisional_until_enough_games() -> None:
    r = Rating()
    assert r.provisional and str(r) == "1500?"
    opp = Rating()
    for i in range(30):
        r, opp = rate(r, opp, winner=i % 2)
    assert not r.provisional


def test_upsets_move_more_than_expected_wins() -> None:
    strong, weak = Rating(mu=35, sigma=3), Rating(mu=15, sigma=3)
    assert win_probability(strong, weak) > 0.9
    s1, _ = rate(strong, weak, winner=0)
    s2, _ = rate(strong, weak, winner=1)
    assert abs(s2.mu - strong.mu) > abs(s1.mu - strong.mu)


def test_bad_winner_is_refused() -> None:
    with pytest.raises(ValueError, match="winner"):
        rate(Rating(), Rating(), winner=2)


def test_table_per_game() -> None:
    table = RatingTable()
    table.record_many("flipwars", [("ann", "bob", 0), ("ann", "cat", 0), ("bob", "cat", None)])
    assert [p for p, _ in table.leaderboard("flipwars")][0] == "ann"
    assert table.get("ann", "stack-a-cash") == Rating()
    with pytest.raises(ValueError, match="themselves"):
        table.record("flipwars", "ann", "ann", 0)
