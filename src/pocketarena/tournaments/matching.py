"""The best pairing of a list of players by networkx's maximum-weight matching (Edmonds'
blossom algorithm), with what makes one pairing better than another given as *tiers*: a
tuple of non-negative integers per pair, compared in order, so the first tier is never traded
for any amount of the second. Each tier becomes a digit of one integer weight, wide enough
that the sum over a whole pairing keeps that order.

networkx's matching is pure Python and grows faster than the square of the players, so a big
field is matched in windows of ``window`` consecutive players (the caller's order: best
first); a window that can only be paired by giving up a top tier (a repeat, say) takes in the
next window and tries again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

N = TypeVar("N")
Tiers = Callable[[N, N], "tuple[int, ...] | None"]

WINDOW = 16


def _units(maxima: Sequence[int], pairs: int) -> list[int]:
    """The place value of each tier: one unit of a tier outweighs ``pairs`` pairs at the
    largest values of every tier below it."""
    units = [1] * len(maxima)
    for k in range(len(maxima) - 2, -1, -1):
        units[k] = units[k + 1] * (pairs * maxima[k + 1] + 1)
    return units


def match(nodes: Sequence[N], tiers: Tiers[N], maxima: Sequence[int]) -> list[tuple[int, int]]:
    """The pairs (as index pairs ``i < j`` into ``nodes``, sorted) of a matching with the most
    pairs, and among those the best by ``tiers``; ``tiers(a, b)`` None means a and b may not
    meet. ``maxima`` bounds each tier's values."""
    # networkx on first use: importing it costs a command or a server start 0.15 s of CPU.
    import networkx as nx  # type: ignore[import-untyped]

    units = _units(maxima, len(nodes) // 2 + 1)
    graph = nx.Graph()
    graph.add_nodes_from(range(len(nodes)))
    for i in range(len(nodes)):
        for j in range(i + 1, len(nodes)):
            values = tiers(nodes[i], nodes[j])
            if values is None:
                continue
            # +1: a pair worth nothing in every tier still beats no pair.
            weight = 1 + sum(v * u for v, u in zip(values, units, strict=True))
            graph.add_edge(i, j, weight=weight)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    return sorted((min(a, b), max(a, b)) for a, b in found)


def match_in_windows(
    nodes: Sequence[N],
    tiers: Tiers[N],
    maxima: Sequence[int],
    *,
    perfect: Callable[[list[tuple[N, N]]], bool],
    window: int = WINDOW,
) -> list[tuple[N, N]]:
    """``match`` over consecutive windows of ``nodes`` (an even number each, but the last);
    a window that leaves a node unpaired, or whose pairs ``perfect`` refuses, is widened by
    the next window until it passes or takes in every remaining node. Returns the pairs
    themselves, in order."""
    pairs: list[tuple[N, N]] = []
    start = 0
    while start < len(nodes):
        size = max(2, window - window % 2)
        while True:
            end = len(nodes) if len(nodes) - start - size < size // 2 else start + size
            part = nodes[start:end]
            found = [(part[i], part[j]) for i, j in match(part, tiers, maxima)]
            if end == len(nodes) or (2 * len(found) == len(part) and perfect(found)):
                break
            size *= 2
        pairs.extend(found)
        start = end
    return pairs
