"""PostgreSQL, for several server processes: psycopg 3 under SQLAlchemy's connection pool,
and every process told of each game's change through LISTEN/NOTIFY.

The notice is sent by a trigger on the games table (migration 0002), inside the writing
transaction, so it goes out exactly when the change commits, whichever process wrote it.
"""

from __future__ import annotations

import asyncio
import contextlib

import psycopg
import sqlalchemy as sa

from tarocchi.web.store.notify import Hub
from tarocchi.web.store.tables import TABLE

CHANNEL = "tarocchi_games"  # payload: "<game id>:<version>"
CONNECT_TIMEOUT_S = 5
STATEMENT_TIMEOUT_MS = 10_000  # a request never waits longer than this on the database
RECONNECT_S = 0.5
# every store call but a migration is one statement, atomic by itself: run in autocommit, it
# costs one round trip instead of three (BEGIN, the statement, COMMIT)
MIGRATION = {"isolation_level": "READ COMMITTED"}
TRANSACTION = MIGRATION  # a write of several statements, all or nothing


def engine(url: sa.URL, pool_size: int) -> sa.Engine:
    """Return a pooled engine in autocommit mode. A dead connection is found on use (the
    store then retries once, and the pool replaces its older connections): no round trip
    checks each connection beforehand."""
    return sa.create_engine(
        url.set(drivername="postgresql+psycopg"),
        isolation_level="AUTOCOMMIT",
        pool_size=pool_size,
        max_overflow=pool_size,
        pool_timeout=CONNECT_TIMEOUT_S,
        connect_args={
            "connect_timeout": CONNECT_TIMEOUT_S,
            # a commit returns before its WAL reaches the disk (8 ms a commit here, p50), as
            # SQLite's synchronous=NORMAL does: a crash of a server process or a restart of
            # PostgreSQL loses nothing; a crash of the database's machine may lose the last
            # fraction of a second, never half an action
            "options": f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c synchronous_commit=off",
        },
    )


def compact(url: sa.URL) -> None:
    """Rewrite the games table without the old row versions each update leaves (which
    autovacuum marks for reuse on a running site)."""
    with psycopg.connect(conninfo(url), autocommit=True) as conn:
        conn.execute("VACUUM FULL games")


def conninfo(url: sa.URL) -> str:
    """Return psycopg's form of the database's URL."""
    return url.set(drivername="postgresql").render_as_string(hide_password=False)


def size_bytes(conn: sa.Connection) -> int:
    """Return the bytes the games table takes with its indexes and TOAST data."""
    return int(conn.execute(sa.text("SELECT pg_total_relation_size('games')")).scalar_one())


class Listener:
    """One LISTEN connection per process feeding the hub. It reconnects after PostgreSQL
    restarts and then re-reads the watched games' versions, so no change goes unheard."""

    def __init__(self, url: sa.URL, hub: Hub) -> None:
        self.conninfo = conninfo(url)
        self.hub = hub
        self.listening = asyncio.Event()  # set while every commit's notice reaches the hub
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Listen from the running event loop (once)."""
        if self._task is None or self._task.done():
            self.listening = asyncio.Event()  # of this loop
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S
                )
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    await self._resync(conn)
                    self.listening.set()
                    async for note in conn.notifies():
                        game_id, _, version = note.payload.rpartition(":")
                        self.hub.publish(game_id, int(version))
            except psycopg.OperationalError:
                self.listening.clear()
                await asyncio.sleep(RECONNECT_S)

    async def _resync(self, conn: psycopg.AsyncConnection[tuple[str, int]]) -> None:
        """Offer every watched game's current version, and every watched table's count of
        changes (changes made while not listening)."""
        watched = self.hub.watched()
        cur = await conn.execute("SELECT id, version FROM games WHERE id = ANY(%s)", (watched,))
        for game_id, version in await cur.fetchall():
            self.hub.publish(game_id, version)
        tables = [key.removesuffix(TABLE) for key in watched if key.endswith(TABLE)]
        cur = await conn.execute(
            "SELECT game_id, changes FROM table_options WHERE game_id = ANY(%s)", (tables,)
        )
        for game_id, changes in await cur.fetchall():
            self.hub.publish(game_id + TABLE, changes)

    def close(self) -> None:
        """Stop listening."""
        if self._task is not None:
            with contextlib.suppress(RuntimeError):  # its loop has closed already
                self._task.get_loop().call_soon_threadsafe(self._task.cancel)
