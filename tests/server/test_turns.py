"""Turn-based games: days per move, deadlines kept in the database and swept, the "your turn"
list. The server's date is injected, so a week of play takes no time at all."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import make_engine, run_migrations
from pocketarena.server.live import session, sweeps
from pocketarena.server.live.hub import Hub
from pocketarena.server.main import create_app

from .conftest import create, make_settings, player_id, second_client
from .tables import table
from .test_bus import (
    cluster_settings,
    prefix,  # noqa: F401  (a fixture: this test's Redis keys)
    start_hubs,
)
from .test_cluster import GAME, Player, legal_move, running_cluster

START = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)  # a Monday morning


class Calendar:
    """The server's date, moved on by the test."""

    def __init__(self, at: datetime = START) -> None:
        self.at = at

    def __call__(self) -> datetime:
        return self.at

    def advance(self, days: float = 0, hours: float = 0, minutes: float = 0) -> None:
        self.at += timedelta(days=days, hours=hours, minutes=minutes)


class SharedCalendar(Calendar):
    """The date of server processes that read it from ``path`` (``calendar_server.py``),
    written there whenever the test moves it on."""

    def __init__(self, path: Path, at: datetime = START) -> None:
        self.path = path
        super().__init__(at)
        self._write()

    def advance(self, days: float = 0, hours: float = 0, minutes: float = 0) -> None:
        super().advance(days, hours, minutes)
        self._write()

    def _write(self) -> None:
        aside = self.path.with_suffix(".new")  # written aside, then moved: never read half
        aside.write_text(self.at.isoformat())
        os.replace(aside, self.path)


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


def test_a_live_games_move_sets_no_indexed_column() -> None:
    """PostgreSQL writes a row without touching any index (a heap-only update) only when no
    indexed column changes. A live game's move is the hot path of the server: the columns it
    sets (history, version, clocks, whose turn) must carry no index. turn_id had one, for the
    "your turn" list, and every move added an entry to each of the table's eight indexes."""
    from pocketarena.server.live.clock import Clock
    from pocketarena.server.models import GameRecord

    indexed = {c.name for index in GameRecord.__table__.indexes for c in index.columns}
    t = table(clock=Clock(60_000, 2_000, now=lambda: 0.0))
    change = session.move(t, "ann", "place L b2", 0, now=1.0, wall=START)
    set_to_a_value = {name for name, value in change.values.items() if value is not None}
    assert {"history", "version", "turn_id", "clock0_ms"} <= set_to_a_value
    assert not indexed & set_to_a_value
    # The "your turn" list still finds the game, through the seats (no index on turn_id).
    assert "seat0_id" in indexed and "seat1_id" in indexed


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
    settings = cluster_settings(
        tmp_path, redis_url, prefix, database_url=postgres_url, database_schema=pg_schema
    )
    engine = make_engine(settings)
    run_migrations(engine)
    calendar = Calendar()

    async def main() -> None:
        hubs = await start_hubs(settings, engine, now=calendar)
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


# -- a real cluster: the process holding the game is killed, the others end it on time ---------
CALENDAR_SERVER = Path(__file__).with_name("calendar_server.py")
TURN_SWEEP_S = 10.0  # how often each server sweeps the due turns (main.TURN_SWEEP_EVERY beats)


@pytest.mark.slow
def test_a_turn_ends_on_time_once_after_the_process_holding_it_is_killed(
    tmp_path: Path, postgres_url: str, redis_url: str
) -> None:
    """Three server processes over one PostgreSQL and Redis, their date injected (a file the
    test moves on). Ann and Bob, accounts, play a rated game at two days a move on s1, both
    watching it there; s1 is killed (``kill -9``) while Bob is to move; on a later day his
    deadline passes, and s2 and s3, which never held the game, end it on time: one result, one
    rating change each, one "game over" in each bell, however often they sweep."""
    calendar = SharedCalendar(tmp_path / "date")
    serve = [sys.executable, str(CALENDAR_SERVER)]
    with running_cluster(  # friends' game only: no bot worker
        tmp_path,
        postgres_url,
        redis_url,
        serve,
        worker=False,
        POCKETARENA_TEST_DATE_FILE=str(calendar.path),
    ) as cluster:
        ann, bob = Player(cluster, "ann"), Player(cluster, "bob")
        try:
            _kill_the_keeper(calendar, cluster, ann, bob)
        except BaseException:
            cluster.print_logs()
            raise
        finally:
            ann.close()
            bob.close()


def _kill_the_keeper(calendar: Calendar, cluster: Any, ann: Player, bob: Player) -> None:
    for p in (ann, bob):
        p.post("/api/auth/register", {"username": p.name, "password": "turns-test-pass"}, "s1")
    made = ann.post(
        "/api/games",
        {**GAME, "mode": "friend", "seat": 0, "rated": True, "days_per_move": 2},
        "s1",
    )
    gid = made["id"]
    invite = made["invite_url"].split("invite=")[1]
    bob.post(f"/api/games/{gid}/join", {"invite": invite}, "s1")
    ann.connect("s1", gid)  # both watch it on s1: s1 holds the game
    bob.connect("s1", gid)
    seats = {0: ann, 1: bob}
    game = ann.view(gid, "s1")
    for day in range(3):  # a move a day, at different hours
        calendar.advance(days=1, hours=-day)
        mover = seats[game["to_move"]]
        game = mover.post(
            f"/api/games/{gid}/moves",
            {"action": legal_move(game), "version": game["version"]},
            "s1",
        )
        assert game["status"] == "active", game
    late = game["to_move"]
    assert seats[late] is bob
    deadline = datetime.fromisoformat(game["deadline"])
    assert deadline == calendar.at + timedelta(days=2)
    cluster.kill("s1")
    assert bob.view(gid, "s2")["status"] == "active"
    calendar.advance(days=2, minutes=1)  # two days on, a minute past Bob's deadline
    ending = time.monotonic() + 3 * TURN_SWEEP_S
    while (final := bob.view(gid, "s2"))["status"] == "active":
        assert time.monotonic() < ending, "the deadline passed and the game went on"
        time.sleep(0.2)
    assert final["status"] == "finished" and final["termination"] == "time forfeit"
    assert final["winner"] == 0 and final["deadline"] is None
    # Both survivors sweep again (and again): nothing more happens to the game.
    time.sleep(TURN_SWEEP_S + 1)
    again = ann.view(gid, "s3")
    assert (
        again["version"] == final["version"] and again["rating_changes"] == final["rating_changes"]
    )
    assert len(final["rating_changes"]) == 2
    for p in (ann, bob):
        me = p.http.get(f"{cluster.url('s3')}/api/me").json()
        history = p.http.get(f"{cluster.url('s2')}/api/players/{me['id']}/ratings/history").json()
        assert len(history[GAME["game"]]) == 1, history  # one rated game, counted once
        bell = p.http.get(f"{cluster.url('s2')}/api/me/notifications").json()["notifications"]
        over = [n for n in bell if n["kind"] == "game_over" and n["game_id"] == gid]
        assert len(over) == 1, bell
    # Bob's page, opened again through another process, shows the end.
    bob.connect("s3", gid)
    assert bob.state is not None and bob.state["game"]["status"] == "finished"
