"""Request plumbing as pure ASGI middleware: client address, session cookie, same-origin
check, security headers."""

from __future__ import annotations

import json
import logging
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.exc import SQLAlchemyError
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pocketarena import i18n

from .db import DATABASE_AWAY, database_away
from .ratelimit import address_key

log = logging.getLogger(__name__)
RETRY_AFTER_S = "2"  # what a 503 asks clients to wait (the database away a moment)
UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
# Files that need no identity: no session is looked up for them.
ANONYMOUS_PREFIXES = ("/static/", "/healthz", "/readyz", "/i18n/")


def _headers(scope: Scope) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", [])}


def cookie_value(scope: Scope, name: str) -> str | None:
    raw = _headers(scope).get("cookie")
    if not raw:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(raw)
    except CookieError:
        return None
    morsel = jar.get(name)
    return morsel.value if morsel else None


def same_origin(scope: Scope) -> bool:
    """Browsers send Origin on cross-site requests and WebSocket handshakes; a page of another
    site must not act with our cookie. Where a browser leaves Origin out it may still send
    Referer, and ours ask for same-origin referrers only: a Referer of another site is a
    request from that site. Requests with neither (API clients) pass."""
    headers = _headers(scope)
    source = headers.get("origin") or headers.get("referer")
    if not source:
        return True
    try:
        netloc = urlsplit(source).netloc.lower()
    except ValueError:  # not a URL at all
        return False
    return netloc == headers.get("host", "").lower()


class IdentityMiddleware:
    """Finds who is asking. ``request.state`` gets ``client_addr`` (the address limits are
    keyed by: the socket's peer, or the client a trusted proxy names), ``session`` and
    ``player_id`` (None without a live session: a new guest session is started only when a
    request needs one, see ``api.deps``), and the response carries the cookie of a session
    started (or the removal of one that ended) while handling it."""

    def __init__(self, app: ASGIApp, cookie_name: str, secure: bool, max_age_s: int) -> None:
        self.app = app
        self.cookie_name = cookie_name
        self.secure = secure
        self.max_age_s = max_age_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})
        client = scope.get("client")
        state["client_addr"] = address_key(client[0] if client else None)
        state["session"] = state["player_id"] = None
        if scope["type"] == "http" and scope["method"] in UNSAFE and not same_origin(scope):
            await _plain(send, 403, i18n.gettext("cross-site request refused"), "forbidden")
            return
        if scope["type"] == "websocket" and not same_origin(scope):
            await send(
                {"type": "websocket.close", "code": 4403, "reason": "cross-site socket refused"}
            )
            return
        anonymous = scope["type"] == "http" and scope["path"].startswith(ANONYMOUS_PREFIXES)
        token = None if anonymous else cookie_value(scope, self.cookie_name)
        try:
            session = await scope["app"].state.ctx.sessions.find(token) if token else None
        except SQLAlchemyError as e:
            if database_away(e):  # down or restarting: said without a trace
                log.warning("looking up a session failed: the database is away (%s)", e)
            else:
                log.exception("looking up a session failed")
            if scope["type"] == "websocket":
                await send({"type": "websocket.close", "code": 1013, "reason": "try again later"})
            else:
                await _plain(send, 503, i18n.gettext(DATABASE_AWAY), "unavailable")
            return
        state["session"] = session
        state["player_id"] = session.player_id if session else None
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        stale_cookie = token is not None and session is None

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                new = state.get("new_session_token")
                if new is not None:
                    headers.append("set-cookie", self.cookie(new, self.max_age_s))
                elif stale_cookie or state.get("session_ended"):
                    headers.append("set-cookie", self.cookie("", 0))
                headers.setdefault("x-content-type-options", "nosniff")
                headers.setdefault("referrer-policy", "same-origin")
                headers.setdefault("x-frame-options", "DENY")
            await send(message)

        await self.app(scope, receive, send_wrapper)

    def cookie(self, value: str, max_age: int) -> str:
        parts = [
            f"{self.cookie_name}={value}",
            "Path=/",
            f"Max-Age={max_age}",
            "HttpOnly",
            "SameSite=Lax",
        ]
        if self.secure:
            parts.append("Secure")
        return "; ".join(parts)


async def _plain(send: Send, status: int, detail: str, code: str) -> None:
    """An answer made before the app is reached, as JSON; ``detail`` worded by the caller (the
    reader's language is current: PreferencesMiddleware runs first)."""
    body = json.dumps({"detail": detail, "code": code}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
            # the database away for a moment: when to try again
            + ([(b"retry-after", RETRY_AFTER_S.encode())] if status == 503 else []),
        }
    )
    await send({"type": "http.response.body", "body": body})


# The reader's choices, each kept in a cookie (and, for an account, in the account: see
# api/routes/settings.py, which also sets these cookies when a person signs in).
LANGUAGE_COOKIE = "lang"
TIME_ZONE_COOKIE = "tz"
THEME_COOKIE = "theme"
THEMES = ("auto", "light", "dark")


class PreferencesMiddleware:
    """Which language, time zone and theme to answer in. The language is the one the ``lang``
    cookie names (the selector's choice), else the best match of ``Accept-Language``; it is
    the current language (``pocketarena.i18n``) while the request is handled, and in
    ``request.state``: ``locale``, ``time_zone`` (IANA name, UTC unless the browser told us),
    ``theme`` (auto follows ``prefers-color-scheme``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        state: dict[str, Any] = scope.setdefault("state", {})
        chosen = cookie_value(scope, LANGUAGE_COOKIE)
        code = chosen if chosen and i18n.known(chosen) else None  # qps: the tests
        code = code or i18n.negotiate(_headers(scope).get("accept-language"))
        zone = i18n.valid_time_zone(cookie_value(scope, TIME_ZONE_COOKIE))
        theme = cookie_value(scope, THEME_COOKIE)
        state["locale"] = code
        state["time_zone"] = zone or "UTC"
        state["theme"] = theme if theme in THEMES else "auto"
        with i18n.use_locale(code), i18n.use_time_zone(state["time_zone"]):

            async def send_wrapper(message: Message) -> None:
                if message["type"] == "http.response.start":
                    headers = MutableHeaders(scope=message)
                    headers.setdefault("content-language", i18n.html_lang(code))
                    headers.append("vary", "Accept-Language, Cookie")
                await send(message)

            await self.app(scope, receive, send_wrapper if scope["type"] == "http" else send)
