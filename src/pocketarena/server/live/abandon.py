"""Games people walked away from (as lichess handles them).

- A game in progress with no move for ``abandon_after_s`` is aborted: it leaves the lobby, no
  rating changes, and a restart does not bring it back. Not a turn-based game: its moves
  take days by design, and the deadline of each ends it.
- In an untimed game between two people, when the player to act has left (no page of theirs
  shows the game, on any process of the cluster: ``live.presence``) and has not moved for
  ``claim_win_after_s``, their opponent may claim the win. A timed game needs no claim: the clock ends it.

The hub knows nothing of this module; it is driven from the app's housekeeping and the claim
endpoint, through the runner's public methods (``live.games.Runner``) and the store.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from datetime import timedelta

from pocketarena.i18n import _

from ..models import utcnow
from ..names import shown_name
from .games import LiveGame, Runner
from .session import GameError, abandoned_values

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Claim:
    """Whether ``player`` may claim the win now; if not yet, in how many seconds (None: not
    at all, ``reason`` says why)."""

    allowed: bool
    wait_s: int | None
    reason: str  # in the reader's language
    final: bool = False  # the game is not in progress: no claim will ever be allowed

    def to_json(self) -> dict[str, object]:
        return {
            "allowed": self.allowed,
            "wait_s": self.wait_s,
            "reason": self.reason,
            "final": self.final,
        }


def idle_s(live: LiveGame) -> float:
    """Seconds since the game's last move (a game loaded from the database counts from the
    time of its last stored change)."""
    return max(0.0, time.monotonic() - live.last_activity)


async def claim(hub: Runner, live: LiveGame, player_id: str | None) -> Claim:
    """Whether ``player_id`` may claim the win in ``live`` now."""
    if live.status != "active":
        return Claim(False, None, _("only a game in progress can be won this way"), final=True)
    mine = live.seats_of(player_id)
    if not mine:
        return Claim(False, None, _("only a player of this game can claim it"))
    if len(mine) == 2:
        return Claim(False, None, _("both seats are yours: there is nobody to wait for"))
    if live.clock is not None:
        return Claim(False, None, _("this game has a clock: it ends when the clock runs out"))
    if live.days_per_move is not None:
        return Claim(
            False, None, _("this game is turn-based: it ends when a move's deadline passes")
        )
    other = 1 - mine[0]
    seat = live.seats[other]
    if seat is None or seat.kind == "bot":
        return Claim(False, None, _("your opponent is a bot: it always comes back"))
    if live.actor() != other:
        return Claim(False, None, _("it is your turn: only a player waiting can claim the win"))
    name = shown_name(seat.player_id, seat.name, seat.kind)
    if await hub.presence.seeing(live.id, seat.player_id):  # on any process
        return Claim(False, None, _("%(name)s still has the game open", name=name))
    wait = hub.settings.claim_win_after_s - idle_s(live)
    if wait > 0:
        return Claim(
            False,
            int(wait) + 1,
            _("%(name)s has left; wait a little before claiming", name=name),
        )
    return Claim(True, 0, _("%(name)s has left the game", name=name))


async def claim_win(hub: Runner, player_id: str | None, game_id: str) -> LiveGame:
    """End the game as a win for ``player_id``, whose opponent has left (see ``claim``)."""
    live = await hub.get(game_id)
    async with hub.locked(live):  # in a cluster: the newest stored version
        verdict = await claim(hub, live, player_id)
        if not verdict.allowed:
            if verdict.wait_s is not None:
                raise GameError(
                    "not_active",
                    _(
                        "%(reason)s: you can claim the win in %(seconds)s s",
                        reason=verdict.reason,
                        seconds=verdict.wait_s,
                    ),
                )
            raise GameError("forbidden", verdict.reason)
        seat = live.seats_of(player_id)[0]
        await hub.finish(live, live.state, seat, "abandoned")
    return live


async def abort_idle(hub: Runner) -> int:
    """Abort every game in progress with no move for ``abandon_after_s``: those in memory under
    their lock, the others by their stored row only. How many were aborted."""
    after = hub.settings.abandon_after_s
    aborted = 0
    for live in list(hub.games.values()):
        if live.status != "active" or live.days_per_move is not None or idle_s(live) < after:
            continue  # a turn-based game waits days by design: its deadline ends it
        async with hub.locked(live):  # in a cluster: the newest stored version
            if live.status != "active" or idle_s(live) < after:
                continue
            try:
                await _abort(hub, live)
            except GameError:
                continue
            aborted += 1
    cutoff = utcnow() - timedelta(seconds=after)
    stale = await hub.db(hub.store.idle_games, cutoff)
    stale = [(gid, version) for gid, version in stale if gid not in hub.games]
    if stale:
        done = await hub.db(
            hub.store.save_games, [(gid, v, abandoned_values(v)) for gid, v in stale]
        )
        aborted += sum(done)
    if aborted:
        log.info("%d game(s) with no move for %d s were aborted", aborted, after)
        hub.lobby_changed()
    return aborted


async def _abort(hub: Runner, live: LiveGame) -> None:
    if live.flag_timer is not None:
        live.flag_timer.cancel()
        live.flag_timer = None
    if live.clock is not None:
        live.clock.stop()
    await hub.abandon(live)  # aborted, "abandoned": no result, no rating change
