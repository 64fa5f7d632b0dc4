"""Crashes and stops of a real ``pocketarena serve``: after ``kill -9`` no process is left and
a timed game resumes with the time its player had used charged (the downtime not); Ctrl-C and
SIGTERM after a bot game stop cleanly; the database and data folder are the owner's only."""

from __future__ import annotations

import signal
import stat
import time
from pathlib import Path

import httpx
import pytest

from .serving import Served


def play_against_a_bot(http: httpx.Client) -> str:
    """A move against the random bot, answered by a bot worker process."""
    r = http.post(
        "/api/games", json={"game": "stack-a-cash", "mode": "bot", "bot": "random", "seat": 0}
    )
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    http.post(f"/api/games/{gid}/moves", json={"action": "place L b2", "version": 0})
    deadline = time.monotonic() + 60  # the first answer may wait for a worker to start
    while http.get(f"/api/games/{gid}?svg=false").json()["version"] < 2:
        assert time.monotonic() < deadline, "the bot never answered"
        time.sleep(0.05)
    return str(gid)


def test_kill_9_leaves_nothing_behind_and_charges_the_time_used(tmp_path: Path) -> None:
    data = tmp_path / "data"
    db = f"sqlite:///{data / 'arena.sqlite3'}"
    server = Served(data, db).start()
    try:
        with server.client() as http:
            play_against_a_bot(http)
            before = time.monotonic()
            r = http.post(
                "/api/games",
                json={"game": "stack-a-cash", "mode": "local", "clock": {"initial_s": 60}},
            )
            assert r.status_code == 201
            gid, cookies = r.json()["id"], dict(http.cookies)
            time.sleep(3.0)  # seat 0 thinks for 3 s, then the server dies
            server.proc.kill()  # type: ignore[union-attr]
            killed = time.monotonic()
        assert server.leftovers() == [], "processes outlived the server"
        # the files are the owner's only
        assert stat.S_IMODE(data.stat().st_mode) == 0o700
        for name in ("arena.sqlite3", "secret_key"):
            assert stat.S_IMODE((data / name).stat().st_mode) == 0o600, name
        time.sleep(3.0)  # the server is down: nobody's time
        again = Served(data, db)
        restarted = time.monotonic()
        again.start()
        try:
            with again.client() as http:
                http.cookies.update(cookies)
                view = http.get(f"/api/games/{gid}?svg=false").json()
                asked = time.monotonic()
        finally:
            again.signal_group(signal.SIGTERM)
            assert again.wait() == -signal.SIGTERM
        assert view["you"] == [0, 1] and view["clock"]["running"] == 0  # the session survived
        used = 60_000 - view["clock"]["remaining_ms"][0]
        # Charged: the time used before the crash, up to the last heartbeat (every 2 s) ...
        assert used >= 800, used
        # ... and since the restart, but never the 3 s the server was down.
        assert used <= (killed - before) * 1000 + (asked - restarted) * 1000 + 200, used
    finally:
        server.stop()


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_a_stop_after_a_bot_game_is_clean(tmp_path: Path, sig: signal.Signals) -> None:
    server = Served(tmp_path, f"sqlite:///{tmp_path / 'arena.sqlite3'}").start()
    try:
        with server.client() as http:
            play_against_a_bot(http)
        server.signal_group(sig)
        # The exit status says which signal stopped it, as for any program.
        assert server.wait() in ((0, 130) if sig == signal.SIGINT else (-signal.SIGTERM,))
        output = server.output()
        assert "Traceback" not in output and "KeyboardInterrupt" not in output, output
        assert server.leftovers() == []
    finally:
        server.stop()
