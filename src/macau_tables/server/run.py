"""``macau-tables serve`` and ``macau-tables db upgrade``: what the CLI calls."""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import gc
import ipaddress
import json
import os
import signal
import socket
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from macau_tables.core.errors import InvalidInput, MacauTablesError
from macau_tables.server.db import Database, ServerLock, database_error, normalise_url, upgrade
from macau_tables.server.floor import DEMO_AUDIT, DEMO_USERS, Floor, demo_fingerprint
from macau_tables.server.settings import Settings
from macau_tables.server.wire import MAX_WS_MESSAGE


def serve(
    host: str,
    port: int,
    database_url: str | None,
    *,
    betting_seconds: float = 15.0,
    action_seconds: float = 20.0,
    log_level: str = "info",
    access_log: bool = False,
    settings: Settings | None = None,
    gaming_day_start: str = "06:00",
    workers: int = 1,
    internal_host: str = "127.0.0.1",
    fast_path: bool = True,
    on_start: Callable[[Floor], None] | None = None,
    checkpoint_every: int = 1000,
    chain_check: str = "background",
    idempotency_hours: float = 24.0,
    demo: bool = True,
) -> None:
    """Run the server until interrupted (migrations and recovery first).

    On PostgreSQL the process takes table leases (server/cluster.py) and listens on a
    second, internal address as well (``internal_host``, a free port) where the other
    processes forward requests for its tables; ``workers`` > 1 starts that many such
    processes sharing ``port`` (SO_REUSEPORT) and restarts one that dies. SQLite is one
    process: ``workers`` > 1 is refused, and so is a second server on the same file
    (:class:`db.ServerLock`). ``fast_path``: table commands answered by the fast path
    (server/fastpath.py; off: by FastAPI's route alone, for comparison). ``on_start``:
    also called once the floor is up (the browser tests' server writes the demo passwords
    to a file). ``access_log``: a line per
    HTTP request (off: the journal and the ledger record every command; at a thousand
    requests a second the lines cost ~5 % of the loop's time, and 86 million lines a day).
    ``demo``: a new floor gets the demo accounts and tables. A ``host`` other machines
    reach is refused while there are demo accounts with their first passwords
    (:func:`public_demo_refusal`).
    """
    settings = settings or Settings(
        database_url=database_url,
        betting_seconds=betting_seconds,
        action_seconds=action_seconds,
        gaming_day_start=gaming_day_start,
        checkpoint_every=checkpoint_every,
        chain_check=chain_check,
        idempotency_hours=idempotency_hours,
        demo=demo,
    )
    if workers > 1 and not is_postgresql(settings.database_url):
        raise InvalidInput(WORKERS_NEED_PG)
    refusal = public_demo_refusal(host, settings)
    if refusal is not None:
        raise InvalidInput(refusal)
    if not is_postgresql(settings.database_url):
        # another server on this SQLite file: one line here, before uvicorn starts (the
        # floor takes the lock for good at start-up)
        ServerLock(normalise_url(settings.database_url)).close()
    if not is_postgresql(settings.database_url) or settings.cluster is False:
        _serve_one(host, port, settings, log_level, access_log, fast_path, on_start)
    elif workers <= 1:
        _serve_leased(host, port, settings, log_level, access_log, internal_host, reuse_port=False)
    else:
        _supervise(host, port, settings, log_level, access_log, internal_host, workers)


def is_loopback(host: str) -> bool:
    """Whether only this machine reaches ``host`` (127.0.0.0/8, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:  # a name, or 0.0.0.0 / :: (every address)
        return False


def public_demo_refusal(host: str, settings: Settings) -> str | None:
    """Why ``serve`` refuses ``host`` (``None``: it does not): an address other machines
    reach, with demo accounts whose passwords were printed at their first start — those
    a new floor would create, or those of this database still active with their first
    password (the audit log's ``demo_accounts`` entry keeps a digest of each)."""
    if is_loopback(host):
        return None
    unchanged = demo_accounts_unchanged(settings.database_url)
    if unchanged is None and settings.demo:
        why = "a new floor would get the demo accounts, whose passwords are printed at start"
        fix = "pass --no-demo, or serve on 127.0.0.1"
    elif unchanged:
        why = (
            f"the demo accounts {', '.join(unchanged)} still have the passwords printed at "
            "the floor's first start"
        )
        fix = "change their passwords or deactivate them, or serve on 127.0.0.1"
    else:
        return None
    return f"refusing to serve on {host}, an address other machines reach: {why}; {fix}"


def demo_accounts_unchanged(database_url: str | None) -> list[str] | None:
    """The demo accounts of the database that are active with their first password, or
    ``None`` when it has no user yet (a new floor). A database that cannot be read here:
    ``[]`` (the server's own start-up reports it)."""
    import sqlalchemy as sa
    from sqlalchemy.exc import SQLAlchemyError

    from macau_tables.server import store

    url = normalise_url(database_url)
    made = sa.engine.make_url(url)
    if made.get_backend_name() == "sqlite" and not Path(made.database or "").is_file():
        return None
    engine = sa.create_engine(url, poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            found = sa.inspect(conn)
            if not found.has_table(store.users_t.name):
                return None
            users = {
                r.name: r
                for r in conn.execute(
                    sa.select(
                        store.users_t.c.name,
                        store.users_t.c.password_hash,
                        store.users_t.c.active,
                    )
                )
            }
            if not users:
                return None
            marks: dict[str, str] = {}
            if found.has_table(store.audit_t.name):
                rows = conn.execute(
                    sa.select(store.audit_t.c.data).where(store.audit_t.c.action == DEMO_AUDIT)
                )
                for (data,) in rows:
                    marks.update(json.loads(data or "{}"))
            out = []
            for name, _ in DEMO_USERS:
                row = users.get(name)
                if row is None or not row.active:
                    continue
                # (a floor made before the digests were kept: the demo accounts' names)
                first = not marks or marks.get(name) == demo_fingerprint(row.password_hash)
                if first:
                    out.append(name)
            return out
    except SQLAlchemyError:
        return []
    finally:
        engine.dispose()


WORKERS_NEED_PG = (
    "--workers needs PostgreSQL (--database-url postgresql+psycopg://…): SQLite allows one "
    "writing process, and the processes share tables through PostgreSQL's advisory locks "
    "and LISTEN/NOTIFY"
)


def is_postgresql(database_url: str | None) -> bool:
    return normalise_url(database_url).startswith("postgresql")


def _announce(
    host: str, port: int, also: Callable[[Floor], None] | None = None
) -> Callable[[Floor], None]:
    def announce(floor: Floor) -> None:
        if also is not None:
            also(floor)
        out = sys.stdout
        rec = floor.recovery
        out.write(f"macau-tables: database {floor.db.url}\n")
        out.write(
            f"macau-tables: {rec.tables} table(s) verified"
            # (one process: the start-up's own; with leases, tables are taken over time)
            + (f" in {rec.seconds:.1f} s" if floor.cluster is None else "")
            + (f", locked: {rec.locked}" if rec.locked else "")
            + (f", rounds finished on recovery: {rec.driven}" if rec.driven else "")
            + "\n"
        )
        if rec.created:
            out.write(f"macau-tables: a new floor: demo tables {', '.join(rec.created)}\n")
        if floor.cluster is not None:
            out.write(
                f"macau-tables: process {floor.cluster.owner} (internal {floor.cluster.url}) "
                f"owns {len(floor.cluster.owned)} table(s)\n"
            )
        if floor.demo_credentials:
            out.write("macau-tables: demo accounts (shown once; keep them):\n")
            for name, pw in floor.demo_credentials.items():
                out.write(f"    {name:<11} {pw}\n")
        shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        out.write(f"macau-tables: serving on http://{shown}:{port}/  (API docs: /docs)\n")
        out.flush()
        tune_gc()

    return announce


#: the youngest generation's threshold (CPython's default): a young collection walks about
#: this many objects, a pause of well under a millisecond
GC_YOUNG = 700


def tune_gc() -> None:
    """Once the floor is up, every object that survives a collection leaves the cyclic
    collector's reach (``gc.freeze``): first what the floor loaded (the libraries, every
    table's engine), then, after each young collection, what outlived it — mostly journal
    entries and their events, which a table keeps as long as it runs. So a collection
    only ever walks the objects made since the last one (about ``GC_YOUNG``), never every
    journal in memory: measured pauses of 0.06–0.33 ms at the median, at most 2.3 ms.
    With CPython's defaults a full collection at saturation took up to 199 ms; with the
    youngest generation at 20,000 allocations and survivors left in the older
    generations (an earlier setting), each young collection took 20–30 ms in the
    server benchmark.

    The price: an object in a reference cycle that outlives a young collection and later
    becomes garbage is never freed (reference counting frees everything else, frozen or
    not). The server's own paths leave no such cycle — the two found were mended (a
    WebSocket handshake, :func:`http_protocol`; a statement built per call with an
    ``IN`` list, ``store.Accounts``): none left after 8,856 commands of the four games'
    bots and 3,128 WebSocket connections opened and closed. A rare operation (a table
    released or adopted, a meters query) still leaves
    a cycle of about ten objects. ``MACAU_TABLES_GC=python`` keeps CPython's collector as
    it is."""
    if os.environ.get("MACAU_TABLES_GC", "").strip().lower() == "python":
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, 10, 10)
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    if phase == "stop":
        gc.freeze()


def _serve_one(
    host: str,
    port: int,
    settings: Settings,
    log_level: str,
    access_log: bool,
    fast_path: bool,
    also: Callable[[Floor], None] | None = None,
) -> None:
    """One process: the HTTP, the tables, the database (SQLite allows one writing process;
    a PostgreSQL floor run without leases)."""
    import uvicorn

    from macau_tables.server.app import create_app

    public = _bind(host, port)  # (a port in use: one line, before anything starts)
    app = create_app(settings, on_start=_announce(host, port, also), fast_path=fast_path)
    # The database thread releases the GIL at every SQLite call; with the default 5 ms
    # switch interval it then waits behind the event loop's HTTP work at each call (the
    # convoy effect). A short interval hands the GIL back quickly.
    sys.setswitchinterval(0.0002)
    config = uvicorn.Config(app, **_uvicorn_options(log_level, access_log))
    try:
        uvicorn.Server(config).run(sockets=[public])
    finally:
        public.close()


def _uvicorn_options(log_level: str, access_log: bool) -> dict[str, Any]:
    """uvicorn's options for one server process (one process or each of several)."""
    return {
        "log_level": log_level,
        "access_log": access_log,
        "http": http_protocol(),
        "ws": _ws_protocol(),
        "ws_max_size": MAX_WS_MESSAGE,  # (a table's socket reads nothing its client sends)
    }


def _bind(host: str, port: int, *, reuse_port: bool = False, wait: float = 0.0) -> socket.socket:
    """A bound socket (not listening); ``wait``: seconds to retry a port in use."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    deadline = time.monotonic() + wait
    while True:
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        try:
            sock.bind((host, port))
        except OSError as exc:
            sock.close()
            if exc.errno != errno.EADDRINUSE or time.monotonic() >= deadline:
                raise MacauTablesError(f"cannot listen on {host}:{port}: {exc.strerror}") from exc
            time.sleep(0.05)
            continue
        sock.set_inheritable(True)
        return sock


def _serve_leased(
    host: str,
    port: int,
    settings: Settings,
    log_level: str,
    access_log: bool,
    internal_host: str,
    *,
    reuse_port: bool,
) -> None:
    """One process of several: the public socket and its own internal one."""
    import uvicorn

    from macau_tables.server.app import create_app

    public = _bind(host, port, reuse_port=reuse_port)
    internal = _bind(internal_host, 0)
    shown = f"[{internal_host}]" if ":" in internal_host else internal_host
    url = f"http://{shown}:{internal.getsockname()[1]}"
    settings = dataclasses.replace(settings, internal_url=url)
    app = create_app(settings, on_start=_announce(host, port))
    sys.setswitchinterval(0.0002)
    config = uvicorn.Config(app, **_uvicorn_options(log_level, access_log))
    uvicorn.Server(config).run(sockets=[public, internal])


def _supervise(
    host: str,
    port: int,
    settings: Settings,
    log_level: str,
    access_log: bool,
    internal_host: str,
    workers: int,
) -> None:
    """``--workers N``: N leased processes on one port; one that dies is started again
    (its tables are taken over by the others meanwhile, and shared again after)."""
    import multiprocessing as mp

    ctx = mp.get_context("fork")  # the children inherit the games registered here
    args = (host, port, settings, log_level, access_log, internal_host)

    def start(i: int) -> Any:
        proc = ctx.Process(target=_worker, args=args, name=f"macau-worker-{i}", daemon=False)
        proc.start()
        return proc

    procs = {i: start(i) for i in range(workers)}
    started = {i: time.monotonic() for i in procs}
    fast_failures = 0
    stopping = False

    def on_signal(signum: int, _frame: Any) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    from multiprocessing.connection import wait

    try:
        while not stopping:
            # woken at once by a worker's death (its sentinel), else every 0.5 s to see
            # whether a signal asked us to stop
            wait([proc.sentinel for proc in procs.values()], timeout=0.5)
            for i, proc in list(procs.items()):
                if proc.is_alive() or stopping:
                    continue
                quick = time.monotonic() - started[i] < 10
                fast_failures = fast_failures + 1 if quick else 0
                sys.stderr.write(
                    f"macau-tables: worker {i} (pid {proc.pid}) exited with {proc.exitcode}"
                    + ("; starting it again\n" if fast_failures < 5 else "\n")
                )
                if fast_failures >= 5:
                    raise MacauTablesError("the workers keep failing at start-up; see above")
                procs[i], started[i] = start(i), time.monotonic()
    finally:
        for proc in procs.values():
            if proc.is_alive():
                proc.terminate()
        for proc in procs.values():
            proc.join(30)
            if proc.is_alive():
                proc.kill()


def _worker(
    host: str, port: int, settings: Settings, log_level: str, access_log: bool, internal_host: str
) -> None:
    _serve_leased(host, port, settings, log_level, access_log, internal_host, reuse_port=True)


def http_protocol() -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol, except that a connection upgraded to a WebSocket
    lets go of its request parser, as uvicorn's does when a connection is lost. The
    parser and the protocol refer to each other: left as they are, the handshake's
    objects (about 17) are a reference cycle that the collector, which freezes what
    outlives a collection (:func:`tune_gc`), would never free."""
    global _HTTP_PROTOCOL
    if _HTTP_PROTOCOL is None:
        try:
            from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
        except ImportError:  # no httptools: uvicorn's h11 protocol has no such cycle
            return "auto"

        class Protocol(HttpToolsProtocol):
            def handle_websocket_upgrade(self) -> None:
                super().handle_websocket_upgrade()
                self.parser = None  # type: ignore[assignment]

        _HTTP_PROTOCOL = Protocol
    return _HTTP_PROTOCOL


_HTTP_PROTOCOL: type[asyncio.Protocol] | None = None


def _ws_protocol() -> str:
    """uvicorn's sans-I/O websockets protocol where it has one (its legacy one warns)."""
    from uvicorn.config import WS_PROTOCOLS

    return "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"


def db_upgrade(database_url: str | None) -> list[str]:
    """Apply pending migrations; a database that cannot be reached is a one-line error."""
    from sqlalchemy.exc import SQLAlchemyError

    try:
        db = Database(database_url)
    except (SQLAlchemyError, ValueError) as exc:
        raise database_error(exc) from exc
    try:
        return upgrade(db)
    except SQLAlchemyError as exc:
        raise database_error(exc) from exc
    finally:
        db.close()


__all__ = ["db_upgrade", "normalise_url", "serve"]


def first_administrators(database_url: str | None, names: list[str]) -> dict[str, str]:
    """The floor's first two administrators (a floor upgraded from before the role has
    none, and a staff account needs one to create it and another to approve it): created
    approved, by ``system``, with random passwords returned once — only while the floor
    has no administrator (``controls.first_administrators``). Migrations applied first."""
    from sqlalchemy.exc import SQLAlchemyError

    from macau_tables.core.errors import InvalidInput
    from macau_tables.server.auth import Passwords
    from macau_tables.server.controls import first_administrators as create
    from macau_tables.server.errors import ApiError

    try:
        db = Database(database_url)
    except (SQLAlchemyError, ValueError) as exc:
        raise database_error(exc) from exc
    try:
        upgrade(db)
        return db.write_sync(lambda conn: create(conn, Passwords(), names))
    except ApiError as exc:  # (a floor that has administrators: a one-line error)
        raise InvalidInput(exc.message, rule=exc.rule) from exc
    except SQLAlchemyError as exc:
        raise database_error(exc) from exc
    finally:
        db.close()
