"""Smoke tests of the load benchmarks (the real runs take minutes: docs/benchmarks.md): a tiny
run of each starts its servers, plays, counts and reports, so a change elsewhere cannot break
them unnoticed (one did: the cluster run lost a setting the single-process run had gained)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from .. import services

ROOT = Path(__file__).resolve().parents[2]
TINY = ["--games", "4", "--seconds", "2", "--warmup", "0.5", "--echo-seconds", "0.5"]
TINY += ["--think", "0.05"]


def run(script: str, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout


def moves_per_s(out: str) -> list[int]:
    return [int(m.replace(",", "")) for m in re.findall(r"([\d,]+) moves/s", out)]


def test_server_load_plays_and_counts_the_database_work() -> None:
    out = run("server_load.py", *TINY, "--count")
    assert moves_per_s(out) and all(n > 0 for n in moves_per_s(out)), out
    assert "errors none" in out and "move latency" in out
    assert "database work per move" in out and "statements" in out
    # each thread's CPU, the ping's, and the messages by type
    assert re.search(r"thread_cpu_ms event loop \d", out) and "thread_cpu_ms db" in out, out
    assert re.search(r"echo anchor +server CPU [\d.]+ ms a ping", out), out
    kinds = dict(re.findall(r"(\w+) ([\d.]+)", out.split("by type: ")[1].splitlines()[0]))
    # two players' states a move; acks only for leaving games (the moves ask for none)
    assert float(kinds["state"]) >= 1.5 and float(kinds.get("ack", 0)) < 0.5, out


def test_game_db_work_replays_a_games_database_work(postgres_url: str) -> None:
    for database in ([], ["--database-url", postgres_url]):
        out = run("game_db_work.py", "--games", "3", "--moves", "4", "--rounds", "1", *database)
        figures = re.findall(r"^  (.+?) +(\d+) us a (game|move)$", out, re.MULTILINE)
        assert [f[0] for f in figures] == [
            "opening a game (both players)",
            "a move's write",
            "the game's end",
            "all of it",
        ], out
        assert all(int(us) > 0 for _, us, _ in figures), out


def test_cluster_load_plays_through_the_balancer(postgres_url: str) -> None:
    if shutil.which("haproxy") is None and not Path("/usr/sbin/haproxy").exists():
        services.unavailable("HAProxy is not installed (apt-get install haproxy)")
    out = run("cluster_load.py", "--database-url", postgres_url, "--sizes", "1,2", *TINY)
    rows = re.findall(r"^(\d) process\(es\): ([\d,]+) moves/s.*errors (\d+);", out, re.MULTILINE)
    assert [size for size, _, _ in rows] == ["1", "2"], out
    assert all(int(moves.replace(",", "")) > 0 and errors == "0" for _, moves, errors in rows), out
    assert "bus messages read per process" in out


def test_http_costs_measures_each_request_on_two_servers_at_once(postgres_url: str) -> None:
    """Two servers (the same checkout twice, as a before and an after) measured in turn on
    SQLite: each phase's CPU per request, the rounds and the ratio; one on PostgreSQL."""
    src = str(ROOT / "src")
    tiny = ["--games", "3", "--rounds", "1", "--concurrency", "2"]
    for sources in (["--src", src, "--src", src], ["--database-url", postgres_url]):
        out = run("http_costs.py", *tiny, *sources)
        rows = re.findall(r"^  (\S+) +([\d.]+) +([\d.]+) +([\d.]+)$", out, re.MULTILINE)
        servers = 2 if "--src" in sources else 1
        assert [row[0] for row in rows] == [src] * servers, out
        assert all(float(ms) >= 0 for row in rows for ms in row[1:]), out
        assert len(re.findall(r"^  rounds  (create|join|get) ", out, re.MULTILINE)) == 3 * servers
        ratio = r"([\d.]+|nan)"  # nan: no tick of the CPU counted in so short a run
        found = re.findall(rf"create {ratio}, join {ratio}, get {ratio}$", out, re.MULTILINE)
        assert len(found) == servers - 1, out
