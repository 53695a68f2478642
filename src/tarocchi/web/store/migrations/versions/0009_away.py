"""Leaving a friends' table and coming back: each human seat's presence (until when its
connections' pings keep it here, and whether the AI stands in for it: its grace ran out while
away, or it handed its seat over), the decisions the AI made for an absent human, and a
table's turn timer (off unless set). All go with their game (a foreign key's cascade).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("seen_until", sa.Text, nullable=False),
        sa.Column("stand_in", sa.Text),
    )
    op.create_table(
        "stand_ins",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_table(
        "timers",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("turn_s", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("timers")
    op.drop_table("stand_ins")
    op.drop_table("presence")


def _game() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")
