"""Rates a person never reaches: game creation, hints, new players and move codes tried,
per client address.

A person starts a deal every few minutes and asks a hint every few seconds at most;
a program that creates a game a second for a minute, or asks two hints a second, is
flooding the AI pool everyone shares (issue 22: one client created 217 games a second).
Counting is the `limits` library's moving window, in memory (one process's clients). A
client told to wait (429 with Retry-After) is remembered until then, so that the server
refuses its AI requests at the door (`tarocchi.web.middleware.Door`) for next to nothing.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from tarocchi.i18n import Msg

CREATE = "60/minute;600/hour"
HINT = "120/minute;2000/hour"
# new players (device ids): a household shares an address, a crawler must not fill the table
DEVICE = "20/hour;100/day"
# move codes tried: a person types one or two; a guesser gets nowhere in a code's ten minutes
MOVE = "10/minute;60/hour"
SLOW_DOWN = Msg("too many requests; slow down")
MAX_WAITING = 100_000  # clients remembered as told to wait; past it, the expired are dropped


class TooFast(Exception):
    """A client passed a rate: answer 429, retry after `retry_after` seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__(retry_after)
        self.retry_after = retry_after


class Rates:
    """The rate limits of one server: each kind of request's limits, per client."""

    def __init__(
        self, create: str = CREATE, hint: str = HINT, device: str = DEVICE, move: str = MOVE
    ) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        kinds = {"create": create, "hint": hint, "device": device, "move": move}
        self.limits: dict[str, list[RateLimitItem]] = {k: parse_many(v) for k, v in kinds.items()}
        self.waiting: dict[str, float] = {}  # client -> when the wait it was told ends

    def told_to_wait(self, client: str, seconds: int) -> None:
        """Remember that a client was answered 429 with Retry-After: seconds."""
        now = time.monotonic()
        if len(self.waiting) > MAX_WAITING:
            self.waiting = {c: t for c, t in self.waiting.items() if t > now}
        self.waiting[client] = max(self.waiting.get(client, 0.0), now + seconds)

    def wait_left(self, client: str) -> int:
        """Return the whole seconds a client must still wait (0: none)."""
        until = self.waiting.get(client)
        if until is None:
            return 0
        left = until - time.monotonic()
        if left <= 0:
            del self.waiting[client]
            return 0
        return math.ceil(left)

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
