"""The live connection: one WebSocket per browser tab, carrying JSON messages.

Client → server (each may carry ``ref``, echoed in the reply):
``{"type": "watch", "game": ID, "svg": true}``, ``{"type": "unwatch", "game": ID}``,
``{"type": "move", "game": ID, "action": "place L b2", "version": 7}`` (a message about a game
may say ``"ack": false``: no ack when it is carried out, the state message says so),
``{"type": "throw", "game": ID, "version": 7}``, ``{"type": "resign", "game": ID}``,
``{"type": "abort", "game": ID}`` (before each side has moved), ``{"type": "draw", "game":
ID, "answer": "offer"|"accept"|"decline"}``, ``{"type": "takeback", "game": ID, "answer":
"offer"|"accept"|"decline"}``,
``{"type": "rematch", "game": ID}``, ``{"type": "join", "game": ID, "invite": TOKEN}``,
``{"type": "lobby"}`` (subscribe to lobby updates), ``{"type": "tournament", "id": ID}``
(subscribe to a tournament's standings and pairings), ``{"type": "ping"}``.

Server → client: ``hello`` (the player and the pages' build), ``state`` (after every change of a watched game), ``chat`` (a
new message of the watched game's chat room the client reads; see ``server.chat``), ``lobby``,
``presence`` (whether each seat's player of a watched game is online; see ``live.presence``),
``spectators`` (how many watch a game without a seat in it),
``online`` (players online, to the lobby's watchers), ``tournament`` (a followed tournament,
whole, when it changed), ``ack`` (a request was carried out), ``pong``, and ``error`` (``code`` and ``message``; sent to
the client that caused it only; the connection stays open).

The socket is a plain ASGI app, ``live_socket``, that ``main.App`` calls inside the app's own
middleware (the reader's language, identity) but before Starlette's router and exception
layers: every message in and out goes straight between this module and uvicorn's ``receive``
and ``send``, with no ``WebSocket`` object and no wrapper of ``send`` on the way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Mapping
from typing import Any, get_args

from pydantic import TypeAdapter, ValidationError
from starlette.types import Receive, Scope, Send

from pocketarena import i18n
from pocketarena.i18n import N_, _, ngettext

from ... import validation
from ...assets import BUILD
from ...context import AppContext
from ...core.db import DATABASE_AWAY, database_away
from ...core.ratelimit import TokenBucket
from ...live.connection import Connection
from ...live.session import GameError
from ...schemas import (
    AbortMessage,
    AckOut,
    ClientMessage,
    DrawMessage,
    ErrorMessageOut,
    HelloOut,
    JoinMessage,
    LobbyFullOut,
    LobbyMessage,
    MoveMessage,
    PingMessage,
    RematchMessage,
    ResignMessage,
    TakebackMessage,
    ThrowMessage,
    TournamentMessage,
    UnwatchMessage,
    WatchMessage,
)
from ...tournaments import TournamentOut

log = logging.getLogger(__name__)
PATH = "/ws"  # where main.App serves the socket


def _error(
    code: str, message: str, ref: Any = None, game: Any = None, said: GameError | None = None
) -> str:
    return ErrorMessageOut(
        code=code,
        message=message,
        ref=ref,
        game=game if isinstance(game, str) else None,
        **(said.to_json() if said is not None else {}),
    ).text()


MESSAGES: TypeAdapter[ClientMessage] = TypeAdapter(ClientMessage)
# The message types, in the union's order (for the reply to an unknown one).
KNOWN = [
    get_args(m.model_fields["type"].annotation)[0] for m in get_args(get_args(ClientMessage)[0])
]


def _refusal(e: ValidationError) -> str:
    """What is wrong with a message that fits no schema, in a sentence."""
    issue = e.errors(include_url=False, include_input=False)[0]
    if not issue["loc"]:  # the type itself (the socket answers unknown types before)
        return _("unknown message type; known types: %(known)s", known=", ".join(KNOWN))
    where = ".".join(str(part) for part in issue["loc"][1:])  # after the message type
    if where == "game":
        return _("this message needs a 'game' field with the game's id")
    return _(
        "bad %(type)s message: field %(field)r: %(problem)s",
        type=str(issue["loc"][0]),
        field=where,
        problem=validation.worded(issue),
    )


async def _reply(ctx: AppContext, conn: Connection, msg: ClientMessage) -> dict[str, Any] | None:
    """Carry out one message; the ack's fields (None: no ack, the reply is the state)."""
    hub = ctx.hub
    match msg:
        case TournamentMessage():
            view = await ctx.tournaments.view(msg.id, conn.player_id)
            ctx.tournaments.watch(conn, msg.id)
            conn.push(TournamentOut(tournament=view).model_dump_json())
            return None
        case PingMessage():
            raise AssertionError("answered by the socket")
        case LobbyMessage():
            hub.watchers.watch_lobby(conn)
            # Unset fields stay out: a seek's entry has no idle time.
            full = LobbyFullOut.model_validate({"type": "lobby", **hub.lobby_view()})
            conn.push(full.model_dump_json(exclude_unset=True))
            return None
        case WatchMessage():
            await hub.watchers.watch(conn, msg.game, svg=msg.svg)
            return None
        case UnwatchMessage():
            hub.watchers.unwatch(conn, msg.game)
            return {}
        case MoveMessage():
            live = await hub.move(conn.player_id, msg.game, msg.action, msg.version)
            return {"version": live.version}
        case ThrowMessage():
            live = await hub.throw(conn.player_id, msg.game, msg.version)
            return {"version": live.version}
        case ResignMessage():
            live = await hub.resign(conn.player_id, msg.game)
            return {"version": live.version}
        case AbortMessage():
            live = await hub.abort(conn.player_id, msg.game)
            return {"version": live.version}
        case DrawMessage():
            live = await hub.draw(conn.player_id, msg.game, msg.answer)
            return {"version": live.version}
        case TakebackMessage():
            live = await hub.takeback(conn.player_id, msg.game, msg.answer)
            return {"version": live.version}
        case RematchMessage():
            live = await hub.seating.rematch(conn.player_id, msg.game)
            return {"rematch": live.rematch_id}
        case JoinMessage():
            if conn.player_id is None:
                raise GameError(
                    "forbidden", _("load the page first: playing needs the session cookie")
                )
            live = await hub.seating.join(conn.player_id, msg.game, msg.invite)
            return {"version": live.version}


NOT_AN_OBJECT = N_('a message must be a JSON object like {"type": "ping"}')
SOCKETS = "sockets"  # the limiter's count of open sockets per address
TOO_MANY = 4429  # close code: too many sockets from this address


async def live_socket(scope: Scope, receive: Receive, send: Send) -> None:
    """The socket, as an ASGI app (``main.App`` calls it inside the app's middleware, which
    put the reader's language, the client's address and the session in ``scope["state"]``)."""
    ctx: AppContext = scope["app"].state.ctx
    settings = ctx.settings
    state = scope.get("state", {})
    player_id: str | None = state.get("player_id")
    session = state.get("session")
    addr = str(state.get("client_addr") or "?")
    refusal, counted = None, False
    if await ctx.limiter.take(ctx.rates.address_sockets, addr) > 0:
        refusal = _("too many connections opened from your address; wait a moment")
    elif await ctx.limiter.acquire(SOCKETS, addr, settings.address_max_sockets):
        counted = True
    else:
        most = settings.address_max_sockets
        refusal = ngettext(
            "at most %(count)d connection per address is open at once",
            "at most %(count)d connections per address are open at once",
            most,
            count=most,
        )
    try:
        # The handshake: the server's "connect" first, then the answer (as Starlette's accept).
        if (await receive())["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept", "subprotocol": None, "headers": []})
        if refusal is not None:
            await send({"type": "websocket.send", "text": _error("rate_limited", refusal)})
            await send(
                {"type": "websocket.close", "code": TOO_MANY, "reason": "too many connections"}
            )
            return
        await _serve(ctx, receive, send, player_id, session.id if session is not None else None)
    finally:
        if counted:
            await ctx.limiter.release(SOCKETS, addr)


async def _serve(
    ctx: AppContext, receive: Receive, send: Send, player_id: str | None, session_id: str | None
) -> None:
    settings, hub = ctx.settings, ctx.hub
    conn = Connection(
        send,
        player_id,
        TokenBucket(settings.ws_messages_per_s, settings.ws_burst),
        session_id,
    )
    hub.watchers.connect(conn)
    writer = asyncio.create_task(conn.writer())
    conn.push(HelloOut(player=player_id, build=BUILD).model_dump_json())
    try:
        while not conn.closed:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                break
            await _handle(ctx, conn, message, settings.max_message_bytes)
    finally:
        hub.watchers.disconnect(conn)
        ctx.tournaments.unwatch(conn)
        with contextlib.suppress(Exception):
            await writer


async def _handle(
    ctx: AppContext, conn: Connection, message: Mapping[str, Any], limit: int
) -> None:
    raw = message.get("text")
    if raw is None:
        data = message.get("bytes") or b""
        if len(data) > limit:
            conn.push(
                _error("too_large", _("messages are limited to %(limit)d bytes", limit=limit))
            )
            return
        try:
            raw = data.decode("utf-8")
        except UnicodeDecodeError:
            conn.push(_error("bad_json", _("messages must be UTF-8 JSON text")))
            return
    if len(raw) > limit:
        conn.push(
            _error(
                "too_large",
                _(
                    "messages are limited to %(limit)d bytes; this one has %(size)d",
                    limit=limit,
                    size=len(raw),
                ),
            )
        )
        return
    wait = conn.bucket.take()
    if wait > 0:
        seconds = i18n.format_number(wait, "0.00")
        conn.push(
            _error(
                "rate_limited",
                _("too many messages; slow down (retry in %(seconds)s s)", seconds=seconds),
            )
        )
        return
    try:
        msg = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        conn.push(_error("bad_json", _(NOT_AN_OBJECT)))
        return
    if not isinstance(msg, dict):
        conn.push(_error("bad_json", _(NOT_AN_OBJECT)))
        return
    ref = msg.get("ref")
    if ref is not None and not (isinstance(ref, (int, str)) and len(str(ref)) <= 64):
        ref = None
    kind = msg.get("type")
    if kind == "ping":  # fits its schema whatever else it says: answered without a parse
        # PongOut's text (message_text), written without the model: 2 µs, not 6 (a ping is
        # what clients measure the server's latency with).
        conn.push(json.dumps({"type": "pong", "ref": ref}, separators=(",", ":")))
        return
    if kind not in KNOWN:
        conn.push(
            _error(
                "bad_request",
                _(
                    "unknown message type %(type)r; known types: %(known)s",
                    type=kind,
                    known=", ".join(KNOWN),
                ),
                ref,
            )
        )
        return
    try:
        parsed = MESSAGES.validate_python(msg)
    except ValidationError as e:
        conn.push(_error("bad_request", _refusal(e), ref, msg.get("game")))
        return
    try:
        result = await _reply(ctx, conn, parsed)
    except GameError as e:
        conn.push(_error(e.code, e.message, ref, msg.get("game"), e))
        if e.code in ("stale", "conflict") and isinstance(msg.get("game"), str):
            # The client's view is out of date: send the current one.
            current = ctx.hub.watchers.current(conn, msg["game"])
            if current is not None:
                conn.push(current)
        return
    except Exception as e:
        if database_away(e):  # down or restarting: the version check makes a retry safe
            log.warning("handling %r failed: the database is away (%s)", kind, e)
            conn.push(_error("unavailable", _(DATABASE_AWAY), ref))
            return
        log.exception("handling %r failed", kind)
        conn.push(
            _error("internal", _("the server failed to handle this message; nothing changed"), ref)
        )
        return
    if result is not None and getattr(parsed, "ack", True):
        conn.push(AckOut(ref=ref, request=str(kind), **result).text())
