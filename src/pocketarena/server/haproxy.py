"""HAProxy's configuration for a cluster, made from the list of its servers: one ``server``
line per process that runs (no idle line that stays DOWN and would send traffic to whatever
answers on its port later), access logs on, ``/readyz`` checked every second. Rendered by
``pocketarena haproxy-config``; docs/deploy.md says how it is used."""

from __future__ import annotations

import ipaddress
import re

# A host name, an IPv4 address or an IPv6 address in brackets, then a port.
_ADDRESS = re.compile(r"^(?P<host>\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(?P<port>[0-9]{1,5})$")

TEMPLATE = """\
# Pocket Arena behind HAProxy, made by `pocketarena haproxy-config` for {count} server(s):
#   {command}
# Every process serves any request and any WebSocket, so no stickiness is needed: new
# connections go to the process with the fewest open ones. More or fewer processes: render it
# again and reload HAProxy (`systemctl reload haproxy`): nothing is dropped.
#
# The servers trust this balancer's X-Forwarded-For (POCKETARENA_TRUSTED_PROXIES): nothing else
# may reach them, or it could name any client it likes (see docs/deploy.md, "The balancer").

global
    # Access and health-check logs: to standard output (the journal under systemd).
    log {log}
    # Connections at once: HAProxy derives the limit from the file descriptors it may open
    # (`ulimit -n`); raise that (and set `maxconn`) for tens of thousands of sockets.
    nbthread 4

defaults
    mode http
    log global
    # One line per request: client, timings, status, bytes, the server that answered.
    # A WebSocket's line is written when it closes.
    option httplog
    option dontlognull
    timeout connect 3s
    timeout client 60s
    timeout server 60s
    # A WebSocket, once upgraded, is a tunnel: the browser pings every 25 s, so an hour of
    # silence means the client is gone.
    timeout tunnel 1h
    timeout client-fin 5s
    timeout http-request 10s
    # A request that could not reach a process goes to another one at once.
    option redispatch 1
    retries 3

frontend arena
    bind {listen}
    # The client's address, for the servers' limits: a header a client sent is replaced.
    http-request del-header X-Forwarded-For
    option forwardfor
    default_backend servers

backend servers
    # Sockets live long: balance by open connections, not by turns.
    balance leastconn
    # A process is in service while /readyz answers 200 (it reaches PostgreSQL and Redis).
    # Not /healthz: that also fails when the cluster's bots stall (every worker gone), which
    # would take every server out at once, friend games too; a monitor watches /healthz.
    option httpchk
    http-check send meth GET uri /readyz
    http-check expect status 200
    # Checked every second; out after 2 failures, back after 2 successes. Meanwhile a
    # connection it refuses (a process that died) is retried on another at once. The sockets
    # of a process that died close with it, and their clients reconnect, to another process.
    default-server inter 1s fall 2 rise 2
{servers}
"""


def check_address(address: str) -> str:
    """``address`` as HAProxy takes it (host:port, [IPv6]:port), or ValueError saying why not."""
    match = _ADDRESS.match(address.strip())
    if match is None:
        raise ValueError(f"{address!r} is not host:port (e.g. 127.0.0.1:8001, [::1]:8001)")
    host, port = match.group("host"), int(match.group("port"))
    if not 1 <= port <= 65535:
        raise ValueError(f"{address!r}: the port must be 1 to 65535")
    if host.startswith("["):
        try:
            ipaddress.IPv6Address(host[1:-1])
        except ValueError:
            raise ValueError(f"{address!r}: {host} is not an IPv6 address") from None
    return f"{host}:{port}"


def render(servers: list[str], listen: str = ":8080", log: str = "stdout format raw local0") -> str:
    """The configuration for these servers (each ``host:port``), HAProxy listening on
    ``listen`` (``[address]:port``) and logging to ``log`` (HAProxy's ``log`` target)."""
    if not servers:
        raise ValueError("name at least one server (host:port)")
    checked = [check_address(s) for s in servers]
    if len(set(checked)) != len(checked):
        raise ValueError("a server is named twice")
    if not re.fullmatch(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]*):[0-9]{1,5}", listen.strip()):
        raise ValueError(f"--listen {listen!r} is not [address]:port (e.g. :8080)")
    if not log.strip() or "\n" in log:
        raise ValueError("--log must be one HAProxy log target (e.g. /dev/log local0)")
    command = "pocketarena haproxy-config " + " ".join(f"--server {s}" for s in checked)
    lines = [f"    server s{i} {address} check" for i, address in enumerate(checked, start=1)]
    return TEMPLATE.format(
        count=len(checked),
        command=command + (f" --listen {listen}" if listen != ":8080" else ""),
        log=log.strip(),
        listen=listen.strip(),
        servers="\n".join(lines),
    )
