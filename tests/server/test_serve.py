"""``pocketarena serve`` starts the app (migrations included) and reports bad settings in a line."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from typer.testing import CliRunner
from websockets.sync.client import connect

from pocketarena.cli.main import app as cli_app
from pocketarena.server.core.config import Settings

from .serving import Served


def test_serve_starts_the_platform(tmp_path: Path) -> None:
    server = Served(tmp_path, f"sqlite:///{tmp_path / 'arena.sqlite3'}").start()
    try:
        r = httpx.get(f"{server.url}/api/catalog", timeout=10)
        assert r.status_code == 200 and any(g["id"] == "stack-a-cash" for g in r.json())
        assert (tmp_path / "arena.sqlite3").exists()
        assert (tmp_path / "secret_key").exists()  # the address-hash key is kept for restarts
        # Its WebSocket compresses as a browser asks (server.core.websocket's protocol).
        ws_url = server.url.replace("http", "ws", 1) + "/ws"
        with connect(ws_url, compression="deflate") as ws:
            assert ws.response is not None
            assert ws.response.headers["Sec-WebSocket-Extensions"] == (
                "permessage-deflate; server_max_window_bits=12; client_max_window_bits=12"
            )
            assert json.loads(ws.recv(timeout=10))["type"] == "hello"
            ws.send('{"type":"ping"}')
            assert json.loads(ws.recv(timeout=10))["type"] == "pong"
    finally:
        server.stop()


def test_serve_explains_a_bad_database_url(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli_app,
        ["serve", "--database-url", "mysql://x@y/z"],
        env={"POCKETARENA_DATA_DIR": str(tmp_path)},
    )
    assert result.exit_code == 2
    assert "SQLite or PostgreSQL" in result.output and "Traceback" not in result.output
    # A database that does not answer is waited for (tests/server/test_heal.py); a setting
    # that cannot work is refused at once.
    result = CliRunner().invoke(
        cli_app,
        ["serve", "--database-url", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
        env={"POCKETARENA_DATA_DIR": str(tmp_path), "POCKETARENA_DATABASE_SCHEMA": "no-good"},
    )
    assert result.exit_code == 2 and "must be a plain identifier" in result.output


def test_settings_come_from_the_environment(tmp_path: Path) -> None:
    s = Settings.from_env(
        {
            "POCKETARENA_DATABASE_URL": "sqlite:///x.db",
            "POCKETARENA_BOT_WORKERS": "3",
            "POCKETARENA_SECURE_COOKIES": "yes",
            "POCKETARENA_DATA_DIR": str(tmp_path),
        }
    )
    assert s.database_url == "sqlite:///x.db" and s.bot_workers == 3 and s.secure_cookies is True
    assert Settings.from_env({"POCKETARENA_DATA_DIR": str(tmp_path)}).database_url.endswith(
        "pocketarena.sqlite3"
    )
    try:
        Settings.from_env({"POCKETARENA_BOT_WORKERS": "many"})
    except ValueError as e:
        assert "POCKETARENA_BOT_WORKERS='many' is not a valid int" in str(e)
    else:
        raise AssertionError("a bad number was accepted")


def test_bad_limits_and_proxies_are_explained(tmp_path: Path) -> None:
    for env, words in (
        ({"POCKETARENA_GAMES_PER_MINUTE": "0"}, "GAMES_PER_MINUTE must be positive"),
        ({"POCKETARENA_TRUSTED_PROXIES": "10.0.0.0/33"}, "'10.0.0.0/33' is not an IP address"),
        ({"POCKETARENA_TRUSTED_PROXIES": "localhost"}, "'localhost' is not an IP address"),
        ({"POCKETARENA_TRUSTED_PROXIES": "127.0.0.1,proxy"}, "'proxy' is not an IP address"),
    ):
        result = CliRunner().invoke(
            cli_app, ["serve"], env={"POCKETARENA_DATA_DIR": str(tmp_path), **env}
        )
        assert result.exit_code == 2 and words in result.output, result.output
        assert "Traceback" not in result.output
    for bad in ("balancer", "10.0.0.300", "10.0.0.0/8/8", "unix:/run/x.sock", "127.0.0.1 10.0.0.1"):
        result = CliRunner().invoke(
            cli_app,
            ["serve", "--trusted-proxies", bad],
            env={"POCKETARENA_DATA_DIR": str(tmp_path)},
        )
        assert result.exit_code == 2, (bad, result.output)
        assert "--trusted-proxies" in result.output and "is not an IP address" in result.output
        assert "Traceback" not in result.output


def test_a_key_file_made_by_two_processes_at_once_is_never_read_half_written(
    tmp_path: Path,
) -> None:
    """Two server processes starting at once on a fresh data folder (``serve --workers 2``)
    both make the secret and VAPID keys: the one that starts while the other is making its key
    must get a whole key, the same one the other ends with. (The file was created empty first
    and filled after: the second process read b'' and failed to start, about 1 start in 20
    under load: test_cluster's two-worker test.)"""
    import stat

    from pocketarena.server.core.config import private_file

    path = tmp_path / "keys" / "secret_key"
    seen: list[bytes] = []

    def first() -> bytes:
        seen.append(private_file(path, lambda: b"second"))  # the other process, meanwhile
        return b"first"

    kept = private_file(path, first)
    assert seen == [kept] and kept in (b"first", b"second")
    assert path.read_bytes() == kept and stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # nothing left behind
