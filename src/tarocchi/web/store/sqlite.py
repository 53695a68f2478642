"""SQLite, the embedded default: one file in WAL mode, which several processes may share.

Its change notices reach only this process's watches (there is no channel between
processes); the store publishes them after each committed write.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from pathlib import Path

import sqlalchemy as sa

BEGIN_OPTION = "sqlite_begin"  # an execution option: DEFERRED (the default) or IMMEDIATE
# a migration takes the write lock at once: processes upgrading one file together migrate
# one after another instead of racing to create the same tables
MIGRATION = {BEGIN_OPTION: "IMMEDIATE"}
TRANSACTION = MIGRATION  # a write of several statements, all or nothing
BUSY_TIMEOUT_MS = 5000  # how long a write waits for another process's write to finish


def engine(url: sa.URL) -> sa.Engine:
    """Return an engine on the file (created with its folder if missing)."""
    if url.database:
        Path(url.database).parent.mkdir(parents=True, exist_ok=True)
    eng = sa.create_engine(url)

    @sa.event.listens_for(eng, "connect")
    def _pragmas(dbapi_connection: sqlite3.Connection, _record: object) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below, DDL's too
        # WAL lets readers go on beside the writer; NORMAL sync keeps every commit through a
        # crash of the process (only the machine losing power could cost the last ones)
        dbapi_connection.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        _wal(dbapi_connection)
        dbapi_connection.execute("PRAGMA synchronous=NORMAL")
        # a game's review goes with the game (the reviews table's cascade)
        dbapi_connection.execute("PRAGMA foreign_keys=ON")

    @sa.event.listens_for(eng, "begin")
    def _begin(conn: sa.Connection) -> None:
        conn.exec_driver_sql(f"BEGIN {conn.get_execution_options().get(BEGIN_OPTION, '')}")

    return eng


def _wal(db: sqlite3.Connection) -> None:
    """Put the file in WAL mode. Switching a new file's journal needs it alone for a moment
    and SQLite refuses at once, without waiting, while another process's connection opens
    it (processes starting together): try again for up to the busy timeout."""
    for _ in range(BUSY_TIMEOUT_MS // 50):
        try:
            db.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e):
                raise
            time.sleep(0.05)
    db.execute("PRAGMA journal_mode=WAL")


def compact(url: sa.URL) -> None:
    """Rewrite the file without the space deleted and replaced rows left."""
    with contextlib.closing(sqlite3.connect(url.database or "", isolation_level=None)) as db:
        db.execute("VACUUM")


def size_bytes(conn: sa.Connection) -> int:
    """Return the bytes the database's pages in use take."""
    page, pages, free = (
        int(conn.exec_driver_sql(f"PRAGMA {p}").scalar_one())
        for p in ("page_size", "page_count", "freelist_count")
    )
    return page * (pages - free)
