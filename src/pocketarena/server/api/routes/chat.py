"""Table chat of a game (see ``server.chat``): read your room, post to it. New messages reach
open game pages over the WebSocket (``{"type": "chat", "game": ID, "message": {...}}``)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from ... import chat
from ..deps import ContextDep, PlayerIdDep, WriteLimit, client_addr
from .games import ERRORS

router = APIRouter(prefix="/api/games", tags=["chat"])


@router.get("/{game_id}/chat", response_model=chat.ChatView, responses=ERRORS)
async def read_chat(game_id: str, ctx: ContextDep, player: PlayerIdDep) -> dict[str, Any]:
    """Your room of the game's chat (the players' if you hold a seat, else the spectators'),
    its newest messages (none from a player you block) and what you may send."""
    live = await ctx.hub.get(game_id)
    row = await ctx.hub.db(ctx.store.get_player, player)
    room = chat.room_of(live, player)
    messages = await ctx.hub.db(chat.history, ctx.store, live.id, room, chat.HISTORY, player)
    return chat.view(live, row.kind if row else None, player, messages)


@router.post(
    "/{game_id}/chat",
    response_model=chat.ChatMessage,
    status_code=201,
    responses=ERRORS,
    dependencies=[WriteLimit],
)
async def post_chat(
    game_id: str, body: chat.ChatIn, request: Request, ctx: ContextDep, player: PlayerIdDep
) -> dict[str, Any]:
    """Post to a room: players to the players' chat, everyone else to the spectators'. Guests
    send quick phrases only; at most 140 characters, no control characters; limited per player
    and per address (429 with Retry-After)."""
    limits = chat.rates(ctx.settings.chat_per_minute, ctx.settings.address_chat_per_minute)
    return await chat.post(
        ctx.hub, limits, ctx.limiter, client_addr(request), player, game_id, body
    )
