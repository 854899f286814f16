"""Several server processes on one PostgreSQL (docs/server.md).

Two real server processes (``tests.server.serve_hilo``) on a throwaway PostgreSQL cluster,
loopback, free ports: the tables are shared between them (a lease each), a command sent
to the process that does not own the table is forwarded to its owner (the same
Idempotency-Key: run once), a WebSocket on one process receives the events of a table the
other runs (LISTEN/NOTIFY), and when one process is killed with SIGKILL the other takes its
tables over within seconds — no acknowledged wager lost, every hold settled once, the
ledger at zero, every chain verifying.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from macau_tables.cli.app import app as cli_app
from macau_tables.core.visibility import Viewer
from macau_tables.server import store
from macau_tables.server.app import create_app
from macau_tables.server.bots import BotReport, play_bots
from macau_tables.server.db import Database
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings
from tests.server.pg import free_port, new_database
from tests.server.test_crash import ROOT, ServerProcess, check_floor

TAKEOVER_LIMIT_S = 10.0  # lease poll 1 s + the rebuild; generous on a shared 2-core machine
TABLES = [f"hilo-{i}" for i in range(1, 5)]


def test_workers_are_refused_on_sqlite_with_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli_app, ["serve", "--workers", "2", "--database-url", str(tmp_path / "floor.db")]
    )
    assert result.exit_code == 2
    lines = [ln for ln in result.output.splitlines() if ln.strip()]
    assert len(lines) == 1 and "PostgreSQL" in lines[0], result.output
    assert not (tmp_path / "floor.db").exists()  # refused before anything was created


class Proc(ServerProcess):
    """A server process that creates ``tables`` Hi-Lo tables on its first start."""

    def __init__(self, url: str, port: int, log: Path, tables: int) -> None:
        super().__init__(url, port, log)
        self.tables = tables

    def start(self) -> None:
        env = {"PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"}
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "tests.server.serve_hilo",
                    self.url,
                    str(self.port),
                    str(self.tables),
                    "0.3",
                ],
                cwd=ROOT,
                env={**os.environ, **env},
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.starts += 1
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            assert self.proc.poll() is None, self.log.read_text()[-3000:]
            try:
                if self.health().get("process"):
                    return
            except httpx.TransportError:
                pass
            time.sleep(0.1)
        raise AssertionError("the server did not start:\n" + self.log.read_text()[-3000:])

    def health(self) -> dict[str, Any]:
        return dict(httpx.get(f"http://127.0.0.1:{self.port}/health", timeout=5).json())

    def token(self, who: str, password: str) -> str:
        r = httpx.post(
            f"http://127.0.0.1:{self.port}/auth/login",
            json={"name": who, "password": password},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        return str(r.json()["token"])


def wait_for(what: Any, limit: float, step: float = 0.1) -> float:
    """Seconds until ``what()`` is true (AssertionError after ``limit``)."""
    t0 = time.monotonic()
    while not what():
        assert time.monotonic() - t0 < limit, f"not within {limit} s"
        time.sleep(step)
    return time.monotonic() - t0


class Watcher(threading.Thread):
    """A WebSocket client (a supervisor: he sees every event) collecting messages."""

    def __init__(self, port: int, table: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url = f"ws://127.0.0.1:{port}/tables/{table}/ws"
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self.stopping = False

    def run(self) -> None:
        from websockets.sync.client import connect

        try:
            with connect(self.url, open_timeout=30) as ws:
                ws.send(json.dumps({"type": "auth", "token": self.token}))  # (not in the URL)
                while not self.stopping:
                    try:
                        self.messages.append(json.loads(ws.recv(timeout=0.5)))
                    except TimeoutError:
                        continue
        except Exception as exc:  # reported by the test
            self.error = exc

    def event_seqs(self) -> list[int]:
        return [int(m["seq"]) for m in self.messages if m["type"] == "event"]


def test_two_processes_share_forward_fan_out_and_survive_kill_9(tmp_path: Path) -> None:
    url = new_database()
    a = Proc(url, free_port(), tmp_path / "a.log", tables=len(TABLES))
    b = Proc(url, free_port(), tmp_path / "b.log", tables=1)
    a.start()
    creds = a.creds()
    b.start()
    try:
        # the leases: every table owned by exactly one process, both with a share
        def shared() -> bool:
            ha, hb = a.health(), b.health()
            return (
                bool(ha["owned"])
                and bool(hb["owned"])
                and sorted(ha["owned"] + hb["owned"]) == TABLES
            )

        wait_for(shared, 30)
        owned_by_a = a.health()["owned"]
        leases = {x["table"]: x for x in b.health()["leases"]}
        assert {t for t, x in leases.items() if x["owner"] == a.health()["process"]["id"]} == set(
            owned_by_a
        )
        remote = owned_by_a[0]

        # a command sent to B for A's table is run by A, once, whatever process the retry hits
        tok_a, tok_b = a.token("alice", creds["alice"]), b.token("alice", creds["alice"])
        body = {"op": "join", "args": {"amount": 50_000}}
        first = httpx.post(
            f"http://127.0.0.1:{b.port}/tables/{remote}/commands",
            json=body,
            headers={"Authorization": f"Bearer {tok_b}", "Idempotency-Key": "join-1"},
            timeout=30,
        )
        assert first.status_code == 200, first.text
        # relayed as the owner framed it: with its length, not in chunks (a minimal client
        # reading Content-Length, as the benchmark's bots, would lose the connection's step)
        assert first.headers.get("content-length") == str(len(first.content))
        assert "transfer-encoding" not in first.headers
        again = httpx.post(
            f"http://127.0.0.1:{a.port}/tables/{remote}/commands",
            json=body,
            headers={"Authorization": f"Bearer {tok_a}", "Idempotency-Key": "join-1"},
            timeout=30,
        )
        assert again.status_code == 200 and again.content == first.content  # byte for byte
        wallet = httpx.get(
            f"http://127.0.0.1:{b.port}/wallet",
            headers={"Authorization": f"Bearer {tok_b}"},
            timeout=10,
        ).json()
        assert wallet["stacks"] == {f"stack:{remote}:alice": 50_000}  # joined once
        tables = httpx.get(
            f"http://127.0.0.1:{b.port}/tables",
            headers={"Authorization": f"Bearer {tok_b}"},
            timeout=10,
        ).json()
        assert [t["id"] for t in tables] == TABLES
        assert next(t for t in tables if t["id"] == remote)["seq"] >= first.json()["seq"]

        # a WebSocket on B watching A's table
        watcher = Watcher(b.port, remote, b.token("supervisor", creds["supervisor"]))
        watcher.start()

        report = BotReport()

        async def scenario() -> tuple[BotReport, float]:
            bots = asyncio.create_task(
                play_bots(
                    f"http://127.0.0.1:{b.port}",  # every bot talks to B only
                    8,
                    10.0,
                    ("supervisor", creds["supervisor"]),
                    ("cashier", creds["cashier"]),
                    tables=[(t, "hilo") for t in TABLES],
                    grace=60.0,
                    poll=0.02,
                    report=report,
                )
            )
            while report.bets < 20 and not bots.done():
                await asyncio.sleep(0.01)
            await asyncio.sleep(1.0)
            assert watcher.event_seqs(), "no event of A's table reached B's WebSocket"
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, a.kill9)
            took = await loop.run_in_executor(
                None, lambda: wait_for(lambda: b.health()["owned"] == TABLES, 30, 0.05)
            )
            return await bots, took

        result, took = asyncio.run(scenario())
        assert took <= TAKEOVER_LIMIT_S, f"take-over took {took:.1f} s"
        assert result.bets > 0
        assert not [s for s in result.statuses if s >= 500], result.summary()
        assert {t for t, _ in result.acknowledged} == set(TABLES)  # A's tables too, via B
        takeovers = [x for x in b.health()["leases"] if x["table"] in owned_by_a]
        assert {x["owner"] for x in takeovers} == {b.health()["process"]["id"]}

        # nothing lost: every acknowledged bet opened, every hold closed once, ledger zero
        wait_for(lambda: not check_floor(url, result.acknowledged)["unsettled"], 60, 0.5)
        state = check_floor(url, result.acknowledged)
        assert state["holds"] == state["closed"] >= len(set(result.acknowledged)) > 0

        # B's WebSocket saw A's table, then B's own running of it, without a gap
        time.sleep(1.0)
        watcher.stopping = True
        watcher.join(10)
        assert watcher.error is None, watcher.error
        snapshot = next(m for m in watcher.messages if m["type"] == "snapshot")
        seqs = watcher.event_seqs()
        assert seqs == list(range(snapshot["seq"] + 1, seqs[-1] + 1))
        db = Database(url)
        try:
            head = db.read_sync(
                lambda c: c.execute(
                    sa.select(store.tables_t.c.head_seq).where(store.tables_t.c.id == remote)
                ).scalar_one()
            )
        finally:
            db.close()
        assert seqs[-1] == head  # every event of the table, to the last
    finally:
        a.stop()
        b.stop()


def test_an_owner_whose_lease_row_names_another_process_writes_nothing() -> None:
    """The fence: a process that lost its lease (its lock connection cut, another process
    took the table) refuses its next command before writing, drops the table, and a
    request for it waits for the owner named in the row; once that owner is gone, the
    next look at the leases takes the table back, rebuilt, and the retry (same key) runs."""
    url = new_database()
    floor = Floor(make_settings(url, lease_poll=3600.0, forward_wait=0.5))
    with TestClient(create_app(floor=floor)) as client:
        srv = Srv(client, floor, dict(floor.demo_credentials))
        cluster = floor.cluster
        assert cluster is not None and cluster.owned == {"hilo-1"}
        srv.ok("alice", "hilo-1", "join", {"amount": 10_000})

        def head() -> int:
            return int(
                floor.db.read_sync(
                    lambda c: c.execute(
                        sa.select(store.tables_t.c.head_seq).where(store.tables_t.c.id == "hilo-1")
                    ).scalar_one()
                )
            )

        seq = head()
        floor.db.write_sync(
            lambda c: c.execute(
                store.leases_t.update()
                .where(store.leases_t.c.table_id == "hilo-1")
                .values(owner="9999-gone@elsewhere", url="http://127.0.0.1:9")
            )
        )
        r = srv.cmd("bob", "hilo-1", "join", {"amount": 10_000}, key="bob-join")
        assert r.status_code == 503 and r.json()["rule"] == "SRV-LEASE", r.text
        assert head() == seq  # nothing written
        assert not floor.tables["hilo-1"].owned and "hilo-1" not in cluster.owned
        bob = srv.client.get("/wallet", headers=srv.headers("bob")).json()
        assert bob["stacks"] == {}

        taken = client.portal.call(cluster.poll_once)  # type: ignore[union-attr]
        assert taken == ["hilo-1"] and floor.tables["hilo-1"].owned
        r = srv.cmd("bob", "hilo-1", "join", {"amount": 10_000}, key="bob-join")
        assert r.status_code == 200, r.text
        again = srv.cmd("bob", "hilo-1", "join", {"amount": 10_000}, key="bob-join")
        assert again.json() == r.json()
        bob = srv.client.get("/wallet", headers=srv.headers("bob")).json()
        assert bob["stacks"] == {"stack:hilo-1:bob": 10_000}
        assert srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()["ok"]


def shared_again(read: Callable[[], dict[str, str]], victim: str) -> bool:
    """After ``victim`` (a lease owner) was killed: every table owned, by two processes,
    neither of them the victim — judged on **one** reading of the leases (``read()``: table
    -> owner, the tables nobody owns left out)."""
    got = read()
    return sorted(got) == TABLES and len(set(got.values())) == 2 and victim not in got.values()


def test_shared_again_is_judged_on_one_reading_of_the_leases() -> None:
    """The flake this pins: right after the kill a reading still shows the victim and the
    survivor (two owners), and the next one — the survivor having taken the victim's
    tables over — shows the victim gone. Two readings made of that "shared again" 0.16 s
    after the kill, the test stopped the server before the supervisor's next look at its
    workers (every 0.5 s), and no restart was logged. On one reading, only a third process
    (the restarted worker) sharing the tables with the survivor counts."""
    victim, survivor, restarted = "101-aa@vm", "102-bb@vm", "103-cc@vm"
    during = iter(
        [
            {"hilo-1": victim, "hilo-2": victim, "hilo-3": survivor, "hilo-4": survivor},
            dict.fromkeys(TABLES, survivor),
        ]
    )
    assert not shared_again(lambda: next(during), victim)
    assert not shared_again(lambda: dict.fromkeys(TABLES, survivor), victim)
    assert not shared_again(lambda: {"hilo-1": survivor, "hilo-2": restarted}, victim)
    again = {"hilo-1": survivor, "hilo-2": survivor, "hilo-3": restarted, "hilo-4": restarted}
    assert shared_again(lambda: again, victim)


def test_workers_share_one_port_and_a_killed_worker_is_started_again(tmp_path: Path) -> None:
    """``serve --workers 2``: both processes answer on the one port, each owns half the
    tables; a worker killed with SIGKILL is started again and the tables are shared again
    (its tables first taken over by the other); SIGTERM stops the whole server cleanly."""
    url, port = new_database(), free_port()
    log = (tmp_path / "workers.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.server.serve_hilo", url, str(port), "4", "0.3", "2"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}"},
        stdout=log,
        stderr=subprocess.STDOUT,
    )

    def owners() -> dict[str, str]:
        try:
            leases = httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()["leases"]
        except (httpx.TransportError, KeyError, ValueError):
            return {}
        return {x["table"]: x["owner"] for x in leases if x["owner"]}

    def two_owners() -> bool:
        got = owners()
        return sorted(got) == TABLES and len(set(got.values())) == 2

    try:
        wait_for(two_owners, 90, 0.2)
        answering = {
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=5).json()["process"]["id"]
            for _ in range(40)
        }
        assert answering == set(owners().values())  # the kernel spreads the connections
        before = owners()
        victim = before["hilo-1"]
        victim_pid = int(victim.split("-")[0])
        os.kill(victim_pid, signal.SIGKILL)
        # one reading per look (shared_again): the survivor alone, right after it took the
        # victim's tables over, must not pass for the restarted worker
        wait_for(lambda: shared_again(owners, victim), 60, 0.2)
        after = owners()
        assert proc.poll() is None
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            log.close()
    text = (tmp_path / "workers.log").read_text()
    assert f"(pid {victim_pid}) exited with -9; starting it again" in text, (before, after, text)


JOIN_A = ("alice", "join", {"amount": 20_000})
JOIN_B = ("bob", "join", {"amount": 20_000})
BET_A = ("alice", "bet", {"amount": 500})
BET_B = ("bob", "bet", {"amount": 700})
REVEAL_A = ("alice", "reveal", {})
REVEAL_B = ("bob", "reveal", {})
LEAVE_A = ("alice", "leave", {})
CLOCK = ("clock", "step", {})
ACTIONS = st.sampled_from([JOIN_A, JOIN_B, BET_A, BET_B, REVEAL_A, REVEAL_B, LEAVE_A, CLOCK])
#: a whole round and the next one's bet
ROUND = [JOIN_A, JOIN_B, CLOCK, BET_A, BET_B, CLOCK, REVEAL_A, REVEAL_B, CLOCK, CLOCK, BET_A, CLOCK]
VIEWERS = (Viewer.PUBLIC, Viewer.SUPERVISOR, Viewer.player("alice"), Viewer.player("bob"))


def test_a_replica_shows_each_viewer_what_the_owner_shows() -> None:
    """Process B does not own the table: what it shows (the WebSocket's snapshot) is read
    from the database and re-run through the rules — for every viewer the owner's own
    view, pending and seq, whatever was played (new shoes, time-outs, payouts included)."""
    url = new_database()
    owner = Floor(make_settings(url, lease_poll=3600.0))
    with TestClient(create_app(floor=owner)) as client_a:
        srv = Srv(client_a, owner, dict(owner.demo_credentials))
        other = Floor(make_settings(url, lease_poll=3600.0))
        with TestClient(create_app(floor=other)) as client_b:
            assert owner.tables["hilo-1"].owned and not other.tables["hilo-1"].owned
            replica = other.tables["hilo-1"]
            loads = {"full": 0, "catch_ups": 0}
            full_load, catch_up = replica.load, replica.catch_up_locked

            def counted_load(conn: Any) -> Any:
                loads["full"] += 1
                return full_load(conn)

            async def counted_catch_up() -> None:
                loads["catch_ups"] += 1
                await catch_up()

            replica.load = counted_load  # type: ignore[method-assign]
            replica.catch_up_locked = counted_catch_up  # type: ignore[method-assign]

            # a whole round, whatever a fresh clone's Hypothesis draws (its first examples
            # are small, most refused: once only 9 entries, where the test wants rounds)
            @example(ROUND)
            @given(st.lists(ACTIONS, min_size=1, max_size=12))
            @settings(max_examples=12, deadline=None)
            def play(actions: list[tuple[str, str, dict[str, Any]]]) -> None:
                for who, op, args in actions:
                    if who == "clock":
                        srv.step("hilo-1")
                    else:
                        srv.cmd(who, "hilo-1", op, args)
                    for viewer in VIEWERS:
                        want = client_a.portal.call(owner.tables["hilo-1"].snapshot, viewer)  # type: ignore[union-attr]
                        got = client_b.portal.call(other.tables["hilo-1"].snapshot, viewer)  # type: ignore[union-attr]
                        for key in ("seq", "status", "view", "pending"):
                            assert got[key] == want[key], (viewer, key)

            play()
            assert owner.tables["hilo-1"].seq > 10  # rounds were played
            # the entries were re-run one step at a time, not the whole journal each time
            assert loads["full"] * 4 < loads["catch_ups"], loads
            paused = client_a.post(
                "/tables/hilo-1/pause", json={"reason": "drill"}, headers=srv.headers("supervisor")
            )
            assert paused.status_code == 200, paused.text
            snap = client_b.portal.call(replica.snapshot, Viewer.PUBLIC)  # type: ignore[union-attr]
            assert snap["status"] == "paused" and snap["pending"] == []


def test_a_supervisors_decision_is_routed_to_the_table_of_its_request(srv: Srv) -> None:
    """``/supervisor/requests/{rid}/approve|reject`` acts at the request's table: with
    several processes it goes to that table's owner like any ``/tables/{id}/`` request."""
    import asyncio

    from macau_tables.server import store
    from macau_tables.server.cluster import ForwardMiddleware

    srv.floor.db.write_sync(
        lambda c: c.execute(
            store.requests_t.insert().values(
                id=41,
                table_id="hilo-1",
                action="void",
                args="{}",
                reason="routing",
                requested_by="supervisor",
                requested_at=store.now_ms(),
                table_seq=0,
            )
        )
    )
    mw = ForwardMiddleware(None, srv.floor)  # type: ignore[arg-type]

    def table_of(path: str) -> str | None:
        return asyncio.run(mw.table_of({"type": "http", "path": path}))

    assert table_of("/supervisor/requests/41/approve") == "hilo-1"
    assert table_of("/supervisor/requests/41/reject") == "hilo-1"
    assert table_of("/supervisor/requests/42/approve") is None  # no such request: answered here
    assert table_of("/tables/hilo-2/commands") == "hilo-2"
    assert table_of("/supervisor/requests") is None
    assert table_of("/wallet") is None
