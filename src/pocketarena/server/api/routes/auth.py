"""Optional accounts: register (keeps your guest games), sign in, sign out (here or everywhere).

Every change of who a browser is starts a new session, so a cookie seen before it (on a
shared computer, say) is worth nothing after it."""

from __future__ import annotations

from typing import Any

from anyio import to_thread
from fastapi import APIRouter, Request, Response

from pocketarena.i18n import N_, _

from ...core.sessions import SessionInfo
from ...schemas import CredentialsIn, ErrorOut, MeOut, SessionOut
from ...store import WRONG, StoreError, clean_username
from ..deps import (
    ContextDep,
    PlayerIdDep,
    WriteLimit,
    check,
    client_addr,
    end_session,
    start_guest,
    start_session,
    too_many,
)
from .players import me_of
from .settings import apply_account

router = APIRouter(prefix="/api/auth", tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorOut} for code in (400, 429)}


@router.post("/register", response_model=MeOut, responses=ERRORS, dependencies=[WriteLimit])
async def register(
    body: CredentialsIn, request: Request, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Turn the current guest into an account (password hashed with argon2); the browser gets
    a new session."""
    await check(
        ctx, ctx.rates.address_sign_ins, client_addr(request), N_("too many sign-in attempts")
    )
    p = await to_thread.run_sync(ctx.store.register, player, body.username, body.password)
    await start_session(request, ctx, p.id)
    state = request.state  # the choices this browser made so far become the account's
    await to_thread.run_sync(
        lambda: ctx.store.set_preferences(
            p.id, getattr(state, "locale", None), getattr(state, "time_zone", None)
        )
    )
    return me_of(p)


@router.post("/login", response_model=MeOut, responses=ERRORS, dependencies=[WriteLimit])
async def login(
    body: CredentialsIn, request: Request, response: Response, ctx: ContextDep
) -> dict[str, Any]:
    """Sign in: the browser gets a new session for the account. Wrong passwords are limited
    per account and per address (429 with Retry-After)."""
    await check(
        ctx, ctx.rates.address_sign_ins, client_addr(request), N_("too many sign-in attempts")
    )
    try:
        account = clean_username(body.username)
    except StoreError:
        raise StoreError(_(WRONG)) from None
    wait = await ctx.limiter.peek(ctx.rates.sign_in_failures, account)
    if wait > 0:
        raise too_many(wait, N_("too many wrong passwords for this account"))
    try:
        p = await to_thread.run_sync(ctx.store.authenticate, account, body.password)
    except StoreError:
        await ctx.limiter.take(ctx.rates.sign_in_failures, account)
        raise
    await start_session(request, ctx, p.id)
    apply_account(request, response, p)  # the account's language, time zone, theme
    return me_of(p)


@router.post("/logout", response_model=MeOut, responses=ERRORS, dependencies=[WriteLimit])
async def logout(request: Request, ctx: ContextDep) -> dict[str, Any]:
    """Sign out: this session ends at once; the browser becomes a new guest."""
    await end_session(request, ctx)
    pid = await start_guest(request, ctx)
    return me_of(await to_thread.run_sync(ctx.store.ensure_guest, pid))


@router.post(
    "/logout-everywhere", response_model=MeOut, responses=ERRORS, dependencies=[WriteLimit]
)
async def logout_everywhere(
    request: Request, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Sign out on every browser and device: every session of this player ends at once (their
    open connections close); this browser becomes a new guest."""
    ended = await ctx.sessions.end_all(player)
    ctx.hub.watchers.sessions_ended(ended)
    request.state.session = None
    request.state.session_ended = True
    pid = await start_guest(request, ctx)
    return me_of(await to_thread.run_sync(ctx.store.ensure_guest, pid))


@router.get("/sessions", response_model=list[SessionOut], summary="Where you are signed in")
async def sessions(request: Request, ctx: ContextDep) -> list[dict[str, Any]]:
    """Your sessions (browsers signed in as you): when each began and was last used, and its
    browser. Without a session: none."""
    current: SessionInfo | None = getattr(request.state, "session", None)
    if current is None:
        return []
    return [
        {
            "created_at": s.created_at.isoformat(),
            "last_seen_at": s.last_seen_at.isoformat(),
            "expires_at": s.expires_at.isoformat(),
            "user_agent": s.user_agent,
            "current": s.id == current.id,
        }
        for s in await ctx.sessions.of_player(current.player_id)
    ]
