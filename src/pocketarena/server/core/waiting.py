"""Waiting for what a process needs (the database, Redis) instead of giving up: a server or
worker started while either is away, or restarted with it, keeps trying and says so once a
minute, then goes on by itself when it answers."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any, TypeVar

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from sqlalchemy.exc import InterfaceError, OperationalError

T = TypeVar("T")
RETRY_S = 2.0  # between tries
SAY_EVERY_S = 60.0  # how often the wait is said again
# PostgreSQL's classes of errors that mean "not now": connection exceptions, "cannot connect
# now" (starting up, shutting down) and insufficient resources (too many connections).
_NOT_NOW = ("08", "57", "53")
_NOT_NOW_SAID = (
    "is starting up",
    "is shutting down",
    "in recovery mode",
    "not yet accepting connections",
    "too many clients",
    "connection slots are reserved",
    "administrator command",
)


def away(e: BaseException) -> bool:
    """Whether ``e`` looks like the database or Redis being away (refused, dropped, starting,
    restarting), not a wrong setting (a role or database that does not exist, a password)."""
    if isinstance(e, (OperationalError, InterfaceError)):
        state = getattr(e.orig, "sqlstate", None)
        if state is not None:
            return str(state)[:2] in _NOT_NOW
        # A failed connection has no code: the server's own refusal ("FATAL: role ... does not
        # exist") is a setting to fix unless it says "not now".
        text = str(e.orig)
        return "FATAL:" not in text or any(p in text for p in _NOT_NOW_SAID)
    from redis.exceptions import AuthenticationError, AuthorizationError

    if isinstance(e, (AuthenticationError, AuthorizationError)):
        return False
    return isinstance(e, (OSError, RedisConnectionError, RedisTimeoutError))


def reason(e: BaseException) -> str:
    """One line saying what went wrong."""
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0] if text else ''}"[:300]


def wait_for(what: str, attempt: Callable[[], T], say: Callable[[str], None]) -> T:
    """``attempt()`` until it stops failing as if ``what`` were away (``away``); other errors
    are raised at once. ``say`` hears of the wait at the first failure and once a minute."""
    said = -SAY_EVERY_S
    while True:
        try:
            return attempt()
        except Exception as e:
            if not away(e):
                raise
            if time.monotonic() - said >= SAY_EVERY_S:
                said = time.monotonic()
                say(f"waiting for {what} ({reason(e)}); trying again every {RETRY_S:g} s")
            time.sleep(RETRY_S)


async def wait_for_async(
    what: str, attempt: Callable[[], Awaitable[T]], say: Callable[[str], None]
) -> T:
    """``wait_for`` on the event loop."""
    said = -SAY_EVERY_S
    while True:
        try:
            return await attempt()
        except Exception as e:
            if not away(e):
                raise
            if time.monotonic() - said >= SAY_EVERY_S:
                said = time.monotonic()
                say(f"waiting for {what} ({reason(e)}); trying again every {RETRY_S:g} s")
            await asyncio.sleep(RETRY_S)


def cancel_lost() -> bool:
    """Whether the running task was cancelled and the cancel never reached it. redis-py (8.2,
    Python 3.11) writes each command under asyncio.wait_for, which returns the write's result
    instead of raising a cancel that lands in the turn the write ends; the task then stays
    "cancelling" (``Task.cancelling()``) and goes on. A loop that a cancel is meant to end
    checks this each turn (``while not cancel_lost():``), or it runs on for good."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def cancel_and_wait(
    tasks: Collection[asyncio.Task[Any]], wait_s: float
) -> set[asyncio.Task[Any]]:
    """Cancel ``tasks`` and wait for them ``wait_s`` at most; the ones still running then (a
    cancel lost in a call, see ``cancel_lost``, and a task that does not check it) are returned,
    for the caller to name (``task_names``) and leave. How the others ended is read and let go,
    as an ``await`` under ``suppress`` would."""
    if not tasks:
        return set()
    for task in tasks:
        task.cancel()
    done, pending = await asyncio.wait(tasks, timeout=wait_s)
    for task in done:
        if not task.cancelled():
            task.exception()  # retrieved: no "exception was never retrieved" at exit
    return pending


def task_names(tasks: Collection[asyncio.Task[Any]]) -> str:
    """Which tasks these are, for a log line: each one's coroutine and name."""
    names = []
    for task in tasks:
        coro = task.get_coro()
        names.append(f"{getattr(coro, '__qualname__', repr(coro))} ({task.get_name()})")
    return ", ".join(sorted(names))
