"""The stored reviews: per finished game and human seat (South, and each friend seated at a
friends' table), the AI on that seat's cards and its review, with the lease that lets one
server process at a time work on it.

Work is claimed with a conditional update (the row is taken only if its lease is free or
has expired), so any number of processes sharing a database never compute one review
twice, and a review whose process died is taken up again once its lease expires. Every
write of the worker is conditional on still holding the row (`owner`), so a process that
lost its lease cannot overwrite the one that took it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypedDict, Unpack

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.dialects import postgresql, sqlite

from tarocchi.web.store.schema import Run, reviews

CANDIDATES = 8  # claimable rows read at once (others may take some of them first)


@dataclass(frozen=True, slots=True)
class ReviewRow:
    """One seat's stored review of a game (JSON texts as stored)."""

    game_id: str
    seat: int
    status: str  # none (not asked for), running, done or failed
    pending: bool  # work is left: the AI's line, or decisions of a running review
    done: int
    total: int | None
    data: str | None
    ai: str | None
    error: str | None
    owner: str | None
    lease_until: str | None


class Progress(TypedDict, total=False):
    """What the holder of a review writes as it works (`ReviewStore.keep`)."""

    updated_at: str
    done: int
    data: str  # the review so far, as stored
    ai: str  # the AI's line, as stored
    ai_margin: float
    status: str
    pending: bool
    owner: None  # (given back with the review's end)
    accuracy: float | None
    error: str  # why it failed: a message recipe as JSON


class ReviewStore:
    """The reviews of one database (each call one short transaction of the store's)."""

    def __init__(self, run: Run, dialect: str) -> None:
        self._run = run
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert

    def open(self, game_id: str, now: str, seat: int = 0) -> bool:
        """Make a seat's review row of a finished game if it has none (its AI line then gets
        computed); return False if the game is gone."""
        query = (
            self._insert(reviews)
            .values(game_id=game_id, seat=seat, status="none", pending=True, done=0,
                    created_at=now, updated_at=now)
            .on_conflict_do_nothing(index_elements=["game_id", "seat"])
        )  # fmt: skip
        try:
            self._run(lambda conn: conn.execute(query))
        except exc.IntegrityError:  # the game was deleted meanwhile
            return False
        return True

    def get(self, game_id: str, seat: int = 0) -> ReviewRow | None:
        """Return a seat's review row of a game, or None."""
        query = sa.select(*(reviews.c[f] for f in ReviewRow.__slots__)).where(*_of(game_id, seat))
        r = self._run(lambda conn: conn.execute(query).first())
        return None if r is None else ReviewRow(*r)

    def request(self, game_id: str, total: int, now: str, seat: int = 0) -> bool:
        """Ask for a seat's review of a game (of `total` decisions); False if it is running
        or done already (a failed one is asked for again)."""
        query = (
            reviews.update()
            .where(*_of(game_id, seat), reviews.c.status.in_(("none", "failed")))
            .values(status="running", pending=True, total=total, error=None, updated_at=now)
        )
        return bool(self._run(_updated(query)))

    def claim(self, owner: str, now: str, until: str) -> tuple[str, int] | None:
        """Take the lease of one review with work left and a free or expired lease (asked-for
        reviews first, the oldest first); return its game's id and seat, or None."""
        free = sa.or_(reviews.c.lease_until.is_(None), reviews.c.lease_until < now)
        found = (
            sa.select(reviews.c.game_id, reviews.c.seat)
            .where(reviews.c.pending, free)
            .order_by((reviews.c.status != "running"), reviews.c.updated_at)
            .limit(CANDIDATES)
        )
        for game_id, seat in self._run(lambda conn: conn.execute(found).all()):
            take = (
                reviews.update()
                .where(*_of(game_id, seat), reviews.c.pending, free)
                .values(owner=owner, lease_until=until)
            )
            if self._run(_updated(take)):
                return str(game_id), int(seat)
        return None

    def keep(
        self, key: tuple[str, int], holder: str, until: str | None, **values: Unpack[Progress]
    ) -> bool:
        """Extend the holder's lease of a review (its game and seat) and write values
        (progress, the AI's line, the status); False if the holder no longer holds it."""
        query = (
            reviews.update()
            .where(*_of(*key), reviews.c.owner == holder)
            .values(lease_until=until, **values)
        )
        return bool(self._run(_updated(query)))

    def release(self, key: tuple[str, int], owner: str, now: str) -> bool:
        """Give a review back with no work left: its AI line is stored and it is not running
        (False, and kept, if a review was asked for meanwhile)."""
        query = (
            reviews.update()
            .where(
                *_of(*key),
                reviews.c.owner == owner,
                reviews.c.status != "running",
                reviews.c.ai.is_not(None),
            )
            .values(pending=False, owner=None, lease_until=None, updated_at=now)
        )
        return bool(self._run(_updated(query)))

    def fail(self, key: tuple[str, int], owner: str, error: str, now: str) -> bool:
        """Mark the owner's review failed (error: a message recipe as JSON); nothing is left
        to do until it is asked for again."""
        return self.keep(key, owner, None, status="failed", pending=False, owner=None,
                         error=error, updated_at=now)  # fmt: skip


def _of(game_id: str, seat: int) -> tuple[sa.ColumnElement[bool], ...]:
    """Return the conditions selecting a seat's review of a game."""
    return reviews.c.game_id == game_id, reviews.c.seat == seat


def _updated(query: sa.Update) -> Callable[[sa.Connection], bool]:
    """Return the work of running an update of one row: whether it changed it."""
    return lambda conn: conn.execute(query).rowcount == 1
