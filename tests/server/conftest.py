"""Fixtures for the web platform: an app on a fresh SQLite file (or a schema of PostgreSQL,
found or started by tests/conftest.py's ``postgres_url``), players with their own cookies,
and a helper to play over the WebSocket."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, sync_playwright
from sqlalchemy import create_engine, text

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app


def make_settings(tmp_path: Path, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "data_dir": tmp_path,
        "secret_key": "test-secret-" + "x" * 32,
        "bot_executor": "thread",
        "bot_min_delay_ms": 0,
        "ws_messages_per_s": 1000.0,
        "ws_burst": 1000,
        "http_writes_per_s": 1000.0,
        "http_burst": 1000,
        # Every test client shares one address: the per-address limits have tests of their own.
        "address_writes_per_s": 1000.0,
        "address_burst": 1000,
        "games_per_minute": 10_000,
        "address_games_per_minute": 10_000,
        "max_open_games": 1000,
        "address_max_open_games": 1000,
        "address_sessions_per_minute": 10_000,
        "address_sign_ins_per_minute": 10_000,
        "address_max_sockets": 1000,
        "address_sockets_per_minute": 10_000,
        "lobby_updates_per_s": 50.0,
        "analysis_per_minute": 10_000.0,
        "address_analysis_per_minute": 10_000.0,
    }
    values.update(overrides)
    return Settings(**values)


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return make_settings(tmp_path)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(create_app(settings)) as c:
        yield c


def second_client(first: TestClient) -> TestClient:
    """Another browser (its own cookies) on the same running app and event loop."""
    other = TestClient(first.app)
    other.portal = first.portal
    return other


@contextmanager
def fresh_pg_schema(url: str) -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, dropped afterwards (parallel runs never
    share tables)."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        with engine.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        engine.dispose()


@pytest.fixture
def pg_schema(postgres_url: str) -> Iterator[str]:
    with fresh_pg_schema(postgres_url) as schema:
        yield schema


@pytest.fixture(scope="module")
def pg_schema_module(postgres_url: str) -> Iterator[str]:
    with fresh_pg_schema(postgres_url) as schema:
        yield schema


@pytest.fixture(params=["sqlite", "postgresql"])
def db_settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    """Settings for each supported database."""
    if request.param == "sqlite":
        return make_settings(tmp_path)
    schema = request.getfixturevalue("pg_schema")
    url = request.getfixturevalue("postgres_url")
    return make_settings(tmp_path, database_url=url, database_schema=schema)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def player_id(client: TestClient) -> str:
    return client.get("/api/me").json()["id"]


def as_move(text: str) -> dict[str, Any]:
    """A legal action as a state message sends it (its text) read as the browser's picker
    reads it (``asMove``): the API's fields but the id, the first word the verb."""
    words = text.split()
    return {"text": text, "verb": words[0], "tokens": words[1:]}


class Socket:
    """A WebSocket session with helpers to wait for a kind of message."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.histories: dict[str, list[dict[str, Any]]] = {}
        hello = ws.receive_json()
        assert hello["type"] == "hello"
        self.player = hello["player"]

    def send(self, **msg: Any) -> None:
        self.ws.send_json(msg)

    def recv(self) -> dict[str, Any]:
        """The next message; a state's move list is made whole from the updates (each carries
        only the entries since the previous one), and its legal actions (sent as texts) read
        as objects with their words, as the browser client does."""
        msg: dict[str, Any] = self.ws.receive_json()
        if msg["type"] == "state":
            msg["legal"] = [as_move(text) for text in msg["legal"]]
            game = msg["game"]
            known = self.histories.get(game["id"], [])
            assert len(known) >= game["history_from"], "an update skipped entries"
            game["history"] = known[: game["history_from"]] + game["history"]
            assert len(game["history"]) == game["plies"]
            self.histories[game["id"]] = game["history"]
        return msg

    def until(self, kind: str, **match: Any) -> dict[str, Any]:
        """The next message of this type (and matching fields), skipping others."""
        for _ in range(500):
            msg = self.recv()
            if msg["type"] == kind and all(msg.get(k) == v for k, v in match.items()):
                return msg
        raise AssertionError(f"no {kind} message arrived")

    def state(self, min_version: int = -1) -> dict[str, Any]:
        """The next game state at least at ``min_version``."""
        for _ in range(500):
            msg = self.recv()
            if msg["type"] == "state" and msg["game"]["version"] >= min_version:
                return msg
        raise AssertionError("no state arrived")

    def watch(self, game: str, svg: bool = False) -> dict[str, Any]:
        self.send(type="watch", game=game, svg=svg)
        return self.until("state")

    def ping(self) -> None:
        self.send(type="ping", ref="alive")
        assert self.until("pong")["ref"] == "alive"


@pytest.fixture(scope="module")
def browser(chromium_path: str) -> Iterator[Browser]:
    """A headless Chromium for the browser tests of one module."""
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=chromium_path,
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        yield b
        b.close()
