"""Reviews: one row per finished game holding the AI on South's cards and South's review,
its progress, and the lease of the server process computing it; deleted with its game (a
foreign key's cascade: the store turns SQLite's foreign keys on).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "reviews",
        sa.Column(
            "game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("pending", sa.Boolean, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer),
        sa.Column("data", sa.Text),
        sa.Column("ai", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("owner", sa.Text),
        sa.Column("lease_until", sa.Text),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
    )
    # the work a server process may claim: pending rows whose lease is free or has expired
    op.create_index("reviews_pending", "reviews", ["pending", "lease_until"])


def downgrade() -> None:
    op.drop_index("reviews_pending", "reviews")
    op.drop_table("reviews")
