"""Alembic's environment: migrate the connection Store.upgrade hands over, in its transaction."""

from __future__ import annotations

from alembic import context

context.configure(connection=context.config.attributes["connection"], render_as_batch=True)
with context.begin_transaction():
    context.run_migrations()
