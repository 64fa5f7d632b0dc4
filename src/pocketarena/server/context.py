"""What the running app holds: settings, database, hub, bots, sessions, limits, templates."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from fastapi.templating import Jinja2Templates
from sqlalchemy import Engine

from .core.config import Settings
from .core.ratelimit import Limiter, Rates
from .core.sessions import SessionStore
from .live.bots import BotRunner
from .live.hub import Hub
from .store import Store

if TYPE_CHECKING:
    from .delivery import Sender
    from .mail import Mailer
    from .push import Pusher
    from .tournaments import Tournaments


@dataclass
class AppContext:
    settings: Settings
    engine: Engine
    store: Store
    hub: Hub
    bots: BotRunner
    sessions: SessionStore
    limiter: Limiter
    rates: Rates
    secret_key: str  # keys the hashes of client addresses
    templates: Jinja2Templates
    tournaments: Tournaments
    # Notifications by email (None: no SMTP server set) and Web Push, and their sender.
    mailer: Mailer | None = None
    pusher: Pusher | None = None
    sender: Sender | None = None
