"""Tournaments: who plays whom and the table the games make, for the CLI's ``arena --kind`` and
the server's tournaments alike. Pure functions of the players and the games played so far
(no clock, no randomness, no I/O): the same inputs give the same pairings.

- ``swiss.pair``: the next round of a Swiss (networkx's maximum-weight matching);
- ``round_robin.pair``: every round of a round robin in groups of up to ten (Berger tables);
- ``arena.pair``: the waiting players of an arena, paired as their games end;
- ``scoring``: points, Buchholz and Sonneborn-Berger; the arena's points and streaks.

>>> from pocketarena.tournaments import Played, swiss, standings
>>> swiss.pair(["ann", "bob", "cy", "dee"])
[Pairing(first='ann', second='cy'), Pairing(first='bob', second='dee')]
>>> games = [Played("ann", "cy", 1.0), Played("dee", "bob", 0.5)]
>>> swiss.pair(["ann", "bob", "cy", "dee"], games)
[Pairing(first='bob', second='ann'), Pairing(first='cy', second='dee')]
>>> [(s.player, s.points) for s in standings(["ann", "bob", "cy", "dee"], games)]
[('ann', 1.0), ('bob', 0.5), ('dee', 0.5), ('cy', 0.0)]
"""

from . import arena, round_robin, swiss
from .scoring import (
    ArenaSheet,
    Pairing,
    Played,
    Standing,
    arena_sheet,
    arena_standings,
    points,
    standings,
)

KINDS = ("swiss", "round-robin", "arena")

__all__ = [
    "KINDS",
    "ArenaSheet",
    "Pairing",
    "Played",
    "Standing",
    "arena",
    "arena_sheet",
    "arena_standings",
    "points",
    "round_robin",
    "standings",
    "swiss",
]
