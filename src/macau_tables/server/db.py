"""The database: SQLite (embedded, the default) or PostgreSQL, through SQLAlchemy 2.

* SQLite: WAL, ``synchronous=FULL``, foreign keys on, ``BEGIN IMMEDIATE`` for every write
  (a separate reader engine uses plain deferred ``BEGIN``), with **group commit**
  (:class:`LoopCommitter`): every unit of work waiting (commands of different tables)
  runs inside one ``BEGIN IMMEDIATE`` transaction, committed once — one fsync for many
  commands. The units' writes wait and are executed together at the end of the batch
  (``store.WriteBatch``); a unit that fails is undone alone (its waiting writes dropped,
  its own SAVEPOINT rolled back if it had to run a statement at once); no reply is sent
  before the commit, so each command is still atomic and durable when it is
  acknowledged. The WAL is checkpointed in a thread of its own
  (:meth:`LoopCommitter.checkpoint`), not inside a batch's commit. One server process
  per file (:class:`ServerLock`): a second one is refused before it writes anything.
* PostgreSQL (``postgresql+psycopg://…``): READ COMMITTED with row locks — a table's
  command first locks its ``tables`` row (``SELECT … FOR UPDATE``), so one writer per table
  even across processes; serialization failures and deadlocks (40001, 40P01) are retried.
  The tables' commands (``write(…, batch=True)``) are group-committed too
  (:class:`PgCommitter`): the commands waiting, of different tables, each in its own
  SAVEPOINT of one transaction, committed once, in at most ``pg_batches`` transactions at
  a time — one commit (one WAL flush, ``synchronous_commit`` stays on) and one connection
  checkout for many commands, and one or two threads instead of one per command (per
  command, the threads' hand-offs of the GIL and the per-transaction round trips cost
  several times the command itself). Other writes run in a transaction of their own.

The schema exists only through the Alembic migrations in ``server/migrations``
(:func:`upgrade`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event as sa_event
from sqlalchemy.engine import Connection, Engine

from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.server import store

log = logging.getLogger("macau_tables.server")

T = TypeVar("T")

DEFAULT_PATH = "macau-tables.db"
RETRYABLE_SQLSTATES = ("40001", "40P01")


def normalise_url(url: str | None) -> str:
    """The SQLAlchemy URL: none → ``./macau-tables.db``; a bare path → a SQLite file."""
    if not url:
        return f"sqlite+pysqlite:///{Path(DEFAULT_PATH).resolve()}"
    if "://" not in url:
        return f"sqlite+pysqlite:///{Path(url).resolve()}"
    if url.startswith("sqlite:///"):
        return "sqlite+pysqlite:///" + url.removeprefix("sqlite:///")
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


def sqlite_file(url: str | None) -> Path | None:
    """The file of a SQLite URL or path (None for PostgreSQL); :class:`InvalidInput` if
    there is no such file — a command that reads a database does not create an empty one."""
    made = sa.engine.make_url(normalise_url(url))
    if made.get_backend_name() != "sqlite":
        return None
    path = Path(made.database or "")
    if not path.is_file():
        raise InvalidInput(f"no database at {path}")
    return path


def _sqlite_engine(url: str, *, immediate: bool) -> Engine:
    engine = sa.create_engine(url, poolclass=sa.pool.QueuePool, pool_size=4, max_overflow=4)

    @sa_event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        dbapi_conn.isolation_level = None  # we issue BEGIN ourselves
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=30000")
        cur.execute("PRAGMA cache_size=-65536")
        cur.close()

    begin = "BEGIN IMMEDIATE" if immediate else "BEGIN"

    @sa_event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Connection, *_: Any) -> None:
        # a statement in a group commit's batch: what waits in it goes first
        writes = conn.info.get(store.BATCH)
        if writes is not None:
            writes.before_direct()

    @sa_event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        # straight on the driver: through exec_driver_sql, SQLAlchemy's execution machinery
        # cost ~0.15 ms per transaction, paid by every group commit's batch
        conn.connection.dbapi_connection.execute(begin)  # type: ignore[union-attr]

    return engine


def database_error(exc: BaseException) -> MacauTablesError:
    """A database that cannot be reached or read (PostgreSQL down, a file that is not a
    server's database), as the one line a command prints."""
    why = " ".join(str(getattr(exc, "orig", None) or exc).split())
    return MacauTablesError(f"database: {why}")


def is_retryable(exc: BaseException) -> bool:
    """A PostgreSQL serialization failure or deadlock: run the transaction again."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlstate", None) in RETRYABLE_SQLSTATES


def is_duplicate(exc: BaseException) -> bool:
    """A unique constraint refused a row (SQLSTATE 23505 on PostgreSQL): on the
    idempotency key, a request sent twice at once, whose first try has just committed."""
    orig = getattr(exc, "orig", exc)
    return getattr(orig, "sqlstate", None) == "23505"


def is_database_error(exc: BaseException) -> bool:
    """An error of the database or its driver (SQLAlchemy's wrapper, or the driver's own
    from a statement sent on its cursor: ``store.WriteBatch``)."""
    import sqlite3

    if isinstance(exc, sa.exc.DBAPIError | sqlite3.Error):
        return True
    try:
        import psycopg
    except ImportError:  # pragma: no cover - the server extra installs it
        return False
    return isinstance(exc, psycopg.Error)


class LoopCommitter:
    """SQLite's group commit, on the event loop (see the module docstring).

    Units of work wait in a list; one flusher task runs them, each a unit of one ``BEGIN
    IMMEDIATE`` transaction (its writes kept in a ``store.WriteBatch`` until the end of the
    batch), on the loop's thread (they are short and CPU-only: no other thread competes
    for the GIL), then commits in a worker thread — the fsync —
    while the loop serves requests and gathers the next batch. Each unit's result (or
    error) is handed back only after the commit, and the flusher lets the woken callers run
    (their fan-out) before it runs the next batch: what they publish is what was committed.

    A unit may change memory before it fails (a table's engine: server/tables.py), and a
    table's commands may follow each other in one batch or in consecutive ones (they are
    pipelined): so a unit that fails is repaired at once, before the next unit runs —
    ``on_error(conn)`` right after its savepoint rolled back, on the batch's connection
    (what was committed and the batch's earlier units), and ``on_fail()`` for every unit
    of a batch whose commit failed, before the next batch.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.pending: list[_LoopUnit] = []
        self.task: asyncio.Task[None] | None = None
        self.fsync = ThreadPoolExecutor(1, thread_name_prefix="db-commit")
        self.conn: Connection | None = None
        self.batches = 0
        self.units = 0
        self.statements = 0  # the batches' grouped writes (store.WriteBatch)
        self.rows = 0  # the rows they wrote
        self.units_time = 0.0  # seconds of the loop's thread in the batches' units
        self.writes_time = 0.0  # in their grouped writes
        self.commit_time = 0.0  # seconds from a batch's COMMIT sent to its end (the fsync)
        self.checkpointer = ThreadPoolExecutor(1, thread_name_prefix="db-checkpoint")
        self.checkpointing: Future[None] | None = None
        self.ckpt_conn: Any = None  # the checkpointer's own DBAPI connection
        self.checkpoints = 0
        self.checkpoint_due = 0.0  # the loop's time from which the next one may start
        self.wal_frames = 0  # the WAL's length (pages) at the last checkpoint
        self.wal_backfilled = 0  # of which copied into the database file
        self.restarts = 0  # checkpoints awaited before a batch (_restart_wal)
        self.restart_wait = 0.0  # seconds the batches waited for them
        self.restart_due = 0.0

    def _connection(self) -> Connection:
        """The committer's own connection, kept from batch to batch: in WAL mode a
        connection that finds the database changed by another connection since its last
        transaction drops its whole page cache, so the batches always use the same one
        (one writer) and keep theirs warm."""
        if self.conn is None or self.conn.closed or self.conn.invalidated:
            self.conn = self.engine.connect()
            raw = self.conn.connection.dbapi_connection
            assert raw is not None
            raw.execute(f"PRAGMA wal_autocheckpoint={WAL_AUTOCHECKPOINT}")
        return self.conn

    def checkpoint(self) -> None:
        """Copy what the WAL holds into the database file: a PASSIVE checkpoint, in the
        checkpointer's thread, on its own connection — started after a batch's commit at
        most every ``CHECKPOINT_EVERY`` seconds, and awaited before a batch once the WAL
        is ``WAL_RESTART`` pages long (:meth:`_restart_wal`).

        By default SQLite checkpoints inside a commit once the WAL reaches 1,000 pages:
        at a thousand bets a second (4–5 pages each, or more), several times a second a
        batch's commit also copied a thousand pages and synced the database file, and
        every command waiting behind it waited for that too (in the benchmark, p99
        77–233 ms with those checkpoints against 35–88 ms with none at all, three
        alternated pairs). A PASSIVE checkpoint
        takes no lock a writer needs: the batches go on while it copies. The group
        commit's connection still checkpoints by itself past ``WAL_AUTOCHECKPOINT``
        pages, should this thread ever fall behind."""
        try:
            if self.ckpt_conn is None:
                self.ckpt_conn = self.engine.raw_connection()
            cur = self.ckpt_conn.cursor()
            try:
                row = cur.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            finally:
                cur.close()
            self.checkpoints += 1
            if row is not None and int(row[0]) == 0:
                self.wal_frames, self.wal_backfilled = int(row[1]), int(row[2])
        except Exception:
            log.exception("WAL checkpoint failed")
            self._close_checkpointer_conn()

    async def _restart_wal(self) -> None:
        """Before a batch begins, once the WAL is ``WAL_RESTART`` pages long: a checkpoint
        of everything committed, awaited (the loop serves requests meanwhile). SQLite
        starts the WAL over from its beginning only at a write transaction that began
        when every frame had been copied; the checkpoints that run while batches go on
        always find new frames behind them. Most of the WAL was copied by those already,
        so this one copies the last few batches' pages. If a reader still in an older
        snapshot kept it from copying everything, the batches go on and the next try
        waits ``CHECKPOINT_EVERY`` seconds."""
        started = time.perf_counter()
        try:
            if self.checkpointing is not None:
                await asyncio.wrap_future(self.checkpointing)
            self.checkpointing = self.checkpointer.submit(self.checkpoint)
            await asyncio.wrap_future(self.checkpointing)
        finally:
            self.restart_wait += time.perf_counter() - started
        now = asyncio.get_running_loop().time()
        self.checkpoint_due = now + CHECKPOINT_EVERY
        if self.wal_frames == self.wal_backfilled:
            self.restarts += 1
            self.wal_frames = self.wal_backfilled = 0  # this batch's commit starts it over
        else:  # a reader still in an older snapshot: not before the next background one
            self.restart_due = now + CHECKPOINT_EVERY

    def stats(self) -> dict[str, int]:
        """The group commit's counters since the process started (GET /server/latency)."""
        return {
            "batches": self.batches,
            "units": self.units,
            "statements": self.statements,
            "rows": self.rows,
            "units_ms": round(self.units_time * 1000),
            "writes_ms": round(self.writes_time * 1000),
            "commit_ms": round(self.commit_time * 1000),
            "checkpoints": self.checkpoints,
            "wal_restarts": self.restarts,
            "restart_wait_ms": round(self.restart_wait * 1000),
            "wal_pages": self.wal_frames,
        }

    def _close_checkpointer_conn(self) -> None:
        _discard(self.ckpt_conn)
        self.ckpt_conn = None

    def _drop(self) -> None:
        """After a failed batch: the connection is discarded, not handed back to the pool —
        a COMMIT that failed (a deferred foreign key, a full disk) leaves SQLite's
        transaction open, and the pool, which saw a commit attempted, would not roll it
        back: the next batch's ``BEGIN`` failed on it."""
        _discard(self.conn)
        self.conn = None

    async def write(
        self,
        fn: Callable[[Connection], T],
        on_error: Callable[[Connection], None] | None = None,
        on_fail: Callable[[], None] | None = None,
    ) -> T:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self.pending.append((fn, fut, on_error, on_fail))
        if self.task is None or self.task.done():
            self.task = loop.create_task(self._flush())
        return await fut

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending:
            if self.wal_frames >= WAL_RESTART and loop.time() >= self.restart_due:
                await self._restart_wal()
            batch, self.pending = self.pending, []
            done: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
            try:
                conn = self._connection()
                try:
                    tx = conn.begin()
                    # the savepoints straight on the driver's cursor: SQLAlchemy's
                    # begin_nested compiles a new SAVEPOINT clause for every unit, which
                    # cost a tenth of the server's time under load
                    cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
                    # the units' hot writes wait in the batch and are executed together
                    # at its end; a unit's savepoint is opened only if it needs one
                    # (store.WriteBatch)
                    writes = store.WriteBatch(cur)
                    conn.info[store.BATCH] = writes
                    try:
                        t0 = time.perf_counter()
                        for fn, fut, on_error, _ in batch:
                            writes.begin_unit()
                            try:
                                result = fn(conn)
                            except Exception as exc:
                                writes.fail_unit()
                                if on_error is not None:
                                    try:
                                        on_error(conn)
                                    except Exception:
                                        log.exception("repairing a failed unit failed")
                                done.append((fut, None, exc))
                            else:
                                writes.end_unit()
                                done.append((fut, result, None))
                        t1 = time.perf_counter()
                        writes.flush()
                        t2 = time.perf_counter()
                        self.units_time += t1 - t0
                        self.writes_time += t2 - t1
                    finally:
                        conn.info.pop(store.BATCH, None)
                    self.statements += writes.executed
                    self.rows += writes.rows
                    cur.close()
                    await loop.run_in_executor(self.fsync, tx.commit)
                    self.commit_time += time.perf_counter() - t2
                except BaseException:
                    self._drop()  # a fresh connection for the next batch
                    raise
            except Exception as exc:  # the commit failed: nothing of the batch is recorded
                for _, fut, _, on_fail in batch:
                    if on_fail is not None:
                        try:
                            on_fail()
                        except Exception:
                            log.exception("repairing a unit of a failed batch failed")
                    if not fut.done():
                        fut.set_exception(exc)
                await asyncio.sleep(0)
                continue
            self.batches += 1
            self.units += len(done)
            if (self.checkpointing is None or self.checkpointing.done()) and (
                loop.time() >= self.checkpoint_due
            ):
                self.checkpoint_due = loop.time() + CHECKPOINT_EVERY
                with contextlib.suppress(RuntimeError):  # (closing: no new checkpoint)
                    self.checkpointing = self.checkpointer.submit(self.checkpoint)
            for fut, result, error in done:
                if fut.done():
                    continue
                if error is not None:
                    fut.set_exception(error)
                else:
                    fut.set_result(result)
            # the callers' fan-out and their replies, before the next batch's units run
            for _ in range(REPLY_HOPS):
                await asyncio.sleep(0)

    def close(self) -> None:
        self.fsync.shutdown(wait=True)
        self.checkpointer.shutdown(wait=True)
        self._close_checkpointer_conn()
        self._drop()


class ServerLock:
    """One server process per SQLite file: an exclusive ``flock`` on ``<database>-server.lock``
    beside it, held while the server runs. The group commit keeps one writer's page cache
    and every table's actor is the only writer of its table, so a second server on the
    same file — started by mistake, or while the first is still stopping — would write
    the same tables behind the first one's back (a broken chain, a hold settled twice):
    it is refused before it writes anything. The operating system lets go of the lock when
    the process ends, however it ends (``kill -9`` too)."""

    def __init__(self, database_url: str) -> None:
        import fcntl

        path = sa.engine.make_url(database_url).database or ""
        self.path = Path(path + "-server.lock")
        self.fd: int | None = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self.fd)
            self.fd = None
            raise MacauTablesError(
                f"another server process is serving {path} (it holds {self.path.name}): "
                "stop it first"
            ) from None

    def close(self) -> None:
        if self.fd is not None:
            with contextlib.suppress(OSError):
                os.close(self.fd)  # the lock goes with its only descriptor
            self.fd = None


def _discard(conn: Any) -> None:
    """Invalidate and close a connection (SQLAlchemy's or the pool's), whatever state it
    is in: it does not go back to the pool."""
    if conn is not None:
        with contextlib.suppress(Exception):
            conn.invalidate()
        with contextlib.suppress(Exception):
            conn.close()


#: the group commit's connection checkpoints the WAL itself only past this many pages
#: (SQLite's default: 1,000) — a safety net: the checkpointer's thread does it
#: (:meth:`LoopCommitter.checkpoint`)
WAL_AUTOCHECKPOINT = 20_000

#: a WAL this many pages long (16 MB with SQLite's 4 KB pages) is started over before the
#: next batch (:meth:`LoopCommitter._restart_wal`)
WAL_RESTART = 4_000

#: seconds from the start of one background checkpoint to the next, at the least
CHECKPOINT_EVERY = 0.25

#: loop iterations the group commit yields after handing out a batch's results, before it
#: runs the next batch's units. A command's reply is three callbacks away from its
#: result: the table actor's task wakes (and fans the entries out), the ``asyncio.shield``
#: around it completes, the request's task wakes and sends the reply. With one yield the
#: replies waited behind the whole next batch's units. tests/server/test_pipeline.py holds
#: it.
REPLY_HOPS = 3

# a unit of LoopCommitter: the work, its future, its on_error and on_fail
_LoopUnit = tuple[
    Callable[[Connection], Any],
    "asyncio.Future[Any]",
    Callable[[Connection], None] | None,
    Callable[[], None] | None,
]

# a unit of PgCommitter: the work, its on_retry, its future, the attempts made so far
_Unit = tuple[Callable[[Connection], Any], Callable[[], None] | None, asyncio.Future[Any], int]


class PgCommitter:
    """PostgreSQL's group commit (see the module docstring).

    Units of work wait in a list; up to ``batches`` flusher tasks each take all that waits
    and run it in a worker thread of their own: one transaction, each unit in a SAVEPOINT
    (``RELEASE`` of one and ``SAVEPOINT`` of the next in one round trip), one ``COMMIT``.
    A unit that fails rolls back to its savepoint alone; one that fails with a
    serialization failure or deadlock (e.g. against another process) is rolled back to its
    savepoint, ``on_retry`` is called and it joins the next batch (up to 8 attempts, as
    :meth:`Database.write_sync`). Every unit's result (or error) is handed back only after
    the commit; if the commit fails, every unit of the batch gets the error (nothing of it
    is recorded). Units of one table never share or overlap batches: its actor waits for
    the reply before it sends the next.
    """

    def __init__(self, engine: Engine, batches: int) -> None:
        self.engine = engine
        self.pending: list[_Unit] = []
        self.tasks: set[asyncio.Task[None]] = set()
        self.limit = max(1, batches)
        self.threads = ThreadPoolExecutor(self.limit, thread_name_prefix="db-group")
        self.batches = 0
        self.units = 0

    async def write(self, fn: Callable[[Connection], T], on_retry: Callable[[], None] | None) -> T:
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[T] = loop.create_future()
        self.pending.append((fn, on_retry, fut, 0))
        if len(self.tasks) < self.limit:
            task = loop.create_task(self._flush())
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return await fut

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        while self.pending:
            batch, self.pending = self.pending, []
            try:
                done, again = await loop.run_in_executor(self.threads, self._run_batch, batch)
            except Exception as exc:  # the commit failed: nothing of the batch is recorded
                for _, _, fut, _ in batch:
                    if not fut.done():
                        fut.set_exception(exc)
                continue
            self.batches += 1
            self.units += len(done)
            self.pending.extend(again)
            for fut, result, error in done:
                if fut.done():
                    continue
                if error is not None:
                    fut.set_exception(error)
                else:
                    fut.set_result(result)
            await asyncio.sleep(0)  # the callers' fan-out, before the next batch runs

    def _run_batch(
        self, batch: list[_Unit]
    ) -> tuple[list[tuple[asyncio.Future[Any], Any, BaseException | None]], list[_Unit]]:
        done: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
        again: list[_Unit] = []
        with self.engine.connect() as conn:
            # the engine's connections are in autocommit (no pool ping either): the
            # transaction's BEGIN is queued with the first unit's SAVEPOINT and goes with
            # its first statement, and COMMIT is sent here — a round trip each saved, of
            # the eight a batch of one command takes
            # the savepoints straight on the driver's cursor, as SQLite's LoopCommitter
            # (queued: each goes with the unit's first statement, and each RELEASE with the
            # unit's last writes: one message, store.flush)
            cur = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            begun = False
            try:
                for fn, on_retry, fut, attempt in batch:
                    savepoint = "SAVEPOINT unit" if begun else "BEGIN;\nSAVEPOINT unit"
                    store.defer(conn, savepoint)
                    try:
                        result = fn(conn)
                        store.flush(conn, ("RELEASE SAVEPOINT unit", None))
                        begun = True
                    except Exception as exc:
                        sent = not store.still_queued(conn, savepoint)
                        store.discard_deferred(conn)
                        if sent:
                            begun = True
                            cur.execute("ROLLBACK TO SAVEPOINT unit")
                        if is_retryable(exc) and attempt < 7:
                            if on_retry is not None:
                                on_retry()
                            again.append((fn, on_retry, fut, attempt + 1))
                        else:
                            done.append((fut, None, exc))
                    else:
                        done.append((fut, result, None))
                if begun:
                    cur.execute("COMMIT")
            except Exception as exc:
                if _lost(conn):  # nothing of the batch committed: all of it again, anew
                    return _again_after(batch, exc)
                if begun:  # the batch's transaction is left: end it, whatever its state
                    with contextlib.suppress(Exception):
                        cur.execute("ROLLBACK")
                raise
            finally:
                if _lost(conn):
                    conn.invalidate()  # PostgreSQL dropped it: the pool opens a new one
                else:
                    cur.close()
                    conn.commit()  # SQLAlchemy's own transaction marker (autocommit: no SQL)
        return done, again

    def close(self) -> None:
        self.threads.shutdown(wait=True)


def _lost(conn: Connection) -> bool:
    """The connection's DB-API connection is gone (PostgreSQL ended it, or the network)."""
    dbapi: Any = conn.connection.dbapi_connection
    return dbapi is None or bool(dbapi.closed) or bool(dbapi.broken)


def _again_after(
    batch: list[_Unit], exc: BaseException
) -> tuple[list[tuple[asyncio.Future[Any], Any, BaseException | None]], list[_Unit]]:
    """A batch whose connection was lost before its commit: every unit is run again in the
    next batch (its table rebuilt first, ``on_retry``), up to 8 attempts."""
    done: list[tuple[asyncio.Future[Any], Any, BaseException | None]] = []
    again: list[_Unit] = []
    for fn, on_retry, fut, attempt in batch:
        if attempt >= 7:
            done.append((fut, None, exc))
            continue
        if on_retry is not None:
            on_retry()
        again.append((fn, on_retry, fut, attempt + 1))
    return done, again


class Database:
    """The writer and reader engines, and the threads that run database work."""

    def __init__(self, url: str | None = None, *, pg_writers: int = 8, pg_batches: int = 2) -> None:
        self.url = normalise_url(url)
        self.pg_group: PgCommitter | None = None
        self.group_writer: Engine | None = None
        self.dialect = sa.engine.make_url(self.url).get_backend_name()
        if self.dialect == "sqlite":
            self.writer = _sqlite_engine(self.url, immediate=True)
            self.reader = _sqlite_engine(self.url, immediate=False)
            writers = 1
            self.group: LoopCommitter | None = LoopCommitter(self.writer)
        elif self.dialect == "postgresql":
            self.writer = sa.create_engine(
                self.url, pool_size=pg_writers + 2, max_overflow=4, pool_pre_ping=True
            )
            # reads in autocommit: at READ COMMITTED each statement sees what was committed
            # when it started, in a transaction or not — without one, no BEGIN and COMMIT
            # round trips (read_snapshot_sync still takes a REPEATABLE READ transaction)
            self.reader = sa.create_engine(
                self.url,
                pool_size=3,
                max_overflow=4,
                pool_pre_ping=True,
                isolation_level="AUTOCOMMIT",
            )
            store.install_deferral(self.writer)
            # the tables' group commit: connections of its own, in autocommit (it sends
            # BEGIN and COMMIT itself, with its statements) and without the pool's ping
            # (a connection PostgreSQL dropped fails its batch, is invalidated and replaced)
            self.group_writer = sa.create_engine(
                self.url,
                pool_size=pg_batches,
                max_overflow=2,
                pool_pre_ping=False,
                isolation_level="AUTOCOMMIT",
            )
            store.install_deferral(self.group_writer)
            writers = pg_writers
            self.group = None
            self.pg_group = PgCommitter(self.group_writer, pg_batches)
        else:
            raise ValueError(f"unsupported database {self.dialect!r}: use SQLite or PostgreSQL")
        self._writes = ThreadPoolExecutor(writers, thread_name_prefix="db-write")
        self._reads = ThreadPoolExecutor(2, thread_name_prefix="db-read")

    @property
    def is_sqlite(self) -> bool:
        return self.dialect == "sqlite"

    def write_sync(
        self, fn: Callable[[Connection], T], *, on_retry: Callable[[], None] | None = None
    ) -> T:
        """Run ``fn`` in one write transaction (committed on return, rolled back on error).

        On PostgreSQL a serialization failure or deadlock runs it again (``on_retry`` first,
        e.g. to rebuild what ``fn`` changed in memory), up to 8 times. (On SQLite, the
        async :meth:`write` joins the next group commit; this runs a transaction of its own.)
        """
        for attempt in range(8):
            try:
                with self.writer.begin() as conn:
                    result = fn(conn)
                    if not self.is_sqlite:
                        store.flush(conn)  # the writes store.run queued, before the commit
                    return result
            except Exception as exc:
                if not is_retryable(exc) or attempt == 7:
                    raise
                if on_retry is not None:
                    on_retry()
                time.sleep(0.002 * 2**attempt)
        raise AssertionError("unreachable")

    def read_sync(self, fn: Callable[[Connection], T]) -> T:
        with self.reader.begin() as conn:
            return fn(conn)

    def read_snapshot_sync(self, fn: Callable[[Connection], T]) -> T:
        """A read in one snapshot (PostgreSQL REPEATABLE READ): what another process
        commits meanwhile is not half seen (a replica's rebuild, server/cluster.py)."""
        if self.is_sqlite:
            return self.read_sync(fn)
        with self.reader.connect() as raw:
            conn = raw.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                return fn(conn)

    async def read_snapshot(self, fn: Callable[[Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, lambda: self.read_snapshot_sync(fn))

    async def write(
        self,
        fn: Callable[[Connection], T],
        *,
        on_retry: Callable[[], None] | None = None,
        batch: bool = False,
        on_error: Callable[[Connection], None] | None = None,
        on_fail: Callable[[], None] | None = None,
    ) -> T:
        """Run ``fn`` in a write transaction; its result once committed. SQLite: always in
        the next group commit. PostgreSQL: with ``batch`` (a table's command: short, its
        table's row locked first, its rebuild in ``on_retry``) in the next group commit
        (:class:`PgCommitter`), otherwise in a transaction of its own."""
        if self.group is not None:
            return await self.group.write(fn, on_error, on_fail)
        if batch and self.pg_group is not None:
            return await self.pg_group.write(fn, on_retry)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._writes, lambda: self.write_sync(fn, on_retry=on_retry)
        )

    async def read(self, fn: Callable[[Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._reads, lambda: self.read_sync(fn))

    def close(self) -> None:
        if self.group is not None:
            self.group.close()
        if self.pg_group is not None:
            self.pg_group.close()
        self._writes.shutdown(wait=True)
        self._reads.shutdown(wait=True)
        self.writer.dispose()
        if self.reader is not self.writer:
            self.reader.dispose()
        if self.group_writer is not None:
            self.group_writer.dispose()


def alembic_config(db: Database) -> Any:
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", "macau_tables.server:migrations")
    cfg.set_main_option("sqlalchemy.url", db.url.replace("%", "%%"))
    return cfg


def upgrade(db: Database) -> list[str]:
    """Apply every pending migration; return the revisions applied (empty if up to date)."""
    from alembic import command
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    cfg = alembic_config(db)
    script = ScriptDirectory.from_config(cfg)
    with db.writer.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    todo = [
        rev.revision for rev in script.iterate_revisions("head", current) if rev.revision != current
    ]
    if todo:
        with db.writer.begin() as conn:
            cfg.attributes["connection"] = conn
            command.upgrade(cfg, "head")
    return list(reversed(todo))
