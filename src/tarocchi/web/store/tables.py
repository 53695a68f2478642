"""The stored seats of friends' tables, the action ids their seats sent, and the leases
of the processes driving their AI.

A seat opened to a human holds the hash of its invitation's secret; taking it is a
conditional update (the secret's hash matches and nobody holds it yet), so of two people
opening one link at once, whichever processes they reach, exactly one gets the seat. An
action sent with an id is written with that id and its answer in the same transaction as
the longer log, so a repeated id finds the first answer and nothing applies twice. One
process at a time drives a table's AI: it holds the table's lease (a conditional upsert,
taken when free, expired or its own), and another takes it when the holder stops renewing.

Once a deal is over, each seated human's wish ("same" deal again or a "new" one) is kept
(`agreements`); the next game the humans here all agreed on is written with its seats, which
keep their holders' tokens (the AI standing in for those away), in one transaction
conditional on the table having no next game yet, so it is made once whichever processes
the last wishes reach. A table's options (hints allowed,
every seat the AI's) and its next game are `table_options`, whose counter of changes is
announced under the key `<game id>#table` as a game's versions are under its id.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy import exc
from sqlalchemy.dialects import postgresql, sqlite

from tarocchi.web.store.presence import AWAY
from tarocchi.web.store.schema import (
    Outcome,
    RunWith,
    acts,
    agreements,
    drivers,
    games,
    presence,
    seats,
    table_options,
)

Log = tuple[tuple[int, str], ...]
TABLE = "#table"  # a game's id with this after it: the key of its table's changes


@dataclass(frozen=True, slots=True)
class TableOptions:
    """A table's options and where its humans went next (see schema.table_options)."""

    hints: bool | None = None  # None: the default (allowed while one human is seated)
    watched: bool = False  # every seat is the AI's
    next_game: str | None = None
    changes: int = 0


class Followed(Exception):
    """The table has a next game already (another process made it first)."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat opened to a human."""

    game_id: str
    seat: int
    invitation_hash: str
    token_hash: str | None  # the holder's, None until the invitation is taken
    taken_at: str | None


# a game's seats, an action id's first answer and a table's options, built once (read at
# every change of a table and every action: see store.GAME_BY_ID)
SEATS = (
    sa.select(*(seats.c[f] for f in SeatRow.__slots__))
    .where(seats.c.game_id == sa.bindparam("game_id"))
    .order_by(seats.c.seat)
)
ANSWER = sa.select(acts.c.answer).where(
    *(acts.c[k] == sa.bindparam(k) for k in ("game_id", "seat", "action_id"))
)
OPTIONS = sa.select(*(table_options.c[f] for f in TableOptions.__slots__)).where(
    table_options.c.game_id == sa.bindparam("game_id")
)


class _Changed(Exception):
    """The game moved on before this write: its transaction is rolled back."""


class TableStore:
    """The seats and action ids of one database (each call one short transaction)."""

    def __init__(
        self,
        run: RunWith,
        dialect: str,
        transaction: dict[str, str],
        changed: Callable[[str, int], None],
    ) -> None:
        self._run = run
        self._insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        self._transaction = transaction  # the options of a transaction of several statements
        self._changed = changed  # told each game's version this process writes

    def invite(self, game_id: str, seat: int, invitation_hash: str) -> None:
        """Open a seat to whoever holds the invitation's secret; a seat invited before gets
        the new secret and loses its holder (the old link and the old holder's token open
        it no more)."""
        fresh = {"invitation_hash": invitation_hash, "token_hash": None, "taken_at": None}
        query = (
            self._insert(seats)
            .values(game_id=game_id, seat=seat, **fresh)
            .on_conflict_do_update(index_elements=["game_id", "seat"], set_=fresh)
        )
        self._run(lambda conn: conn.execute(query))

    def seats(self, game_id: str) -> list[SeatRow]:
        """Return a game's opened seats, by seat."""
        found = self._run(lambda conn: conn.execute(SEATS, {"game_id": game_id}).all())
        return [SeatRow(*r) for r in found]

    def take(
        self, game_id: str, seat: int, invitation_hash: str, token_hash: str, now: str
    ) -> bool:
        """Give a seat to the holder of its invitation if nobody has taken it yet."""
        query = (
            seats.update()
            .where(
                seats.c.game_id == game_id,
                seats.c.seat == seat,
                seats.c.invitation_hash == invitation_hash,
                seats.c.token_hash.is_(None),
            )
            .values(token_hash=token_hash, taken_at=now)
        )
        return bool(self._run(lambda conn: conn.execute(query).rowcount == 1))

    def holder(self, game_id: str, token_hash: str) -> int | None:
        """Return the seat a token holds at a game, or None."""
        query = sa.select(seats.c.seat).where(
            seats.c.game_id == game_id, seats.c.token_hash == token_hash
        )
        seat = self._run(lambda conn: conn.execute(query).scalar())
        return None if seat is None else int(seat)

    def answer(self, game_id: str, seat: int, action_id: str) -> str | None:
        """Return the first answer to a seat's action id, or None if it is new."""
        asked = {"game_id": game_id, "seat": seat, "action_id": action_id}
        found = self._run(lambda conn: conn.execute(ANSWER, asked).scalar())
        return None if found is None else str(found)

    def refuse(self, game_id: str, seat: int, action_id: str, answer: str, now: str) -> str:
        """Keep a refusal as an action id's answer; return the id's first answer."""
        return self.act(game_id, seat, action_id, answer, now) or answer

    def act(
        self,
        game_id: str,
        seat: int,
        action_id: str,
        answer: str,
        now: str,
        move: tuple[int, Log, bool] | None = None,
        ended: Outcome | None = None,
    ) -> str | None:
        """Write an action id with its answer and, in the same transaction, the game's
        move (the version read, the longer log, whether the deal is over; written only if
        the game is still at that version). Return the id's first answer: this one, or an
        earlier one (then nothing is written); None if the game moved on meanwhile (nothing
        is written either); a move that ends the deal writes its outcome too."""
        update = None if move is None else update_query(game_id, *move, now, ended)
        keep = (
            self._insert(acts)
            .values(game_id=game_id, seat=seat, action_id=action_id, answer=answer,
                    created_at=now)
            .on_conflict_do_nothing(index_elements=["game_id", "seat", "action_id"])
            .returning(acts.c.seat)  # (psycopg counts no rows of an INSERT ... ON CONFLICT)
        )  # fmt: skip
        asked = {"game_id": game_id, "seat": seat, "action_id": action_id}

        def work(conn: sa.Connection) -> str:
            if conn.execute(keep).first() is None:
                return str(conn.execute(ANSWER, asked).scalar_one())
            if update is not None and conn.execute(update).rowcount != 1:
                raise _Changed
            return answer

        try:
            stored: str = self._run(work, **self._transaction)
        except _Changed:
            return None
        if move is not None and stored is answer:
            self._changed(game_id, len(move[1]))
        return stored

    def lead(self, game_id: str, owner: str, now: str, until: str) -> bool:
        """Take or extend the lease of driving a table's AI until a time, if nobody else
        holds it now; return whether owner holds it."""
        lease = {"owner": owner, "lease_until": until}
        query = (
            self._insert(drivers)
            .values(game_id=game_id, **lease)
            .on_conflict_do_update(
                index_elements=["game_id"],
                set_=lease,
                where=sa.or_(drivers.c.owner == owner, drivers.c.lease_until < now),
            )
            .returning(drivers.c.game_id)
        )
        try:
            return bool(self._run(lambda conn: conn.execute(query).first() is not None))
        except exc.IntegrityError:  # the game was deleted meanwhile
            return False

    def unlead(self, game_id: str, owner: str) -> None:
        """Give a table's lease back (its AI has no turn now): the next change's process may
        drive it at once."""
        query = drivers.delete().where(drivers.c.game_id == game_id, drivers.c.owner == owner)
        self._run(lambda conn: conn.execute(query))

    def humans(self, game_id: str) -> list[int]:
        """Return the seats people hold at a game: South (the creator) and each seat a
        friend has taken; none at a table every seat of which is the AI's."""
        held = [s.seat for s in self.seats(game_id) if s.token_hash is not None]
        if held:  # (a table with friends is never one of four AI players)
            return [0, *held]
        return [] if self.options(game_id).watched else [0]

    def options(self, game_id: str) -> TableOptions:
        """Return a table's options (the defaults if none were set)."""
        found = self._run(lambda conn: conn.execute(OPTIONS, {"game_id": game_id}).first())
        return TableOptions() if found is None else TableOptions(*found)

    def _set(self, game_id: str, **values: bool) -> sa.Insert:
        """Return the upsert of a table's options, counting the change."""
        return (
            self._insert(table_options)
            .values(game_id=game_id, watched=False, changes=1, **values)
            .on_conflict_do_update(
                index_elements=["game_id"],
                set_={**values, "changes": table_options.c.changes + 1},
            )
            .returning(table_options.c.changes)
        )

    def set_options(self, game_id: str, **values: bool) -> None:
        """Set a table's options (hints, watched) and announce the change."""
        query = self._set(game_id, **values)
        changes = self._run(lambda conn: conn.execute(query).scalar_one())
        self._changed(game_id + TABLE, int(changes))

    def agree(self, game_id: str, seat: int, kind: str, now: str) -> None:
        """Keep a seat's wish for the next deal ("same" or "new"), replacing its earlier one,
        and announce the change."""
        wish = {"kind": kind, "created_at": now}
        keep = (
            self._insert(agreements)
            .values(game_id=game_id, seat=seat, **wish)
            .on_conflict_do_update(index_elements=["game_id", "seat"], set_=wish)
        )
        count = self._set(game_id)

        def work(conn: sa.Connection) -> int:
            conn.execute(keep)
            return int(conn.execute(count).scalar_one())

        self._changed(game_id + TABLE, self._run(work, **self._transaction))

    def agreements(self, game_id: str) -> dict[int, str]:
        """Return each seat's wish for the next deal."""
        query = sa.select(agreements.c.seat, agreements.c.kind).where(
            agreements.c.game_id == game_id
        )
        return {int(s): str(k) for s, k in self._run(lambda conn: conn.execute(query).all())}

    def following(self, game_id: str, next_id: str, held: list[tuple[int, str]], now: str,
                  hints: bool | None, away: dict[int, str]
                  ) -> Callable[[sa.Connection], None]:  # fmt: skip
        """Return the writes, after the next game's own, that make it the table's next game:
        its seats held by the same tokens (seat, token hash), the AI standing in for the
        humans away (seat: when last seen) until they are back, and its options, if the table
        has no next game yet (else Followed: the transaction is rolled back)."""
        claim = (
            table_options.update()
            .where(table_options.c.game_id == game_id, table_options.c.next_game.is_(None))
            .values(next_game=next_id, changes=table_options.c.changes + 1)
        )

        def work(conn: sa.Connection) -> None:
            if conn.execute(claim).rowcount != 1:
                raise Followed
            for seat, token in held:  # (no invitation opens them: "-" is no secret's hash)
                taken = {"token_hash": token, "taken_at": now, "invitation_hash": "-"}
                conn.execute(seats.insert().values(game_id=next_id, seat=seat, **taken))
            for seat, seen in away.items():
                gone = {"seen_until": seen, "stand_in": AWAY}
                conn.execute(presence.insert().values(game_id=next_id, seat=seat, **gone))
            options = {"hints": hints, "watched": False, "changes": 0}
            conn.execute(table_options.insert().values(game_id=next_id, **options))

        return work

    def hints_allowed(self, game_id: str) -> bool:
        """Tell whether a game's seats may ask for hints: as its creator chose, else while its
        creator is its one human."""
        chosen = self.options(game_id).hints
        if chosen is not None:
            return chosen
        return not any(s.token_hash is not None for s in self.seats(game_id))

    @staticmethod
    def watching(game_id: str) -> Callable[[sa.Connection], None]:
        """Return the write, after a new game's own, that gives all its seats to the AI."""
        query = table_options.insert().values(game_id=game_id, watched=True, changes=0)

        def work(conn: sa.Connection) -> None:
            conn.execute(query)

        return work

    def announce(self, game_id: str) -> None:
        """Announce a table's change made in a transaction of the store's (on SQLite; a
        trigger does it on PostgreSQL)."""
        self._changed(game_id + TABLE, self.options(game_id).changes)

    def is_table(self, game_id: str) -> bool:
        """Tell whether a game has a seat opened to a human (a friends' table)."""
        query = sa.select(sa.func.count()).select_from(seats).where(seats.c.game_id == game_id)
        return bool(self._run(lambda conn: conn.execute(query).scalar_one()))


def update_query(game_id: str, expected_version: int, actions: Log, over: bool, now: str,
                 ended: Outcome | None = None) -> sa.Update:  # fmt: skip
    """Return the update storing a game's longer log if it is still at the expected version
    (with the outcome of a deal it ends: its player's history reads it)."""
    outcome = {} if ended is None else {"finished_at": now, "margin": ended.margin,
                                        "result": ended.result}  # fmt: skip
    return (
        games.update()
        .where(games.c.id == game_id, games.c.version == expected_version)
        .values(
            actions=dump_actions(actions),
            version=len(actions),
            over=over,
            updated_at=now,
            **outcome,
        )
    )


def dump_actions(actions: Log) -> str:
    """Return an action log as stored: JSON, a list of [seat, action code]."""
    return json.dumps([list(a) for a in actions], separators=(",", ":"))
