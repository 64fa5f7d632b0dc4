"""The storage layer on SQLite and on the real PostgreSQL: migrations, players, accounts,
games with optimistic versions, ratings."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import delete, inspect, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import QueuePool

from pocketarena.server import store as store_module
from pocketarena.server.core.config import Settings
from pocketarena.server.core.db import (
    DatabaseConfigError,
    make_engine,
    run_migrations,
    session_factory,
)
from pocketarena.server.live import seating as seating_module
from pocketarena.server.live.bots import BotRunner
from pocketarena.server.live.hub import Hub
from pocketarena.server.models import Base, GameRecord, Player
from pocketarena.server.store import ConflictError, Store, StoreError, bot_player_id

from .conftest import make_settings


def add_session_for_an_hour(store: Store, session_id: str, player_id: str, now: datetime) -> None:
    """A session of ``player_id`` begun and last seen at ``now``, expiring an hour on."""
    from datetime import timedelta

    from pocketarena.server.models import SessionRow

    store.add_session(
        SessionRow(
            id=session_id,
            player_id=player_id,
            created_at=now,
            last_seen_at=now,
            expires_at=now + timedelta(hours=1),
        )
    )


@pytest.fixture
def store(db_settings: Settings) -> Iterator[Store]:
    engine = make_engine(db_settings)
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    yield store
    store.close()
    engine.dispose()


def game_row(gid: str, creator: str, **kw: object) -> GameRecord:
    values: dict[str, object] = dict(
        id=gid,
        game="stack-a-cash",
        options={"protect": "touched"},
        mode="friend",
        status="waiting",
        rated=True,
        creator_id=creator,
        seat0_id=creator,
        creator_seat=0,
        history=[],
        version=0,
    )
    values.update(kw)
    return GameRecord(**values)


def test_migrations_create_the_tables_and_are_idempotent(store: Store) -> None:
    run_migrations(store.engine)  # a second run is a no-op
    names = set(inspect(store.engine).get_table_names())
    assert {"players", "games", "ratings", "alembic_version"} <= names


def test_the_migrations_make_the_models_indexes(store: Store) -> None:
    """The migrations and ``models.py`` name the same indexes on the same columns: a migration
    that changes an index must change the model too (the tests' other databases are made by
    the migrations, so a model left behind would go unnoticed)."""
    found = inspect(store.engine)
    for table in Base.metadata.sorted_tables:
        declared = {
            (ix.name, tuple(c.name for c in ix.columns), bool(ix.unique)) for ix in table.indexes
        }
        made = {
            (ix["name"], tuple(ix["column_names"]), bool(ix["unique"]))
            for ix in found.get_indexes(table.name)
            if "duplicates_constraint" not in ix  # a unique constraint's own index
        }
        assert made == declared, table.name


def _open_counts_game(
    gid: str, creator: str, addr: str | None, status: str, clock: bool
) -> dict[str, object]:
    return dict(
        id=gid,
        game="flipwars",
        options={},
        mode="seek",
        status=status,
        rated=False,
        creator_id=creator,
        seat0_id=creator,
        creator_addr=addr,
        clock_initial_ms=60_000 if clock else None,
        history=[],
        version=0,
    )


def test_open_games_counts_the_games_that_hold_the_servers_attention(store: Store) -> None:
    """A game counts while it waits for an opponent (with a clock or not) or runs a clock;
    an untimed game in progress, or one over, counts nothing. The first count is the
    player's games from any address, the second the address's games by anyone."""
    a = store.ensure_guest("a" * 32).id
    b = store.ensure_guest("b" * 32).id
    here, there = "h" * 32, "t" * 32
    games = [
        ("A1", a, here, "waiting", False),  # counts for a and for here
        ("A2", a, there, "waiting", True),  # for a and for there
        ("A3", a, here, "active", True),  # for a and for here
        ("A4", a, here, "active", False),  # untimed: nothing
        ("A5", a, here, "finished", True),  # over: nothing
        ("A6", a, here, "aborted", True),
        ("A7", a, None, "active", True),  # for a, no address
        ("B1", b, here, "waiting", False),  # for b and for here
        ("B2", b, here, "active", True),  # for b and for here
        ("B3", b, here, "finished", False),
        ("B4", b, there, "active", False),
    ]
    with store.engine.begin() as conn:
        conn.execute(GameRecord.__table__.insert(), [_open_counts_game(*g) for g in games])
    assert store.open_games(a, here) == (4, 4)
    assert store.open_games(a, there) == (4, 1)
    assert store.open_games(a) == (4, 0)
    assert store.open_games(b, here) == (2, 4)
    assert store.open_games(b, "n" * 32) == (2, 0)
    assert store.open_games("c" * 32, here) == (0, 4)


def test_open_games_reads_no_finished_game(store: Store) -> None:
    """The caps' count runs for every new game. It finds a player's and an address's open
    games through indexes on (creator_id, status) and (creator_addr, status), the status in
    the index's condition, on SQLite and on PostgreSQL: the games they finished, thousands for
    a player who plays a lot or an address many players share (a NAT, a proxy), are never
    read, nor the other players' open games. Through indexes on the creator alone SQLite read
    every game the player and the address made (753 us with 6,000 finished games); with one
    OR of both creators PostgreSQL read every open game of the site, through the status's
    index."""
    a = store.ensure_guest("a" * 32).id
    b = store.ensure_guest("b" * 32).id
    here = "h" * 32
    games = [_open_counts_game(f"F{i:05d}", a, here, "finished", i % 2 == 0) for i in range(2000)]
    # Other players' games, finished and running, from addresses of their own.
    games += [_open_counts_game(f"G{i:05d}", b, f"{i:032d}", "finished", True) for i in range(2000)]
    games += [_open_counts_game(f"H{i:05d}", b, f"x{i:031d}", "active", True) for i in range(500)]
    games.append(_open_counts_game("W1", a, here, "waiting", False))
    with store.engine.begin() as conn:
        conn.execute(GameRecord.__table__.insert(), games)
    assert store.open_games(a, here) == (1, 1)
    sql = str(
        store_module._OPEN_COUNTS.params(player=a, addr=here).compile(
            store.engine, compile_kwargs={"literal_binds": True}
        )
    )
    with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            plan = [str(r[-1]) for r in conn.execute(text("EXPLAIN QUERY PLAN " + sql))]
            reads = [line for line in plan if " games" in line]
            assert sorted(reads) == [
                "SEARCH games USING INDEX ix_games_creator_addr_status (creator_addr=? AND status=?)",
                "SEARCH games USING INDEX ix_games_creator_status (creator_id=? AND status=?)",
            ], plan
        else:
            conn.execute(text("ANALYZE games"))
            # A table this small is cheaper read whole: the plan asked for is the one for many.
            conn.execute(text("SET LOCAL enable_seqscan = off"))
            plan = [str(r[0]) for r in conn.execute(text("EXPLAIN " + sql))]
            text_of = "\n".join(plan)
            assert "Seq Scan" not in text_of and "ix_games_status" not in text_of, text_of
            conditions = [line for line in plan if "Index Cond" in line]
            assert len(conditions) == 2, text_of
            assert all("status" in line for line in conditions), text_of
            assert any("creator_id" in line for line in conditions), text_of
            assert any("creator_addr" in line for line in conditions), text_of
            assert (
                "ix_games_creator_status" in text_of and "ix_games_creator_addr_status" in text_of
            )
            assert not any("Filter" in line and "creator" in line for line in plan), text_of


def test_guests_are_created_once(store: Store) -> None:
    pid = "a" * 32
    p1 = store.ensure_guest(pid)
    p2 = store.ensure_guest(pid)
    assert p1.id == p2.id == pid and p1.kind == "guest" and p1.name == "Guest aaaa"


def test_a_purged_guest_is_created_again_and_a_change_elsewhere_is_seen(store: Store) -> None:
    """Nothing about a player is remembered between calls: a guest deleted meanwhile (a purge,
    by this process or another) is created again, so a game can still name it, and a name
    changed by another process is the one given back."""
    pid = "c" * 32
    store.ensure_guest(pid)
    other = Store(store.engine, session_factory(store.engine))  # as another process would
    other.rename(pid, "Renamed")
    assert store.ensure_guest(pid).name == "Renamed"
    with store.engine.begin() as conn:
        conn.execute(delete(Player.__table__).where(Player.__table__.c.id == pid))
    assert store.get_player(pid) is None
    again = store.ensure_guest(pid)
    assert again.id == pid and again.kind == "guest" and again.name == "Guest cccc"
    assert again.created_at is not None and again.username is None
    store.insert_game(game_row("P1", pid))  # the foreign key to the player holds again
    assert store.get_players([pid, "d" * 32]).keys() == {pid}


def test_a_new_game_is_stored_as_the_orms_flush_stores_it(store: Store) -> None:
    """Games are inserted with Core, not through an ORM session: the row (and what the record
    holds afterwards) is what the ORM's flush gives: None for a column with a default leaves
    the default, a JSON column's None is JSON's null, unset columns get their defaults."""
    creator = store.ensure_guest("e" * 32).id
    kw: dict[str, object] = {"rated": None, "scores": None, "turn_id": None}
    ours = game_row("N1", creator, **kw)
    store.insert_game(ours)
    with store.sessions() as s:
        s.add(game_row("N2", creator, **kw))
        s.commit()
    table = GameRecord.__table__
    with store.engine.connect() as conn:
        rows = {
            r.id: {
                k: v for k, v in r._asdict().items() if k not in ("id", "created_at", "updated_at")
            }
            for r in conn.execute(select(table).where(table.c.id.in_(["N1", "N2"])))
        }
        sql_nulls = conn.execute(
            select(table.c.id).where(table.c.id.in_(["N1", "N2"]), table.c.scores.is_(None))
        ).all()
    assert rows["N1"] == rows["N2"] and rows["N1"]["rated"] is False
    assert sql_nulls == []  # JSON's null, not SQL NULL, in both
    assert ours.rated is False and ours.updated_at is not None and ours.created_at is not None
    with store.sessions() as s:
        orm = s.get(GameRecord, "N1")
        assert orm is not None
        expected = {c.key: getattr(orm, c.key) for c in table.c}
    loaded = store.load_game("N1")
    assert loaded is not None and {c.key: getattr(loaded, c.key) for c in table.c} == expected
    with pytest.raises(IntegrityError):  # an id taken is refused, as before
        store.insert_game(game_row("N1", creator))


def test_names_are_checked(store: Store) -> None:
    pid = "b" * 32
    assert store.rename(pid, "  Ann   Lee ").name == "Ann Lee"
    for bad in ["", "x", "y" * 25, "<script>", "bell\x07name", 42]:
        with pytest.raises(StoreError):
            store.rename(pid, bad)  # type: ignore[arg-type]
    assert store.get_player(pid).name == "Ann Lee"  # type: ignore[union-attr]


def test_accounts_hash_passwords_with_argon2(store: Store) -> None:
    pid = "c" * 32
    store.ensure_guest(pid)
    player = store.register(pid, "Alice_1", "correct horse")
    assert player.kind == "account" and player.username == "alice_1"
    with store.sessions() as s:
        stored = s.scalar(select(Player.password_hash).where(Player.id == pid))
    assert stored and stored.startswith("$argon2") and "correct horse" not in stored
    assert store.authenticate("ALICE_1", "correct horse").id == pid
    with pytest.raises(StoreError, match="wrong username or password"):
        store.authenticate("alice_1", "wrong password")
    with pytest.raises(StoreError, match="wrong username or password"):
        store.authenticate("nobody", "correct horse")
    with pytest.raises(StoreError, match="taken"):
        store.register("d" * 32, "alice_1", "another password")
    with pytest.raises(StoreError, match="at least 8"):
        store.register("e" * 32, "bob", "short")
    with pytest.raises(StoreError, match="already signed in"):
        store.register(pid, "alice_2", "correct horse")


def test_game_writes_name_the_version_they_replace(store: Store) -> None:
    creator = store.ensure_guest("f" * 32).id
    store.insert_game(game_row("G1", creator))
    store.save_game("G1", 0, {"history": ["place L b2"], "version": 1, "status": "active"})
    with pytest.raises(ConflictError):
        store.save_game("G1", 0, {"history": ["place S a1"], "version": 1})
    row = store.load_game("G1")
    assert row is not None and row.history == ["place L b2"] and row.version == 1
    assert store.unfinished_game_ids() == ["G1"]


def test_sqlite_writes_keep_one_connection_and_drop_it_when_a_batch_fails(
    tmp_path: Path,
) -> None:
    """On SQLite the games' writes keep one connection from batch to batch (none taken from
    the pool per move); a batch that fails writes nothing and throws that connection away,
    and the next batch writes on a fresh one; a write while the kept one is busy (another
    thread's batch) takes one from the pool."""
    from sqlalchemy import event

    engine = make_engine(make_settings(tmp_path))
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    checkouts: list[bool] = []
    try:
        creator = store.ensure_guest("9" * 32).id
        store.insert_game(game_row("K1", creator))
        store.insert_game(game_row("K2", creator))
        event.listen(engine.pool, "checkout", lambda *_: checkouts.append(True))
        for v in range(5):
            assert store.save_games([("K1", v, {"version": v + 1})]) == [True]
        assert len(checkouts) == 1
        with pytest.raises(ValueError, match="no column 'no_such_column'"):
            store.save_games([("K1", 5, {"version": 6}), ("K2", 0, {"no_such_column": 1})])
        assert store.game_versions(["K1", "K2"]) == {"K1": 5, "K2": 0}  # K1's UPDATE undone
        checkouts.clear()
        assert store.save_games([("K1", 5, {"version": 6})]) == [True]
        assert store.save_games([("K1", 6, {"version": 7})]) == [True]
        assert len(checkouts) == 1  # a fresh connection, kept again
        with store._writer_lock:  # the kept connection busy, as with another thread's batch
            assert store.save_games([("K2", 0, {"version": 1})]) == [True]
        assert len(checkouts) == 2
        assert store.game_versions(["K1", "K2"]) == {"K1": 7, "K2": 1}
    finally:
        engine.dispose()


def test_finishing_a_rated_game_updates_both_ratings_at_once(store: Store) -> None:
    a = store.ensure_guest("1" * 32).id
    bot = store.ensure_bot("random", "Randy").id
    assert bot == bot_player_id("random")
    store.insert_game(game_row("G2", a, seat1_id=bot, status="active", mode="bot"))
    changes = store.finish_game(
        "G2",
        0,
        {"status": "finished", "winner": 0, "result": "1-0", "version": 1},
        "stack-a-cash",
        (a, bot),
        0,
    )
    assert [c.player_id for c in changes] == [a, bot]
    assert changes[0].after > changes[0].before == 1500 and changes[1].after < 1500
    assert store.rating(a, "stack-a-cash").games == 1
    row = store.load_game("G2")
    assert row is not None and row.rating_changes is not None and row.rating_changes[0]["delta"] > 0
    with pytest.raises(ConflictError):  # a second finish on the old version writes nothing
        store.finish_game("G2", 0, {"version": 1}, "stack-a-cash", (a, bot), 1)
    assert store.rating(a, "stack-a-cash").games == 1
    assert store.player_stats(a) == {"played": 1, "wins": 1, "draws": 0, "losses": 0}
    assert [g.id for g in store.player_games(a)] == ["G2"]
    assert store.ratings_of(bot)["stack-a-cash"].display < 1500


def test_bad_database_urls_are_explained(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DatabaseConfigError, match="cannot read the database URL"):
        make_engine(Settings(data_dir=tmp_path, database_url="not a url"))
    with pytest.raises(DatabaseConfigError, match="SQLite or PostgreSQL"):
        make_engine(Settings(data_dir=tmp_path, database_url="mysql://x@y/z"))
    with pytest.raises(DatabaseConfigError, match="plain identifier"):
        make_engine(
            Settings(data_dir=tmp_path, database_url="postgresql://x@y/z", database_schema="a;b")
        )


def test_a_batch_of_game_writes_commits_those_whose_version_still_holds(store: Store) -> None:
    creator = store.ensure_guest("e" * 32).id
    for gid in ("B1", "B2", "B3"):
        store.insert_game(game_row(gid, creator))
    store.save_game("B2", 0, {"history": ["place L b2"], "version": 1})
    done = store.save_games(
        [
            ("B1", 0, {"history": ["place S a1"], "version": 1}),
            ("B2", 0, {"history": ["place S c3"], "version": 1}),  # stale: B2 is at 1
            ("B3", 0, {"history": ["place M b1"], "version": 1, "status": "active"}),
        ]
    )
    assert done == [True, False, True]
    rows = {gid: store.load_game(gid) for gid in ("B1", "B2", "B3")}
    assert [(r.history, r.version) for r in rows.values() if r is not None] == [
        (["place S a1"], 1),
        (["place L b2"], 1),
        (["place M b1"], 1),
    ]
    assert rows["B3"] is not None and rows["B3"].status == "active"
    # Two writes of one game in a batch (never made by the hub) are still applied in order.
    done = store.save_games(
        [
            ("B1", 1, {"history": ["place S a1", "x"], "version": 2}),
            ("B1", 2, {"history": ["place S a1", "x", "y"], "version": 3}),
        ]
    )
    assert done == [True, True]
    row = store.load_game("B1")
    assert row is not None and row.version == 3 and row.history == ["place S a1", "x", "y"]


def test_a_game_write_stores_what_sqlalchemys_own_update_stores(store: Store) -> None:
    """The games' UPDATEs are written by the store itself (not built by SQLAlchemy for each
    move): every kind of column reads back as SQLAlchemy's own UPDATE of the same values
    leaves it: dates with their zone, None as SQL NULL, JSON lists and JSON's null, booleans."""
    creator = store.ensure_guest("f" * 32).id
    games = ("U1", "U2", "U3", "U4")
    for gid in games:
        store.insert_game(game_row(gid, creator))
    when = datetime(2026, 12, 6, 14, 30, 15, 123456, tzinfo=UTC)
    values: dict[str, object] = {
        "history": ["place L b2", "place S a1"],
        "version": 1,
        "status": "finished",
        "rated": False,
        "winner": None,
        "result": "1-0",
        "scores": None,  # JSON: null, as SQLAlchemy writes None for a JSON column
        "rating_changes": [{"player": creator, "before": 1500}],
        "clock0_ms": 0,
        "clock_since": when,
        "finished_at": when,
        "deadline": None,
        "turn_id": None,
    }
    # U1 alone, U2 with U3 in one batch (on PostgreSQL: one statement of both)
    assert store.save_games([("U1", 0, values)]) == [True]
    assert store.save_games([("U2", 0, values), ("U3", 0, values)]) == [True, True]
    table = GameRecord.__table__
    with store.engine.begin() as conn:  # U4 by SQLAlchemy's own UPDATE
        conn.execute(update(table).where(table.c.id == "U4").values(**values))
        rows = {
            r.id: {
                k: v for k, v in r._asdict().items() if k not in ("id", "created_at", "updated_at")
            }
            for r in conn.execute(select(table).where(table.c.id.in_(games)))
        }
        sql_nulls = conn.execute(
            select(table.c.id).where(table.c.id.in_(games), table.c.scores.is_(None))
        ).all()
    assert rows["U1"] == rows["U2"] == rows["U3"] == rows["U4"]
    ours = rows["U1"]
    assert ours["history"] == ["place L b2", "place S a1"] and ours["version"] == 1
    assert ours["clock_since"].replace(tzinfo=UTC) == when  # SQLite gives it back naive
    assert ours["scores"] is None and ours["winner"] is None and ours["rated"] is False
    assert sql_nulls == []  # JSON's null, not SQL NULL
    row = store.load_game("U1")
    assert row is not None and row.updated_at is not None


def test_postgresql_keeps_a_fixed_pool_of_connections(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """Many threads at once wait for a pooled connection rather than opening (and then
    closing) extra ones: opening one costs a server process."""
    from concurrent.futures import ThreadPoolExecutor

    from sqlalchemy import event

    # PostgreSQL only: SQLite opens files, it has no server connections to pool.
    db_settings = make_settings(
        tmp_path, database_url=postgres_url, database_schema=pg_schema, database_pool_size=3
    )
    engine = make_engine(db_settings)
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    opened: list[object] = []
    event.listen(engine, "connect", lambda *_: opened.append(1))
    try:
        creator = store.ensure_guest("d" * 32).id
        for i in range(12):
            store.insert_game(game_row(f"P{i}", creator))
        with ThreadPoolExecutor(12) as pool:
            done = list(
                pool.map(lambda i: store.save_games([(f"P{i}", 0, {"version": 1})]), range(12))
            )
        assert done == [[True]] * 12
        assert len(opened) <= 3
        assert isinstance(engine.pool, QueuePool) and engine.pool.checkedout() == 0
    finally:
        engine.dispose()


def test_postgresql_writes_keep_a_connection_and_replace_a_dropped_one(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """On PostgreSQL the games' batched writes keep a driver connection from batch to batch
    (none taken from the pool per move). When PostgreSQL drops it (its backend terminated,
    as in a restart), the next batch is written all the same, and a new one is kept; a
    statement that fails raises SQLAlchemy's error, writes nothing, and its connection is
    not used again."""
    from sqlalchemy import event, text
    from sqlalchemy.exc import DBAPIError

    engine = make_engine(
        make_settings(tmp_path, database_url=postgres_url, database_schema=pg_schema)
    )
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    checkouts: list[bool] = []
    try:
        creator = store.ensure_guest("k" * 32).id
        store.insert_game(game_row("K1", creator))
        store.insert_game(game_row("K2", creator))
        event.listen(engine.pool, "checkout", lambda *_: checkouts.append(True))
        for v in range(5):
            assert store.save_games([("K1", v, {"version": v + 1})]) == [True]
        assert len(checkouts) == 1 and len(store._kept) == 1
        backend = store._kept[0].driver_connection.info.backend_pid  # type: ignore[union-attr]
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": backend})
        assert store.save_games([("K1", 5, {"version": 6})]) == [True]
        assert store._kept == []  # the dropped one thrown away
        assert store.save_games([("K1", 6, {"version": 7})]) == [True]
        assert len(store._kept) == 1
        assert store._kept[0].driver_connection.info.backend_pid != backend  # type: ignore[union-attr]
        with pytest.raises(DBAPIError, match="not a number"):
            store.save_games([("K2", 0, {"version": "not a number"})])
        assert store._kept == [] and store._kept_count == 0
        assert store.game_versions(["K1", "K2"]) == {"K1": 7, "K2": 0}
        assert store.save_games([("K2", 0, {"version": 1})]) == [True]
        store.close()
        assert isinstance(engine.pool, QueuePool) and engine.pool.checkedout() == 0
    finally:
        store.close()
        engine.dispose()


def test_the_pool_size_is_checked(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="DATABASE_POOL_SIZE"):
        Settings(data_dir=tmp_path, database_pool_size=0)
    assert Settings.from_env({"POCKETARENA_DATABASE_POOL_SIZE": "7"}).database_pool_size == 7


def test_finishing_an_unrated_game_is_one_versioned_write(store: Store) -> None:
    creator = store.ensure_guest("c" * 32).id
    store.insert_game(game_row("U1", creator, status="active"))
    finished_at = store.now()
    values = {
        "history": ["place L b2"],
        "version": 1,
        "status": "finished",
        "winner": None,
        "result": "½-½",
        "scores": [0.5, 0.5],
        "finished_at": finished_at,
        "rated": False,
    }
    assert store.finish_game("U1", 0, values, "stack-a-cash", None, None) == []
    with pytest.raises(ConflictError):  # a second finish on the old version writes nothing
        store.finish_game("U1", 0, {**values, "result": "1-0"}, "stack-a-cash", None, 0)
    row = store.load_game("U1")
    assert row is not None and (row.version, row.status, row.result) == (1, "finished", "½-½")
    assert row.history == ["place L b2"] and row.scores == [0.5, 0.5] and row.winner is None
    assert (
        row.finished_at is not None
        and abs(row.finished_at.timestamp() - finished_at.timestamp()) < 1e-3
    )
    assert row.rating_changes is None
    assert store.rating(creator, "stack-a-cash").games == 0


def test_postgresql_reads_open_no_transaction(
    tmp_path: Path, postgres_url: str, pg_schema: str
) -> None:
    """A read is one statement, one round trip: no BEGIN before it, no ROLLBACK after it. A
    write of several statements (a rated game's end) still runs in one transaction."""
    from datetime import timedelta

    from sqlalchemy import event

    engine = make_engine(
        make_settings(tmp_path, database_url=postgres_url, database_schema=pg_schema)
    )
    run_migrations(engine)
    store = Store(engine, session_factory(engine))
    transactions: list[bool] = []  # one per BEGIN sent (autocommit connections send none)

    def began(conn: object) -> None:
        if not conn.connection.dbapi_connection.autocommit:  # type: ignore[attr-defined]
            transactions.append(True)

    try:
        a = store.ensure_guest("a" * 32).id
        b = store.ensure_guest("b" * 32).id
        store.insert_game(game_row("R1", a, seat1_id=b, status="active"))
        now = store.now()
        add_session_for_an_hour(store, "s" * 64, a, now)
        event.listen(engine, "begin", began)
        assert store.get_player(a) is not None and store.ensure_guest(b).id == b
        assert store.ensure_guest("c" * 32).kind == "guest"  # an INSERT: one statement
        store.insert_game(game_row("R2", a, status="active"))
        assert store.load_game("R1") is not None and store.game_version("R1") == 0
        assert store.rating(a, "stack-a-cash").games == 0
        assert store.open_games(a) == (0, 0)
        found = store.find_session("s" * 64, now, timedelta(hours=1), timedelta(days=1))
        assert found is not None and found.player_id == a
        assert store.save_games([("R1", 0, {"history": ["place L b2"], "version": 1})]) == [True]
        assert transactions == []
        store.finish_game("R1", 1, {"status": "finished", "version": 2}, "stack-a-cash", (a, b), 0)
        assert transactions == [True]
        assert store.rating(a, "stack-a-cash").games == 1
    finally:
        engine.dispose()


def test_a_new_game_takes_a_free_id_without_loading_a_game_to_check(
    db_settings: Settings, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A new game's id is drawn again while it is taken (here the first draw is a stored
    game's id); whether one is taken is a light query, not a whole game row (its history,
    options and clocks) loaded to be thrown away."""
    creator = store.ensure_guest("f" * 32).id
    store.insert_game(game_row("Taken001", creator))
    assert store.game_exists("Taken001") and not store.game_exists("Fresh001")
    drawn = iter(["Taken001", "Fresh001"])
    monkeypatch.setattr(seating_module, "new_game_id", lambda: next(drawn))
    loaded: list[str] = []
    load_game = store.load_game

    def counted(game_id: str) -> GameRecord | None:
        loaded.append(game_id)
        return load_game(game_id)

    monkeypatch.setattr(store, "load_game", counted)
    bots = BotRunner("thread", 1, 5.0)

    async def main() -> str:
        hub = Hub(store, db_settings, bots)
        try:
            live = await hub.seating.create(creator, "stack-a-cash", {}, "friend", seat=0)
        finally:
            await hub.close()
        return live.id

    try:
        assert asyncio.run(main()) == "Fresh001"
    finally:
        bots.close()
    assert loaded == [], "a whole game row was loaded to learn whether an id is free"
    row = load_game("Taken001")
    assert row is not None and row.creator_id == creator and row.status == "waiting"


def test_a_session_is_noted_at_most_once_a_minute_and_deleted_once_expired(store: Store) -> None:
    """``find_session``: a session used again within a minute is not written; later its last
    use moves and it expires an idle period on, never past its maximum age; an expired one
    is deleted when asked for, and an unknown one is None."""
    from datetime import timedelta

    from pocketarena.server.store import aware

    a = store.ensure_guest("a" * 32).id
    t0 = store.now()
    add_session_for_an_hour(store, "s" * 64, a, t0)
    idle, most = timedelta(hours=1), timedelta(minutes=90)

    def stored() -> tuple[datetime, datetime]:
        (row,) = store.sessions_of(a)
        return aware(row.last_seen_at), aware(row.expires_at)

    found = store.find_session("s" * 64, t0 + timedelta(seconds=30), idle, most)
    assert found is not None and found.player_id == a and aware(found.last_seen_at) == t0
    assert stored() == (t0, t0 + idle)
    later = t0 + timedelta(minutes=5)
    found = store.find_session("s" * 64, later, idle, most)
    assert found is not None and aware(found.last_seen_at) == later
    assert aware(found.expires_at) == later + idle and stored() == (later, later + idle)
    last = t0 + timedelta(minutes=60)
    found = store.find_session("s" * 64, last, idle, most)
    assert found is not None and stored() == (last, t0 + most)  # capped by the maximum age
    assert store.find_session("s" * 64, t0 + most, idle, most) is None
    assert store.sessions_of(a) == []
    assert store.find_session("t" * 64, t0, idle, most) is None
