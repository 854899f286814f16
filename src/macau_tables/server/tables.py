"""One actor per table: the only writer of its engine and of its rows (STYLE §9).

A :class:`TableActor` holds the table's engine in memory and a :class:`TableLock`; every
auto-dealer step, supervisor's operation and subscription runs under it, so the engine is
never touched by two things at once. On SQLite the players' and dealers' commands are
*pipelined*: each goes straight into the group commit's queue, in arrival order, and the
group commit runs the queued units one after another on the loop's thread — several
commands of one table may share a batch, and a command need not wait for the commit of
the one before. Whoever takes the lock first waits until every pipelined command is
committed and published (:meth:`TableLock.__aenter__`), and commands that arrive while the
lock is held wait for it. A command runs in one database transaction: the
idempotency check, ``engine.execute``, the journal entries (already hash-chained by the
engine's journal), the postings and holds of their movements, the server seeds the command
drew, and the idempotency record. If anything fails after the engine changed, the
transaction rolls back and the engine is rebuilt from the database with
``contract.replay`` — memory never runs ahead of the database: on SQLite at once, by the
group commit (``on_error``: on the batch's own connection, before the next unit runs;
``on_fail``: if the batch's commit failed, before the next batch), so a pipelined command
never runs on a state that will not be committed.

The auto-dealer (the table's clock) reads ``pending()``: a required player who does not act
within ``action_seconds`` gets the rules' default (``contract.time_out``); the dealer's
operations run after the betting window (``betting_seconds``) when players may still bet,
at once otherwise; an operation that takes a server seed gets a fresh
``new_server_seed()``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeGuard

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.core.errors import JournalTampered, MacauTablesError, ReplayMismatch
from macau_tables.core.journal import Entry, Event, Journal, event_from_json
from macau_tables.core.ledger import movement_of
from macau_tables.core.rng import Rng, commitment, new_server_seed
from macau_tables.core.snapshot import SnapshotError
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import (
    Actor,
    Checkpoint,
    Command,
    Pending,
    Role,
    SeedCommitted,
    Snapshotting,
    TableEngine,
    replay,
    replay_from,
    safe_base,
    time_out,
)
from macau_tables.server import checks, store
from macau_tables.server.cluster import not_owner
from macau_tables.server.errors import ApiError, from_domain
from macau_tables.server.games import GameBinding

if TYPE_CHECKING:
    from macau_tables.server.cluster import Cluster
    from macau_tables.server.db import Database
    from macau_tables.server.settings import Settings


class Host(Protocol):
    """What a table's actor needs of the floor (server/floor.py's ``Floor``): the
    database, the ledger's accounts, the settings, the leases (PostgreSQL), and locking
    or releasing its table."""

    @property
    def db(self) -> Database: ...

    @property
    def accounts(self) -> store.Accounts: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def cluster(self) -> Cluster | None: ...

    async def lock_table(self, actor: TableActor, reason: str) -> None: ...

    async def release(self, table_id: str, *, unlock: bool = True) -> None: ...


log = logging.getLogger("macau_tables.server")

MAX_INT = 2**53
#: the supervisor's operations: only through a request and a second supervisor's approval
#: (``api/supervisor.py``), never through ``/commands``
SUPERVISED_OPS = frozenset({"void_round", "correct_round", "change_limits"})
#: a player's cash-out, every game's: the one command a paused table takes from a player
LEAVE = "leave"


def recorded_answer(stored: store.Stored, req_hash: str) -> Reply:
    """The recorded answer of a key sent again (a table's command, the cashier's): the
    same request's, byte for byte; a 409 ``SRV-IDEM`` for another request under the key."""
    if stored.request_hash != req_hash:
        err = ApiError(
            409,
            "idempotency_conflict",
            "this Idempotency-Key was used with another request",
            "SRV-IDEM",
        )
        return Reply(err.status, err.body())
    return Reply(stored.status, stored.body, stored.text.encode())


class LeaseLost(Exception):
    """The fence: the table's lease row names another process (see server/cluster.py)."""


@dataclass
class Reply:
    status: int
    body: dict[str, Any]
    raw: bytes | None = None  # the body's JSON, rendered once (:meth:`content`)
    # the body's last value, ``pending``, as rendered already (TableActor._pending_json)
    pending_raw: bytes | None = None

    def content(self) -> bytes:
        """The body as sent: rendered once, kept under the idempotency key and answered —
        ``store.render(body)`` byte for byte, its ``pending`` (the last key) spliced in as
        already rendered."""
        if self.raw is None:
            if self.pending_raw is None:
                self.raw = store.render(self.body)
            else:
                head = {k: v for k, v in self.body.items() if k != "pending"}
                self.raw = store.render(head)[:-1] + b',"pending":' + self.pending_raw + b"}"
        return self.raw


#: more writes in a supervisor operation's transaction (after the engine's events)
Extra = Callable[[Connection, Reply], None]


#: the messages a WebSocket's queue holds for its client: one more and the client, too slow
#: for the table, is dropped (close code 1013; it reconnects with ``last_seq``) — what the
#: queue held is let go at once, even while a send to it is stuck
WS_QUEUE_MAX = 256


@dataclass(eq=False)
class Subscriber:
    """One WebSocket: its viewer and the queue of messages waiting to be sent (at most
    :data:`WS_QUEUE_MAX`; ``None`` at its end: the socket ends there)."""

    viewer: Viewer
    queue: asyncio.Queue[dict[str, Any] | None] = field(
        default_factory=lambda: asyncio.Queue(maxsize=WS_QUEUE_MAX + 1)
    )
    overflowed: bool = False
    #: set when the queue overflowed: the socket's handler drops the client
    dropped: asyncio.Event = field(default_factory=asyncio.Event)

    def send(self, msg: dict[str, Any]) -> None:
        if self.overflowed:
            return
        if self.queue.qsize() < WS_QUEUE_MAX:
            self.queue.put_nowait(msg)
            return
        self.overflowed = True
        while not self.queue.empty():  # nothing more is sent to it: let go what it held
            self.queue.get_nowait()
        self.queue.put_nowait(None)
        self.dropped.set()


def check_args(value: Any, where: str = "args") -> None:
    """JSON arguments the engines accept: no floats, integers within ±2**53."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return
    if isinstance(value, int):
        if abs(value) > MAX_INT:
            raise ApiError(422, "invalid_input", f"{where} is out of range", "SRV-AMOUNT")
        return
    if isinstance(value, float):
        raise ApiError(
            422, "invalid_input", f"{where}: amounts are integer avos, not {value!r}", "SRV-AMOUNT"
        )
    if isinstance(value, list):
        for i, v in enumerate(value):
            check_args(v, f"{where}[{i}]")
        return
    if isinstance(value, dict):
        for k, v in value.items():
            check_args(v, f"{where}.{k}")
        return
    raise ApiError(422, "invalid_input", f"{where}: not JSON", "SRV-AMOUNT")


def event_out(entry: Entry) -> dict[str, Any]:
    js = entry.event_json()
    return {"seq": entry.seq, "kind": js["kind"], "version": js["version"], "data": js["data"]}


class TableLock:
    """The table's :class:`asyncio.Lock`, which also waits for the pipelined commands.

    ``async with lock`` takes the lock, then waits until no pipelined command is in flight
    (each is counted from the moment it joins the group commit's queue until its answer is
    published: :meth:`begin`, :meth:`end`). A pipelined command does not take the lock; it
    only waits while somebody holds it (:meth:`wait_turn`).
    """

    def __init__(self) -> None:
        self._lock = asyncio.Lock()
        self.inflight = 0
        self._drained = asyncio.Event()
        self._drained.set()

    def locked(self) -> bool:
        return self._lock.locked()

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        try:
            await self._drained.wait()
        except BaseException:
            self._lock.release()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()

    async def wait_turn(self) -> None:
        """Wait while the lock is held (not for the pipelined commands in flight)."""
        if self._lock.locked():
            async with self._lock:
                pass

    def begin(self) -> None:
        self.inflight += 1
        self._drained.clear()

    def end(self) -> None:
        self.inflight -= 1
        if self.inflight == 0:
            self._drained.set()


class TableActor:
    """The single writer of one table (see the module docstring)."""

    def __init__(
        self,
        floor: Host,
        table_id: str,
        game: GameBinding,
        *,
        options: Mapping[str, Any],
        settings: Mapping[str, Any],
        status: str,
        lock_reason: str | None,
        header: Mapping[str, Any],
        engine: TableEngine | None,
    ) -> None:
        self.floor = floor
        self.table_id = table_id
        self.game = game
        self.options = dict(options)
        self.settings = dict(settings)
        self.status = status
        self.lock_reason = lock_reason
        self.header = dict(header)
        self.engine = engine
        self.lock = TableLock()
        self._published = -1  # the last seq sent to the watchers (see _publish_committed)
        self.subscribers: set[Subscriber] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._deadline: tuple[tuple[Any, ...], float] | None = None
        # each actor's last command that the rules took (its last entry's seq): a player
        # the rules wait for again after he acted — a shooter after a throw — has his
        # time from then, not from when they first waited for him (_plan)
        self._acted: dict[str, int] = {}
        self._refused: tuple[int, str] | None = None
        self.countdown: dict[str, Any] | None = None
        self._pending_memo: (
            tuple[
                TableEngine,
                int,
                tuple[Pending, ...],
                tuple[list[dict[str, Any]], bytes] | None,
            ]
            | None
        ) = None
        # several processes (server/cluster.py): only the owner runs the table; the others
        # keep a replica for their WebSockets, brought up to date from the database
        self.owned = True
        self._behind = False
        self._catching: asyncio.Task[None] | None = None
        # the journal's entries before ``chain_checked`` were checked as a chain from the
        # database in this process (``chain_hash``: the last one's hash), and a check left
        # to the floor's background (``chain_job``: the window's first entry, its prev_hash)
        self._chain: tuple[int, str | None] = (0, None)  # (one attribute: read whole)
        self.chain_job: tuple[int, str] | None = None

    # --- state --------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return len(self.engine.journal) - 1 if self.engine is not None else -1

    @property
    def head(self) -> str:
        return self.engine.journal.head if self.engine is not None else ""

    @property
    def auto_dealer(self) -> bool:
        """Auto-dealt (the server deals from its RNG on a clock) or live (a dealer account
        runs the dealer's operations and keys in what the physical table shows)."""
        return bool(self.settings.get("auto_dealer", True))

    @property
    def player_timeouts(self) -> bool:
        """Whether the clock times out a player the rules wait for: always at an auto-dealt
        table; at a live table only if its settings ask for it (``player_timeouts``) — there
        the dealer is in charge and applies a waiting player's default himself
        (:meth:`apply_default`)."""
        return self.auto_dealer or bool(self.settings.get("player_timeouts", False))

    def keys_in(self, op: str, args: Mapping[str, Any]) -> bool:
        """Whether ``op`` with ``args`` keys in a chance outcome (dice, cards, tiles)."""
        return op in self.game.keyin_ops or bool(self.game.keyin_args & set(args))

    def pending(self) -> tuple[Pending, ...]:
        if self.engine is None or self.status != "open":
            return ()
        return self._engine_pending(self.engine)

    def _engine_pending(self, engine: TableEngine) -> tuple[Pending, ...]:
        """``engine.pending()``, worked out once per state: an engine's state changes only
        with its journal (the reply, the clock and every subscriber's state ask). Its JSON
        (:meth:`_pending_json`) is kept while it stays the same — a bet leaves everyone's
        options as they were."""
        memo = self._pending_memo
        if memo is None or memo[0] is not engine or memo[1] != len(engine.journal):
            pending = engine.pending()
            same = memo is not None and memo[0] is engine and memo[2] == pending
            rendered = memo[3] if same and memo is not None else None
            memo = self._pending_memo = (engine, len(engine.journal), pending, rendered)
        return memo[2]

    def _pending_json(self, engine: TableEngine) -> tuple[list[dict[str, Any]], bytes]:
        """The replies' ``pending``, as JSON and as rendered (``store.render``), once per
        value (never changed after)."""
        pending = self._engine_pending(engine)
        memo = self._pending_memo
        assert memo is not None
        if memo[3] is None:
            as_json = [p.to_json() for p in pending]
            memo = self._pending_memo = (*memo[:3], (as_json, store.render(as_json)))
        return memo[3]  # type: ignore[return-value]

    def public_reason(self) -> str | None:
        """The lock's reason as anyone may read it. A table that did not verify is locked
        with what did not: a ledger problem names accounts and amounts — another player's
        wallet among them (a wallet's problem locks every table) — so players, refusals and
        ``/health`` read only that it did not verify; staff read the reason
        (``GET /tables`` as staff, the audit log). A pause's or a dispute's reason is the
        supervisor's words, shown as they are."""
        if self.status == "locked" and self.lock_reason is not None:
            return "the table did not verify (staff can read why)"
        return self.lock_reason

    def info(self, staff: bool = True) -> dict[str, Any]:
        view = self.engine.view(Viewer.PUBLIC) if self.engine is not None else {}
        # who plays here: baccarat's and the others' "players", craps' list of seats, a tile
        # table's seats by place
        players = view.get("players") or view.get("seats")
        return {
            "id": self.table_id,
            "game": self.game.name,
            "status": self.status,
            "lock_reason": self.lock_reason if staff else self.public_reason(),
            "options": self.options,
            "settings": self.settings,
            "seq": self.seq,
            "head": self.head,
            "players": len(players) if isinstance(players, list | dict) else 0,
            "countdown": self.countdown,
        }

    def state(self, viewer: Viewer, kind: str = "state") -> dict[str, Any]:
        view = self.engine.view(viewer) if self.engine is not None else {}
        return {
            "type": kind,
            "table_id": self.table_id,
            "seq": self.seq,
            "status": self.status,
            "view": view,
            "pending": (
                self._pending_json(self.engine)[0]
                if self.engine is not None and self.status == "open"
                else []
            ),
            "countdown": self.countdown,
        }

    # --- commands -----------------------------------------------------------------------

    async def command(
        self,
        actor: Actor,
        op: str,
        args: dict[str, Any],
        *,
        user: str,
        viewer: Viewer,
        key: str | None = None,
        req_hash: str = "",
        expect_seq: int | None = None,
    ) -> Reply:
        """Run one command as one transaction; a refusal is a 4xx :class:`Reply`."""
        try:
            check_args(args)
        except ApiError as exc:
            return self._refusal(exc)
        if op in SUPERVISED_OPS:
            return self._refusal(
                ApiError(
                    403,
                    "forbidden",
                    f"{op} goes through the supervisor's requests (a second approval)",
                    "SRV-APPROVAL",
                )
            )
        if op == "time_out" or actor.role is Role.SYSTEM:
            return self._refusal(
                ApiError(403, "forbidden", "only the table's clock times out", "SRV-ROLE")
            )
        if self.auto_dealer and self.keys_in(op, args):
            return self._refusal(
                ApiError(
                    403,
                    "forbidden",
                    f"{op}: this table is auto-dealt; its outcomes come from the server's RNG",
                    "SRV-KEYIN",
                )
            )
        if actor.role is Role.PLAYER and self.keys_in(op, args):
            return self._refusal(
                ApiError(
                    403,
                    "forbidden",
                    f"{op}: only the dealer keys in what the physical table shows",
                    "SRV-KEYIN",
                )
            )
        if op in self.game.seed_ops and "seed" in args:
            return self._refusal(
                ApiError(422, "invalid_input", "the server draws the seed", "SRV-SEED")
            )
        return await asyncio.shield(
            self._locked_run(
                Command(actor, op, args), user, viewer, key, req_hash, expect_seq, pipelined=True
            )
        )

    async def _locked_run(
        self,
        command: Command,
        user: str,
        viewer: Viewer,
        key: str | None,
        req_hash: str,
        expect_seq: int | None,
        extra: Extra | None = None,
        supervised: bool = False,
        *,
        pipelined: bool = False,
    ) -> Reply:
        """Under the lock; or, a player's or dealer's command (``pipelined``) where the
        group commit repairs a failed unit at once (SQLite: module docstring), only after
        whoever holds the lock, counted in flight instead."""
        # shielded: a caller who goes away does not cut a command between its commit and
        # its fan-out (or its rebuild, if the commit failed)
        if not (pipelined and self.floor.db.group is not None):
            async with self.lock:
                return await self._run(
                    command, user, viewer, key, req_hash, expect_seq, extra, supervised
                )
        await self.lock.wait_turn()
        # no await from here until the unit is in the group commit's queue: the order of
        # the queue is the order in which the commands got their turn
        self.lock.begin()
        try:
            return await self._run(command, user, viewer, key, req_hash, expect_seq)
        finally:
            self.lock.end()

    async def apply_default(
        self,
        actor: str,
        op: str,
        *,
        user: str,
        viewer: Viewer,
        key: str | None,
        req_hash: str,
    ) -> Reply:
        """A live table's dealer applies the rules' default for ``actor``, who is waited
        for (``contract.time_out``: ``table.timed_out`` naming the rule, then the default's
        events), in the audit log under the dealer's name. At an auto-dealt table the clock
        does this (409 ``SRV-LIVE``)."""
        if self.auto_dealer:
            return self._refusal(
                ApiError(
                    409,
                    "auto_dealt",
                    "this table is auto-dealt: its clock applies the rules' defaults",
                    "SRV-LIVE",
                )
            )
        if self.status != "open":
            why = self.public_reason() or self.status
            return self._refusal(
                ApiError(409, "table_" + self.status, f"table is {why}", "SRV-STATUS")
            )

        def note(conn: Connection, reply: Reply) -> None:
            # the rule the default is applied by, as the journal's table.timed_out says
            rule = next(
                (
                    str(e["data"].get("rule", ""))
                    for e in reply.body.get("events", [])
                    if e["kind"] == "table.timed_out"
                ),
                "",
            )
            reason = f"{actor}: {op} ({rule})"
            store.audit(conn, user, "apply_default", self.table_id, reason, {"rule": rule})

        command = Command(Actor.SYSTEM, "time_out", {"actor": actor, "op": op})
        return await asyncio.shield(
            self._locked_run(command, user, viewer, key, req_hash, None, note)
        )

    async def supervise(
        self,
        actor: Actor,
        op: str,
        args: dict[str, Any],
        *,
        user: str,
        extra: Extra,
        key: str | None = None,
        req_hash: str = "",
    ) -> Reply:
        """A supervisor's operation (void, correct, limits), paused or frozen tables
        included, in ONE transaction with ``extra(conn, reply)`` (the decision and audit
        records): both or neither."""
        return await asyncio.shield(
            self._locked_run(
                Command(actor, op, args),
                user,
                actor.viewer(),
                key,
                req_hash,
                None,
                extra,
                supervised=True,
            )
        )

    @staticmethod
    def _refusal(err: ApiError) -> Reply:
        return Reply(err.status, err.body())

    def _command_args(self, command: Command) -> tuple[Command, bytes | None]:
        if command.op in self.game.seed_ops:
            seed = new_server_seed()
            return Command(command.actor, command.op, {**command.args, "seed": seed.hex()}), seed
        return command, None

    async def _run(
        self,
        command: Command,
        user: str,
        viewer: Viewer,
        key: str | None,
        req_hash: str,
        expect_seq: int | None,
        extra: Extra | None = None,
        supervised: bool = False,
    ) -> Reply:
        """Under the lock, or pipelined (module docstring): the transaction, the rebuild
        if it failed, the fan-out. ``extra(conn, reply)`` writes what else the transaction
        holds if the command is recorded (an audit entry, a supervisor's decision);
        ``supervised``: a supervisor's correction, which a paused or frozen table takes."""
        floor = self.floor
        new: list[Entry] = []

        cluster = floor.cluster

        def unit(conn: Connection) -> Reply:
            new.clear()
            if self.engine is None:  # a unit before this one failed and its rebuild too
                return self._refusal(ApiError(409, "table_locked", "table is locked", "SRV-STATUS"))
            self.lock_row(conn)
            if key is not None:
                stored = store.get_idempotent(conn, user, key)
                if stored is not None:
                    return recorded_answer(stored, req_hash)
            reply = self._execute(conn, command, user, viewer, expect_seq, new, supervised)
            if extra is not None and reply.status == 200:
                extra(conn, reply)
            if key is not None:
                store.put_idempotent(
                    conn, user, key, req_hash, reply.status, reply.body, raw=reply.content()
                )
            return reply

        if not self.owned:
            return self._refusal(not_owner(self.table_id))

        if self.engine is None and self.status not in ("locked", "closed"):
            # being rebuilt (taken over, server/floor.py take_over): not recorded, retry
            return self._refusal(
                ApiError(
                    503,
                    "unavailable",
                    "the table is being rebuilt here; the command was not recorded: retry",
                    "SRV-STATUS",
                )
            )
        if self.engine is None or self.status in ("locked", "closed"):
            # a command recorded before the table closed (or locked) is answered as
            # recorded when sent again with its key, as at an open table
            if key is not None:
                stored = await floor.db.read(lambda c: store.get_idempotent(c, user, key))
                if stored is not None:
                    return recorded_answer(stored, req_hash)
            why = self.public_reason() or self.status
            return self._refusal(
                ApiError(409, "table_" + self.status, f"table is {why}", "SRV-STATUS")
            )
        if self.status == "frozen" and not supervised:
            return self._refusal(
                ApiError(
                    409,
                    "table_frozen",
                    f"the round is disputed and frozen: {self.lock_reason}",
                    "SRV-FROZEN",
                )
            )
        # SQLite: a failed unit is repaired by the group commit itself (module docstring)
        repaired = floor.db.group is not None
        try:
            reply = await floor.db.write(
                unit,
                on_retry=self._rebuild_sync,
                batch=True,
                on_error=self._rebuild_in,
                on_fail=self._rebuild_committed,
            )
        except LeaseLost:
            log.error("table %s: the lease row names another process: dropping it", self.table_id)
            self.owned = False
            if floor.cluster is not None:
                floor.cluster.owned.discard(self.table_id)
            asyncio.get_running_loop().create_task(floor.release(self.table_id, unlock=True))
            return self._refusal(not_owner(self.table_id))
        except MacauTablesError as exc:
            if not repaired:
                await self._rebuild()
            return await self._recorded_refusal(from_domain(exc), user, key, req_hash)
        except ApiError as exc:
            if not repaired:
                await self._rebuild()
            return await self._recorded_refusal(exc, user, key, req_hash)
        except Exception:
            log.exception("table %s: command %s failed", self.table_id, command.op)
            if not repaired:
                await self._rebuild()
            return self._refusal(
                ApiError(503, "unavailable", "the command was not recorded; retry", "SRV-DB")
            )
        if new:
            self._publish_committed(new)
            if cluster is not None:
                cluster.announce(self.table_id, new[-1].seq)
            if any(isinstance(e.event, Checkpoint) for e in new):
                self._compact()
        return reply

    async def _recorded_refusal(
        self, err: ApiError, user: str, key: str | None, req_hash: str
    ) -> Reply:
        """A refusal raised inside the command's transaction — a wallet or stack that would
        go below zero (``SRV-FUNDS``, the ledger's check), a hold placed twice — rolled the
        transaction back, its idempotency record with it: recorded now, as a refusal the
        engine returns is, so that the key sent again answers it instead of running anew
        (after a deposit, say). A 5xx is not recorded: it is to be retried."""
        reply = self._refusal(err)
        if key is None or not 400 <= err.status < 500:
            return reply

        def record(conn: Connection) -> Reply:
            stored = store.get_idempotent(conn, user, key)
            if stored is not None:  # (the same key, sent again meanwhile and recorded)
                return recorded_answer(stored, req_hash)
            store.put_idempotent(
                conn, user, key, req_hash, reply.status, reply.body, raw=reply.content()
            )
            return reply

        try:
            return await self.floor.db.write(record)
        except Exception:  # the refusal stands; only its record is missing
            log.exception("table %s: recording a refusal failed", self.table_id)
            return reply

    def lock_row(self, conn: Connection) -> None:
        """First statement of every write of the table: on PostgreSQL, lock its row; with
        several processes also the fence — :class:`LeaseLost` unless the lease row still
        names this process (a write path of the table must call it, then
        ``cluster.announce`` after the commit, as :meth:`_run` does)."""
        cluster = self.floor.cluster
        if cluster is not None:
            lease = store.run(conn, "fence", {"id": self.table_id}).first()
            if lease is None or lease[0] != cluster.owner:
                raise LeaseLost(self.table_id)
        elif not self.floor.db.is_sqlite:
            store.run(conn, "lock", {"id": self.table_id}).first()

    def _execute(
        self,
        conn: Connection,
        command: Command,
        user: str,
        viewer: Viewer,
        expect_seq: int | None,
        new: list[Entry],
        supervised: bool = False,
    ) -> Reply:
        engine = self.engine
        assert engine is not None
        if (
            self.status == "paused"
            and command.actor.role is not Role.SYSTEM
            and not supervised
            and not (command.actor.role is Role.PLAYER and command.op == LEAVE)
        ):
            # a paused table still lets a player take his chips back (the engine refuses
            # it while he has money in play): the way to a table that may close (SRV-CLOSE)
            return self._refusal(
                ApiError(409, "table_paused", "the table is paused (leave only)", "SRV-STATUS")
            )
        if expect_seq is not None and expect_seq != self.seq:
            return self._refusal(
                ApiError(
                    409,
                    "stale",
                    f"the table moved on: last event is {self.seq}, not {expect_seq}",
                    "SRV-STALE",
                )
            )
        cmd, seed = self._command_args(command)
        before = len(engine.journal)
        try:
            engine.execute(cmd, Rng.system())
        except MacauTablesError as exc:
            if len(engine.journal) != before:  # an engine must refuse before it changes
                raise
            return self._refusal(from_domain(exc))
        snap = self._checkpoint_due(engine)
        entries = engine.journal.entries_since(before)
        if entries and entries[0].seq != before:
            raise RuntimeError("journal out of step with the database")
        if entries:
            self._acted[str(command.actor)] = entries[-1].seq
        store.append_entries(conn, self.table_id, entries)
        balances: dict[str, int] = {}  # the command's balance changes, written once
        for entry in entries:
            mv = movement_of(entry.event)
            if mv is not None and (mv.transaction.postings or mv.opens or mv.closes):
                store.post(
                    conn,
                    self.floor.accounts,
                    mv,
                    table_id=self.table_id,
                    seq=entry.seq,
                    by_user=user,
                    balances=balances,
                )
            if isinstance(entry.event, SeedCommitted):
                c = entry.event.commitment
                secret = seed if seed is not None and commitment(seed) == c else None
                if secret is None and self.game.secret_seed is not None:
                    secret = self.game.secret_seed(engine, c)
                if secret is None or commitment(secret) != c:
                    raise RuntimeError(f"no server seed behind commitment {c[:12]}…")
                store.put_seed(conn, self.table_id, c, entry.event.label, secret)
        store.add_balances(conn, balances)
        if snap is not None:
            store.put_snapshot(conn, self.table_id, *snap, base=engine.journal.first)
        new.extend(entries)
        pending, rendered = self._pending_json(engine)
        return Reply(
            200,
            {
                "table_id": self.table_id,
                "seq": self.seq,
                "events": [event_out(e) for e in entries if e.event.audience().admits(viewer)],
                "pending": pending,
            },
            pending_raw=rendered,
        )

    # --- snapshots (docs/server.md, "Snapshots") ---------------------------------------

    def _checkpoint_due(self, engine: TableEngine) -> tuple[int, Any] | None:
        """After a command the rules took: every ``checkpoint_every`` entries, the table
        checkpoints its state (a ``table.checkpoint`` entry in the same transaction as the
        command's, the snapshot stored beside it); the checkpoint's (seq, state)."""
        every = self.floor.settings.checkpoint_every
        journal = engine.journal
        if every <= 0 or not snapshotting(engine):
            return None
        last = engine.latest_snapshot()
        since = last[0] if last is not None else journal.first
        if len(journal) - since < every:
            return None
        try:
            engine.checkpoint(Actor.SYSTEM)
        except SnapshotError:  # the state encodes before anything is journalled
            log.exception("table %s: no checkpoint (the table plays on)", self.table_id)
            return None
        return engine.latest_snapshot()

    def _compact(self) -> None:
        """After a commit that holds a checkpoint: let the engine drop the entries before
        its latest safe checkpoint (they stay in the database)."""
        if isinstance(self.engine, Snapshotting):
            self.engine.compact()

    async def entries_from(self, start: int, page: int | None = None) -> list[Entry]:
        """The entries from ``start`` on: those before the engine's window from the
        database (at most ``page`` of them, then no more: ask again after the last), the
        rest from memory."""
        engine = self.engine
        if engine is None:
            return []
        first = engine.journal.first
        if start >= first:
            return engine.journal.entries_since(start)
        end = first if page is None else min(first, start + page)
        older = await self.floor.db.read(
            lambda conn: store.load_entries(conn, self.table_id, start, end)
        )
        if end < first:
            return older
        return older + engine.journal.entries_since(first)

    # --- rebuild ------------------------------------------------------------------------

    def _rebuild_sync(self) -> None:
        self.floor.accounts.forget()
        self.engine = self.floor.db.read_sync(self.load)

    def _rebuild_in(self, conn: Connection) -> None:
        """The group commit, after a unit of this table failed and its savepoint rolled
        back: the engine again from the batch's connection — what was committed and the
        batch's earlier units — before the next unit runs."""
        self.floor.accounts.forget()
        try:
            self.engine = self.load(conn)
        except MacauTablesError as exc:
            self._lost(f"rebuild failed: {exc}")

    def _rebuild_committed(self) -> None:
        """The group commit, after a batch with a unit of this table failed to commit:
        the engine again from what is committed, before the next batch runs."""
        self.floor.accounts.forget()
        try:
            self.engine = self.floor.db.read_sync(self.load)
        except MacauTablesError as exc:
            self._lost(f"rebuild failed: {exc}")

    def _lost(self, reason: str) -> None:
        self.engine = None
        asyncio.get_running_loop().create_task(self.floor.lock_table(self, reason))

    async def _rebuild(self) -> None:
        self.floor.accounts.forget()
        try:
            self.engine = await self.floor.db.read(self.load)
        except MacauTablesError as exc:
            self.engine = None
            await self.floor.lock_table(self, f"rebuild failed: {exc}")

    def load(self, conn: Connection, defer: bool = True) -> TableEngine:
        """The engine rebuilt from the database: chain, head, replay with the kept seeds —
        from the latest safe snapshot if there is one (``contract.safe_base``), the whole
        chain checked either way (before the snapshot: see :meth:`_chain_before`, whose
        ``defer`` this is)."""
        row = conn.execute(
            sa.select(store.tables_t.c.head_hash).where(store.tables_t.c.id == self.table_id)
        ).one()
        seeds = store.table_seeds(conn, self.table_id)
        engine = self._load_from_snapshot(conn, seeds, str(row[0]), defer)
        if engine is None:
            journal = store.load_journal(conn, self.table_id, self.game.name, self.header)
            journal.verify(expected_head=row[0])
            engine = replay(journal, self.game.open, seeds)
            if engine.journal.head != journal.head:
                raise JournalTampered("replay reproduces the events but not the chain")
            if self.chain_job is None:  # (every entry checked, from the header)
                self._chain = (len(journal), journal.head)
        if isinstance(engine, Snapshotting):
            engine.compact()  # the checkpoints the replay re-ran: keep from the latest safe
        return engine

    def checked(self) -> tuple[int, str | None]:
        """How far this process checked the table's chain from the database: the entries
        before ``n`` and the last one's hash (a recall checks only what comes after)."""
        return self._chain

    @property
    def chain_checked(self) -> int:
        return self._chain[0]

    @property
    def chain_hash(self) -> str | None:
        return self._chain[1]

    def chain_verified(self, end: int, last: str) -> None:
        """The background check verified the entries before ``end`` (the last one's hash)."""
        if self._chain[0] < end:
            self._chain = (end, last)

    def _chain_before(self, conn: Connection, end: int, link: str, defer: bool = True) -> None:
        """The chain of the entries before a window that starts at entry ``end`` (whose
        ``prev_hash`` is ``link``), checked from their stored text — once in this process:
        a rebuild checks only what was not checked before — and, checked from the header,
        their money against the ledger (``checks.verify_history_money``). At a table's
        first load, with ``chain_check="background"``, both are left to the floor's
        background check (``Floor.check_chains``), which locks the table if they do not
        verify; ``defer=False`` (a supervisor's unlock) checks them at once."""
        if end < self.chain_checked or (self.chain_job is not None and defer):
            return  # (entry ``end`` checked already, or the background check covers it)
        if end == self.chain_checked:
            if link != self.chain_hash:
                raise JournalTampered(f"entry {end}: prev_hash does not match")
            return
        if defer and self.chain_checked == 0 and self.floor.settings.chain_check == "background":
            self.chain_job = (end, link)
            return
        start = self.chain_checked
        before = store.verify_chain_link(
            conn,
            self.table_id,
            self.game.name,
            self.header,
            end,
            link,
            start=start,
            prev=self.chain_hash,
        )
        if start == 0:  # (later entries were in a window: checked with it)
            checks.verify_history_money(conn, self.table_id, end)
        self._chain = (end, before)
        self.chain_job = None

    def _load_from_snapshot(
        self, conn: Connection, seeds: Mapping[str, bytes], head: str, defer: bool = True
    ) -> TableEngine | None:
        """The engine from the latest stored snapshot it may start from, then the entries
        after it re-run by the rules (the first, the checkpoint, re-derives the snapshot's
        digest); the entries before it checked as a chain. None: no such snapshot."""
        restore = self.game.restore
        seqs = store.snapshot_seqs(conn, self.table_id) if restore is not None else []
        if restore is None or not seqs:
            return None
        game, header = self.game.name, self.header
        window = store.load_window(conn, self.table_id, game, header, min(seqs))
        events = window.events
        start = next((s for s in seqs if safe_base(events, window.first, s)), None)
        if start is None:
            return None
        if window.head != head:
            raise JournalTampered(
                "the chain does not end at the table's head (entries removed from the end, "
                "or the chain was rewritten)"
            )
        self._chain_before(conn, window.first, window.entry(window.first).prev_hash, defer)
        rest = Journal.of_entries(game, header, window.entries[start - window.first :])
        empty = Journal.resume(game, header, start, rest.entry(start).prev_hash)
        try:
            engine = restore(store.get_snapshot(conn, self.table_id, start), empty, seeds, rest)
        except MacauTablesError as exc:
            raise ReplayMismatch(f"entry {start}: the snapshot does not restore: {exc}") from exc
        return replay_from(engine, rest)

    # --- fan-out ------------------------------------------------------------------------

    def _publish_committed(self, new: list[Entry]) -> None:
        """Fan out a command's entries once committed. Pipelined commands of one batch are
        answered one after another, all after the commit: the first sends the entries of
        all of them (the engine holds no more than the batch: the group commit runs the
        next batch only after this fan-out) and the state after the last; the others
        find theirs sent — every watcher gets each event once, in order, and then a state
        as recent as its last event."""
        if new[-1].seq <= self._published or self.engine is None:
            return
        entries = self.engine.journal.entries_since(max(new[0].seq, self._published + 1))
        self._publish(entries)

    def _publish(self, entries: list[Entry]) -> None:
        if entries:
            self._published = max(self._published, entries[-1].seq)
        before = self._deadline
        self._plan_countdown()
        for sub in list(self.subscribers):
            for e in entries:
                if e.event.audience().admits(sub.viewer):
                    sub.send({"type": "event", "seq": e.seq, "event": e.event_json()})
            sub.send(self.state(sub.viewer))
        if self._deadline != before:  # the clock sleeps until the deadline: wake it if moved
            self._wake.set()

    def broadcast_state(self) -> None:
        for sub in list(self.subscribers):
            sub.send(self.state(sub.viewer))

    async def subscribe(self, viewer: Viewer, last_seq: int | None) -> Subscriber:
        """A new socket: the events missed since ``last_seq`` (if given), then a snapshot."""
        sub = Subscriber(viewer)
        async with self.lock:
            await self.catch_up_locked()
            if last_seq is not None and self.engine is not None:
                for e in await self.entries_from(max(last_seq + 1, 0)):
                    if e.event.audience().admits(viewer):
                        sub.send({"type": "event", "seq": e.seq, "event": e.event_json()})
            sub.send(self.state(viewer, "snapshot"))
            self.subscribers.add(sub)
        return sub

    def unsubscribe(self, sub: Subscriber) -> None:
        self.subscribers.discard(sub)

    async def snapshot(self, viewer: Viewer) -> dict[str, Any]:
        async with self.lock:
            await self.catch_up_locked()
            return self.state(viewer, "snapshot")

    async def events_for(self, viewer: Viewer, after: int, limit: int) -> list[dict[str, Any]]:
        async with self.lock:
            await self.catch_up_locked()
            if self.engine is None:
                return []
            out: list[dict[str, Any]] = []
            start = max(after + 1, 0)
            while len(out) < limit:
                # before the engine's window, from the database a page at a time
                chunk = await self.entries_from(start, limit)
                for e in chunk:
                    if e.event.audience().admits(viewer):
                        out.append(event_out(e))
                        if len(out) >= limit:
                            break
                if not chunk or self.engine is None or chunk[-1].seq >= self.seq:
                    break
                start = chunk[-1].seq + 1
            return out

    # --- a replica (a table another process owns, server/cluster.py) -------------------

    def request_catch_up(self, seq: int | None = None) -> None:
        """The owner committed (a NOTIFY): read it, coalesced — one reader at a time."""
        del seq
        self._behind = True
        if self._catching is None or self._catching.done():
            self._catching = asyncio.get_running_loop().create_task(self._catch_up_loop())

    async def _catch_up_loop(self) -> None:
        while self._behind:
            self._behind = False
            try:
                async with self.lock:
                    if self.owned:
                        return
                    if not self.subscribers:
                        self.engine = None  # nobody watches here: no replica to keep
                    else:
                        await self.catch_up_locked()
            except Exception:
                log.exception("table %s: replica catch-up failed", self.table_id)
                await asyncio.sleep(0.5)

    async def catch_up_locked(self) -> None:
        """Under the lock, on a process that does not own the table: bring the replica to
        the database's state and send the watchers the new events they may see."""
        if self.owned:
            return
        db = self.floor.db
        status, lock_reason, rows = await db.read_snapshot(self._rows_after)
        changed = (status, lock_reason) != (self.status, self.lock_reason)
        self.status, self.lock_reason = status, lock_reason
        before = self.seq if self.engine is not None else None
        if self.engine is None or not self._apply_rows(rows):
            try:
                self.engine = await db.read_snapshot(self.load)
            except MacauTablesError as exc:  # its owner locks it; here: nothing to show
                log.error("table %s: replica does not verify: %s", self.table_id, exc)
                self.engine = None
        if self.engine is not None and (self.seq != before or changed):
            self.publish_since(before)
            self._compact()  # a replica lets go of what its owner's checkpoints allow

    def _rows_after(self, conn: Connection) -> tuple[str, str | None, list[Any]]:
        row = conn.execute(
            sa.select(store.tables_t.c.status, store.tables_t.c.lock_reason).where(
                store.tables_t.c.id == self.table_id
            )
        ).one()
        rows = conn.execute(
            sa.select(store.journal_t.c.seq, store.journal_t.c.event, store.journal_t.c.hash)
            .where(store.journal_t.c.table_id == self.table_id, store.journal_t.c.seq > self.seq)
            .order_by(store.journal_t.c.seq)
        ).all()
        return str(row.status), row.lock_reason, list(rows)

    def _apply_rows(self, rows: list[Any]) -> bool:
        """Re-run the new entries through the rules (``contract.replay``'s step); False if
        that cannot be done here (a new seed, a gap, a mismatch): rebuild instead."""
        engine = self.engine
        assert engine is not None
        if not rows:
            return True
        if int(rows[0].seq) != self.seq + 1:
            return False
        events = [event_from_json(json.loads(r.event)) for r in rows]
        i = 0
        try:
            while i < len(events):
                if isinstance(events[i], SeedCommitted):
                    return False
                cmd = engine.command_of(events[i])
                if cmd is None:
                    return False
                got = engine.execute(cmd)
                if not got or [e.to_json() for e in got] != [
                    e.to_json() for e in events[i : i + len(got)]
                ]:
                    return False
                i += len(got)
        except MacauTablesError:
            return False
        return bool(engine.journal.head == rows[-1].hash)

    def publish_since(self, before: int | None) -> None:
        """Send the watchers the entries after ``before`` and the new state."""
        if self.engine is None:
            return
        entries = self.engine.journal.entries_since(before + 1) if before is not None else []
        if entries:
            self._publish(entries)
        else:
            self._plan_countdown()
            self.broadcast_state()

    async def stop_clock(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        self._deadline, self.countdown = None, None

    # --- the auto-dealer ---------------------------------------------------------------

    def _plan(self) -> tuple[str, tuple[Any, ...], float, list[Command]] | None:
        """What the clock does next: kind, signature, delay (s), commands.

        A betting window (players may act, someone must) lasts ``betting_seconds``; a
        player the rules wait for has ``action_seconds`` — from his last act, if he is
        waited for again after it (a shooter who threw: CR-R7); the dealer's own steps run
        after ``dealer_seconds``. An idle table (nobody seated, nothing in play) waits.
        """
        pend = self.pending()
        if not pend or self.engine is None or self.game.idle(self.engine):
            return None
        required = [
            p
            for p in pend
            if p.actor.role is Role.PLAYER and p.required and p.default and self.player_timeouts
        ]
        # at a live table the dealer runs the dealer's steps (and closes betting by
        # dealing); the clock only times out players the rules wait for
        staff = [
            p
            for p in pend
            if p.actor.role in (Role.DEALER, Role.SYSTEM)
            and (p.required or p.default)
            and self.auto_dealer
        ]
        optional = [p for p in pend if p.actor.role is Role.PLAYER and not p.required]
        cmds: list[Command] = [time_out(p) for p in required]
        # who is waited for, for what, and since his last act: a player who acted and is
        # waited for again (a shooter who threw, CR-R7) starts a new countdown
        sig: tuple[Any, ...] = (
            "action",
            frozenset(
                (str(p.actor), p.default, self._acted.get(str(p.actor), -1)) for p in required
            ),
        )
        if not cmds and staff:
            p = staff[0]
            op = p.default or p.operations[0]
            cmds = [time_out(p) if op in self.game.timeout_ops else Command(p.actor, op, {})]
            sig = ("dealer", str(p.actor), op)
        if not cmds:
            return None
        if optional and self.auto_dealer:
            return "betting", ("betting", *sig), float(self.settings["betting_seconds"]), cmds
        if required:
            return "action", sig, float(self.settings["action_seconds"]), cmds
        delay = float(self.settings.get("dealer_seconds", 0.0))
        if self._refused == (self.seq, cmds[0].op):
            delay = float(self.settings["betting_seconds"])
        return "dealer", sig, delay, cmds

    def _plan_countdown(self) -> tuple[float, list[Command]] | None:
        plan = self._plan()
        if plan is None:
            self._deadline, self.countdown = None, None
            return None
        kind, sig, delay, cmds = plan
        now = time.time()
        if self._deadline is not None and self._deadline[0] == sig:
            deadline = self._deadline[1]
        elif (
            self._deadline is not None
            and kind == "action"
            and self._deadline[0][0] == "action"
            and sig[1] <= self._deadline[0][1]
        ):
            deadline = self._deadline[1]
            self._deadline = (sig, deadline)
        else:
            deadline = now + delay
            self._deadline = (sig, deadline)
        actors = sorted({str(c.args.get("actor", c.actor)) for c in cmds})
        op = str(cmds[0].args.get("op", cmds[0].op))
        self.countdown = {
            "kind": kind,
            "deadline": int(deadline * 1000),
            "actors": actors,
            "op": op,
        }
        return deadline - now, cmds

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._clock(), name=f"table-{self.table_id}")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for sub in list(self.subscribers):
            sub.send(
                {"type": "error", "error": "shutdown", "rule": None, "message": "server stopping"}
            )
            sub.queue.put_nowait(None) if not sub.queue.full() else None

    async def _clock(self) -> None:
        while True:
            async with self.lock:
                plan = self._plan_countdown()
            self._wake.clear()
            if plan is None:
                await self._wake.wait()
                continue
            wait, _ = plan
            if wait > 0:
                try:
                    await asyncio.wait_for(self._wake.wait(), timeout=wait)
                    continue  # something happened: plan again
                except TimeoutError:
                    pass
            try:
                await self.step()
            except Exception:  # the clock must not die
                log.exception("table %s: auto-dealer step failed", self.table_id)
                await asyncio.sleep(1.0)

    async def step(self) -> bool:
        """Run the clock's due commands now; True if any was recorded."""
        async with self.lock:
            if not self.owned:
                return False
            plan = self._plan()
            if plan is None:
                return False
            _, _, _, cmds = plan
            done = False
            for cmd in cmds:
                reply = await self._run(cmd, "system", Viewer.SUPERVISOR, None, "", None)
                if reply.status == 200:
                    done = True
                    self._refused = None
                else:
                    self._refused = (self.seq, cmd.op)
            # a deadline that fired is spent: the next window (the next hand's betting, which
            # looks the same to _plan) gets a fresh one, never this expired one
            self._deadline = None
            if not done:
                self._plan_countdown()
                self.broadcast_state()
            return done

    async def drive(self, max_steps: int = 10_000) -> int:
        """Start-up recovery: finish the round under way by the rules' defaults, now.

        Runs dealer steps and time-outs until the table waits for players to bet (a betting
        window) or for nothing; returns the number of steps.
        """
        steps = 0
        while steps < max_steps:
            plan = self._plan()
            if plan is None or plan[0] == "betting":
                break
            if not await self.step():
                break
            steps += 1
        return steps


_SNAPSHOTTING: dict[type, bool] = {}


def snapshotting(engine: TableEngine) -> TypeGuard[Snapshotting]:
    """``isinstance(engine, Snapshotting)``, known once per engine class: a runtime
    protocol's check looks up each of its members (5 % of a bet's unit, every command)."""
    known = _SNAPSHOTTING.get(type(engine))
    if known is None:
        known = _SNAPSHOTTING[type(engine)] = isinstance(engine, Snapshotting)
    return known


def settings_json(settings: Mapping[str, Any]) -> str:
    return json.dumps(dict(settings), sort_keys=True)


def event_audience_admits(ev: Event, viewer: Viewer) -> bool:
    return ev.audience().admits(viewer)
