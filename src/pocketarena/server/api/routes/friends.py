"""Friends and challenges (accounts only): follow, block, who you follow, challenges to a
named player (see ``server.friends``). Each write is limited per player and per address."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from pocketarena.i18n import N_, _

from ... import friends, notices
from ...live.session import GameError
from ...schemas import ClockIn, ErrorOut, Text
from ..deps import ContextDep, HubDep, PlayerIdDep, WriteLimit, check, client_addr

router = APIRouter(prefix="/api", tags=["players"])
ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorOut} for code in (400, 403, 404, 409, 429)
}


class ChallengeIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: Text = Field(max_length=40, description="The challenged player's id or username")
    game: Text = Field(max_length=40, examples=["flipwars"])
    options: dict[str, Any] = Field(default_factory=dict)
    seat: int | None = Field(None, description="Your seat: 0, 1 or null (drawn)")
    clock: ClockIn | None = None
    days_per_move: int | None = Field(None, description="Turn-based: 1, 2, 3, 5, 7 or 14")
    rated: bool = False


FOLLOW, BLOCK, CHALLENGE = N_("follow players"), N_("block players"), N_("challenge players")


async def _them(
    ctx: ContextDep, hub: HubDep, player: str, other: str, doing: str, request: Request | None
) -> str:
    """The id of the account ``other`` names, for ``player`` (an account) ``doing`` this;
    with the request, a write that is limited per player and per address."""
    await hub.db(friends.account, ctx.store, player, doing)
    if request is not None:
        await check(ctx, ctx.rates.address_social, client_addr(request), N_("too many requests"))
        await check(
            ctx, ctx.rates.social, player, N_("too many challenges and follows; wait a minute")
        )
    them = await hub.db(friends.target, ctx.store, other)
    return str(them.id)


@router.put("/players/{other}/follow", status_code=204, responses=ERRORS, dependencies=[WriteLimit])
async def follow(
    other: str, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> None:
    """Follow an account: see when they are online or in a game (accounts only)."""
    them = await _them(ctx, hub, player, other, FOLLOW, request)
    await hub.db(friends.follow, ctx.store, player, them, hub.now())


@router.delete(
    "/players/{other}/follow", status_code=204, responses=ERRORS, dependencies=[WriteLimit]
)
async def unfollow(other: str, ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> None:
    await hub.db(
        friends.unfollow, ctx.store, player, await _them(ctx, hub, player, other, FOLLOW, None)
    )


@router.put("/players/{other}/block", status_code=204, responses=ERRORS, dependencies=[WriteLimit])
async def block(
    other: str, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> None:
    """Block an account: no challenges from them (and none to them); the follows and every
    open challenge between you end."""
    them = await _them(ctx, hub, player, other, BLOCK, request)
    await hub.db(friends.block, ctx.store, player, them, hub.now())


@router.delete(
    "/players/{other}/block", status_code=204, responses=ERRORS, dependencies=[WriteLimit]
)
async def unblock(other: str, ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> None:
    await hub.db(
        friends.unblock, ctx.store, player, await _them(ctx, hub, player, other, BLOCK, None)
    )


@router.get("/me/following", responses=ERRORS, summary="The players you follow, online or playing")
async def following(ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> list[dict[str, Any]]:
    """Each player you follow: ``online`` (a page open anywhere) and ``playing`` (the id of a
    game in progress they sit in, or null)."""
    await hub.db(friends.account, ctx.store, player, FOLLOW)
    return await friends.following_json(hub, ctx.store, player)


@router.post("/challenges", status_code=201, responses=ERRORS, dependencies=[WriteLimit])
async def challenge(
    body: ChallengeIn, request: Request, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Challenge a named account to any game, options, seat and time control (real-time
    ``clock``, or ``days_per_move``, or untimed). Open for an hour (a week when turn-based)
    until accepted, declined or cancelled."""
    them = await _them(ctx, hub, player, body.player, CHALLENGE, request)
    clock = (body.clock.initial_s * 1000, body.clock.increment_s * 1000) if body.clock else None
    terms = friends.Terms(
        body.game, dict(body.options), body.seat, clock, body.days_per_move, body.rated
    )
    row = await hub.db(friends.create_challenge, ctx.store, player, them, terms, hub.now())
    return await hub.db(friends.challenge_json, ctx.store, row, hub.now())


@router.get("/challenges", responses=ERRORS, summary="Your open challenges, received and sent")
async def challenges(ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    now = hub.now()
    found = await hub.db(friends.challenges_of, ctx.store, player, now)
    return {
        kind: [await hub.db(friends.challenge_json, ctx.store, row, now) for row in rows]
        for kind, rows in found.items()
    }


@router.post("/challenges/{challenge_id}/{verb}", responses=ERRORS, dependencies=[WriteLimit])
async def answer(
    challenge_id: str, verb: str, ctx: ContextDep, hub: HubDep, player: PlayerIdDep
) -> dict[str, Any]:
    """``accept`` (the game starts; ``url`` leads to it), ``decline``, or ``cancel`` (your own
    challenge)."""
    if verb not in ("accept", "decline", "cancel"):
        raise GameError("bad_request", _("answer a challenge with accept, decline or cancel"))
    game_id = await friends.answer(hub, ctx.store, player, challenge_id, verb)
    row = await hub.db(friends.load_challenge, ctx.store, challenge_id)
    out = await hub.db(friends.challenge_json, ctx.store, row, hub.now())
    out["url"] = f"/g/{game_id}" if game_id else None
    return out


@router.get("/me/notifications", responses=ERRORS, summary="Your bell: the newest notifications")
async def notifications(ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> dict[str, Any]:
    """Your turn in a turn-based game, a challenge received or answered, a turn-based game
    over, a followed player starting a game: the newest 30 and how many are ``unread``; each
    with its ``text`` in your language."""
    found = await hub.db(notices.listed, ctx.store, player)
    for n in found["notifications"]:  # here: the database's threads do not know the language
        n["text"] = notices.words(n["kind"], n["data"])
    return found


@router.post("/me/notifications/read", status_code=204, responses=ERRORS, dependencies=[WriteLimit])
async def notifications_read(ctx: ContextDep, hub: HubDep, player: PlayerIdDep) -> None:
    """Mark every notification read."""
    await hub.db(notices.mark_read, ctx.store, player, hub.now())
