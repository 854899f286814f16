"""Start-up recovery: unfinished rounds are finished by the rules; a table whose chain or
money does not verify is locked with the reason (SQLite and PostgreSQL)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor
from tests.server.conftest import Srv, make_settings, player_command, wait_checked


@contextmanager
def restarted(srv: Srv, **settings: Any) -> Iterator[Srv]:
    """Stop ``srv``'s app (a clean stop: the test of a kill is test_crash) and start anew."""
    url = srv.floor.settings.database_url
    assert url is not None
    srv.client.__exit__(None, None, None)
    floor = Floor(make_settings(url, **settings))
    with TestClient(create_app(floor=floor)) as client:
        yield Srv(client, floor, srv.creds)


def tamper(srv: Srv, table: str, sql: str) -> None:
    """Edit the database behind the server's back (triggers disabled: an attacker's view)."""

    def unit(c: sa.Connection) -> None:
        if srv.floor.db.is_sqlite:
            for what in ("update", "delete"):
                c.execute(sa.text(f"DROP TRIGGER IF EXISTS {table}_no_{what}"))
        else:
            c.execute(sa.text(f"ALTER TABLE {table} DISABLE TRIGGER USER"))
        c.execute(sa.text(sql))

    srv.floor.db.write_sync(unit)


def open_holds(srv: Srv) -> int:
    return int(
        srv.floor.db.read_sync(
            lambda c: c.execute(
                sa.text(
                    "SELECT COUNT(*) FROM holds_opened o LEFT JOIN holds_closed c "
                    "ON c.table_id = o.table_id AND c.hold_id = o.hold_id WHERE c.hold_id IS NULL"
                )
            )
        ).scalar_one()
    )


def test_an_interrupted_round_is_finished_by_the_rules_on_restart(srv: Srv) -> None:
    for p in ("alice", "bob"):
        srv.ok(p, "hilo-1", "join", {"amount": 9_000})
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 1_000})
    srv.ok("bob", "hilo-1", "bet", {"amount": 2_000})
    srv.step("hilo-1")  # dealt; nobody revealed
    assert open_holds(srv) == 2
    with restarted(srv) as again:
        assert again.floor.recovery.locked == {}
        assert again.floor.recovery.driven["hilo-1"] >= 1
        assert open_holds(again) == 0
        events = again.client.get("/tables/hilo-1/events", headers=again.headers("auditor")).json()
        assert sum(e["kind"] == "table.timed_out" for e in events) == 2
        led = again.client.get("/audit/ledger", headers=again.headers("auditor")).json()
        assert led["ok"], led
        again.ok("alice", "hilo-1", "leave")


def test_an_edited_journal_locks_the_table_with_the_reason(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 9_000})
    tamper(
        srv,
        "journal",
        "UPDATE journal SET event = REPLACE(event, '9000', '90000') "
        "WHERE table_id = 'hilo-1' AND kind = 'hilo.joined'",
    )
    with restarted(srv) as again:
        reason = again.floor.recovery.locked["hilo-1"]
        assert "hash does not match" in reason
        # the reason for staff; anyone else reads that it did not verify (it may name
        # another player's money: TableActor.public_reason)
        staff = again.client.get("/tables/hilo-1", headers=again.headers("supervisor")).json()
        assert (staff["status"], staff["lock_reason"]) == ("locked", reason)
        public = again.floor.tables["hilo-1"].public_reason()
        assert public is not None and "verify" in public and public not in reason
        health = again.client.get("/health").json()
        assert health["locked"] == {"hilo-1": public}
        mine = again.client.get("/tables/hilo-1", headers=again.headers("bob")).json()
        assert mine["lock_reason"] == public
        r = again.cmd("bob", "hilo-1", "join", {"amount": 100})
        assert (r.status_code, r.json()["rule"]) == (409, "SRV-STATUS")
        assert reason not in r.json()["message"] and public in r.json()["message"]
        r = again.client.post(
            "/tables/hilo-1/unlock", json={"reason": "checked"}, headers=again.headers("supervisor")
        )
        assert r.status_code == 409


def test_a_truncated_journal_locks_the_table(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 9_000})
    tamper(srv, "journal", "DELETE FROM journal WHERE table_id = 'hilo-1' AND kind = 'hilo.seated'")
    with restarted(srv) as again:
        assert "chain ends before the expected head" in again.floor.recovery.locked["hilo-1"]


@pytest.mark.parametrize("check", ["startup", "background"])
def test_a_cached_balance_that_differs_from_its_postings_locks_the_table(
    srv: Srv, check: str
) -> None:
    """The ledger's own check, before the tables open (``chain_check="startup"``) or in
    the floor's worker process once they are (the default: O(history), it does not hold
    up the start)."""
    srv.ok("alice", "hilo-1", "join", {"amount": 9_000})
    srv.floor.db.write_sync(
        lambda c: c.execute(
            sa.text("UPDATE accounts SET balance = balance + 100 WHERE name = 'stack:hilo-1:alice'")
        )
    )
    with restarted(srv, chain_check=check) as again:
        if check == "background":
            health = again.client.get("/health").json()
            assert health["ledger_pending"] or "hilo-1" in again.floor.recovery.locked
            wait_checked(again)
            assert not again.client.get("/health").json()["ledger_pending"]
        reason = again.floor.recovery.locked["hilo-1"]
        assert "stack:hilo-1:alice caches 9100" in reason
        led = again.client.get("/audit/ledger", headers=again.headers("auditor")).json()
        assert not led["ok"]


def test_a_forged_settlement_with_a_recomputed_chain_is_refused_by_replay(srv: Srv) -> None:
    """Even a consistent chain (head and hashes recomputed) must follow from the rules."""
    from macau_tables.core.journal import Journal
    from macau_tables.server import store

    srv.ok("alice", "hilo-1", "join", {"amount": 9_000})
    actor = srv.floor.tables["hilo-1"]
    journal = srv.floor.db.read_sync(
        lambda c: store.load_journal(c, "hilo-1", "hilo", actor.header)
    )
    forged = Journal("hilo", actor.header)
    for ev in journal.events:
        if ev.kind == "hilo.seated":
            ev = type(ev)(player="mallory", seated=True)  # type: ignore[call-arg]
        forged.append(ev)
    entries = forged.entries

    def rewrite(c: sa.Connection) -> None:
        if srv.floor.db.is_sqlite:
            c.execute(sa.text("DROP TRIGGER journal_no_delete"))
        else:
            c.execute(sa.text("ALTER TABLE journal DISABLE TRIGGER USER"))
        c.execute(sa.text("DELETE FROM journal WHERE table_id = 'hilo-1'"))
        store.append_entries(c, "hilo-1", list(entries))

    srv.floor.db.write_sync(rewrite)
    with restarted(srv) as again:
        assert "ReplayMismatch" in again.floor.recovery.locked["hilo-1"]


def test_a_command_sent_while_a_taken_table_is_checked_waits_for_the_check(
    srv: Srv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A take-over (server/floor.py ``take_over``) rebuilds a table while the server
    serves the others: a command reaching it while its journal and money are checked is
    answered 503, not recorded (the table has no engine until the check is done) — never
    run on the engine
    being checked — which a run on two workers once found by chance: run there, its
    entry was in the engine but its postings were not yet committed, and a healthy table
    was locked for a money mismatch."""
    import asyncio

    from macau_tables.server import checks, store
    from macau_tables.server.checks import RecoveryReport
    from macau_tables.server.floor import DEMO_DEPOSIT

    srv.ok("alice", "hilo-1", "join", {"amount": 1_000})
    floor = srv.floor
    actor = floor.tables["hilo-1"]
    seq = actor.seq
    replies: list[Any] = []
    check = checks.table_money_problems

    def checked_while_a_command_comes(conn: sa.Connection, table_id: str, engine: Any) -> Any:
        # the read's thread, between the load and the money check: bob's join arrives
        future = asyncio.run_coroutine_threadsafe(
            player_command(actor, "bob", "join", {"amount": 700}), loop
        )
        replies.append(future.result(30))
        return check(conn, table_id, engine)

    async def take_it_over() -> RecoveryReport:
        actor.engine = None  # as take_over, once the lease row is this process's
        report = RecoveryReport()
        await floor._recover_table(actor, [], report)
        return report

    loop: Any = None

    async def loop_of() -> Any:
        return asyncio.get_running_loop()

    loop = srv.client.portal.call(loop_of)  # type: ignore[union-attr]
    monkeypatch.setattr(checks, "table_money_problems", checked_while_a_command_comes)
    report = srv.client.portal.call(take_it_over)  # type: ignore[union-attr]
    assert [r.status for r in replies] == [503]  # not recorded: retry
    assert replies[0].body["error"] == "unavailable"
    assert report.locked == {} and actor.status == "open"

    def bobs_wallet() -> int:
        return floor.db.read_sync(lambda c: store.balance(c, "player:bob"))

    assert bobs_wallet() == DEMO_DEPOSIT  # his join was not recorded
    assert srv.ok("bob", "hilo-1", "join", {"amount": 700})["seq"] > seq
    assert bobs_wallet() == DEMO_DEPOSIT - 700
