"""Rate limits: token buckets by key (a player, an address, an account), and counters of things
open at once (WebSockets per address).

The app talks to a ``Limiter`` (a small protocol) so that the buckets can live elsewhere when
several server processes must share them; ``MemoryLimiter`` keeps them in this process.
"""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .config import Settings


@dataclass(frozen=True)
class Rate:
    """``burst`` tokens, refilled at ``per_s`` a second; each request takes one."""

    name: str
    per_s: float
    burst: float

    @classmethod
    def per_minute(cls, name: str, count: float) -> Rate:
        """``count`` at once, then ``count`` a minute."""
        return cls(name, count / 60.0, count)


class Limiter(Protocol):
    """Where the buckets and counters live. Every method is safe to call from the event loop."""

    async def take(self, rate: Rate, key: str) -> float:
        """Take a token from ``key``'s bucket: 0.0 if one was there, else the seconds until
        one will be (and nothing is taken)."""
        ...

    async def peek(self, rate: Rate, key: str) -> float:
        """Like ``take`` without taking: 0.0 if a token is there now."""
        ...

    async def acquire(self, name: str, key: str, cap: int) -> bool:
        """Count one more open thing for ``key`` unless ``cap`` are open already."""
        ...

    async def release(self, name: str, key: str) -> None:
        """One thing ``acquire`` counted has closed."""
        ...


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message or request takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(
        self, rate: float, burst: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def wait(self) -> float:
        """Seconds until a token is there (0.0: now)."""
        self._refill()
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    def take(self) -> float:
        """0.0 if a token was taken, else the seconds to wait for one."""
        wait = self.wait()
        if wait == 0.0:
            self.tokens -= 1.0
        return wait


class MemoryLimiter:
    """The buckets and counters of one process. Idle buckets are forgotten so the table stays
    small under a flood of new keys."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, max_keys: int = 100_000
    ) -> None:
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[tuple[str, str], TokenBucket] = {}
        self._open: dict[tuple[str, str], int] = {}

    def _bucket(self, rate: Rate, key: str) -> TokenBucket:
        bucket = self._buckets.get((rate.name, key))
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._forget_full()
            bucket = TokenBucket(rate.per_s, rate.burst, self.clock)
            self._buckets[(rate.name, key)] = bucket
        return bucket

    async def take(self, rate: Rate, key: str) -> float:
        return self._bucket(rate, key).take()

    async def peek(self, rate: Rate, key: str) -> float:
        bucket = self._buckets.get((rate.name, key))
        return 0.0 if bucket is None else bucket.wait()

    async def acquire(self, name: str, key: str, cap: int) -> bool:
        count = self._open.get((name, key), 0)
        if count >= cap:
            return False
        self._open[(name, key)] = count + 1
        return True

    async def release(self, name: str, key: str) -> None:
        count = self._open.get((name, key), 0) - 1
        if count > 0:
            self._open[(name, key)] = count
        else:
            self._open.pop((name, key), None)

    def _forget_full(self) -> None:
        # A bucket that has refilled completely carries no information: drop those.
        now = self.clock()
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.stamp < b.burst / b.rate}
        if len(self._buckets) >= self.max_keys:
            self._buckets.clear()


def address_key(host: str | None) -> str:
    """The key a client address is limited by: an IPv4 address, an IPv6 /64 network (one
    subscriber usually holds a whole /64), or the name as given (a Unix socket, a test)."""
    if not host:
        return "?"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host[:64]
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


@dataclass(frozen=True)
class Rates:
    """The app's limits, from its settings."""

    writes: Rate  # state-changing requests, per player
    address_writes: Rate  # the same, per address
    games: Rate  # new games, per player
    address_games: Rate
    address_sessions: Rate  # new guest sessions, per address
    sign_in_failures: Rate  # wrong passwords, per account
    address_sign_ins: Rate  # sign-in attempts, per address
    address_sockets: Rate  # WebSocket handshakes, per address
    analysis: Rate  # evaluations and game analyses, per player
    address_analysis: Rate  # the same, per address
    social: Rate  # challenges, follows and blocks, per player
    address_social: Rate  # the same, per address

    @classmethod
    def from_settings(cls, s: Settings) -> Rates:
        return cls(
            writes=Rate("writes", s.http_writes_per_s, s.http_burst),
            address_writes=Rate("address-writes", s.address_writes_per_s, s.address_burst),
            games=Rate.per_minute("games", s.games_per_minute),
            address_games=Rate.per_minute("address-games", s.address_games_per_minute),
            address_sessions=Rate.per_minute("address-sessions", s.address_sessions_per_minute),
            sign_in_failures=Rate.per_minute("sign-in-failures", s.sign_ins_per_minute),
            address_sign_ins=Rate.per_minute("address-sign-ins", s.address_sign_ins_per_minute),
            address_sockets=Rate.per_minute("address-sockets", s.address_sockets_per_minute),
            analysis=Rate.per_minute("analysis", s.analysis_per_minute),
            address_analysis=Rate.per_minute("address-analysis", s.address_analysis_per_minute),
            social=Rate.per_minute("social", s.social_per_minute),
            address_social=Rate.per_minute("address-social", s.address_social_per_minute),
        )
