"""The games table as the store had it before migrations: seed, level, action log, version.

A database made by that store already has the table (and no alembic_version): it is
adopted as it is, so upgrading an old file loses no game.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("games"):
        return
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("token_hash", sa.Text, nullable=False),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("level", sa.Text, nullable=False),
        sa.Column("actions", sa.Text, nullable=False),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("started_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("games")
