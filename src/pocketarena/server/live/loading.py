"""A stored game made a live one: its seats with their players and ratings, its clock as
stored, and the time charged for the spell the server (or the cluster) was down."""

from __future__ import annotations

from datetime import datetime

from pocketarena.ratings import Rating

from ..models import GameRecord, Player, utcnow
from ..store import aware
from . import session
from .games import LiveGame, Runner
from .session import Seat

HEARTBEAT = "hub"  # the heartbeat row of this server
# In a cluster: a heartbeat this recent means the cluster runs (clocks ran on meanwhile).
CLUSTER_ALIVE_S = 10.0


def seat(player: Player, rating: Rating) -> Seat:
    """A player's seat. A tournament's bots of one level are players of their own
    ("easy#2"): they play as their level."""
    bot = player.bot_spec.split("#", 1)[0] if player.bot_spec else None
    return Seat(player.id, player.name, player.kind, bot, rating)


async def build(runner: Runner, row: GameRecord) -> LiveGame:
    """The live game of a stored row (its clock as stored, not running)."""
    ids = [pid for pid in (row.seat0_id, row.seat1_id) if pid]
    players = await runner.db(runner.store.get_players, ids)
    seats: list[Seat | None] = []
    for pid in (row.seat0_id, row.seat1_id):
        if pid is None or pid not in players:
            seats.append(None)
        else:
            rating = await runner.db(runner.store.rating, pid, row.game)
            seats.append(seat(players[pid], rating))
    live = session.from_record(LiveGame, row, seats)
    live.sent_len = len(live.state.history)
    # Idle since its last stored change, not since it was loaded (abandoned games stay idle).
    live.last_activity -= max(0.0, (utcnow() - aware(row.updated_at)).total_seconds())
    return live


async def charge_time_before_stop(runner: Runner, live: LiveGame, row: GameRecord) -> None:
    """A game in progress resumed after the server stopped: the player to act is charged the
    time they had used when it stopped (up to its last heartbeat), not the time it was down."""
    since: datetime | None = row.clock_since or row.started_at
    if live.status != "active" or live.clock is None or live.actor() is None or since is None:
        return
    beat = await runner.db(runner.store.last_beat, HEARTBEAT)
    if beat is None:
        return
    now = utcnow()
    # alone, the last heartbeat is this process's own, from before it stopped
    if runner.clustered and (now - beat).total_seconds() < CLUSTER_ALIVE_S:
        beat = now  # the cluster runs (only one process may have died): time went on
    session.charge(live, aware(since), min(beat, now))
