"""Snapshots: a table's state at a ``table.checkpoint`` entry of its journal.

The server checkpoints a table every so many entries (the state's SHA-256 in the chain,
the state itself here) and starts it from the latest safe snapshot and the entries after
it instead of re-running its whole journal: memory and start-up no longer grow with a
table's history (docs/server.md, "Snapshots").

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("table_id", sa.String, primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("state", sa.Text),
        sa.Column("created_at", sa.BigInteger),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
