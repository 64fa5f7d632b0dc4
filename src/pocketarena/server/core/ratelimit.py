"""Per-client rate limiting: a token bucket per key (player, connection or address)."""

from __future__ import annotations

import time
from collections.abc import Callable


class TokenBucket:
    """``rate`` tokens per second up to ``burst``; each message or request takes one."""

    __slots__ = ("rate", "burst", "tokens", "stamp", "clock")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def take(self) -> float:
        """0.0 if a token was taken, else the seconds to wait for one."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / self.rate


class RateLimiter:
    """Token buckets by key; idle buckets are forgotten so the table stays small."""

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.max_keys = max_keys
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, key: str) -> float:
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= self.max_keys:
                self._forget_full()
            bucket = self._buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.take()

    def _forget_full(self) -> None:
        # A bucket that has refilled completely carries no information: drop those.
        now = self.clock()
        refill = self.burst / self.rate
        self._buckets = {k: b for k, b in self._buckets.items() if now - b.stamp < refill}
        if len(self._buckets) >= self.max_keys:
            self._buckets.clear()
