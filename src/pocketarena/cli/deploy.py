"""Running a cluster: ``pocketarena haproxy-config`` (the balancer's configuration for the servers
that run) and ``pocketarena wait-healthy`` (wait until processes answer ``/healthz``)."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from .common import FAILED, N_, _, err_console, fail


def haproxy_config(
    server: Annotated[
        list[str],
        typer.Option(
            help=N_(
                "A server process, host:port; once per process (e.g. --server 10.0.0.11:8001 "
                "--server 10.0.0.11:8002)."
            ),
            show_default=False,
        ),
    ],
    listen: Annotated[
        str, typer.Option(help=N_("Where HAProxy listens, [address]:port."))
    ] = ":8080",
    log: Annotated[
        str,
        typer.Option(
            help=N_("HAProxy's log target for access logs (e.g. '/dev/log local0' for syslog).")
        ),
    ] = "stdout format raw local0",
) -> None:
    """Print HAProxy's configuration for these servers.

    One line per process, access logs on, /readyz checked every second.

    pocketarena haproxy-config --server 127.0.0.1:8001 \\
        --server 127.0.0.1:8002 > haproxy.cfg"""
    from pocketarena.server.haproxy import render

    try:
        text = render(server, listen, log)
    except ValueError as e:
        fail(str(e))
    typer.echo(text, nl=False)


def wait_healthy(
    url: Annotated[
        list[str],
        typer.Argument(
            help=N_("Each process's or the balancer's address, e.g. http://127.0.0.1:8001.")
        ),
    ],
    timeout: Annotated[
        float, typer.Option(help=N_("Give up after this many seconds (exit 1)."), min=0.0)
    ] = 120.0,
) -> None:
    """Wait until every server answers its health check.

    Each address must answer GET /healthz with 200 (it reaches PostgreSQL
    and Redis); past --timeout, say which did not and exit 1."""
    import httpx

    bases = [u.rstrip("/") for u in url]
    for base in bases:
        if not base.startswith(("http://", "https://")):
            fail(_("%(url)r is not an http:// or https:// address", url=base))
    waiting = {base: _("not asked yet") for base in bases}
    deadline = time.monotonic() + timeout
    said = time.monotonic()
    while True:
        for base in list(waiting):
            try:
                r = httpx.get(f"{base}/healthz", timeout=3)
                if r.status_code == 200:
                    del waiting[base]
                else:
                    waiting[base] = _("answers %(status)s", status=r.status_code)
            except httpx.HTTPError as e:
                waiting[base] = f"{type(e).__name__}"
        if not waiting:
            err_console.print(_("healthy: %(urls)s", urls=", ".join(bases)), soft_wrap=True)
            return
        now = time.monotonic()
        if now >= deadline:
            left = "; ".join(f"{b} {why}" for b, why in waiting.items())
            fail(
                _("not healthy after %(seconds)s s: %(left)s", seconds=f"{timeout:g}", left=left),
                FAILED,
            )
        if now - said >= 10:
            said = now
            left = ", ".join(waiting)
            err_console.print(_("waiting for %(urls)s …", urls=left), soft_wrap=True, markup=False)
        time.sleep(min(0.5, max(0.0, deadline - now)))


def register(app: typer.Typer) -> None:
    app.command("haproxy-config")(haproxy_config)
    app.command("wait-healthy")(wait_healthy)
