"""What the database refuses by itself, whatever the code does (SQLite and PostgreSQL)."""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import DBAPIError

from macau_tables.server.db import LoopCommitter
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


def _wal_after(
    path: str,
    batches: int,
    rows: int = 8,
    *,
    reader_at: int = -1,
    after: int = 1,
    reader_stays: bool = False,
) -> tuple[LoopCommitter, int, int]:
    """``batches`` group commits one after another, each of ``rows`` rows of ~4 KB (about a
    page each), then a checkpoint as the checkpointer's thread runs it — with a reader
    still in the snapshot it took after batch ``reader_at``, so that the checkpoint can
    copy only what that reader sees, as a checkpoint running beside batches always finds
    frames it cannot copy yet — then, the reader gone (or still there: ``reader_stays``),
    ``after`` batches more. Returns the
    committer, the WAL's length in pages at the end and the committer's connection's
    ``wal_autocheckpoint``."""
    import asyncio
    import sqlite3

    from macau_tables.server.db import Database

    db = Database(path)
    assert db.group is not None
    group = db.group
    reader = sqlite3.connect(path, isolation_level=None)
    try:
        db.write_sync(ex("CREATE TABLE t (v BLOB)"))

        def unit(c: Connection) -> None:
            for _ in range(rows):
                c.execute(sa.text("INSERT INTO t VALUES (randomblob(4000))"))

        async def go() -> None:
            for i in range(batches):
                await db.write(unit)
                if i == reader_at:
                    reader.execute("BEGIN")
                    reader.execute("SELECT count(*) FROM t").fetchone()
            if reader_at >= 0:
                group.checkpoint()
                if not reader_stays:
                    reader.execute("COMMIT")
                for _ in range(after):
                    await db.write(unit)
                if reader_stays:
                    reader.execute("COMMIT")

        asyncio.run(go())
        if group.checkpointing is not None:
            group.checkpointing.result()  # the background one still running, if any
        assert group.conn is not None
        raw = group.conn.connection.dbapi_connection
        assert raw is not None
        auto = int(raw.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
        busy, frames, _ = reader.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        assert busy == 0, (busy, frames)
        return group, int(frames), auto
    finally:
        reader.close()
        db.close()


@pytest.mark.parametrize("restart", [64, 10**9])
def test_the_group_commit_leaves_the_wal_to_a_checkpointer_and_starts_it_over_when_long(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch, restart: int
) -> None:
    """A batch's commit does not checkpoint the WAL (the committer's connection does
    only past WAL_AUTOCHECKPOINT pages): the checkpointer's thread does. SQLite starts the
    WAL over only at a transaction that began with every frame copied, which checkpoints
    running beside the batches never achieve; so once a checkpoint found the WAL
    ``WAL_RESTART`` pages long, the next batch first awaits a checkpoint of everything,
    and its commit starts the WAL over: the WAL is then that one batch. With no restart
    due, it keeps every batch. (Background checkpoints held back but for the first.)"""
    from pathlib import Path

    from macau_tables.server import db as dbmod

    monkeypatch.setattr(dbmod, "WAL_RESTART", restart)
    monkeypatch.setattr(dbmod, "CHECKPOINT_EVERY", 1e9)
    group, frames, auto = _wal_after(str(Path(str(tmp_path)) / "w.db"), 50, reader_at=25)
    assert auto == dbmod.WAL_AUTOCHECKPOINT > 1_000
    if restart == 64:
        assert group.restarts == 1 and frames <= 12, (group.restarts, frames)
        assert group.restart_wait > 0
    else:
        assert group.restarts == 0 and frames >= 51 * 8, (group.restarts, frames)
        assert group.restart_wait == 0


def test_a_reader_in_an_old_snapshot_does_not_make_every_batch_wait_for_a_checkpoint(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a reader keeps a snapshot older than the WAL's end, no checkpoint can copy
    everything: the first batch tries once, and the batches after it go on without
    awaiting another until CHECKPOINT_EVERY has passed."""
    from pathlib import Path

    from macau_tables.server import db as dbmod

    monkeypatch.setattr(dbmod, "WAL_RESTART", 64)
    monkeypatch.setattr(dbmod, "CHECKPOINT_EVERY", 1e9)
    group, frames, _ = _wal_after(
        str(Path(str(tmp_path)) / "r.db"), 50, reader_at=25, after=5, reader_stays=True
    )
    # the first background one, the explicit one, one try before the first batch after
    assert (group.checkpoints, group.restarts) == (3, 0)
    assert frames >= 55 * 8


def test_the_checkpointer_copies_the_wal_while_batches_go_on(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With no restart due, the checkpointer's thread still copies the WAL into the
    database file after batches (PASSIVE: no lock a writer needs), at most once per
    CHECKPOINT_EVERY."""
    from pathlib import Path

    from macau_tables.server import db as dbmod

    monkeypatch.setattr(dbmod, "WAL_RESTART", 10**9)
    monkeypatch.setattr(dbmod, "CHECKPOINT_EVERY", 0.0)
    group, _, _ = _wal_after(str(Path(str(tmp_path)) / "c.db"), 40, rows=4)
    assert group.restarts == 0
    assert group.checkpoints >= 2 and group.wal_backfilled > 0, vars(group)


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


def test_postings_are_indexed_by_transaction_only(srv: Srv) -> None:
    """Postings are reached through their transaction (recall, meters) or summed over the
    whole table (the start-up check); an index on their account (dropped by migration
    0007) only cost every bet's group commit more pages."""
    names = srv.floor.db.read_sync(
        lambda c: sorted(str(ix["name"]) for ix in sa.inspect(c).get_indexes("postings"))
    )
    assert names == ["postings_tx"]


def test_a_worker_exits_when_its_parent_is_gone() -> None:
    """``store.exit_with_parent``, the background checks' worker initializer: the worker is
    a fork server's child, not the server's (``store.worker_context``), so it watches the
    server's pid itself. A worker whose server is already gone exits at once; one whose
    server dies later (a server killed with ``kill -9``) exits right after it, though that
    process is not its parent; with its server alive it stays."""
    import subprocess
    import sys
    import time

    code = (
        "import sys, time; from macau_tables.server.store import exit_with_parent; "
        "exit_with_parent(int(sys.argv[1])); time.sleep(30)"
    )
    gone_pid = subprocess.Popen([sys.executable, "-c", "pass"])
    gone_pid.wait()
    started = time.monotonic()
    gone = subprocess.run([sys.executable, "-c", code, str(gone_pid.pid)], timeout=20, check=False)
    assert gone.returncode == 0 and time.monotonic() - started < 15

    server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(4)"])
    worker = subprocess.Popen([sys.executable, "-c", code, str(server.pid)])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            worker.wait(timeout=1.5)  # its "server" still runs
        server.kill()  # not the worker's parent: the worker sees it by its pidfd
        assert worker.wait(timeout=10) == 0
    finally:
        for p in (server, worker):
            p.kill()
            p.wait()

    stays = subprocess.Popen([sys.executable, "-c", code, str(os.getpid())])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            stays.wait(timeout=3)
    finally:
        stays.kill()
        stays.wait()


def test_the_checks_worker_is_a_fork_of_a_fork_server() -> None:
    """The background checks' worker (``Floor._worker``) is forked from a fork server
    that has the checks loaded, not a new interpreter for each floor that starts."""
    from concurrent.futures import ProcessPoolExecutor

    from macau_tables.server import store as st

    ctx = st.worker_context()
    assert ctx.get_start_method() == "forkserver"
    with ProcessPoolExecutor(
        1, mp_context=ctx, initializer=st.exit_with_parent, initargs=(os.getpid(),)
    ) as pool:
        assert pool.submit(os.getppid).result(timeout=60) != os.getpid()
