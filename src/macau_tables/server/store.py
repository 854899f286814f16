"""What the server keeps in the database: journal entries, postings, holds, seeds, users.

Every function takes the :class:`~sqlalchemy.engine.Connection` of the transaction it
belongs to; the caller (the table actor, the cashier) decides where the transaction starts
and ends, so one command's journal entries, postings, holds and idempotency record commit
together or not at all (STYLE §9).
"""

from __future__ import annotations

import json
import os
import re
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from macau_tables.core.errors import (
    HoldError,
    InsufficientFunds,
    InvalidInput,
    JournalTampered,
    LedgerMismatch,
)
from macau_tables.core.journal import Entry, Journal, event_from_json
from macau_tables.core.ledger import GUARDED, Movement
from macau_tables.core.money import MOP, Money
from macau_tables.core.rng import random_hex
from macau_tables.core.snapshot import SnapshotError
from macau_tables.core.snapshot import text as snapshot_text
from macau_tables.server import schema
from macau_tables.server.wire import dumps as dumps
from macau_tables.server.wire import render as render
from macau_tables.server.wire import request_hash as request_hash

# the schema, once (server/schema.py): its tables, which every statement here is built from
md = schema.md
tables_t = schema.tables_t
accounts_t = schema.accounts_t
transactions_t = schema.transactions_t
postings_t = schema.postings_t
holds_opened_t = schema.holds_opened_t
holds_closed_t = schema.holds_closed_t
journal_t = schema.journal_t
seeds_t = schema.seeds_t
snapshots_t = schema.snapshots_t
users_t = schema.users_t
tokens_t = schema.tokens_t
idempotency_t = schema.idempotency_t
audit_t = schema.audit_t
meter_days_t = schema.meter_days_t
leases_t = schema.leases_t
requests_t = schema.requests_t
decisions_t = schema.decisions_t
disputes_t = schema.disputes_t
resolutions_t = schema.resolutions_t
cage_fills_t = schema.cage_fills_t
account_requests_t = schema.account_requests_t
frozen_accounts_t = schema.frozen_accounts_t


class AccountFrozen(LedgerMismatch):
    """A movement names an account frozen because its cached balance did not match its
    postings (409 ``SRV-FROZEN``, until a supervisor resolves it)."""


def frozen_accounts(conn: Connection) -> set[str]:
    """The accounts frozen and not resolved."""
    f = frozen_accounts_t.c
    return {str(a) for (a,) in conn.execute(sa.select(f.account).where(f.resolved_at.is_(None)))}


def frozen_tables(conn: Connection) -> list[str]:
    """Tables with a dispute not yet resolved (frozen; their row says paused)."""
    rows = conn.execute(
        sa.select(disputes_t.c.table_id)
        .select_from(
            disputes_t.outerjoin(resolutions_t, resolutions_t.c.dispute_id == disputes_t.c.id)
        )
        .where(resolutions_t.c.dispute_id.is_(None))
    )
    return sorted({str(r[0]) for r in rows})


def now_ms() -> int:
    return int(time.time() * 1000)


def new_tx_id() -> str:
    """A transaction's id: 32 hex digits, the time in milliseconds (12) then 80 random bits
    (as UUIDv7). Ids that grow with time go in at the end of the primary key's and
    ``postings_tx``'s B-trees — one page written per commit, where random ids (uuid4) land
    on a different page of each index for every transaction."""
    return f"{now_ms():012x}{random_hex(10)}"


# --- accounts and postings -------------------------------------------------------------


def account_kind(name: str) -> str:
    return name.split(":", 1)[0]


#: built once: a statement built per call leaves a reference cycle (its expanding bind
#: parameter) that the collector, which freezes survivors (run.tune_gc), would never free
_NAMED_ACCOUNTS = sa.select(accounts_t.c.name).where(
    accounts_t.c.name.in_(sa.bindparam("names", expanding=True))
)


class Accounts:
    """Creates account rows on first use (cached per process; :meth:`forget` after a
    transaction that rolled back, since the rows it created are gone). ``frozen``: the
    accounts no movement may name (:func:`frozen_accounts`, kept by the floor)."""

    def __init__(self) -> None:
        self._known: set[str] = set()
        self.frozen: frozenset[str] = frozenset()

    def ensure(self, conn: Connection, names: Iterable[str]) -> None:
        missing = [n for n in names if n not in self._known]
        if not missing:
            return
        have = {r[0] for r in conn.execute(_NAMED_ACCOUNTS, {"names": missing})}
        new = [n for n in missing if n not in have]
        if new:
            conn.execute(
                accounts_t.insert(),
                [
                    {"name": n, "kind": account_kind(n), "currency": MOP.code, "balance": 0}
                    for n in new
                ],
            )
        self._known.update(missing)

    def forget(self) -> None:
        self._known.clear()


_SQL = {
    "balance": "SELECT balance FROM accounts WHERE name = :name",
    "posting": "INSERT INTO postings (tx_id, account, amount) VALUES (:tx_id, :account, :amount)",
    "transaction": "INSERT INTO transactions (id, table_id, seq, memo, n_postings, by_user, "
    "created_at) VALUES (:id, :table_id, :seq, :memo, :n_postings, :by_user, :created_at)",
    "add": "UPDATE accounts SET balance = balance + :delta WHERE name = :name",
    "open": "INSERT INTO holds_opened (table_id, hold_id, tx_id, seq) "
    "VALUES (:table_id, :hold_id, :tx_id, :seq)",
    "close": "INSERT INTO holds_closed (table_id, hold_id, tx_id, seq) "
    "VALUES (:table_id, :hold_id, :tx_id, :seq)",
    "journal": "INSERT INTO journal (table_id, seq, kind, event, prev_hash, hash, created_at) "
    "VALUES (:table_id, :seq, :kind, :event, :prev_hash, :hash, :created_at)",
    "head": "UPDATE tables SET head_seq = :seq, head_hash = :hash WHERE id = :id",
    "seed": "INSERT INTO seeds (table_id, commitment, label, seed, created_at) "
    "VALUES (:table_id, :commitment, :label, :seed, :created_at)",
    # a table's command, first statement (PostgreSQL): its row locked; with several
    # processes, the fence (the lease row's owner)
    "lock": "SELECT id FROM tables WHERE id = :id FOR UPDATE",
    "fence": "SELECT leases.owner FROM tables LEFT OUTER JOIN leases "
    "ON leases.table_id = tables.id WHERE tables.id = :id FOR UPDATE OF tables",
    "idem_get": "SELECT request_hash, status, response FROM idempotency "
    "WHERE user_name = :user_name AND key = :key",
    "idem_put": "INSERT INTO idempotency (user_name, key, request_hash, status, response, "
    "created_at) VALUES (:user_name, :key, :request_hash, :status, :response, :created_at)",
}
_PG_SQL = {k: re.sub(r":(\w+)", r"%(\1)s", v) for k, v in _SQL.items()}


class _Rows:
    def __init__(self, cursor: Any) -> None:
        self._cursor = cursor

    def first(self) -> Any:
        if self._cursor is None:  # a queued write (PostgreSQL): no rows
            return None
        row = self._cursor.fetchone()
        self._cursor.close()
        return row


# statements whose result nobody reads: on PostgreSQL they wait (:func:`run`) and go to the
# server together, in one message, with the next statement that needs an answer
_DEFERRABLE = frozenset(
    {"posting", "transaction", "add", "open", "close", "journal", "head", "seed", "idem_put"}
)
_DEFERRED = "macau_tables.deferred"


BATCH = "macau_tables.write_batch"


class WriteBatch:
    """SQLite's group commit keeps its units' hot writes here and executes them together
    at the end of the batch: one ``executemany`` per statement, the balances moved once
    per account and the head once per table (server/db.py ``LoopCommitter``).

    Why: a statement executed between a command's Python work finds SQLite's code and
    pages out of the processor's caches — an insert cost 20–45 µs there against 6–8 µs
    in a loop of inserts (measured), and the statements were a third of the server's
    CPU. The reads a unit makes of what it wrote answer from here: a wallet's balance
    (the database's plus the deltas waiting), an idempotency record waiting. Any other
    statement (through SQLAlchemy, or a read here) first executes what waits, so it sees
    the database as if each write had been executed at once.

    A unit's writes stay apart until the unit ends: a unit that fails drops them. A unit
    whose statement must run at once (a new account, an audit row) first executes
    the writes of the units before it, then opens its SAVEPOINT — so a failure rolls back
    its own writes only. The order of the final execution suits the schema: postings
    before their transaction (its triggers check them), holds opened before closed.
    """

    ORDER = (
        "posting",
        "transaction",
        "open",
        "close",
        "journal",
        "head",
        "seed",
        "add",
        "idem_put",
    )

    def __init__(self, cursor: Any) -> None:
        self.cursor = cursor
        self.ops: list[tuple[str, Any]] = []  # waiting, in the order they were written
        self.mark: int | None = None  # where the current unit's writes begin in ops
        self.savepoint = False
        self._deltas: dict[str, int] = defaultdict(int)  # of the waiting "add"s
        self._idem: dict[tuple[str, str], tuple[str, int, str]] = {}
        self.executed = 0  # statements executed (for the benchmarks)
        self.rows = 0  # and their rows

    def queue(self, name: str, params: Any) -> None:
        for p in params if isinstance(params, list) else (params,):
            self.ops.append((name, p))
            self._note(name, p)

    def _note(self, name: str, p: Any) -> None:
        if name == "add":
            self._deltas[p["name"]] += p["delta"]
        elif name == "idem_put":
            self._idem[(p["user_name"], p["key"])] = (p["request_hash"], p["status"], p["response"])

    def _renote(self) -> None:
        self._deltas.clear()
        self._idem.clear()
        for name, p in self.ops:
            self._note(name, p)

    def balance_delta(self, account: str) -> int:
        return self._deltas.get(account, 0)

    def idempotent(self, user: str, key: str) -> tuple[str, int, str] | None:
        return self._idem.get((user, key))

    def begin_unit(self) -> None:
        self.mark, self.savepoint = len(self.ops), False

    def end_unit(self) -> None:
        if self.savepoint:
            self.cursor.execute("RELEASE unit")
        self.mark, self.savepoint = None, False

    def fail_unit(self) -> None:
        """The unit failed: its executed statements rolled back, its waiting ones dropped."""
        if self.savepoint:
            self.cursor.execute("ROLLBACK TO unit")
            self.cursor.execute("RELEASE unit")
        if self.mark is not None:
            del self.ops[self.mark :]
            self._renote()
        self.mark, self.savepoint = None, False

    def before_direct(self) -> None:
        """A statement is about to run at once: execute what waits first (inside a unit,
        the earlier units' writes before its SAVEPOINT and its own after)."""
        if self.mark is not None and not self.savepoint:
            self._execute(self.ops[: self.mark])
            del self.ops[: self.mark]
            self.mark = 0
            self.cursor.execute("SAVEPOINT unit")
            self.savepoint = True
        if self.ops:
            self.flush()

    def flush(self) -> None:
        ops, self.ops = self.ops, []
        if self.mark is not None:
            self.mark = 0
        self._renote()
        self._execute(ops)

    def _execute(self, ops: list[tuple[str, Any]]) -> None:
        by: dict[str, list[Any]] = defaultdict(list)
        for name, p in ops:
            by[name].append(p)
        for name in self.ORDER:
            rows = by.pop(name, None)
            if not rows:
                continue
            if name == "add":  # one update per account: the sum of its deltas
                totals: dict[str, int] = defaultdict(int)
                for p in rows:
                    totals[p["name"]] += p["delta"]
                rows = [{"delta": d, "name": n} for n, d in sorted(totals.items()) if d]
            elif name == "head":  # the table's last head
                rows = list({p["id"]: p for p in rows}.values())
            if rows:
                _execute(self.cursor, _SQL[name], rows)
                self.executed += 1
                self.rows += len(rows)
        if by:
            raise AssertionError(f"no place in WriteBatch.ORDER for {sorted(by)}")


def run(conn: Connection, name: str, params: Any) -> _Rows:
    """One of the hot statements (:data:`_SQL`) on the transaction's own DB-API
    connection: the per-command path skips SQLAlchemy's execution machinery.

    On PostgreSQL a write whose result is not read (:data:`_DEFERRABLE`) is only queued;
    :func:`flush` sends what is queued in one message — one round trip for many
    statements. It is called before any other statement of the connection (a read here,
    or any statement through SQLAlchemy: see :func:`install_deferral`) and at the end of
    every write transaction (server/db.py), so the order of statements, what a read sees
    and the transaction's outcome are those of executing each at once; only the moment a
    failing write raises moves, to the next flush — still inside the same unit of work.
    """
    if conn.dialect.name == "sqlite":
        sql = _SQL[name]
        batch: WriteBatch | None = conn.info.get(BATCH)
        if batch is not None:
            if name in _DEFERRABLE:
                batch.queue(name, params)
                return _Rows(None)
            if name == "balance":  # the database's, plus what waits
                row = _Rows(_cursor(conn, sql, params)).first()
                if row is None:
                    return _Rows(None)
                return _Rows(_One((int(row[0]) + batch.balance_delta(params["name"]),)))
            if name == "idem_get":
                waiting = batch.idempotent(params["user_name"], params["key"])
                if waiting is not None:
                    return _Rows(_One(waiting))
            else:
                batch.before_direct()
    else:
        sql = _PG_SQL[name]
        if name in _DEFERRABLE:
            conn.info.setdefault(_DEFERRED, []).append((sql, params))
            return _Rows(None)
        if conn.info.get(_DEFERRED):
            return _Rows(flush(conn, (sql, params)))
    return _Rows(_cursor(conn, sql, params))


class _One:
    """A cursor's stand-in with one row (a read :class:`WriteBatch` answered)."""

    def __init__(self, row: tuple[Any, ...]) -> None:
        self.row = row

    def fetchone(self) -> tuple[Any, ...]:
        return self.row

    def close(self) -> None:
        pass


def _cursor(conn: Connection, sql: str, params: Any) -> Any:
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    _execute(cursor, sql, params)
    return cursor


def _execute(cursor: Any, sql: str, params: Any) -> None:
    if isinstance(params, list) and len(params) != 1:
        cursor.executemany(sql, params)  # (the driver's executemany costs 2-3 executes)
    elif isinstance(params, list):
        cursor.execute(sql, params[0])
    else:
        cursor.execute(sql, params)


def flush(conn: Connection, then: tuple[str, Any] | None = None) -> Any:
    """Send the writes :func:`run` queued (PostgreSQL), and ``then`` one more statement, as
    one message: one round trip and one ``send`` for all (a statement each, even in
    libpq's pipeline mode, costs a loopback TCP send and psycopg's per-statement work —
    most of a command's CPU). The parameters are bound by psycopg on the client
    (``ClientCursor.mogrify``, its quoting) and the statements sent together in the
    simple-query protocol; inside the transaction, the first that fails stops the rest
    and raises here. Return the cursor of ``then`` (on its rows). The queue is emptied
    either way."""
    queued: list[tuple[str, Any]] = conn.info.pop(_DEFERRED, None) or []
    if then is not None:
        queued.append(then)
    if not queued:
        return None
    import psycopg

    dbapi: Any = conn.connection.dbapi_connection
    bind = psycopg.ClientCursor(dbapi).mogrify
    parts: list[str] = []
    for sql, params in queued:
        if params is None:
            parts.append(sql)
        elif isinstance(params, list):
            parts.extend(bind(sql, one) for one in params)
        else:
            parts.append(bind(sql, params))
    cursor = dbapi.cursor()
    cursor.execute(";\n".join(parts).encode())
    if then is None:
        cursor.close()
        return None
    while cursor.nextset():  # to the last statement's rows
        pass
    return cursor


def defer(conn: Connection, sql: str) -> None:
    """Queue a statement without parameters (PostgreSQL), e.g. a SAVEPOINT: it goes with the
    next statement that needs an answer."""
    conn.info.setdefault(_DEFERRED, []).append((sql, None))


def still_queued(conn: Connection, sql: str) -> bool:
    """``sql`` was queued first (:func:`defer`) and has not been sent yet."""
    queued: list[tuple[str, Any]] = conn.info.get(_DEFERRED) or []
    return bool(queued) and queued[0][0] == sql


def discard_deferred(conn: Connection) -> None:
    """Forget the queued writes (the transaction or savepoint they belong to rolled back)."""
    conn.info.pop(_DEFERRED, None)


def install_deferral(engine: Any) -> None:
    """On a PostgreSQL engine: a statement through SQLAlchemy first sends the writes
    :func:`run` queued on its connection; a rollback forgets them."""

    @sa.event.listens_for(engine, "before_cursor_execute")
    def _before(conn: Connection, *_: Any) -> None:
        if conn.info.get(_DEFERRED):
            flush(conn)

    @sa.event.listens_for(engine, "rollback")
    def _rollback(conn: Connection) -> None:
        discard_deferred(conn)

    @sa.event.listens_for(engine, "commit")
    def _commit(conn: Connection) -> None:
        flush(conn)


def is_integrity_error(exc: BaseException) -> bool:
    """A unique, foreign-key or CHECK violation, from SQLAlchemy or straight from the driver."""
    if isinstance(exc, IntegrityError):
        return True
    return type(exc).__name__ == "IntegrityError" or str(
        getattr(exc, "sqlstate", "") or ""
    ).startswith("23")


def _refused_by(exc: BaseException) -> str | None:
    """The table whose constraint refused a statement (PostgreSQL), if known."""
    diag = getattr(getattr(exc, "orig", exc), "diag", None)
    return getattr(diag, "table_name", None)


def post(
    conn: Connection,
    accounts: Accounts,
    movement: Movement,
    *,
    table_id: str | None = None,
    seq: int | None = None,
    by_user: str | None = None,
    balances: dict[str, int] | None = None,
) -> str:
    """Record ``movement``: its postings, its sealed transaction, balances and holds.

    Wallets and stacks are checked first (:class:`InsufficientFunds` names the account);
    the database refuses the same with its CHECK, and refuses an unbalanced transaction,
    a second opening or a second closing of a hold (:class:`HoldError`). On any error the
    caller's transaction (or savepoint) is rolled back whole.

    ``balances``: the cached balances are not updated here but the changes added up in
    this dict (the checks count them), for :func:`add_balances` to write once for all the
    movements of one command — a settlement of a hundred bets moves the table's wagers
    and house accounts a hundred times, in one statement each.
    """
    tx = movement.transaction
    deltas: dict[str, int] = defaultdict(int)
    for p in tx.postings:
        if p.amount.currency != MOP:
            raise InvalidInput(f"{p.account}: this server keeps MOP, not {p.amount.currency}")
        deltas[p.account] += p.amount.minor
    if accounts.frozen and not accounts.frozen.isdisjoint(deltas):
        named = sorted(accounts.frozen.intersection(deltas))
        raise AccountFrozen(
            f"{', '.join(named)} frozen: its cached balance did not match its postings; "
            "a supervisor resolves it (POST /frozen-accounts/{account}/resolve)",
            rule="SRV-FROZEN",
        )
    for name, delta in deltas.items():
        if delta < 0 and name.startswith(GUARDED):
            row = run(conn, "balance", {"name": name}).first()
            balance = (int(row[0]) if row else 0) + (balances or {}).get(name, 0)
            if balance + delta < 0:
                raise InsufficientFunds(
                    f"{name} has {Money(balance, MOP)}; {tx.memo or 'this'} needs "
                    f"{Money(-delta, MOP)}",
                    rule="SRV-FUNDS",
                )
    accounts.ensure(conn, sorted(deltas))
    tx_id = new_tx_id()
    if tx.postings:
        run(
            conn,
            "posting",
            [{"tx_id": tx_id, "account": p.account, "amount": p.amount.minor} for p in tx.postings],
        )
    run(
        conn,
        "transaction",
        {
            "id": tx_id,
            "table_id": table_id,
            "seq": seq,
            "memo": tx.memo,
            "n_postings": len(tx.postings),
            "by_user": by_user,
            "created_at": now_ms(),
        },
    )
    if balances is None:
        add_balances(conn, deltas)
    else:
        for name, delta in deltas.items():
            balances[name] = balances.get(name, 0) + delta
    if movement.opens or movement.closes:
        if table_id is None:
            raise InvalidInput("holds belong to a table")
        try:
            for what, holds in (("open", movement.opens), ("close", movement.closes)):
                if holds:
                    run(
                        conn,
                        what,
                        [
                            {"table_id": table_id, "hold_id": h, "tx_id": tx_id, "seq": seq}
                            for h in holds
                        ],
                    )
            flush(conn)  # (PostgreSQL: the queued writes, to name a refused hold here)
        except Exception as exc:
            if not is_integrity_error(exc) or _refused_by(exc) not in (
                None,
                "holds_opened",
                "holds_closed",
            ):
                raise
            raise HoldError(
                f"hold {[*movement.opens, *movement.closes]} placed or settled twice "
                "(refused by the database)",
                rule="SRV-HOLD",
            ) from exc
    return tx_id


def lock_accounts(conn: Connection, names: Iterable[str]) -> None:
    """PostgreSQL: lock the rows of ``names`` (``SELECT … FOR UPDATE``, in name order: no
    deadlock between two callers) until the transaction ends, so that a balance read next
    is the latest committed one and no other transaction moves it before this one commits
    — two withdrawals from one wallet run one after the other, the second sees what the
    first left and is refused ``SRV-FUNDS`` by :func:`post`'s check, not by the database's
    CHECK at the commit. SQLite has one writer: nothing to lock."""
    if conn.dialect.name == "sqlite":
        return
    conn.execute(
        sa.select(accounts_t.c.name)
        .where(accounts_t.c.name.in_(sorted(set(names))))
        .order_by(accounts_t.c.name)
        .with_for_update()
    ).all()


def add_balances(conn: Connection, deltas: Mapping[str, int]) -> None:
    """Move the cached balances by ``deltas`` (the database's CHECK keeps wallets and
    stacks at zero or more)."""
    for name in sorted(deltas):  # one order everywhere: no deadlock between two tables
        if deltas[name]:
            run(conn, "add", {"delta": deltas[name], "name": name})


def balance(conn: Connection, account: str) -> int:
    row = conn.execute(sa.select(accounts_t.c.balance).where(accounts_t.c.name == account)).first()
    return int(row[0]) if row else 0


def balances_like(conn: Connection, prefix: str) -> dict[str, int]:
    rows = conn.execute(
        sa.select(accounts_t.c.name, accounts_t.c.balance).where(
            accounts_t.c.name.startswith(prefix, autoescape=True)
        )
    )
    return {str(n): int(b) for n, b in rows}


# --- the journal ----------------------------------------------------------------------


def append_entries(conn: Connection, table_id: str, entries: Sequence[Entry]) -> None:
    """Persist ``entries`` (already chained by the engine's journal) and move the head."""
    if not entries:
        return
    at = now_ms()
    run(
        conn,
        "journal",
        [
            {
                "table_id": table_id,
                "seq": e.seq,
                "kind": e.event.kind,
                "event": e.event_text().decode(),  # store.dumps, as hashed
                "prev_hash": e.prev_hash,
                "hash": e.hash,
                "created_at": at,
            }
            for e in entries
        ],
    )
    last = entries[-1]
    run(conn, "head", {"seq": last.seq, "hash": last.hash, "id": table_id})


def load_journal(conn: Connection, table_id: str, game: str, header: Mapping[str, Any]) -> Journal:
    """A table's journal as stored (the chain is verified by ``Journal.from_json``)."""
    rows = conn.execute(
        sa.select(journal_t.c.seq, journal_t.c.event, journal_t.c.prev_hash, journal_t.c.hash)
        .where(journal_t.c.table_id == table_id)
        .order_by(journal_t.c.seq)
    )
    entries = [
        {"seq": s, "event": json.loads(ev), "prev_hash": p, "hash": h} for s, ev, p, h in rows
    ]
    return Journal.from_json(
        {
            "format": "macau-tables/journal",
            "version": 1,
            "game": game,
            "header": dict(header),
            "entries": entries,
        }
    )


def load_entries(
    conn: Connection, table_id: str, start: int, end: int | None = None
) -> list[Entry]:
    """The entries ``start`` to ``end`` (excluded; all after ``start`` if None) as stored,
    their events parsed (their text kept, as hashed), the chain not checked."""
    q = journal_t.c
    where = [q.table_id == table_id, q.seq >= start]
    if end is not None:
        where.append(q.seq < end)
    rows = conn.execute(
        sa.select(q.seq, q.event, q.prev_hash, q.hash).where(*where).order_by(q.seq)
    )
    return [
        Entry(int(s), event_from_json(json.loads(ev)), str(p), str(h), cached_text=ev.encode())
        for s, ev, p, h in rows
    ]


def load_window(
    conn: Connection, table_id: str, game: str, header: Mapping[str, Any], start: int
) -> Journal:
    """A table's journal from entry ``start`` on (``Journal.resume``), its chain verified
    from the entry before it (:func:`verify_chain_to` checks what comes before)."""
    entries = load_entries(conn, table_id, start)
    if not entries or entries[0].seq != start:
        raise JournalTampered(f"entry {start}: missing (a snapshot names it)")
    return Journal.of_entries(game, header, entries)


def verify_chain_to(
    conn: Connection,
    table_id: str,
    game: str,
    header: Mapping[str, Any],
    end: int,
    *,
    start: int = 0,
    prev: str | None = None,
) -> str:
    """Check the chain of entries ``start … end - 1`` from their stored text (each entry's
    hash over the text it was hashed as, its seq and the previous hash: no event parsed, no
    rule re-run), from ``prev``, the hash of entry ``start - 1`` (checked before; for
    ``start`` 0 the header's), and return the hash of entry ``end - 1``;
    :class:`JournalTampered` names the first entry that does not chain."""
    if start == 0:
        prev = Journal(game, header).header_hash()
    elif prev is None:
        raise ValueError("a check from entry start needs the hash of the entry before it")
    expected = start
    q = journal_t.c
    rows = conn.execute(
        sa.select(q.seq, q.event, q.prev_hash, q.hash)
        .where(q.table_id == table_id, q.seq >= start, q.seq < end)
        .order_by(q.seq)
    )
    for seq, text, prev_hash, hash_ in rows:
        if seq != expected:
            raise JournalTampered(f"entry {expected}: missing (the next stored is {seq})")
        if prev_hash != prev:
            raise JournalTampered(f"entry {seq}: prev_hash does not match")
        if Entry.compute_hash(seq, None, prev, event_text=text.encode()) != hash_:  # type: ignore[arg-type]
            raise JournalTampered(f"entry {seq}: hash does not match its content")
        prev, expected = hash_, expected + 1
    if expected != end:
        raise JournalTampered(f"entry {expected}: missing")
    return str(prev)


def verify_chain_link(
    conn: Connection,
    table_id: str,
    game: str,
    header: Mapping[str, Any],
    end: int,
    link: str,
    *,
    start: int = 0,
    prev: str | None = None,
) -> str:
    """:func:`verify_chain_to` up to entry ``end``, whose ``prev_hash`` is ``link`` (a
    window's first entry: the chain before it must end there); the hash of entry ``end - 1``.
    """
    before = verify_chain_to(conn, table_id, game, header, end, start=start, prev=prev)
    if link != before:
        raise JournalTampered(f"entry {end}: prev_hash does not match")
    return before


def stored_hash(conn: Connection, table_id: str, seq: int) -> str | None:
    """The hash stored with entry ``seq`` (None: no such entry)."""
    q = journal_t.c
    found = conn.execute(
        sa.select(q.hash).where(q.table_id == table_id, q.seq == seq)
    ).scalar_one_or_none()
    return None if found is None else str(found)


def exit_with_parent(parent: int) -> None:
    """A worker process's initializer: it exits when the process ``parent`` does (a server
    killed with ``kill -9`` leaves no worker behind). Watched by a pidfd (Linux): the worker
    may be the child of a fork server rather than of ``parent`` (:func:`worker_context`).
    Without pidfds the worker is ``parent``'s own child and watches its parent's pid."""
    import select
    import threading

    if hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(parent)
        except ProcessLookupError:  # gone already
            os._exit(0)

        def watch() -> None:
            select.select([fd], [], [])  # readable once ``parent`` has exited
            os._exit(0)

    else:  # pragma: no cover (not Linux: spawned, ``parent``'s child)

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(1.0)
            os._exit(0)

    threading.Thread(target=watch, daemon=True, name="exit-with-parent").start()


def worker_context() -> Any:
    """The multiprocessing context of the server's worker processes (the background checks,
    server/floor.py): a fork server where pidfds let a worker watch the server
    (:func:`exit_with_parent`) — started once per server process with the checks' modules
    loaded, each later worker (a take-over's, another floor's in the same process) is a
    fork of it, a few milliseconds, instead of a new interpreter importing them again
    (~1 s of CPU each) — else spawn.
    Never a fork of the server itself: its threads (the commit's, the checkpointer's)."""
    import multiprocessing as mp

    if not hasattr(os, "pidfd_open"):  # pragma: no cover (not Linux)
        return mp.get_context("spawn")
    ctx = mp.get_context("forkserver")
    ctx.set_forkserver_preload(["macau_tables.server.checks"])
    return ctx


def put_snapshot(
    conn: Connection, table_id: str, seq: int, encoded: Any, base: int, keep: int = 3
) -> None:
    """Store the state checkpointed at entry ``seq``; keep the table's last ``keep`` and
    every one from ``base`` on (the snapshot its engine's window starts from: safe to start
    from, where a newer one may not be yet)."""
    conn.execute(
        snapshots_t.insert().values(
            table_id=table_id, seq=seq, state=snapshot_text(encoded), created_at=now_ms()
        )
    )
    kept = [
        int(r[0])
        for r in conn.execute(
            sa.select(snapshots_t.c.seq)
            .where(snapshots_t.c.table_id == table_id)
            .order_by(snapshots_t.c.seq.desc())
            .limit(keep)
        )
    ]
    conn.execute(
        snapshots_t.delete().where(
            snapshots_t.c.table_id == table_id, snapshots_t.c.seq < min(*kept, base)
        )
    )


def snapshot_seqs(conn: Connection, table_id: str) -> list[int]:
    """The entries the table's stored snapshots are at, the latest first."""
    rows = conn.execute(
        sa.select(snapshots_t.c.seq)
        .where(snapshots_t.c.table_id == table_id)
        .order_by(snapshots_t.c.seq.desc())
    )
    return [int(r[0]) for r in rows]


def get_snapshot(conn: Connection, table_id: str, seq: int) -> Any:
    """The state stored at entry ``seq`` (:class:`SnapshotError` if it is not JSON)."""
    text = conn.execute(
        sa.select(snapshots_t.c.state).where(
            snapshots_t.c.table_id == table_id, snapshots_t.c.seq == seq
        )
    ).scalar_one()
    try:
        return json.loads(text)
    except (TypeError, ValueError) as exc:
        raise SnapshotError(f"the snapshot stored at entry {seq} is not JSON") from exc


def events_after(conn: Connection, table_id: str, after: int) -> list[tuple[int, Any]]:
    rows = conn.execute(
        sa.select(journal_t.c.seq, journal_t.c.event)
        .where(journal_t.c.table_id == table_id, journal_t.c.seq > after)
        .order_by(journal_t.c.seq)
    )
    return [(int(s), event_from_json(json.loads(ev))) for s, ev in rows]


# --- seeds, idempotency, audit ---------------------------------------------------------


def put_seed(conn: Connection, table_id: str, commitment: str, label: str, seed: bytes) -> None:
    run(
        conn,
        "seed",
        {
            "table_id": table_id,
            "commitment": commitment,
            "label": label,
            "seed": seed.hex(),
            "created_at": now_ms(),
        },
    )


def table_seeds(conn: Connection, table_id: str) -> dict[str, bytes]:
    rows = conn.execute(
        sa.select(seeds_t.c.commitment, seeds_t.c.seed).where(seeds_t.c.table_id == table_id)
    )
    return {str(c): bytes.fromhex(s) for c, s in rows}


@dataclass(frozen=True)
class Stored:
    """A response kept under an idempotency key: its JSON as first sent (records written
    by an earlier release hold the same value as canonical JSON)."""

    request_hash: str
    status: int
    text: str

    @property
    def body(self) -> Any:
        return json.loads(self.text)


def get_idempotent(conn: Connection, user: str, key: str) -> Stored | None:
    row = run(conn, "idem_get", {"user_name": user, "key": key}).first()
    return Stored(row[0], int(row[1]), row[2]) if row else None


def put_idempotent(
    conn: Connection,
    user: str,
    key: str,
    req_hash: str,
    status: int,
    body: Any,
    *,
    raw: bytes | None = None,
) -> None:
    """Keep the response to ``key``: ``raw``, the bytes sent (:func:`render` of ``body``
    when not given), so that a replay answers byte for byte the same."""
    run(
        conn,
        "idem_put",
        {
            "user_name": user,
            "key": key,
            "request_hash": req_hash,
            "status": status,
            "response": (render(body) if raw is None else raw).decode(),
            "created_at": now_ms(),
        },
    )


def idempotency_to_prune(conn: Connection, before_ms: int, limit: int) -> bool:
    """Whether :func:`prune_idempotency` would delete a record now: a read, so that a pass
    with nothing to delete writes nothing (no transaction, no fsync)."""
    if conn.dialect.name == "sqlite":
        sql = (
            "SELECT 1 FROM (SELECT created_at FROM idempotency ORDER BY rowid LIMIT :n) "
            "WHERE created_at < :before LIMIT 1"
        )
    else:
        sql = "SELECT 1 FROM idempotency WHERE created_at < :before LIMIT 1"
    return conn.execute(sa.text(sql), {"before": before_ms, "n": limit}).first() is not None


def prune_idempotency(conn: Connection, before_ms: int, limit: int) -> int:
    """Delete up to ``limit`` idempotency records written before ``before_ms`` (the
    retention window's start: ``serve --idempotency-hours``), the oldest first; return how
    many. A key whose record is gone is a new key: a request sent with it again runs again.

    SQLite looks at the ``limit`` oldest records by ``rowid`` (the order they were written
    in) and deletes those among them that are old enough: no index on the time, and no
    scan past them when none is. PostgreSQL takes the oldest by ``created_at`` (its index,
    migration 0009), skipping rows another process is deleting (``SKIP LOCKED``)."""
    if conn.dialect.name == "sqlite":
        sql = (
            "DELETE FROM idempotency WHERE rowid IN (SELECT rowid FROM (SELECT rowid, "
            "created_at FROM idempotency ORDER BY rowid LIMIT :n) WHERE created_at < :before)"
        )
    else:
        sql = (
            "DELETE FROM idempotency AS i USING (SELECT user_name, key FROM idempotency "
            "WHERE created_at < :before ORDER BY created_at LIMIT :n FOR UPDATE SKIP LOCKED) "
            "AS old WHERE i.user_name = old.user_name AND i.key = old.key"
        )
    return int(conn.execute(sa.text(sql), {"before": before_ms, "n": limit}).rowcount)


def audit(
    conn: Connection, user: str, action: str, target: str, reason: str, data: Any = None
) -> None:
    conn.execute(
        audit_t.insert().values(
            at=now_ms(),
            user_name=user,
            action=action,
            target=target,
            reason=reason,
            data=dumps(data or {}),
        )
    )
