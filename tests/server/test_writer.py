"""Group commit of game writes: batches, and how many may be written at once."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from pocketarena.server.live.writer import GameWriter
from pocketarena.server.store import ConflictError, Store

Write = tuple[str, int, dict[str, Any]]


class SlowStore:
    """Writes that take as long as the test says: each batch waits for its own go-ahead."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []
        self.started = threading.Semaphore(0)
        self.go = threading.Semaphore(0)
        self.versions: dict[str, int] = {}

    def save_games(self, writes: list[Write]) -> list[bool]:
        self.batches.append([w[0] for w in writes])
        self.started.release()
        assert self.go.acquire(timeout=10)
        done = []
        for gid, expected, values in writes:
            ok = self.versions.get(gid, 0) == expected
            if ok:
                self.versions[gid] = values["version"]
            done.append(ok)
        return done


async def wait_started(store: SlowStore) -> None:
    assert await asyncio.to_thread(store.started.acquire, True, 10)


@pytest.mark.parametrize("in_flight", [1, 3])
def test_moves_arriving_during_a_write_wait_or_start_their_own_batch(in_flight: int) -> None:
    store = SlowStore()

    async def scenario() -> None:
        with ThreadPoolExecutor(4) as pool:
            writer = GameWriter(store, pool, max_in_flight=in_flight)  # type: ignore[arg-type]
            first = asyncio.ensure_future(writer.save("a", 0, {"version": 1}))
            await wait_started(store)  # "a" is being written
            later = []
            for gid in ("b", "c", "d"):
                later.append(asyncio.ensure_future(writer.save(gid, 0, {"version": 1})))
                await asyncio.sleep(0.05)
            if in_flight == 1:
                assert store.batches == [["a"]]  # the others wait for "a"'s commit
                store.go.release()
                await first
                await wait_started(store)
                assert store.batches == [["a"], ["b", "c", "d"]]  # then go in one batch
                store.go.release()
            else:
                # "b" and "c" did not wait for "a"; "d" waits: three batches are in flight.
                await wait_started(store)
                await wait_started(store)
                assert store.batches[0] == ["a"] and sorted(store.batches[1:]) == [["b"], ["c"]]
                store.go.release()
                await wait_started(store)  # "d" goes as soon as one of them is written
                assert store.batches[3] == ["d"]
                for _ in range(3):
                    store.go.release()
                await first
            await asyncio.gather(*later)
            assert writer.writes == 4 and writer._flushing == 0
            # A stale version fails that write alone.
            stale = asyncio.ensure_future(writer.save("a", 0, {"version": 2}))
            await wait_started(store)
            store.go.release()
            with pytest.raises(ConflictError):
                await stale

    asyncio.run(scenario())


def test_the_database_decides_how_many_batches_go_at_once(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import make_engine, session_factory

    engine = make_engine(Settings(data_dir=tmp_path))
    try:
        writer = GameWriter(Store(engine, session_factory(engine)), ThreadPoolExecutor(1))
        assert writer.max_in_flight == 1  # SQLite: one writer at a time
    finally:
        engine.dispose()
    pg = Settings(data_dir=tmp_path, database_url="postgresql+psycopg://u@127.0.0.1:1/x")
    engine = make_engine(pg)  # connects only when used
    try:
        writer = GameWriter(Store(engine, session_factory(engine)), ThreadPoolExecutor(1))
        assert writer.max_in_flight == 4
    finally:
        engine.dispose()


def test_a_conflict_is_worded_in_each_waiters_language() -> None:
    """Several games' saves go in one batch that one of them started; a save that lost its race
    is refused in its own request's language, not in the language of whoever started the batch
    (each waiter's answer is worded where that waiter is answered)."""
    from pocketarena import i18n

    store = SlowStore()
    store.versions = {"b": 5, "c": 5, "d": 5}

    async def save(lang: str, gid: str, version: int) -> str:
        with i18n.use_locale(lang):
            try:
                await writer.save(gid, version, {"version": version + 1})
            except ConflictError as e:
                return str(e)
            return "saved"

    async def scenario() -> list[str]:
        first = asyncio.ensure_future(save("en", "a", 0))  # an English request starts the batch
        await wait_started(store)
        waiting = [
            asyncio.ensure_future(save(lang, gid, version))
            for lang, gid, version in (("fr", "b", 4), ("de", "c", 4), ("en", "d", 4))
        ]
        await asyncio.sleep(0.05)
        store.go.release()
        assert await first == "saved"
        await wait_started(store)
        assert store.batches == [["a"], ["b", "c", "d"]]  # the three lost in one batch
        store.go.release()
        return list(await asyncio.gather(*waiting))

    with ThreadPoolExecutor(2) as pool:
        writer = GameWriter(store, pool, max_in_flight=1)  # type: ignore[arg-type]
        said = asyncio.run(scenario())
    assert said == [
        "la partie b a changé ailleurs ; rechargez-la",
        "die Partie c wurde anderswo geändert; lade sie neu",
        "game d changed elsewhere; reload it",
    ], said
