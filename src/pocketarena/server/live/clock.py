"""Game clocks: initial time plus an increment per turn, kept by the server."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


class Clock:
    """Two countdowns; at most one runs. The increment is added when a seat's turn passes to
    the other seat (a Coin Age turn of several actions earns it once)."""

    def __init__(
        self,
        initial_ms: int,
        increment_ms: int,
        remaining: list[int] | None = None,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.initial_ms = initial_ms
        self.increment_ms = increment_ms
        self.remaining = list(remaining) if remaining is not None else [initial_ms, initial_ms]
        self.running: int | None = None
        self.since = 0.0
        self.now = now

    def copy(self) -> Clock:
        """The same clocks, to change without changing these."""
        twin = Clock(self.initial_ms, self.increment_ms, self.remaining, self.now)
        twin.running, twin.since = self.running, self.since
        return twin

    def left_ms(self, seat: int, at: float | None = None) -> int:
        """Time left for ``seat`` at the moment ``at`` (a reading of ``now``; None: this
        moment), negative once flagged."""
        if seat == self.running:
            at = self.now() if at is None else at
            return self.remaining[seat] - round((at - self.since) * 1000)
        return self.remaining[seat]

    def flagged(self, at: float | None = None) -> int | None:
        """The seat whose time has run out at ``at`` (None: now), if any."""
        if self.running is not None and self.left_ms(self.running, at) <= 0:
            return self.running
        return None

    def switch(self, to: int | None, at: float | None = None) -> None:
        """Stop the running clock (charging the time used until ``at``; None: now) and start
        ``to``'s, if any."""
        at = self.now() if at is None else at
        if self.running is not None:
            seat = self.running
            self.remaining[seat] = self.left_ms(seat, at)
            if to != seat and self.remaining[seat] > 0:
                self.remaining[seat] += self.increment_ms
        self.running = to
        self.since = at

    def stop(self, at: float | None = None) -> None:
        if self.running is not None:
            seat = self.running
            self.remaining[seat] = max(0, self.left_ms(seat, at))
        self.running = None

    def to_json(self) -> dict[str, Any]:
        return {
            "initial_ms": self.initial_ms,
            "increment_ms": self.increment_ms,
            "remaining_ms": [max(0, self.left_ms(0)), max(0, self.left_ms(1))],
            "running": self.running,
        }
