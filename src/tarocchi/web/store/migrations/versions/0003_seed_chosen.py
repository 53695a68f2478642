"""Whether the client chose a game's seed (a practice deal, whose cards can be known).

A file the store wrote just before the migrations existed may have the column already
(that store added it itself): it is kept as it is.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "seed_chosen" not in columns:
        op.add_column(
            "games",
            sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("seed_chosen")
