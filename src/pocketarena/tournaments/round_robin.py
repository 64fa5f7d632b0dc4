"""Round robin: the players split into groups of up to ten (seeds dealt as a snake, so the
groups are alike in strength and differ in size by one at most); in each group everyone meets
everyone once, by the circle method (Berger tables), seats alternating so each player's first
and second seats differ by one at most. An odd group gives one bye a round."""

from __future__ import annotations

from collections.abc import Sequence

from .scoring import Pairing

GROUP = 10


def groups(players: Sequence[str], size: int = GROUP) -> list[list[str]]:
    """``players`` (seed order) dealt into ``ceil(n / size)`` groups: seed 1 to group 1, seed 2
    to group 2, ..., then back the other way."""
    if size < 2:
        raise ValueError(f"a group has at least 2 players, got {size}")
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")
    count = max(1, -(-len(players) // size))
    dealt: list[list[str]] = [[] for _ in range(count)]
    for i, player in enumerate(players):
        lap, place = divmod(i, count)
        dealt[place if lap % 2 == 0 else count - 1 - place].append(player)
    return dealt


def schedule(group: Sequence[str]) -> list[list[Pairing]]:
    """Every round of one group (Berger tables): ``len(group) - 1`` rounds, or ``len(group)``
    when odd (each player sits out once, as a bye)."""
    field: list[str | None] = list(group)
    if len(field) % 2:
        field.append(None)
    n = len(field)
    rounds: list[list[Pairing]] = []
    # The last player stays put; the others turn round the circle one place a round.
    circle = field[:-1]
    fixed = field[-1]
    for r in range(n - 1):
        table: list[Pairing] = []
        order = circle[r:] + circle[:r]
        pairs = [(order[0], fixed)] + [(order[k], order[n - 1 - k]) for k in range(1, n // 2)]
        for k, (a, b) in enumerate(pairs):
            # The fixed player swaps seats every round, and the even boards are turned round:
            # then everyone's first and second seats stay within one of each other after
            # every round, not only at the end.
            if (k == 0 and r % 2 == 1) or (k > 0 and k % 2 == 0):
                a, b = b, a
            if a is None or b is None:
                table.append(Pairing(b if a is None else a, None))  # type: ignore[arg-type]
            else:
                table.append(Pairing(a, b))
        table.sort(key=lambda p: p.second is None)  # the bye last
        rounds.append(table)
    return rounds


def pair(players: Sequence[str], size: int = GROUP) -> list[list[Pairing]]:
    """The whole tournament's rounds: round ``k`` holds round ``k`` of every group."""
    per_group = [schedule(g) for g in groups(players, size)]
    total = max((len(s) for s in per_group), default=0)
    return [[p for s in per_group if k < len(s) for p in s[k]] for k in range(total)]
