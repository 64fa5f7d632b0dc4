"""The app: wires settings, database, hub, routes, pages and static files together."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

import pocketarena as pa

from .api.routes import auth, catalog, games, lobby, pages, players, records, ws
from .context import AppContext
from .core.config import Settings
from .core.db import SqliteCheckpointer, make_engine, run_migrations, session_factory
from .core.middleware import IdentityMiddleware
from .core.ratelimit import RateLimiter
from .core.security import SessionSigner
from .live.bots import BotRunner
from .live.hub import GameError, Hub
from .store import Store, StoreError

log = logging.getLogger(__name__)
PACKAGE = Path(str(resources.files("pocketarena.server")))

DESCRIPTION = """
Play Coin Age, Wallet Battles, Stack-a-Cash and FlipWars against bots and people.

The server is authoritative: every move is checked by the rules engine, and each move names the
**version** of the game it was made on, so a stale or repeated move is refused. Live updates
come over the WebSocket at `/ws` (see `pocketarena.server.api.routes.ws` for its messages).
Chance (slaps and flips) is provably fair: each game commits to SHA-256 of a secret seed at its
start and reveals the seed at its end; `GET /api/games/{id}/verify` recomputes every outcome.

Identity is a signed cookie: a guest on first visit, an account after `/api/auth/register`.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()
    signer = SessionSigner(settings.resolved_secret_key())
    templates = Jinja2Templates(directory=str(PACKAGE / "templates"))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings)
        run_migrations(engine)
        checkpointer = SqliteCheckpointer(engine).start()
        store = Store(engine, session_factory(engine))
        bots = BotRunner(settings.bot_executor, settings.bot_workers, settings.bot_time_budget_s)
        hub = Hub(store, settings, bots)
        app.state.ctx = AppContext(
            settings=settings,
            engine=engine,
            store=store,
            hub=hub,
            bots=bots,
            signer=signer,
            http_limiter=RateLimiter(settings.http_writes_per_s, settings.http_burst),
            templates=templates,
        )
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            bots.close()
            checkpointer.stop()
            engine.dispose()

    app = FastAPI(
        title="Pocket Arena",
        version=pa.__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        openapi_tags=[
            {"name": "catalog", "description": "The games on offer"},
            {"name": "games", "description": "Playing: create, join, move, throw, resign, rematch"},
            {"name": "records", "description": "Records, replays and fairness checks"},
            {"name": "lobby", "description": "Open seeks and live games"},
            {"name": "players", "description": "Identity, names, ratings, history"},
            {"name": "accounts", "description": "Optional accounts (argon2 password hashes)"},
        ],
    )
    app.add_middleware(
        IdentityMiddleware,
        signer=signer,
        cookie_name=settings.cookie_name,
        secure=settings.secure_cookies,
    )

    @app.exception_handler(GameError)
    async def game_error(_request: Request, exc: GameError) -> JSONResponse:
        return JSONResponse({"detail": exc.message, "code": exc.code}, status_code=exc.status)

    @app.exception_handler(StoreError)
    async def store_error(_request: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "code": "bad_request"}, status_code=400)

    for module in (catalog, games, records, lobby, players, auth, ws, pages):
        app.include_router(module.router)
    app.mount("/static", StaticFiles(directory=str(PACKAGE / "static")), name="static")
    return app
