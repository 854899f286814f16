"""Run a real server process for the staff's crash tests (test_crash_staff.py): three
dealer-operated craps tables and a second supervisor, on a quiet floor.

``python -m tests.reliability.serve_staff DB_URL PORT [init]``: with ``init`` (its first
start) it makes the floor's demo accounts (no demo table), the craps tables of
:data:`TABLES` (the dealer keys the dice in: nothing happens at them without a command,
so the floor commits only what the test sends) and the supervisor
``supervisor2`` (a void or a correction is requested by one supervisor and approved by
another), and prints the passwords as ``macau-tables serve`` does.

The crash harness's hook (``tests.server.serve_hilo.KILL_AFTER_COMMITS``) counts commits
from the process's start; here the moment is set by the test once the state is ready,
just before it sends the action: with ``MACAU_TABLES_TEST_KILL_ARM`` naming a file, the
process watches for that file at every commit, and from the moment it appears counts the
commits and kills itself (``SIGKILL``) at the one the file names — ``after N`` (right after the
N-th commit, before any answer of its batch is sent, as ``KILL_AFTER_COMMITS``) or
``before N`` (right before the N-th commit is sent: its transaction dies open, nothing of
it is recorded).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from macau_tables.server.auth import StaffRole, create_user
from macau_tables.server.floor import Floor
from macau_tables.server.run import serve
from macau_tables.server.settings import Settings

#: the file that arms the kill (its text: ``after N`` or ``before N``)
KILL_ARM = "MACAU_TABLES_TEST_KILL_ARM"

#: the dealer-operated tables, for each case of test_crash_staff.py (the kill before the
#: commit, after it) a table of its own: one to void a round at, one to correct a
#: keyed-in throw at, and its reference, where the right dice are keyed in. (A correction
#: table is corrected once: craps refuses a second correction of a seven-out at a table
#: whose history holds a corrected one.)
TABLES = tuple(
    f"craps-{use}-{when}" for when in ("before", "after") for use in ("void", "fix", "ref")
)

SECOND_SUPERVISOR = "supervisor2"

#: the threads whose commits are the server's writes: SQLite's group commit
#: (``db-commit``); PostgreSQL's group commit of the tables' commands (``db-group``, its
#: ``COMMIT`` sent on an autocommit connection) and its other writes (``db-write``: the
#: cashier, a supervisor's request, a login)
SQLITE_THREADS = ("db-commit",)
GROUP_THREADS = ("db-group",)
WRITE_THREADS = ("db-write",)


def kill_at_commit(arm: Path) -> None:
    """Wrap the places a write commits (as ``serve_hilo.kill_after_commits`` does, with
    PostgreSQL's ``db-write`` transactions too): once ``arm`` exists, count the commits and
    die before or after the one it names."""
    import psycopg
    from sqlalchemy.engine.default import DefaultDialect

    state: dict[str, Any] = {"when": None, "n": 0, "seen": 0}
    lock = threading.Lock()

    def die(what: str) -> None:
        sys.stdout.write(f"killed {what}\n")
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGKILL)

    def counted(threads: tuple[str, ...], real: Callable[[], Any]) -> Any:
        if not threading.current_thread().name.startswith(threads):
            return real()
        with lock:
            if state["when"] is None and arm.exists():
                when, n = arm.read_text().split()
                state.update(when=when, n=int(n))
            if state["when"] is None:
                return real()
            state["seen"] += 1
            seen, when, n = state["seen"], state["when"], state["n"]
            if when == "before" and seen == n:
                die(f"right before commit {n}")
            out = real()
            if when == "after" and seen == n:
                die(f"right after commit {n}")
            return out

    do_commit = DefaultDialect.do_commit

    def commit(self: DefaultDialect, dbapi_connection: Any) -> None:
        def real() -> None:
            do_commit(self, dbapi_connection)

        counted(SQLITE_THREADS + WRITE_THREADS, real)

    execute = psycopg.Cursor.execute

    def execute_counted(self: psycopg.Cursor[Any], query: Any, *a: Any, **k: Any) -> Any:
        if query != "COMMIT":
            return execute(self, query, *a, **k)
        return counted(GROUP_THREADS, lambda: execute(self, query, *a, **k))

    DefaultDialect.do_commit = commit  # type: ignore[method-assign]
    psycopg.Cursor.execute = execute_counted  # type: ignore[method-assign]


def main() -> None:
    if os.environ.get(KILL_ARM):
        kill_at_commit(Path(os.environ[KILL_ARM]))
    url, port = sys.argv[1], int(sys.argv[2])
    settings = Settings(
        database_url=url,
        betting_seconds=0.3,
        action_seconds=0.3,
        dealer_seconds=0.0,
        demo_games=(),  # no demo table: the floor commits only what the test sends
        fast_passwords=True,
    )
    if sys.argv[3:] == ["init"]:
        floor = Floor(Settings(**{**settings.__dict__, "clocks": False}))

        async def first_start() -> dict[str, str]:
            await floor.start()
            for table in TABLES:
                await floor.create_table(table, "craps", {}, dealer="live")
            password = os.urandom(8).hex()
            # hired before the test's requests, as two administrators would have (created
            # and approved): made here directly, as the floor's first start does its demo staff
            await floor.db.write(
                lambda c: create_user(
                    c, floor.passwords, SECOND_SUPERVISOR, StaffRole.SUPERVISOR, password
                )
            )
            await floor.stop()
            return {**floor.demo_credentials, SECOND_SUPERVISOR: password}

        creds = asyncio.run(first_start())
        sys.stdout.write("demo credentials:\n")
        for name, pw in creds.items():
            sys.stdout.write(f"    {name:<11} {pw}\n")
        sys.stdout.flush()
    serve("127.0.0.1", port, url, settings=settings, log_level="warning")


if __name__ == "__main__":
    main()
