"""Alembic's migrations of the games database (run by Store.upgrade, never by hand)."""
