"""Retention and change notices: an index for deleting old games by state and age, and on
PostgreSQL a trigger that announces each new version of a game to every listening process.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# payload "<game id>:<version>" on the channel postgresql.CHANNEL, sent when the change commits
NOTIFY_FUNCTION = """
CREATE FUNCTION tarocchi_game_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tarocchi_games', NEW.id || ':' || NEW.version);
    RETURN NULL;
END
$$
"""
NOTIFY_TRIGGER = """
CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OF version ON games
FOR EACH ROW EXECUTE FUNCTION tarocchi_game_changed()
"""


def upgrade() -> None:
    op.create_index("games_by_state_and_age", "games", ["over", "updated_at"])
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_FUNCTION)
        op.execute(NOTIFY_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER games_changed ON games")
        op.execute("DROP FUNCTION tarocchi_game_changed()")
    op.drop_index("games_by_state_and_age", "games")
