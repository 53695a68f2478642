"""The end of a deal at friends' tables: a review per seat, each table's options (whether
hints are allowed, whether every seat is the AI's and it is watched, the game its humans
agreed to play next) with a counter of their changes (PostgreSQL announces each, as it
does a game's versions), and each seated human's agreement to "same deal again" or "new
deal". A seat's token opens the next game too, so a seat's token hash is unique per game.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from tarocchi.web.store.migrations.ops import (
    create_notice,
    drop_notice,
    of_game,
    of_seat,
    review_columns,
    texts,
)

revision = "0010"
down_revision = "0009"

NOTICE = ("tarocchi_table_changed", "table_options_changed", "table_options")


def _reviews(name: str, seat: bool) -> None:
    """Create the reviews table (with seat: one row per game and seat)."""
    op.create_table(
        name,
        *(of_seat() if seat else [of_game()]),
        *review_columns(),
        sa.Column("accuracy", sa.Float),
        sa.Column("ai_margin", sa.Float),
    )


def _swap_reviews(seat: bool) -> None:
    """Rebuild the reviews table with (or without) its seat column, keeping South's rows."""
    op.drop_index("reviews_pending", "reviews")
    _reviews("reviews_next", seat)
    keys = "game_id, seat" if seat else "game_id"
    columns = ", ".join([*(c.name for c in review_columns()), "accuracy", "ai_margin"])
    op.execute(
        f"INSERT INTO reviews_next ({keys}, {columns}) "
        f"SELECT game_id, {'0, ' if seat else ''}{columns} FROM reviews"
        + ("" if seat else " WHERE seat = 0")
    )
    op.drop_table("reviews")
    op.rename_table("reviews_next", "reviews")
    op.create_index("reviews_pending", "reviews", ["pending", "lease_until"])


def upgrade() -> None:
    _swap_reviews(seat=True)
    op.create_table(
        "table_options",
        of_game(),
        sa.Column("hints", sa.Boolean),
        sa.Column("watched", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("next_game", sa.Text),
        sa.Column("changes", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "agreements",
        *of_seat(),
        *texts("kind", "created_at"),
    )
    op.drop_index("seats_token", "seats")
    op.create_index("seats_token", "seats", ["game_id", "token_hash"], unique=True)
    # payload "<game id>#table:<changes>"
    create_notice(*NOTICE, column="changes", payload="NEW.game_id || '#table:' || NEW.changes")


def downgrade() -> None:
    drop_notice(*NOTICE)
    op.drop_index("seats_token", "seats")
    op.execute("DELETE FROM seats WHERE game_id IN (SELECT next_game FROM table_options)")
    op.create_index("seats_token", "seats", ["token_hash"], unique=True)
    op.drop_table("agreements")
    op.drop_table("table_options")
    _swap_reviews(seat=False)
