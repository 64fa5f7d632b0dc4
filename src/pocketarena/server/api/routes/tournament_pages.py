"""The tournament pages: the list with the create form (``/tournaments``), a tournament's page
(``/t/{id}``) and its live part (``/t/{id}/live``: the standings and pairings as HTML, which
the page fetches again whenever the WebSocket says the tournament changed)."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse

from pocketarena.i18n import _

from ... import catalog
from ...live.session import DAYS_PER_MOVE, GameError
from ...tournaments import KINDS
from ..deps import ContextDep, PlayerIdDep
from .pages import page, reader

router = APIRouter(include_in_schema=False)


@router.get("/tournaments", response_class=HTMLResponse)
async def tournaments_page(request: Request, ctx: ContextDep) -> HTMLResponse:
    games = [catalog.game_info(g) for g in catalog.game_ids()]
    lists = {
        "soon": await ctx.tournaments.summaries(["created"]),
        "running": await ctx.tournaments.summaries(["running", "paused"]),
        "finished": await ctx.tournaments.summaries(["finished"], limit=20),
    }
    return await page(
        request,
        ctx,
        "tournaments.html",
        title="Tournaments",
        lists=lists,
        games=games,
        kinds=KINDS,
        max_players=ctx.settings.tournament_max_players,
        days_per_move=DAYS_PER_MOVE,
    )


async def _view(ctx: ContextDep, tournament_id: str, player: str) -> dict[str, object]:
    try:
        return await ctx.tournaments.view(tournament_id[:40], player)
    except GameError as e:
        raise HTTPException(404, _("no such tournament")) from e


@router.get("/t/{tournament_id}", response_class=HTMLResponse)
async def tournament_page(
    tournament_id: str, request: Request, ctx: ContextDep, player: PlayerIdDep
) -> HTMLResponse:
    view = await _view(ctx, tournament_id, player)
    levels = [(level, catalog.bot_name(level)) for level in catalog.bot_levels(str(view["game"]))]
    return await page(
        request,
        ctx,
        "tournament.html",
        {"tournament_id": view["id"]},
        title=str(view["name"]),
        t=view,
        levels=levels,
    )


@router.get("/t/{tournament_id}/live", response_class=HTMLResponse)
async def tournament_live(
    tournament_id: str, request: Request, ctx: ContextDep, player: PlayerIdDep
) -> HTMLResponse:
    view = await _view(ctx, tournament_id, player)
    with reader(request):
        template = ctx.templates.get_template("_tournament_live.html")
        return HTMLResponse(
            template.render(t=view, me_id=player), headers={"Cache-Control": "no-store"}
        )
