"""Re-run the attacker's and unlucky user's probes of the hardening issue against a real
``pocketarena serve`` and print what each gives (and, with ``--json``, the figures as JSON).

Clients take different loopback addresses (127.0.0.x) so that "one address" and "another
address" are real sockets, with no proxy in between:

    python scripts/probe_hardening.py                          # SQLite in a temporary folder
    python scripts/probe_hardening.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/test

The probes: a cookie-less flood of seeks (and whether a real user still plays), the same
flood with lobby watchers, 1,000 WebSockets from one client, sessions (sign-out, sign-in,
wrong passwords), malformed input of every kind named in the issue (HTTP, WebSocket, the
``verify`` command), rating farming with guests, ``kill -9`` (processes left, the clock of a
timed game across the crash, file modes) and Ctrl-C after a bot game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import stat
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import create_engine, text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.server.serving import Served, marked_processes  # noqa: E402  (the tests' helper)

FLOOD, USER, WATCHERS, SOCKETS = "127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"
SEEK = {"game": "flipwars", "mode": "seek"}
DEEP = '{"a":' * 100_000 + "1" + "}" * 100_000


def http_from(server: Served, address: str) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=address)
    return httpx.Client(base_url=server.url, timeout=30, transport=transport)


def ws_url(server: Served) -> str:
    return server.url.replace("http", "ws") + "/ws"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def flood(server: Served, count: int, seconds: float | None = None) -> dict[str, int]:
    """Cookie-less seeks from one address: ``count`` of them, or for ``seconds``."""
    codes: dict[str, int] = {}
    with http_from(server, FLOOD) as http:
        started = time.monotonic()
        n = 0
        while (n < count) if seconds is None else (time.monotonic() - started < seconds):
            http.cookies.clear()
            spoof = {"X-Forwarded-For": f"10.0.{n % 250}.{n % 200}"}  # ignored: no trusted proxy
            status = http.post("/api/games", json=SEEK, headers=spoof).status_code
            codes[str(status)] = codes.get(str(status), 0) + 1
            n += 1
        codes["seconds"] = round(time.monotonic() - started, 2)  # type: ignore[assignment]
    return codes


def probe_flood(server: Served) -> dict[str, Any]:
    codes = flood(server, 170)
    with http_from(server, USER) as user:
        r = user.post("/api/games", json=SEEK)
        seeks = user.get("/api/lobby").json()["seeks"]
    return {
        "requests": 170,
        "answers": codes,
        "server_5xx": sum(v for k, v in codes.items() if k.startswith("5")),
        "real_user_status": r.status_code,
        "real_seek_in_lobby": r.status_code == 201 and r.json()["id"] in [s["id"] for s in seeks],
        "lobby_seeks_shown": len(seeks),
    }


async def watch_lobby(server: Served, stop: asyncio.Event, tally: dict[str, int]) -> None:
    async with websockets.connect(ws_url(server), local_addr=(WATCHERS, 0), max_size=2**24) as ws:
        await ws.recv()  # hello
        await ws.send(json.dumps({"type": "lobby"}))
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(ws.recv(), 0.2)
            except TimeoutError:
                continue
            tally["messages"] += 1
            tally["bytes"] += len(raw)


async def probe_lobby_load(server: Served, watchers: int, seconds: float) -> dict[str, Any]:
    stop = asyncio.Event()
    tally = {"messages": 0, "bytes": 0}
    tasks = [asyncio.create_task(watch_lobby(server, stop, tally)) for _ in range(watchers)]
    await asyncio.sleep(1.0)
    base = dict(tally)
    cpu0 = cpu_seconds(server.proc.pid)  # type: ignore[union-attr]
    codes = await asyncio.to_thread(flood, server, 0, seconds)
    cpu1 = cpu_seconds(server.proc.pid)  # type: ignore[union-attr]
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*tasks)
    return {
        "watchers": watchers,
        "flood_seconds": seconds,
        "flood_answers": codes,
        "lobby_messages": tally["messages"] - base["messages"],
        "lobby_bytes": tally["bytes"] - base["bytes"],
        "server_cpu_share": round((cpu1 - cpu0) / codes["seconds"], 2),
    }


async def probe_sockets(server: Served, count: int) -> dict[str, Any]:
    opened, refused, other = [], 0, 0
    started = time.monotonic()
    for _ in range(count):
        try:
            ws = await websockets.connect(ws_url(server), local_addr=(SOCKETS, 0))
            first = json.loads(await ws.recv())
        except Exception:
            other += 1
            continue
        if first["type"] == "hello":
            opened.append(ws)
        else:
            refused += 1
            await ws.close()
    took = time.monotonic() - started
    for ws in opened:
        await ws.close()
    return {
        "tried": count,
        "opened": len(opened),
        "refused": refused,
        "failed": other,
        "seconds": round(took, 2),
    }


def probe_sessions(server: Served) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with http_from(server, USER) as a, http_from(server, USER) as b:
        a.get("/api/me")
        guest_cookie = a.cookies["pa_session"]
        account = a.post(
            "/api/auth/register",
            json={"username": f"p{uuid.uuid4().hex[:8]}", "password": "correct horse"},
        ).json()
        out["register_rotates_cookie"] = a.cookies["pa_session"] != guest_cookie
        before = a.cookies["pa_session"]
        a.post("/api/auth/logout")
        b.cookies.set("pa_session", before)
        out["after_logout_old_cookie_is"] = b.get("/api/me").json()["kind"]
        tokens = set()
        for _ in range(2):
            b.cookies.clear()
            b.post(
                "/api/auth/login",
                json={"username": account["username"], "password": "correct horse"},
            )
            tokens.add(b.cookies["pa_session"])
        out["two_sign_ins_two_cookies"] = len(tokens) == 2
        codes = []
        for i in range(8):
            b.cookies.clear()
            codes.append(
                b.post(
                    "/api/auth/login",
                    json={"username": account["username"], "password": f"wrong-{i}"},
                ).status_code
            )
        out["wrong_password_answers"] = codes
    return out


async def ws_errors(server: Served, messages: list[str]) -> list[str]:
    async with websockets.connect(ws_url(server), local_addr=(USER, 0)) as ws:
        await ws.recv()
        codes = []
        for raw in messages:
            await ws.send(raw)
            while True:
                msg = json.loads(await ws.recv())
                if msg["type"] == "error":
                    codes.append(msg["code"])
                    break
        return codes


def probe_malformed(server: Served, tmp: Path) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    with http_from(server, USER) as http:
        http.get("/api/me")
        gid = http.post("/api/games", json={"game": "stack-a-cash", "mode": "local"}).json()["id"]
        raw = {
            "PATCH /api/me name": ("PATCH", "/api/me", '{"name":"ab\\ud800cd"}'),
            "move action": (
                "POST",
                f"/api/games/{gid}/moves",
                '{"action":"place L \\ud800","version":0}',
            ),
            "register password": (
                "POST",
                "/api/auth/register",
                '{"username":"sur","password":"12345678\\ud800"}',
            ),
            "login password": (
                "POST",
                "/api/auth/login",
                '{"username":"sur","password":"\\ud800"}',
            ),
            "deep record /api/verify": ("POST", "/api/verify", DEEP),
        }
        for name, (method, path, body) in raw.items():
            statuses[name] = http.request(
                method, path, content=body.encode(), headers={"Content-Type": "application/json"}
            ).status_code
        statuses["deep record /verify upload"] = http.post(
            "/verify", files={"file": ("d.json", DEEP.encode())}
        ).status_code
        for path in (
            "/api/games/ab%00cd",
            "/api/games/ab%00cd/record",
            "/g/ab%00cd",
            "/api/players/ab%00cd",
        ):
            statuses[f"GET {path}"] = http.get(path).status_code
        statuses["POST /api/games/ab%00cd/join"] = http.post(
            "/api/games/ab%00cd/join", json={}
        ).status_code
    ws = asyncio.run(
        ws_errors(
            server,
            [
                json.dumps({"type": "watch", "game": "ab\x00cd"}),
                json.dumps(
                    {"type": "move", "game": "ab\x00cd", "action": "place L b2", "version": 0}
                ),
            ],
        )
    )
    deep = tmp / "deep.json"
    deep.write_text(DEEP)
    cli = subprocess.run(
        [sys.executable, "-m", "pocketarena", "verify", str(deep)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        check=False,
    )
    return {
        "http": statuses,
        "http_5xx": sum(1 for s in statuses.values() if s >= 500),
        "ws_error_codes": ws,
        "cli_exit": cli.returncode,
        "cli_message": (cli.stdout + cli.stderr).strip().splitlines()[-1],
        "cli_traceback": "Traceback" in cli.stdout + cli.stderr,
    }


def probe_farming(server: Served) -> dict[str, Any]:
    with http_from(server, USER) as farmer, http_from(server, USER) as victim:
        victim_id = victim.get("/api/me").json()["id"]
        farmer.get("/api/me")
        for _ in range(3):
            gid = farmer.post("/api/games", json={**SEEK, "rated": True}).json()["id"]
            victim.post(f"/api/games/{gid}/join", json={})
            farmer.post(f"/api/games/{gid}/resign")
        ratings = victim.get(f"/api/players/{victim_id}").json()["ratings"]
    return {
        "victim_flipwars_rating_after_3_rounds": next(
            (r["rating"] for r in ratings if r["game"] == "flipwars"), 1500
        )
    }


def probe_crash(
    data: Path, database_url: str, env: dict[str, str], think_s: float, down_s: float
) -> dict[str, Any]:
    server = Served(data, database_url, **env).start()
    try:
        with server.client() as http:
            gid = http.post(
                "/api/games",
                json={"game": "stack-a-cash", "mode": "bot", "bot": "random", "seat": 0},
            ).json()["id"]
            http.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
            timed = http.post(
                "/api/games",
                json={"game": "stack-a-cash", "mode": "local", "clock": {"initial_s": 300}},
            ).json()["id"]
            cookies = dict(http.cookies)
            time.sleep(think_s)
        processes_before = len(marked_processes(server.marker))
        server.proc.kill()  # type: ignore[union-attr]
        left = server.leftovers(10.0)
    finally:
        server.stop()
    modes = {}
    if database_url.startswith("sqlite"):
        modes = {
            name: oct(stat.S_IMODE((data / name).stat().st_mode))
            for name in ("pocketarena.sqlite3", "secret_key")
        }
        modes["data folder"] = oct(stat.S_IMODE(data.stat().st_mode))
    time.sleep(down_s)
    again = Served(data, database_url, **env)
    restart = time.monotonic()
    again.start()
    try:
        with again.client() as http:
            http.cookies.update(cookies)
            remaining = http.get(f"/api/games/{timed}?svg=false").json()["clock"]["remaining_ms"][0]
            since_restart = time.monotonic() - restart
        # Ctrl-C (to the whole process group, as a terminal sends it) after a bot game
        again.signal_group(signal.SIGINT)
        status = again.wait()
        output = again.output()
    finally:
        again.stop()
    return {
        "processes_seen_before_kill": processes_before,
        "left_after_kill_9": len(left),
        "file_modes": modes,
        "clock_remaining_s_after_restart": round(remaining / 1000, 1),
        "thought_before_crash_s": think_s,
        "down_s": down_s,
        "since_restart_s": round(since_restart, 1),
        "ctrl_c_exit": status,
        "ctrl_c_traceback": "Traceback" in output or "KeyboardInterrupt" in output,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default="", help="default: SQLite in a temporary folder")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="every probe, smaller (a smoke run: 2 s of lobby flood, 200 sockets, 1 s of "
        "thinking and 1 s down around the crash); its figures are not the issue's",
    )
    args = parser.parse_args()
    lobby_s, sockets, pause_s = (2.0, 200, 1.0) if args.quick else (10.0, 1000, 5.0)
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        data = tmp / "data"
        url = args.database_url or f"sqlite:///{data / 'pocketarena.sqlite3'}"
        schema = ""
        env: dict[str, str] = {"POCKETARENA_MAX_LIVE_GAMES": "150"}
        if url.startswith("postgresql"):
            schema = f"probe_{uuid.uuid4().hex[:12]}"
            env["POCKETARENA_DATABASE_SCHEMA"] = schema
        results: dict[str, Any] = {"database": url.split("://")[0]}
        try:
            server = Served(data, url, **env).start()
            try:
                results["flood"] = probe_flood(server)
                results["lobby_load"] = asyncio.run(probe_lobby_load(server, 50, lobby_s))
                results["sockets"] = asyncio.run(probe_sockets(server, sockets))
                results["sessions"] = probe_sessions(server)
                results["malformed"] = probe_malformed(server, tmp)
                results["farming"] = probe_farming(server)
            finally:
                server.stop()
            crash_data = tmp / "crash"
            crash_url = url if schema else f"sqlite:///{crash_data / 'pocketarena.sqlite3'}"
            results["crash"] = probe_crash(
                crash_data, crash_url, env, think_s=pause_s, down_s=pause_s
            )
        finally:
            if schema:
                engine = create_engine(url)
                with engine.begin() as conn:
                    conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
                engine.dispose()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    for name, figures in results.items():
        print(f"{name}: {json.dumps(figures)}")


if __name__ == "__main__":
    main()
