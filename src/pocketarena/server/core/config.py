"""One settings object for the whole app, read from the environment (``POCKETARENA_*``)."""

from __future__ import annotations

import ipaddress
import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Literal

import platformdirs

ENV_PREFIX = "POCKETARENA_"


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("pocketarena", appauthor=False))


def private_dir(path: Path) -> Path:
    """Create ``path`` (and missing parents) readable by its owner only; an existing folder
    is left as its owner set it."""
    if not path.is_dir():
        path.mkdir(parents=True, exist_ok=True, mode=0o700)
        os.chmod(path, 0o700)  # mkdir's mode passes through the umask
    return path


@dataclass
class Settings:
    """Everything configurable. ``Settings.from_env()`` reads ``POCKETARENA_<NAME>`` variables
    (e.g. ``POCKETARENA_DATABASE_URL``); keyword arguments override both."""

    # Storage: SQLite in the user's data directory unless a URL is given (PostgreSQL:
    # postgresql+psycopg://user@host:5432/db).
    database_url: str = ""
    data_dir: Path = field(default_factory=default_data_dir)
    # PostgreSQL only: keep the tables in this schema (created if missing), e.g. to share a
    # database between instances or test runs.
    database_schema: str = ""
    # PostgreSQL only: connections each server process keeps open (and never more). Every
    # process of a cluster holds up to this many: keep processes x this under the server's
    # max_connections (100 by default).
    database_pool_size: int = 20
    # Keys the hashes of client addresses kept with games. Default: a random key kept in
    # data_dir/secret_key (readable by its owner only).
    secret_key: str = ""
    # A cluster: processes that share one database and this Redis (redis://host:6379/0) serve
    # the same games, lobby and limits. Empty: one process on its own, no Redis needed.
    redis_url: str = ""
    redis_prefix: str = "pocketarena"  # every Redis key and channel starts with it
    secure_cookies: bool = False  # set behind HTTPS
    cookie_name: str = "pa_session"

    # Bots think in worker processes (or threads: cheaper to start, but share the GIL).
    bot_executor: Literal["process", "thread"] = "process"
    bot_workers: int = 2
    bot_time_budget_s: float = 10.0  # a bot slower than this plays a random legal move instead
    bot_min_delay_ms: int = 400  # so people can follow a bot's moves
    # In a cluster bots' moves are jobs in a queue: take them in this process too (otherwise
    # only `pocketarena worker` processes do), and retry a job whose taker is silent this long.
    bot_jobs: bool = True
    bot_lease_s: float = 15.0
    # /healthz fails (503) when a bot job has waited this long: nothing takes the bots' jobs.
    bot_stall_s: float = 45.0

    # Compress WebSocket messages (permessage-deflate, zlib level 1: server.core.websocket):
    # less traffic, more server CPU.
    ws_compression: bool = True

    # Abuse limits. Each holds for a player AND for a client address (requests without a
    # cookie included): a token bucket of ``burst`` refilled at the rate given.
    max_message_bytes: int = 4096  # larger WebSocket messages are refused (connection kept)
    ws_messages_per_s: float = 20.0  # per connection
    ws_burst: int = 40
    http_writes_per_s: float = 10.0  # per player, POST/PATCH/DELETE
    http_burst: int = 30
    address_writes_per_s: float = 30.0  # per address (many people may share one)
    address_burst: int = 120
    chat_per_minute: float = 20.0  # table chat messages per player (a burst of 5)
    address_chat_per_minute: float = 60.0  # per address (a burst of 15)
    # Board evaluations and game analyses (the study work of the bot workers) per player and
    # per address (a burst of as many), and how many may wait for a study worker in one
    # process before the next is told to come back (503 with Retry-After).
    analysis_per_minute: float = 20.0
    address_analysis_per_minute: float = 40.0
    analysis_queue: int = 4
    games_per_minute: int = 10  # new games per player (a burst of as many)
    address_games_per_minute: int = 30  # new games per address
    social_per_minute: int = 10  # challenges sent and follows/blocks per player (a burst)
    address_social_per_minute: int = 30  # the same, per address
    max_open_games: int = 10  # games waiting for an opponent or running a clock, per player
    address_max_open_games: int = 30  # the same, per address
    waiting_game_ttl_s: int = 3600  # a game nobody joined is cancelled after this long
    abandon_after_s: int = 86400  # a game in progress with no move this long is aborted
    claim_win_after_s: int = 120  # an untimed game's opponent gone this long: claim the win
    address_sessions_per_minute: int = 30  # new visitors (guest sessions) per address
    sign_ins_per_minute: int = 5  # failed sign-ins per account before 429 (refills 5 a minute)
    address_sign_ins_per_minute: int = 20  # sign-in attempts per address
    address_max_sockets: int = 50  # WebSockets open at once per address
    address_sockets_per_minute: int = 120  # WebSocket handshakes per address
    lobby_updates_per_s: float = 2.0  # lobby changes are sent together, at most this often
    max_live_games: int = 5000
    tournament_max_players: int = 500  # players per tournament (an organiser may set fewer)
    tournaments_per_day: int = 5  # tournaments an account may create in 24 hours
    # Requests from these addresses (IPs or networks, comma-separated; "*" for any) may name
    # the client in X-Forwarded-For / X-Forwarded-Proto: set it to your reverse proxy's
    # address, and let nothing else reach the server (anything that does, from a trusted
    # address, names any client it likes). Empty: the socket's peer is the client.
    trusted_proxies: str = ""

    # Notifications by email: the SMTP server (smtp://[user:password@]host[:port], STARTTLS when
    # it offers it; smtps:// for TLS from the start). Empty: no email is sent, and the account
    # page does not ask for an address. ``mail_from``: the sender of every message.
    smtp_url: str = ""
    mail_from: str = "Pocket Arena <noreply@localhost>"
    # Where players reach the site (links in emails: verification, unsubscribe, the game).
    public_url: str = "http://localhost:8000"
    # Web Push: who runs the server, for the push services (a mailto: or https: URL). The
    # VAPID key pair is made at the first start and kept in data_dir/vapid_private.pem
    # (readable by its owner only), beside the secret key; give a PEM file's path to use
    # another.
    vapid_subject: str = "mailto:noreply@localhost"
    vapid_private_key: str = ""

    # Sessions: a random token in the cookie, kept (hashed) in the database.
    session_idle_days: float = 30.0  # unused this long, a session ends
    session_max_days: float = 365.0  # and in any case this long after it began

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: Any) -> Settings:
        env = dict(os.environ if env is None else env)
        values: dict[str, Any] = {}
        for f in fields(cls):
            key = ENV_PREFIX + f.name.upper()
            if key in env:
                values[f.name] = _coerce(f.name, f.type, env[key])
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls(**values)

    def __post_init__(self) -> None:
        self.data_dir = Path(self.data_dir)
        if self.bot_executor not in ("process", "thread"):
            raise ValueError(
                f"bot_executor must be 'process' or 'thread', got {self.bot_executor!r}"
            )
        if not self.database_url:
            self.database_url = f"sqlite:///{self.data_dir / 'pocketarena.sqlite3'}"
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type not in ("int", "float"):
                continue
            rate = f.name.endswith(("_per_s", "_per_minute", "burst"))
            if not (value > 0 if rate else value >= 0):
                need = "positive" if rate else "zero or more"
                raise ValueError(f"{ENV_PREFIX}{f.name.upper()} must be {need}, not {value!r}")
        if self.database_pool_size < 1:
            raise ValueError(f"{ENV_PREFIX}DATABASE_POOL_SIZE must be at least 1")
        for item in self.trusted_proxies.split(","):
            _check_proxy(item.strip())

    def resolved_secret_key(self) -> str:
        """The cookie-signing key: given, or read from (or created in) the data directory."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        return private_file(path, lambda: secrets.token_urlsafe(48).encode()).decode().strip()


def private_file(path: Path, make: Callable[[], bytes]) -> bytes:
    """The bytes of ``path``, written first by ``make()`` (readable by its owner only) if it
    does not exist; two processes starting at once keep the first one's. The file appears
    whole or not at all (written aside, then linked in place), so a process starting while
    another makes it never reads it half written."""
    if path.exists():
        return path.read_bytes()
    private_dir(path.parent)
    aside = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(make())
        os.link(aside, path)  # fails if another process's file is there already: keep that one
    except FileExistsError:
        pass
    finally:
        aside.unlink(missing_ok=True)
    return path.read_bytes()


def _check_proxy(item: str) -> None:
    """A trusted proxy: an IP address, a network (with /), or "*" (any peer: only where nothing
    but the proxy can reach the server); anything else, a host name included (it would never
    match a peer's address), is refused with a message."""
    if not item or item == "*":
        return
    try:
        if "/" in item:
            ipaddress.ip_network(item)
        else:
            ipaddress.ip_address(item)
    except ValueError:
        raise ValueError(
            f"--trusted-proxies / {ENV_PREFIX}TRUSTED_PROXIES: {item!r} is not an IP address or "
            "network (e.g. 10.0.0.5, 10.0.0.0/24 or fd00::/64, comma-separated)"
        ) from None


def _coerce(name: str, annotation: Any, text: str) -> Any:
    kind = str(annotation)
    try:
        if kind == "bool":
            low = text.strip().lower()
            if low not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError
            return low in ("1", "true", "yes", "on")
        if kind == "int":
            return int(text)
        if kind == "float":
            return float(text)
    except ValueError:
        raise ValueError(f"{ENV_PREFIX}{name.upper()}={text!r} is not a valid {kind}") from None
    if kind == "Path":
        return Path(text)
    return text
