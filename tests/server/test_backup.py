"""``macau-tables db check`` (a database verified as a start-up verifies it: SQLite and
PostgreSQL) and ``db backup`` (a SQLite floor copied while its server plays, as of one
moment: each copy verifies and a server starts on it)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.errors import MacauTablesError
from macau_tables.core.journal import Entry, canonical_json
from macau_tables.server.backup import backup_sqlite
from macau_tables.server.bots import BotReport
from macau_tables.server.checks import check_database
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings, wait_checked
from tests.server.pg import free_port
from tests.server.test_crash import HILO_TABLES, ServerProcess

runner = CliRunner()


def played(srv: Srv) -> None:
    """A round at hilo-1: two players sit down, bet, and the round settles."""
    for who in ("alice", "bob"):
        srv.ok(who, "hilo-1", "join", {"amount": 10_000})
    srv.step("hilo-1")
    for who in ("alice", "bob"):
        srv.ok(who, "hilo-1", "bet", {"amount": 1_000})
    while srv.step("hilo-1"):
        pass


def url_of(srv: Srv) -> str:
    return srv.floor.db.url


def test_db_check_verifies_a_floor_beside_its_server(srv: Srv) -> None:
    played(srv)
    result = runner.invoke(app, ["db", "check", "--database-url", url_of(srv)])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("ledger: ") and "sum to zero" in lines[0]
    row = next(line for line in lines if line.startswith("hilo-1 "))
    entries = len(srv.floor.tables["hilo-1"].engine.journal)  # type: ignore[union-attr]
    assert row == f"hilo-1  hilo  open  {entries:,} entries: chain and money verify"
    assert len(lines) == 1 + len(srv.floor.tables)
    result = runner.invoke(app, ["db", "check", "--database-url", url_of(srv), "--json"])
    assert result.exit_code == 0, result.output
    found = json.loads(result.output)
    assert found["ok"] is True and found["ledger"] == []
    assert {
        "table_id": "hilo-1",
        "game": "hilo",
        "status": "open",
        "entries": entries,
        "problem": None,
        "replayed": False,
    } in found["tables"]


def _rewrite_chained(conn: Any, table_id: str, kind: str, change: Any) -> None:
    """Rewrite the table's first ``kind`` event and every hash after it, as a tamperer
    who knows the chain's recipe would: the chain still verifies to the new head."""
    _without_triggers(conn, "journal")
    rows = conn.execute(
        sa.text("SELECT seq, event, prev_hash, hash FROM journal WHERE table_id = :t ORDER BY seq"),
        {"t": table_id},
    ).all()
    prev, changed = None, False
    for seq, text, prev_hash, hash_ in rows:
        prev = prev_hash if prev is None else prev
        event = json.loads(text)
        if not changed and event["kind"] == kind:
            change(event["data"])
            text, changed = canonical_json(event).decode(), True
        new = Entry.compute_hash(seq, None, prev, event_text=text.encode())  # type: ignore[arg-type]
        if new != hash_ or prev != prev_hash:
            conn.execute(
                sa.text(
                    "UPDATE journal SET event = :e, prev_hash = :p, hash = :h "
                    "WHERE table_id = :t AND seq = :s"
                ),
                {"e": text, "p": prev, "h": new, "t": table_id, "s": seq},
            )
        prev = new
    assert changed
    conn.execute(
        sa.text("UPDATE tables SET head_hash = :h WHERE id = :t"), {"h": prev, "t": table_id}
    )


def test_db_check_replay_reruns_the_rules(srv: Srv) -> None:
    """``--replay`` re-derives every event: a house card rewritten with its chain made
    whole again (the money untouched: the settlements as they were) passes the chain and
    money checks, and not the rules'."""
    played(srv)
    url = url_of(srv)
    result = runner.invoke(app, ["db", "check", "--database-url", url, "--replay"])
    assert result.exit_code == 0, result.output
    assert "hilo-1  hilo  open" in result.output
    assert "entries: chain, money and rules verify" in result.output
    with srv.floor.db.writer.begin() as conn:
        _rewrite_chained(
            conn, "hilo-1", "hilo.house_card", lambda d: d.update(card=d["card"] % 13 + 1)
        )
    assert runner.invoke(app, ["db", "check", "--database-url", url]).exit_code == 0
    result = runner.invoke(app, ["db", "check", "--database-url", url, "--replay", "--json"])
    assert result.exit_code == 2, result.output
    row = next(t for t in json.loads(result.stdout)["tables"] if t["table_id"] == "hilo-1")
    assert row["replayed"] is True
    assert row["problem"].startswith("ReplayMismatch: entry"), row


def test_db_check_reads_one_snapshot(srv: Srv, monkeypatch: pytest.MonkeyPatch) -> None:
    """A deposit committed while the check runs (after its ledger's sums) is not seen by
    what it reads next: every read is of the state the first one saw."""
    from macau_tables.server import checks

    played(srv)
    first = checks.verify_ledger

    def then_a_deposit(conn: Any) -> Any:
        found = first(conn)
        srv.deposit("carol", 100)  # (another connection: the server's, committed)
        return found

    def postings() -> int:
        return int(
            srv.floor.db.read_sync(
                lambda c: c.execute(sa.text("SELECT count(*) FROM postings")).scalar_one()
            )
        )

    before = postings()
    monkeypatch.setattr(checks, "verify_ledger", then_a_deposit)
    found = check_database(url_of(srv))
    assert postings() == before + 2  # the deposit was committed during the check
    assert found.postings == before and found.ok  # which read the state before it


def _without_triggers(conn: Any, table: str) -> None:
    """Take a table's append-only triggers away (a tamperer with write access)."""
    if conn.dialect.name == "sqlite":
        names = conn.execute(
            sa.text("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = :t"),
            {"t": table},
        ).all()
        for (name,) in names:
            conn.execute(sa.text(f'DROP TRIGGER "{name}"'))
    else:
        conn.execute(sa.text(f"ALTER TABLE {table} DISABLE TRIGGER USER"))


@pytest.mark.parametrize("what", ["an event", "a cached balance"])
def test_db_check_names_what_does_not_verify(srv: Srv, what: str) -> None:
    played(srv)
    # the running floor's own checks done before the tampering (else they find it first and
    # lock the table, which the check below then reads as locked)
    wait_checked(srv)
    with srv.floor.db.writer.begin() as conn:
        if what == "an event":
            _without_triggers(conn, "journal")
            conn.execute(
                sa.text(
                    "UPDATE journal SET event = replace(event, '1000', '9000') "
                    "WHERE table_id = 'hilo-1' AND kind = 'hilo.bet_placed'"
                )
            )
        else:
            conn.execute(
                sa.text("UPDATE accounts SET balance = balance + 1 WHERE name = :n"),
                {"n": "player:carol"},
            )
    result = runner.invoke(app, ["db", "check", "--database-url", url_of(srv)])
    assert result.exit_code == 2, result.output
    assert "problem(s): the database does not verify" in result.output
    as_json = runner.invoke(app, ["db", "check", "--database-url", url_of(srv), "--json"])
    assert as_json.exit_code == 2
    assert json.loads(as_json.stdout)["ok"] is False
    if what == "an event":
        row = next(line for line in result.output.splitlines() if line.startswith("hilo-1 "))
        assert "JournalTampered: entry" in row and "hash does not match" in row
    else:
        assert "ledger: money: player:carol caches" in result.output
        assert "hilo-1  hilo  open" in result.output  # (the tables themselves verify)


def test_db_check_and_backup_refuse_bad_input_in_one_line(tmp_path: Path, lite: Srv) -> None:
    cases = [
        (["db", "check", "--database-url", str(tmp_path / "none.db")], "no database at"),
        (
            ["db", "backup", str(tmp_path / "b.db"), "--database-url", str(tmp_path / "none.db")],
            "no database at",
        ),
        (
            ["db", "backup", url_of(lite).split("///")[1], "--database-url", url_of(lite)],
            "exists: name a new file",
        ),
        (
            ["db", "backup", str(tmp_path / "b.db"), "--database-url", "postgresql://x@/y"],
            "pg_dump",
        ),
        (
            ["db", "backup", str(tmp_path / "no" / "b.db"), "--database-url", url_of(lite)],
            "no directory",
        ),
    ]
    (tmp_path / "junk.db").write_text("not a database")
    cases.append((["db", "check", "--database-url", str(tmp_path / "junk.db")], "not a database"))
    for args, text in cases:
        result = runner.invoke(app, args)
        assert result.exit_code == 2, (args, result.output)
        assert text in result.output, (args, result.output)
        assert len(result.output.strip().splitlines()) == 1, result.output
    assert not (tmp_path / "none.db").exists()  # (not created by the check)
    assert not list(tmp_path.glob("b.db*"))


def test_a_backup_taken_while_bots_play_is_one_moment_and_a_server_starts_on_it(
    tmp_path: Path,
) -> None:
    url = str(tmp_path / "floor.db")
    server = ServerProcess(url, free_port(), tmp_path / "server.log")
    server.start()
    copies: list[Path] = []
    try:
        report = BotReport()

        async def scenario() -> BotReport:
            done = asyncio.Event()
            bots = server.bots(6, report, done, tables=HILO_TABLES)
            loop = asyncio.get_running_loop()
            deadline = time.monotonic() + 30
            while report.bets < 20 and time.monotonic() < deadline:  # (playing)
                await asyncio.sleep(0.05)
            for i in range(4):  # copies while the bots bet, settle and cash out
                bets = report.bets
                target = tmp_path / f"copy-{i}.db"
                result = await loop.run_in_executor(
                    None,
                    lambda t=target: runner.invoke(
                        app, ["db", "backup", str(t), "--database-url", url]
                    ),
                )
                assert result.exit_code == 0, result.output
                assert "chain and money verify" in result.output
                copies.append(target)
                while report.bets == bets and not bots.done():  # (the floor moved on)
                    await asyncio.sleep(0.01)
            done.set()
            return await bots

        result = asyncio.run(scenario())
        assert result.bets > 20 and not [s for s in result.statuses if s >= 500]
    finally:
        server.stop()
    # each copy is one committed state of the floor, and a server starts on it: it verifies
    # every table and finishes the rounds in play by their rules
    heads = []
    for copy in copies:
        check = check_database(str(copy))
        assert check.ok, check
        heads.append(sum(t.entries for t in check.tables))
        floor = Floor(make_settings(str(copy), demo=False))

        async def start_and_stop(f: Floor = floor) -> Any:
            await f.start()
            try:
                return f.recovery
            finally:
                await f.stop()

        recovery = asyncio.run(start_and_stop())
        assert recovery.locked == {} and recovery.ledger == []
        assert check_database(str(copy)).ok  # (and what the start-up finished verifies too)
    assert heads == sorted(heads) and heads[0] < heads[-1]  # four moments, one after another
    assert check_database(url).ok


def test_backup_sqlite_leaves_no_partial_file_when_the_copy_fails(
    tmp_path: Path, lite: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    played(lite)
    real = sqlite3.connect

    class Failing:  # the source's connection, whose copy fails half-way
        def __init__(self, conn: sqlite3.Connection) -> None:
            self.conn = conn

        def backup(self, target: sqlite3.Connection, **_: Any) -> None:
            target.execute("CREATE TABLE half (x)")
            raise sqlite3.OperationalError("disk I/O error")

        def __getattr__(self, name: str) -> Any:
            return getattr(self.conn, name)

    def connect(*args: Any, **kwargs: Any) -> Any:
        conn = real(*args, **kwargs)
        return Failing(conn) if kwargs.get("uri") else conn

    monkeypatch.setattr(sqlite3, "connect", connect)
    with pytest.raises(MacauTablesError, match="database: disk I/O error"):
        backup_sqlite(url_of(lite), tmp_path / "b.db")
    assert not list(tmp_path.glob("b.db*"))
