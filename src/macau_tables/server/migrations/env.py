"""Alembic environment: runs on the connection the server hands over (online only)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - alembic CLI use
    engine = sa.create_engine(config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as conn:
        context.configure(connection=conn, target_metadata=None)
        context.run_migrations()
else:
    context.configure(connection=connection, target_metadata=None)
    context.run_migrations()
