"""The stored deal of the day: the key its seeds come from, the commitments published, the
tries and the choices of the scored ones; the ranking, the histogram and how the field
chose, each computed by the database (aggregates over the day's rows, never the rows
loaded one by one).

The key is made once, race-free: the first process to need it inserts row 1 and every
other insert of it does nothing, so all processes read the same key (unless the site gives
its own: `Settings.daily_key`). One scored try per player a day is a unique index
over the scored rows: a try is inserted as scored and, if the index refuses it, as
practice, in the transaction that creates its game.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from tarocchi.daily import new_key
from tarocchi.web.store.schema import (
    Run,
    daily,
    daily_choices,
    daily_keys,
    daily_tries,
    players,
    reviews,
)

BARS = 20  # the histogram's bars, at most
STANDINGS = 20  # yesterday's standings: the best this many


@dataclass(frozen=True, slots=True)
class Try:
    """A player's try at a day's deal."""

    game_id: str
    scored: bool
    margin: float | None  # None until the deal is over


@dataclass(frozen=True, slots=True)
class Rank:
    """A margin's place among a day's scored, finished tries: the matchpoints it earns
    (one per try beaten, a half per tie, its own not counted) out of the others' count."""

    tries: int
    matchpoints: float

    @property
    def percentile(self) -> float:
        """Return the share of the others this margin beat (ties half), in percent."""
        return 100.0 if self.tries <= 1 else 100.0 * self.matchpoints / (self.tries - 1)


class DailyStore:
    """The deal of the day's rows of one database."""

    def __init__(self, run: Run, atomic: Run, dialect: str, key: str | None = None) -> None:
        """Keep the deals of the day in a database (of a dialect), with the site's key if it
        gives one."""
        self._run = run  # one statement
        self._atomic = atomic  # several statements in one transaction
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        self._postgresql = dialect == "postgresql"
        self._key = None if key is None else key.encode()

    def key(self, now: str) -> bytes:
        """Return the key of the daily seeds (the site's, else the database's, made by the
        first process to ask)."""
        if self._key is None:
            make = self._insert(daily_keys).values(id=1, key=new_key().hex(), created_at=now)
            read = sa.select(daily_keys.c.key).where(daily_keys.c.id == 1)

            def work(conn: sa.Connection) -> str:
                conn.execute(make.on_conflict_do_nothing(index_elements=["id"]))
                return str(conn.execute(read).scalar_one())

            self._key = bytes.fromhex(self._atomic(work))
        return self._key

    def publish(self, game: str, day: str, commitment: str, now: str) -> str:
        """Store a day's commitment unless one is stored; return the stored one."""
        make = self._insert(daily).values(game=game, day=day, commitment=commitment,
                                          created_at=now)  # fmt: skip
        read = sa.select(daily.c.commitment).where(daily.c.game == game, daily.c.day == day)

        def work(conn: sa.Connection) -> str:
            conn.execute(make.on_conflict_do_nothing(index_elements=["game", "day"]))
            return str(conn.execute(read).scalar_one())

        return str(self._atomic(work))

    def commitment(self, game: str, day: str) -> str | None:
        """Return the commitment published for a game's day, or None."""
        query = sa.select(daily.c.commitment).where(daily.c.game == game, daily.c.day == day)
        found = self._run(lambda conn: conn.execute(query).scalar())
        return None if found is None else str(found)

    def claim(self, conn: sa.Connection, game_id: str, game: str, day: str, player: str,
              now: str) -> bool:  # fmt: skip
        """Insert a try in the caller's transaction, scored if the player has no scored try
        that day; return whether it is scored."""
        values = {"game_id": game_id, "game": game, "day": day, "player_id": player,
                  "created_at": now}  # fmt: skip
        scored = self._insert(daily_tries).values(**values, scored=True)
        made = scored.on_conflict_do_nothing().returning(daily_tries.c.game_id)
        if conn.execute(made).first() is not None:
            return True
        conn.execute(daily_tries.insert().values(**values, scored=False))
        return False

    def finish(self, conn: sa.Connection, game_id: str, margin: float, choices: Sequence[
            tuple[str, str]], now: str) -> None:  # fmt: skip
        """Store a finished try's margin and, for a scored one, South's choices (position,
        action) in the caller's transaction."""
        query = daily_tries.update().where(daily_tries.c.game_id == game_id)
        conn.execute(query.values(margin=margin, finished_at=now))
        row = conn.execute(sa.select(daily_tries).where(daily_tries.c.game_id == game_id)).first()
        if row is not None and row.scored and choices:
            conn.execute(daily_choices.insert(), [
                {"game_id": game_id, "decision": k, "game": row.game, "day": row.day,
                 "position": position, "action": action}
                for k, (position, action) in enumerate(choices)
            ])  # fmt: skip

    def scored(self, game: str, day: str, player: str) -> Try | None:
        """Return a player's scored try of a day, or None."""
        t = daily_tries.c
        query = sa.select(t.game_id, t.scored, t.margin).where(
            t.game == game, t.day == day, t.player_id == player, t.scored
        )
        r = self._run(lambda conn: conn.execute(query).first())
        return None if r is None else Try(r.game_id, r.scored, r.margin)

    def rank(self, game: str, day: str, margin: float) -> Rank:
        """Return a margin's rank among the day's scored, finished tries (three counts of
        the ranking index's ranges)."""
        t = daily_tries.c
        count = sa.select(sa.func.count()).select_from(daily_tries).where(*_finished(game, day))
        queries = (count, count.where(t.margin < margin), count.where(t.margin == margin))
        n, below, ties = self._run(lambda conn: [conn.execute(q).scalar_one() for q in queries])
        # a tie with itself is not a matchpoint
        return Rank(int(n), int(below) + max(int(ties) - 1, 0) / 2)

    def histogram(self, game: str, day: str) -> tuple[float, list[tuple[float, int]]]:
        """Return the bars of the day's scored margins: their width and (low end, count)
        of each bar with tries, low to high; integer widths, at most BARS bars."""
        t = daily_tries.c
        # each of min and max alone: one step down the ranking index
        finished = _finished(game, day)
        ends = [sa.select(f(t.margin)).where(*finished) for f in (sa.func.min, sa.func.max)]
        low, high = self._run(lambda conn: [conn.execute(q).scalar() for q in ends])
        if low is None:
            return 1.0, []
        width = max(1, -(-int(high - low + 1) // BARS))
        start = int(low // 1)
        above = (t.margin - start) / width  # never negative
        # PostgreSQL's cast rounds, SQLite's truncates (and it may lack floor)
        bar = sa.cast(sa.func.floor(above) if self._postgresql else above, sa.Integer)
        query = (
            sa.select(bar.label("bar"), sa.func.count())
            .where(*_finished(game, day))
            .group_by(bar)
            .order_by(bar)
        )
        rows = self._run(lambda conn: conn.execute(query).all())
        return float(width), [(float(start + b * width), int(c)) for b, c in rows]

    def field(self, game: str, day: str, positions: Sequence[str]) -> dict[str, dict[str, int]]:
        """Return how the day's scored tries chose at each position: action -> count."""
        c = daily_choices.c
        query = (
            sa.select(c.position, c.action, sa.func.count())
            .where(c.game == game, c.day == day, c.position.in_(list(positions)))
            .group_by(c.position, c.action)
        )
        out: dict[str, dict[str, int]] = {p: {} for p in positions}
        for position, action, n in self._run(lambda conn: conn.execute(query).all()):
            out[position][action] = int(n)
        return out

    def standings(self, game: str, day: str) -> list[tuple[str | None, float]]:
        """Return the day's best scored margins, best first, each with its player's display
        name (None: none given, or the player deleted)."""
        t = daily_tries.c
        query = (
            sa.select(players.c.name, t.margin)
            .select_from(daily_tries.outerjoin(players, players.c.id == t.player_id))
            .where(*_finished(game, day))
            .order_by(t.margin.desc(), t.finished_at)
            .limit(STANDINGS)
        )
        rows = self._run(lambda conn: conn.execute(query).all())
        return [(None if n is None else str(n), float(m)) for n, m in rows]

    def par(self, game_id: str) -> float | None:
        """Return the AI's margin in South's seat on a try's deal (its review's AI line: for
        a deal of the day the same for every try), or None before it is computed."""
        query = sa.select(reviews.c.ai).where(reviews.c.game_id == game_id, reviews.c.seat == 0)
        ai = self._run(lambda conn: conn.execute(query).scalar())
        return None if ai is None else float(json.loads(ai)["margin"])


def _finished(game: str, day: str) -> tuple[sa.ColumnElement[bool], ...]:
    t = daily_tries.c
    return t.game == game, t.day == day, t.scored, t.margin.is_not(None)
