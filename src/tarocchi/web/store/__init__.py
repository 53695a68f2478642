"""Persistence of web games: each game is its seed, its level and its action log.

The state of a game is never stored; it is rebuilt by replaying the log through
the rules (DESIGN.md: a record is the unit of persistence), so a server killed
mid-deal resumes every game exactly. Writes are conditional on the version the
writer read, so two concurrent actions on one game can never both land, whichever
processes they reach: no lock in a process is needed.

One interface, two backends through SQLAlchemy Core: SQLite (a file path, the
embedded default; sqlite.py) and PostgreSQL (a postgresql:// URL, for several
server processes; postgresql.py); the reviews of finished games are in `reviews` (its
rows go with their game's), the players and their devices in `players`. The schema is
Alembic's (migrations/); `upgrade` brings any database, a file from before the
migrations included, to the current one. `watch` follows a game's changes, made by any
process on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import ModuleType, TracebackType
from typing import TypeVar

import psycopg
import sqlalchemy as sa
from sqlalchemy import exc

from tarocchi.web.store import postgresql, sqlite
from tarocchi.web.store.daily import DailyStore
from tarocchi.web.store.notify import Hub, Watch
from tarocchi.web.store.players import PlayerStore
from tarocchi.web.store.presence import PresenceStore
from tarocchi.web.store.reviews import ReviewStore
from tarocchi.web.store.schema import Outcome, games
from tarocchi.web.store.tables import TableStore, dump_actions, update_query

DEFAULT_DB = "tarocchi.sqlite3"
POOL_SIZE = 4  # connections per process (requests use one at a time: calls are short)
DELETE_BATCH = 1000  # rows per deleting transaction, so that writers never wait long
MIGRATIONS = Path(__file__).parent / "migrations"
# seeds are unsigned 64-bit; both backends' integers are signed: the upper half is stored negative
SEED_SPAN = 2**64
T = TypeVar("T")


class StoreUnavailable(RuntimeError):
    """The database cannot be reached or is busy; nothing was changed, try again later."""


def database_url(db: str | Path) -> sa.URL:
    """Return the SQLAlchemy URL of a database given as a file path or a URL (ValueError for
    a URL of another kind, or one that does not parse)."""
    text = str(db)
    scheme = text.split(":", 1)[0][:20]  # (only the scheme is told: the rest may hold a password)
    try:
        if text.startswith(("postgresql:", "postgres:", "postgresql+psycopg:")):
            return sa.make_url(text).set(drivername="postgresql+psycopg")
        if text.startswith("sqlite:"):
            return sa.make_url(text)
    except (ValueError, exc.ArgumentError):
        raise ValueError(f"this {scheme}: URL does not parse") from None
    if "://" in text:
        raise ValueError(f"a {scheme}:// URL is no database here: give a SQLite file or a "
                         "postgresql:// URL")  # fmt: skip
    return sa.URL.create("sqlite", database=text)


def token_hash(token: str) -> str:
    """Return the stored form of a game token (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class GameRow:
    """One stored game."""

    id: str
    token_hash: str
    game: str
    seed: int
    level: str
    actions: tuple[tuple[int, str], ...]
    version: int
    over: bool
    started_at: str
    seed_chosen: bool = False  # the client asked for this seed (its deal can be known)
    practice: str | None = None  # a practice deal's start, as JSON (see schema.games)
    daily: str | None = None  # the deal of the day's game: its date and whether it is scored
    player_id: str | None = None  # whose deal it is (None: anonymous)
    # the last stored change (a finished deal's end); not part of what the game is
    updated_at: str | None = field(default=None, compare=False)


class Store:
    """The games of one database (thread-safe: each call is one short transaction)."""

    def __init__(
        self, db: str | Path, pool_size: int | None = None, daily_key: str | None = None
    ) -> None:
        """Open a database (a file or a URL), with pool_size connections on PostgreSQL;
        daily_key, the site's key of the deals of the day (else the database's)."""
        self.url = database_url(db)
        self.hub = Hub()
        self.listener: postgresql.Listener | None = None
        if self.url.get_backend_name() == "postgresql":
            size = pool_size or POOL_SIZE
            self.engine = postgresql.engine(self.url, size)
            self.listener = postgresql.Listener(self.url, self.hub)
        else:
            self.engine = sqlite.engine(self.url)
        self.reviews = ReviewStore(self._run, self.url.get_backend_name())
        self.tables = TableStore(self._run, self.url.get_backend_name(),
                                 self._backend().TRANSACTION, self._changed)  # fmt: skip
        self.presence = PresenceStore(self._run, self.url.get_backend_name())
        self.daily = DailyStore(self._run, self.atomic, self.url.get_backend_name(), daily_key)
        # (several statements in one transaction: a migration's options, a write lock)
        self.players = PlayerStore(self._run, self._backend().MIGRATION)

    def __str__(self) -> str:
        return self.url.render_as_string(hide_password=True)

    def _run(self, work: Callable[[sa.Connection], T], **options: str) -> T:
        """Run work in one transaction (on PostgreSQL each call is one statement, committed
        by itself) and return its result. A connection found dead, as after a database
        restart, is replaced and the work tried once more (a write is conditional, so a
        retry cannot apply it twice); a database down, restarting or busy is
        StoreUnavailable, with nothing half-written."""
        try:
            try:
                return self._once(work, options)
            except exc.DBAPIError as e:
                if not e.connection_invalidated:
                    raise
                return self._once(work, options)  # the pool has dropped its older connections
        except (exc.OperationalError, exc.InterfaceError, exc.TimeoutError) as e:
            raise StoreUnavailable(str(e).splitlines()[0]) from e
        except exc.DBAPIError as e:
            if e.connection_invalidated:
                raise StoreUnavailable(str(e).splitlines()[0]) from e
            raise

    def atomic(self, work: Callable[[sa.Connection], T]) -> T:
        """Run work of several statements in one transaction (see _run)."""
        return self._run(work, **self._backend().MIGRATION)

    def _once(self, work: Callable[[sa.Connection], T], options: dict[str, str]) -> T:
        with self.engine.connect() as conn, conn.execution_options(**options).begin():
            return work(conn)

    def upgrade(self, revision: str = "head") -> str:
        """Bring the database to the current schema (or an older revision, for tests of a
        migration); return its revision."""
        from alembic import command
        from alembic.config import Config
        from alembic.script import ScriptDirectory

        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))

        def migrate(conn: sa.Connection) -> None:
            if conn.dialect.name == "postgresql":
                conn.execute(sa.text("SELECT pg_advisory_xact_lock(7020112)"))
            config.attributes["connection"] = conn
            command.upgrade(config, revision)

        # in one transaction that waits for any other process migrating the same database
        self._run(migrate, **self._backend().MIGRATION)
        if revision != "head":
            return revision
        head = ScriptDirectory.from_config(config).get_current_head()
        assert head is not None
        return head

    def close(self) -> None:
        """Stop listening and close every connection."""
        if self.listener is not None:
            self.listener.close()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def create(self, row: GameRow, then: Callable[[sa.Connection], None] | None = None) -> None:
        """Insert a new game (and then, in the same transaction, what `then` writes)."""

        def work(conn: sa.Connection) -> None:
            self._insert(conn, row)
            if then is not None:
                then(conn)

        several = row.player_id is not None or then is not None
        self._run(work, **(self._backend().MIGRATION if several else {}))
        self._changed(row.id, row.version)

    def _insert(self, conn: sa.Connection, row: GameRow) -> None:
        """Insert a new game; a player's new deal supersedes their unfinished ones."""
        if row.player_id is not None:
            conn.execute(
                games.update()
                .where(games.c.player_id == row.player_id, ~games.c.over, games.c.result.is_(None))
                .values(result="left", finished_at=row.started_at)
            )
        conn.execute(games.insert().values(_values(row)))

    def create_daily(self, row: GameRow, day: str, player: str) -> GameRow:
        """Insert a game of the deal of the day with its try, scored if the player has no
        scored try that day (else practice), in one transaction; return the row stored."""

        def work(conn: sa.Connection) -> GameRow:
            scored = self.daily.claim(conn, row.id, row.game, day, player, row.started_at)
            made = replace(row, daily=json.dumps({"date": day, "scored": scored}))
            self._insert(conn, made)
            return made

        made = self.atomic(work)
        self._changed(row.id, row.version)
        return made

    def get(self, game_id: str) -> GameRow | None:
        """Return a stored game, or None."""
        found = self._rows(GAME_BY_ID, {"game_id": game_id})
        return found[0] if found else None

    def select(
        self, *where: sa.ColumnElement[bool], order: Sequence[sa.ColumnElement[object]] = ()
    ) -> list[GameRow]:
        """Return the stored games that meet conditions, in an order."""
        return self._rows(GAME_ROWS.where(*where).order_by(*order))

    def _rows(self, query: sa.Executable, params: dict[str, str] | None = None) -> list[GameRow]:
        rows = self._run(lambda conn: conn.execute(query, params).all())
        return [
            GameRow(r.id, r.token_hash, r.game, r.seed % SEED_SPAN, r.level,
                    tuple((int(s), str(a)) for s, a in json.loads(r.actions)), r.version, r.over,
                    r.started_at, r.seed_chosen, r.practice, r.daily, r.player_id, r.updated_at)
            for r in rows
        ]  # fmt: skip

    def update(
        self,
        game_id: str,
        expected_version: int,
        actions: tuple[tuple[int, str], ...],
        over: bool,
        now: str,
        outcome: Outcome | None = None,
        then: Callable[[sa.Connection], None] | None = None,
    ) -> bool:
        """Store a longer action log if the stored version is still the expected one (with
        the outcome of a deal it ends, and then, in the same transaction, what `then`
        writes)."""
        query = update_query(game_id, expected_version, actions, over, now, outcome)

        def work(conn: sa.Connection) -> bool:
            if conn.execute(query).rowcount != 1:
                return False
            if then is not None:
                then(conn)
            return True

        done = self.atomic(work) if then is not None else self._run(work)
        if done:
            self._changed(game_id, len(actions))
        return done

    def count(self) -> int:
        """Return the number of stored games."""
        query = sa.select(sa.func.count()).select_from(games)
        return int(self._run(lambda conn: conn.execute(query).scalar_one()))

    def delete_stale(self, unfinished_before: str | None, finished_before: str | None) -> int:
        """Delete the unfinished games last changed before one time and the finished ones
        before another (None: keep them); return how many went. Times are ISO 8601 UTC."""
        stale = [  # never a player's deal: it is their history (anonymous once they leave)
            sa.and_(games.c.over == over, games.c.updated_at < before, games.c.player_id.is_(None))
            for over, before in ((False, unfinished_before), (True, finished_before))
            if before is not None
        ]
        if not stale:
            return 0
        batch = sa.select(games.c.id).where(sa.or_(*stale)).limit(DELETE_BATCH)
        query = games.delete().where(games.c.id.in_(batch.scalar_subquery()))
        deleted = 0
        while (n := self._run(lambda conn: conn.execute(query).rowcount)) > 0:
            deleted += n
        return deleted

    def leave_stale(self, before: str) -> int:
        """Mark left the players' unfinished deals last changed before a time (as the
        retention would delete an anonymous one); return how many."""
        query = (
            games.update()
            .where(
                games.c.player_id.is_not(None),
                ~games.c.over,
                games.c.result.is_(None),
                games.c.updated_at < before,
            )
            .values(result="left", finished_at=games.c.updated_at)
        )
        return int(self._run(lambda conn: conn.execute(query).rowcount))

    def size_bytes(self) -> int:
        """Return the bytes the games take in the database, indexes included."""
        size: int = self._run(self._backend().size_bytes)
        return size

    def compact(self) -> None:
        """Give back the space that deleted rows and rewritten ones left (what a running
        database reuses), so that size_bytes tells the games' own size."""
        try:
            self._backend().compact(self.url)
        except (psycopg.OperationalError, sqlite3.OperationalError) as e:
            raise StoreUnavailable(str(e).splitlines()[0]) from e

    def usage(self) -> tuple[int, int]:
        """Compact the database; return its number of games and the bytes they take."""
        self.compact()
        return self.count(), self.size_bytes()

    def _backend(self) -> ModuleType:
        return postgresql if self.listener is not None else sqlite

    def watch(self, game_id: str, since: int) -> Watch:
        """Return the versions after `since` that a game reaches, written by any process on
        PostgreSQL (by this one on SQLite); call from the event loop that reads them."""
        w = self.hub.add(game_id, since)
        if self.listener is not None:
            self.listener.start()
        row = self.get(game_id)  # a change made before the watch began is not missed
        if row is not None:
            w.offer(row.version)
        return w

    def _changed(self, game_id: str, version: int) -> None:
        if self.listener is None:  # PostgreSQL's trigger tells every process, this one too
            self.hub.publish(game_id, version)


# a game's columns as a GameRow holds them; by id, built once (building a statement and
# its cache key costs more than running it: this one runs at every change of a table)
GAME_ROWS = sa.select(
    games.c.id, games.c.token_hash, games.c.game, games.c.seed, games.c.level, games.c.actions,
    games.c.version, games.c.over, games.c.started_at, games.c.seed_chosen, games.c.practice,
    games.c.daily, games.c.player_id, games.c.updated_at,
)  # fmt: skip
GAME_BY_ID = GAME_ROWS.where(games.c.id == sa.bindparam("game_id"))


def _values(row: GameRow) -> dict[str, object]:
    """Return the columns of a new game's row."""
    values: dict[str, object] = {
        "id": row.id, "token_hash": row.token_hash, "game": row.game, "seed": _signed(row.seed),
        "level": row.level, "actions": dump_actions(row.actions), "version": row.version,
        "over": row.over, "started_at": row.started_at, "updated_at": row.started_at,
        "seed_chosen": row.seed_chosen,
    }  # fmt: skip
    # (other games leave them NULL, as a store before 0005, 0006 and 0007 did)
    for column in ("practice", "daily", "player_id"):
        if getattr(row, column) is not None:
            values[column] = getattr(row, column)
    return values


def _signed(seed: int) -> int:
    return seed - SEED_SPAN if seed >= SEED_SPAN // 2 else seed
