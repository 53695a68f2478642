"""Retention and change notices: an index for deleting old games by state and age, and on
PostgreSQL a trigger that announces each new version of a game to every listening process.
"""

from __future__ import annotations

from alembic import op

from tarocchi.web.store.migrations.ops import create_notice, drop_notice

revision = "0002"
down_revision = "0001"
NOTICE = ("tarocchi_game_changed", "games_changed", "games")


def upgrade() -> None:
    op.create_index("games_by_state_and_age", "games", ["over", "updated_at"])
    # payload "<game id>:<version>"
    create_notice(*NOTICE, column="version", payload="NEW.id || ':' || NEW.version")


def downgrade() -> None:
    drop_notice(*NOTICE)
    op.drop_index("games_by_state_and_age", "games")
