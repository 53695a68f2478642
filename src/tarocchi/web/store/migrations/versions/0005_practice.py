"""Practice deals: where a game started from another's decision (a review's "try again")."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import drop_columns

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.add_column("games", sa.Column("practice", sa.Text))


def downgrade() -> None:
    drop_columns("games", "practice")
