"""The money checks: the ledger's own, and a table's journal against the ledger.

* :func:`verify_ledger` — the postings sum to zero, in all and per transaction, and every
  account's cached balance equals the sum of its postings. SQL aggregates over every
  posting: O(history). At start-up, with ``Settings.chain_check="background"`` (the
  default), it runs in the floor's worker process once the tables are open
  (:func:`check_ledger`); with ``"startup"`` before they open. ``GET /audit/ledger`` runs
  it on demand.
* :func:`table_money_problems` — a table's window (the journal the engine holds, from its
  snapshot on) against the ledger's rows from the window's first entry on: the same
  postings per account, the same holds opened and closed. At every load, before the table
  opens: O(window).
* :func:`history_money_problems` — the same for the entries before the window, read from
  their stored text: with the chain before the window, in the worker
  (:func:`check_history`), or before the table opens with ``"startup"``.

Together the last two cover a table's whole journal, split at the window's first entry:
its transactions, holds opened and holds closed carry the journal entry (``seq``) whose
event moved the money.
"""

from __future__ import annotations

import importlib
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.errors import LedgerMismatch, MacauTablesError
from macau_tables.core.journal import Event, event_from_json
from macau_tables.core.ledger import movement_of
from macau_tables.server import store

if TYPE_CHECKING:
    from macau_tables.games.contract import TableEngine

__all__ = [
    "DatabaseCheck",
    "Moved",
    "Problem",
    "RecoveryReport",
    "check_database",
    "check_history",
    "check_ledger",
    "history_money_problems",
    "table_money_problems",
    "verify_history_money",
    "verify_ledger",
]

#: the accounts a table owns (``kind:table_id:…``); a problem in one names that table
TABLE_ACCOUNTS = ("stack", "wagers", "bank", "house", "commission")


@dataclass
class Problem:
    table_id: str | None  # None: the whole floor's (every table is locked)
    reason: str


def verify_ledger(conn: Connection) -> list[Problem]:
    """The ledger's own checks: the postings sum to zero, each transaction sums to zero,
    and every account's cached balance equals the sum of its postings. Each check is one
    statement, so each reads one state of the ledger even while tables play (the
    background check): two statements — the accounts' sums, then their cached balances —
    would see the bets committed between them as a mismatch."""
    p, a = store.postings_t, store.accounts_t
    out: list[Problem] = []
    total = conn.execute(sa.select(sa.func.coalesce(sa.func.sum(p.c.amount), 0))).scalar_one()
    if int(total) != 0:
        out.append(Problem(None, f"money: the postings sum to {total}, not zero"))
    bad_tx = conn.execute(
        sa.select(p.c.tx_id).group_by(p.c.tx_id).having(sa.func.sum(p.c.amount) != 0).limit(5)
    ).all()
    for (tx,) in bad_tx:
        out.append(Problem(None, f"money: transaction {tx} does not sum to zero"))
    sums = (
        sa.select(p.c.account, sa.func.sum(p.c.amount).label("total"))
        .group_by(p.c.account)
        .subquery()
    )
    rows = conn.execute(
        sa.select(a.c.name, a.c.balance, sa.func.coalesce(sums.c.total, 0))
        .select_from(a.outerjoin(sums, sums.c.account == a.c.name))
        .where(a.c.balance != sa.func.coalesce(sums.c.total, 0))
    ).all()
    for name, cached, posted in rows:
        parts = str(name).split(":")
        table = parts[1] if parts[0] in TABLE_ACCOUNTS else None
        out.append(
            Problem(table, f"money: {name} caches {cached} but its postings sum to {posted}")
        )
    return out


# --- a table's journal against the ledger -----------------------------------------------


@dataclass
class Moved:
    """What a range of a table's entries moved: per account, and the holds."""

    postings: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    opened: set[str] = field(default_factory=set)
    closed: set[str] = field(default_factory=set)

    def add(self, ev: Event) -> None:
        mv = movement_of(ev)
        if mv is None:
            return
        for posting in mv.transaction.postings:
            self.postings[posting.account] += posting.amount.minor
        self.opened.update(mv.opens)
        self.closed.update(mv.closes)


def journal_moved(events: Iterable[Event]) -> Moved:
    moved = Moved()
    for ev in events:
        moved.add(ev)
    return moved


def ledger_moved(conn: Connection, table_id: str, first: int = 0, end: int | None = None) -> Moved:
    """The ledger's rows of the table's entries ``first … end - 1`` (``end`` None: to the
    last)."""
    p, t = store.postings_t, store.transactions_t
    o, c = store.holds_opened_t, store.holds_closed_t

    def within(seq: Any) -> list[Any]:
        return [seq >= first] + ([] if end is None else [seq < end])

    moved = Moved()
    for acct, total in conn.execute(
        sa.select(p.c.account, sa.func.sum(p.c.amount))
        .select_from(p.join(t, t.c.id == p.c.tx_id))
        .where(t.c.table_id == table_id, *within(t.c.seq))
        .group_by(p.c.account)
    ):
        moved.postings[str(acct)] = int(total)
    moved.opened = {
        str(h)
        for (h,) in conn.execute(
            sa.select(o.c.hold_id).where(o.c.table_id == table_id, *within(o.c.seq))
        )
    }
    moved.closed = {
        str(h)
        for (h,) in conn.execute(
            sa.select(c.c.hold_id).where(c.c.table_id == table_id, *within(c.c.seq))
        )
    }
    return moved


def differences(journal: Moved, ledger: Moved, where: str = "") -> list[str]:
    """What the ledger and the journal disagree on (``where``: which entries, for the
    reason)."""
    out = []
    for account in sorted(set(journal.postings) | set(ledger.postings)):
        want, have = journal.postings.get(account, 0), ledger.postings.get(account, 0)
        if want != have:
            out.append(f"money: {account} is {have} in the ledger but {want} by the journal{where}")
    if journal.opened != ledger.opened or journal.closed != ledger.closed:
        out.append(f"money: the holds in the ledger differ from the journal's{where}")
    return out


def table_money_problems(conn: Connection, table_id: str, engine: TableEngine | None) -> list[str]:
    """The table's window (a table started from a snapshot, or compacted) against the
    ledger's rows from its first entry on: the same postings per account, and the same
    holds opened and closed (``engine``: the table's, none: nothing to check)."""
    if engine is None:
        return []
    ledger = ledger_moved(conn, table_id, engine.journal.first)
    return differences(journal_moved(engine.journal.events), ledger)


def history_money_problems(conn: Connection, table_id: str, end: int) -> list[str]:
    """The table's entries before ``end`` (before its window), decoded from their stored
    text, against the ledger's rows of those entries. Each event's kind must be known to
    this process (its game's module imported)."""
    q = store.journal_t.c
    moved = Moved()
    rows = conn.execute(
        sa.select(q.event).where(q.table_id == table_id, q.seq < end).order_by(q.seq)
    )
    for (text,) in rows:
        moved.add(event_from_json(json.loads(text)))
    return differences(moved, ledger_moved(conn, table_id, 0, end), f" (entries before {end})")


def verify_history_money(conn: Connection, table_id: str, end: int) -> None:
    """:func:`history_money_problems`, raised as :class:`LedgerMismatch`."""
    problems = history_money_problems(conn, table_id, end)
    if problems:
        raise LedgerMismatch("; ".join(problems))


# --- the floor's worker process -----------------------------------------------------------


def check_history(
    url: str,
    table_id: str,
    game: str,
    header: Mapping[str, Any],
    end: int,
    modules: Sequence[str] = (),
) -> tuple[bool, str]:
    """In a worker process (``Floor``'s background check): the chain of the table's
    entries ``0 … end - 1`` from their stored text (:func:`store.verify_chain_to`), then
    their money against the ledger (:func:`history_money_problems`; ``modules`` are
    imported first: the game's, so that its events decode). ``(True, the hash of entry
    end - 1)``, or ``(False, why)``."""
    for module in modules:
        importlib.import_module(module)
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            last = store.verify_chain_to(conn, table_id, game, header, end)
            verify_history_money(conn, table_id, end)
        return True, last
    except MacauTablesError as exc:  # the chain, the money, or an entry that does not decode
        return False, f"{type(exc).__name__}: {exc}"
    finally:
        engine.dispose()


def check_ledger(url: str) -> list[tuple[str | None, str]]:
    """:func:`verify_ledger` on a connection of its own, in the worker process: the
    problems as ``(table_id or None, reason)``."""
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            return [(p.table_id, p.reason) for p in verify_ledger(conn)]
    finally:
        engine.dispose()


# --- a whole database, offline or beside a running server (``macau-tables db check``) ----


@dataclass
class TableCheck:
    table_id: str
    game: str
    status: str  # the table's, as stored (open, paused, closed, locked)
    entries: int
    problem: str | None  # None: its chain and its money verify (and its rules: replayed)
    replayed: bool = False  # its events re-run through the rules (``replay``)


@dataclass
class DatabaseCheck:
    """What :func:`check_database` found: the ledger's own problems and each table's."""

    ledger: list[str]
    tables: list[TableCheck]
    postings: int

    @property
    def ok(self) -> bool:
        return not self.ledger and all(t.problem is None for t in self.tables)


def check_database(url: str | None, *, replay: bool = False) -> DatabaseCheck:
    """Everything a floor's start-up checks, on the database at ``url`` (a SQLite path or
    URL, None for ``./macau-tables.db``, or PostgreSQL's), in one read
    snapshot (a server may be writing it meanwhile): the ledger's own sums
    (:func:`verify_ledger`), and each table's whole journal — its chain from the stored
    text to the head the table row names, and the money its events moved against the
    ledger's rows (:func:`history_money_problems`). With ``replay``, each table's whole
    journal is also re-run through its game's rules from its opening, every event
    re-derived (``contract.replay``; a server's start-up re-runs only the entries since a
    table's latest snapshot): what a lab checks, at 0.09–0.23 ms an entry by game."""
    from macau_tables.server.db import database_error, normalise_url, sqlite_file
    from macau_tables.server.games import games

    known = games()
    sqlite_file(url)  # (a file that is not there: refused, not created empty)
    engine = sa.create_engine(normalise_url(url), poolclass=sa.pool.NullPool)
    if engine.dialect.name == "sqlite":
        # pysqlite begins a transaction only before a write: a BEGIN of our own, so that
        # every read below sees the state of the first (SQLAlchemy's recipe)
        sa.event.listen(engine, "connect", _no_implicit_begin)
        sa.event.listen(engine, "begin", lambda c: c.exec_driver_sql("BEGIN"))
    try:
        with engine.connect() as raw:
            conn = raw
            if engine.dialect.name == "postgresql":
                conn = raw.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                ledger = [p.reason for p in verify_ledger(conn)]
                postings = int(
                    conn.execute(
                        sa.select(sa.func.count()).select_from(store.postings_t)
                    ).scalar_one()
                )
                rows = conn.execute(sa.select(store.tables_t).order_by(store.tables_t.c.id)).all()
                tables = [_check_table(conn, row, known, replay) for row in rows]
    except sa.exc.SQLAlchemyError as exc:  # not reachable, or not a server's database
        raise database_error(exc) from exc
    finally:
        engine.dispose()
    return DatabaseCheck(ledger, tables, postings)


def _no_implicit_begin(dbapi_conn: Any, _record: Any) -> None:
    dbapi_conn.isolation_level = None


def _check_table(conn: Connection, row: Any, known: Mapping[str, Any], replay: bool) -> TableCheck:
    from macau_tables.games.contract import replay as rerun

    end = int(row.head_seq) + 1
    problem: str | None = None
    if row.game not in known:
        problem = f"unknown game {row.game!r}: this installation runs {sorted(known)}"
    else:
        try:
            head = store.verify_chain_to(conn, row.id, row.game, json.loads(row.header), end)
            if head != row.head_hash:
                named = str(row.head_hash)[:12]
                problem = f"JournalTampered: the chain ends at {head[:12]}…, the table at {named}…"
            else:
                verify_history_money(conn, row.id, end)
                if replay:
                    header = json.loads(row.header)
                    journal = store.load_journal(conn, row.id, row.game, header)
                    seeds = store.table_seeds(conn, row.id)
                    rerun(journal, known[row.game].open, seeds)
        except MacauTablesError as exc:  # the chain, the money, an entry that does not decode,
            problem = f"{type(exc).__name__}: {exc}"  # an event the rules do not re-derive
    return TableCheck(row.id, row.game, str(row.status), end, problem, replay)


@dataclass
class RecoveryReport:
    """What the start-up's verification found and did (``Floor.recover``, a take-over)."""

    tables: int = 0
    locked: dict[str, str] = field(default_factory=dict)
    driven: dict[str, int] = field(default_factory=dict)
    ledger: list[str] = field(default_factory=list)
    seconds: float = 0.0  # how long the verification and rebuild took
    created: list[str] = field(default_factory=list)  # demo tables made on a new floor
