"""Run a real server process with the Hi-Lo double (the crash harness and the benchmark).

``python -m tests.server.serve_hilo DB_URL PORT [TABLES] [BETTING_SECONDS] [WORKERS]``: prints
the demo credentials and the URL as ``macau-tables serve`` does, with ``TABLES`` Hi-Lo
tables (``WORKERS`` processes on PostgreSQL, as ``serve --workers``).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from macau_tables.server.floor import Floor
from macau_tables.server.run import serve
from macau_tables.server.settings import Settings
from tests.server.conftest_game import register_hilo

#: the crash harness's window between a commit and its answers: ``N`` makes this process
#: SIGKILL itself right after its N-th batch commit (the group commit's, on SQLite or
#: PostgreSQL), before any answer of that batch is sent
KILL_AFTER_COMMITS = "MACAU_TABLES_TEST_KILL_AFTER_COMMITS"


def kill_after_commits(n: int) -> None:
    """Wrap the two places a batch commits: SQLite's ``tx.commit`` in the ``db-commit``
    thread (``DefaultDialect.do_commit``) and PostgreSQL's ``COMMIT`` in a ``db-group``
    thread (``psycopg.Cursor.execute``); the callers' futures are set only after they
    return, so nothing of the batch has answered when the process dies."""
    import itertools
    import signal
    import threading

    import psycopg
    from sqlalchemy.engine.default import DefaultDialect

    commits = itertools.count(1)

    def counted(thread: str) -> None:
        if threading.current_thread().name.startswith(thread) and next(commits) >= n:
            sys.stdout.write(f"killed right after commit {n}\n")
            sys.stdout.flush()
            os.kill(os.getpid(), signal.SIGKILL)

    do_commit = DefaultDialect.do_commit

    def commit_then_maybe_die(self: DefaultDialect, dbapi_connection: Any) -> None:
        do_commit(self, dbapi_connection)
        counted("db-commit")

    execute = psycopg.Cursor.execute

    def execute_then_maybe_die(self: psycopg.Cursor[Any], query: Any, *a: Any, **k: Any) -> Any:
        out = execute(self, query, *a, **k)
        if query == "COMMIT":
            counted("db-group")
        return out

    DefaultDialect.do_commit = commit_then_maybe_die  # type: ignore[method-assign]
    psycopg.Cursor.execute = execute_then_maybe_die  # type: ignore[method-assign]


def main() -> None:
    if os.environ.get(KILL_AFTER_COMMITS):
        kill_after_commits(int(os.environ[KILL_AFTER_COMMITS]))
    url, port = sys.argv[1], int(sys.argv[2])
    tables = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    betting = float(sys.argv[4]) if len(sys.argv) > 4 else 0.3
    workers = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    register_hilo()
    settings = Settings(
        database_url=url,
        betting_seconds=betting,
        action_seconds=0.3,
        dealer_seconds=0.0,
        demo_games=("hilo",),
        fast_passwords=True,
    )
    if tables > 1:  # the extra tables exist before the server starts (its demo makes hilo-1)
        floor = Floor(Settings(**{**settings.__dict__, "clocks": False}))

        async def more() -> None:
            await floor.start()
            for i in range(2, tables + 1):
                if f"hilo-{i}" not in floor.tables:
                    await floor.create_table(f"hilo-{i}", "hilo", {})
            await floor.stop()

        asyncio.run(more())
        sys.stdout.write("demo credentials:\n")
        for name, pw in floor.demo_credentials.items():
            sys.stdout.write(f"    {name:<11} {pw}\n")
        sys.stdout.flush()
    serve("127.0.0.1", port, url, settings=settings, log_level="warning", workers=workers)


if __name__ == "__main__":
    main()
