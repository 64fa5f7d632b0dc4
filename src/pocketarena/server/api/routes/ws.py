"""The live connection: one WebSocket per browser tab, carrying JSON messages.

Client → server (each may carry ``ref``, echoed in the reply):
``{"type": "watch", "game": ID, "svg": true}``, ``{"type": "unwatch", "game": ID}``,
``{"type": "move", "game": ID, "action": "place Q b2", "version": 7}``,
``{"type": "throw", "game": ID, "version": 7}``, ``{"type": "resign", "game": ID}``,
``{"type": "rematch", "game": ID}``, ``{"type": "join", "game": ID, "invite": TOKEN}``,
``{"type": "lobby"}`` (subscribe to lobby updates), ``{"type": "ping"}``.

Server → client: ``hello``, ``state`` (after every change of a watched game), ``chat`` (a
new message of the watched game's chat room the client reads; see ``server.chat``), ``lobby``,
``presence`` (whether each seat's player of a watched game is online; see ``live.presence``),
``online`` (players online, to the lobby's watchers), ``ack`` (a request was carried out), ``pong``, and ``error`` (``code`` and ``message``; sent to
the client that caused it only; the connection stays open).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from ...context import AppContext
from ...core.ratelimit import TokenBucket
from ...live.connection import Connection
from ...live.hub import GameError, Hub

log = logging.getLogger(__name__)
router = APIRouter()


def _error(code: str, message: str, ref: Any = None, game: Any = None) -> str:
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if ref is not None:
        out["ref"] = ref
    if isinstance(game, str):
        out["game"] = game
    return json.dumps(out)


def _game_id(msg: dict[str, Any]) -> str:
    gid = msg.get("game")
    if not isinstance(gid, str) or not gid:
        raise GameError("bad_request", "this message needs a 'game' field with the game's id")
    return gid


Handler = Callable[[Hub, Connection, dict[str, Any]], Awaitable[dict[str, Any] | None]]


async def _watch(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    await hub.watch(conn, _game_id(msg), svg=msg.get("svg", True) is not False)
    return None


async def _unwatch(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    hub.unwatch(conn, _game_id(msg))
    return {}


async def _move(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    live = await hub.move(conn.player_id, _game_id(msg), msg.get("action"), msg.get("version"))
    return {"version": live.version}


async def _throw(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    live = await hub.throw(conn.player_id, _game_id(msg), msg.get("version"))
    return {"version": live.version}


async def _resign(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    live = await hub.resign(conn.player_id, _game_id(msg))
    return {"version": live.version}


async def _rematch(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    live = await hub.rematch(conn.player_id, _game_id(msg))
    return {"rematch": live.rematch_id}


async def _join(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    if conn.player_id is None:
        raise GameError("forbidden", "load the page first: playing needs the session cookie")
    invite = msg.get("invite")
    live = await hub.join(
        conn.player_id, _game_id(msg), invite if isinstance(invite, str) else None
    )
    return {"version": live.version}


async def _lobby(hub: Hub, conn: Connection, msg: dict[str, Any]) -> dict[str, Any] | None:
    hub.lobby.add(conn)
    conn.push(json.dumps({"type": "lobby", **hub.lobby_view()}, separators=(",", ":")))
    return None


HANDLERS: dict[str, Handler] = {
    "watch": _watch,
    "unwatch": _unwatch,
    "move": _move,
    "throw": _throw,
    "resign": _resign,
    "rematch": _rematch,
    "join": _join,
    "lobby": _lobby,
}


SOCKETS = "sockets"  # the limiter's count of open sockets per address
TOO_MANY = 4429  # close code: too many sockets from this address


@router.websocket("/ws")
async def live_socket(websocket: WebSocket) -> None:
    ctx: AppContext = websocket.app.state.ctx
    settings = ctx.settings
    state = websocket.scope.get("state", {})
    player_id: str | None = state.get("player_id")
    session = state.get("session")
    addr = str(state.get("client_addr") or "?")
    refusal, counted = None, False
    if await ctx.limiter.take(ctx.rates.address_sockets, addr) > 0:
        refusal = "too many connections opened from your address; wait a moment"
    elif await ctx.limiter.acquire(SOCKETS, addr, settings.address_max_sockets):
        counted = True
    else:
        refusal = f"at most {settings.address_max_sockets} connections per address are open at once"
    try:
        await websocket.accept()
        if refusal is not None:
            await websocket.send_text(_error("rate_limited", refusal))
            await websocket.close(code=TOO_MANY, reason="too many connections")
            return
        await _serve(ctx, websocket, player_id, session.id if session is not None else None)
    finally:
        if counted:
            await ctx.limiter.release(SOCKETS, addr)


async def _serve(
    ctx: AppContext, websocket: WebSocket, player_id: str | None, session_id: str | None
) -> None:
    settings, hub = ctx.settings, ctx.hub
    conn = Connection(
        websocket,
        player_id,
        TokenBucket(settings.ws_messages_per_s, settings.ws_burst),
        session_id,
    )
    hub.connect(conn)
    writer = asyncio.create_task(conn.writer())
    conn.push(json.dumps({"type": "hello", "player": player_id}))
    try:
        while not conn.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            await _handle(hub, conn, message, settings.max_message_bytes)
    except WebSocketDisconnect:
        pass
    finally:
        hub.disconnect(conn)
        with contextlib.suppress(Exception):
            await writer


async def _handle(hub: Hub, conn: Connection, message: Mapping[str, Any], limit: int) -> None:
    raw = message.get("text")
    if raw is None:
        data = message.get("bytes") or b""
        if len(data) > limit:
            conn.push(_error("too_large", f"messages are limited to {limit} bytes"))
            return
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            conn.push(_error("bad_json", "messages must be UTF-8 JSON text"))
            return
    if len(raw) > limit:
        conn.push(
            _error("too_large", f"messages are limited to {limit} bytes; this one has {len(raw)}")
        )
        return
    wait = conn.bucket.take()
    if wait > 0:
        conn.push(_error("rate_limited", f"too many messages; slow down (retry in {wait:.2f} s)"))
        return
    try:
        msg = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        conn.push(_error("bad_json", 'a message must be a JSON object like {"type": "ping"}'))
        return
    if not isinstance(msg, dict):
        conn.push(_error("bad_json", 'a message must be a JSON object like {"type": "ping"}'))
        return
    ref = msg.get("ref")
    if ref is not None and not (isinstance(ref, (int, str)) and len(str(ref)) <= 64):
        ref = None
    kind = msg.get("type")
    if kind == "ping":
        conn.push(json.dumps({"type": "pong", "ref": ref}))
        return
    handler = HANDLERS.get(kind) if isinstance(kind, str) else None
    if handler is None:
        known = ", ".join(["ping", *HANDLERS])
        conn.push(
            _error("bad_request", f"unknown message type {kind!r}; known types: {known}", ref)
        )
        return
    try:
        result = await handler(hub, conn, msg)
    except GameError as e:
        conn.push(_error(e.code, e.message, ref, msg.get("game")))
        if e.code in ("stale", "conflict") and isinstance(msg.get("game"), str):
            # The client's view is out of date: send the current one.
            live = hub.games.get(msg["game"])
            if live is not None:
                conn.push(hub.message(live, conn, conn.watching.get(live.id, True)))
        return
    except Exception:
        log.exception("handling %r failed", kind)
        conn.push(
            _error("internal", "the server failed to handle this message; nothing changed", ref)
        )
        return
    if result is not None:
        conn.push(json.dumps({"type": "ack", "ref": ref, "request": kind, **result}))
