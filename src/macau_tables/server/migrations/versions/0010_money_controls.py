"""Money controls: the administrator, staff accounts approved by a second person, the
cage's fills, frozen accounts.

* ``users``: the ``administrator`` role; who created an account (``created_by``) and who
  approved it and when (``approved_by``, ``approved_at``; NULL: not approved, the account
  cannot log in). The accounts there already count as approved when they were created.
* ``cage_fills``: a transfer into the cage from the vault, asked for by one person and
  approved by another (CHECK), at most one decision each.
* ``frozen_accounts``: an account whose cached balance did not match its postings, frozen
  for every money path until a supervisor resolves it (with the reason, who and when).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_ID = sa.BigInteger().with_variant(sa.Integer, "sqlite")
OLD_ROLES = "'player', 'dealer', 'cashier', 'supervisor', 'auditor'"
NEW_ROLES = OLD_ROLES + ", 'administrator'"


def _roles(old: str, new: str) -> None:
    bind = op.get_bind()
    if bind.dialect.name == "postgresql":
        op.drop_constraint("users_role", "users", type_="check")
        op.create_check_constraint("users_role", "users", f"role IN ({new})")
        return
    # SQLite alters no CHECK: the table's definition is rewritten in place (SQLite's own
    # procedure, "ALTER TABLE", section 7) — a copy of the table would first have to
    # delete its rows, which the tokens and the meters' closes refer to
    version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema=ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'users'",
        (f"role IN ({old})", f"role IN ({new})"),
    )
    bind.exec_driver_sql(f"PRAGMA schema_version={int(version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema=OFF")


def upgrade() -> None:
    _roles(OLD_ROLES, NEW_ROLES)
    op.add_column("users", sa.Column("created_by", sa.String(64)))
    op.add_column("users", sa.Column("approved_by", sa.String(64)))
    op.add_column("users", sa.Column("approved_at", sa.BigInteger))
    op.execute("UPDATE users SET approved_at = created_at")
    op.create_table(
        "cage_fills",
        sa.Column("id", _ID, primary_key=True),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("requested_by", sa.String(64), nullable=False),
        sa.Column("requested_at", sa.BigInteger, nullable=False),
        sa.Column("decision", sa.String(16)),
        sa.Column("decided_by", sa.String(64)),
        sa.Column("decided_at", sa.BigInteger),
        sa.Column("decision_reason", sa.Text),
        sa.Column("tx_id", sa.String(64)),
        sa.CheckConstraint("amount > 0", name="fill_amount"),
        sa.CheckConstraint("decision IN ('approved', 'rejected')", name="fill_decision"),
        sa.CheckConstraint("decided_by <> requested_by", name="fill_second_person"),
    )
    op.create_table(
        "frozen_accounts",
        sa.Column("id", _ID, primary_key=True),
        sa.Column("account", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("cached", sa.BigInteger, nullable=False),
        sa.Column("posted", sa.BigInteger, nullable=False),
        sa.Column("frozen_at", sa.BigInteger, nullable=False),
        sa.Column("resolved_by", sa.String(64)),
        sa.Column("resolution", sa.Text),
        sa.Column("resolved_at", sa.BigInteger),
    )
    op.create_index("frozen_accounts_account", "frozen_accounts", ["account"])


def downgrade() -> None:
    op.drop_index("frozen_accounts_account", "frozen_accounts")
    op.drop_table("frozen_accounts")
    op.drop_table("cage_fills")
    op.drop_column("users", "approved_at")
    op.drop_column("users", "approved_by")
    op.drop_column("users", "created_by")
    # (an administrator's account left would fail the old CHECK: remove them first)
    _roles(NEW_ROLES, OLD_ROLES)
