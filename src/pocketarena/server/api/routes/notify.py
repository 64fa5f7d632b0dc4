"""How notifications reach an account: the channels of each kind (the bell, email, Web Push),
the email address and its verification, the browsers subscribed to push; and the pages the
emails' links open (verify, unsubscribe), which work without signing in."""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Form, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from pocketarena import i18n
from pocketarena.i18n import N_, _

from ... import delivery, friends, notices
from ...live.session import GameError
from ...models import Player
from ...schemas import ErrorOut
from ..deps import ContextDep, HubDep, PlayerIdDep, WriteLimit, check, client_addr
from .pages import page

router = APIRouter(tags=["accounts"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 409, 429, 503)
}
WORKER = Path(str(resources.files("pocketarena.server"))) / "static" / "push-worker.js"


class ChannelsIn(BaseModel):
    """Which channels one kind of notice goes by (left out: unchanged)."""

    model_config = ConfigDict(extra="forbid")
    site: bool | None = None
    email: bool | None = None
    push: bool | None = None


class EmailIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(None, max_length=254, description="null or empty: forget it")


class PushKeys(BaseModel):
    model_config = ConfigDict(extra="forbid")
    p256dh: str = Field(min_length=16, max_length=200)
    auth: str = Field(min_length=8, max_length=100)


class PushSubscriptionIn(BaseModel):
    """A browser's ``PushSubscription.toJSON()``."""

    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=10, max_length=1000)
    keys: PushKeys


class PushEndpointIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    endpoint: str = Field(min_length=1, max_length=1000)


def notices_json(ctx: ContextDep, player: Player, subscribed: int) -> dict[str, Any]:
    push_key = ctx.pusher.public_key if ctx.pusher is not None else None
    return delivery.switches(player, subscribed, ctx.mailer is not None, push_key)


async def _account(ctx: ContextDep, hub: HubDep, player: str) -> Player:
    return await hub.db(friends.account, ctx.store, player, N_("choose notifications"))


@router.get("/api/me/notices", responses=ERRORS, summary="How your notifications reach you")
async def get_notices(ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    me = await _account(ctx, hub, player)
    return notices_json(ctx, me, await hub.db(delivery.subscriptions, ctx.store, player))


@router.put(
    "/api/me/notices/channels",
    responses=ERRORS,
    dependencies=[WriteLimit],
    summary="Switch channels",
)
async def put_channels(
    body: dict[str, ChannelsIn], ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Per kind of notice (``your_turn``, ``challenge``, ``challenge_answered``, ``game_over``,
    ``followed_started``), switch the bell (``site``), ``email`` and ``push`` on or off."""
    await _account(ctx, hub, player)
    unknown = sorted(set(body) - set(notices.KINDS))
    if unknown:
        raise GameError(
            "bad_request",
            _(
                "no such kind of notice: %(kinds)s (there are %(known)s)",
                kinds=", ".join(unknown),
                known=", ".join(notices.KINDS),
            ),
        )
    changes = {k: v.model_dump(exclude_none=True) for k, v in body.items()}
    return {"channels": await hub.db(notices.set_channels, ctx.store, player, changes)}


@router.put("/api/me/email", responses=ERRORS, dependencies=[WriteLimit], summary="Your address")
async def put_email(
    body: EmailIn, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Keep an address for notifications and send it a verification link (nothing else is
    sent to it until the link is opened); null forgets it."""
    me = await _account(ctx, hub, player)
    text = (body.email or "").strip()
    if text and ctx.mailer is None:
        raise GameError("bad_request", _("This server sends no email."))
    address = delivery.normalized_email(text) if text else None
    if address is not None and address != me.email or (address and not me.email_verified_at):
        await check(ctx, ctx.rates.address_social, client_addr(request), _("too many requests"))
        await check(ctx, ctx.rates.social, player, _("too many emails asked for; wait a minute"))
    me = await hub.db(delivery.set_email, ctx.store, player, address)
    if address is not None and me.email_verified_at is None and ctx.mailer is not None:
        link = delivery.verification_link(
            ctx.settings.public_url, ctx.secret_key, player, address, hub.now()
        )
        message = delivery.verification_message(address, link, me.name, i18n.current())
        try:
            await ctx.mailer.send(message)
        except Exception as e:
            raise GameError(
                "unavailable", _("The email could not be sent (%(why)s); try again later.", why=e)
            ) from None
    return notices_json(ctx, me, await hub.db(delivery.subscriptions, ctx.store, player))


@router.put(
    "/api/me/push",
    status_code=204,
    responses=ERRORS,
    dependencies=[WriteLimit],
    summary="Subscribe this browser to push",
)
async def put_push(
    body: PushSubscriptionIn, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> None:
    await _account(ctx, hub, player)
    if not body.endpoint.startswith(("https://", "http://")):
        raise GameError("bad_request", _("A push subscription's endpoint is an http(s) URL."))
    agent = request.headers.get("user-agent", "")
    await hub.db(
        delivery.subscribe,
        ctx.store,
        player,
        body.endpoint,
        body.keys.p256dh,
        body.keys.auth,
        agent,
        hub.now(),
    )


@router.delete(
    "/api/me/push",
    status_code=204,
    responses=ERRORS,
    dependencies=[WriteLimit],
    summary="Unsubscribe a browser from push",
)
async def delete_push(
    body: PushEndpointIn, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> None:
    await _account(ctx, hub, player)
    await hub.db(delivery.unsubscribe_push, ctx.store, player, body.endpoint)


# -- the pages an email's links open (no sign-in needed: the link is signed) ----------------------
@router.get("/email/verify", response_class=HTMLResponse, include_in_schema=False)
async def verify_page(
    request: Request, ctx: ContextDep, hub: HubDep, t: Annotated[str, Query(max_length=2000)] = ""
) -> HTMLResponse:
    address = await hub.db(delivery.verify, ctx.store, ctx.secret_key, t, hub.now())
    if address is None:
        why = _(
            "It is altered, more than two days old, or for another address. Ask for a new one on your account page."
        )
        return await email_page(request, ctx, why, failed=True)
    return await email_page(
        request,
        ctx,
        _("Notifications you switch on for email will be sent to %(email)s.", email=address),
        heading=_("Address verified"),
    )


async def email_page(
    request: Request,
    ctx: ContextDep,
    text: str,
    heading: str | None = None,
    failed: bool = False,
    **more: Any,
) -> HTMLResponse:
    """The page an email's link opens: what happened (400 for a link that does not work)."""
    return await page(
        request,
        ctx,
        "email.html",
        status_code=400 if failed else 200,
        title=_("Email address"),
        heading=heading or _("This link does not work"),
        text=text,
        **more,
    )


def _unsubscribe_words(kind: str) -> str:
    if kind == "all":
        return _("every kind of notice")
    return notices.kind_names()[kind]


@router.get("/email/unsubscribe", response_class=HTMLResponse, include_in_schema=False)
async def unsubscribe_page(
    request: Request, ctx: ContextDep, t: Annotated[str, Query(max_length=2000)] = ""
) -> HTMLResponse:
    target = delivery.unsubscribe_target(ctx.secret_key, t)
    if target is None:
        return await email_page(request, ctx, _("It is not a link we sent."), failed=True)
    what = _unsubscribe_words(target[1])
    text = _("No more emails about: %(what)s.", what=what)
    return await email_page(request, ctx, text, heading=_("Stop these emails"), confirm=t)


@router.post("/email/unsubscribe", include_in_schema=False)
async def unsubscribe_now(
    request: Request,
    ctx: ContextDep,
    hub: HubDep,
    t: Annotated[str, Query(max_length=2000)] = "",
    one_click: Annotated[str | None, Form(alias="List-Unsubscribe")] = None,
) -> Response:
    """The page's button, and mail programs' one-click unsubscribe (RFC 8058: a POST with
    ``List-Unsubscribe=One-Click``, no cookie, no page read)."""
    target = delivery.unsubscribe_target(ctx.secret_key, t)
    done = target is not None and await run_in_threadpool(
        delivery.unsubscribe, ctx.store, target[0], target[1]
    )
    if one_click is not None:
        return Response(status_code=200 if done else 400)
    if not done or target is None:
        return await email_page(request, ctx, _("It is not a link we sent."), failed=True)
    text = _(
        "You will get no more emails about: %(what)s. Your account page switches them on again.",
        what=_unsubscribe_words(target[1]),
    )
    return await email_page(request, ctx, text, heading=_("Done"))


@router.get("/api/push/key", summary="The server's VAPID public key (applicationServerKey)")
async def push_key(ctx: ContextDep) -> dict[str, Any]:
    return {"key": ctx.pusher.public_key if ctx.pusher is not None else None}


@router.get("/push-worker.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker, served from the site's root so that its scope is the whole site."""
    return Response(
        WORKER.read_bytes(), media_type="text/javascript", headers={"Cache-Control": "no-cache"}
    )
