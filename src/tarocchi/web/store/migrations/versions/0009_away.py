"""Leaving a friends' table and coming back: each human seat's presence (until when its
connections' pings keep it here, and whether the AI stands in for it: its grace ran out while
away, or it handed its seat over), the decisions the AI made for an absent human, and a
table's turn timer (off unless set). All go with their game (a foreign key's cascade).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import of_game, of_seat, texts

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "presence",
        *of_seat(),
        *texts("seen_until"),
        *texts("stand_in", null=True),
    )
    op.create_table(
        "stand_ins",
        of_game(),
        sa.Column("idx", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )
    op.create_table("timers", of_game(), sa.Column("turn_s", sa.Float, nullable=False))


def downgrade() -> None:
    op.drop_table("timers")
    op.drop_table("stand_ins")
    op.drop_table("presence")
