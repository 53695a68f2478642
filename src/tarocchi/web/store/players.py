"""The stored players: a player without an account, known by the hashed device secrets of
their browsers; the one-time codes that move a player to another browser; deleting a
player (their devices and codes go with them, their games stay, anonymous); and a
player's history, its pages and its statistics summed by the database.

Secrets and codes are stored as their SHA-256 (the store never holds what opens a
player). Each call is one transaction: a code is taken by a conditional delete, so it
opens one browser only, whichever processes two redeemers reach.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from tarocchi.progress import RESULTS, Sums
from tarocchi.web.store.schema import RunWith, devices, games, players, reviews, transfers

NAME_LENGTH = 40  # characters of a display name


@dataclass(frozen=True, slots=True)
class Player:
    """A player: their random id, their display name (None: none given), since when."""

    id: str
    name: str | None
    created_at: str


# -- a player's history: their finished and left deals, newest first


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal of a player's history."""

    id: str
    game: str
    level: str
    finished_at: str
    result: str  # win, draw, loss or left
    margin: float | None  # South's team's (None: left)
    ai_margin: float | None  # the AI's in South's seat on the same cards, once played
    accuracy: float | None  # the review's, once done


@dataclass(frozen=True, slots=True)
class Filter:
    """Which of a player's deals: all of them, or of a game, a level, a result."""

    player_id: str
    game: str | None = None
    level: str | None = None
    result: str | None = None

    def where(self) -> list[sa.ColumnElement[bool]]:
        """Return the conditions (a practice deal is not part of the history)."""
        out = [games.c.player_id == self.player_id, games.c.result.is_not(None),
               games.c.practice.is_(None)]  # fmt: skip
        for name in ("game", "level", "result"):
            value = getattr(self, name)
            if value is not None:
                out.append(games.c[name] == value)
        return out


# (a player's deals are South's: its review is South's)
HISTORY = games.outerjoin(reviews, sa.and_(reviews.c.game_id == games.c.id, reviews.c.seat == 0))
NEWEST = (games.c.finished_at.desc(), games.c.started_at.desc(), games.c.id.desc())


class PlayerStore:
    """The players of one database (each call one short transaction of the store's)."""

    def __init__(self, run: RunWith, transaction: dict[str, str]) -> None:
        self._run = run
        self._transaction = transaction  # the options of a transaction of several statements

    def create(self, player_id: str, secret_hash: str, now: str) -> Player:
        """Make a player and its first device."""

        def work(conn: sa.Connection) -> None:
            conn.execute(players.insert().values(id=player_id, created_at=now, last_seen=now))
            conn.execute(devices.insert().values(secret_hash=secret_hash, player_id=player_id,
                                                 created_at=now))  # fmt: skip

        self._run(work, **self._transaction)
        return Player(player_id, None, now)

    def by_device(self, secret_hash: str, now: str) -> Player | None:
        """Return the player of a device secret's hash, or None; note the day they were
        last seen (one write a day at most)."""
        query = (
            sa.select(players.c.id, players.c.name, players.c.created_at, players.c.last_seen)
            .join(devices, devices.c.player_id == players.c.id)
            .where(devices.c.secret_hash == secret_hash)
        )
        r = self._run(lambda conn: conn.execute(query).first())
        if r is None:
            return None
        if r.last_seen[:10] != now[:10]:
            seen = players.update().where(players.c.id == r.id).values(last_seen=now)
            self._run(lambda conn: conn.execute(seen))
        return Player(r.id, r.name, r.created_at)

    def rename(self, player_id: str, name: str | None) -> bool:
        """Set a player's display name (None: none); False if the player is gone."""
        query = players.update().where(players.c.id == player_id).values(name=name)
        return bool(self._run(lambda conn: conn.execute(query).rowcount == 1))

    def delete(self, player_id: str) -> bool:
        """Delete a player, their devices and codes; their games stay, with no player (the
        foreign keys' cascade and SET NULL). False if the player was gone already."""
        query = players.delete().where(players.c.id == player_id)
        return bool(self._run(lambda conn: conn.execute(query).rowcount == 1))

    def offer(self, player_id: str, code_hash: str, now: str, expires_at: str) -> None:
        """Store a player's move code (until expires_at), replacing any earlier one."""

        def work(conn: sa.Connection) -> None:
            conn.execute(transfers.delete().where(transfers.c.player_id == player_id))
            conn.execute(
                transfers.insert().values(
                    code_hash=code_hash, player_id=player_id, created_at=now, expires_at=expires_at
                )
            )

        self._run(work, **self._transaction)

    def redeem(
        self, code_hash: str, secret_hash: str, now: str, previous: str | None
    ) -> Player | None:
        """Take a move code not yet expired (it opens nothing again) and give its player a
        new device; the games of the browser's previous player, if any, become theirs and
        that player goes. None: no such code, or expired."""

        def work(conn: sa.Connection) -> Player | None:
            taken = conn.execute(
                transfers.delete()
                .where(transfers.c.code_hash == code_hash, transfers.c.expires_at > now)
                .returning(transfers.c.player_id)
            ).first()
            if taken is None:
                return None
            player_id = taken.player_id
            conn.execute(devices.insert().values(secret_hash=secret_hash, player_id=player_id,
                                                 created_at=now))  # fmt: skip
            if previous is not None and previous != player_id:
                moved = games.update().where(games.c.player_id == previous)
                conn.execute(moved.values(player_id=player_id))
                conn.execute(players.delete().where(players.c.id == previous))
            r = conn.execute(
                sa.select(players.c.name, players.c.created_at).where(players.c.id == player_id)
            ).one()
            return Player(player_id, r.name, r.created_at)

        found: Player | None = self._run(work, **self._transaction)
        return found

    def forget_expired(self, now: str) -> int:
        """Delete the move codes past their time; return how many went."""
        query = transfers.delete().where(transfers.c.expires_at <= now)
        return int(self._run(lambda conn: conn.execute(query).rowcount))

    def deals(self, which: Filter, limit: int, offset: int) -> tuple[int, list[Deal]]:
        """Return how many deals a filter takes and a page of them, newest first."""
        count = sa.select(sa.func.count()).select_from(games).where(*which.where())
        page = (
            sa.select(games.c.id, games.c.game, games.c.level, games.c.finished_at, games.c.result,
                      games.c.margin, reviews.c.ai_margin, reviews.c.accuracy)
            .select_from(HISTORY).where(*which.where()).order_by(*NEWEST)
            .limit(limit).offset(offset)
        )  # fmt: skip

        def work(conn: sa.Connection) -> tuple[int, list[Deal]]:
            return conn.execute(count).scalar_one(), [Deal(*r) for r in conn.execute(page)]

        found: tuple[int, list[Deal]] = self._run(work)
        return found

    def sums(self, which: Filter) -> list[Sums]:
        """Return the sums of a player's deals per game and level, added up by the database."""
        m, a = games.c.margin, reviews.c.accuracy
        diff = games.c.margin - reviews.c.ai_margin

        def of(kind: str) -> sa.ColumnElement[int]:
            return sa.func.coalesce(sa.func.sum(sa.case((games.c.result == kind, 1), else_=0)), 0)

        def total(x: sa.ColumnElement[Any]) -> sa.ColumnElement[float]:
            return sa.func.coalesce(sa.func.sum(x), 0.0)

        query = (
            sa.select(games.c.game, games.c.level, sa.func.count(), *(of(k) for k in RESULTS),
                      sa.func.count(m), total(m), total(m * m), sa.func.count(diff), total(diff),
                      total(diff * diff), sa.func.count(a), total(a))
            .select_from(HISTORY).where(*which.where())
            .group_by(games.c.game, games.c.level).order_by(games.c.game, games.c.level)
        )  # fmt: skip
        rows = self._run(lambda conn: conn.execute(query).all())
        return [Sums(r[0], r[1], (int(r[2]), int(r[3]), int(r[4]), int(r[5]), int(r[6])),
                     (r[7], float(r[8]), float(r[9])), (r[10], float(r[11]), float(r[12])),
                     (r[13], float(r[14]))) for r in rows]  # fmt: skip

    def series(self, which: Filter, last: int) -> list[tuple[str, float | None, float | None]]:
        """Return the last deals of a filter, oldest first: when, margin and review accuracy."""
        query = (
            sa.select(games.c.finished_at, games.c.margin, reviews.c.accuracy)
            .select_from(HISTORY).where(*which.where()).order_by(*NEWEST).limit(last)
        )  # fmt: skip
        rows = self._run(lambda conn: conn.execute(query).all())
        return [(r[0], r[1], r[2]) for r in reversed(rows)]
