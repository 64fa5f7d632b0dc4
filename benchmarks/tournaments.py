"""What tournament pairing costs: a Swiss round of 1,000 players (goal: under 1 s), and an
arena's re-pairing each time a game ends, with the anchor measured in turns in the same run.

The Swiss: 1,000 players, rounds 1 to 5 played out with seeded random results, each round's
pairing timed (``tournaments.swiss.pair``: networkx's maximum-weight matching over windows of
16 players). The arena: 200 players; whenever a game ends its two players join the waiting
room, their sheets are recounted and the waiting room is paired (``tournaments.arena.pair``);
the time of that re-pairing per finished game. The anchor: networkx's maximum-weight matching
of one complete graph of 16 players with seeded random weights (the work one Swiss window
does), so a slower or busier machine moves both alike.

    python benchmarks/tournaments.py              # prints the section and writes it
    python benchmarks/tournaments.py --repeat 3 --no-write
"""

from __future__ import annotations

import argparse
import heapq
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import networkx as nx  # type: ignore[import-untyped]
from markdown_section import write_section

from pocketarena.tournaments import Played, arena, arena_sheet, swiss

START, END = "<!-- tournaments:start -->", "<!-- tournaments:end -->"
DOCS = Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md"


def anchor() -> Callable[[], object]:
    rng = random.Random(0)
    graph = nx.Graph()
    for i in range(16):
        for j in range(i + 1, 16):
            graph.add_edge(i, j, weight=rng.randrange(1_000_000))
    return lambda: nx.max_weight_matching(graph, maxcardinality=True)


def swiss_fields(players: int, rounds: int) -> list[tuple[list[str], list[Played]]]:
    """The inputs of each round of a seeded Swiss."""
    names = [f"p{i:04d}" for i in range(players)]
    rng = random.Random(1)
    played: list[Played] = []
    fields = []
    for _ in range(rounds):
        fields.append((names, list(played)))
        for g in swiss.pair(names, played):
            played.append(Played(g.first, g.second, rng.choice([1.0, 0.5, 0.0])))
    return fields


def arena_repairing(players: int, games: int) -> list[float]:
    """Seconds spent re-pairing after each of ``games`` finished games of a seeded arena."""
    rng = random.Random(2)
    names = [f"a{i:03d}" for i in range(players)]
    played: list[Played] = []
    mine: dict[str, list[Played]] = {p: [] for p in names}
    points = dict.fromkeys(names, 0)
    last: dict[str, str] = {}
    waiting = list(names)
    ending: list[tuple[float, int, str, str]] = []
    now = 0.0
    costs: list[float] = []
    count = 0
    while count < games:
        start = time.perf_counter()
        rank = {p: i for i, p in enumerate(sorted(names, key=lambda p: (-points[p], p)))}
        pairings = arena.pair(waiting, rank, last)
        if count:
            costs.append(time.perf_counter() - start)
        for g in pairings:
            assert g.second is not None
            waiting.remove(g.first)
            waiting.remove(g.second)
            heapq.heappush(ending, (now + rng.uniform(20, 120), count, g.first, g.second))
        now, _, a, b = heapq.heappop(ending)
        game = Played(a, b, rng.choice([1.0, 0.5, 0.0]))
        played.append(game)
        start = time.perf_counter()
        for p in (a, b):
            mine[p].append(game)
            points[p] = arena_sheet(p, mine[p]).points
            last[p] = b if p == a else a
        waiting += [a, b]
        costs[-1:] = [costs[-1] + time.perf_counter() - start] if costs else []
        count += 1
    return costs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3, help="timings of each round")
    parser.add_argument("--arena-players", type=int, default=200)
    parser.add_argument("--arena-games", type=int, default=2000)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()
    fields = swiss_fields(args.players, args.rounds)
    match16 = anchor()
    rows = []
    anchors: list[float] = []
    for k, (names, played) in enumerate(fields):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            swiss.pair(names, played)
            times.append(time.perf_counter() - start)
            start = time.perf_counter()
            match16()
            anchors.append(time.perf_counter() - start)
        rows.append((k + 1, statistics.median(times)))
    arena_costs = arena_repairing(args.arena_players, args.arena_games)
    for _ in range(args.repeat):
        start = time.perf_counter()
        match16()
        anchors.append(time.perf_counter() - start)
    unit = statistics.median(anchors)
    worst = max(t for _, t in rows)
    lines = [
        START,
        "## Tournament pairing",
        "",
        f"`python benchmarks/tournaments.py` — {datetime.now(UTC):%Y-%m-%dT%H:%MZ}, "
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} logical CPUs shared "
        f"with other work (load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} when "
        f"the run began), Python {platform.python_version()}, networkx {nx.__version__}. "
        f"Medians of {args.repeat} timings. Anchor, timed in turns with the pairings: "
        "networkx's maximum-weight matching of one complete graph of 16 players (the work of "
        f"one Swiss window): {unit * 1000:.1f} ms.",
        "",
        f"Swiss, {args.players:,} players, seeded random results:",
        "",
        "| round | pairing (s) | in anchors | goal < 1 s |",
        "| ---: | ---: | ---: | :---: |",
    ]
    for k, t in rows:
        lines.append(f"| {k} | {t:.3f} | {t / unit:.0f} | {'met' if t < 1 else 'not met'} |")
    lines += [
        "",
        f"Arena, {args.arena_players} players, {args.arena_games:,} games (each 20-120 s, "
        "simulated): re-pairing after a finished game (recount the two sheets, rank, pair the "
        f"waiting room): median {statistics.median(arena_costs) * 1000:.2f} ms, "
        f"p99 {sorted(arena_costs)[int(0.99 * len(arena_costs))] * 1000:.2f} ms "
        f"({statistics.median(arena_costs) / unit:.2f} anchors).",
        "",
        f"Slowest Swiss round: {worst:.3f} s — goal (under 1 s) "
        f"**{'met' if worst < 1 else 'not met'}**.",
        END,
    ]
    section = "\n".join(lines)
    print(section)
    if not args.no_write:
        write_section(DOCS, section, START, END)


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
