"""Meters: the gaming days closed, with their figures (append-only); indexes by time.

Revision ID: 0005
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meter_days",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("closed_at", sa.BigInteger, nullable=False),
        sa.Column("closed_by", sa.String(64), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("report", sa.Text, nullable=False),
    )
    # the meters read a table's journal and transactions by time (server/meters.py)
    op.create_index("journal_table_time", "journal", ["table_id", "created_at"])
    op.create_index("transactions_table_time", "transactions", ["table_id", "created_at"])
    # a closed day's figures never change: the database refuses UPDATE and DELETE
    if op.get_bind().dialect.name == "postgresql":
        op.execute(
            "CREATE TRIGGER meter_days_append_only BEFORE UPDATE OR DELETE ON meter_days "
            "FOR EACH ROW EXECUTE FUNCTION macau_append_only()"
        )
        op.execute(
            "CREATE TRIGGER meter_days_no_truncate BEFORE TRUNCATE ON meter_days "
            "FOR EACH STATEMENT EXECUTE FUNCTION macau_append_only()"
        )
    else:
        for what in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER meter_days_no_{what.lower()} BEFORE {what} ON meter_days "
                "BEGIN SELECT RAISE(ABORT, 'meter_days are append-only'); END"
            )


def downgrade() -> None:
    op.drop_table("meter_days")
    op.drop_index("transactions_table_time", "transactions")
    op.drop_index("journal_table_time", "journal")
