"""Players without an account: a player per device id (stored hashed), the one-time codes
that move a history to another browser, each game's player, and what a history's
statistics aggregate (a finished game's end, South's margin and result; a review's
accuracy and the margin of the AI in South's seat).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import drop_columns, texts

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Text, primary_key=True),
        sa.Column("name", sa.Text),
        *texts("created_at", "last_seen"),
    )
    for name, key in (("devices", "secret_hash"), ("transfers", "code_hash")):
        op.create_table(
            name,
            sa.Column(key, sa.Text, primary_key=True),
            sa.Column(
                "player_id",
                sa.Text,
                sa.ForeignKey("players.id", ondelete="CASCADE"),
                nullable=False,
            ),
            *texts("created_at", *(["expires_at"] if name == "transfers" else [])),
        )
        op.create_index(f"{name}_player", name, ["player_id"])
    # the foreign key in the column's own clause, which SQLite adds in place too (Alembic
    # would add it as a constraint, which SQLite cannot without copying the games table)
    op.execute(
        "ALTER TABLE games ADD COLUMN player_id TEXT REFERENCES players (id) ON DELETE SET NULL"
    )
    op.add_column("games", sa.Column("finished_at", sa.Text))
    op.add_column("games", sa.Column("margin", sa.Float))
    op.add_column("games", sa.Column("result", sa.Text))
    op.create_index("games_player", "games", ["player_id", "finished_at"])
    op.add_column("reviews", sa.Column("accuracy", sa.Float))
    op.add_column("reviews", sa.Column("ai_margin", sa.Float))


def downgrade() -> None:
    drop_columns("reviews", "ai_margin", "accuracy")
    op.drop_index("games_player", "games")
    drop_columns("games", "result", "margin", "finished_at", "player_id")
    for name in ("transfers", "devices"):
        op.drop_index(f"{name}_player", name)
        op.drop_table(name)
    op.drop_table("players")
