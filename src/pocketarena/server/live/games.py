"""A game in play in this process (``LiveGame``: its table, watchers, lock, timers and
caches), and what the modules working beside the game runner (``live.hub``) may ask of it
(``Runner``): they take the runner as this protocol, so none of them imports the hub."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar

from pocketarena.core import State

from ..core.config import Settings
from ..schemas import ActionOut
from ..store import Store
from .bus import Bus
from .presence import Presence
from .session import Change, Table
from .transport import Watcher

T = TypeVar("T")


@dataclass
class LiveGame(Table):
    """A game in play here: its table, and who watches it, its lock, timers and caches (what
    a game keeps when another process's change to its table is read in)."""

    subscribers: dict[Watcher, bool] = field(default_factory=dict)  # -> wants the SVG
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    revision: int = 0  # bumps on every broadcast; keys the view cache
    view_cache: dict[tuple[bool, bool, str], tuple[int, str]] = field(default_factory=dict)
    legal_cache: tuple[int, str] | None = None
    action_json: dict[int, ActionOut] = field(default_factory=dict)  # by action id
    options_words: dict[str, str] = field(default_factory=dict)  # options_text by language
    sent_len: int = 0  # move-list entries every watcher holds (as of the last broadcast)
    delta_from: int = 0  # where the last broadcast's entries start
    bot_task: asyncio.Task[None] | None = None
    flag_timer: asyncio.TimerHandle | None = None
    last_activity: float = field(default_factory=time.monotonic)  # for the lobby's live list


def bot_to_move(live: LiveGame) -> bool:
    """Whether the game is in progress and a bot is to act."""
    if live.status != "active":
        return False
    actor = live.actor()
    seat = live.seats[actor] if actor is not None else None
    return seat is not None and seat.kind == "bot" and bool(seat.bot)


def moment(live: LiveGame) -> float:
    """Now, as the game's clock counts time."""
    return live.clock.now() if live.clock is not None else time.monotonic()


def kept(live: LiveGame) -> bool:
    """Whether something here holds on to the game: a watcher, or a change under way."""
    return bool(live.subscribers) or live.lock.locked()


def evict_idle(games: dict[str, LiveGame]) -> None:
    """Forget games nobody watches and no timer or bot is working on (they stay stored)."""
    for gid, live in list(games.items()):
        busy = kept(live) or (live.bot_task and not live.bot_task.done())
        timed = live.clock is not None and live.status == "active"
        if not busy and not timed and live.status != "waiting":
            games.pop(gid, None)


class Runner(Protocol):
    """The game runner, as the modules beside it use it."""

    games: dict[str, LiveGame]  # the games in play here, by id
    store: Store
    settings: Settings
    bus: Bus
    clustered: bool  # other processes serve the same games
    presence: Presence  # who has a socket open, here and on the other processes
    now: Callable[[], datetime]  # the date as games see it (moves, deadlines)

    @property
    def closing(self) -> bool:
        """The runner is stopping: nothing new is started."""
        ...

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``fn(*args, **kwargs)`` on a database thread."""
        ...

    def spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        """Run ``coro`` as a task the runner cancels when it stops."""
        ...

    async def get(self, game_id: str, fresh: bool = False) -> LiveGame: ...

    def locked(self, live: LiveGame) -> AbstractAsyncContextManager[None]:
        """Hold the game's lock, with its newest stored version in hand."""
        ...

    def forget(self, live: LiveGame) -> None:
        """Drop the game from memory (it stays stored) and stop its timer."""
        ...

    async def flag_check(self, live: LiveGame) -> bool:
        """End the game on time if its time is up (under its lock); whether this call did."""
        ...

    async def save(self, live: LiveGame, values: dict[str, Any]) -> None:
        """Under the game's lock: write ``values`` over the stored version (GameError if it
        moved on, or the database is away)."""
        ...

    async def carry_out(self, live: LiveGame, change: Change) -> None:
        """Under the game's lock: write ``change``, then adopt it and tell everyone."""
        ...

    async def flag_if_due(self, live: LiveGame) -> bool:
        """Under the game's lock: end it if its time is up; whether this call did."""
        ...

    async def play(self, live: LiveGame, new: State) -> None:
        """Under the game's lock: adopt ``new`` (one action past the live state)."""
        ...

    async def finish(
        self, live: LiveGame, new: State, winner: int | None, termination: str
    ) -> None:
        """Under the game's lock: the game ends at ``new``."""
        ...

    async def abandon(self, live: LiveGame) -> None:
        """End a game nobody joined, or nobody plays any more (under its lock): no result."""
        ...

    def lobby_changed(self, live: LiveGame | None = None) -> None:
        """Something the lobby shows changed (in ``live``, if given)."""
        ...

    def after_change(self, live: LiveGame, announce: bool = True) -> None:
        """Send the change, set the game's timer, and have its bot think if it is to act
        (``announce``: the change was made here, so the other processes are told)."""
        ...

    def broadcast(self, live: LiveGame, announce: bool = True) -> None:
        """Send every watcher the change (``announce``: and tell the other processes)."""
        ...

    def player_renamed(self, player_id: str, name: str, announce: bool = True) -> None:
        """A player's new name goes to the games they sit at (``announce``: renamed here)."""
        ...

    # What travels beside the games on their channels (table chat): the modules outside the
    # live layer ask for it here, never through ``games`` or ``bus``.
    def held(self, game_id: str) -> LiveGame | None:
        """The game as this process holds it, with its watchers here (None: not held here);
        nothing is read from the database."""
        ...

    async def announce(self, channel: str, message: dict[str, Any], game_id: str) -> None:
        """Send ``message`` on ``channel`` to every process following ``game_id`` (this one
        included, if one of its sockets watches the game)."""
        ...

    def hear(self, channel: str, handler: Callable[[dict[str, Any]], None]) -> None:
        """Call ``handler`` with every message announced on ``channel`` about a game some
        socket here watches (before the runner starts)."""
        ...
