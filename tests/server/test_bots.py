"""Bots think off the event loop (worker processes by default) within their time budget."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import pocketarena as pa
from pocketarena.bots import Bot, make_bot
from pocketarena.server import catalog
from pocketarena.server.live.bots import BACKGROUND_NICENESS, BotRunner, bot_seed
from pocketarena.server.main import create_app

from .conftest import create, make_settings


def test_bots_play_from_worker_processes(tmp_path: Path) -> None:
    settings = make_settings(tmp_path, bot_executor="process", bot_workers=1)
    with TestClient(create_app(settings)) as client:
        gid = create(client, game="stack-a-cash", mode="bot", bot="random", seat=1)["id"]
        deadline = time.monotonic() + 60  # a worker process starts (spawn) on first use
        while time.monotonic() < deadline:
            view = client.get(f"/api/games/{gid}?svg=false").json()
            if view["version"] >= 1:
                break
            time.sleep(0.05)
        assert view["history"][0]["seat"] == 0 and view["to_move"] == 1


class SlowBot(Bot):
    def __init__(self, spec: str, game: pa.Game, seed: int | None = None) -> None:
        super().__init__(game, seed=seed)

    def choose(self, state: pa.State) -> pa.Action:
        time.sleep(2.0)
        return state.legal_actions()[0]


def test_a_bot_over_its_budget_gets_a_random_legal_move(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "make_bot", SlowBot)
    runner = BotRunner("thread", workers=1, budget_s=0.2)
    state = pa.load("stack-a-cash").new_initial_state()

    async def ask() -> tuple[pa.Action, float]:
        started = time.monotonic()
        action = await runner.choose("slow", state, seed=3)
        return action, time.monotonic() - started

    try:
        action, took = asyncio.run(ask())
    finally:
        runner.close()
    assert took < 1.0
    assert action in state.legal_actions()
    assert state.history == []  # the caller's state is untouched


def test_the_event_loop_stays_free_while_a_bot_thinks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(catalog, "make_bot", SlowBot)
    runner = BotRunner("thread", workers=1, budget_s=1.0)
    state = pa.load("stack-a-cash").new_initial_state()

    async def both() -> int:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        await runner.choose("slow", state, seed=1)
        task.cancel()
        return ticks

    try:
        ticks = asyncio.run(both())
    finally:
        runner.close()
    assert ticks > 30  # the loop kept running for most of the second the bot took


def test_a_kept_bot_is_reseeded_for_every_move() -> None:
    """One thread keeps one bot per game; whatever it was asked before, its move for a seed is
    the move of a bot freshly built with that seed."""
    runner = BotRunner("thread", workers=1, budget_s=10.0)
    state = pa.load("flipwars").new_initial_state()
    seeds = [5, 11, 5, 2024, 11, 7]

    async def ask() -> list[pa.Action]:
        return [await runner.choose("random", state, seed=seed) for seed in seeds]

    try:
        moves = asyncio.run(ask())
    finally:
        runner.close()
    fresh = [make_bot("random", state.game, seed=seed).choose(state) for seed in seeds]
    assert moves == fresh
    assert len(set(moves)) > 1  # the seeds matter: a bot kept with its first seed would differ


def test_a_server_bot_game_replays_exactly(client: TestClient) -> None:
    """Every bot move of a finished game is the move its bot makes from the seed of that ply."""
    gid = create(client, game="flipwars", mode="bot", bot="random", seat=0)["id"]
    view = client.get(f"/api/games/{gid}?svg=false").json()
    deadline = time.monotonic() + 30
    while view["status"] == "active" and time.monotonic() < deadline:
        if view["to_move"] == 0:
            move = view["legal"][0]["text"]
            client.post(
                f"/api/games/{gid}/moves", json={"action": move, "version": view["version"]}
            )
        time.sleep(0.01)
        view = client.get(f"/api/games/{gid}?svg=false").json()
    assert view["status"] == "finished"
    game = catalog.load_game("flipwars", view["options"])
    state = game.new_initial_state()
    bot_moves = 0
    for ply, entry in enumerate(view["history"]):
        if entry["seat"] == 1:
            bot = make_bot("random", game, seed=bot_seed(gid, ply))
            assert bot.choose(state).text == entry["text"], f"ply {ply}"
            bot_moves += 1
        state.apply(entry["text"])
    assert bot_moves >= 5


def test_background_work_runs_in_a_worker_that_yields_to_live_games() -> None:
    """A finished game's blunder scan and a replay's analysis run in their own worker at a
    lower priority (a higher niceness) than the bots of live games, which keep theirs."""

    runner = BotRunner("process", workers=1, budget_s=10.0)
    try:

        async def both() -> tuple[int, int, int, int]:
            live = await runner.call(os.nice, 0, timeout_s=60)
            background = await runner.call(os.nice, 0, timeout_s=60, background=True)
            live_pid = await runner.call(os.getpid, timeout_s=60)
            background_pid = await runner.call(os.getpid, timeout_s=60, background=True)
            return live, background, live_pid, background_pid

        live, background, live_pid, background_pid = asyncio.run(both())
    finally:
        runner.close()
    here = os.nice(0)
    assert live == here
    assert background == min(19, here + BACKGROUND_NICENESS)
    assert background_pid != live_pid != os.getpid()


def test_background_work_never_holds_the_bots_threads() -> None:
    """With bots in threads, a long background scan runs on a thread of its own: a bot's
    move in the meantime is not queued behind it (a bot game stalled so in the fault test)."""
    import threading

    release = threading.Event()
    runner = BotRunner("thread", workers=1, budget_s=10.0)
    try:

        async def both() -> str:
            scan = asyncio.ensure_future(
                runner.call(release.wait, 30, timeout_s=60, background=True)
            )
            await asyncio.sleep(0.1)  # the scan holds its thread now
            name = await runner.call(lambda: threading.current_thread().name, timeout_s=5)
            release.set()
            assert await scan
            return name

        bot_thread = asyncio.run(both())
    finally:
        release.set()
        runner.close()
    assert "background" not in bot_thread


CTRL_C_WHILE_WORKERS_START = """
import asyncio, concurrent.futures, os, signal, sys

from pocketarena.server.live.bots import BotRunner

submit = concurrent.futures.ProcessPoolExecutor.submit


def submit_after_a_ctrl_c(self, *args, **kwargs):
    os.kill(os.getpid(), signal.SIGINT)  # pressed just as the workers are being started
    return submit(self, *args, **kwargs)


concurrent.futures.ProcessPoolExecutor.submit = submit_after_a_ctrl_c


async def main() -> None:
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGINT, stop.set)
    runner = BotRunner("process", workers=1, budget_s=10.0)
    try:
        async with asyncio.timeout(10):
            await stop.wait()
        print("stopped")
    except TimeoutError:
        print("the Ctrl-C was lost")
    finally:
        runner.close()


asyncio.run(main())
"""


def test_a_ctrl_c_while_the_bot_workers_start_is_not_lost(tmp_path: Path) -> None:
    """The README's worker sometimes outlived Ctrl-C in a busy suite: SIGINT was ignored for the
    moment its bot workers were started (so that a terminal's Ctrl-C would not reach them
    mid-import), and a Ctrl-C meant for the worker in that moment was thrown away."""
    done = subprocess.run(
        [sys.executable, "-c", CTRL_C_WHILE_WORKERS_START],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2] / "src")},
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert done.stdout.strip() == "stopped", done.stdout + done.stderr
