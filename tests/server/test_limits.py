"""Limits that hold for everyone: per address as well as per player (cookie-less clients
included), caps on open games, expiry of games nobody joins, WebSockets per address, and a
lobby whose updates are coalesced and cannot be crowded out by one source."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event
from starlette.websockets import WebSocketDisconnect

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.core.ratelimit import MemoryLimiter, Rate, address_key
from pocketarena.server.live import sweeps
from pocketarena.server.main import create_app
from pocketarena.server.store import Store

from .conftest import Socket, create, make_settings, second_client

SEEK = {"game": "flipwars", "mode": "seek"}


def limited(tmp_path: Path, **overrides: Any) -> Settings:
    """The default limits (not the test suite's generous ones); the test client plays a
    trusted proxy so each request can come from an address of its choosing."""
    defaults = Settings(data_dir=tmp_path)
    values = {
        name: getattr(defaults, name)
        for name in (
            "address_writes_per_s",
            "address_burst",
            "games_per_minute",
            "address_games_per_minute",
            "max_open_games",
            "address_max_open_games",
            "address_sessions_per_minute",
            "address_max_sockets",
            "address_sockets_per_minute",
            "lobby_updates_per_s",
            "http_writes_per_s",
            "http_burst",
        )
    }
    values.update(trusted_proxies="*", **overrides)
    return make_settings(tmp_path, **values)


def at(addr: str) -> dict[str, str]:
    return {"X-Forwarded-For": addr}


def test_a_cookie_less_flood_is_refused_and_a_real_user_still_plays(tmp_path: Path) -> None:
    """The probe of the issue: 170 seeks without a cookie from one address against a server
    that holds 150 games."""
    settings = limited(tmp_path, max_live_games=150)
    with TestClient(create_app(settings)) as client:
        codes = []
        for _ in range(170):
            client.cookies.clear()
            codes.append(
                client.post("/api/games", json=SEEK, headers=at("203.0.113.9")).status_code
            )
        created = codes.count(201)
        assert created <= settings.address_max_open_games  # far below the server's 150
        assert codes.count(429) == 170 - created and 503 not in codes
        assert len(client.app.state.ctx.hub.games) == created
        client.cookies.clear()
        user = client.post("/api/games", json=SEEK, headers=at("198.51.100.20"))
        assert user.status_code == 201
        seeks = [s["id"] for s in client.get("/api/lobby").json()["seeks"]]
        assert user.json()["id"] in seeks  # the real seek shows among the flood
        flood_shown = len(seeks) - 1
        assert flood_shown == 3  # one address shows at most three seeks


def test_refusals_say_when_to_come_back(tmp_path: Path) -> None:
    settings = limited(tmp_path, address_games_per_minute=2)
    with TestClient(create_app(settings)) as client:
        body = {**SEEK, "mode": "bot", "bot": "random"}
        for _ in range(2):
            client.cookies.clear()
            assert client.post("/api/games", json=body, headers=at("192.0.2.1")).status_code == 201
        client.cookies.clear()
        r = client.post("/api/games", json=body, headers=at("192.0.2.1"))
        assert r.status_code == 429 and r.json()["code"] == "rate_limited"
        assert 1 <= int(r.headers["Retry-After"]) <= 30 and "new games" in r.json()["detail"]


def test_open_games_are_capped_per_player_and_per_address(tmp_path: Path) -> None:
    settings = limited(tmp_path, max_open_games=2, address_max_open_games=3)
    with TestClient(create_app(settings)) as client:
        here = at("192.0.2.50")
        mine = [client.post("/api/games", json=SEEK, headers=here) for _ in range(2)]
        assert [r.status_code for r in mine] == [201, 201]
        r = client.post("/api/games", json=SEEK, headers=here)
        assert r.status_code == 429 and r.json()["code"] == "too_many_games"
        # an untimed game against a bot holds nothing: it can be put aside
        bot = {**SEEK, "mode": "bot", "bot": "random"}
        assert client.post("/api/games", json=bot, headers=here).status_code == 201
        timed = {**bot, "clock": {"initial_s": 60, "increment_s": 0}}
        assert client.post("/api/games", json=timed, headers=here).status_code == 429
        other = second_client(client)  # another player at the same address
        assert other.post("/api/games", json=SEEK, headers=here).status_code == 201
        r = other.post("/api/games", json=SEEK, headers=here)
        assert r.status_code == 429 and "your address" in r.json()["detail"]
        # cancelling one frees a place
        gid = mine[0].json()["id"]
        assert client.delete(f"/api/games/{gid}", headers=here).status_code == 200
        assert other.post("/api/games", json=SEEK, headers=here).status_code == 201


def test_forwarded_for_counts_only_from_a_trusted_proxy(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, address_games_per_minute=1)  # no trusted proxy
    with TestClient(create_app(settings)) as client:
        bot = {**SEEK, "mode": "bot", "bot": "random"}
        assert client.post("/api/games", json=bot, headers=at("192.0.2.1")).status_code == 201
        client.cookies.clear()
        # a client naming another address in the header is still the socket's peer
        assert client.post("/api/games", json=bot, headers=at("192.0.2.2")).status_code == 429
    assert address_key("2001:db8:1:2:3:4:5:6") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("::ffff:192.0.2.4") == "192.0.2.4"


def test_the_limiter_buckets(tmp_path: Path) -> None:
    now = [0.0]
    limiter = MemoryLimiter(clock=lambda: now[0])
    rate = Rate.per_minute("things", 2)
    import asyncio

    async def run() -> list[float]:
        out = [await limiter.take(rate, "k") for _ in range(3)]
        out.append(await limiter.peek(rate, "k"))
        now[0] += 30.0
        out.append(await limiter.take(rate, "k"))
        out.append(float(await limiter.acquire("s", "k", 1)))
        out.append(float(await limiter.acquire("s", "k", 1)))
        await limiter.release("s", "k")
        out.append(float(await limiter.acquire("s", "k", 1)))
        return out

    got = asyncio.run(run())
    assert got[:2] == [0.0, 0.0] and got[2] == got[3] == 30.0 and got[4] == 0.0
    assert got[5:] == [1.0, 0.0, 1.0]


def test_sockets_are_capped_per_address(tmp_path: Path) -> None:
    settings = limited(tmp_path, address_max_sockets=2)
    with TestClient(create_app(settings)) as client:
        here = at("192.0.2.77")
        with (
            client.websocket_connect("/ws", headers=here) as a,
            client.websocket_connect("/ws", headers=here) as b,
        ):
            Socket(a).ping()
            Socket(b).ping()
            with client.websocket_connect("/ws", headers=here) as c:
                err = c.receive_json()
                assert err["type"] == "error" and err["code"] == "rate_limited"
                try:
                    c.receive_json()
                    raise AssertionError("the third socket stayed open")
                except WebSocketDisconnect as e:
                    assert e.code == 4429
            with client.websocket_connect("/ws", headers=at("192.0.2.78")) as d:
                Socket(d).ping()  # another address is not affected
        with client.websocket_connect("/ws", headers=here) as again:
            Socket(again).ping()  # closed sockets free their places


def test_the_lobby_is_coalesced_and_carries_only_changes(tmp_path: Path) -> None:
    settings = limited(tmp_path, lobby_updates_per_s=2.0, address_games_per_minute=1000)
    with TestClient(create_app(settings)) as client:
        hub = client.app.state.ctx.hub
        with client.websocket_connect("/ws") as ws:
            sock = Socket(ws)
            sock.send(type="lobby")
            assert sock.until("lobby")["seeks"] == []
            started = time.monotonic()
            ids = []
            for i in range(20):  # 20 seeks from 20 addresses in a burst
                client.cookies.clear()
                r = client.post("/api/games", json=SEEK, headers=at(f"192.0.2.{100 + i}"))
                ids.append(r.json()["id"])
            burst = time.monotonic() - started
            known: dict[str, dict[str, Any]] = {}
            order: list[str] = []
            updates = 0
            while set(order) != set(ids):
                msg = sock.until("lobby")
                assert msg["delta"] is True
                assert all(e["id"] not in known for e in msg["entries"])  # only what changed
                known.update({e["id"]: e for e in msg["entries"]})
                order = msg["seeks"]
                updates += 1
            assert updates <= 2 + burst * settings.lobby_updates_per_s
            assert hub.lobby_messages == updates
            # a join changes one entry and moves it to the live list
            other = second_client(client)
            other.post(f"/api/games/{ids[0]}/join", json={})
            msg = sock.until("lobby")
            assert [e["id"] for e in msg["entries"]] == [ids[0]] and msg["live"] == [ids[0]]
            assert ids[0] not in msg["seeks"]


def test_games_nobody_joins_expire_and_are_not_reloaded(tmp_path: Path) -> None:
    settings = limited(tmp_path, waiting_game_ttl_s=3600)
    with TestClient(create_app(settings)) as client:
        old = create(client, **SEEK)["id"]
        fresh = create(client, **SEEK)["id"]
        friend = create(client, **{**SEEK, "mode": "friend"})["id"]
        hub = client.app.state.ctx.hub
        for gid in (old, friend):  # opened two hours ago
            hub.games[gid].created_at = hub.games[gid].created_at.replace(year=2000)
        store = client.app.state.ctx.store
        with store.sessions() as s:
            from sqlalchemy import update

            from pocketarena.server.models import GameRecord

            s.execute(
                update(GameRecord)
                .where(GameRecord.id.in_([old, friend]))
                .values(created_at=hub.games[old].created_at)
            )
            s.commit()
        assert client.portal.call(sweeps.waiting, hub) == 2  # type: ignore[union-attr]
        view = client.get(f"/api/games/{old}?svg=false").json()
        assert view["status"] == "aborted" and view["termination"] == "abandoned"
        assert [s["id"] for s in client.get("/api/lobby").json()["seeks"]] == [fresh]
        # an old row left waiting by a server that stopped is cancelled at the next start
        with store.sessions() as s:
            from pocketarena.server.models import GameRecord

            s.execute(
                update(GameRecord)
                .where(GameRecord.id == fresh)
                .values(created_at=hub.games[old].created_at)
            )
            s.commit()
        cookies = dict(client.cookies)
    with TestClient(create_app(settings), cookies=cookies) as client:
        hub = client.app.state.ctx.hub
        assert fresh not in hub.games and old not in hub.games
        assert client.get(f"/api/games/{fresh}?svg=false").json()["status"] == "aborted"
        assert client.get("/api/lobby").json()["seeks"] == []


def test_each_open_game_counts_once(db_settings: Settings) -> None:
    """The caps count games, not seats: a game waiting for an opponent or on the clock counts
    once for its creator and once for their address, whoever sits in it (one screen's two
    seats, a bot, a friend who joined), on SQLite and PostgreSQL; one that holds nothing
    (untimed, or over) counts nothing."""
    with TestClient(create_app(db_settings)) as client:
        timed = {"clock": {"initial_s": 60, "increment_s": 0}}
        holding = [
            create(client, **SEEK),
            create(client, **SEEK, **timed),
            create(client, game="flipwars", mode="friend"),
            create(client, game="flipwars", mode="local", **timed),
            create(client, game="flipwars", mode="bot", bot="random", **timed),
        ]
        friend = create(client, game="flipwars", mode="friend", **timed)
        code = friend["invite_url"].split("invite=")[1]
        joined = second_client(client).post(
            f"/api/games/{friend['id']}/join", json={"invite": code}
        )
        assert joined.status_code == 200 and joined.json()["status"] == "active"
        holding.append(friend)
        create(client, game="flipwars", mode="bot", bot="random")  # untimed: holds nothing
        create(client, game="flipwars", mode="local")
        ctx = client.app.state.ctx  # type: ignore[attr-defined]
        me = client.get("/api/me").json()["id"]
        addr = ctx.hub.games[holding[0]["id"]].creator_addr
        assert {ctx.hub.games[g["id"]].creator_addr for g in holding} == {addr}
        assert ctx.store.open_games(me, addr) == (len(holding), len(holding)) == (6, 6)
        assert ctx.store.open_games(me) == (6, 0)
        assert client.delete(f"/api/games/{holding[0]['id']}").status_code == 200
        assert ctx.store.open_games(me, addr) == (5, 5)


def test_a_new_game_counts_the_open_games_in_one_read(db_settings: Settings) -> None:
    """Checking a new game against both caps (its player's open games, its address's) is one
    count over the games table, not one for each: it was two round trips to the database
    thread and two statements for every game a client asked for."""
    with TestClient(create_app(db_settings)) as client:
        client.get("/api/me")
        engine = client.app.state.ctx.store.engine  # type: ignore[attr-defined]
        counts: list[str] = []

        def seen(conn: Any, cursor: Any, statement: str, *rest: Any) -> None:
            if statement.lstrip().upper().startswith("SELECT") and "count(" in statement:
                counts.append(statement)

        event.listen(engine, "before_cursor_execute", seen)
        try:
            create(client, **SEEK)
        finally:
            event.remove(engine, "before_cursor_execute", seen)
        assert len(counts) == 1, counts


def test_the_open_games_count_reads_the_open_games_alone(tmp_path: Path) -> None:
    """The caps' count finds the player's and the address's open games through their
    (creator, status) indexes: through an index on the creator alone it read every game
    either had ever created (on SQLite 66 µs with none from the address, 869 with 6,000
    finished; 80 through these), and every client of a load test, or behind one proxy, is one address."""
    engine = make_engine(make_settings(tmp_path))
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    seen: list[tuple[str, Any]] = []

    def keep(conn: Any, cursor: Any, statement: str, parameters: Any, *rest: Any) -> None:
        seen.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", keep)
    assert store.open_games("p" * 32, "a" * 32) == (0, 0)
    event.remove(engine, "before_cursor_execute", keep)
    statement, parameters = seen[-1]
    raw = engine.raw_connection()
    try:
        plan = raw.cursor().execute("EXPLAIN QUERY PLAN " + statement, parameters).fetchall()
    finally:
        raw.close()
        engine.dispose()
    steps = " ".join(str(row[-1]) for row in plan)
    assert "ix_games_creator_status (creator_id=? AND status=?)" in steps, steps
    assert "ix_games_creator_addr_status (creator_addr=? AND status=?)" in steps, steps
