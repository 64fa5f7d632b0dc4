"""``pocketarena serve``: the web platform (play in the browser) at http://127.0.0.1:8000."""

from __future__ import annotations

import contextlib
import gc
import os
import re
import signal
from collections.abc import Iterator
from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .common import N_, _, console, fail

if TYPE_CHECKING:
    import uvicorn

    from pocketarena.server.core.config import Settings


REDIS_HELP = N_(
    "Redis URL (redis://host:6379/0): join a cluster of server processes sharing the database "
    "and this Redis. Also POCKETARENA_REDIS_URL."
)
DATABASE_HELP = N_(
    "Database URL (default: SQLite in your data folder; PostgreSQL: "
    "postgresql+psycopg://user@host:5432/db). Also POCKETARENA_DATABASE_URL."
)


def serve(
    host: Annotated[
        str, typer.Option(help=N_("Address to listen on (0.0.0.0 for every interface)."))
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("Port to listen on."), min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None, typer.Option(help=DATABASE_HELP, show_default=False)
    ] = None,
    redis_url: Annotated[str | None, typer.Option(help=REDIS_HELP, show_default=False)] = None,
    workers: Annotated[
        int,
        typer.Option(
            help=N_("Server processes on this port (needs --redis-url: they form a cluster)."),
            min=1,
            max=256,
        ),
    ] = 1,
    trusted_proxies: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Addresses of your reverse proxies (comma-separated IPs or networks): only "
                "their X-Forwarded-For names the client. Also POCKETARENA_TRUSTED_PROXIES."
            ),
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help=N_("Uvicorn log level."))] = "info",
) -> None:
    """Start the web server: play, watch, replay and verify games.

    Every game, against bots or friends."""
    try:
        _serve(host, port, database_url, redis_url, workers, trusted_proxies, log_level)
    except KeyboardInterrupt:  # Ctrl-C before the server listens: stop quietly
        raise typer.Exit(130) from None


def _settings(database_url: str | None, redis_url: str | None, **more: Any) -> Settings:
    """The settings, with the database migrated and Redis answering (else one line, exit 1)."""
    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import DatabaseConfigError, make_engine, run_migrations
    from pocketarena.server.core.waiting import wait_for

    def say(line: str) -> None:
        console.print(f"[yellow]{line}[/]")

    try:
        settings = Settings.from_env(None, database_url=database_url, redis_url=redis_url, **more)
    except ValueError as e:
        fail(str(e))

    def migrate() -> None:
        engine = make_engine(settings)  # fail here, with one line, rather than inside the server
        try:
            run_migrations(engine)
        finally:
            engine.dispose()

    # The database or Redis away (not started yet, restarting): wait for them, saying so once a
    # minute, rather than exit (a supervisor would only start us again, and again).
    shown = re.sub(r"//[^@/]*@", "//", settings.database_url)  # no password on the screen
    try:
        wait_for(f"the database {shown}", migrate, say)
    except DatabaseConfigError as e:
        fail(str(e))
    except Exception as e:  # reached, but unusable (a wrong name, no rights, a bad schema)
        fail(_("cannot open the database %(url)r: %(why)s", url=shown, why=_why(e)))
    if settings.redis_url:
        url = settings.redis_url
        shown = re.sub(r"//[^@/]*@", "//", url)
        try:
            wait_for(f"Redis at {shown}", lambda: _ping_redis(url), say)
        except Exception as e:  # reached, but refusing us (a password), or not a Redis URL
            fail(_("cannot use Redis at %(url)r: %(why)s", url=shown, why=_why(e)))
    return settings


def _why(error: Exception) -> str:
    """What a driver said, on one line: ``OperationalError: connection refused``."""
    return f"{type(error).__name__}: {(str(error).splitlines() or [''])[0]}"


def _ping_redis(url: str) -> None:
    """PING Redis at ``url``: a refused connection raises redis's ConnectionError (Redis away:
    waited for), a wrong URL ValueError, a wrong password AuthenticationError (not waited
    for: see ``waiting.away``)."""
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    finally:
        client.close()


def redis_unreachable(url: str) -> str | None:
    """None if a Redis server answers PING at ``url`` within 3 s, else why not (one line)."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as e:
        return f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
    return None


def _serve(
    host: str,
    port: int,
    database_url: str | None,
    redis_url: str | None,
    workers: int,
    trusted_proxies: str | None,
    log_level: str,
) -> None:
    import uvicorn

    from pocketarena.server.core.websocket import WebSocketProtocol

    if workers == 1:
        # The app, in this process. With --workers N each process Uvicorn starts imports it
        # itself: the one starting them need not (the server's import is 2 s of CPU).
        from pocketarena.server.main import create_app

    settings = _settings(database_url, redis_url, trusted_proxies=trusted_proxies)
    if workers > 1 and not settings.redis_url:
        fail(
            _(
                "--workers %(workers)s needs --redis-url (or POCKETARENA_REDIS_URL): processes "
                "serving the same games share their changes through Redis; without it run one "
                "process (--workers 1)",
                workers=workers,
            )
        )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    cluster = f", cluster over Redis {settings.redis_url}" if settings.redis_url else ""
    # One line the terminal may fold but never breaks inside the address (soft wrap).
    console.print(
        f"Pocket Arena on [bold]http://{shown}:{port}[/]  (database: {settings.database_url}"
        f"{cluster}{f', {workers} processes' if workers > 1 else ''})",
        soft_wrap=True,
    )
    common: dict[str, Any] = {
        "host": host,
        "port": port,
        "log_level": log_level,
        "ws_max_size": 64 * 1024,  # the app refuses messages over 4 KB itself, with an error
        "ws_per_message_deflate": settings.ws_compression,
        "ws": WebSocketProtocol,  # uvicorn's, compressing at zlib's level 1
        # The app reads X-Forwarded-For itself, from its trusted proxies only.
        "proxy_headers": False,
    }
    if workers > 1:
        # Each worker process builds its app from the environment: hand it the settings given
        # on the command line there.
        os.environ["POCKETARENA_DATABASE_URL"] = settings.database_url
        os.environ["POCKETARENA_REDIS_URL"] = settings.redis_url
        if trusted_proxies is not None:
            os.environ["POCKETARENA_TRUSTED_PROXIES"] = trusted_proxies
        if not settings.secret_key:  # one key for every process (cookies, address hashes)
            os.environ["POCKETARENA_SECRET_KEY"] = settings.resolved_secret_key()
        uvicorn.run("pocketarena.server.main:create_app", factory=True, workers=workers, **common)
        return
    with _ctrl_c_kept() as pressed:
        app = create_app(settings)
        # Everything loaded so far (code, games, templates) lives as long as the process: keep
        # it out of the garbage collector's full sweeps, and sweep less often, so a collection
        # never stalls the event loop for long.
        gc.collect()
        gc.freeze()
        gc.set_threshold(50_000, 20, 20)
        # Ctrl-C and SIGTERM stop Uvicorn gracefully: the app writes its last heartbeat and
        # stops its bot workers (which leave Ctrl-C to it).
        config = uvicorn.Config(app, **common)
        server = _server(config, pressed)
        with contextlib.suppress(KeyboardInterrupt):  # as uvicorn.run: Ctrl-C is a clean stop
            server.run()
    if not server.started:
        raise typer.Exit(3)  # uvicorn's STARTUP_FAILURE; it has said why


class _Pressed:
    """Whether Ctrl-C was pressed before Uvicorn listened for it."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.count += 1
        if self.count > 1:  # pressed again: the impatient way out, at once
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            raise KeyboardInterrupt


@contextlib.contextmanager
def _ctrl_c_kept() -> Iterator[_Pressed]:
    """Keep a Ctrl-C pressed while the app is built, for Uvicorn to act on once it listens.
    Python's own handler raises KeyboardInterrupt wherever the main thread is, and where that
    is a garbage collector's or finalizer's callback (SQLAlchemy's, during ``gc.collect()``)
    the interpreter prints "Exception ignored" and goes on: the Ctrl-C was lost and the server
    ran on (seen in a busy suite). A second Ctrl-C stops at once, as before."""
    pressed = _Pressed()
    before = signal.signal(signal.SIGINT, pressed)
    try:
        yield pressed
    finally:
        signal.signal(signal.SIGINT, before)


def _server(config: uvicorn.Config, pressed: _Pressed) -> uvicorn.Server:
    """Uvicorn's server, told of a Ctrl-C pressed before it listened for signals: it starts,
    then stops at once, gracefully (the app's shutdown runs)."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            with super().capture_signals():
                if pressed.count:
                    pressed.count = 0
                    self.handle_exit(signal.SIGINT, None)
                yield

    return Server(config)


def worker(
    database_url: Annotated[
        str | None, typer.Option(help=DATABASE_HELP, show_default=False)
    ] = None,
    redis_url: Annotated[str | None, typer.Option(help=REDIS_HELP, show_default=False)] = None,
    bots: Annotated[
        int | None,
        typer.Option(
            help=N_("Bot moves thought about at once (default: POCKETARENA_BOT_WORKERS, 2)."),
            min=1,
            max=256,
            show_default=False,
        ),
    ] = None,
    health_port: Annotated[
        int | None,
        typer.Option(
            help=N_(
                "Answer GET /healthz on this port (200 when the database, Redis and the bots' "
                "queue work, else 503), for a balancer or a supervisor."
            ),
            min=1,
            max=65535,
            show_default=False,
        ),
    ] = None,
    health_host: Annotated[
        str, typer.Option(help=N_("Address the health port listens on."))
    ] = "127.0.0.1",
) -> None:
    """Play a cluster's bot moves, taken from its queue in Redis.

    Start as many as you like, on any machine that reaches the database and Redis."""
    settings = _settings(database_url, redis_url)
    if not settings.redis_url:
        fail(_("a worker takes its jobs from Redis: give --redis-url (or POCKETARENA_REDIS_URL)"))
    if bots is not None:
        settings.bot_workers = bots
    settings.bot_jobs = True
    health = f", health on http://{health_host}:{health_port}/healthz" if health_port else ""
    console.print(
        f"Bot worker for the cluster on {settings.redis_url} ({settings.bot_workers} at once"
        f"{health})"
    )
    try:
        # A Ctrl-C from here until the worker listens for signals is kept for it (see
        # _ctrl_c_kept: the imports below run finalizers, where a KeyboardInterrupt is lost).
        with _ctrl_c_kept() as pressed:
            import asyncio

            from pocketarena.server.worker import run_worker

            async def work() -> None:
                stop = asyncio.Event()

                def stop_if_pressed() -> None:
                    if pressed.count:
                        stop.set()

                # run_worker listens for signals before its first await: this runs after that.
                asyncio.get_running_loop().call_soon(stop_if_pressed)
                await run_worker(settings, stop, health_port=health_port, health_host=health_host)

            asyncio.run(work())
    except KeyboardInterrupt:
        raise typer.Exit(130) from None


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("worker")(worker)
