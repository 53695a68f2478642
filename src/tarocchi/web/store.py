"""Persistence of web games in SQLite: each game is its seed, its level and its action log.

The state of a game is never stored; it is rebuilt by replaying the log through
the rules (DESIGN.md: a record is the unit of persistence), so a server killed
mid-deal resumes every game exactly. Writes are conditional on the version the
writer read, so two concurrent actions on one game can never both land.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DB = "tarocchi.sqlite3"
DB_ENV = "TAROCCHI_DB"

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id          TEXT PRIMARY KEY,
    token_hash  TEXT NOT NULL,
    game        TEXT NOT NULL,
    seed        INTEGER NOT NULL,
    level       TEXT NOT NULL,
    actions     TEXT NOT NULL,      -- JSON list of [seat, action code]
    version     INTEGER NOT NULL,   -- the number of actions applied so far
    over        INTEGER NOT NULL DEFAULT 0,
    started_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL,
    seed_chosen INTEGER NOT NULL DEFAULT 0  -- 1: the client chose the seed (practice)
);
"""
# databases made before seed_chosen existed gain it (their games' seeds were all chosen or
# guessable, but they are practice games either way)
MIGRATE = "ALTER TABLE games ADD COLUMN seed_chosen INTEGER NOT NULL DEFAULT 0"
# seeds are unsigned 64-bit; SQLite's integers are signed: the upper half is stored negative
SEED_SPAN = 2**64


def default_path() -> Path:
    """Return the database path: $TAROCCHI_DB, else tarocchi.sqlite3 in the working folder."""
    return Path(os.environ.get(DB_ENV) or DEFAULT_DB)


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


class Store:
    """A thread-safe SQLite store of games (WAL mode, one connection, short transactions)."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(games)")}
        if "seed_chosen" not in columns:
            self._db.execute(MIGRATE)

    def close(self) -> None:
        """Close the connection."""
        with self._lock:
            self._db.close()

    def create(self, row: GameRow) -> None:
        """Insert a new game."""
        with self._lock:
            self._db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (row.id, row.token_hash, row.game, _signed(row.seed), row.level,
                 _dump(row.actions), row.version, int(row.over), row.started_at, row.started_at,
                 int(row.seed_chosen)),
            )  # fmt: skip

    def get(self, game_id: str) -> GameRow | None:
        """Return a stored game, or None."""
        with self._lock:
            cur = self._db.execute(
                "SELECT id, token_hash, game, seed, level, actions, version, over, started_at, "
                "seed_chosen "
                "FROM games WHERE id = ?",
                (game_id,),
            )
            r = cur.fetchone()
        if r is None:
            return None
        actions = tuple((int(s), str(a)) for s, a in json.loads(r[5]))
        seed = r[3] % SEED_SPAN
        return GameRow(r[0], r[1], r[2], seed, r[4], actions, r[6], bool(r[7]), r[8], bool(r[9]))

    def update(
        self,
        game_id: str,
        expected_version: int,
        actions: tuple[tuple[int, str], ...],
        over: bool,
        now: str,
    ) -> bool:
        """Store a longer action log if the stored version is still the expected one."""
        with self._lock:
            cur = self._db.execute(
                "UPDATE games SET actions = ?, version = ?, over = ?, updated_at = ? "
                "WHERE id = ? AND version = ?",
                (_dump(actions), len(actions), int(over), now, game_id, expected_version),
            )
            return cur.rowcount == 1

    def count(self) -> int:
        """Return the number of stored games."""
        with self._lock:
            n: int = self._db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
        return n


def _signed(seed: int) -> int:
    return seed - SEED_SPAN if seed >= SEED_SPAN // 2 else seed


def _dump(actions: tuple[tuple[int, str], ...]) -> str:
    return json.dumps([list(a) for a in actions], separators=(",", ":"))
