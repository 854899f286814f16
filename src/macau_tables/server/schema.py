"""The database's schema, once: every table of the server as SQLAlchemy Core, from which
the statements are built (server/store.py and the modules that read or write), and which
the migrations (server/migrations/) produce exactly — ``tests/server/test_schema.py``
compares the two on SQLite and on PostgreSQL. What Core does not describe is the
migrations' alone: the triggers that keep the ledger and the journal append-only and seal
a transaction (0001), and PostgreSQL's own index methods.

An index made on one database only says so in its ``info["dialects"]``. A change of the
schema is a new migration and the same change here."""

from __future__ import annotations

import sqlalchemy as sa

md = sa.MetaData()

tables_t = sa.Table(
    "tables",
    md,
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
    sa.CheckConstraint("status IN ('open', 'paused', 'closed', 'locked')", name="tables_status"),
)
accounts_t = sa.Table(
    "accounts",
    md,
    sa.Column("name", sa.String(200), primary_key=True),
    sa.Column("kind", sa.String(32), nullable=False),
    sa.Column("currency", sa.String(3), nullable=False),
    sa.Column("balance", sa.BigInteger, nullable=False),
    sa.CheckConstraint("kind NOT IN ('player', 'stack') OR balance >= 0", name="accounts_guarded"),
)
transactions_t = sa.Table(
    "transactions",
    md,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id")),
    sa.Column("seq", sa.BigInteger),
    sa.Column("memo", sa.Text, nullable=False),
    sa.Column("n_postings", sa.Integer, nullable=False),
    sa.Column("by_user", sa.String(64)),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Index("transactions_table_seq", "table_id", "seq"),
    sa.Index("transactions_table_time", "table_id", "created_at"),
)
postings_t = sa.Table(
    "postings",
    md,
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
    sa.Index("postings_tx", "tx_id"),
)
holds_opened_t = sa.Table(
    "holds_opened",
    md,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("hold_id", sa.String(128), primary_key=True),
    sa.Column("tx_id", sa.String(32), nullable=False),
    sa.Column("seq", sa.BigInteger, nullable=False),
)
holds_closed_t = sa.Table(
    "holds_closed",
    md,
    sa.Column("table_id", sa.String(64), primary_key=True),
    sa.Column("hold_id", sa.String(128), primary_key=True),
    sa.Column("tx_id", sa.String(32), nullable=False),
    sa.Column("seq", sa.BigInteger, nullable=False),
    sa.ForeignKeyConstraint(
        ["table_id", "hold_id"], ["holds_opened.table_id", "holds_opened.hold_id"]
    ),
)
journal_t = sa.Table(
    "journal",
    md,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("seq", sa.BigInteger, primary_key=True),
    sa.Column("kind", sa.String(64), nullable=False),
    sa.Column("event", sa.Text, nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Index("journal_table_time", "table_id", "created_at"),
)
seeds_t = sa.Table(
    "seeds",
    md,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("commitment", sa.String(64), primary_key=True),
    sa.Column("label", sa.String(64), nullable=False),
    sa.Column("seed", sa.String(64), nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
)
#: a table's state at a ``table.checkpoint`` entry (``seq``), as ``core.snapshot`` writes
#: it: the table starts from the latest safe one instead of from its first entry (the
#: entry's digest authenticates it when the table is replayed from there)
snapshots_t = sa.Table(
    "snapshots",
    md,
    sa.Column("table_id", sa.String, primary_key=True),
    sa.Column("seq", sa.BigInteger, primary_key=True),
    sa.Column("state", sa.Text),
    sa.Column("created_at", sa.BigInteger),
)
users_t = sa.Table(
    "users",
    md,
    sa.Column("name", sa.String(64), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("password_hash", sa.Text, nullable=False),
    sa.Column("active", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    sa.Column("created_by", sa.String(64)),
    sa.Column("approved_by", sa.String(64)),
    sa.Column("approved_at", sa.BigInteger),
    sa.CheckConstraint(
        "role IN ('player', 'dealer', 'cashier', 'supervisor', 'auditor', 'administrator')",
        name="users_role",
    ),
)
tokens_t = sa.Table(
    "tokens",
    md,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("user_name", sa.String(64), sa.ForeignKey("users.name"), nullable=False),
    sa.Column("expires_at", sa.BigInteger, nullable=False),
)
idempotency_t = sa.Table(
    "idempotency",
    md,
    sa.Column("user_name", sa.String(64), primary_key=True),
    sa.Column("key", sa.String(200), primary_key=True),
    sa.Column("request_hash", sa.String(64), nullable=False),
    sa.Column("status", sa.Integer, nullable=False),
    sa.Column("response", sa.Text, nullable=False),
    sa.Column("created_at", sa.BigInteger, nullable=False),
    # PostgreSQL only (0009): old records found by age; SQLite finds them in rowid order
    sa.Index("idempotency_created", "created_at", info={"dialects": ("postgresql",)}),
)
audit_t = sa.Table(
    "audit_log",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Column("user_name", sa.String(64), nullable=False),
    sa.Column("action", sa.String(64), nullable=False),
    sa.Column("target", sa.String(200), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("data", sa.Text, nullable=False),
)
# --- meters and the gaming-day close (migration 0005) -----------------------------------
meter_days_t = sa.Table(
    "meter_days",
    md,
    sa.Column("day", sa.String(10), primary_key=True),
    sa.Column("closed_at", sa.BigInteger, nullable=False),
    sa.Column("closed_by", sa.String(64), sa.ForeignKey("users.name"), nullable=False),
    sa.Column("report", sa.Text, nullable=False),
)
# --- several server processes: table leases (0006); owner None: released ---------------
leases_t = sa.Table(
    "leases",
    md,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("owner", sa.String(200)),
    sa.Column("url", sa.String(200)),
    sa.Column("since", sa.BigInteger, nullable=False),
)
# --- the supervisor's records (migration 0003): requests, decisions, disputes -----------
requests_t = sa.Table(
    "supervisor_requests",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("action", sa.String(16), nullable=False),
    sa.Column("args", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("requested_by", sa.String(64), nullable=False),
    sa.Column("requested_at", sa.BigInteger, nullable=False),
    sa.Column("table_seq", sa.BigInteger, nullable=False),
    sa.CheckConstraint("action IN ('void', 'correct')", name="request_action"),
)
decisions_t = sa.Table(
    "supervisor_decisions",
    md,
    sa.Column(
        "request_id",
        sa.BigInteger().with_variant(sa.Integer, "sqlite"),
        sa.ForeignKey("supervisor_requests.id"),
        primary_key=True,
    ),
    sa.Column("decision", sa.String(16), nullable=False),
    sa.Column("decided_by", sa.String(64), nullable=False),
    sa.Column("requested_by", sa.String(64), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("decided_at", sa.BigInteger, nullable=False),
    sa.Column("seq", sa.BigInteger),
    sa.CheckConstraint("decision IN ('approved', 'rejected')", name="decision_kind"),
    sa.CheckConstraint("decided_by <> requested_by", name="second_supervisor"),
)
disputes_t = sa.Table(
    "disputes",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    sa.Column("note", sa.Text, nullable=False),
    sa.Column("evidence", sa.Text, nullable=False),
    sa.Column("seqs", sa.Text, nullable=False),
    sa.Column("opened_by", sa.String(64), nullable=False),
    sa.Column("opened_at", sa.BigInteger, nullable=False),
)
resolutions_t = sa.Table(
    "dispute_resolutions",
    md,
    sa.Column(
        "dispute_id",
        sa.BigInteger().with_variant(sa.Integer, "sqlite"),
        sa.ForeignKey("disputes.id"),
        primary_key=True,
    ),
    sa.Column("how", sa.String(16), nullable=False),
    sa.Column("resolved_by", sa.String(64), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("request_id", sa.BigInteger().with_variant(sa.Integer, "sqlite")),
    sa.Column("resolved_at", sa.BigInteger, nullable=False),
    sa.CheckConstraint("how IN ('void', 'correct', 'release')", name="resolution_kind"),
)
# --- money controls (migration 0010): the cage's fills, frozen accounts -----------------
cage_fills_t = sa.Table(
    "cage_fills",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
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
#: (migration 0011) an administrator's request about an account — ``disable`` it, ``enable``
#: it again, or a new ``password`` (its hash kept until decided) — which a second
#: administrator approves or rejects (server/controls.py)
account_requests_t = sa.Table(
    "account_requests",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
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
    sa.Index("account_requests_name", "name"),
)
frozen_accounts_t = sa.Table(
    "frozen_accounts",
    md,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("account", sa.String(200), nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("cached", sa.BigInteger, nullable=False),
    sa.Column("posted", sa.BigInteger, nullable=False),
    sa.Column("frozen_at", sa.BigInteger, nullable=False),
    sa.Column("resolved_by", sa.String(64)),
    sa.Column("resolution", sa.Text),
    sa.Column("resolved_at", sa.BigInteger),
    sa.Index("frozen_accounts_account", "account"),
)
