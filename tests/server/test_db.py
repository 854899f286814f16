"""What the database refuses by itself, whatever the code does (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from tests.server.conftest import Srv


def refused(srv: Srv, fn: Callable[[Connection], object]) -> None:
    with pytest.raises(DBAPIError):
        srv.floor.db.write_sync(fn)


def ex(sql: str) -> Callable[[Connection], object]:
    return lambda c: c.execute(sa.text(sql))


def test_postings_journal_and_holds_are_append_only(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 5_000})
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 500})
    refused(srv, ex("UPDATE postings SET amount = amount + 1"))
    refused(srv, ex("DELETE FROM postings"))
    refused(srv, ex("UPDATE transactions SET memo = 'x'"))
    refused(srv, ex("DELETE FROM journal WHERE seq = 0"))
    refused(srv, ex("UPDATE journal SET kind = 'x'"))
    refused(srv, ex("DELETE FROM holds_opened"))


def test_an_unbalanced_or_unsealed_transaction_cannot_commit(srv: Srv) -> None:
    def unbalanced(c: Connection) -> None:
        c.execute(sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t1', 'cage', 5)"))
        c.execute(
            sa.text(
                "INSERT INTO transactions (id, memo, n_postings, created_at) "
                "VALUES ('t1', 'x', 1, 0)"
            )
        )

    refused(srv, unbalanced)

    def unsealed(c: Connection) -> None:  # postings whose transaction row never comes
        c.execute(sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t2', 'cage', 5)"))
        c.execute(
            sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t2', 'cage', -5)")
        )

    refused(srv, unsealed)

    def sealed_then_more(c: Connection) -> None:
        c.execute(sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t3', 'cage', 5)"))
        c.execute(
            sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t3', 'cage', -5)")
        )
        c.execute(
            sa.text(
                "INSERT INTO transactions (id, memo, n_postings, created_at) "
                "VALUES ('t3', 'x', 2, 0)"
            )
        )
        c.execute(sa.text("INSERT INTO postings (tx_id, account, amount) VALUES ('t3', 'cage', 7)"))

    refused(srv, sealed_then_more)


def test_a_wallet_cannot_go_negative_and_a_hold_closes_once(srv: Srv) -> None:
    refused(srv, ex("UPDATE accounts SET balance = -1 WHERE name = 'player:alice'"))
    srv.ok("alice", "hilo-1", "join", {"amount": 5_000})
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 500})
    srv.ok("alice", "hilo-1", "withdraw", {"bet_id": "b0"})
    refused(
        srv,
        ex(
            "INSERT INTO holds_closed (table_id, hold_id, tx_id, seq) "
            "VALUES ('hilo-1', 'b0', 'again', 99)"
        ),
    )
    refused(
        srv,
        ex(
            "INSERT INTO holds_opened (table_id, hold_id, tx_id, seq) "
            "VALUES ('hilo-1', 'b0', 'again', 99)"
        ),
    )
    refused(
        srv,
        ex(
            "INSERT INTO holds_closed (table_id, hold_id, tx_id, seq) "
            "VALUES ('hilo-1', 'never', 'x', 99)"
        ),
    )
    refused(
        srv,
        ex(
            "INSERT INTO journal (table_id, seq, kind, event, prev_hash, hash, created_at) "
            "VALUES ('hilo-1', 0, 'x', '{}', '', '', 0)"
        ),
    )


def test_group_commit_rolls_back_a_failed_unit_alone(tmp_path: object) -> None:
    """SQLite's group commit runs the units of one batch in one transaction, each in its
    own savepoint: a unit that wrote and then failed leaves nothing; its neighbours in the
    batch commit."""
    import asyncio
    from pathlib import Path

    from macau_tables.server.db import Database

    db = Database(str(Path(str(tmp_path)) / "g.db"))
    assert db.group is not None
    try:
        db.write_sync(ex("CREATE TABLE t (v INTEGER)"))

        def ok(v: int) -> Callable[[Connection], int]:
            def unit(c: Connection) -> int:
                c.execute(sa.text("INSERT INTO t VALUES (:v)"), {"v": v})
                return v

            return unit

        def bad(c: Connection) -> int:
            c.execute(sa.text("INSERT INTO t VALUES (99)"))
            raise ValueError("refused after writing")

        async def batch() -> list[object]:
            return await asyncio.gather(
                db.write(ok(1)), db.write(bad), db.write(ok(2)), return_exceptions=True
            )

        results = asyncio.run(batch())
        assert results[0] == 1 and results[2] == 2
        assert isinstance(results[1], ValueError)
        assert db.group.batches == 1  # the three units were one transaction
        rows = db.read_sync(lambda c: sorted(r[0] for r in c.execute(sa.text("SELECT v FROM t"))))
        assert rows == [1, 2]
    finally:
        db.close()


def test_postgresql_group_commit_and_queued_writes() -> None:
    """PostgreSQL's group commit (PgCommitter): the table commands waiting run in one
    transaction, each in its own savepoint; the writes store.run queues go to the server
    before any other statement (a read sees them) and at the unit's end — a queued write
    that the database refuses fails its own unit alone, which leaves nothing."""
    import asyncio

    from macau_tables.server import store
    from macau_tables.server.db import Database
    from tests.server.pg import new_database

    db = Database(new_database(), pg_batches=1)
    assert db.pg_group is not None
    try:
        db.write_sync(ex("CREATE TABLE t (v INTEGER PRIMARY KEY)"))

        def ok(v: int) -> Callable[[Connection], int]:
            def unit(c: Connection) -> int:
                store.defer(c, f"INSERT INTO t VALUES ({v})")  # queued, not yet sent
                seen = c.execute(sa.text("SELECT count(*) FROM t WHERE v = :v"), {"v": v})
                return int(seen.scalar_one())  # 1: the queued write went first

            return unit

        def bad(c: Connection) -> int:
            c.execute(sa.text("INSERT INTO t VALUES (99)"))
            raise ValueError("refused after writing")

        def dup(c: Connection) -> int:
            store.defer(c, "INSERT INTO t VALUES (98)")
            store.defer(c, "INSERT INTO t VALUES (1)")  # unit ok(1)'s row: refused at the end
            return 0

        async def batch() -> list[object]:
            return await asyncio.gather(
                *(db.write(u, batch=True) for u in (ok(1), bad, ok(2), dup, ok(3))),
                return_exceptions=True,
            )

        results = asyncio.run(batch())
        assert results[0] == results[2] == results[4] == 1
        assert isinstance(results[1], ValueError)
        assert isinstance(results[3], BaseException) and store.is_integrity_error(results[3])
        assert db.pg_group.batches == 1  # the five units were one transaction
        rows = db.read_sync(lambda c: sorted(r[0] for r in c.execute(sa.text("SELECT v FROM t"))))
        assert rows == [1, 2, 3]
    finally:
        db.close()


def test_one_commands_movements_are_checked_together_and_their_balances_written_once(
    srv: Srv,
) -> None:
    """A command's movements (``store.post(..., balances=…)``) add their balance changes
    up and write them once (``store.add_balances``): each check of a stack counts what the
    command's earlier movements took from it, and the balances end as the postings say."""
    from macau_tables.core.errors import InsufficientFunds
    from macau_tables.core.ledger import Movement, Transaction
    from macau_tables.core.money import MOP, Money
    from macau_tables.server import store

    srv.ok("alice", "hilo-1", "join", {"amount": 5_000})
    stack, wagers = "stack:hilo-1:alice", "wagers:hilo-1"

    def take(amount: int) -> Movement:
        return Movement(Transaction.transfer(stack, wagers, Money(amount, MOP), "test"))

    def balance(c: Connection, name: str) -> int:
        return int(
            c.execute(sa.text(f"SELECT balance FROM accounts WHERE name = '{name}'")).one()[0]
        )

    def two_takes(c: Connection) -> None:
        pending: dict[str, int] = {}
        store.post(c, srv.floor.accounts, take(3_000), table_id="hilo-1", balances=pending)
        assert pending == {stack: -3_000, wagers: 3_000}
        assert balance(c, stack) == 5_000  # not written yet
        # 3,000 of the 5,000 are taken by this command already: 3,000 more are refused
        with pytest.raises(InsufficientFunds):
            store.post(c, srv.floor.accounts, take(3_000), table_id="hilo-1", balances=pending)
        store.post(c, srv.floor.accounts, take(2_000), table_id="hilo-1", balances=pending)
        store.add_balances(c, pending)
        assert balance(c, stack) == 0
        assert balance(c, wagers) == 5_000

    srv.floor.db.write_sync(two_takes)
    audit = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert audit["ok"], audit
