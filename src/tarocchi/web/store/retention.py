"""Retention: anonymous games, unfinished ones left alone for a while and finished ones past
an age, are deleted by a periodic task in each server process (a player's deals are their
history: never deleted; an unfinished one left alone that long is marked left). Deleting
is idempotent, so processes sharing a database need no coordination. Every setting is
checked when made: one the calendar cannot hold is refused at start, and the task, once
running, only ends when the server stops (a failed round is logged and tried again)."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from tarocchi.web.store import Store, StoreUnavailable

UNFINISHED_ENV = "TAROCCHI_KEEP_UNFINISHED_DAYS"
FINISHED_ENV = "TAROCCHI_KEEP_FINISHED_DAYS"
NEVER = "never"
# a century: older cutoffs would leave the calendar's years (and keeping longer is `never`)
MAX_DAYS = 36_500
RETRY_S = 60.0  # a failed round is tried again this soon (or at the usual time, if sooner)
log = logging.getLogger(__name__)


def days(text: str) -> float | None:
    """Parse an age in days: a number in (0, MAX_DAYS], or `never` (None: keep for ever)."""
    if text.strip().lower() == NEVER:
        return None
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= MAX_DAYS:
        raise ValueError(
            f"an age in days is a number above 0 and at most {MAX_DAYS:,} (a century), or "
            f"'{NEVER}', not {text[:40]!r}"
        )
    return value


@dataclass(frozen=True, slots=True)
class Retention:
    """How long games are kept after their last change, in days (None: for ever)."""

    unfinished_days: float | None = 7.0
    # anonymous games only: a player's deals are kept until the player deletes their data
    finished_days: float | None = 90.0
    every_s: float = 3600.0  # how often the task runs

    def __post_init__(self) -> None:
        for age in (self.unfinished_days, self.finished_days):
            if age is not None:
                days(str(age))  # the bounds of a setting from the environment hold here too

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Retention:
        """Return the retention set by $TAROCCHI_KEEP_UNFINISHED_DAYS and
        $TAROCCHI_KEEP_FINISHED_DAYS (each a number of days or `never`), else the defaults."""
        default = cls()
        unfinished, finished = (environ.get(v) for v in (UNFINISHED_ENV, FINISHED_ENV))
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

        unfinished = cutoff(self.unfinished_days)
        deleted = store.delete_stale(unfinished, cutoff(self.finished_days))
        if unfinished is not None:  # a player's deal is kept, as left, in their history
            store.leave_stale(unfinished)
        store.players.forget_expired(now.isoformat(timespec="seconds"))  # spent move codes
        return deleted


async def keep_tidy(store: Store, retention: Retention) -> None:
    """Apply the retention now and then every `every_s` seconds, off the event loop, until
    cancelled. A round that fails (the database away, or any error) is logged and tried
    again RETRY_S later: the next round deletes what this one could not."""
    while True:
        wait = retention.every_s
        try:
            await asyncio.to_thread(retention.apply, store, datetime.now(UTC))
        except StoreUnavailable as e:
            log.warning("retention: the database is unavailable (%s); trying again", e)
            wait = min(wait, RETRY_S)
        except Exception:  # logged with its traceback: a silent end would stop every deletion
            log.exception("retention: deleting stale games failed; trying again")
            wait = min(wait, RETRY_S)
        await asyncio.sleep(wait)
