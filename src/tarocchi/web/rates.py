"""Rates a person never reaches: game creation and hints per client address.

A person starts a deal every few minutes and asks a hint every few seconds at most;
a program that creates a game a second for a minute, or asks two hints a second, is
flooding the AI pool everyone shares (issue 22: one client created 217 games a second).
Counting is the `limits` library's moving window, in memory (one process's clients).
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

CREATE = "60/minute;600/hour"
HINT = "120/minute;2000/hour"


class TooFast(Exception):
    """A client passed a rate: answer 429, retry after `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Rates:
    """The rate limits of one server: each kind of request's limits, per client."""

    def __init__(self, create: str = CREATE, hint: str = HINT) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.limits: dict[str, list[RateLimitItem]] = {
            "create": parse_many(create),
            "hint": parse_many(hint),
        }

    def hit(self, kind: str, client: str) -> None:
        """Count one request of a kind by a client; raise TooFast past any of its limits
        (a refused request is not counted)."""
        items = self.limits[kind]
        for item in items:
            if not self.limiter.test(item, kind, client):
                reset, _ = self.limiter.get_window_stats(item, kind, client)
                raise TooFast(max(1, math.ceil(reset - time.time())))
        for item in items:
            self.limiter.hit(item, kind, client)
