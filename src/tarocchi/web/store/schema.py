"""The tables as the queries see them (the migrations in migrations/versions/ create them)."""

from __future__ import annotations

import sqlalchemy as sa

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
)

# one row per finished game (its South seat): the AI on South's cards, computed when the deal
# ends, and the review once asked for, valued a decision at a time by whichever server
# process holds its lease
reviews = sa.Table(
    "reviews",
    metadata,
    # deleted with its game (SQLite enforces the cascade only with its foreign keys on)
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
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
)

# the seats of a friends' table other than South's (the creator's, opened by the game's
# token): a seat opened to a human has an invitation; once taken, its holder's token
seats = sa.Table(
    "seats",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),  # 1 East, 2 North, 3 West
    sa.Column("invitation_hash", sa.Text, nullable=False),  # token_hash of the link's secret
    sa.Column("token_hash", sa.Text),  # the holder's token, NULL until taken (unique)
    sa.Column("taken_at", sa.Text),  # ISO 8601 UTC
)

# each action id a seat sent to a friends' table with its first answer (a repeated id gets
# it again: nothing applies twice), written in the action's own transaction
acts = sa.Table(
    "acts",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("action_id", sa.Text, primary_key=True),
    sa.Column("answer", sa.Text, nullable=False),  # JSON: ok, version; or the reason's recipe
    sa.Column("created_at", sa.Text, nullable=False),
)

# the server process driving a friends' table's AI, while its lease lasts (one at a time: a
# dead holder's lease runs out and another process takes the table)
drivers = sa.Table(
    "drivers",
    metadata,
    sa.Column("game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("owner", sa.Text, nullable=False),
    sa.Column("lease_until", sa.Text, nullable=False),  # ISO 8601 UTC
)
