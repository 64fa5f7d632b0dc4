"""Dependencies for the route handlers, as ``Annotated`` types (FastAPI template style)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException, Request

from ..context import AppContext
from ..core.config import Settings
from ..live.hub import Hub
from ..store import Store


def get_context(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


ContextDep = Annotated[AppContext, Depends(get_context)]


def get_settings(ctx: ContextDep) -> Settings:
    return ctx.settings


def get_store(ctx: ContextDep) -> Store:
    return ctx.store


def get_hub(ctx: ContextDep) -> Hub:
    return ctx.hub


SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
HubDep = Annotated[Hub, Depends(get_hub)]


def current_player_id(request: Request) -> str:
    """The visitor's player id (from the signed cookie; a new guest's on first visit)."""
    pid = getattr(request.state, "player_id", None)
    if not pid:
        raise HTTPException(status_code=401, detail="no session; enable cookies and reload")
    return str(pid)


PlayerIdDep = Annotated[str, Depends(current_player_id)]


def client_key(request: Request) -> str:
    pid = getattr(request.state, "player_id", None)
    host = request.client.host if request.client else "?"
    return f"p:{pid}" if pid else f"ip:{host}"


def limit_writes(request: Request, ctx: ContextDep) -> None:
    """Per-client rate limit on state-changing requests: 429 with Retry-After when exceeded."""
    wait = ctx.http_limiter.take(client_key(request))
    if wait > 0:
        raise HTTPException(
            status_code=429,
            detail=f"too many requests; wait {max(wait, 0.1):.1f} s",
            headers={"Retry-After": str(max(1, round(wait)))},
        )


WriteLimit = Depends(limit_writes)
