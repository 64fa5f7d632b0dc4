"""``/healthz``: whether this process can do its work (for load balancers): the database,
Redis and the bot pipeline (see ``server.health``)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ...context import AppContext
from ...health import Health, report

router = APIRouter(tags=["health"])


@router.get(
    "/healthz",
    response_model=Health,
    summary="Database, Redis and the bots' queue working (200) or not (503)",
    responses={503: {"model": Health}},
)
async def healthz(request: Request) -> JSONResponse:
    ctx: AppContext = request.app.state.ctx
    body = await report(ctx.hub, ctx.engine, ctx.settings)
    return JSONResponse(body.model_dump(), status_code=200 if body.status == "ok" else 503)
