"""One server process per SQLite file (``db.ServerLock``).

Each table's actor is the only writer of its table, and the group commit the only writer
of the file: a second server on the same file would write the same tables behind the
first one's back. It is refused before it writes anything — in one line from the CLI —
and the file is free again as soon as the first server stops, however it stops (a
``kill -9`` too: the crash harness restarts servers on the same file after one).
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from macau_tables.core.errors import MacauTablesError
from macau_tables.server.db import ServerLock, normalise_url
from macau_tables.server.floor import Floor
from tests.server.conftest import make_settings
from tests.server.pg import free_port
from tests.server.test_crash import ROOT, ServerProcess


def test_a_second_floor_on_the_same_file_is_refused_until_the_first_stops(
    tmp_path: Path,
) -> None:
    url = str(tmp_path / "floor.db")

    async def scenario() -> None:
        first = Floor(make_settings(url))
        await first.start()
        try:
            second = Floor(make_settings(url))
            with pytest.raises(MacauTablesError, match="another server process"):
                await second.start()
            second.db.close()
        finally:
            await first.stop()
        third = Floor(make_settings(url))  # the first let go of the file
        await third.start()
        assert "hilo-1" in third.tables
        await third.stop()

    asyncio.run(scenario())


def test_a_refused_floor_writes_nothing(tmp_path: Path) -> None:
    """Refused before the migrations: the file another server holds is not even created
    by the second one (here the holder only holds the lock, as a server that is starting)."""
    path = tmp_path / "floor.db"
    holder = ServerLock(normalise_url(str(path)))
    try:

        async def start() -> None:
            floor = Floor(make_settings(str(path)))
            try:
                await floor.start()
            finally:
                floor.db.close()

        with pytest.raises(MacauTablesError, match="another server process"):
            asyncio.run(start())
        assert not path.exists()
    finally:
        holder.close()
    floor = Floor(make_settings(str(path)))
    asyncio.run(floor.start())
    asyncio.run(floor.stop())
    engine = sa.create_engine(normalise_url(str(path)))
    try:
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM tables")).scalar_one() == 1
    finally:
        engine.dispose()


def test_serve_on_a_file_another_server_serves_is_one_line_and_exit_2(tmp_path: Path) -> None:
    url = str(tmp_path / "floor.db")
    running = ServerProcess(url, free_port(), tmp_path / "first.log")
    running.start()
    try:
        second = subprocess.run(
            [
                sys.executable,
                "-c",
                "from macau_tables.cli.app import main; main()",
                "serve",
                "--database-url",
                url,
                "--port",
                str(free_port()),
            ],
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
            capture_output=True,
            text=True,
            timeout=60,  # (a server that was not refused would still be running)
        )
        assert second.returncode == 2, second.stdout + second.stderr
        lines = [ln for ln in (second.stdout + second.stderr).splitlines() if ln.strip()]
        assert len(lines) == 1 and "another server process" in lines[0], lines
        assert "Traceback" not in second.stderr
    finally:
        running.stop()
