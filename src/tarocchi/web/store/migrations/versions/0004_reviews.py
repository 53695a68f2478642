"""Reviews: one row per finished game holding the AI on South's cards and South's review,
its progress, and the lease of the server process computing it; deleted with its game (a
foreign key's cascade: the store turns SQLite's foreign keys on).
"""

from __future__ import annotations

from alembic import op

from tarocchi.web.store.migrations.ops import of_game, review_columns

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table("reviews", of_game(), *review_columns())
    # the work a server process may claim: pending rows whose lease is free or has expired
    op.create_index("reviews_pending", "reviews", ["pending", "lease_until"])


def downgrade() -> None:
    op.drop_index("reviews_pending", "reviews")
    op.drop_table("reviews")
