"""Dependencies for the route handlers, as ``Annotated`` types (FastAPI template style): the
app's parts, who is asking (a session started on demand), and the rate limits."""

from __future__ import annotations

from typing import Annotated

from anyio import to_thread
from fastapi import Depends, HTTPException, Request

from pocketarena import i18n
from pocketarena.i18n import N_, _

from ..context import AppContext
from ..core.config import Settings
from ..core.ratelimit import Rate
from ..core.security import new_player_id
from ..live.hub import Hub
from ..store import Store


# Every dependency is ``async``: FastAPI runs a plain ``def`` one in a worker thread, a hop
# to a thread and back on every request for what is one attribute read.
async def get_context(request: Request) -> AppContext:
    ctx: AppContext = request.app.state.ctx
    return ctx


ContextDep = Annotated[AppContext, Depends(get_context)]


async def get_settings(ctx: ContextDep) -> Settings:
    return ctx.settings


async def get_store(ctx: ContextDep) -> Store:
    return ctx.store


async def get_hub(ctx: ContextDep) -> Hub:
    return ctx.hub


SettingsDep = Annotated[Settings, Depends(get_settings)]
StoreDep = Annotated[Store, Depends(get_store)]
HubDep = Annotated[Hub, Depends(get_hub)]


def client_addr(request: Request) -> str:
    """The address this request is limited by (see ``IdentityMiddleware``)."""
    return str(getattr(request.state, "client_addr", None) or "?")


def too_many(wait: float, detail: str) -> HTTPException:
    return HTTPException(
        status_code=429,
        detail=_(
            "%(what)s; try again in %(seconds)s s",
            what=_(detail),
            seconds=i18n.format_number(max(wait, 0.1), "0.0"),
        ),
        headers={"Retry-After": str(max(1, round(wait + 0.49)))},
    )


async def check(ctx: AppContext, rate: Rate, key: str, detail: str) -> None:
    """Take a token from ``key``'s bucket of ``rate``, or refuse with 429 and Retry-After."""
    wait = await ctx.limiter.take(rate, key)
    if wait > 0:
        raise too_many(wait, detail)


async def end_session(request: Request, ctx: AppContext) -> None:
    """End the session this request came with, if any (its sockets close; the response
    removes its cookie unless a new session is started)."""
    old = getattr(request.state, "session", None)
    if old is not None:
        await ctx.sessions.end(old.id)
        ctx.hub.watchers.sessions_ended([old.id])
    request.state.session = request.state.player_id = None
    request.state.session_ended = True


async def start_session(request: Request, ctx: AppContext, player_id: str) -> None:
    """Sign this browser in as ``player_id`` with a new session (its cookie goes out with the
    response); the session the request came with, if any, ends."""
    await end_session(request, ctx)
    token, session = await ctx.sessions.start(player_id, request.headers.get("user-agent"))
    request.state.new_session_token = token
    request.state.session = session
    request.state.player_id = player_id


async def start_guest(request: Request, ctx: AppContext) -> str:
    """A new guest with a session of its own (limited per address: a client that never keeps
    its cookie cannot create guests without end)."""
    await check(
        ctx,
        ctx.rates.address_sessions,
        client_addr(request),
        "too many new visitors from your address",
    )
    pid = new_player_id()
    await to_thread.run_sync(ctx.store.ensure_guest, pid)
    await start_session(request, ctx, pid)
    return pid


async def current_player_id(request: Request, ctx: ContextDep) -> str:
    """The visitor's player id: their session's, or a new guest's on their first visit."""
    pid = getattr(request.state, "player_id", None)
    if pid:
        return str(pid)
    return await start_guest(request, ctx)


PlayerIdDep = Annotated[str, Depends(current_player_id)]


async def page_visitor(request: Request) -> str | None:
    """The visitor of a page (a new guest on a first visit); None when no guest can be started
    for this address now, so the page still shows (watching needs no session)."""
    try:
        return await current_player_id(request, await get_context(request))
    except HTTPException:
        return None


async def limit_writes(request: Request, ctx: ContextDep) -> None:
    """Limits on state-changing requests, per address (requests without a cookie included)
    and per player: 429 with Retry-After when exceeded."""
    await check(ctx, ctx.rates.address_writes, client_addr(request), N_("too many requests"))
    pid = getattr(request.state, "player_id", None)
    if pid:
        await check(ctx, ctx.rates.writes, str(pid), N_("too many requests"))


WriteLimit = Depends(limit_writes)


async def limit_analysis(request: Request, ctx: ContextDep) -> None:
    """The study budget (board evaluations, game analyses): per address, cookie-less clients
    included, and per player; 429 with Retry-After past it. Checked after ``limit_writes``."""
    await check(
        ctx,
        ctx.rates.address_analysis,
        client_addr(request),
        N_("too many analyses from your address"),
    )
    pid = getattr(request.state, "player_id", None)
    if pid:
        await check(ctx, ctx.rates.analysis, str(pid), N_("too many analyses"))


AnalysisLimit = Depends(limit_analysis)
