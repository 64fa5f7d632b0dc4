"""Bot replies in live games while one user floods the analysis board with evaluations.

Starts ``pocketarena serve`` (one process, its bot workers, SQLite in a temporary folder) twice:
"after", this checkout with its defaults, and "before": the code of ``--before-src`` (another
checkout's ``src``), or without it this checkout with the analysis budget lifted (no budget, a
line as long as the flood makes it). Each time ``--games``
clients play bot games over the WebSocket, and a reply is timed from sending a move to the
state where it is the client's turn again (the move's handling and the bot's answer). First
``--seconds`` without a flood, then ``--seconds`` while one client (no cookie, one address)
sends evaluations from ``--flooders`` connections at once, each sending the next as soon as the
last is answered, whatever the answer. Prints the medians and p90 of the replies, and what the
flood got (status codes, evaluations done); with ``--rounds N`` the two settings alternate N
times and the medians of the rounds are printed.

    python benchmarks/analysis_flood.py                       # 6 games vs "easy", 20 s phases
    python benchmarks/analysis_flood.py --games 10 --bot medium --seconds 30 --json
    git archive 4ced0ee src | tar -x -C /tmp/before        # the code before the budget
    python benchmarks/analysis_flood.py --before-src /tmp/before/src --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.serving import free_port  # noqa: E402  (the tests' helper)

UNLIMITED = {
    "POCKETARENA_ANALYSIS_PER_MINUTE": "1000000",
    "POCKETARENA_ADDRESS_ANALYSIS_PER_MINUTE": "1000000",
    "POCKETARENA_ANALYSIS_QUEUE": "1000000",
}
# Not exact anywhere near the start: the strongest bot searches for a second.
POSITION = {"game_id": "flipwars", "options": {}, "moves": []}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def start_server(data: Path, env: dict[str, str], src: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "pocketarena", "serve", "--port", str(port)]
        + ["--database-url", f"sqlite:///{data / 'arena.sqlite3'}", "--log-level", "warning"],
        env={
            **os.environ,
            "POCKETARENA_DATA_DIR": str(data),
            "POCKETARENA_BOT_MIN_DELAY_MS": "0",
            "PYTHONPATH": str(src),
            **env,
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            pass
        time.sleep(0.3)
    proc.kill()
    raise SystemExit("the server did not start")


async def player(
    base: str,
    game: str,
    bot: str,
    seed: int,
    phase: dict[str, str],
    replies: dict[str, list[float]],
) -> None:
    """Bot games one after another; each reply's time goes to the phase running when it came."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        await http.get("/api/me")
        cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        url = base.replace("http", "ws") + "/ws"
        async with websockets.connect(url, additional_headers={"Cookie": cookie}) as ws:
            await ws.recv()  # hello
            while phase["name"] != "done":
                r = await http.post("/api/games", json={"game": game, "mode": "bot", "bot": bot})
                if r.status_code != 201:
                    await asyncio.sleep(1)
                    continue
                gid = r.json()["id"]
                await ws.send(json.dumps({"type": "watch", "game": gid, "svg": False}))
                sent: float | None = None
                while phase["name"] != "done":
                    msg = json.loads(await ws.recv())
                    if msg["type"] != "state" or msg["game"]["id"] != gid:
                        continue
                    view, you = msg["game"], msg["you"]
                    mine = (view["node"] == "decision" and view["to_move"] in you) or (
                        view["node"] == "chance" and view["thrower"] in you
                    )
                    over = view["status"] != "active"
                    if sent is not None and (mine or over):
                        replies.setdefault(phase["name"], []).append(time.perf_counter() - sent)
                        sent = None
                    if over:
                        break
                    if not mine or sent is not None:
                        continue
                    if view["node"] == "chance":
                        out = {"type": "throw", "game": gid, "version": view["version"]}
                    else:
                        action = rng.choice(msg["legal"])
                        out = {"type": "move", "game": gid, "action": action}
                        out["version"] = view["version"]
                    await asyncio.sleep(rng.uniform(0.2, 0.6))  # a person's thinking: not timed
                    sent = time.perf_counter()
                    await ws.send(json.dumps(out))
                await ws.send(json.dumps({"type": "unwatch", "game": gid}))


async def flooder(base: str, stop: asyncio.Event, codes: dict[str, int]) -> None:
    """Evaluations one after another on one connection, no cookie, Retry-After ignored."""
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while not stop.is_set():
            http.cookies.clear()
            try:
                r = await http.post("/api/analysis/evaluate", json=POSITION)
                key = str(r.status_code)
            except httpx.HTTPError as e:
                key = type(e).__name__
            codes[key] = codes.get(key, 0) + 1


async def measure(base: str, args: argparse.Namespace) -> dict[str, Any]:
    phase = {"name": "warmup"}
    replies: dict[str, list[float]] = {}
    players = [
        asyncio.create_task(player(base, args.game, args.bot, i, phase, replies))
        for i in range(args.games)
    ]
    await asyncio.sleep(args.warmup)
    phase["name"] = "quiet"
    await asyncio.sleep(args.seconds)
    phase["name"] = "flood"
    stop, codes = asyncio.Event(), {}
    started = time.perf_counter()
    floods = [asyncio.create_task(flooder(base, stop, codes)) for _ in range(args.flooders)]
    await asyncio.sleep(args.seconds)
    stop.set()
    await asyncio.gather(*floods)
    flood_s = time.perf_counter() - started
    phase["name"] = "done"
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    out: dict[str, Any] = {"flooder": {"codes": codes, "seconds": round(flood_s, 1)}}
    for name in ("quiet", "flood"):
        ms = [t * 1000 for t in replies.get(name, [])]
        out[name] = {
            "replies": len(ms),
            "median_ms": round(statistics.median(ms), 1) if ms else None,
            "p90_ms": round(percentile(ms, 0.9), 1),
        }
    return out


def pooled(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The rounds of one configuration together: the median of each figure, codes summed."""
    codes: dict[str, int] = {}
    for r in rounds:
        for code, n in r["flooder"]["codes"].items():
            codes[code] = codes.get(code, 0) + n
    out: dict[str, Any] = {
        "flooder": {
            "codes": codes,
            "seconds": round(sum(r["flooder"]["seconds"] for r in rounds), 1),
        }
    }
    for phase in ("quiet", "flood"):
        out[phase] = {
            key: statistics.median(r[phase][key] for r in rounds if r[phase][key] is not None)
            for key in ("replies", "median_ms", "p90_ms")
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="live bot games at once")
    parser.add_argument("--game", default="flipwars")
    parser.add_argument("--bot", default="easy")
    parser.add_argument("--flooders", type=int, default=4, help="the flood's connections")
    parser.add_argument("--seconds", type=float, default=20.0, help="each phase's length")
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--rounds", type=int, default=1, help="alternated runs of each setting")
    parser.add_argument(
        "--before-src",
        type=Path,
        help="the src folder of the code to compare with (git archive REV src | tar -x -C DIR)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    # "before": another checkout's code as it is (--before-src), or this one with the budget
    # lifted; "after": this checkout with its defaults.
    before = (args.before_src, {}) if args.before_src else (ROOT / "src", UNLIMITED)
    configs = {"after": (ROOT / "src", {}), "before": before}
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in configs}
    for _ in range(args.rounds):  # alternated: a busy moment of the machine hits both
        for name, (src, env) in configs.items():
            with tempfile.TemporaryDirectory() as tmp:
                proc, base = start_server(Path(tmp), env, src)
                try:
                    runs[name].append(asyncio.run(measure(base, args)))
                finally:
                    proc.terminate()
                    proc.wait(timeout=30)
    results = {name: pooled(rounds) for name, rounds in runs.items()}
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{args.games} {args.game} games vs {args.bot}, {args.flooders} flood connections")
    for name, r in results.items():
        q, f = r["quiet"], r["flood"]
        print(
            f"{name:>9}: bot replies median {q['median_ms']} ms, p90 {q['p90_ms']} ms "
            f"(n={q['replies']}) quiet; median {f['median_ms']} ms, p90 {f['p90_ms']} ms "
            f"(n={f['replies']}) under the flood; flood got {r['flooder']['codes']} "
            f"in {r['flooder']['seconds']} s"
        )


if __name__ == "__main__":
    import markdown_section  # beside this script

    markdown_section.run(main)
