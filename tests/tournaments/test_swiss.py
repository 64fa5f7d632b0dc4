"""Swiss pairings: properties over random fields and results (hypothesis), checked against a
brute force over every pairing of small fields."""

from __future__ import annotations

import doctest
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pocketarena.tournaments
from pocketarena.tournaments import Pairing, Played, points, standings, swiss
from pocketarena.tournaments.swiss import History, histories


def test_the_package_examples_hold() -> None:
    assert doctest.testmod(pocketarena.tournaments).failed == 0


def every_pairing(nodes: list[str | None]) -> Iterator[list[tuple[str | None, str | None]]]:
    """Every way to pair ``nodes`` (an even count) off."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for tail in every_pairing(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *tail]


def play(
    players: list[str], rounds: int, results: list[float]
) -> Iterator[tuple[list[Played], list[Pairing]]]:
    """A Swiss of ``rounds`` rounds, the games' results taken from ``results`` in turn:
    yields the games played before each round and the round's pairings."""
    played: list[Played] = []
    take = iter(results * (1 + rounds * len(players)))
    for _ in range(rounds):
        pairings = swiss.pair(players, played)
        yield list(played), pairings
        for p in pairings:
            played.append(Played(p.first, p.second, 1.0 if p.second is None else next(take)))


def cost(
    pairs: list[tuple[str | None, str | None]],
    past: dict[str, History],
    halves: dict[str, int],
    lowest: int,
) -> tuple[int, int, int, int]:
    """What a pairing gives up, most important first: pairs who met before (and second byes),
    pairs of whom one would sit three more times in one seat than the other, the squared moves
    between score groups (the bye one group below the last), and pairs who both need the same
    seat."""
    repeats = absolute = clashes = moves = 0
    for a, b in pairs:
        if a is None or b is None:
            player = b if a is None else a
            assert player is not None
            repeats += past[player].byes > 0
            moves += (halves.get(player, 0) - lowest + 1) ** 2
            continue
        repeats += b in past[a].opponents
        ba, bb = past[a].balance, past[b].balance
        clashes += ba * bb > 0
        absolute += min(ba, bb) >= 2 or max(ba, bb) <= -2
        moves += (halves.get(a, 0) - halves.get(b, 0)) ** 2
    return repeats, absolute, moves, clashes


fields = st.integers(min_value=2, max_value=9).map(lambda n: [f"p{i}" for i in range(n)])
scores = st.lists(st.sampled_from([1.0, 0.5, 0.0]), min_size=1, max_size=40)


@settings(max_examples=60, deadline=None)
@given(players=fields, rounds=st.integers(min_value=1, max_value=8), results=scores)
def test_a_round_is_the_best_pairing_there_is(
    players: list[str], rounds: int, results: list[float]
) -> None:
    """Each player once; no pair twice and no second bye while any pairing avoids it; then no
    seat three apart while any pairing avoids it; then the fewest and smallest moves between
    score groups (sum of squared differences); then seats kept within one as far as the groups
    allow: all checked against every pairing."""
    for before, pairings in play(players, rounds, results):
        seen = [p for pairing in pairings for p in pairing.players()]
        assert sorted(seen) == sorted(players)
        assert sum(p.is_bye for p in pairings) == len(players) % 2
        past = histories(players, before)
        halves = {p: round(2 * s) for p, s in points(before).items()}
        lowest = min((halves.get(p, 0) for p in players), default=0)
        ours = cost([(p.first, p.second) for p in pairings], past, halves, lowest)
        nodes: list[str | None] = list(players) + ([None] if len(players) % 2 else [])
        best = min(cost(pairs, past, halves, lowest) for pairs in every_pairing(nodes))
        assert ours == best


@settings(max_examples=40, deadline=None)
@given(players=fields, results=scores)
def test_seats_stay_within_one_and_byes_come_once(players: list[str], results: list[float]) -> None:
    """Over half as many rounds as players (while Dirac's theorem promises a pairing of players
    who have not met), no pair meets twice, no one has two byes, and each player's first and
    second seats stay within two of each other (within one where the score groups allow: the
    test above)."""
    rounds = max(1, (len(players) + 1) // 2)
    before: list[Played] = []
    for before, _ in play(players, rounds, results):
        past = histories(players, before)
        assert all(abs(h.balance) <= 2 for h in past.values()), past
        assert all(h.byes <= 1 for h in past.values())
        met = [frozenset((g.first, g.second)) for g in before if g.second is not None]
        assert len(met) == len(set(met))


@settings(max_examples=40, deadline=None)
@given(players=fields, rounds=st.integers(min_value=1, max_value=5), results=scores)
def test_the_same_games_give_the_same_pairings(
    players: list[str], rounds: int, results: list[float]
) -> None:
    """Twice the same call, and the games of each round listed in another order: the same
    pairings."""
    for before, pairings in play(players, rounds, results):
        assert swiss.pair(players, before) == pairings
        shuffled: list[Played] = []
        per_round = len(players) // 2 + len(players) % 2
        for start in range(0, len(before), per_round):
            chunk = before[start : start + per_round]
            random.Random(start).shuffle(chunk)
            shuffled.extend(chunk)
        assert swiss.pair(players, shuffled) == pairings


def test_a_big_field_is_paired_in_windows_without_repeats() -> None:
    """201 players, 6 rounds: the windows still pair everyone, never twice, one bye each at
    most, and most games of the last round inside a score group."""
    players = [f"p{i:03d}" for i in range(201)]
    rng = random.Random(7)
    played: list[Played] = []
    for _ in range(6):
        pairings = swiss.pair(players, played)
        assert sorted(p for g in pairings for p in g.players()) == players
        for g in pairings:
            played.append(Played(g.first, g.second, rng.choice([1.0, 0.5, 0.0])))
    met = [frozenset((g.first, g.second)) for g in played if g.second is not None]
    assert len(met) == len(set(met))
    byes = [g.first for g in played if g.second is None]
    assert len(byes) == len(set(byes)) == 6
    totals = points(played[: -len(pairings)])
    inside = sum(totals.get(g.first, 0) == totals.get(g.second or "", -1) for g in pairings)
    assert inside >= 0.75 * len(pairings)


def test_the_bye_goes_to_the_lowest_ranked_who_has_not_had_one() -> None:
    players = ["a", "b", "c", "d", "e"]
    first = swiss.pair(players)
    assert first[-1] == Pairing("e", None)
    # e had the bye and won its point; the lowest now is whoever lost without a bye.
    played = [Played(g.first, g.second, 1.0) for g in first]
    second = swiss.pair(players, played)
    bye = second[-1]
    assert bye.is_bye and bye.first != "e"
    losers = [g.second for g in first if g.second is not None]
    assert bye.first == max(losers, key=players.index)


def test_tie_breaks_buchholz_and_sonneborn_berger() -> None:
    players = ["a", "b", "c", "d"]
    games = [
        Played("a", "b", 1.0),
        Played("c", "d", 0.5),
        Played("a", "c", 0.0),
        Played("d", "b", 1.0),
    ]
    # points: a 1, b 0, c 1.5, d 1.5
    table = {s.player: s for s in standings(players, games)}
    assert table["c"].points == 1.5 and table["d"].points == 1.5
    # c met d (1.5) and a (1): Buchholz 2.5; d met c (1.5) and b (0): 1.5.
    assert table["c"].buchholz == 2.5 and table["d"].buchholz == 1.5
    # SB: c drew d (0.75) and beat a (1) -> 1.75; d drew c (0.75), beat b (0) -> 0.75.
    assert table["c"].sonneborn_berger == 1.75 and table["d"].sonneborn_berger == 0.75
    assert [s.player for s in standings(players, games)] == ["c", "d", "a", "b"]
    assert table["a"].wins == 1 and table["a"].losses == 1


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="listed twice"):
        swiss.pair(["a", "a"])
    with pytest.raises(ValueError, match="needs a name"):
        swiss.pair(["a", ""])
    with pytest.raises(ValueError, match="1, 0.5 or 0"):
        Played("a", "b", 0.3)
    with pytest.raises(ValueError, match="themselves"):
        Played("a", "a", 1.0)
