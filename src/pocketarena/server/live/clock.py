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

    def left_ms(self, seat: int) -> int:
        """Time left for ``seat`` at this moment (negative once flagged)."""
        if seat == self.running:
            return self.remaining[seat] - round((self.now() - self.since) * 1000)
        return self.remaining[seat]

    def flagged(self) -> int | None:
        """The seat whose time has run out, if any."""
        if self.running is not None and self.left_ms(self.running) <= 0:
            return self.running
        return None

    def switch(self, to: int | None) -> None:
        """Stop the running clock (charging the time used) and start ``to``'s, if any."""
        if self.running is not None:
            seat = self.running
            self.remaining[seat] = self.left_ms(seat)
            if to != seat and self.remaining[seat] > 0:
                self.remaining[seat] += self.increment_ms
        self.running = to
        self.since = self.now()

    def stop(self) -> None:
        if self.running is not None:
            seat = self.running
            self.remaining[seat] = max(0, self.left_ms(seat))
        self.running = None

    def to_json(self) -> dict[str, Any]:
        return {
            "initial_ms": self.initial_ms,
            "increment_ms": self.increment_ms,
            "remaining_ms": [max(0, self.left_ms(0)), max(0, self.left_ms(1))],
            "running": self.running,
        }
