"""The end of a deal at friends' tables: a review per seat, each table's options (whether
hints are allowed, whether every seat is the AI's and it is watched, the game its humans
agreed to play next) with a counter of their changes (PostgreSQL announces each, as it
does a game's versions), and each seated human's agreement to "same deal again" or "new
deal". A seat's token opens the next game too, so a seat's token hash is unique per game.

Revision ID: 0010
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

REVIEW_COLUMNS = ("status, pending, done, total, data, ai, error, owner, lease_until, "
                  "created_at, updated_at, accuracy, ai_margin")  # fmt: skip
# payload "<game id>#table:<changes>" on the games' channel (postgresql.CHANNEL)
NOTIFY_FUNCTION = """
CREATE FUNCTION tarocchi_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tarocchi_games', NEW.game_id || '#table:' || NEW.changes);
    RETURN NULL;
END
$$
"""
NOTIFY_TRIGGER = """
CREATE TRIGGER table_options_changed AFTER INSERT OR UPDATE OF changes ON table_options
FOR EACH ROW EXECUTE FUNCTION tarocchi_table_changed()
"""


def _game() -> sa.ForeignKey:
    return sa.ForeignKey("games.id", ondelete="CASCADE")


def _reviews(name: str, seat: bool) -> None:
    """Create the reviews table (with seat: one row per game and seat)."""
    op.create_table(
        name,
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        *([sa.Column("seat", sa.Integer, primary_key=True)] if seat else []),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("pending", sa.Boolean, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer),
        sa.Column("data", sa.Text),
        sa.Column("ai", sa.Text),
        sa.Column("error", sa.Text),
        sa.Column("owner", sa.Text),
        sa.Column("lease_until", sa.Text),
        sa.Column("created_at", sa.Text, nullable=False),
        sa.Column("updated_at", sa.Text, nullable=False),
        sa.Column("accuracy", sa.Float),
        sa.Column("ai_margin", sa.Float),
    )


def _swap_reviews(seat: bool) -> None:
    """Rebuild the reviews table with (or without) its seat column, keeping South's rows."""
    op.drop_index("reviews_pending", "reviews")
    _reviews("reviews_next", seat)
    keys = "game_id, seat" if seat else "game_id"
    op.execute(
        f"INSERT INTO reviews_next ({keys}, {REVIEW_COLUMNS}) "
        f"SELECT game_id, {'0, ' if seat else ''}{REVIEW_COLUMNS} FROM reviews"
        + ("" if seat else " WHERE seat = 0")
    )
    op.drop_table("reviews")
    op.rename_table("reviews_next", "reviews")
    op.create_index("reviews_pending", "reviews", ["pending", "lease_until"])


def upgrade() -> None:
    _swap_reviews(seat=True)
    op.create_table(
        "table_options",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("hints", sa.Boolean),
        sa.Column("watched", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("next_game", sa.Text),
        sa.Column("changes", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "agreements",
        sa.Column("game_id", sa.Text, _game(), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("kind", sa.Text, nullable=False),
        sa.Column("created_at", sa.Text, nullable=False),
    )
    op.drop_index("seats_token", "seats")
    op.create_index("seats_token", "seats", ["game_id", "token_hash"], unique=True)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_FUNCTION)
        op.execute(NOTIFY_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER table_options_changed ON table_options")
        op.execute("DROP FUNCTION tarocchi_table_changed()")
    op.drop_index("seats_token", "seats")
    op.execute("DELETE FROM seats WHERE game_id IN (SELECT next_game FROM table_options)")
    op.create_index("seats_token", "seats", ["token_hash"], unique=True)
    op.drop_table("agreements")
    op.drop_table("table_options")
    _swap_reviews(seat=False)
