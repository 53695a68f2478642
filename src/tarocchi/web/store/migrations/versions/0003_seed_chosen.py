"""Whether the client chose a game's seed (a practice deal, whose cards can be known).

A file the store wrote just before the migrations existed may have the column already
(that store added it itself): it is kept as it is.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import drop_columns

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("games")}
    if "seed_chosen" not in columns:
        op.add_column(
            "games",
            sa.Column("seed_chosen", sa.Boolean, nullable=False, server_default=sa.false()),
        )


def downgrade() -> None:
    drop_columns("games", "seed_chosen")
