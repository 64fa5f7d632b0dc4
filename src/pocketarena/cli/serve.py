"""``pocketarena serve``: the web platform (play in the browser) at http://127.0.0.1:8000."""

from __future__ import annotations

import gc
from typing import Annotated

import typer

from .common import console, fail


def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0 for every interface).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="Database URL (default: SQLite in your data folder; PostgreSQL: "
            "postgresql+psycopg://user@host:5432/db). Also POCKETARENA_DATABASE_URL.",
            show_default=False,
        ),
    ] = None,
    trusted_proxies: Annotated[
        str | None,
        typer.Option(
            help="Addresses of your reverse proxies (comma-separated IPs or networks): only "
            "their X-Forwarded-For names the client. Also POCKETARENA_TRUSTED_PROXIES.",
            show_default=False,
        ),
    ] = None,
    log_level: Annotated[str, typer.Option(help="Uvicorn log level.")] = "info",
) -> None:
    """Start the web server: play every game against bots or friends, watch, replay, verify."""
    try:
        _serve(host, port, database_url, trusted_proxies, log_level)
    except KeyboardInterrupt:  # Ctrl-C before the server listens: stop quietly
        raise typer.Exit(130) from None


def _serve(
    host: str, port: int, database_url: str | None, trusted_proxies: str | None, log_level: str
) -> None:
    import uvicorn

    from pocketarena.server.core.config import Settings
    from pocketarena.server.core.db import DatabaseConfigError, make_engine, run_migrations
    from pocketarena.server.main import create_app

    try:
        settings = Settings.from_env(database_url=database_url, trusted_proxies=trusted_proxies)
        engine = make_engine(settings)
        run_migrations(engine)  # fail here, with one line, rather than inside the server
        engine.dispose()
    except (DatabaseConfigError, ValueError) as e:
        fail(str(e))
    except Exception as e:  # the database cannot be reached
        fail(
            f"cannot open the database {settings.database_url!r}: {type(e).__name__}: {str(e).splitlines()[0]}"
        )
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
    console.print(
        f"Pocket Arena on [bold]http://{shown}:{port}[/]  (database: {settings.database_url})"
    )
    app = create_app(settings)
    # Everything loaded so far (code, games, templates) lives as long as the process: keep it out
    # of the garbage collector's full sweeps, and sweep less often, so a collection never stalls
    # the event loop for long.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 20)
    # Ctrl-C and SIGTERM stop Uvicorn gracefully: the app writes its last heartbeat and stops
    # its bot workers (which leave Ctrl-C to it).
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        ws_max_size=64 * 1024,  # the app refuses messages over 4 KB itself, with an error
        ws_per_message_deflate=settings.ws_compression,
        # The app reads X-Forwarded-For itself, from its trusted proxies only.
        proxy_headers=False,
    )


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
