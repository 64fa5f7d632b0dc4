"""Property-based fuzzing, on SQLite and on PostgreSQL: every operation of the HTTP API with
requests drawn from its OpenAPI schema (schemathesis: valid and invalid ones, any Unicode,
NUL bytes included), and the WebSocket protocol with messages drawn by hypothesis. Whatever
arrives: no 5xx (no ``internal`` error on the socket), responses that match the schema, and a
refused request changes nothing.

(Lone surrogates, which schemathesis does not draw, are added to half of the JSON bodies.)
Both are bounded (a few examples per operation, a few message lists) to keep the suite short;
``POCKETARENA_FUZZ_EXAMPLES`` asks for more, e.g. for a long hunt before a release."""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from sqlalchemy import text

from pocketarena.server.core.config import Settings
from pocketarena.server.main import create_app

from .conftest import Socket, create, make_settings, second_client

EXAMPLES = int(os.environ.get("POCKETARENA_FUZZ_EXAMPLES", "6"))
CHECKS = [
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
    content_type_conformance,
]


def _schema() -> Any:
    # The schema needs no database: an app that is never started gives it.
    app = create_app(Settings(data_dir=Path("unused"), secret_key="fuzz-" + "k" * 40))
    schema = schemathesis.openapi.from_dict(app.openapi())
    schema.config.generation.update(modes=["positive", "negative"], max_examples=EXAMPLES)
    schema.config.phases.update(phases=["examples", "fuzzing"])
    return schema


SCHEMA = _schema()


class Arena:
    """A running app with games in every state for the fuzz to poke at, and a way to tell
    whether anything changed."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.hub = client.app.state.ctx.hub
        self.engine = client.app.state.ctx.engine
        client.get("/api/me")  # the fuzz's browser has a session from the start
        friend = second_client(client)
        local = create(client, game="stack-a-cash", mode="local")["id"]
        coin_age = create(client, game="coin-age", mode="local")["id"]
        seek = create(friend, game="flipwars", mode="seek")["id"]
        invite = create(client, game="wallet-battles", mode="friend", seat=0)
        joined = invite["id"]
        token = invite["invite_url"].split("invite=")[1]
        friend.post(f"/api/games/{joined}/join", json={"invite": token})
        over = create(client, game="stack-a-cash", mode="local")["id"]
        client.post(f"/api/games/{over}/resign")
        self.game_ids = [local, coin_age, seek, joined, over]
        self.player_ids = [client.get("/api/me").json()["id"], friend.get("/api/me").json()["id"]]

    def settle(self) -> None:
        """Wait until no bot is thinking (their moves would change the state on their own)."""
        deadline = time.monotonic() + 10
        while any(g.bot_task and not g.bot_task.done() for g in list(self.hub.games.values())):
            assert time.monotonic() < deadline, "a bot never finished its move"
            time.sleep(0.01)

    def snapshot(self, ticking: set[str] | None = None) -> dict[str, Any]:
        """Everything a request could change: the tables (not the times sessions were last
        used) and the games in play. Games with a running clock (``ticking``: those running
        now) are left out: their clocks may run out during any request."""
        if ticking is None:
            ticking = {
                gid
                for gid, g in self.hub.games.items()
                if g.clock is not None and g.status == "active"
            }
        with self.engine.connect() as conn:
            rows = {
                table: sorted(tuple(map(str, r)) for r in conn.execute(text(query)).all())
                for table, query in (
                    ("players", "SELECT id, name, kind, username, password_hash FROM players"),
                    ("games", "SELECT id, version, status, rated, seat0_id, seat1_id FROM games"),
                    ("ratings", "SELECT player_id, game, mu, sigma, games FROM ratings"),
                    ("sessions", "SELECT id, player_id FROM sessions"),
                )
            }
        rows["games"] = [r for r in rows["games"] if r[0] not in ticking]
        if ticking:
            rows.pop("ratings")  # a game lost on time changes its players' ratings
        live = {
            gid: (g.version, g.status, len(g.state.history), g.rated)
            for gid, g in self.hub.games.items()
            if gid not in ticking
        }
        return {"rows": rows, "live": live, "ticking": ticking}

    def unchanged(self, before: dict[str, Any]) -> bool:
        """Whether nothing changed since ``before``. The games in memory are a cache of the
        database: a game may be loaded or put aside, but none that stays may change."""
        after = self.snapshot(before["ticking"])
        both = before["live"].keys() & after["live"].keys()
        return after["rows"] == before["rows"] and all(
            after["live"][g] == before["live"][g] for g in both
        )

    def aim(self, value: str) -> str:
        """Half of the generated ids are replaced by real ones (chosen by the generated text,
        so hypothesis can still shrink and replay a failure)."""
        if not _pick(value):
            return value
        digest = hashlib.sha256(value.encode("utf-8", "surrogatepass")).digest()
        return self.game_ids[digest[1] % len(self.game_ids)]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def arena(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Arena]:
    tmp = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    if request.param == "sqlite":
        s = make_settings(tmp)
    else:
        schema = request.getfixturevalue("pg_schema_module")
        url = request.getfixturevalue("postgres_url")
        s = make_settings(tmp, database_url=url, database_schema=schema)
    with TestClient(create_app(s), raise_server_exceptions=False) as client:
        yield Arena(client)


@SCHEMA.parametrize()
@settings(
    deadline=None,
    suppress_health_check=list(HealthCheck),
    max_examples=EXAMPLES,
    derandomize=True,
)
def test_http_api(case: Any, arena: Arena) -> None:
    if "game_id" in (case.path_parameters or {}):
        case.path_parameters["game_id"] = arena.aim(str(case.path_parameters["game_id"]))
    if "player_id" in (case.path_parameters or {}) and _pick(case.path_parameters["player_id"]):
        case.path_parameters["player_id"] = arena.player_ids[0]
    arena.settle()
    before = arena.snapshot()
    request = case.as_transport_kwargs(base_url="http://testserver")
    if not request.get("cookies"):
        request.pop("cookies", None)  # the browser's own cookie jar is the one that counts
    if isinstance(request.get("data"), str | bytes):
        request["content"] = request.pop("data")  # a raw body (the record to verify)
    if "json" in request and _pick(request["json"]):
        # schemathesis draws no lone surrogates (they cannot be sent as UTF-8); JSON's \u
        # escapes carry them, so half of the bodies get one in every text
        request["content"] = json.dumps(with_surrogates(request.pop("json")))
        request.setdefault("headers", {})["Content-Type"] = "application/json"
    response = arena.client.request(**request)
    case.validate_response(response, checks=CHECKS)
    if response.status_code >= 400:
        assert arena.unchanged(before), f"refused with {response.status_code} yet changed"


def _pick(value: Any) -> bool:
    """A choice made by the generated data itself (so a failure replays)."""
    return hashlib.sha256(repr(value).encode("utf-8", "surrogatepass")).digest()[0] % 2 == 0


def with_surrogates(value: Any) -> Any:
    """``value`` with a lone surrogate added to every text in it, keys included."""
    if isinstance(value, str):
        return value + "\udc80"
    if isinstance(value, list):
        return [with_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {with_surrogates(k): with_surrogates(v) for k, v in value.items()}
    return value


# -- the WebSocket protocol ------------------------------------------------------------------
TYPES = ["watch", "unwatch", "move", "throw", "resign", "rematch", "join", "lobby", "ping"]
any_text = st.text(max_size=30)  # any code point, lone surrogates and NUL included
json_leaf = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text
json_value = st.recursive(
    json_leaf,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def messages(draw: st.DrawFn, game_ids: list[str]) -> str:
    """A message as a client might send it: mostly well-formed with odd values, sometimes
    not JSON or not an object at all."""
    shape = draw(st.integers(0, 9))
    if shape == 0:
        return draw(st.text(max_size=60))
    if shape == 1:
        return json.dumps(draw(json_value))
    msg: dict[str, Any] = {"type": draw(st.sampled_from(TYPES) | any_text)}
    msg["game"] = draw(st.sampled_from(game_ids) | any_text | json_leaf)
    for key, values in (
        (
            "action",
            st.sampled_from(["place L b2", "place S a1", "end", "flip b2"]) | any_text | json_leaf,
        ),
        ("version", st.integers(-2, 8) | json_leaf),
        ("invite", any_text | json_leaf),
        ("svg", st.booleans() | json_leaf),
        ("ref", st.integers() | any_text | json_value),
    ):
        if draw(st.booleans()):
            msg[key] = draw(values)
    return json.dumps(msg)


def ws_fuzz(arena: Arena, batch: list[str]) -> None:
    with arena.client.websocket_connect("/ws") as ws:
        sock = Socket(ws)
        for n, raw in enumerate(batch):
            arena.settle()
            before = arena.snapshot()
            ws.send_text(raw)
            sock.send(type="ping", ref=f"end-{n}")  # every reply to ``raw`` comes before it
            errors = []
            while True:
                msg = ws.receive_json()
                # besides replies: what a watched game or the lobby sends on its own (who
                # is online, how many watch), whenever it comes
                kinds = (
                    "state",
                    "lobby",
                    "ack",
                    "pong",
                    "error",
                    "spectators",
                    "presence",
                    "online",
                )
                assert msg.get("type") in kinds, msg
                if msg["type"] == "pong" and msg.get("ref") == f"end-{n}":
                    break
                if msg["type"] == "error":
                    assert msg["code"] != "internal", (raw, msg)
                    assert isinstance(msg["message"], str) and msg["message"]
                    errors.append(msg)
                if msg["type"] == "state" and msg["game"]["id"] in sock.histories:
                    sock.histories.pop(msg["game"]["id"])  # only checked where asked for
            if errors and not any(e["code"] == "rate_limited" for e in errors):
                assert arena.unchanged(before), (raw, errors)


def test_websocket_protocol(arena: Arena) -> None:
    @given(st.lists(messages(arena.game_ids), min_size=1, max_size=12))
    @settings(
        deadline=None,
        max_examples=EXAMPLES * 2,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
    )
    def run(batch: list[str]) -> None:
        ws_fuzz(arena, batch)

    run()
