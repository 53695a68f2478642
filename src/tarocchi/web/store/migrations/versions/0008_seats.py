"""Friends' tables: the seats a game's creator opened to other people (each with its
invitation's hash and, once taken, its holder's token hash), and the action ids each seat
sent with their first answer, so that an action sent twice is applied once. Both go with
their game (a foreign key's cascade).

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("invitation_hash", sa.Text, nullable=False),
        sa.Column("token_hash", sa.Text),
        sa.Column("taken_at", sa.Text),
    )
    # a seat's holder is found by its token's hash
    op.create_index("seats_token", "seats", ["token_hash"], unique=True)
    op.create_table(
        "acts",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("action_id", sa.Text, primary_key=True),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
    )

    op.create_table(
        "drivers",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("owner", sa.Text, nullable=False),
        sa.Column("lease_until", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("drivers")
    op.drop_table("acts")
    op.drop_index("seats_token", "seats")
    op.drop_table("seats")


def _game() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")
