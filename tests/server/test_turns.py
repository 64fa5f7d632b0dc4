"""Turn-based games: days per move, deadlines kept in the database and swept, the "your turn"
list. The server's date is injected, so a week of play takes no time at all."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations, session_factory
from pocketarena.server.live import session, sweeps
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.main import cluster_parts, create_app
from pocketarena.server.store import Store

from .conftest import create, make_settings, player_id, second_client
from .tables import table
from .test_bus import prefix  # noqa: F401  (a fixture: this test's Redis keys)

START = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)  # a Monday morning


class Calendar:
    """The server's date, moved on by the test."""

    def __init__(self, at: datetime = START) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, days: float = 0, hours: float = 0, minutes: float = 0) -> None:
        self.at += timedelta(days=days, hours=hours, minutes=minutes)


# -- the state machine ----------------------------------------------------------------------------
def test_days_per_move_are_checked_before_anything_is_made() -> None:
    for days in (0, 4, 15, -1, True):
        with pytest.raises(session.GameError) as e:
            session.check_new_game("stack-a-cash", {}, "friend", None, None, None, days)
        assert e.value.code == "bad_request"
        assert "1, 2, 3, 5, 7, 14" in e.value.message
    with pytest.raises(session.GameError) as e:
        session.check_new_game("stack-a-cash", {}, "friend", None, None, (60_000, 0), 3)
    assert "not both" in e.value.message
    for days in session.DAYS_PER_MOVE:
        session.check_new_game("stack-a-cash", {}, "seek", None, None, None, days)


def test_each_move_sets_the_next_deadline_and_a_late_move_loses_on_time() -> None:
    t = table()
    t.days_per_move = 2
    change = session.move(t, "ann", "place L b2", 0, now=0.0, wall=START)
    assert change.values["turn_id"] == "bob"
    assert change.values["deadline"] == START + timedelta(days=2)
    session.adopt(t, change)
    assert t.deadline == START + timedelta(days=2)
    # a minute before the deadline nothing happens; at it, the player to move loses on time
    assert session.flag(t, 0.0, START + timedelta(days=2, minutes=-1)) is None
    ended = session.flag(t, 0.0, START + timedelta(days=2))
    assert ended is not None and ended.finish is not None
    assert ended.finish.winner == 0 and ended.finish.termination == "time forfeit"
    assert ended.values["deadline"] is None and ended.values["turn_id"] is None
    session.adopt(t, ended)
    assert t.status == "finished" and t.deadline is None
    assert session.flag(t, 0.0, START + timedelta(days=30)) is None  # ends once


def test_a_bot_to_move_has_no_deadline() -> None:
    from .tables import seat

    t = table(seats=(seat("ann"), seat("bot-greedy", "bot", "greedy")))
    t.days_per_move = 1
    change = session.move(t, "ann", "place L b2", 0, now=0.0, wall=START)
    assert change.values["turn_id"] is None and change.values["deadline"] is None


# -- over HTTP, a simulated week -------------------------------------------------------------------
@pytest.fixture
def calendar() -> Calendar:
    return Calendar()


@pytest.fixture
def turn_client(db_settings: Settings, calendar: Calendar) -> Iterator[TestClient]:
    with TestClient(create_app(db_settings, now=calendar)) as c:
        yield c


def hub_of(client: TestClient) -> Hub:
    hub: Hub = client.app.state.ctx.hub  # type: ignore[attr-defined]
    return hub


def sweep(client: TestClient) -> int:
    return int(client.portal.call(sweeps.turns, hub_of(client)))  # type: ignore[union-attr]


def act(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """The player's move (or throw) in ``game``: the first legal one."""
    if game["node"] == "chance":
        r = client.post(f"/api/games/{game['id']}/throw", json={"version": game["version"]})
    else:
        text = game["legal"][0]["text"]
        r = client.post(
            f"/api/games/{game['id']}/moves", json={"action": text, "version": game["version"]}
        )
    assert r.status_code == 200, r.text
    view: dict[str, Any] = r.json()
    return view


def to_act(game: dict[str, Any]) -> int | None:
    seat: int | None = game["to_move"] if game["node"] != "chance" else game["thrower"]
    return seat


def test_a_turn_based_week_ends_on_time_once(turn_client: TestClient, calendar: Calendar) -> None:
    """Ann and Bob play a move a day or so for a week, each told by ``/api/me/turns`` (and the
    header of every page) when it is their move; then Bob does not move in time, and the
    sweep ends the game on time, once, with nobody watching it."""
    ann, bob = turn_client, second_client(turn_client)
    ann_id, bob_id = player_id(ann), player_id(bob)
    made = create(ann, game="stack-a-cash", mode="friend", seat=0, days_per_move=2)
    game = made["game"]
    assert game["days_per_move"] == 2 and game["deadline"] is None  # nobody to wait for yet
    r = bob.post(f"/api/games/{game['id']}/join", json={"invite": made["invite_url"].split("=")[1]})
    assert r.status_code == 200, r.text
    game = r.json()
    assert game["deadline"] == (START + timedelta(days=2)).isoformat()
    assert ann.get("/api/me/turns").json()["count"] == 1
    assert bob.get("/api/me/turns").json() == {"count": 0, "games": []}
    players = {0: ann, 1: bob}
    names = {0: ann.get("/api/me").json()["name"], 1: bob.get("/api/me").json()["name"]}
    for day in range(6):  # a move each day, at different hours
        calendar.advance(days=1, hours=day)
        seat = to_act(game)
        assert seat is not None
        turns = players[seat].get("/api/me/turns").json()
        assert turns["count"] == 1
        (listed,) = turns["games"]
        assert listed["id"] == game["id"] and listed["days_per_move"] == 2
        assert listed["opponent"] == names[1 - seat]
        assert players[1 - seat].get("/api/me/turns").json()["count"] == 0
        assert sweep(turn_client) == 0  # not due
        game = act(players[seat], game)
        assert game["status"] == "active"
        mover = to_act(game)
        if mover != seat:  # the turn passed: the new deadline counts from now
            assert game["deadline"] == (calendar.at + timedelta(days=2)).isoformat()
    # The page header lists the game awaiting a move, with the count, on any page.
    waiting = players[to_act(game) or 0]
    page = waiting.get("/lobby").text
    assert 'id="turns-count">1<' in page and f'href="/g/{game["id"]}"' in page
    late = to_act(game)
    assert late is not None
    hub = hub_of(turn_client)
    hub.games.pop(game["id"], None)  # nobody holds it in memory: the database alone knows
    calendar.advance(days=2, minutes=-1)
    assert sweep(turn_client) == 0
    calendar.advance(minutes=2)
    assert sweep(turn_client) == 1
    assert sweep(turn_client) == 0  # once
    final = ann.get(f"/api/games/{game['id']}").json()
    assert final["status"] == "finished" and final["termination"] == "time forfeit"
    assert final["winner"] == 1 - late and final["deadline"] is None
    for client in (ann, bob):
        assert client.get("/api/me/turns").json()["count"] == 0
    assert {ann_id, bob_id} == {s["player"] for s in final["seats"]}


def test_turn_based_games_against_a_bot_and_in_the_lobby(turn_client: TestClient) -> None:
    """Every mode takes days per move: the bot answers at once (no deadline of its own), a
    seek shows its days per move in the lobby."""
    made = create(turn_client, game="flipwars", mode="bot", bot="random", seat=0, days_per_move=7)
    gid = made["id"]
    game = act(turn_client, made["game"])
    for _ in range(100):
        game = turn_client.get(f"/api/games/{gid}").json()
        if to_act(game) == 0:
            break
        turn_client.portal.call(asyncio.sleep, 0.05)  # type: ignore[union-attr]
    assert to_act(game) == 0 and game["deadline"] is not None
    assert turn_client.get("/api/me/turns").json()["games"][0]["id"] == gid
    seek = create(turn_client, game="coin-age", mode="seek", days_per_move=14)
    assert seek["game"]["days_per_move"] == 14
    lobby = turn_client.get("/api/lobby").json()
    (entry,) = [e for e in lobby["seeks"] if e["id"] == seek["id"]]
    assert entry["days_per_move"] == 14 and entry["clock"] is None


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"days_per_move": 4}, "1, 2, 3, 5, 7, 14"),
        ({"days_per_move": 3, "clock": {"initial_s": 60, "increment_s": 0}}, "not both"),
    ],
)
def test_bad_days_per_move_are_refused_clearly(
    tmp_path: Path, body: dict[str, Any], words: str
) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as c:
        r = c.post("/api/games", json={"game": "stack-a-cash", "mode": "friend", **body})
        assert r.status_code == 400 and words in r.json()["detail"]
        r = c.post(
            "/api/games", json={"game": "stack-a-cash", "mode": "friend", "days_per_move": "x"}
        )
        assert r.status_code == 422
        assert c.get("/api/me/turns").json() == {"count": 0, "games": []}


def test_the_new_game_page_offers_days_per_move(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path))) as c:
        page = c.get("/new").text
        for days in session.DAYS_PER_MOVE:
            assert f'value="days:{days}"' in page


def test_a_turn_based_game_is_not_aborted_as_abandoned(tmp_path: Path, calendar: Calendar) -> None:
    """Days without a move are how turn-based games are played: the sweep of abandoned games
    leaves them alone (the deadline ends them)."""
    from pocketarena.server.live import abandon

    settings = make_settings(tmp_path, abandon_after_s=60)
    with TestClient(create_app(settings, now=calendar)) as c:
        made = create(c, game="stack-a-cash", mode="local", days_per_move=1)
        hub = hub_of(c)
        live = hub.games[made["id"]]
        live.last_activity -= 3600
        assert c.portal.call(abandon.abort_idle, hub) == 0  # type: ignore[union-attr]
        assert c.get(f"/api/games/{made['id']}").json()["status"] == "active"


# -- a cluster: every process sweeps, each game ends once -------------------------------------------
def test_two_processes_sweeping_end_a_game_once(
    tmp_path: Path,
    postgres_url: str,
    pg_schema: str,
    redis_url: str,
    prefix: str,  # noqa: F811
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        database_url=postgres_url,
        database_schema=pg_schema,
        redis_url=redis_url,
        redis_prefix=prefix,
        bot_executor="thread",
        bot_workers=1,
    )
    engine = make_engine(settings)
    run_migrations(engine)
    calendar = Calendar()

    async def main() -> None:
        hubs: list[Hub] = []
        for _ in range(2):
            bus, jobs, _limiter = cluster_parts(settings)
            hub = Hub(
                Store(engine, session_factory(engine)),
                settings,
                BotRunner("thread", 1, 5.0),
                bus,
                jobs,
                now=calendar,
            )
            await hub.start()
            hubs.append(hub)
        one, two = hubs
        try:
            for pid in ("ann", "bob"):
                one.store.ensure_guest(pid)
            games = []
            for _ in range(3):
                live = await one.seating.create(
                    "ann", "stack-a-cash", {}, "friend", seat=0, days_per_move=1
                )
                await two.seating.join("bob", live.id, live.invite_token)
                games.append(live.id)
            calendar.advance(days=1, hours=1)
            # both processes sweep at once; then each checks every game again, as a process
            # that missed the sweep's lock would
            ended = await asyncio.gather(sweeps.turns(one), sweeps.turns(two))
            again = []
            for gid in games:
                for hub in hubs:
                    live = await hub.get(gid)
                    again.append(await hub.flag_check(live))
            assert sum(ended) == 3 and not any(again)
            for gid in games:
                row = one.store.load_game(gid)
                assert row is not None and row.status == "finished"
                assert row.termination == "time forfeit" and row.winner == 1
                assert row.deadline is None and row.turn_id is None
        finally:
            for hub in hubs:
                await hub.close()

    asyncio.run(main())
    engine.dispose()
