"""Arena pairings (as lichess runs them): for a fixed time, a player whose game has ended waits
and is paired again at once with a waiting player close in the standings, never the one they
have just played; points by ``scoring.arena_sheet`` (2 a win, 1 a draw, double on a streak).

The waiting players are paired by the same maximum-weight matching as the Swiss, preferring:
1. as many games as the waiting room allows (a pair of last opponents never meets);
2. the smallest differences of rank, squared (so two near pairs beat one exact and one far);
3. seats: the one who sat first less often takes the first seat.
A player left over waits for the next game to end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .matching import WINDOW, match_in_windows
from .scoring import Pairing


def pair(
    waiting: Sequence[str],
    rank: Mapping[str, int],
    last_opponent: Mapping[str, str],
    balance: Mapping[str, int] | None = None,
    *,
    window: int = WINDOW,
) -> list[Pairing]:
    """Pairings of the ``waiting`` players: ``rank`` their place in the standings (0 the
    leader; a player absent from it ranks last), ``last_opponent`` whom each played last,
    ``balance`` each one's first seats minus second seats. Deterministic."""
    if len(set(waiting)) != len(waiting):
        raise ValueError("a player is listed twice")
    seats = balance or {}
    last = len(rank)
    ordered = sorted(waiting, key=lambda p: (rank.get(p, last), p))
    place = {p: rank.get(p, last) for p in ordered}
    spread = max(place.values(), default=0) - min(place.values(), default=0)

    def tiers(a: str, b: str) -> tuple[int] | None:
        if last_opponent.get(a) == b or last_opponent.get(b) == a:
            return None
        return (spread * spread - (place[a] - place[b]) ** 2,)

    found = match_in_windows(
        ordered, tiers, (spread * spread,), perfect=lambda pairs: True, window=window
    )
    pairings = []
    for a, b in found:
        ba, bb = seats.get(a, 0), seats.get(b, 0)
        pairings.append(Pairing(a, b) if ba <= bb else Pairing(b, a))
    return pairings
