"""The tables as the queries see them (the migrations in migrations/versions/ create them),
and how the store's parts run their queries (`Run`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import sqlalchemy as sa

T = TypeVar("T")


class Run(Protocol):
    """Run work in one transaction of the store's and return its result (`Store.atomic`)."""

    def __call__(self, work: Callable[[sa.Connection], T]) -> T: ...


class RunWith(Protocol):
    """Run work as `Run` does, with the transaction's options (`Store._run`)."""

    def __call__(self, work: Callable[[sa.Connection], T], **options: str) -> T: ...


metadata = sa.MetaData()

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("token_hash", sa.Text, nullable=False),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),  # signed: see store.SEED_SPAN
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("actions", sa.Text, nullable=False),  # JSON list of [seat, action code]
    sa.Column("version", sa.Integer, nullable=False),  # the number of actions applied so far
    sa.Column("over", sa.Boolean, nullable=False),
    sa.Column("started_at", sa.Text, nullable=False),  # ISO 8601 UTC, so text order is time order
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("seed_chosen", sa.Boolean, nullable=False),  # the client chose the seed (practice)
    # a practice deal's start: JSON {"from": game id, "action": its place, "margin": the
    # original deal's final margin for South's team}; NULL for any other game
    sa.Column("practice", sa.Text),
    # the player whose deal it is (NULL: anonymous; set NULL when the player deletes their data)
    sa.Column("player_id", sa.Text, sa.ForeignKey("players.id", ondelete="SET NULL")),
    # set when the deal ends (or is left: superseded by a newer game of the player's, or
    # untouched past the retention's unfinished age): what the history aggregates in SQL
    sa.Column("finished_at", sa.Text),  # ISO 8601 UTC
    sa.Column("margin", sa.Float),  # South's team's total minus the other's (NULL: left)
    sa.Column("result", sa.Text),  # win, draw, loss (for South's team) or left
    # the deal of the day's game: JSON {"date": ISO date, "scored": whether it counts}
    sa.Column("daily", sa.Text),
)


def _of_game(name: str, *columns: sa.schema.SchemaItem) -> sa.Table:
    """Return a table keyed by its game (and more columns), whose rows are deleted with the
    game (SQLite enforces the cascade only with its foreign keys on)."""
    cascade = sa.ForeignKey("games.id", ondelete="CASCADE")
    key = sa.Column("game_id", sa.Text, cascade, primary_key=True)
    return sa.Table(name, metadata, key, *columns)


# one row per finished game and human seat (South's; at a friends' table each seated
# human's too): the AI on that seat's cards, computed when the deal ends, and the review once
# asked for, valued a decision at a time by whichever server process holds its lease
reviews = _of_game(
    "reviews",
    sa.Column("seat", sa.Integer, primary_key=True),  # 0 South (a player's history reads it)
    sa.Column("status", sa.Text, nullable=False),  # none, running, done or failed
    sa.Column("pending", sa.Boolean, nullable=False),  # work is left (the AI's line, decisions)
    sa.Column("done", sa.Integer, nullable=False),  # decisions valued
    sa.Column("total", sa.Integer),  # decisions to value (NULL until asked for)
    sa.Column("data", sa.Text),  # the review so far: JSON, its reasons as message recipes
    sa.Column("ai", sa.Text),  # the AI on South's cards: JSON (review.AiLine)
    sa.Column("error", sa.Text),  # why it failed: a message recipe as JSON
    sa.Column("owner", sa.Text),  # the server process working on it, while its lease lasts
    sa.Column("lease_until", sa.Text),  # ISO 8601 UTC
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("accuracy", sa.Float),  # the done review's accuracy, 0 to 1 (NULL: none)
    sa.Column("ai_margin", sa.Float),  # the margin of the AI in South's seat, once played
)

# a player without an account: known by the device secrets of their browsers
players = sa.Table(
    "players",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),  # random, never sequential
    sa.Column("name", sa.Text),  # an optional display name
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("last_seen", sa.Text, nullable=False),  # updated at most once a day
)


def _of_player(name: str, key: str, *columns: sa.Column[str]) -> sa.Table:
    """Return a table of hashed secrets that open a player (deleted with the player)."""
    return sa.Table(
        name,
        metadata,
        sa.Column(key, sa.Text, primary_key=True),
        sa.Column("player_id", sa.Text, sa.ForeignKey("players.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
        *columns,
    )  # fmt: skip


# one row per browser of a player: the hash of its cookie's secret (never the secret)
devices = _of_player("devices", "secret_hash")
# the one-time, short-lived codes that bring a player's history to another browser (hashed)
transfers = _of_player("transfers", "code_hash", sa.Column("expires_at", sa.Text, nullable=False))

# the deal of the day (tarocchi.daily, web/store/daily.py): the one key its seeds come from
# (row 1, made by the first process that needs it), the commitment published per game and
# day, every try (one scored per player a day: a unique index over the scored rows) and per
# scored try South's choices by position (a hash of the action log before each)
daily_keys = sa.Table(
    "daily_keys",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("key", sa.Text, nullable=False),  # hex; never logged, never sent
    sa.Column("created_at", sa.Text, nullable=False),
)
daily = sa.Table(
    "daily",
    metadata,
    sa.Column("game", sa.Text, primary_key=True),
    sa.Column("day", sa.Text, primary_key=True),  # ISO date, UTC
    sa.Column("commitment", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)
daily_tries = sa.Table(
    "daily_tries",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),  # kept after its game is deleted
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("day", sa.Text, nullable=False),
    sa.Column("player_id", sa.Text, nullable=False),
    sa.Column("scored", sa.Boolean, nullable=False),
    sa.Column("margin", sa.Float),  # South's team's final margin, once over
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("finished_at", sa.Text),
)
daily_choices = sa.Table(
    "daily_choices",
    metadata,
    sa.Column("game_id", sa.Text, primary_key=True),
    sa.Column("decision", sa.Integer, primary_key=True),  # South's k-th decision
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("day", sa.Text, nullable=False),
    sa.Column("position", sa.Text, nullable=False),
    sa.Column("action", sa.Text, nullable=False),
)

# the seats of a friends' table other than South's (the creator's, opened by the game's
# token): a seat opened to a human has an invitation; once taken, its holder's token
seats = _of_game(
    "seats",
    sa.Column("seat", sa.Integer, primary_key=True),  # 1 East, 2 North, 3 West
    sa.Column("invitation_hash", sa.Text, nullable=False),  # token_hash of the link's secret
    # the holder's token, NULL until taken (unique in a game: the next deal agreed on keeps it)
    sa.Column("token_hash", sa.Text),
    sa.Column("taken_at", sa.Text),  # ISO 8601 UTC
)

# each action id a seat sent to a friends' table with its first answer (a repeated id gets
# it again: nothing applies twice), written in the action's own transaction
acts = _of_game(
    "acts",
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("action_id", sa.Text, primary_key=True),
    sa.Column("answer", sa.Text, nullable=False),  # JSON: ok, version; or the reason's recipe
    sa.Column("created_at", sa.Text, nullable=False),
)

# the server process driving a friends' table's AI, while its lease lasts (one at a time: a
# dead holder's lease runs out and another process takes the table)
drivers = _of_game(
    "drivers",
    sa.Column("owner", sa.Text, nullable=False),
    sa.Column("lease_until", sa.Text, nullable=False),  # ISO 8601 UTC
)

# each human seat of a friends' table that has connected: it counts as here until seen_until
# (its connections' pings push it on; a closed tab sets it to then), and the AI stands in
# for it while stand_in is "away" (its grace ran out while away: until it is back) or
# "handed" (it handed its seat over: until it takes it back)
presence = _of_game(
    "presence",
    sa.Column("seat", sa.Integer, primary_key=True),  # 0 South ... 3 West
    sa.Column("seen_until", sa.Text, nullable=False),  # ISO 8601 UTC, to the millisecond
    sa.Column("stand_in", sa.Text),  # NULL (the human plays), "away" or "handed"
)

# the decisions the AI made for an absent human: the index of each in the game's log, written
# in the transaction that stores it
stand_ins = _of_game(
    "stand_ins",
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.Integer, nullable=False),
)

# a table's turn timer, where one is set (friends' tables have none): a human seat's turn
# lasting turn_s seconds is played by the AI
timers = _of_game(
    "timers",
    sa.Column("turn_s", sa.Float, nullable=False),
)


# a friends' table's options, set by its creator, and where its humans went next: whether
# hints are allowed (NULL: the default, allowed while one human is seated), whether every
# seat is the AI's (a table to watch), the game they agreed to play next; `changes` counts
# the writes (PostgreSQL announces each, as it does a game's versions: migration 0010)
table_options = _of_game(
    "table_options",
    sa.Column("hints", sa.Boolean),
    sa.Column("watched", sa.Boolean, nullable=False),
    sa.Column("next_game", sa.Text),
    sa.Column("changes", sa.Integer, nullable=False),
)

# each seated human's wish once the deal is over: "same" (the same deal again) or "new"
agreements = _of_game(
    "agreements",
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a deal ended for South's team, as `games` keeps it: its margin and win, draw or
    loss."""

    margin: float
    result: str
