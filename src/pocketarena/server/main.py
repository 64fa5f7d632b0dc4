"""The app: wires settings, database, hub, routes, pages and static files together."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

import pocketarena as pa
from pocketarena import i18n

from . import chat, names, validation
from .api.responses import SafeJSONResponse
from .api.routes import (
    analysis,
    auth,
    catalog,
    claims,
    games,
    health,
    lessons,
    lobby,
    pages,
    players,
    puzzles,
    records,
    tournament_pages,
    tournaments,
    ws,
)
from .api.routes import chat as chat_routes
from .api.routes import friends as friends_routes
from .api.routes import notify as notify_routes
from .api.routes import settings as settings_routes
from .api.routes.pages import error_page, is_page
from .assets import BUILD, STATIC, Assets
from .context import AppContext
from .core.config import Settings
from .core.db import (
    DATABASE_AWAY,
    SqliteCheckpointer,
    database_away,
    make_engine,
    run_migrations,
    session_factory,
)
from .core.middleware import IdentityMiddleware, PreferencesMiddleware
from .core.ratelimit import Limiter, MemoryLimiter, Rates
from .core.sessions import DatabaseSessions
from .core.waiting import cancel_lost, wait_for_async
from .delivery import Sender, send_forever
from .live import abandon, sweeps
from .live.botjobs import BOT_SWEEP_S
from .live.bots import BotRunner
from .live.bus import Bus, MemoryBus, RedisBus
from .live.hub import Hub
from .live.jobs import BotQueue
from .live.session import GameError
from .live.sweeps import CLOCK_SWEEP_S
from .mail import Mailer
from .models import utcnow
from .push import Pusher, vapid_keys
from .store import Store, StoreError
from .tournaments import TICK_S, Tournaments

log = logging.getLogger(__name__)
PACKAGE = Path(str(resources.files("pocketarena.server")))

DESCRIPTION = """
Play Coin Age, Wallet Battles, Stack-a-Cash and FlipWars against bots and people.

The server is authoritative: every move is checked by the rules engine, and each move names the
**version** of the game it was made on, so a stale or repeated move is refused. Live updates
come over the WebSocket at `/ws` (see `pocketarena.server.api.routes.ws` for its messages).
Chance (slaps and flips) is provably fair: each game commits to SHA-256 of a secret seed at its
start and reveals the seed at its end; `GET /api/games/{id}/verify` recomputes every outcome.

Identity is a session cookie (a random token the server keeps hashed): a guest on the first
visit that needs one, an account after `/api/auth/register` or `/api/auth/login`; each of
those, and signing out, starts a new session. Every limit holds per player and per client
address: over one, a request gets 429 with `Retry-After`.
"""
HEARTBEAT_S = 2.0  # how often the database hears that the server runs (clocks across a crash)
SWEEP_EVERY = 30  # heartbeats between sweeps of expired sessions and waiting games
TURN_SWEEP_EVERY = 5  # heartbeats between sweeps of turn-based games whose move was due
WATCH_CHECK_EVERY = 2  # clock sweeps between checks that watched games are current
LOBBY_READ_EVERY = 5  # clock sweeps between reads of the cluster's lobby
RETRY_AFTER_S = 2  # what a 503 asks clients to wait (the database or Redis away a moment)
SAY_EVERY_S = 60.0  # the same trouble in a background chore is logged once a minute

STATUS_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "invalid",
    429: "rate_limited",
    503: "unavailable",
}
# What the operating system says of a file name a client chose that cannot be a file here:
# too long, too deep, not a folder, looping. The file is simply not there.
NAME_ERRORS = frozenset(
    {errno.ENAMETOOLONG, errno.ENOENT, errno.ENOTDIR, errno.EISDIR, errno.ELOOP, errno.EINVAL}
)


def _printable(value: Any) -> Any:
    """Text that encodes as UTF-8 whatever a client sent (lone surrogates become U+FFFD)."""
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode("utf-8")
    return value


class App(FastAPI):
    """FastAPI with the live socket (``/ws``) served before Starlette's router and exception
    layers: only the app's own middleware (``add_middleware``: the client's address, the
    reader's language, identity) lies between uvicorn and ``api.routes.ws.live_socket``.

    Starlette's layers wrap ``send`` twice and put a ``WebSocket``'s state checks on every
    message in and out (docs/scaling.md); for a socket they did nothing else: the errors it
    answers are its own messages, no exception handler of the app's applies to what could
    escape it (a fault), and that is uvicorn's to log and close, as before."""

    socket_stack: ASGIApp | None = None  # built at the first socket, like Starlette's own

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" and _route_path(scope) == ws.PATH:
            scope["app"] = self  # as Starlette sets it: the middleware reads app.state.ctx
            stack = self.socket_stack
            if stack is None:
                # Starlette's stack too, so that no middleware is added once sockets are served.
                if self.middleware_stack is None:
                    self.middleware_stack = self.build_middleware_stack()
                stack = self.socket_stack = self.build_socket_stack()
            await stack(scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def build_socket_stack(self) -> ASGIApp:
        """The socket inside the app's own middleware, outermost first as for every route."""
        app: ASGIApp = ws.live_socket
        for cls, args, kwargs in reversed(self.user_middleware):
            app = cls(app, *args, **kwargs)
        return app


def _route_path(scope: Scope) -> str:
    """The path the router matches: below the ``root_path`` the server was started with."""
    path: str = scope["path"]
    root: str = scope.get("root_path", "")
    return path[len(root) :] if root and path.startswith(root) else path


def create_app(settings: Settings | None = None, now: Callable[[], datetime] = utcnow) -> App:
    """The web platform. ``now``: the date as games see it (moves, deadlines of turn-based
    games); tests pass their own clock to play days of turns without waiting."""
    settings = settings or Settings.from_env()
    secret_key = settings.resolved_secret_key()
    templates = Jinja2Templates(directory=str(PACKAGE / "templates"))
    # Every word a player reads goes through gettext: {{ _("…") }} in the templates, in the
    # language of the request (PreferencesMiddleware sets it).
    templates.env.add_extension("jinja2.ext.i18n")
    templates.env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda message: i18n.SITE.catalog().gettext(message),
        ngettext=lambda s, p, n: i18n.SITE.catalog().ngettext(s, p, n),
        pgettext=lambda c, message: i18n.SITE.catalog().pgettext(c, message),
        npgettext=lambda c, s, p, n: i18n.SITE.catalog().npgettext(c, s, p, n),
        newstyle=True,
    )
    templates.env.globals["build"] = BUILD  # base.html's <meta name="pa-build">
    templates.env.globals["shown"] = names.shown  # a player's name in the reader's words

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        # The database away (not started yet, restarting): wait for it, saying so once a minute.
        engine = await wait_for_async(
            "the database", lambda: asyncio.to_thread(make_engine, settings), log.warning
        )
        await wait_for_async(
            "the database", lambda: asyncio.to_thread(run_migrations, engine), log.warning
        )
        mailer, pusher = senders(settings)  # the VAPID keys made at the first start
        checkpointer = SqliteCheckpointer(engine).start()
        store = Store(engine, session_factory(engine))
        bots = BotRunner(settings.bot_executor, settings.bot_workers, settings.bot_time_budget_s)
        bus, jobs, limiter = cluster_parts(settings)
        hub = Hub(store, settings, bots, bus, jobs, now=now)
        chat.attach(hub)  # chat messages reach this process's watchers over the bus
        sessions = DatabaseSessions(
            store,
            idle=timedelta(days=settings.session_idle_days),
            max_age=timedelta(days=settings.session_max_days),
        )
        app.state.ctx = AppContext(
            settings=settings,
            engine=engine,
            store=store,
            hub=hub,
            bots=bots,
            sessions=sessions,
            limiter=limiter,
            rates=Rates.from_settings(settings),
            secret_key=secret_key,
            templates=templates,
            tournaments=Tournaments(hub),
            mailer=mailer,
            pusher=pusher,
            sender=Sender(store, secret_key, settings.public_url, mailer, pusher),
        )
        await abandon.abort_idle(hub)  # games left long ago are not brought back
        await hub.start()
        chores = [
            asyncio.create_task(maintenance(hub, sessions)),
            asyncio.create_task(tournament_ticks(app.state.ctx.tournaments)),
            asyncio.create_task(send_forever(app.state.ctx.sender, hub.now)),
        ]
        if hub.clustered:  # alone, every clock has its timer here and nothing else writes
            chores.append(asyncio.create_task(clock_sweeps(hub)))
        try:
            yield
        finally:
            for chore in chores:
                chore.cancel()
                with contextlib.suppress(BaseException):
                    await chore
            await hub.close()
            bots.close()
            checkpointer.stop()
            store.close()
            engine.dispose()

    app = App(
        title="Pocket Arena",
        version=pa.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
        openapi_tags=[
            {"name": "catalog", "description": "The games on offer"},
            {"name": "games", "description": "Playing: create, join, move, throw, resign, rematch"},
            {"name": "records", "description": "Records, replays and fairness checks"},
            {"name": "lobby", "description": "Open seeks and live games"},
            {"name": "players", "description": "Identity, names, ratings, history"},
            {"name": "accounts", "description": "Optional accounts (argon2 password hashes)"},
            {"name": "tournaments", "description": "Swiss, round robin and arena tournaments"},
        ],
    )
    app.add_middleware(
        IdentityMiddleware,
        cookie_name=settings.cookie_name,
        secure=settings.secure_cookies,
        max_age_s=round(settings.session_max_days * 86400),
    )
    app.add_middleware(PreferencesMiddleware)  # outside identity: its refusals are worded too
    if settings.trusted_proxies.strip():
        # Outermost: the address every limit is keyed by is the client a trusted proxy names.
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)

    add_error_handlers(app)

    for module in (
        catalog,
        games,
        claims,
        records,
        lobby,
        players,
        auth,
        health,
        pages,
        analysis,
        puzzles,
        lessons,
        chat_routes,
        tournaments,
        tournament_pages,
        friends_routes,
        settings_routes,
        notify_routes,
    ):
        app.include_router(module.router)
    app.mount("/static", Assets(directory=str(STATIC)), name="static")
    return app


def add_error_handlers(app: FastAPI) -> None:
    """Every error as JSON for programs or as a page for people, never a trace."""

    @app.exception_handler(GameError)
    async def game_error(_request: Request, exc: GameError) -> JSONResponse:
        headers = None
        if exc.status == 429:
            headers = {"Retry-After": str(exc.retry_after)}
        elif exc.status == 503:  # the database or Redis away for a moment
            headers = {"Retry-After": str(RETRY_AFTER_S)}
        return SafeJSONResponse(
            {"detail": exc.message, "code": exc.code, **exc.to_json()},
            status_code=exc.status,
            headers=headers,
        )

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, exc: StoreError) -> JSONResponse:
        return SafeJSONResponse({"detail": str(exc), "code": "bad_request"}, status_code=400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if is_page(request):  # a person's browser: a page in the site's look
            return await error_page(request, exc.status_code, str(exc.detail), exc.headers)
        return SafeJSONResponse(
            {"detail": _printable(exc.detail), "code": STATUS_CODES.get(exc.status_code, "error")},
            status_code=exc.status_code,
            headers=exc.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> Response:
        if is_page(request):
            return await error_page(request, 422)
        # Where and what, never the input itself: it may not even be encodable.
        # pydantic's English reasons are worded in the reader's language (server/validation.py).
        errors = [
            {
                "loc": [_printable(part) for part in e.get("loc", ())],
                "msg": _printable(validation.worded(e)),
                "type": _printable(e.get("type", "invalid")),
            }
            for e in exc.errors()
        ]
        said = _printable(validation.message(exc.errors()))
        return SafeJSONResponse(
            {"detail": errors, "message": said, "code": "invalid"}, status_code=422
        )

    @app.exception_handler(OSError)
    async def os_error(request: Request, exc: OSError) -> Response:
        # One place for every route that reads a file a request names (rules images, static
        # files, whatever comes next): a name the system cannot take is a 404, not a 500.
        if exc.errno not in NAME_ERRORS:
            raise exc  # a real fault (a disk, a timeout): the server's error, logged
        return await http_error(
            request, StarletteHTTPException(404, i18n.gettext("there is no such file"))
        )

    app.exception_handler(Exception)(server_error)


async def server_error(request: Request, exc: Exception) -> Response:
    """Whatever no other handler took. Logged by the server as it propagates; the visitor gets
    a page or JSON, no trace: 503 with ``Retry-After`` when the database is away for a moment
    (down, restarting, its connections terminated: nothing acknowledged is lost), else 500."""
    # Outside the middleware that chose the reader's language: it is chosen again here.
    with i18n.use_locale(getattr(request.state, "locale", i18n.DEFAULT)):
        if database_away(exc):
            headers = {"Retry-After": str(RETRY_AFTER_S)}
            if is_page(request):
                return await error_page(request, 503, None, headers)
            return SafeJSONResponse(
                {"detail": i18n.gettext(DATABASE_AWAY), "code": "unavailable"},
                status_code=503,
                headers=headers,
            )
        if is_page(request):
            return await error_page(request, 500)
        detail = i18n.gettext("internal error")
        return SafeJSONResponse({"detail": detail, "code": "error"}, status_code=500)


def senders(settings: Settings) -> tuple[Mailer | None, Pusher]:
    """The mailer (None without an SMTP server) and the pusher, with the VAPID keys made at
    the first start; wrong settings fail here, at the start."""
    mailer = Mailer(settings.smtp_url, settings.mail_from) if settings.smtp_url else None
    return mailer, Pusher(vapid_keys(settings), settings.vapid_subject)


def cluster_parts(settings: Settings) -> tuple[Bus, BotQueue | None, Limiter]:
    """The bus, the bots' job queue and the limiter: Redis's when ``redis_url`` is set (a
    cluster), else this process's own."""
    if not settings.redis_url:
        return MemoryBus(), None, MemoryLimiter()
    from .core.redislimit import RedisLimiter

    bus = RedisBus(settings.redis_url, settings.redis_prefix)
    jobs = BotQueue(bus.redis, settings.redis_prefix, bus.node, settings.bot_lease_s)
    return bus, jobs, RedisLimiter(bus.redis, settings.redis_prefix, bus.node)


async def clock_sweeps(hub: Hub) -> None:
    """In a cluster: look now and then for clocks that ran out where nobody kept them, for
    watched games another process changed without a word (it died meanwhile), and for bots
    waited on whose job was lost (Redis restarted empty)."""
    rounds = 0
    said = -SAY_EVERY_S
    bot_every = max(1, round(BOT_SWEEP_S / CLOCK_SWEEP_S))
    while not cancel_lost():  # not True: a lost cancel (see cancel_lost) ends it too
        await asyncio.sleep(CLOCK_SWEEP_S)
        rounds += 1
        chores: list[tuple[str, Callable[[], Awaitable[object]]]] = [
            ("clocks", partial(sweeps.clocks, hub))
        ]
        if rounds % bot_every == 0:
            chores.append(("bot jobs", hub.botjobs.sweep))
        if rounds % WATCH_CHECK_EVERY == 0:
            chores.append(("watched games", hub.cluster.check_watched))
        if rounds % LOBBY_READ_EVERY == 0:
            hub.lobby.mirror.read()  # moves change the lobby's entries without a word
        for name, chore in chores:
            try:
                await chore()
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database or Redis away: the next round tries again
                if time.monotonic() - said >= SAY_EVERY_S:  # once a minute, not every second
                    said = time.monotonic()
                    log.warning("the sweep of %s failed (%s); retrying every second", name, e)


async def tournament_ticks(tournaments: Tournaments) -> None:
    """Every process ticks the running tournaments (pairs a round once it is over, creates
    the games of its boards, pushes the standings to its watchers): whichever gets there
    first pairs; a process killed mid-round leaves the rest to the others."""
    while not cancel_lost():  # not True: a lost cancel (see cancel_lost) ends it too
        await asyncio.sleep(TICK_S)
        try:
            await tournaments.tick_all()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database away for a moment: the next tick tries again
            log.exception("the tournament tick failed")


async def maintenance(hub: Hub, sessions: DatabaseSessions) -> None:
    """Background chores: the heartbeat, and now and then the sweeps of turn-based games
    whose move was due, of expired sessions, of games nobody joined in time and of games
    nobody plays any more."""
    beats = 0
    while not cancel_lost():  # not True: a lost cancel (see cancel_lost) ends it too
        await asyncio.sleep(HEARTBEAT_S)
        beats += 1
        try:
            await hub.heartbeat()
            if beats % TURN_SWEEP_EVERY == 0:
                await sweeps.turns(hub)
            if beats % SWEEP_EVERY == 0:
                await sweeps.waiting(hub)
                await abandon.abort_idle(hub)
                await sessions.purge()
        except asyncio.CancelledError:
            raise
        except Exception:  # a busy or unreachable database: the next round tries again
            log.exception("housekeeping failed")
