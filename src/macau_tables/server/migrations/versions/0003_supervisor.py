"""The supervisor's records: requests (void, correct) and their decisions, disputes (a
frozen round with its evidence) and their resolutions. All append-only, like the ledger.

* A request has at most one decision: the primary key of ``supervisor_decisions`` is the
  request's id, so a second approval (or an approval after a rejection) is refused by the
  database; the decider must differ from the requester (CHECK).
* A dispute has at most one resolution (primary key of ``dispute_resolutions``).

Revision ID: 0003
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0001"
branch_labels = None
depends_on = None

TABLES = ("supervisor_requests", "supervisor_decisions", "disputes", "dispute_resolutions")
_ID = sa.BigInteger().with_variant(sa.Integer, "sqlite")


def upgrade() -> None:
    op.create_table(
        "supervisor_requests",
        sa.Column("id", _ID, primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("args", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.BigInteger, nullable=False),
        sa.Column("table_seq", sa.BigInteger, nullable=False),
        sa.CheckConstraint("action IN ('void', 'correct')", name="request_action"),
    )
    op.create_table(
        "supervisor_decisions",
        sa.Column("request_id", _ID, sa.ForeignKey("supervisor_requests.id"), primary_key=True),
        sa.Column("decision", sa.String(16), nullable=False),
        sa.Column("decided_by", sa.String(64), nullable=False),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("decided_at", sa.BigInteger, nullable=False),
        sa.Column("seq", sa.BigInteger),
        sa.CheckConstraint("decision IN ('approved', 'rejected')", name="decision_kind"),
        sa.CheckConstraint("decided_by <> requested_by", name="second_supervisor"),
    )
    op.create_table(
        "disputes",
        sa.Column("id", _ID, primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("evidence", sa.Text, nullable=False),
        sa.Column("seqs", sa.Text, nullable=False),
        sa.Column("opened_by", sa.String(64), nullable=False),
        sa.Column("opened_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "dispute_resolutions",
        sa.Column("dispute_id", _ID, sa.ForeignKey("disputes.id"), primary_key=True),
        sa.Column("how", sa.String(16), nullable=False),
        sa.Column("resolved_by", sa.String(64), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("request_id", _ID),
        sa.Column("resolved_at", sa.BigInteger, nullable=False),
        sa.CheckConstraint("how IN ('void', 'correct', 'release')", name="resolution_kind"),
    )
    if op.get_bind().dialect.name == "postgresql":
        for table in TABLES:
            op.execute(
                f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
                "FOR EACH ROW EXECUTE FUNCTION macau_append_only()"
            )
    else:
        for table in TABLES:
            for what in ("UPDATE", "DELETE"):
                op.execute(
                    f"CREATE TRIGGER {table}_no_{what.lower()} BEFORE {what} ON {table} "
                    f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
                )


def downgrade() -> None:
    for table in reversed(TABLES):
        op.drop_table(table)
