"""Idempotency records by age (PostgreSQL): an index on ``created_at``, so that the records
older than the retention window (``serve --idempotency-hours``) are found and deleted a few
hundred at a time without a scan of the table (``store.prune_idempotency``).

SQLite needs none: its records are found in ``rowid`` order, the order they were written
in, and each insert stays one index cheaper on the group commit's path.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.create_index("idempotency_created", "idempotency", ["created_at"])


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_index("idempotency_created", "idempotency")
