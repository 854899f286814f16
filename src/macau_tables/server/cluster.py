"""Several server processes on one PostgreSQL: leases, forwarding, fan-out.

Each table is **owned** by one process at a time; only its owner runs the table's actor
(the engine in memory, the auto-dealer clock, every write of the table).

* **The lease** is a PostgreSQL *session* advisory lock on a 64-bit key derived from the
  table id (:func:`lease_key`), held on one dedicated connection per process (its
  ``application_name`` is ``macau-lease:<node>``, which is how the processes see each
  other alive in ``pg_stat_activity``). A process that dies — even ``kill -9`` — loses the
  connection, so PostgreSQL drops its locks. The ``leases`` row (owner, internal URL,
  since) only shows the lease to the other processes (where to forward), to ``/health``
  and to operators.
* **Taking a table** (:meth:`Cluster.poll_once`, every ``lease_poll`` seconds): each
  process aims at its fair share, ``ceil(tables / live processes)``; it releases what it
  holds beyond that (the clock stops, the row says nobody, the lock is unlocked — after
  the command in flight) and tries the locks of tables whose row names nobody or a process
  that is no longer connected. A table it locks is rebuilt exactly as at start-up
  (``Floor.take_over``: chain, replay, money, then the unfinished round driven by the
  rules' defaults). The new owner rewrites the lease row in a transaction that locks the
  table's row first, so it waits for a command the old owner still has in flight.
* **The fence**: every command of an owner locks the table's row and reads the lease row
  in the same statement; if another process's name is there, the command is refused
  (421, ``SRV-LEASE``) and the table dropped — an owner that lost its lock without
  noticing (its lease connection cut) can never write after the new owner took over.
* **Forwarding** (:class:`ForwardMiddleware`): an HTTP request under ``/tables/{id}/``
  (or a supervisor's ``/supervisor/requests/{rid}/approve|reject``, which acts at its
  request's table)
  that reaches a process that does not own the table is sent, unchanged (the caller's
  token, the same ``Idempotency-Key``), to the owner's internal URL and its answer
  relayed. If the owner cannot be reached or answers 421 (it just released the table),
  the process waits for the next owner and sends again: with the same key, a command
  that did commit is answered from its idempotency record, never run twice. After
  ``forward_wait`` seconds without an owner: ``503 SRV-LEASE`` (retry with the same key).
* **Events**: once a command committed, its owner sends ``pg_notify('macau_tables',
  {"t": table, "seq": n})`` on the lease connection (coalesced per table; not inside the
  command's transaction, where PostgreSQL's notify lock would serialise every commit and
  its fsync); so does a status change (pause, close, lock …). Every process LISTENs; a table
  it does not own but whose WebSocket it serves is a *replica*: it reads the new journal
  entries from the database, re-runs them through the rules (``contract.replay``'s step,
  or a full rebuild when a new seed is involved) and sends each viewer what it may see,
  as the owner does.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import math
import os
import re
import socket
import time
import uuid
from collections.abc import AsyncIterator, Collection, Iterable, Mapping
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from macau_tables.server import store
from macau_tables.server.errors import ApiError
from macau_tables.server.fastpath import send_json
from macau_tables.server.schemas import MAX_ID

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Message, Receive, Scope, Send

    from macau_tables.server.checks import RecoveryReport
    from macau_tables.server.db import Database


class LeasedTable(Protocol):
    """What the leases read of a table's actor (server/tables.py's ``TableActor``)."""

    @property
    def owned(self) -> bool: ...

    @property
    def subscribers(self) -> Collection[Any]: ...

    def request_catch_up(self, seq: int | None = None) -> None: ...


class Host(Protocol):
    """What the leases need of the floor (server/floor.py's ``Floor``): its database, its
    tables, and taking a table over, adopting and releasing one."""

    @property
    def db(self) -> Database: ...

    @property
    def tables(self) -> Mapping[str, LeasedTable]: ...

    @property
    def cluster(self) -> Cluster | None: ...

    async def adopt(self, table_ids: list[str]) -> None: ...

    async def take_over(
        self, table_ids: list[str], report: RecoveryReport | None = None
    ) -> None: ...

    async def release(self, table_id: str, *, unlock: bool = True) -> None: ...


log = logging.getLogger("macau_tables.server")

CHANNEL = "macau_tables"
APP_PREFIX = "macau-lease:"
STARTING = "macau-starting:"
FORWARDED = "x-macau-forwarded"
FLOOR_KEY = 0x4D41_4341_5546_4C52  # 'MACAUFLR': migrations and the demo floor, one at a time
TABLE_PATH = re.compile(r"^/tables/([^/]+)/?(.*)$")
#: a supervisor's decision acts at the table of its request: forwarded to that table's owner
DECISION_PATH = re.compile(r"^/supervisor/requests/(\d+)/(?:approve|reject)$")


def lease_key(table_id: str) -> int:
    """The advisory-lock key of a table: 64 bits of SHA-256 (collisions are negligible)."""
    digest = hashlib.sha256(b"macau-tables lease:" + table_id.encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def conninfo(url: str) -> str:
    """A psycopg connection string from the server's SQLAlchemy URL."""
    parsed = sa.engine.make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def not_owner(table_id: str) -> ApiError:
    return ApiError(
        421,
        "not_owner",
        f"this process does not own table {table_id!r} (any longer); retry with the same "
        "Idempotency-Key",
        "SRV-LEASE",
    )


class Cluster:
    """This process's side of the leases (see the module docstring)."""

    def __init__(
        self,
        floor: Host,
        internal_url: str | None,
        *,
        poll: float = 1.0,
        forward_wait: float = 15.0,
    ) -> None:
        self.floor = floor
        self.node = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.owner = f"{self.node}@{socket.gethostname()}"[:200]
        self.url = (internal_url or "").rstrip("/")
        self.poll = poll
        self.forward_wait = forward_wait
        self.conninfo = conninfo(floor.db.url)
        self.owned: set[str] = set()
        self.takeovers: list[tuple[str, int]] = []  # (table, epoch ms) taken from another
        self._conn: Any = None  # the lease connection (psycopg.AsyncConnection)
        self._ready = False
        self._conn_lock = asyncio.Lock()
        self._tasks: list[asyncio.Task[None]] = []
        self._pool = HttpPool()
        self._polling = asyncio.Lock()
        self._routes: dict[str, str] = {}  # table -> its owner's URL, until it fails
        self._notices: dict[str, int] = {}  # committed, not yet announced: table -> seq
        self._notifier: asyncio.Task[None] | None = None

    # --- the lease connection -------------------------------------------------------------

    async def connect(self) -> None:
        import psycopg

        # named "starting" until the process serves (:meth:`run`): the others do not hand
        # it tables while it still waits for its turn at start-up
        self._conn = await psycopg.AsyncConnection.connect(
            self.conninfo, autocommit=True, application_name=STARTING + self.node
        )
        # its only writes are NOTIFYs (each one a transaction with an XID): no need to wait
        # for their fsync while holding PostgreSQL's notify lock
        await self._conn.execute("SET synchronous_commit TO off")

    async def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        async with self._conn_lock:
            cur = await self._conn.execute(sql, params)
            return list(await cur.fetchall())

    @contextlib.asynccontextmanager
    async def floor_lock(self) -> AsyncIterator[None]:
        """One process at a time: migrations and the demo floor on first start."""
        await self._query("SELECT pg_advisory_lock(%s)", (FLOOR_KEY,))
        try:
            yield
        finally:
            await self._query("SELECT pg_advisory_unlock(%s)", (FLOOR_KEY,))

    async def try_lock(self, table_id: str) -> bool:
        rows = await self._query("SELECT pg_try_advisory_lock(%s)", (lease_key(table_id),))
        return bool(rows[0][0])

    async def unlock(self, table_id: str) -> None:
        with contextlib.suppress(Exception):
            await self._query("SELECT pg_advisory_unlock(%s)", (lease_key(table_id),))

    async def live_nodes(self) -> set[str]:
        rows = await self._query(
            "SELECT application_name FROM pg_stat_activity "
            "WHERE datname = current_database() AND application_name LIKE %s",
            (APP_PREFIX + "%",),
        )
        return {str(r[0]).removeprefix(APP_PREFIX) for r in rows} | {self.node}

    # --- running ----------------------------------------------------------------------------

    async def run(self) -> None:
        """Serving: show this process as live, then look at the leases and listen."""
        await self._query(
            "SELECT set_config('application_name', %s, false)", (APP_PREFIX + self.node,)
        )
        self._ready = True
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._poll_loop(), name="lease-poll"),
            loop.create_task(self._listen_loop(), name="lease-listen"),
        ]

    async def stop(self) -> None:
        if self._notifier is not None:
            self._tasks.append(self._notifier)
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []

    async def close(self) -> None:
        """After the actors stopped: the rows say nobody, then the locks go with the
        connection (so the others take the tables at their next poll)."""
        mine = sorted(self.owned)
        if mine:
            with contextlib.suppress(Exception):
                await self.floor.db.write(lambda c: self._write_released(c, mine))
        self.owned.clear()
        if self._conn is not None:
            with contextlib.suppress(Exception):
                await self._conn.close()
        self._pool.close()

    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                await self.poll_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lease poll failed")
                await self._reconnect()

    async def _reconnect(self) -> None:
        """The lease connection failed: its locks may be gone — drop every table, connect
        again; the next polls take tables back (rebuilt from the database)."""
        with contextlib.suppress(Exception):
            await self._query("SELECT 1")
            return  # it works: the failure was elsewhere
        log.error("lease connection lost: dropping %d table(s)", len(self.owned))
        for table_id in sorted(self.owned):
            await self.floor.release(table_id, unlock=False)
        self.owned.clear()
        with contextlib.suppress(Exception):
            await self._conn.close()
        try:
            await self.connect()
            if self._ready:  # serving: live again at once
                await self._query(
                    "SELECT set_config('application_name', %s, false)", (APP_PREFIX + self.node,)
                )
        except Exception:
            log.exception("lease connection: reconnect failed")

    async def poll_once(self, report: RecoveryReport | None = None) -> list[str]:
        """Release what is beyond the fair share, take free tables up to it; return the
        tables taken (each rebuilt and its round finished, as at start-up)."""
        async with self._polling:
            rows = await self.floor.db.read(_lease_rows)
            live = await self.live_nodes()
            await self.floor.adopt([r.id for r in rows])
            fair = math.ceil(len(rows) / max(1, len(live)))
            excess = len(self.owned) - fair
            if excess > 0:
                for table_id in sorted(self.owned, reverse=True)[:excess]:
                    await self.floor.release(table_id)
            taken: list[str] = []
            for r in rows:
                if len(self.owned) + len(taken) >= fair:
                    break
                if r.id in self.owned:
                    continue
                holder = (r.owner or "").split("@")[0]
                if holder and holder in live and holder != self.node:
                    continue
                if await self.try_lock(r.id):
                    taken.append(r.id)
                    if holder and holder != self.node:
                        self.takeovers.append((r.id, store.now_ms()))
            if taken:
                await self.floor.take_over(taken, report)
            return [t for t in taken if t in self.owned]

    def _write_released(self, conn: Connection, table_ids: Iterable[str]) -> None:
        ids = list(table_ids)
        conn.execute(
            store.leases_t.update()
            .where(store.leases_t.c.table_id.in_(ids), store.leases_t.c.owner == self.owner)
            .values(owner=None, url=None, since=store.now_ms())
        )

    def write_lease(self, conn: Connection, table_id: str) -> None:
        """Claim the lease row (after the advisory lock), behind any command in flight."""
        conn.execute(
            sa.select(store.tables_t.c.id).where(store.tables_t.c.id == table_id).with_for_update()
        )
        values = {"owner": self.owner, "url": self.url, "since": store.now_ms()}
        done = conn.execute(
            store.leases_t.update().where(store.leases_t.c.table_id == table_id).values(**values)
        )
        if done.rowcount == 0:
            conn.execute(store.leases_t.insert().values(table_id=table_id, **values))

    async def release_row(self, table_id: str) -> None:
        await self.floor.db.write(lambda c: self._write_released(c, [table_id]))

    # --- events ------------------------------------------------------------------------------

    def announce(self, table_id: str, seq: int) -> None:
        """After a command committed: tell the other processes (coalesced, off the command's
        transaction — a NOTIFY inside it would take PostgreSQL's global notify lock through
        the commit and its fsync, one committing transaction at a time)."""
        self._notices[table_id] = max(seq, self._notices.get(table_id, -1))
        if self._notifier is None or self._notifier.done():
            self._notifier = asyncio.get_running_loop().create_task(self._send_notices())

    async def _send_notices(self) -> None:
        while self._notices:
            batch, self._notices = self._notices, {}
            payloads = [
                json.dumps({"t": t, "seq": n}, separators=(",", ":")) for t, n in batch.items()
            ]
            try:
                await self._query(
                    "SELECT pg_notify(%s, p) FROM unnest(%s::text[]) AS p", (CHANNEL, payloads)
                )
            except Exception:  # the replicas catch up at the next notice or reconnect
                log.exception("NOTIFY failed")

    async def _listen_loop(self) -> None:
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
                try:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    # connected (again): whatever was missed meanwhile is read now
                    for actor in list(self.floor.tables.values()):
                        if not actor.owned and actor.subscribers:
                            actor.request_catch_up()
                    async for note in conn.notifies():
                        self._on_notify(note.payload)
                finally:
                    with contextlib.suppress(Exception):
                        await conn.close()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("LISTEN connection failed; reconnecting")
                await asyncio.sleep(1.0)

    def _on_notify(self, payload: str) -> None:
        try:
            data = json.loads(payload)
            table_id, seq = str(data["t"]), int(data["seq"])
        except (ValueError, KeyError, TypeError):
            return
        actor = self.floor.tables.get(table_id)
        # a status change keeps the seq: every notice is read (coalesced per table)
        if actor is not None and not actor.owned and actor.subscribers:
            actor.request_catch_up(seq)

    # --- forwarding ----------------------------------------------------------------------------

    async def owner_url(self, table_id: str) -> tuple[bool, str | None]:
        """(the table exists, its owner's internal URL or None if nobody holds it)."""

        def read(conn: Connection) -> tuple[bool, str | None]:
            row = conn.execute(
                sa.select(store.tables_t.c.id, store.leases_t.c.owner, store.leases_t.c.url)
                .select_from(
                    store.tables_t.outerjoin(
                        store.leases_t, store.leases_t.c.table_id == store.tables_t.c.id
                    )
                )
                .where(store.tables_t.c.id == table_id)
            ).first()
            if row is None:
                return False, None
            return True, (str(row.url) if row.owner and row.url else None)

        return await self.floor.db.read(read)

    async def forward(
        self, table_id: str, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes] | None:
        """Send the request to the table's owner and return its answer; None when this
        process owns the table now (run it here) or no such table exists (a 404 here)."""
        deadline = time.monotonic() + self.forward_wait
        while True:
            actor = self.floor.tables.get(table_id)
            if actor is not None and actor.owned:
                return None
            url = self._routes.get(table_id)
            if url is None:
                exists, url = await self.owner_url(table_id)
                if not exists:
                    return None
            if url and url != self.url:
                try:
                    status, content = await self._pool.request(
                        url, method, path, {**headers, FORWARDED: self.node}, body
                    )
                    if status != 421:
                        self._routes[table_id] = url
                        return status, content
                except Exception as exc:  # the owner is gone or unreachable: wait for the next
                    log.info("forward to %s for %s failed: %s", url, table_id, exc)
            self._routes.pop(table_id, None)
            if time.monotonic() > deadline:
                err = ApiError(
                    503,
                    "unavailable",
                    f"table {table_id!r} has no reachable owner yet; retry with the same "
                    "Idempotency-Key",
                    "SRV-LEASE",
                )
                return 503, json.dumps(err.body()).encode()
            await asyncio.sleep(0.1)

    async def remote_tables(self, authorization: str) -> list[dict[str, Any]]:
        """``GET /tables`` of every other live owner (their own tables only)."""

        def read(conn: Connection) -> list[str]:
            rows = conn.execute(
                sa.select(store.leases_t.c.url)
                .where(store.leases_t.c.owner.is_not(None), store.leases_t.c.owner != self.owner)
                .distinct()
            )
            return [str(u) for (u,) in rows if u]

        urls = await self.floor.db.read(read)

        async def one(url: str) -> list[dict[str, Any]]:
            try:
                status, content = await self._pool.request(
                    url,
                    "GET",
                    "/tables",
                    {"Authorization": authorization, FORWARDED: self.node},
                    b"",
                )
                return list(json.loads(content)) if status == 200 else []
            except Exception:
                return []

        out: list[dict[str, Any]] = []
        for part in await asyncio.gather(*(one(u) for u in urls)):
            out.extend(part)
        return out

    async def leases(self) -> list[dict[str, Any]]:
        rows = await self.floor.db.read(
            lambda c: c.execute(sa.select(store.leases_t).order_by(store.leases_t.c.table_id)).all()
        )
        return [
            {"table": r.table_id, "owner": r.owner, "url": r.url, "since": r.since} for r in rows
        ]


class HttpPool:
    """Keep-alive HTTP/1.1 connections to the other processes, for forwarding: it is on the
    path of every request that reaches a non-owner, and a general client (httpx) spends
    more CPU on one request than the owner spends running the command."""

    def __init__(self, *, connect_timeout: float = 2.0, timeout: float = 60.0) -> None:
        self._idle: dict[tuple[str, int], list[tuple[asyncio.StreamReader, Any]]] = {}
        self.connect_timeout, self.timeout = connect_timeout, timeout

    async def request(
        self, url: str, method: str, target: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, bytes]:
        hostport = url.split("://", 1)[1].rstrip("/")
        host, _, port = hostport.rpartition(":")
        key = (host.strip("[]"), int(port))
        head = [f"{method} {target} HTTP/1.1", f"Host: {hostport}", f"Content-Length: {len(body)}"]
        head += [f"{k}: {v}" for k, v in headers.items() if k.lower() != "content-length"]
        data = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        for attempt in (0, 1):
            idle = self._idle.get(key) or []
            reused = bool(idle)
            if reused:
                reader, writer = idle.pop()
            else:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(*key), self.connect_timeout
                )
            try:
                writer.write(data)
                async with asyncio.timeout(self.timeout):
                    status_line = await reader.readline()
                    if not status_line:
                        raise ConnectionResetError("the connection was closed")
                    status, content, keep = await _read_response(status_line, reader)
            except (ConnectionError, asyncio.IncompleteReadError) as exc:
                writer.close()
                # a kept connection the owner had closed meanwhile: once more on a new one
                # (nothing was answered; the same Idempotency-Key makes a repeat harmless)
                if reused and attempt == 0:
                    continue
                raise ConnectionError(str(exc)) from exc
            except BaseException:
                writer.close()
                raise
            if keep:
                self._idle.setdefault(key, []).append((reader, writer))
            else:
                writer.close()
            return status, content
        raise AssertionError("unreachable")

    def close(self) -> None:
        for conns in self._idle.values():
            for _, writer in conns:
                writer.close()
        self._idle.clear()


async def _read_response(
    status_line: bytes, reader: asyncio.StreamReader
) -> tuple[int, bytes, bool]:
    status = int(status_line.split()[1])
    length, chunked, keep = 0, False, True
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.decode("latin-1").partition(":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "transfer-encoding" and "chunked" in value:
            chunked = True
        elif name == "connection" and value == "close":
            keep = False
    if not chunked:
        return status, await reader.readexactly(length), keep
    parts = []
    while (size := int((await reader.readline()).split(b";")[0].strip() or b"0", 16)) > 0:
        parts.append(await reader.readexactly(size))
        await reader.readexactly(2)
    while (await reader.readline()) not in (b"\r\n", b""):  # trailers
        pass
    return status, b"".join(parts), keep


def _lease_rows(conn: Connection) -> list[Any]:
    t, lt = store.tables_t, store.leases_t
    return list(
        conn.execute(
            sa.select(t.c.id, lt.c.owner)
            .select_from(t.outerjoin(lt, lt.c.table_id == t.c.id))
            .order_by(t.c.id)
        ).all()
    )


class ForwardMiddleware:
    """ASGI: requests under ``/tables/{id}/`` for a table this process does not own go to
    its owner (see the module docstring); a forwarded request is never forwarded again
    (the owner that no longer owns it answers 421 and the first process asks again)."""

    def __init__(self, app: ASGIApp, floor: Host) -> None:
        self.app = app
        self.floor = floor

    async def table_of(self, scope: Scope) -> str | None:
        """The table a request acts at: ``/tables/{id}/…``, or the table of the supervisor's
        request that ``/supervisor/requests/{rid}/approve|reject`` decides; else None."""
        if scope["type"] != "http":
            return None
        path = scope.get("path", "")
        match = TABLE_PATH.match(path)
        if match is not None:
            return unquote(match.group(1))
        decision = DECISION_PATH.match(path)
        if decision is None:
            return None
        rid = int(decision.group(1))
        if rid > MAX_ID:  # no such request (the route answers 422)
            return None
        found = await self.floor.db.read(
            lambda c: c.execute(
                sa.select(store.requests_t.c.table_id).where(store.requests_t.c.id == rid)
            ).scalar()
        )
        return None if found is None else str(found)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        cluster = self.floor.cluster
        table_id = await self.table_of(scope) if cluster is not None else None
        if cluster is None or table_id is None:
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        forwarded = FORWARDED in headers
        actor = self.floor.tables.get(table_id)
        if forwarded:  # from another process: here or nowhere (421 if not here)
            if actor is not None and not actor.owned:
                await _send_json(send, 421, not_owner(table_id).body())
                return
            await self.app(scope, receive, send)
            return
        body = await _read_body(receive)
        if actor is not None and actor.owned:
            lost = await _run_unless_421(self.app, scope, body, receive, send)
            if not lost:
                return
        # (the browser's session cookie and its CSRF proof too: the owner checks them)
        keep = (
            "authorization",
            "cookie",
            "x-csrf-token",
            "idempotency-key",
            "content-type",
            "accept",
        )
        fwd_headers = {k: v for k, v in headers.items() if k in keep}
        path = scope.get("raw_path") or scope["path"].encode()
        target = path.decode("latin-1") + (
            "?" + scope["query_string"].decode("latin-1") if scope.get("query_string") else ""
        )
        answer = await cluster.forward(table_id, scope["method"], target, fwd_headers, body)
        if answer is None:  # it is ours now, or there is no such table: answer here
            await _run_unless_421(self.app, scope, body, receive, send, intercept=False)
            return
        status, content = answer
        await send_json(send, status, content)


async def _read_body(receive: Receive) -> bytes:
    chunks = []
    while True:
        msg = await receive()
        if msg["type"] != "http.request":
            break
        chunks.append(msg.get("body", b""))
        if not msg.get("more_body"):
            break
    return b"".join(chunks)


async def _run_unless_421(
    app: ASGIApp,
    scope: Scope,
    body: bytes,
    receive: Receive,
    send: Send,
    *,
    intercept: bool = True,
) -> bool:
    """Run the app on the buffered body; True if it answered 421 (the answer is dropped:
    the caller forwards instead)."""
    sent = False
    lost = False

    async def replay() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    async def relay(msg: Message) -> None:
        nonlocal lost
        if intercept and msg["type"] == "http.response.start" and msg["status"] == 421:
            lost = True
        if not lost:
            await send(msg)

    await app(scope, replay, relay)
    return lost


async def _send_json(send: Send, status: int, body: dict[str, Any]) -> None:
    await send_json(send, status, json.dumps(body).encode())
