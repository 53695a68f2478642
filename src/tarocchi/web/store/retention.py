"""Retention: unfinished games left alone for a while and finished games past an age are
deleted by a periodic task in each server process (deleting is idempotent, so processes
sharing a database need no coordination)."""

from __future__ import annotations

import asyncio
import contextlib
import os
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tarocchi.web.store import Store, StoreUnavailable

UNFINISHED_ENV = "TAROCCHI_KEEP_UNFINISHED_DAYS"
FINISHED_ENV = "TAROCCHI_KEEP_FINISHED_DAYS"
NEVER = "never"


def days(text: str) -> float | None:
    """Parse an age in days: a positive number, or `never` (None: keep for ever)."""
    if text.strip().lower() == NEVER:
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise ValueError(f"an age in days is a positive number or '{NEVER}', not {text!r}")
    return value


@dataclass(frozen=True, slots=True)
class Retention:
    """How long games are kept after their last change, in days (None: for ever)."""

    unfinished_days: float | None = 7.0
    # 90 days until players keep a history of their deals; then `never`
    finished_days: float | None = 90.0
    every_s: float = 3600.0  # how often the task runs

    @classmethod
    def from_environment(cls) -> Retention:
        """Return the retention set by $TAROCCHI_KEEP_UNFINISHED_DAYS and
        $TAROCCHI_KEEP_FINISHED_DAYS (each a number of days or `never`), else the defaults."""
        default = cls()
        unfinished, finished = (os.environ.get(v) for v in (UNFINISHED_ENV, FINISHED_ENV))
        return cls(
            days(unfinished) if unfinished else default.unfinished_days,
            days(finished) if finished else default.finished_days,
        )

    def apply(self, store: Store, now: datetime) -> int:
        """Delete the games past their age at `now`; return how many went."""

        def cutoff(age: float | None) -> str | None:
            if age is None:
                return None
            return (now - timedelta(days=age)).isoformat(timespec="seconds")

        return store.delete_stale(cutoff(self.unfinished_days), cutoff(self.finished_days))


async def keep_tidy(store: Store, retention: Retention) -> None:
    """Apply the retention now and then every `every_s` seconds, off the event loop."""
    while True:
        # the database may be away: the next round deletes what this one could not
        with contextlib.suppress(StoreUnavailable):
            await asyncio.to_thread(retention.apply, store, datetime.now(UTC))
        await asyncio.sleep(retention.every_s)
