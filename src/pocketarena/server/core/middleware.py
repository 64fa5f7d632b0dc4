"""Request plumbing as pure ASGI middleware: identity cookie, same-origin check, headers."""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .security import SessionSigner, new_player_id

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
YEAR = 365 * 24 * 3600


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}


def cookie_value(scope: Scope, name: str) -> str | None:
    raw = _headers(scope).get("cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except Exception:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


def same_origin(scope: Scope) -> bool:
    """Browsers send Origin on cross-site requests and WebSocket handshakes; a page of another
    site must not act with our cookie. Requests without Origin (API clients) pass."""
    headers = _headers(scope)
    origin = headers.get("origin")
    if not origin:
        return True
    return urlsplit(origin).netloc.lower() == headers.get("host", "").lower()


class IdentityMiddleware:
    """Every visitor gets a player id in a signed cookie on first visit (a guest); requests
    find it in ``request.state.player_id``. WebSocket handshakes are only read, never given
    a new identity (a socket without a cookie can watch but not play)."""

    def __init__(self, app: ASGIApp, signer: SessionSigner, cookie_name: str, secure: bool) -> None:
        self.app = app
        self.signer = signer
        self.cookie_name = cookie_name
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})
        player_id = self.signer.loads(cookie_value(scope, self.cookie_name))
        if scope["type"] == "http" and scope["method"] in UNSAFE and not same_origin(scope):
            await _plain(send, 403, b'{"detail":"cross-site request refused","code":"forbidden"}')
            return
        if scope["type"] == "websocket" and not same_origin(scope):
            await send(
                {"type": "websocket.close", "code": 4403, "reason": "cross-site socket refused"}
            )
            return
        minted = None
        if player_id is None and scope["type"] == "http":
            player_id = minted = new_player_id()
        state["player_id"] = player_id
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                pid = state.get("set_player") or minted
                if pid is not None:
                    headers.append("set-cookie", self.cookie(str(pid)))
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("referrer-policy", "same-origin")
                headers.setdefault("x-frame-options", "DENY")
            await send(message)

        await self.app(scope, receive, send_wrapper)

    def cookie(self, player_id: str) -> str:
        value = self.signer.dumps(player_id)
        parts = [
            f"{self.cookie_name}={value}",
            "Path=/",
            f"Max-Age={YEAR}",
            "HttpOnly",
            "SameSite=Lax",
        ]
        if self.secure:
            parts.append("Secure")
        return "; ".join(parts)


async def _plain(send: Send, status: int, body: bytes) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
