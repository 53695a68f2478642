"""The web server's settings: one frozen object, built once when the app is assembled (from
`tarocchi serve`'s options, which reach a `--workers` process through its environment) and
handed down to the parts that use it (the store its database and the deals of the day's
key); no other module of the web reads the environment.

Each setting has a variable, read by `Settings.from_environment`; a bad value stops the
server at start with the variable named, rather than failing later inside a request.
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from tarocchi.web.store import DEFAULT_DB, POOL_SIZE, database_url
from tarocchi.web.store.retention import Retention

DB_ENV = "TAROCCHI_DB"
DAILY_KEY_ENV = "TAROCCHI_DAILY_KEY"  # the site's key of the deals of the day, as text
# a key's fewest characters: anyone who guesses the key knows every deal of the day ahead
MIN_KEY_CHARS = 16
AI_WORKERS_ENV = "TAROCCHI_AI_WORKERS"
POOL_ENV = "TAROCCHI_DB_POOL"
TIMING_ENV = "TAROCCHI_SERVER_TIMING"  # 1: answers carry Server-Timing (benchmarks only)
TABLE_LEASE_ENV = "TAROCCHI_TABLE_LEASE_S"
GRACE_ENV = "TAROCCHI_AWAY_GRACE_S"
TURN_TIMER_ENV = "TAROCCHI_TURN_TIMER_S"
PACE_ENV = "TAROCCHI_WATCH_PACE_S"
REVIEW_LEASE_ENV = "TAROCCHI_REVIEW_LEASE_S"
# each number's variable (the others: the database's, the timing's and the retention's)
VARIABLES = {
    "ai_workers": AI_WORKERS_ENV,
    "db_pool": POOL_ENV,
    "table_lease_s": TABLE_LEASE_ENV,
    "away_grace_s": GRACE_ENV,
    "turn_timer_s": TURN_TIMER_ENV,
    "watch_pace_s": PACE_ENV,
    "review_lease_s": REVIEW_LEASE_ENV,
}


@dataclass(frozen=True, slots=True)
class Settings:
    """What one server process runs with."""

    db: str = DEFAULT_DB  # a SQLite file or a postgresql:// URL
    ai_workers: int = 2  # processes of the AI pool
    db_pool: int = POOL_SIZE  # PostgreSQL connections per process
    timing: bool = False  # answers tell the server's and the AI's time (benchmarks only)
    retention: Retention = field(default_factory=Retention)
    # how long a dead process's tables wait before another drives their AI
    table_lease_s: float = 10.0
    # how long an away human's turn waits before the AI plays it for them
    away_grace_s: float = 60.0
    # how long any human's turn at a friends' table lasts before the AI plays it for them,
    # here or not (None: no turn timer, the default: friends take their time)
    turn_timer_s: float | None = None
    # seconds between two moves at a table every seat of which is the AI's
    watch_pace_s: float = 1.5
    # a dead process's review waits this long before another takes it up
    review_lease_s: float = 30.0
    # the key of the deals of the day's seeds, if the site gives one (else the database makes
    # its own); a secret, kept out of the settings' repr (and so of any log)
    daily_key: str | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name in VARIABLES and value is not None and not (math.isfinite(value)
                                                                  and value > 0):  # fmt: skip
                raise ValueError(f"{f.name} must be a number above 0, not {value!r}")
        try:
            database_url(self.db)
        except ValueError as e:
            raise ValueError(f"db (${DB_ENV}): {e}") from None
        if self.daily_key is not None and len(self.daily_key) < MIN_KEY_CHARS:
            raise ValueError(f"daily_key (${DAILY_KEY_ENV}) must have at least {MIN_KEY_CHARS} "
                             f"characters, not {len(self.daily_key)}")  # fmt: skip

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] = os.environ) -> Settings:
        """Return the settings the environment gives (the defaults where it gives none);
        ValueError naming the variable of a bad value."""
        numbers: dict[str, Any] = {}
        for name, variable in VARIABLES.items():
            text = environ.get(variable)
            if text:
                numbers[name] = number(variable, text, whole=name in ("ai_workers", "db_pool"))
        given = cls(database(environ), timing=environ.get(TIMING_ENV) == "1",
                    retention=Retention.from_environment(environ),
                    daily_key=environ.get(DAILY_KEY_ENV) or None)  # fmt: skip
        return replace(given, **numbers)


def database(environ: Mapping[str, str] = os.environ) -> str:
    """Return the database the environment names (as serve's): $TAROCCHI_DB, else
    tarocchi.sqlite3 in the working folder."""
    return environ.get(DB_ENV) or DEFAULT_DB


def number(variable: str, text: str, whole: bool) -> float:
    """Parse a variable's number, above 0 (whole: an integer); ValueError naming it."""
    try:
        value = int(text) if whole else float(text)
    except ValueError:
        value = 0
    if not (math.isfinite(value) and value > 0):
        kind = "a whole number" if whole else "a number"
        raise ValueError(f"${variable} must be {kind} above 0, not {text[:40]!r}")
    return value
