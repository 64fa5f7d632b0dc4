"""Tournaments: create (accounts), read, join, withdraw, start, pause (arena), add bots.

The standings and pairings are also pushed on the WebSocket: ``{"type": "tournament", "id":
ID}`` subscribes to them (see ``server.tournaments``).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query

from pocketarena.i18n import _

from ...live.session import GameError
from ...schemas import ErrorOut, InvalidOut
from ...tournaments import BotsIn, JoinIn, TournamentCreate
from ..deps import ContextDep, PlayerIdDep, WriteLimit

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])

ERRORS: dict[int | str, dict[str, Any]] = {
    **{code: {"model": ErrorOut} for code in (400, 403, 404, 409, 429)},
    422: {"model": InvalidOut},
}
ID_CHARS = 40


def _check_id(tournament_id: str) -> None:
    if len(tournament_id) > ID_CHARS:
        raise GameError("unknown_tournament", _("no such tournament"))


@router.post("", status_code=201, responses=ERRORS, dependencies=[WriteLimit])
async def create_tournament(
    body: TournamentCreate, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """A new Swiss (``rounds``), round robin or arena (``duration_s``, on the clock); it
    starts ``starts_in_s`` from now with at least two players, or when its organiser starts
    it. Accounts only, a few a day."""
    row = await ctx.tournaments.create(player, body)
    return await ctx.tournaments.view(row.id, player)


@router.get("", responses=ERRORS)
async def list_tournaments(
    ctx: ContextDep,
    status: str = Query("created,running,paused,finished", max_length=60),
) -> dict[str, Any]:
    """Tournaments by status (comma-separated): starting soon, running, finished."""
    wanted = [s for s in status.split(",") if s]
    known = ("created", "running", "paused", "finished")
    if any(s not in known for s in wanted):
        raise GameError(
            "bad_request", _("status is one or more of %(known)s", known=", ".join(known))
        )
    return {"tournaments": await ctx.tournaments.summaries(wanted)}


@router.get("/{tournament_id}", responses=ERRORS)
async def get_tournament(
    tournament_id: str, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Settings, status, the standings (points and tie-breaks), and every round's pairings
    with their games' ids and results."""
    _check_id(tournament_id)
    return await ctx.tournaments.view(tournament_id, player)


@router.post("/{tournament_id}/join", responses=ERRORS, dependencies=[WriteLimit])
async def join_tournament(
    tournament_id: str, ctx: ContextDep, player: PlayerIdDep, body: JoinIn | None = None
) -> dict[str, Any]:
    _check_id(tournament_id)
    await ctx.tournaments.join(tournament_id, player, body.invite if body else None)
    return await ctx.tournaments.view(tournament_id, player)


@router.post("/{tournament_id}/withdraw", responses=ERRORS, dependencies=[WriteLimit])
async def withdraw_from_tournament(
    tournament_id: str, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Leave: no more pairings (games in play are played out; a round robin's opponents
    take the point)."""
    _check_id(tournament_id)
    await ctx.tournaments.withdraw(tournament_id, player)
    return await ctx.tournaments.view(tournament_id, player)


@router.post("/{tournament_id}/bots", responses=ERRORS, dependencies=[WriteLimit])
async def add_bots(
    tournament_id: str, body: BotsIn, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """The organiser adds ``count`` bots of a level (each a player of its own)."""
    _check_id(tournament_id)
    await ctx.tournaments.add_bots(tournament_id, player, body)
    return await ctx.tournaments.view(tournament_id, player)


@router.post("/{tournament_id}/start", responses=ERRORS, dependencies=[WriteLimit])
async def start_tournament(
    tournament_id: str, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    _check_id(tournament_id)
    await ctx.tournaments.start(tournament_id, player)
    return await ctx.tournaments.view(tournament_id, player)


@router.post("/{tournament_id}/pause", responses=ERRORS, dependencies=[WriteLimit])
async def pause_tournament(
    tournament_id: str, ctx: ContextDep, player: PlayerIdDep, resume: bool = False
) -> dict[str, Any]:
    """An arena stops pairing (games in play go on); ``?resume=true`` pairs again."""
    _check_id(tournament_id)
    await ctx.tournaments.pause(tournament_id, player, not resume)
    return await ctx.tournaments.view(tournament_id, player)
