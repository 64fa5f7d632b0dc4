"""The sweep of turn-based deadlines on PostgreSQL: 10,000 games in progress, each with the
deadline of the move it awaits, beside many finished games (no deadline).

Measures, as medians of ``--runs`` reads, the time ``Store.due_turns`` takes to find the due
games (the query every process of a cluster may run every 10 s; goal: under 50 ms), shows
PostgreSQL's plan for it (an index range scan on ``ix_games_deadline``), then has a hub end
the ``--due`` overdue games in one sweep (each read, finished on time and written against its
version) and reports the time per game ended. ``--write`` puts the table into
docs/scaling.md between its markers.

    python benchmarks/turn_sweep.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import random
import statistics
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import markdown_section  # benchmarks/markdown_section.py, beside this script
from sqlalchemy import create_engine, insert, text

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.live import sweeps
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.live.session import DAYS_PER_MOVE
from pocketarena.server.models import GameRecord, Player
from pocketarena.server.store import Store

ROOT = Path(__file__).resolve().parent.parent
START = "<!-- turn-sweep:start -->"
END = "<!-- turn-sweep:end -->"
NOW = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
# A move played in Stack-a-Cash's opening, so every game replays when the sweep loads it.
FIRST_MOVE = "place L b2"


def rows(games: int, due: int, finished: int, players: int) -> list[dict[str, Any]]:
    """``games`` games in progress (``due`` of them overdue) and ``finished`` finished ones,
    between ``players`` players."""
    rng = random.Random(7)
    out = []
    for i in range(games + finished):
        a, b = rng.sample(range(players), 2)
        active = i < games
        days = rng.choice(DAYS_PER_MOVE)
        if not active:
            deadline = None
        elif i < due:
            deadline = NOW - timedelta(minutes=rng.uniform(1, 600))
        else:
            deadline = NOW + timedelta(days=rng.uniform(0.01, days))
        out.append(
            {
                "id": f"b{i:07d}",
                "game": "stack-a-cash",
                "options": {},
                "mode": "friend",
                "status": "active" if active else "finished",
                "rated": False,
                "creator_id": f"p{a}",
                "seat0_id": f"p{a}",
                "seat1_id": f"p{b}",
                "creator_seat": 0,
                "history": [FIRST_MOVE],
                "version": 2,
                "days_per_move": days,
                "deadline": deadline,
                "turn_id": f"p{b}" if active else None,
                "created_at": NOW - timedelta(days=20),
                "started_at": NOW - timedelta(days=20),
                "updated_at": NOW - timedelta(days=1),
            }
        )
    return out


def measure(args: argparse.Namespace) -> dict[str, Any]:
    schema = f"bench_{uuid.uuid4().hex[:10]}"
    admin = create_engine(args.database_url)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            settings = Settings(
                data_dir=Path(tmp),
                database_url=args.database_url,
                database_schema=schema,
                bot_executor="thread",
                bot_workers=1,
            )
            engine = make_engine(settings)
            run_migrations(engine)
            store = Store(engine, session_factory(engine))
            with engine.begin() as conn:
                conn.execute(
                    insert(Player),
                    [
                        {"id": f"p{i}", "name": f"Player {i}", "kind": "account"}
                        for i in range(args.players)
                    ],
                )
                data = rows(args.games, args.due, args.finished, args.players)
                for start in range(0, len(data), 5000):
                    conn.execute(insert(GameRecord), data[start : start + 5000])
                conn.execute(text("ANALYZE games"))
            with engine.connect() as conn:
                plan = conn.execute(
                    text(
                        "EXPLAIN SELECT id FROM games WHERE deadline <= :now "
                        "AND status = 'active' ORDER BY deadline LIMIT 500"
                    ),
                    {"now": NOW},
                ).all()
            found = store.due_turns(NOW)
            assert len(found) == min(args.due, 500), len(found)
            times = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                store.due_turns(NOW)
                times.append((time.perf_counter() - t0) * 1000)
            bots = BotRunner("thread", 1, 5.0)
            hub = Hub(store, settings, bots, now=lambda: NOW)

            async def sweep() -> tuple[int, float]:
                t0 = time.perf_counter()
                ended = await sweeps.turns(hub)
                took = time.perf_counter() - t0
                await hub.close()
                return ended, took

            ended, took = asyncio.run(sweep())
            assert ended == min(args.due, 500), ended
            after = []
            for _ in range(args.runs):
                t0 = time.perf_counter()
                left = store.due_turns(NOW)
                after.append((time.perf_counter() - t0) * 1000)
            assert left == [], left
            bots.close()
            engine.dispose()
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
    return {
        "find_ms": statistics.median(times),
        "find_max_ms": max(times),
        "idle_ms": statistics.median(after),
        "ended": ended,
        "sweep_s": took,
        "plan": [r[0] for r in plan],
    }


def table(args: argparse.Namespace, r: dict[str, Any]) -> str:
    per_minute = 60 / 10  # the sweep runs every 5 heartbeats of 2 s
    lines = [
        START,
        f"{args.games:,} turn-based games in progress (deadlines over 1-14 days, {args.due} "
        f"overdue) beside {args.finished:,} finished games, PostgreSQL, "
        f"{platform.machine()} ({platform.python_version()}), medians of {args.runs} reads:",
        "",
        "| measure | value |",
        "|---|---|",
        f"| find the due games (`Store.due_turns`) | {r['find_ms']:.2f} ms (max {r['find_max_ms']:.2f}) |",
        f"| the same with nothing due | {r['idle_ms']:.2f} ms |",
        f"| a sweep's reads per minute with nothing due (6 sweeps) | "
        f"{r['idle_ms'] * per_minute:.1f} ms |",
        f"| end the {r['ended']} overdue games (load, finish on time, write) | "
        f"{r['sweep_s']:.2f} s, {r['sweep_s'] / max(1, r['ended']) * 1000:.1f} ms a game |",
        "",
        "PostgreSQL's plan for the query:",
        "",
        "```",
        *r["plan"],
        "```",
        END,
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--due", type=int, default=100)
    parser.add_argument("--finished", type=int, default=50_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--runs", type=int, default=21)
    parser.add_argument("--write", action="store_true", help="update docs/scaling.md")
    args = parser.parse_args()
    result = measure(args)
    text_out = table(args, result)
    print(text_out)
    if args.write:
        markdown_section.write_section(ROOT / "docs" / "scaling.md", text_out, START, END)


if __name__ == "__main__":
    markdown_section.run(main)
