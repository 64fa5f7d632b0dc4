"""The CPU one live game's database work costs the thread that does it, through ``Store``.

``server_load.py --count`` gives the server's database thread's CPU per move, but on a shared
machine that figure moves with the load: a busy run finishes fewer games per move and batches
more moves per commit, and both change the work a move carries. This replays a fixed amount of
that work on one thread and reads the thread's CPU time (``time.thread_time``, which a thread
waiting for the CPU does not advance), so a change to the store can be measured on its own:

1. each game opened as ``server_load.py``'s are (an unrated game between two guests, opened by
   one, joined by the other), with the calls the hub makes on its database thread: the open
   games counted by player and by address, the creator's guest row and rating, the new id
   checked free, the row inserted; the joiner's guest row and rating, the join's write;
2. ``--moves`` moves of every game, written in batches of ``--batch`` games (the hub's group
   commit; ``db_counts.py`` counts 1.4-2 writes a commit at 200 games), each a move's values
   (its history, version, whose turn);
3. each game's end (unrated: one versioned write).

Prints the thread's CPU per game for 1 and 3, per move for 2, and all of it per move (a game
of ``--moves`` moves), the median of ``--rounds`` rounds. ``--src`` runs another checkout's
store through the same script (a before/after pair, alternating):

    python benchmarks/game_db_work.py                                  # SQLite, a fresh file
    python benchmarks/game_db_work.py --src /path/to/other/checkout/src
    python benchmarks/game_db_work.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/DB
"""

from __future__ import annotations

import argparse
import inspect
import os
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import markdown_section  # benchmarks/markdown_section.py, beside this script

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--database-url", help="default: SQLite in a temporary folder")
    parser.add_argument("--src", default=str(ROOT / "src"), help="the checkout's src to import")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=30, help="moves a game (default 30)")
    parser.add_argument("--batch", type=int, default=2, help="writes a commit (default 2)")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, args.src)
    from sqlalchemy import create_engine, text

    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import make_engine, run_migrations, session_factory
    from pocketarena.server.models import GameRecord
    from pocketarena.server.store import Store

    folder = tempfile.mkdtemp(prefix="game_db_work_")
    schema = f"game_db_work_{os.getpid()}"
    url = args.database_url or f"sqlite:///{folder}/arena.sqlite3"
    settings = Settings(
        database_url=url,
        database_schema=schema if args.database_url else "",
        data_dir=Path(folder),
    )
    engine = make_engine(settings)
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    addr = secrets.token_hex(16)
    # the new id checked free (a checkout from before Store.game_exists loaded the row)
    exists = getattr(store, "game_exists", lambda gid: store.load_game(gid) is not None)
    # the open games counted by player and by address: one read since 2026-12-06, two before
    # (open_games(player_id=None, addr=None), each given alone)
    player = inspect.signature(store.open_games).parameters["player_id"]
    two_reads = player.default is not inspect.Parameter.empty

    def open_game(creator: str, joiner: str) -> tuple[str, int]:
        if two_reads:
            store.open_games(player_id=creator)
            store.open_games(addr=addr)
        else:
            store.open_games(creator, addr)
        store.ensure_guest(creator)
        store.rating(creator, "coin-age")
        gid = secrets.token_urlsafe(9)[:12]
        assert not exists(gid)
        store.insert_game(
            GameRecord(
                id=gid,
                game="coin-age",
                options={},
                mode="friend",
                status="waiting",
                rated=False,
                creator_id=creator,
                seat0_id=creator,
                creator_seat=0,
                invite_token=secrets.token_urlsafe(16),
                history=[],
                version=0,
                creator_addr=addr,
                created_at=store.now(),
            )
        )
        store.ensure_guest(joiner)
        store.rating(joiner, "coin-age")
        now = store.now()
        store.save_game(
            gid,
            0,
            {"seat1_id": joiner, "status": "active", "rated": False, "started_at": now}
            | {"version": 1, "turn_id": creator, "deadline": None},
        )
        return gid, 1

    def move_values(history: list[str], version: int, turn: str | None) -> dict[str, Any]:
        return {"history": history, "version": version, "turn_id": turn, "deadline": None}

    results: dict[str, list[float]] = {"open": [], "move": [], "end": [], "all": []}
    try:
        for _ in range(args.rounds):
            guests = [secrets.token_hex(16) for _ in range(2 * args.games)]
            for pid in guests:  # as the first page each player loads makes them
                store.ensure_guest(pid)
            t0 = time.thread_time()
            games = [open_game(guests[2 * i], guests[2 * i + 1]) for i in range(args.games)]
            t1 = time.thread_time()
            history: list[str] = []
            for m in range(args.moves):
                history = [*history, f"place {'LS'[m % 2]} {'abcd'[m % 4]}{m % 4 + 1}"]
                for start in range(0, len(games), args.batch):
                    batch = games[start : start + args.batch]
                    writes = [
                        (gid, v, move_values(history, v + 1, guests[m % 2])) for gid, v in batch
                    ]
                    assert all(store.save_games(writes))
                games = [(gid, v + 1) for gid, v in games]
            t2 = time.thread_time()
            for gid, v in games:
                store.finish_game(
                    gid,
                    v,
                    {"status": "finished", "winner": 0, "result": "1-0", "version": v + 1}
                    | {"termination": "normal", "finished_at": store.now(), "turn_id": None},
                    "coin-age",
                    None,
                    0,
                )
            t3 = time.thread_time()
            n, moves = args.games, args.games * args.moves
            results["open"].append((t1 - t0) / n * 1e6)
            results["move"].append((t2 - t1) / moves * 1e6)
            results["end"].append((t3 - t2) / n * 1e6)
            results["all"].append((t3 - t0) / moves * 1e6)
    finally:
        engine.dispose()
        if args.database_url:
            drop = create_engine(args.database_url)
            with drop.begin() as conn:
                conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            drop.dispose()

    def med(key: str) -> str:
        return f"{statistics.median(results[key]):.0f}"

    print(
        f"{engine.dialect.name}, {args.games} games of {args.moves} moves, batches of "
        f"{args.batch}, median of {args.rounds} rounds, thread CPU (src {args.src}):\n"
        f"  opening a game (both players)  {med('open')} us a game\n"
        f"  a move's write                 {med('move')} us a move\n"
        f"  the game's end                 {med('end')} us a game\n"
        f"  all of it                      {med('all')} us a move"
    )


if __name__ == "__main__":
    markdown_section.run(main)
