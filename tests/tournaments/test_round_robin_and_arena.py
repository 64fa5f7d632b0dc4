"""Round robin schedules (every pair once, seats within one after every round, groups of up to
ten) and the arena: its pairing of waiting players and its points with streaks and berserk."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pocketarena.tournaments import Played, arena, arena_sheet, arena_standings, round_robin


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=35))
def test_round_robin_meets_everyone_in_the_group_once_with_balanced_seats(n: int) -> None:
    players = [f"p{i}" for i in range(n)]
    groups = round_robin.groups(players)
    assert sorted(p for g in groups for p in g) == sorted(players)
    assert all(len(g) <= 10 for g in groups)
    assert max(map(len, groups)) - min(map(len, groups)) <= 1
    group_of = {p: k for k, g in enumerate(groups) for p in g}
    met: list[frozenset[str]] = []
    balance = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    for table in round_robin.pair(players):
        seen = [p for pairing in table for p in pairing.players()]
        assert len(seen) == len(set(seen))
        for pairing in table:
            if pairing.second is None:
                byes[pairing.first] += 1
                continue
            assert group_of[pairing.first] == group_of[pairing.second]
            met.append(frozenset(pairing.players()))
            balance[pairing.first] += 1
            balance[pairing.second] -= 1
        assert all(abs(b) <= 1 for b in balance.values())
    expected = {frozenset(pair) for g in groups for pair in itertools.combinations(g, 2)}
    assert len(met) == len(set(met)) and set(met) == expected
    assert all(byes[p] == len(groups[group_of[p]]) % 2 for p in players)


def test_round_robin_groups_are_dealt_as_a_snake() -> None:
    players = [f"s{i}" for i in range(1, 13)]
    assert round_robin.groups(players) == [
        ["s1", "s4", "s5", "s8", "s9", "s12"],
        ["s2", "s3", "s6", "s7", "s10", "s11"],
    ]
    with pytest.raises(ValueError, match="listed twice"):
        round_robin.groups(["a", "a"])


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=0, max_value=30),
    lasts=st.lists(st.tuples(st.integers(0, 29), st.integers(0, 29)), max_size=20),
)
def test_arena_pairs_waiting_players_never_with_their_last_opponent(
    n: int, lasts: list[tuple[int, int]]
) -> None:
    waiting = [f"w{i}" for i in range(n)]
    last = {f"w{a}": f"w{b}" for a, b in lasts if a != b}
    rank = {p: i for i, p in enumerate(reversed(waiting))}
    pairings = arena.pair(waiting, rank, last)
    seen = [p for g in pairings for p in g.players()]
    assert len(seen) == len(set(seen)) and set(seen) <= set(waiting)
    assert all(g.second is not None for g in pairings)
    for g in pairings:
        assert last.get(g.first) != g.second and last.get(g.second or "") != g.first
    # As many games as the waiting room allows: only last opponents are kept apart.
    if not last:
        assert len(seen) == n - n % 2
    assert arena.pair(waiting, rank, last) == pairings


def test_arena_pairs_neighbours_in_the_standings() -> None:
    waiting = ["a", "b", "c", "d"]
    rank = {"a": 0, "b": 1, "c": 2, "d": 3}
    pairs = {frozenset(g.players()) for g in arena.pair(waiting, rank, {})}
    assert pairs == {frozenset("ab"), frozenset("cd")}
    # a has just played b: the next best is a v c and b v d.
    pairs = {frozenset(g.players()) for g in arena.pair(waiting, rank, {"a": "b", "b": "a"})}
    assert pairs == {frozenset("ac"), frozenset("bd")}
    # Two players who have just met wait rather than meet again.
    assert arena.pair(["a", "b"], rank, {"a": "b", "b": "a"}) == []
    # The seat goes to the one who sat first less.
    assert arena.pair(["a", "b"], rank, {}, {"a": 1, "b": 0})[0].first == "b"


def test_arena_points_double_on_a_streak_and_berserk_adds_one() -> None:
    games = [
        Played("me", "x", 1.0),  # 2
        Played("y", "me", 0.0),  # 2: two wins, on fire
        Played("me", "z", 1.0, berserk=("me",)),  # 4 + 1
        Played("me", "x", 0.5),  # 2 (double), the streak ends
        Played("me", "y", 1.0),  # 2
        Played("me", "z", 0.0),  # 0
        Played("x", "y", 1.0),  # not mine
    ]
    sheet = arena_sheet("me", games)
    assert sheet.scores == (2, 2, 5, 2, 2, 0)
    assert sheet.points == 13 and not sheet.on_fire
    assert (sheet.wins, sheet.draws, sheet.losses) == (4, 1, 1)
    assert arena_sheet("me", games[:3]).on_fire
    table = arena_standings(["x", "me", "y", "z"], games)
    assert [s.player for s in table][0] == "me"
