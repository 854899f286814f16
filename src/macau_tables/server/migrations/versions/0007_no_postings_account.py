"""No index on ``postings.account``.

Nothing looks postings up by account: the start-up check sums them per account over the
whole table (a scan either way) and the meters and recall reach postings through their
transaction (``postings_tx``). The index cost every bet two more B-tree insertions, each on
a page of its own (one per player's stack), in every group commit's WAL: at a thousand
bets a second the index's pages were among the 6–8 pages a bet adds to the WAL
(measured in the server benchmark). An account statement, if one is added, would want an index
on ``(account, id)``.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("postings_account", "postings")


def downgrade() -> None:
    op.create_index("postings_account", "postings", ["account"])
