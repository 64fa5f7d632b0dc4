"""Live games made directly (no server, no database) for the session and view tests."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any, TypeVar

from pocketarena.core import CHANCE
from pocketarena.fair import FairChance
from pocketarena.ratings import Rating
from pocketarena.server import catalog
from pocketarena.server.live import session
from pocketarena.server.live.clock import Clock
from pocketarena.server.live.session import Seat, Table

T = TypeVar("T", bound=Table)
SEED = "5e" * 32


def seat(pid: str, kind: str = "account", bot: str | None = None) -> Seat:
    return Seat(pid, pid.title(), kind, bot, Rating())


def table(
    game: str = "stack-a-cash",
    seats: tuple[Seat | None, Seat | None] | None = None,
    status: str = "active",
    clock: Clock | None = None,
    **options: Any,
) -> Table:
    return made(Table, game, seats, status, clock, **options)


def made(
    kind: type[T],
    game: str = "stack-a-cash",
    seats: tuple[Seat | None, Seat | None] | None = None,
    status: str = "active",
    clock: Clock | None = None,
    **options: Any,
) -> T:
    """A game between Ann (an account, first) and Bob (an account) unless ``seats`` say
    otherwise, its chance (if any) from a fixed seed."""
    g = catalog.load_game(game, options)
    return kind(
        id="T1",
        game=g,
        state=g.new_initial_state(),
        mode="friend",
        rated=True,
        creator_id="ann",
        creator_seat=0,
        seats=list(seats or (seat("ann"), seat("bob"))),
        status=status,
        chance=FairChance("T1", seed=SEED) if g.CHANCE else None,
        clock=clock,
    )


def random_turn(live: Table, rng: random.Random, wall: datetime) -> None:
    """Play the game's next action at random (Ann's or Bob's: a move, or their throw)."""
    player = "ann" if live.actor() == 0 else "bob"
    if live.state.current_player == CHANCE:
        change = session.throw(live, player, live.version, 0.0, wall)
    else:
        action = rng.choice(live.state.legal_actions()).text
        change = session.move(live, player, action, live.version, 0.0, wall)
    session.adopt(live, change)
