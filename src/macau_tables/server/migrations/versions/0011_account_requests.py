"""Account requests: an administrator asks to disable an account, to enable it again or to
set a new password for it; a second administrator approves or rejects (CHECK: not the one
who asked), once.

``password_hash`` holds the new password's argon2 hash while a password request waits; it
is cleared when the request is decided (approved: it became the account's).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer, "sqlite")


def upgrade() -> None:
    op.create_table(
        "account_requests",
        sa.Column("id", _ID, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(16), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("password_hash", sa.Text),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.BigInteger, nullable=False),
        sa.Column("decision", sa.String(16)),
        sa.Column("decided_by", sa.String(64)),
        sa.Column("decided_at", sa.BigInteger),
        sa.Column("decision_reason", sa.Text),
        sa.CheckConstraint(
            "action IN ('disable', 'enable', 'password')", name="account_request_action"
        ),
        sa.CheckConstraint("decision IN ('approved', 'rejected')", name="account_request_decision"),
        sa.CheckConstraint("decided_by <> requested_by", name="account_request_second_person"),
    )
    op.create_index("account_requests_name", "account_requests", ["name"])


def downgrade() -> None:
    op.drop_index("account_requests_name", "account_requests")
    op.drop_table("account_requests")
