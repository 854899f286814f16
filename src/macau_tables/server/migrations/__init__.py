"""Alembic migrations of the server's schema (the only way the schema is created)."""
