"""The floor: the database, every table's actor, the cashier, people and tokens.

:meth:`Floor.start` applies pending migrations, verifies and rebuilds every table
(:meth:`recover`), creates the demo floor on first start, and starts the tables' clocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import json
import logging
import os
import time
from collections import defaultdict
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.errors import HoldError, InsufficientFunds, MacauTablesError
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import CAGE, Movement, Transaction, movement_of
from macau_tables.core.money import MOP, Money
from macau_tables.core.rng import new_server_seed
from macau_tables.games.contract import TableEngine
from macau_tables.games.contract import accounts as acc
from macau_tables.server import checks, controls, store
from macau_tables.server.auth import (
    Passwords,
    StaffRole,
    User,
    get_user,
    new_token,
    token_hash,
)
from macau_tables.server.checks import RecoveryReport
from macau_tables.server.cluster import Cluster, not_owner
from macau_tables.server.db import Database, ServerLock, is_duplicate, upgrade
from macau_tables.server.errors import ApiError, from_domain, not_found
from macau_tables.server.games import GameBinding, binding, games
from macau_tables.server.logins import LoginThrottle, check_password
from macau_tables.server.settings import Settings
from macau_tables.server.tables import LeaseLost, Reply, TableActor, recorded_answer

log = logging.getLogger("macau_tables.server")

TOKEN_RECHECK_S = 5.0  # several processes: a cached token is looked up again after this
DEMO_DEPOSIT = 1_000_000  # avos: MOP 10,000.00 per demo player
#: the audit log's entry that names the demo accounts and a digest of each one's first
#: password hash (``serve`` on a public address refuses while one is active and unchanged)
DEMO_AUDIT = "demo_accounts"


def demo_fingerprint(password_hash: str) -> str:
    """What the audit log keeps of a demo account's first password: a digest of its hash
    (a password changed since no longer matches it)."""
    return hashlib.sha256(password_hash.encode()).hexdigest()[:16]


DEMO_USERS = (
    ("alice", StaffRole.PLAYER),
    ("bob", StaffRole.PLAYER),
    ("carol", StaffRole.PLAYER),
    ("dealer", StaffRole.DEALER),
    ("cashier", StaffRole.CASHIER),
    ("supervisor", StaffRole.SUPERVISOR),
    ("auditor", StaffRole.AUDITOR),
    # two: a staff account one creates, the other approves (server/controls.py)
    ("administrator", StaffRole.ADMINISTRATOR),
    ("administrator2", StaffRole.ADMINISTRATOR),
)
# avos: the demo cage's opening fill, MOP 10,000,000,000.00 — enough for the bots and the
# benchmarks (benchmarks/bench_server.py gives 400 players MOP 1,000,000.00 each)
DEMO_FLOAT = 10**12

#: seconds a cashier's request waits for the ledger's check at start-up (in the
#: background): until then no balance is trusted to pay from
LEDGER_WAIT_S = 60.0


#: seconds before the background check of a chain is tried again after its worker or the
#: database failed (not the chain)
CHAIN_RETRY = 5.0

#: seconds between two passes of the idempotency records' retention (Floor.prune_idempotency)
PRUNE_EVERY = 10.0

#: records deleted per write transaction by a pass: on SQLite each such delete is a unit of
#: the group commit, between the tables' commands (~1–2 ms for 250)
PRUNE_CHUNK = 250


class Floor:
    """Everything the API talks to (see the module docstring)."""

    def __init__(self, settings: Settings | None = None) -> None:
        self.settings = settings or Settings()
        self.db = Database(self.settings.database_url)
        self.accounts = store.Accounts()
        self.passwords = Passwords(fast=self.settings.fast_passwords)
        #: failed logins per name and per address, in this process's memory (its clock
        #: may be replaced: ``floor.throttle = LoginThrottle(clock=…)``)
        self.throttle = LoginThrottle()
        self.tables: dict[str, TableActor] = {}
        self._tokens: dict[str, tuple[User, int]] = {}
        self._token_seen: dict[str, float] = {}
        self.demo_credentials: dict[str, str] = {}
        self.recovery = RecoveryReport()
        self.cluster: Cluster | None = None
        self._ledger_reasons: dict[str, list[str]] | None = None
        self._server_lock: ServerLock | None = None
        # the background check of the chains before the tables' windows (check_chains)
        self._chain_task: asyncio.Task[None] | None = None
        self._chain_pool: ProcessPoolExecutor | None = None
        self.chains_checked = 0  # tables whose history the background check verified
        self._prune_task: asyncio.Task[None] | None = None
        self.idempotency_pruned = 0  # records the retention deleted since the start
        self._ledger_job = False  # the ledger's own check is left to the background
        self._ledger_running = False  # (and running now)
        if not self.db.is_sqlite and self.settings.cluster is not False:
            self.cluster = Cluster(
                self,
                self.settings.internal_url,
                poll=self.settings.lease_poll,
                forward_wait=self.settings.forward_wait,
            )

    # --- start and stop -----------------------------------------------------------------

    async def start(self) -> None:
        if self.cluster is not None:
            await self.cluster.connect()
            async with self.cluster.floor_lock():
                await self._start()
            await self.cluster.run()
        else:
            if self.db.is_sqlite:  # one server process per file (db.ServerLock)
                self._server_lock = ServerLock(self.db.url)
            await self._start()
        if self.settings.idempotency_hours > 0:
            self._prune_task = asyncio.get_running_loop().create_task(self._prune_loop())

    async def _start(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, upgrade, self.db)
        self.accounts.frozen = frozenset(await self.db.read(store.frozen_accounts))
        started = time.perf_counter()
        self.recovery = await self.recover()
        self.recovery.seconds = time.perf_counter() - started
        if self.settings.demo:
            known = set(self.tables)
            await self.bootstrap()
            self.recovery.created = [t for t in self.tables if t not in known]
        if self.settings.clocks:
            for actor in self.tables.values():
                if actor.owned:
                    actor.start()
        self.check_chains()

    async def stop(self) -> None:
        if self._prune_task is not None:
            self._prune_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._prune_task
            self._prune_task = None
        if self._chain_task is not None:
            self._chain_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._chain_task
        if self._chain_pool is not None:
            self._chain_pool.shutdown(wait=False, cancel_futures=True)
            self._chain_pool = None
        if self.cluster is not None:
            await self.cluster.stop()
        for actor in self.tables.values():
            await actor.stop()
        if self.cluster is not None:
            await self.cluster.close()
        self.db.close()
        if self._server_lock is not None:
            self._server_lock.close()
            self._server_lock = None

    async def prune_idempotency(self, now_ms: int | None = None) -> int:
        """Delete the idempotency records older than ``idempotency_hours`` (before
        ``now_ms``, the wall clock by default), ``PRUNE_CHUNK`` a write transaction, until
        none is left; return how many. The records are the largest part of what the database
        gains a command (docs/operations.md, "Disk"); the ledger and the journals are kept."""
        now = store.now_ms() if now_ms is None else now_ms
        before = now - round(self.settings.idempotency_hours * 3_600_000)
        total = 0
        if not await self.db.read(lambda c: store.idempotency_to_prune(c, before, PRUNE_CHUNK)):
            return total  # (most passes: no write at all)
        while True:
            n = await self.db.write(lambda c: store.prune_idempotency(c, before, PRUNE_CHUNK))
            total += n
            self.idempotency_pruned += n
            if n < PRUNE_CHUNK:
                return total

    async def _prune_loop(self) -> None:
        while True:
            await asyncio.sleep(PRUNE_EVERY)
            try:
                await self.prune_idempotency()
            except Exception:  # the database failed: the next pass tries again
                log.exception("deleting old idempotency records failed")

    def memory(self) -> dict[str, int | None]:
        """What grows: the process's resident memory (bytes; None where ``/proc`` is not)
        and the journal entries of the tables loaded here (docs/operations.md, "Memory")."""
        try:
            pages = int(Path("/proc/self/statm").read_text().split()[1])
            rss: int | None = pages * os.sysconf("SC_PAGE_SIZE")
        except (OSError, ValueError, IndexError):
            rss = None
        loaded = [a.engine for a in self.tables.values() if a.engine is not None]
        return {
            "rss_bytes": rss,
            "tables_loaded": len(loaded),
            "journal_entries": sum(e.journal.kept for e in loaded),
        }

    # --- recovery ----------------------------------------------------------------------

    async def recover(self) -> RecoveryReport:
        """Verify the ledger and every table, rebuild each, finish unfinished rounds.

        A table whose chain, replay or money does not verify is locked with the reason.
        """
        report = RecoveryReport()
        rows = await self.db.read(
            lambda c: c.execute(sa.select(store.tables_t).order_by(store.tables_t.c.id)).all()
        )
        if self.settings.chain_check == "background":
            problems: list[checks.Problem] = []  # the worker checks it once the tables open
            self._ledger_job = True
        else:
            problems = await self.db.read(checks.verify_ledger)
            if problems:
                await self.freeze_mismatched()
        report.ledger = [p.reason for p in problems]
        by_table = _by_table([(p.table_id, p.reason) for p in problems], [r.id for r in rows])
        for row in rows:
            report.tables += 1
            actor = self._actor_of(row)
            self.tables[row.id] = actor
            if self.cluster is not None:  # recovered when this process takes its lease
                actor.owned = False
                continue
            await self._recover_table(actor, by_table.get(row.id, []), report)
        if self.cluster is not None:
            self._ledger_reasons = by_table
            await self.cluster.poll_once(report)
            report.tables = len(self.cluster.owned)  # verified here: the ones it took
        return report

    async def _recover_table(
        self, actor: TableActor, ledger_reasons: list[str], report: RecoveryReport
    ) -> None:
        """One table, as at start-up: chain, replay, money; lock it or drive its round."""
        reason: str | None = "; ".join(ledger_reasons) or None
        if reason is None and actor.status != "locked":
            try:
                # loaded and checked in one read, and given to the actor only then: at a
                # take-over the table serves meanwhile, and a command run on the engine
                # between the two (its postings not committed yet) looked like a mismatch
                actor.engine, money = await self.db.read(
                    functools.partial(_load_checked, actor=actor)
                )
                reason = "; ".join(money) or None
            except MacauTablesError as exc:
                reason = f"{type(exc).__name__}: {exc}"
        elif actor.status == "locked":
            reason = None
            try:
                actor.engine = await self.db.read(actor.load)
            except MacauTablesError:
                actor.engine = None
        if reason is not None:
            await self.lock_table(actor, reason)
            report.locked[actor.table_id] = reason
            return
        if actor.status == "paused" and actor.table_id in await self.db.read(
            store.frozen_tables
        ):  # a disputed round (stored as paused with an open dispute): frozen again
            actor.status = "frozen"
        if actor.status == "open":
            steps = await actor.drive()
            if steps:
                report.driven[actor.table_id] = steps

    # --- leases (several processes on PostgreSQL, server/cluster.py) ----------------------

    async def adopt(self, table_ids: list[str]) -> None:
        """Know the tables other processes created (as replicas: not owned)."""
        new = [t for t in table_ids if t not in self.tables]
        if not new:
            return
        rows = await self.db.read(
            lambda c: c.execute(sa.select(store.tables_t).where(store.tables_t.c.id.in_(new))).all()
        )
        for row in rows:
            if row.id not in self.tables:
                actor = self._actor_of(row)
                actor.owned = False
                self.tables[row.id] = actor

    async def take_over(self, table_ids: list[str], report: RecoveryReport | None = None) -> None:
        """Tables whose advisory locks this process just took: claim their lease rows,
        then rebuild each exactly as at start-up (:meth:`_recover_table`) and start its
        clock. The ledger is checked once for the batch (by default in the background, as
        at start-up)."""
        assert self.cluster is not None
        cluster = self.cluster
        report = report if report is not None else RecoveryReport()
        by_table = self._ledger_reasons
        self._ledger_reasons = None
        if by_table is None and self.settings.chain_check == "background":
            by_table = {}
            self._ledger_job = True  # (check_chains, below)
        elif by_table is None:
            rows = await self.db.read(lambda c: c.execute(sa.select(store.tables_t.c.id)).all())
            problems = await self.db.read(checks.verify_ledger)
            by_table = _by_table([(p.table_id, p.reason) for p in problems], [t for (t,) in rows])
        await self.adopt(table_ids)
        for table_id in table_ids:
            actor = self.tables[table_id]
            try:
                async with actor.lock:
                    await self.db.write(functools.partial(cluster.write_lease, table_id=table_id))
                    if actor.subscribers:  # its watchers here first get all that was committed
                        await actor.catch_up_locked()
                    row = await self.db.read(functools.partial(_table_row, table_id=table_id))
                    actor.status, actor.lock_reason = row.status, row.lock_reason
                    actor.settings = json.loads(row.settings)
                    actor.engine = None
                    actor.owned = True
            except Exception:  # not claimed: let it go (this or another process tries again)
                log.exception("table %s: could not claim its lease", table_id)
                await cluster.unlock(table_id)
                continue
            cluster.owned.add(table_id)
            try:
                await self._recover_table(actor, by_table.get(table_id, []), report)
            except Exception as exc:  # never leave a table half taken: lock it, say why
                log.exception("table %s: take-over failed", table_id)
                await self.lock_table(actor, f"take-over failed: {type(exc).__name__}: {exc}")
            log.info("table %s: taken over by %s", table_id, cluster.owner)
            actor.broadcast_state()
            if self.settings.clocks and actor.owned:
                actor.start()
        self.check_chains()

    async def release(self, table_id: str, *, unlock: bool = True) -> None:
        """Hand a table back: after the command in flight, stop its clock, say nobody in
        its lease row and unlock it (its watchers here stay, as a replica's)."""
        actor = self.tables.get(table_id)
        if actor is not None:
            async with actor.lock:
                actor.owned = False
            await actor.stop_clock()
            if not actor.subscribers:
                actor.engine = None
        if self.cluster is not None:
            self.cluster.owned.discard(table_id)
            if unlock:
                with contextlib.suppress(Exception):
                    await self.cluster.release_row(table_id)
                await self.cluster.unlock(table_id)

    def _actor_of(self, row: Any) -> TableActor:
        try:
            game = binding(row.game)
        except MacauTablesError:
            game = GameBinding(row.game, _missing_game, _missing_open)
        return TableActor(
            self,
            row.id,
            game,
            options=json.loads(row.options),
            settings=json.loads(row.settings),
            status=row.status,
            lock_reason=row.lock_reason,
            header=json.loads(row.header),
            engine=None,
        )

    # --- the history before the windows, and the ledger, in the background -------------

    def chains_pending(self) -> list[str]:
        """The tables whose history before their window (chain and money) the background
        check has not done."""
        return sorted(t for t, a in self.tables.items() if a.chain_job is not None and a.owned)

    def ledger_pending(self) -> bool:
        """The ledger's own check (``checks.verify_ledger``) is left to the background."""
        return self._ledger_job or self._ledger_running

    def check_chains(self) -> None:
        """Start the background check of what the start-up or a take-over left to it
        (``TableActor._chain_before``; the ledger, at start-up), if anything."""
        if (self._ledger_job or self.chains_pending()) and (
            self._chain_task is None or self._chain_task.done()
        ):
            self._chain_task = asyncio.get_running_loop().create_task(self._check_chains())

    async def _check_chains(self) -> None:
        """In a worker process — the event loop plays on: the ledger's own check, then each
        table's entries before its window, as a chain from their stored text linked to the
        window's first entry, and their money against the ledger
        (``checks.check_history``). A table that does not verify is locked with the
        reason, as at start-up."""
        loop = asyncio.get_running_loop()
        try:
            await self._check_ledger(loop)
            await self._check_pending_chains(loop)
        finally:  # (its worker goes: a later take-over starts another)
            if self._chain_pool is not None:
                self._chain_pool.shutdown(wait=False, cancel_futures=True)
                self._chain_pool = None

    def _worker(self) -> ProcessPoolExecutor:
        if self._chain_pool is None:
            self._chain_pool = ProcessPoolExecutor(
                1,
                mp_context=store.worker_context(),
                initializer=store.exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._chain_pool

    async def _check_ledger(self, loop: asyncio.AbstractEventLoop) -> None:
        while self._ledger_job:  # (asked again meanwhile, by a take-over: once more)
            self._ledger_job, self._ledger_running = False, True
            try:
                try:
                    found = await loop.run_in_executor(
                        self._worker(), checks.check_ledger, self.db.url
                    )
                except Exception:  # (the worker or the database) again later
                    log.exception("the check of the ledger failed")
                    self._chain_pool = None
                    self._ledger_job = True
                    await asyncio.sleep(CHAIN_RETRY)
                    continue
                self.recovery.ledger.extend(reason for _, reason in found)
                # the accounts frozen and the tables locked before the check counts as done
                # (ledger_pending): the cashier, and whoever reads /health, wait for both
                if found:
                    await self.freeze_mismatched()
                owned = [t for t, a in self.tables.items() if a.owned]
                for table_id, reasons in sorted(_by_table(found, owned).items()):
                    actor = self.tables[table_id]
                    if actor.status != "locked":
                        reason = "; ".join(reasons)
                        self.recovery.locked[table_id] = reason
                        await self.lock_table(actor, reason)
            finally:
                self._ledger_running = False

    async def _check_pending_chains(self, loop: asyncio.AbstractEventLoop) -> None:
        while pending := self.chains_pending():
            for table_id in pending:
                actor = self.tables[table_id]
                if actor.chain_job is None or not actor.owned:
                    continue  # (done, or handed to another process, which checks it)
                end, link = actor.chain_job
                game = actor.game
                try:
                    ok, found = await loop.run_in_executor(
                        self._worker(),
                        checks.check_history,
                        self.db.url,
                        table_id,
                        game.name,
                        actor.header,
                        end,
                        sorted({game.create.__module__, game.open.__module__}),
                    )
                except Exception:  # (not the history: the worker or the database) again later
                    log.exception("table %s: the check of its history failed", table_id)
                    self._chain_pool = None
                    await asyncio.sleep(CHAIN_RETRY)
                    continue
                if not actor.owned or actor.chain_job != (end, link):
                    continue  # (handed over, or checked at once meanwhile: an unlock)
                actor.chain_job = None
                if ok and found == link:
                    actor.chain_verified(end, found)
                    self.chains_checked += 1
                    continue
                if ok:
                    found = f"JournalTampered: entry {end}: prev_hash does not match"
                reason = found
                self.recovery.locked[table_id] = reason
                await self.lock_table(actor, reason)

    async def freeze_mismatched(self) -> None:
        """Freeze every account whose cached balance differs from its postings: no money
        path takes it until a supervisor resolves it (``controls.resolve_frozen``)."""
        self.accounts.frozen = await self.db.write(controls.freeze_mismatched)

    async def lock_table(self, actor: TableActor, reason: str) -> None:
        actor.status, actor.lock_reason = "locked", reason
        log.error("table %s locked: %s", actor.table_id, reason)

        def unit(conn: Connection) -> None:
            conn.execute(
                store.tables_t.update()
                .where(store.tables_t.c.id == actor.table_id)
                .values(status="locked", lock_reason=reason)
            )
            store.audit(conn, "system", "lock", actor.table_id, reason)

        await self.db.write(unit)
        if self.cluster is not None:
            self.cluster.announce(actor.table_id, actor.seq)
        actor.broadcast_state()

    # --- demo floor ---------------------------------------------------------------------

    async def bootstrap(self) -> dict[str, str]:
        """On first start (no users yet): demo accounts and one table of each game."""
        any_user = await self.db.read(
            lambda c: c.execute(sa.select(store.users_t.c.name).limit(1)).first()
        )
        if any_user is not None:
            return {}
        creds = {name: new_server_seed().hex()[:16] for name, _ in DEMO_USERS}
        hashed = {name: self.passwords.hash(pw) for name, pw in creds.items()}

        def unit(conn: Connection) -> None:
            for name, role in DEMO_USERS:
                conn.execute(
                    store.users_t.insert().values(
                        name=name,
                        role=role.value,
                        password_hash=hashed[name],
                        active=True,
                        created_at=(now := store.now_ms()),
                        created_by="system",
                        approved_by="system",
                        approved_at=now,
                    )
                )
            controls.demo_fill(conn, self.accounts, DEMO_FLOAT)
            for name, role in DEMO_USERS:
                if role is StaffRole.PLAYER:
                    tx = Transaction.transfer(
                        CAGE, acc.wallet(name), Money(DEMO_DEPOSIT, MOP), "demo deposit"
                    )
                    store.post(conn, self.accounts, Movement(tx), by_user="system")
            fingerprints = {name: demo_fingerprint(h) for name, h in hashed.items()}
            store.audit(conn, "system", DEMO_AUDIT, "floor", "passwords printed once", fingerprints)

        await self.db.write(unit)
        available = games()
        names = self.settings.demo_games
        for name in sorted(available) if names is None else names:
            table_id = f"{name}-1"
            if table_id not in self.tables:
                await self.create_table(table_id, name, dict(available[name].demo_options))
        self.demo_credentials = creds
        return creds

    # --- tables -------------------------------------------------------------------------

    def table(self, table_id: str) -> TableActor:
        actor = self.tables.get(table_id)
        if actor is None:
            raise not_found(f"no table {table_id!r}", "SRV-TABLE")
        return actor

    async def create_table(
        self,
        table_id: str,
        game_name: str,
        options: Mapping[str, Any],
        *,
        betting_seconds: float | None = None,
        action_seconds: float | None = None,
        dealer: str = "auto",
        player_timeouts: bool = False,
        user: str = "system",
    ) -> TableActor:
        exists = ApiError(409, "conflict", f"table {table_id!r} exists", "SRV-TABLE")
        if table_id in self.tables:
            raise exists
        try:
            game = binding(game_name)
            if game.dealer_option is not None:  # the engine's rules know it (craps: CR-R1)
                given = options.get(game.dealer_option, dealer)
                if given != dealer:
                    raise ApiError(
                        422,
                        "invalid_input",
                        f"options.{game.dealer_option} is {given!r}, but the table's dealer "
                        f"is {dealer!r}",
                        "SRV-INPUT",
                    )
                options = {**options, game.dealer_option: dealer}
            engine = game.create(table_id, options)
        except MacauTablesError as exc:
            raise from_domain(exc) from exc
        cluster = self.cluster
        if cluster is not None and not await cluster.try_lock(table_id):
            raise exists  # another process holds it: it exists (or is being created there)
        settings = {
            "betting_seconds": betting_seconds or self.settings.betting_seconds,
            "action_seconds": action_seconds or self.settings.action_seconds,
            "dealer_seconds": self.settings.dealer_seconds,
            "auto_dealer": dealer == "auto",
        }
        if dealer == "live":
            settings["player_timeouts"] = player_timeouts
        entries = list(engine.journal.entries)

        def unit(conn: Connection) -> None:
            if cluster is not None:
                found = conn.execute(
                    sa.select(store.tables_t.c.id).where(store.tables_t.c.id == table_id)
                ).first()
                if found is not None:
                    raise exists
            conn.execute(
                store.tables_t.insert().values(
                    id=table_id,
                    game=game.name,
                    options=store.dumps(dict(options)),
                    settings=store.dumps(settings),
                    status="open",
                    lock_reason=None,
                    header=store.dumps(engine.journal.header),
                    head_seq=-1,
                    head_hash=engine.journal.header_hash(),
                    created_at=store.now_ms(),
                )
            )
            store.append_entries(conn, table_id, entries)
            for e in entries:
                mv = movement_of(e.event)
                if mv is not None and (mv.transaction.postings or mv.opens or mv.closes):
                    store.post(conn, self.accounts, mv, table_id=table_id, seq=e.seq, by_user=user)
            store.audit(conn, user, "create_table", table_id, "", {"game": game.name})
            if cluster is not None:
                cluster.write_lease(conn, table_id)

        try:
            await self.db.write(unit)
        except BaseException:
            if cluster is not None:
                await cluster.unlock(table_id)
            raise
        if cluster is not None:
            cluster.owned.add(table_id)
        actor = TableActor(
            self,
            table_id,
            game,
            options=options,
            settings=settings,
            status="open",
            lock_reason=None,
            header=engine.journal.header,
            engine=engine,
        )
        self.tables[table_id] = actor
        if self.settings.clocks:
            actor.start()
        return actor

    async def set_status(self, actor: TableActor, status: str, user: str, reason: str) -> None:
        """Pause, resume (open), close or unlock (→ open after it verifies) a table."""
        if status == "open" and actor.status == "locked":
            # raises if it still does not verify: the whole chain and money, at once
            engine, problems = await self.db.read(
                functools.partial(_load_checked, actor=actor, defer=False)
            )
            # and the whole ledger's own check, not the table's alone: an account whose
            # cached balance is wrong keeps every table locked until it is resolved
            ledger = await self.db.read(checks.verify_ledger)
            if ledger:
                await self.freeze_mismatched()
            problems = [p.reason for p in ledger] + problems
            if problems:
                raise ApiError(409, "still_locked", "; ".join(problems), "SRV-LOCK")
            actor.engine = engine
        elif actor.status in ("locked", "closed", "frozen") and status != actor.status:
            raise ApiError(409, "table_" + actor.status, f"table is {actor.status}", "SRV-STATUS")

        def unit(conn: Connection) -> None:
            actor.lock_row(conn)
            if status == "closed":
                _refuse_closing_with_money(conn, actor.table_id)
            conn.execute(
                store.tables_t.update()
                .where(store.tables_t.c.id == actor.table_id)
                .values(status=status, lock_reason=None if status == "open" else actor.lock_reason)
            )
            store.audit(conn, user, f"status:{status}", actor.table_id, reason)

        async with actor.lock:
            if not actor.owned:
                raise not_owner(actor.table_id)
            try:
                await self.db.write(unit)
            except LeaseLost:
                actor.owned = False
                asyncio.get_running_loop().create_task(self.release(actor.table_id))
                raise not_owner(actor.table_id) from None
            if self.cluster is not None:
                self.cluster.announce(actor.table_id, actor.seq)
            actor.status = status
            if status == "open":
                actor.lock_reason = None
            actor._plan_countdown()
            actor.broadcast_state()
        actor._wake.set()

    # --- cashier ------------------------------------------------------------------------

    async def cashier(
        self,
        direction: str,
        user: str,
        player: str,
        amount: int,
        memo: str,
        key: str,
        req_hash: str,
    ) -> Reply:
        """Deposit (cage → wallet) or withdraw (wallet → cage), idempotently. Only verified
        balances pay: the request waits for the ledger's check at start-up; a frozen
        wallet or cage is refused (``SRV-FROZEN``); a deposit the cage's float does not
        cover is refused (``SRV-FUNDS``: a fill first)."""
        await self._ledger_verified()

        def unit(conn: Connection) -> Reply:
            stored = store.get_idempotent(conn, user, key)
            if stored is not None:
                return recorded_answer(stored, req_hash)
            found = get_user(conn, player)
            if found is None or found[0].role is not StaffRole.PLAYER:
                return Reply(404, not_found(f"no player {player!r}", "SRV-PLAYER").body())
            wallet = acc.wallet(player)
            src, dst = (CAGE, wallet) if direction == "deposit" else (wallet, CAGE)
            tx = Transaction.transfer(src, dst, Money(amount, MOP), memo or direction)
            store.lock_accounts(conn, (src, dst))  # (PostgreSQL: one at a time per wallet)
            short = controls.cage_refusal(conn, amount) if direction == "deposit" else None
            try:
                if short is not None and CAGE not in self.accounts.frozen:
                    raise short
                with conn.begin_nested():
                    store.post(conn, self.accounts, Movement(tx), by_user=user)
            except ApiError as exc:
                reply = Reply(exc.status, exc.body())
            except (InsufficientFunds, HoldError, store.AccountFrozen) as exc:
                reply = Reply(from_domain(exc).status, from_domain(exc).body())
            else:
                reply = Reply(200, {"account": wallet, "balance": store.balance(conn, wallet)})
            store.put_idempotent(conn, user, key, req_hash, reply.status, reply.body)
            return reply

        try:
            return await self.db.write(unit)
        except Exception as exc:
            if not is_duplicate(exc):
                raise
            # the same key sent twice at once (PostgreSQL): the other try committed first;
            # run again, this one finds its record and answers it (or 409 SRV-IDEM)
            return await self.db.write(unit)

    async def _ledger_verified(self) -> None:
        """Wait until the ledger's check at start-up is done (its mismatched accounts
        frozen); 409 ``SRV-FROZEN`` if it takes longer than :data:`LEDGER_WAIT_S`."""
        deadline = time.monotonic() + LEDGER_WAIT_S
        while self.ledger_pending():
            if time.monotonic() > deadline:
                raise ApiError(
                    409,
                    "ledger_pending",
                    "the ledger's check at start-up is not done: no balance pays until it "
                    "is; retry with the same Idempotency-Key",
                    "SRV-FROZEN",
                )
            await asyncio.sleep(0.02)

    # --- people -------------------------------------------------------------------------

    async def login(self, name: str, password: str, address: str = "") -> dict[str, Any]:
        """A token for the right password. Throttled per name and per client ``address``
        (429 ``SRV-THROTTLE``, server/logins.py); an unknown name costs the same work as a
        wrong password (verified against a dummy hash)."""
        self.throttle.begin(name, address)
        ok = False
        try:
            found = await self.db.read(lambda c: get_user(c, name))
            hashed = self.passwords.dummy if found is None else found[1]
            verified = await asyncio.get_running_loop().run_in_executor(
                None, self.passwords.verify, hashed, password
            )
            ok = verified and found is not None
        finally:
            self.throttle.end(name, address, ok=ok)
        if not ok or found is None:
            raise ApiError(401, "unauthorized", "wrong name or password", "SRV-AUTH")
        user = found[0]
        token = new_token()
        expires = store.now_ms() + self.settings.token_seconds * 1000

        def unit(conn: Connection) -> None:
            conn.execute(
                store.tokens_t.insert().values(
                    token_hash=token_hash(token), user_name=user.name, expires_at=expires
                )
            )

        await self.db.write(unit)
        self._tokens[token_hash(token)] = (user, expires)
        return {"token": token, "name": user.name, "role": user.role.value, "expires_at": expires}

    async def authenticate(self, token: str) -> User:
        h = token_hash(token)
        cached = self._tokens.get(h)
        seen = self._token_seen.get(h, 0.0)
        if self.cluster is not None and seen + TOKEN_RECHECK_S < time.monotonic():
            cached = None  # another process may have ended it (logout): look again
        if cached is None:

            def find(conn: Connection) -> tuple[User, int] | None:
                row = conn.execute(  # (one statement: the token and its active user)
                    sa.select(store.tokens_t.c.user_name, store.tokens_t.c.expires_at)
                    .join(store.users_t, store.users_t.c.name == store.tokens_t.c.user_name)
                    .where(
                        store.tokens_t.c.token_hash == h,
                        store.users_t.c.active,
                        store.users_t.c.approved_at.is_not(None),
                    )
                    .add_columns(store.users_t.c.role)
                ).first()
                if row is None:
                    return None
                return User(str(row[0]), StaffRole(row[2])), int(row[1])

            cached = await self.db.read(find)
            if cached is not None:
                self._tokens[h] = cached
                self._token_seen[h] = time.monotonic()
        if cached is None or cached[1] <= store.now_ms():
            self._tokens.pop(h, None)
            raise ApiError(401, "unauthorized", "missing, unknown or expired token", "SRV-AUTH")
        return cached[0]

    def forget_sessions(self, name: str) -> None:
        """Drop ``name``'s cached tokens (his account disabled or given a new password: the
        database's rows are gone, and this process asks the database again)."""
        for h in [h for h, (user, _) in self._tokens.items() if user.name == name]:
            self._tokens.pop(h, None)

    def token_expires_ms(self, token: str) -> int | None:
        """When ``token`` expires (epoch ms), as :meth:`authenticate` last found it."""
        cached = self._tokens.get(token_hash(token))
        return None if cached is None else cached[1]

    async def logout(self, token: str) -> None:
        h = token_hash(token)
        self._tokens.pop(h, None)
        await self.db.write(
            lambda c: c.execute(store.tokens_t.delete().where(store.tokens_t.c.token_hash == h))
        )

    async def change_password(self, name: str, old: str, new: str, address: str = "") -> None:
        """``name``'s own password changed, the old one verified first (throttled as a
        login is) and the new one held to the policy (server/logins.py)."""
        check_password(name, new)
        self.throttle.begin(name, address)
        ok = False
        try:
            found = await self.db.read(lambda c: get_user(c, name))
            hashed = self.passwords.dummy if found is None else found[1]
            loop = asyncio.get_running_loop()
            ok = await loop.run_in_executor(None, self.passwords.verify, hashed, old)
            ok = ok and found is not None
        finally:
            self.throttle.end(name, address, ok=ok)
        if not ok:
            raise ApiError(401, "unauthorized", "wrong password", "SRV-AUTH")
        new_hash = await loop.run_in_executor(None, self.passwords.hash, new)

        def unit(conn: Connection) -> None:
            conn.execute(
                store.users_t.update()
                .where(store.users_t.c.name == name)
                .values(password_hash=new_hash)
            )
            store.audit(conn, name, "change_password", name, "", {})

        await self.db.write(unit)

    async def add_user(self, name: str, role: StaffRole, password: str, by: User) -> bool:
        """A new account (``controls.add_user``): whether it can log in now."""
        return await self.db.write(
            lambda conn: controls.add_user(conn, self.passwords, name, role, password, by)
        )


def _table_row(conn: Connection, table_id: str) -> Any:
    return conn.execute(sa.select(store.tables_t).where(store.tables_t.c.id == table_id)).one()


def _missing_game(table_id: str, options: Mapping[str, Any]) -> Any:
    raise ApiError(409, "unknown_game", "this server does not run that game", "SRV-GAME")


def _missing_open(journal: Journal, seeds: Mapping[str, bytes]) -> Any:
    from macau_tables.core.errors import JournalError

    raise JournalError(f"this server does not run {journal.game!r}")


def _by_table(problems: list[tuple[str | None, str]], tables: list[str]) -> dict[str, list[str]]:
    """The ledger's problems by the table each locks (one of no table's: every table)."""
    out: dict[str, list[str]] = defaultdict(list)
    for table_id, reason in problems:
        for t in tables:
            if table_id in (None, t):
                out[t].append(reason)
    return out


def _refuse_closing_with_money(conn: Connection, table_id: str) -> None:
    """A closed table takes no command again, ``leave`` included: it may close only once no
    player's money is on it — no chips seated (``stack:<table>:*``), no bet in play
    (``wagers:<table>``), no bank (``bank:<table>``). What is still there is named (409
    ``SRV-CLOSE``): pause the table, let its round settle and its players leave (a paused
    table still takes ``leave``), then close it."""
    on_table = {
        account: balance
        for account, balance in store.balances_like(conn, f"stack:{table_id}:").items()
        if balance
    }
    for account in (acc.wagers(table_id), acc.bank(table_id)):
        if balance := store.balance(conn, account):
            on_table[account] = balance
    if on_table:
        listed = ", ".join(f"{a} {Money(b, MOP)}" for a, b in sorted(on_table.items()))
        raise ApiError(
            409,
            "money_at_table",
            f"players' money is still at the table ({listed}): let the round settle and "
            "the players leave (a paused table takes leave) before closing it",
            "SRV-CLOSE",
        )


def _load_checked(
    conn: Connection, actor: TableActor, defer: bool = True
) -> tuple[TableEngine, list[str]]:
    """The table's engine from the database and its window's money problems, in one read
    (``TableActor.load``, ``checks.table_money_problems``)."""
    engine = actor.load(conn, defer)
    return engine, checks.table_money_problems(conn, actor.table_id, engine)
