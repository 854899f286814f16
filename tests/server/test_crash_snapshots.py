"""The crash harness at the four real games, checkpointing every few entries: ``kill -9``
at random moments and right after an acknowledged bet, bots playing through it. After the
restarts every acknowledged wager is held and settled once, the ledger verifies, every
table's whole journal replays from its first entry (every checkpoint's digest re-derived)
and every table is open (each restart starts a table from its latest safe snapshot
where it has one). SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from macau_tables.core.rng import Rng
from macau_tables.games.contract import replay
from macau_tables.server import store
from macau_tables.server.bots import BotReport
from macau_tables.server.checks import verify_ledger
from macau_tables.server.db import Database
from macau_tables.server.games import binding, games
from tests.server.pg import free_port
from tests.server.test_crash import ServerProcess, chaos, restarted_and_settled

ROOT = Path(__file__).resolve().parents[2]
EVERY = 12


class GamesServer(ServerProcess):
    """``tests.server.serve_games`` as a child process."""

    def start(self) -> None:
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.server.serve_games", self.url, str(self.port),
                 str(EVERY)],
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.starts += 1
        self.wait_healthy()


def check(url: str, acknowledged: list[tuple[str, str]]) -> dict[str, Any]:
    """The floor as one snapshot of the database (the tables' clocks run on meanwhile)."""
    db = Database(url)
    try:
        return db.read_snapshot_sync(lambda c: _check(c, acknowledged))
    finally:
        db.close()


def _check(c: sa.Connection, acknowledged: list[tuple[str, str]]) -> dict[str, Any]:
    assert verify_ledger(c) == []
    opened = {
        tuple(r) for r in c.execute(sa.text("SELECT table_id, hold_id FROM holds_opened")).all()
    }
    closed = [
        tuple(r) for r in c.execute(sa.text("SELECT table_id, hold_id FROM holds_closed")).all()
    ]
    assert len(closed) == len(set(closed))  # closed once
    snapshots = 0
    holds: dict[tuple[str, str], set[tuple[str, str]]] = {}  # bet -> the holds it opened
    for row in c.execute(sa.select(store.tables_t)).all():
        assert row.status == "open", row.lock_reason
        journal = store.load_journal(c, row.id, row.game, json.loads(row.header))
        journal.verify(expected_head=row.head_hash)
        seeds = store.table_seeds(c, row.id)
        engine = replay(journal, binding(row.game).open, seeds)  # from the first entry
        assert engine.journal.head == row.head_hash
        snapshots += len(store.snapshot_seqs(c, row.id))
        for ev in journal.events:
            bet, mv = ev.to_json()["data"].get("bet_id"), ev.movement()
            if bet is not None and mv is not None and mv.opens:
                holds.setdefault((row.id, str(bet)), set()).update((row.id, h) for h in mv.opens)
    # an acknowledged bet is in its table's journal, and its holds in the ledger
    lost = [a for a in acknowledged if not holds.get(a)]
    assert lost == [], f"acknowledged bets lost: {lost[:5]}"
    assert all(holds[a] <= opened for a in acknowledged)
    unsettled = [a for a in acknowledged if not holds[a] <= set(closed)]
    return {"snapshots": snapshots, "unsettled": unsettled, "held": len(opened)}


def test_kill_9_with_snapshots_loses_no_acknowledged_wager(
    database_url: str, tmp_path: Path
) -> None:
    url = database_url
    games()  # the four games' bindings, and with them the bots' strategies
    server = GamesServer(url, free_port(), tmp_path / "server.log")
    server.start()
    try:
        report = BotReport()
        rng = Rng.seeded("crash-snapshots", url.split("://")[0])

        async def scenario() -> tuple[BotReport, list[str]]:
            done = asyncio.Event()
            bots = server.bots(8, report, done, grace=10.0)
            kills = await chaos(server, report, rng, 3, bots)
            await asyncio.sleep(2.0)  # play on after the last restart, then cash out
            done.set()
            return await bots, kills

        result, kills = asyncio.run(scenario())
        assert result.bets > 0
        assert len(kills) == 3
        assert not [s for s in result.statuses if s >= 500], result.summary()
        state = restarted_and_settled(server, url, result.acknowledged, check)
        assert state["snapshots"] > 0, "no table checkpointed: the harness tested nothing new"
        log = server.log.read_text()
        assert "Traceback" not in log, log[-3000:]
    finally:
        server.stop()
