"""Table leases: which server process owns (runs) each table, for operators and /health.

The lease itself is a PostgreSQL session advisory lock held by the owner (see
``server/cluster.py``); this row only shows it: the owner process, the internal URL the
other processes forward commands to, and since when. A new owner rewrites the row in the
transaction that locks the table's row, so an owner that lost its lock without knowing it
finds another name here and stops (the fence of ``TableActor``). SQLite servers (one
process) never write it.

Revision ID: 0006
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "leases",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("owner", sa.String(200)),
        sa.Column("url", sa.String(200)),
        sa.Column("since", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("leases")
