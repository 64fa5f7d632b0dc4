"""What the running app holds: settings, database, hub, bots, signer, limiters, templates."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi.templating import Jinja2Templates
from sqlalchemy import Engine

from .core.config import Settings
from .core.ratelimit import RateLimiter
from .core.security import SessionSigner
from .live.bots import BotRunner
from .live.hub import Hub
from .store import Store


@dataclass
class AppContext:
    settings: Settings
    engine: Engine
    store: Store
    hub: Hub
    bots: BotRunner
    signer: SessionSigner
    http_limiter: RateLimiter
    templates: Jinja2Templates
