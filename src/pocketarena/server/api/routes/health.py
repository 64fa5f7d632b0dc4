"""``/healthz``: whether this process can do its work (for monitors): the database, Redis
and the bot pipeline; ``/readyz``: whether it can serve requests (for the balancer): the same
without the bots, whose queue is the whole cluster's (see ``server.health``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ...context import AppContext
from ...health import Health, report

router = APIRouter(tags=["health"])


async def _answer(request: Request, bots_count: bool) -> JSONResponse:
    ctx: AppContext = request.app.state.ctx
    body = await report(ctx.hub, ctx.engine, ctx.settings, bots_count=bots_count)
    return JSONResponse(body.model_dump(), status_code=200 if body.status == "ok" else 503)


@router.get(
    "/healthz",
    response_model=Health,
    summary="Database, Redis and the bots' queue working (200) or not (503)",
    responses={503: {"model": Health}},
)
async def healthz(request: Request) -> JSONResponse:
    return await _answer(request, bots_count=True)


@router.get(
    "/readyz",
    response_model=Health,
    summary="Database and Redis working (200) or not (503): what a balancer checks",
    responses={503: {"model": Health}},
)
async def readyz(request: Request) -> JSONResponse:
    return await _answer(request, bots_count=False)
