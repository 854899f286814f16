"""The initial schema: tables, journal, double-entry ledger with holds, users, idempotency.

Money rules the database enforces by itself (whatever the code does):

* ``postings`` are append-only (triggers refuse UPDATE and DELETE), and so are
  ``transactions``, ``journal``, ``holds_opened`` and ``holds_closed``.
* A transaction is *sealed*: its postings are inserted first, then its ``transactions`` row,
  whose insert trigger refuses it unless the postings sum to zero and number
  ``n_postings``; a posting for an already sealed transaction is refused; the postings'
  foreign key to ``transactions`` is deferred, so a posting whose transaction is never
  sealed fails the commit.
* Wallets (``player:*``) and table stacks (``stack:*``) never go below zero (CHECK).
* A hold is opened once (primary key of ``holds_opened``) and closed once (primary key of
  ``holds_closed``, which references the opening).
* A table's journal has one entry per ``(table_id, seq)``.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

APPEND_ONLY = ("postings", "transactions", "journal", "holds_opened", "holds_closed")


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("lock_reason", sa.Text),
        sa.Column("header", sa.Text, nullable=False),
        sa.Column("head_seq", sa.BigInteger, nullable=False),
        sa.Column("head_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.CheckConstraint(
            "status IN ('open', 'paused', 'closed', 'locked')", name="tables_status"
        ),
    )
    op.create_table(
        "accounts",
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("currency", sa.String(3), nullable=False),
        sa.Column("balance", sa.BigInteger, nullable=False),
        sa.CheckConstraint(
            "kind NOT IN ('player', 'stack') OR balance >= 0", name="accounts_guarded"
        ),
    )
    op.create_table(
        "transactions",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id")),
        sa.Column("seq", sa.BigInteger),
        sa.Column("memo", sa.Text, nullable=False),
        sa.Column("n_postings", sa.Integer, nullable=False),
        sa.Column("by_user", sa.String(64)),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_index("transactions_table_seq", "transactions", ["table_id", "seq"])
    op.create_table(
        "postings",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column(
            "tx_id",
            sa.String(32),
            sa.ForeignKey("transactions.id", deferrable=True, initially="DEFERRED"),
            nullable=False,
        ),
        sa.Column("account", sa.String(200), sa.ForeignKey("accounts.name"), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.CheckConstraint("amount <> 0", name="postings_nonzero"),
    )
    op.create_index("postings_tx", "postings", ["tx_id"])
    op.create_index("postings_account", "postings", ["account"])
    op.create_table(
        "holds_opened",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("hold_id", sa.String(128), primary_key=True),
        sa.Column("tx_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "holds_closed",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("hold_id", sa.String(128), primary_key=True),
        sa.Column("tx_id", sa.String(32), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
        sa.ForeignKeyConstraint(
            ["table_id", "hold_id"], ["holds_opened.table_id", "holds_opened.hold_id"]
        ),
    )
    op.create_table(
        "journal",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("kind", sa.String(64), nullable=False),
        sa.Column("event", sa.Text, nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "seeds",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("commitment", sa.String(64), primary_key=True),
        sa.Column("label", sa.String(64), nullable=False),
        sa.Column("seed", sa.String(64), nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "users",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("active", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
        sa.CheckConstraint(
            "role IN ('player', 'dealer', 'cashier', 'supervisor', 'auditor')", name="users_role"
        ),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_name", sa.String(64), sa.ForeignKey("users.name"), nullable=False),
        sa.Column("expires_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "idempotency",
        sa.Column("user_name", sa.String(64), primary_key=True),
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("request_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.Integer, nullable=False),
        sa.Column("response", sa.Text, nullable=False),
        sa.Column("created_at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("user_name", sa.String(64), nullable=False),
        sa.Column("action", sa.String(64), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("data", sa.Text, nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        _postgresql_triggers()
    else:
        _sqlite_triggers()


def _sqlite_triggers() -> None:
    for table in (*APPEND_ONLY, "audit_log"):
        for what in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{what.lower()} BEFORE {what} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, '{table} are append-only'); END"
            )
    op.execute(
        "CREATE TRIGGER postings_unsealed BEFORE INSERT ON postings "
        "WHEN EXISTS (SELECT 1 FROM transactions WHERE id = NEW.tx_id) "
        "BEGIN SELECT RAISE(ABORT, 'transaction already sealed'); END"
    )
    op.execute(
        "CREATE TRIGGER transactions_balanced BEFORE INSERT ON transactions "
        "WHEN (SELECT COALESCE(SUM(amount), 0) FROM postings WHERE tx_id = NEW.id) <> 0 "
        "OR (SELECT COUNT(*) FROM postings WHERE tx_id = NEW.id) <> NEW.n_postings "
        "BEGIN SELECT RAISE(ABORT, 'unbalanced transaction: postings do not sum to zero'); END"
    )


def _postgresql_triggers() -> None:
    op.execute(
        "CREATE FUNCTION macau_append_only() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN RAISE EXCEPTION '% are append-only', TG_TABLE_NAME; END $$"
    )
    for table in (*APPEND_ONLY, "audit_log"):
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION macau_append_only()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION macau_append_only()"
        )
    op.execute(
        "CREATE FUNCTION macau_posting_unsealed() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN IF EXISTS (SELECT 1 FROM transactions WHERE id = NEW.tx_id) THEN "
        "RAISE EXCEPTION 'transaction already sealed'; END IF; RETURN NEW; END $$"
    )
    op.execute(
        "CREATE TRIGGER postings_unsealed BEFORE INSERT ON postings "
        "FOR EACH ROW EXECUTE FUNCTION macau_posting_unsealed()"
    )
    op.execute(
        "CREATE FUNCTION macau_tx_balanced() RETURNS trigger LANGUAGE plpgsql AS $$ "
        "BEGIN IF (SELECT COALESCE(SUM(amount), 0) FROM postings WHERE tx_id = NEW.id) <> 0 "
        "OR (SELECT COUNT(*) FROM postings WHERE tx_id = NEW.id) <> NEW.n_postings THEN "
        "RAISE EXCEPTION 'unbalanced transaction: postings do not sum to zero'; END IF; "
        "RETURN NEW; END $$"
    )
    op.execute(
        "CREATE TRIGGER transactions_balanced BEFORE INSERT ON transactions "
        "FOR EACH ROW EXECUTE FUNCTION macau_tx_balanced()"
    )


def downgrade() -> None:
    for table in (
        "audit_log",
        "idempotency",
        "tokens",
        "users",
        "seeds",
        "journal",
        "holds_closed",
        "holds_opened",
        "postings",
        "transactions",
        "accounts",
        "tables",
    ):
        op.drop_table(table)
