"""The games table as the store had it before migrations: seed, level, action log, version.

A database made by that store already has the table (and no alembic_version): it is
adopted as it is, so upgrading an old file loses no game.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import texts

revision = "0001"
down_revision = None


def upgrade() -> None:
    if sa.inspect(op.get_bind()).has_table("games"):
        return
    op.create_table(
        "games",
        sa.Column("id", sa.Text, primary_key=True),
        *texts("token_hash", "game"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        *texts("level", "actions"),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("over", sa.Boolean, nullable=False, server_default=sa.false()),
        *texts("started_at", "updated_at"),
    )


def downgrade() -> None:
    op.drop_table("games")
