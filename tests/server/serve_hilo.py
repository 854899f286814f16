"""Run a real server process with the Hi-Lo double (the crash harness and the benchmark).

``python -m tests.server.serve_hilo DB_URL PORT [TABLES] [BETTING_SECONDS] [WORKERS]``: prints
the demo credentials and the URL as ``macau-tables serve`` does, with ``TABLES`` Hi-Lo
tables (``WORKERS`` processes on PostgreSQL, as ``serve --workers``).
"""

from __future__ import annotations

import asyncio
import os
import sys

from macau_tables.server.floor import Floor, Settings
from macau_tables.server.run import serve
from tests.server.conftest_game import register_hilo


def main() -> None:
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
    # MACAU_TABLES_FRONT=0: one process, without the front process (serve --no-front)
    front = os.environ.get("MACAU_TABLES_FRONT", "1") != "0"
    serve(
        "127.0.0.1", port, url, settings=settings, log_level="warning", workers=workers, front=front
    )


if __name__ == "__main__":
    main()
