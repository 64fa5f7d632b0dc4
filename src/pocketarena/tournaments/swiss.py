"""Swiss pairings: every round pairs players of the same points where it can, never the same two
twice while any other pairing exists, keeps each player's first and second seats within one of
each other where the score groups allow (and never more than two apart while any pairing
avoids it), and gives an odd player out a bye: the lowest-ranked player who has not had one.

What the pairing prefers, in this order (``matching`` makes each outweigh all below it):

1. no two players who have met before (nor a second bye for anyone);
2. seats, absolutely: never two players who both sat first (or both second) two more times
   than the other seat (one of them would be three apart, as FIDE's absolute colour rule);
3. points: the squared difference of the two players' points, the smaller the better (so one
   player moving down a group beats two moving half as far; a bye counts as a group below the
   last);
4. seats: never two players who both need the same seat (both sat first more often);
5. the bye to the lowest-ranked player it may go to;
6. inside a group, the top half against the bottom half (1 v 5, 2 v 6, ... of 8), as FIDE's
   Dutch system does.

Ranking for the pairing: points, then seed order (the ``players`` list's order).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .matching import WINDOW, match_in_windows
from .scoring import Pairing, Played, points


@dataclass
class History:
    """What the pairing needs to know of a player's past games."""

    opponents: set[str]
    balance: int = 0  # first seats minus second seats
    last_seat: int | None = None  # 0 first, 1 second, in their last game
    games: int = 0
    byes: int = 0


def histories(players: Sequence[str], played: Iterable[Played]) -> dict[str, History]:
    seen = {p: History(opponents=set()) for p in players}
    for game in played:
        for seat, player in enumerate((game.first, game.second)):
            if player is None or player not in seen:
                continue
            mine = seen[player]
            if game.second is None:
                mine.byes += 1
                continue
            other = game.second if seat == 0 else game.first
            mine.opponents.add(other)
            mine.balance += 1 if seat == 0 else -1
            mine.last_seat = seat
            mine.games += 1
    return seen


def seats(a: str, b: str, past: dict[str, History], ranked: dict[str, int]) -> Pairing:
    """Who of a and b sits first: the one with fewer first seats; else the one who sat
    second last time; else the higher ranked on even games played, the lower on odd (so
    neither is always first)."""
    ha, hb = past[a], past[b]
    if ha.balance != hb.balance:
        return Pairing(a, b) if ha.balance < hb.balance else Pairing(b, a)
    if ha.last_seat != hb.last_seat and None not in (ha.last_seat, hb.last_seat):
        return Pairing(a, b) if ha.last_seat == 1 else Pairing(b, a)
    high, low = (a, b) if ranked[a] < ranked[b] else (b, a)
    return Pairing(high, low) if past[high].games % 2 == 0 else Pairing(low, high)


_BYE = ""  # the bye's node: no player is named "" (``pair`` refuses one)


def pair(
    players: Sequence[str], played: Iterable[Played] = (), *, window: int = WINDOW
) -> list[Pairing]:
    """The next round's pairings for ``players`` (those still in, in seed order, strongest
    first) given every game played so far (withdrawn players' included: they count as met).
    The same inputs give the same pairings. Byes come last; the rest in ranking order."""
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    if any(not p for p in players):
        raise ValueError("a player needs a name")
    games = list(played)
    past = histories(players, games)
    totals = points(games)
    seed = {p: i for i, p in enumerate(players)}
    ranked = sorted(players, key=lambda p: (-totals.get(p, 0.0), seed[p]))
    rank = {p: i for i, p in enumerate(ranked)}
    halves = {p: round(2 * totals.get(p, 0.0)) for p in players}
    lowest = min(halves.values(), default=0)
    halves[_BYE] = lowest - 1  # the bye sits below the last group
    group_size: dict[int, int] = {}
    group_place: dict[str, int] = {}
    for p in ranked:
        group_place[p] = group_size.get(halves[p], 0)
        group_size[halves[p]] = group_place[p] + 1
    spread = max(halves.values()) - halves[_BYE]
    largest = max(group_size.values(), default=1)
    maxima = (1, 1, spread * spread, 1, len(players), largest)
    nodes = ranked + ([_BYE] if len(players) % 2 else [])
    someone_may_have_a_bye = any(past[p].byes == 0 for p in players)

    def tiers(a: str, b: str) -> tuple[int, int, int, int, int, int]:
        distance = (halves[a] - halves[b]) ** 2
        if _BYE in (a, b):
            player = b if a == _BYE else a
            fresh = past[player].byes == 0 or not someone_may_have_a_bye
            return (int(fresh), 1, spread * spread - distance, 1, rank[player], 0)
        fresh = b not in past[a].opponents
        ba, bb = past[a].balance, past[b].balance
        seats_ok = not (ba * bb > 0)
        seats_bearable = not (min(ba, bb) >= 2 or max(ba, bb) <= -2)
        halfway = 0
        if halves[a] == halves[b]:
            size = group_size[halves[a]]
            gap = abs(group_place[a] - group_place[b])
            halfway = largest - abs(gap - size // 2)
        return (
            int(fresh),
            int(seats_bearable),
            spread * spread - distance,
            int(seats_ok),
            0,
            halfway,
        )

    def perfect(pairs: list[tuple[str, str]]) -> bool:
        return all(tiers(a, b)[0] == 1 for a, b in pairs)

    found = match_in_windows(nodes, tiers, maxima, perfect=perfect, window=window)
    games_ = []
    byes = []
    for a, b in found:
        if _BYE in (a, b):
            byes.append(Pairing(b if a == _BYE else a, None))
        else:
            games_.append(seats(a, b, past, rank))
    games_.sort(key=lambda g: min(rank[g.first], rank[g.second or g.first]))
    return games_ + byes
