"""Friends' tables: the seats a game's creator opened to other people (each with its
invitation's hash and, once taken, its holder's token hash), and the action ids each seat
sent with their first answer, so that an action sent twice is applied once. Both go with
their game (a foreign key's cascade).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import of_game, of_seat, texts

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.create_table(
        "seats",
        *of_seat(),
        *texts("invitation_hash"),
        *texts("token_hash", "taken_at", null=True),
    )
    # a seat's holder is found by its token's hash
    op.create_index("seats_token", "seats", ["token_hash"], unique=True)
    op.create_table(
        "acts",
        *of_seat(),
        sa.Column("action_id", sa.Text, primary_key=True),
        *texts("answer", "created_at"),
    )
    op.create_table("drivers", of_game(), *texts("owner", "lease_until"))


def downgrade() -> None:
    op.drop_table("drivers")
    op.drop_table("acts")
    op.drop_index("seats_token", "seats")
    op.drop_table("seats")
