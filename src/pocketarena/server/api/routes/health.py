"""``/healthz``: whether this process can reach what it needs (for load balancers)."""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy import text

from ...context import AppContext

router = APIRouter(tags=["health"])
CHECK_TIMEOUT_S = 3.0


class Health(BaseModel):
    status: Literal["ok", "failing"]
    database: str  # "ok" or what went wrong
    redis: str  # "ok", "not used" (one process alone) or what went wrong
    node: str  # this process's name in the cluster
    bus_received: int  # bus messages this process has read so far (per-game channels: few)
    bus_published: int  # bus messages this process has sent so far


def _database_ok(ctx: AppContext) -> None:
    with ctx.engine.connect() as conn:
        conn.execute(text("SELECT 1"))


async def _check(probe: asyncio.Future[None] | asyncio.Task[None]) -> str:
    try:
        await asyncio.wait_for(probe, CHECK_TIMEOUT_S)
    except TimeoutError:
        return f"no answer within {CHECK_TIMEOUT_S:g} s"
    except Exception as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else ""
        return f"{type(e).__name__}: {first}"[:200]
    return "ok"


@router.get(
    "/healthz",
    response_model=Health,
    summary="Database and Redis reachable (200) or not (503)",
    responses={503: {"model": Health}},
)
async def healthz(request: Request) -> JSONResponse:
    ctx: AppContext = request.app.state.ctx
    database = await _check(asyncio.ensure_future(asyncio.to_thread(_database_ok, ctx)))
    hub = ctx.hub
    redis = await _check(asyncio.ensure_future(hub.bus.ping())) if hub.clustered else "not used"
    ok = database == "ok" and redis in ("ok", "not used")
    body = Health(
        status="ok" if ok else "failing",
        database=database,
        redis=redis,
        node=hub.bus.node,
        bus_received=hub.bus.received,
        bus_published=hub.bus.published,
    )
    return JSONResponse(body.model_dump(), status_code=200 if ok else 503)
