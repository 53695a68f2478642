"""The DDL the schema's revisions share: runs of text columns, the key of a table whose rows
go with their game, a review's columns, PostgreSQL's change notices, dropping columns.

A revision is history: upgrading must make the same schema every time, so a helper here never
changes what it makes once a revision calls it (a new shape gets a new helper).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op


def texts(*names: str, null: bool = False) -> list[sa.Column[Any]]:
    """Return text columns of these names, in order, NOT NULL unless null."""
    return [sa.Column(name, sa.Text, nullable=null) for name in names]


def of_game() -> sa.Column[Any]:
    """Return the game_id key of a table whose rows are deleted with their game (a foreign
    key's cascade: the store turns SQLite's foreign keys on)."""
    return sa.Column(
        "game_id", sa.Text, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )


def of_seat() -> list[sa.Column[Any]]:
    """Return the (game_id, seat) key of a table with a row per seat of a game (deleted with
    it, as of_game)."""
    return [of_game(), sa.Column("seat", sa.Integer, primary_key=True)]


def review_columns() -> list[sa.Column[Any]]:
    """Return a review's columns after its key: its progress, its data and its lease."""
    return [
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("pending", sa.Boolean, nullable=False),
        sa.Column("done", sa.Integer, nullable=False, server_default="0"),
        sa.Column("total", sa.Integer),
        *texts("data", "ai", "error", "owner", "lease_until", null=True),
        *texts("created_at", "updated_at"),
    ]


def create_notice(function: str, trigger: str, table: str, column: str, payload: str) -> None:
    """On PostgreSQL, notify the games' channel (postgresql.CHANNEL) with payload, an SQL
    expression over NEW, when a row of table is inserted or its column updated (sent when
    the change commits); other databases have no notices."""
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"""
CREATE FUNCTION {function}() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tarocchi_games', {payload});
    RETURN NULL;
END
$$
""")
    op.execute(f"""
CREATE TRIGGER {trigger} AFTER INSERT OR UPDATE OF {column} ON {table}
FOR EACH ROW EXECUTE FUNCTION {function}()
""")


def drop_notice(function: str, trigger: str, table: str) -> None:
    """Undo create_notice."""
    if op.get_bind().dialect.name == "postgresql":
        op.execute(f"DROP TRIGGER {trigger} ON {table}")
        op.execute(f"DROP FUNCTION {function}()")


def drop_columns(table: str, *names: str) -> None:
    """Drop columns of a table, in order (SQLite: by copying the table, in a batch)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
