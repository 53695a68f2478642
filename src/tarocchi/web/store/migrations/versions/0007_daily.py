"""The deal of the day: the key its seeds come from, each day's published commitment per game,
the tries (one scored per player a day, made race-free by a unique index over the scored
ones) and, per scored try, South's choices by position, so that how the field chose is a
GROUP BY; the games of the day say so (games.daily).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import drop_columns, texts

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.add_column("games", sa.Column("daily", sa.Text))
    op.create_table(
        "daily_keys",
        sa.Column("id", sa.Integer, primary_key=True),
        *texts("key", "created_at"),
    )
    op.create_table(
        "daily",
        sa.Column("game", sa.Text, primary_key=True),
        sa.Column("day", sa.Text, primary_key=True),
        *texts("commitment", "created_at"),
    )
    op.create_table(
        "daily_tries",
        sa.Column("game_id", sa.Text, primary_key=True),
        *texts("game", "day", "player_id"),
        sa.Column("scored", sa.Boolean, nullable=False),
        sa.Column("margin", sa.Float),
        *texts("created_at"),
        *texts("finished_at", null=True),
    )
    scored = sa.text("scored")
    op.create_index("daily_tries_one_scored", "daily_tries", ["game", "day", "player_id"],
                    unique=True, sqlite_where=scored, postgresql_where=scored)  # fmt: skip
    # the ranking: the scored, finished tries of a day counted by margin
    op.create_index("daily_tries_ranking", "daily_tries", ["game", "day", "scored", "margin"])
    op.create_table(
        "daily_choices",
        sa.Column("game_id", sa.Text, primary_key=True),
        sa.Column("decision", sa.Integer, primary_key=True),
        *texts("game", "day", "position", "action"),
    )
    # how the field chose: counted from the index alone (it holds the action)
    op.create_index("daily_choices_position", "daily_choices",
                    ["game", "day", "position", "action"])  # fmt: skip


def downgrade() -> None:
    op.drop_table("daily_choices")
    op.drop_table("daily_tries")
    op.drop_table("daily")
    op.drop_table("daily_keys")
    drop_columns("games", "daily")
