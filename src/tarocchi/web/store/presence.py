"""Who is at a friends' table: each human seat's presence, the AI standing in for an absent
human, the decisions it made for them, and a table's turn timer.

A seat counts as here until its `seen_until`, which its connections' pings push on (whichever
process they reach) and a closed tab sets to the moment it closed, so every process reads the
same presence from the database. The AI stands in for a seat whose grace ran out while it was
away (until it is back) or that handed its seat over (until it takes it back). The clock of a
table (`Clock`) is all a process needs to know when the AI may play a human's turn: the
deadline is a function of it (`web.driver.due`), so a process taking over a dead one's table
finds the same deadline.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from tarocchi.web.store.schema import Run, games, presence, stand_ins, timers

AWAY = "away"  # the AI stands in: the seat's grace ran out while its human was away
HANDED = "handed"  # the AI stands in: the human handed the seat over


@dataclass(frozen=True, slots=True)
class Presence:
    """One human seat's presence at a table."""

    seat: int
    seen_until: str  # ISO 8601 UTC: here until then
    stand_in: str | None  # None (the human plays), AWAY or HANDED


@dataclass(frozen=True, slots=True)
class Clock:
    """What decides when a human's turn goes to the AI: when the turn began (the log's last
    write), the table's turn timer (None: off) and its seats' presence."""

    turn_since: str
    turn_s: float | None
    seats: tuple[Presence, ...]

    def of(self, seat: int) -> Presence | None:
        """Return a seat's presence (None: it never connected)."""
        return next((p for p in self.seats if p.seat == seat), None)

    def is_here(self, seat: int, at: datetime) -> bool:
        """Tell whether a seat's human is here at a time (connected and pinging)."""
        here = self.of(seat)
        return here is not None and datetime.fromisoformat(here.seen_until) >= at


class PresenceStore:
    """The presence, stand-ins and timers of one database (each call one short transaction)."""

    def __init__(self, run: Run, dialect: str) -> None:
        self._run = run
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert

    def seen(self, game_id: str, seat: int, until: str, back: bool = True) -> bool:
        """Count a seat here until a time (or, with an earlier time, gone since then); with
        back, the AI standing in for it while it was away gives the seat back. Return whether
        the AI stood in for it until now (it has come back)."""
        before = self._run(lambda conn: conn.execute(
            sa.select(presence.c.stand_in).where(presence.c.game_id == game_id,
                                                 presence.c.seat == seat)).scalar())  # fmt: skip
        values: dict[str, str | None] = {"seen_until": until}
        if back and before == AWAY:
            values["stand_in"] = None
        query = (
            self._insert(presence)
            .values(game_id=game_id, seat=seat, **values)
            .on_conflict_do_update(index_elements=["game_id", "seat"], set_=values)
        )
        self._run(lambda conn: conn.execute(query))
        return bool(back and before == AWAY)

    def stand_in(self, game_id: str, seat: int, why: str | None) -> None:
        """Let the AI stand in for a seat (why: AWAY or HANDED) or give it back (None)."""
        where = [presence.c.game_id == game_id, presence.c.seat == seat]
        query = presence.update().where(*where).values(stand_in=why)
        self._run(lambda conn: conn.execute(query))

    def clock(self, game_id: str) -> Clock | None:
        """Return a table's clock (None for an unknown game)."""
        rows = self._run(lambda conn: conn.execute(CLOCK, {"game_id": game_id}).all())
        if not rows:
            return None
        since, turn_s = str(rows[0].updated_at), rows[0].turn_s
        seats = tuple(Presence(r.seat, r.seen_until, r.stand_in) for r in rows
                      if r.seat is not None)  # fmt: skip
        return Clock(since, None if turn_s is None else float(turn_s), seats)

    def set_timer(self, game_id: str, turn_s: float | None) -> None:
        """Set a table's turn timer (None: off, as at friends' tables)."""
        if turn_s is None:
            query: sa.Delete | sa.Insert = timers.delete().where(timers.c.game_id == game_id)
        else:
            query = (
                self._insert(timers)
                .values(game_id=game_id, turn_s=turn_s)
                .on_conflict_do_update(index_elements=["game_id"], set_={"turn_s": turn_s})
            )
        self._run(lambda conn: conn.execute(query))

    def marks(self, game_id: str) -> dict[int, int]:
        """Return the decisions the AI made for an absent human: seat by index in the log."""
        asked = {"game_id": game_id}
        return {int(i): int(s) for i, s in self._run(lambda conn: conn.execute(MARKS, asked).all())}


# a table's clock in one statement (its game's last write and timer, a row a seat present,
# the seat NULL when none is), and its marks: built once, read at every change of a table
# (building a statement costs more than running it: see store.GAME_BY_ID)
GAME_ID: sa.BindParameter[str] = sa.bindparam("game_id")
CLOCK = (
    sa.select(games.c.updated_at, timers.c.turn_s, presence.c.seat, presence.c.seen_until,
              presence.c.stand_in)
    .select_from(games.outerjoin(timers, timers.c.game_id == games.c.id)
                 .outerjoin(presence, presence.c.game_id == games.c.id))
    .where(games.c.id == GAME_ID)
    .order_by(presence.c.seat)
)  # fmt: skip
MARKS = sa.select(stand_ins.c.idx, stand_ins.c.seat).where(stand_ins.c.game_id == GAME_ID)


def stamp(seconds: float = 0.0) -> str:
    """Return the time in some seconds (now by default) as presence is stored: ISO 8601 UTC
    to the millisecond (a grace of a few seconds is measured closely)."""
    return (datetime.now(UTC) + timedelta(seconds=seconds)).isoformat(timespec="milliseconds")


def mark(game_id: str, marked: dict[int, int]) -> Callable[[sa.Connection], None]:
    """Return the write of the AI's decisions for absent humans (seat by index in the log),
    run in the transaction that stores them (`Store.update`'s then)."""

    def write(conn: sa.Connection) -> None:
        if marked:
            conn.execute(stand_ins.insert(), [{"game_id": game_id, "idx": i, "seat": s}
                                             for i, s in marked.items()])  # fmt: skip

    return write
