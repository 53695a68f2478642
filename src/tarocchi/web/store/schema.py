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
)
