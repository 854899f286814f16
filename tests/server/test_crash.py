"""The crash harness: a real server process on a loopback port, bots playing, ``kill -9``
at random moments and right after a commit; after each restart every acknowledged wager
is settled or refunded exactly once, the ledger sums to zero, every chain verifies and
replays (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from macau_tables.core.rng import Rng
from macau_tables.games.contract import replay
from macau_tables.server import store
from macau_tables.server.bots import BotReport, play_bots
from macau_tables.server.checks import verify_ledger
from macau_tables.server.db import Database
from tests.server.conftest import HILO
from tests.server.pg import free_port
from tests.server.serve_hilo import KILL_AFTER_COMMITS as KILL_AFTER

ROOT = Path(__file__).resolve().parents[2]


#: the tables of ``tests.server.serve_hilo`` (its first start)
HILO_TABLES = [("hilo-1", "hilo"), ("hilo-2", "hilo")]


class ServerProcess:
    """``tests.server.serve_hilo`` as a child process (killed with SIGKILL, restarted)."""

    def __init__(self, url: str, port: int, log: Path) -> None:
        self.url, self.port, self.log = url, port, log
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, **extra_env: str) -> None:
        env = {**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}", **extra_env}
        tables = "2" if self.starts == 0 else "1"
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.server.serve_hilo",
                    self.url,
                    str(self.port),
                    tables,
                    "0.3",
                ],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        self.wait_healthy()

    def wait_healthy(self) -> None:
        """Until ``GET /health`` answers 200 (the floor is up), for a minute at most."""
        assert self.proc is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text()[-3000:])

    def kill9(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def bots(
        self, players: int, report: BotReport, stop: asyncio.Event, **options: Any
    ) -> asyncio.Task[BotReport]:
        """``players`` bots playing here until ``stop`` is set (two minutes at most), as a
        task of the running loop; the staff's passwords from the server's log."""
        creds = self.creds()
        return asyncio.create_task(
            play_bots(
                f"http://127.0.0.1:{self.port}",
                players,
                120.0,
                ("supervisor", creds["supervisor"]),
                ("cashier", creds["cashier"]),
                poll=0.02,
                report=report,
                stop=stop,
                **options,
            )
        )

    def creds(self) -> dict[str, str]:
        out = {}
        for line in self.log.read_text().splitlines():
            parts = line.split()
            if line.startswith("    ") and len(parts) == 2:
                out.setdefault(parts[0], parts[1])
        return out


async def chaos(
    server: ServerProcess, report: BotReport, rng: Rng, kills: int, bots: asyncio.Task[Any]
) -> list[str]:
    """Kill the server ``kills`` times once the bots play: at random moments, and once
    right after a bet was acknowledged (its commit is durable: the bet must survive)."""

    async def next_bet() -> None:
        seen = report.bets
        deadline = time.monotonic() + 30
        while report.bets == seen and not bots.done() and time.monotonic() < deadline:
            await asyncio.sleep(0.001)

    what = []
    loop = asyncio.get_running_loop()
    await next_bet()  # the bots are set up and playing
    for k in range(kills):
        if bots.done():
            break
        if k == 1:
            await next_bet()
            what.append(f"after bet #{report.bets}")
        else:
            await asyncio.sleep(0.5 + rng.below(1500) / 1000)
            what.append("random")
        await loop.run_in_executor(None, server.kill9)
        await loop.run_in_executor(None, server.start)
    return what


def check_floor(url: str, acknowledged: list[tuple[str, str]]) -> dict[str, Any]:
    db = Database(url)
    try:
        assert db.read_sync(verify_ledger) == []
        opened = db.read_sync(
            lambda c: c.execute(sa.text("SELECT table_id, hold_id FROM holds_opened")).all()
        )
        closed = db.read_sync(
            lambda c: c.execute(sa.text("SELECT table_id, hold_id FROM holds_closed")).all()
        )
        opened_set = {tuple(r) for r in opened}
        closed_list = [tuple(r) for r in closed]
        assert len(closed_list) == len(set(closed_list))  # closed once
        missing = [a for a in acknowledged if a not in opened_set]
        assert missing == [], f"acknowledged bets lost: {missing[:5]}"
        unsettled = [a for a in acknowledged if a not in set(closed_list)]
        rows = db.read_sync(lambda c: c.execute(sa.select(store.tables_t)).all())
        for row in rows:
            journal = db.read_sync(
                lambda c, r=row: store.load_journal(
                    c, r.id, r.game, __import__("json").loads(r.header)
                )
            )
            journal.verify(expected_head=row.head_hash)
            seeds = db.read_sync(lambda c, r=row: store.table_seeds(c, r.id))
            engine = replay(journal, HILO.open, seeds)
            assert engine.journal.head == row.head_hash
            assert row.status == "open", row.lock_reason
        return {"holds": len(opened_set), "closed": len(closed_list), "unsettled": unsettled}
    finally:
        db.close()


def restarted_and_settled(
    server: ServerProcess,
    url: str,
    acknowledged: list[tuple[str, str]],
    check: Callable[[str, list[tuple[str, str]]], dict[str, Any]] = check_floor,
) -> dict[str, Any]:
    """One more ``kill -9`` with everyone gone, a restart, and ``check`` until recovery has
    settled every acknowledged wager (30 s at most): its last state, none unsettled."""
    server.kill9()
    server.start()
    deadline = time.monotonic() + 30
    while True:
        state = check(url, acknowledged)
        if not state["unsettled"] or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert state["unsettled"] == [], state
    return state


def test_kill_9_loses_no_acknowledged_wager(database_url: str, tmp_path: Path) -> None:
    url = database_url
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    server.start()
    try:
        report = BotReport()
        rng = Rng.seeded("crash", url.split("://")[0])

        async def scenario() -> tuple[BotReport, list[str]]:
            # the bots play until the three kills are done (a restart takes seconds on a
            # busy machine: a fixed playing time could end before the last kill)
            done = asyncio.Event()
            bots = server.bots(6, report, done, tables=HILO_TABLES, grace=40.0)
            kills = await chaos(server, report, rng, 3, bots)
            await asyncio.sleep(1.0)  # play on after the last restart, then cash out
            done.set()
            return await bots, kills

        result, kills = asyncio.run(scenario())
        assert result.bets > 0
        assert len(kills) == 3
        assert not [s for s in result.statuses if s >= 500], result.summary()
        # one more kill with everyone gone: recovery finishes what is in play
        state = restarted_and_settled(server, url, result.acknowledged)
        assert state["holds"] == state["closed"] >= len(set(result.acknowledged)) > 0
    finally:
        server.stop()


def test_a_kill_between_a_commit_and_its_answers_loses_nothing(
    database_url: str, tmp_path: Path
) -> None:
    """The narrowest window, hit on purpose: the server dies right after a batch's commit,
    before any of its answers is sent (serve_hilo's KILL_AFTER_COMMITS). The bets of that
    batch are recorded but unanswered; the bots send them again with the same keys, and
    each is answered from its record — recorded once, settled once."""
    url = database_url
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    server.start()
    try:
        report = BotReport()

        async def scenario() -> tuple[BotReport, int]:
            done = asyncio.Event()
            bots = server.bots(6, report, done, tables=HILO_TABLES, grace=40.0)
            loop = asyncio.get_running_loop()
            seen = report.bets
            while report.bets < seen + 20 and not bots.done():  # set up and betting
                await asyncio.sleep(0.01)
            await loop.run_in_executor(None, server.kill9)
            # started again to die on its own right after its 25th commit, bets in play
            await loop.run_in_executor(None, lambda: server.start(**{KILL_AFTER: "25"}))
            proc = server.proc
            assert proc is not None
            deadline = time.monotonic() + 60
            while proc.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            code = proc.poll()
            retried = report.retries
            await loop.run_in_executor(None, server.start)
            await asyncio.sleep(1.5)  # the bots send again, then play on
            done.set()
            result = await bots
            assert code == -signal.SIGKILL, server.log.read_text()[-3000:]
            return result, retried

        result, retried = asyncio.run(scenario())
        assert "killed right after commit 25" in server.log.read_text()
        assert retried > 0  # requests in flight at the kill were sent again
        assert not [s for s in result.statuses if s >= 500], result.summary()
        state = restarted_and_settled(server, url, result.acknowledged)
        assert state["holds"] == state["closed"] >= len(set(result.acknowledged)) > 0
    finally:
        server.stop()
