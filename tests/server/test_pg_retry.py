"""PostgreSQL: a write that fails with a serialization failure (40001) or a deadlock
(40P01) is run again, and recorded once; one that keeps failing is refused cleanly,
nothing of it recorded.

The failure is real: a PL/pgSQL trigger, made here, raises the SQLSTATE from inside the
INSERT the command sends, so the driver's error travels the server's own path (the table's
group commit, ``db.PgCommitter``; the cashier's transaction, ``Database.write_sync``). It
counts its runs in a sequence, whose increments outlive the rollback that the error
causes (a counter in a table would be rolled back with it).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
import sqlalchemy as sa

from tests.server.conftest import Srv, new_key

pytestmark = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)

TABLE = "hilo-1"
STACK = f"stack:{TABLE}:alice"
#: what db.py's retry loops allow a unit of work: 8 attempts
ATTEMPTS = 8

_SETUP = """
CREATE SCHEMA fault;
CREATE TABLE fault.ctl (times integer NOT NULL, sqlstate text NOT NULL);
INSERT INTO fault.ctl VALUES (0, '40001');
CREATE SEQUENCE fault.fired;
CREATE FUNCTION fault.inject() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    c fault.ctl%ROWTYPE;
BEGIN
    SELECT * INTO c FROM fault.ctl;
    IF c.times > 0 AND nextval('fault.fired') <= c.times THEN
        RAISE EXCEPTION 'injected failure on %', TG_TABLE_NAME USING ERRCODE = c.sqlstate;
    END IF;
    RETURN NEW;
END $$;
"""


class Fault:
    """The trigger's switch, on a connection of the test's own (autocommit)."""

    def __init__(self, url: str) -> None:
        conninfo = sa.engine.make_url(url).set(drivername="postgresql")
        self.conn = psycopg.connect(conninfo.render_as_string(hide_password=False))
        self.conn.autocommit = True
        self.conn.execute(_SETUP.encode())

    def arm(self, table: str, when: str, sqlstate: str, times: int) -> None:
        """The next ``times`` rows inserted into ``table`` that match ``when`` fail."""
        self.conn.execute(
            f"CREATE TRIGGER fault_inject BEFORE INSERT ON {table} FOR EACH ROW "
            f"WHEN ({when}) EXECUTE FUNCTION fault.inject()".encode()
        )
        self.table = table
        self.conn.execute("SELECT setval('fault.fired', 1, false)")
        self.conn.execute("UPDATE fault.ctl SET times = %s, sqlstate = %s", (times, sqlstate))

    def fired(self) -> int:
        """How often the trigger ran since :meth:`arm` (failing or not)."""
        row = self.conn.execute("SELECT last_value, is_called FROM fault.fired").fetchone()
        assert row is not None
        return int(row[0]) if row[1] else 0

    def disarm(self) -> None:
        self.conn.execute("UPDATE fault.ctl SET times = 0")
        if getattr(self, "table", None):
            self.conn.execute(f"DROP TRIGGER IF EXISTS fault_inject ON {self.table}".encode())
            self.table = ""

    def close(self) -> None:
        self.disarm()
        self.conn.execute("DROP SCHEMA fault CASCADE")
        self.conn.close()


@pytest.fixture
def fault(srv: Srv, database_url: str) -> Iterator[Fault]:
    f = Fault(database_url)
    try:
        yield f
    finally:
        f.close()


def counts(srv: Srv) -> dict[str, int]:
    def read(conn: Any) -> dict[str, int]:
        q = {
            "postings": "SELECT count(*) FROM postings",
            "transactions": "SELECT count(*) FROM transactions",
            "holds": f"SELECT count(*) FROM holds_opened WHERE table_id = '{TABLE}'",
            "journal": f"SELECT count(*) FROM journal WHERE table_id = '{TABLE}'",
            "bets": "SELECT count(*) FROM journal WHERE kind = 'hilo.bet_placed'",
            "idempotency": "SELECT count(*) FROM idempotency",
        }
        return {k: int(conn.execute(sa.text(v)).scalar_one()) for k, v in q.items()}

    return srv.floor.db.read_sync(read)


def head(srv: Srv) -> int:
    q = sa.text("SELECT max(seq) FROM journal WHERE table_id = :t")
    return int(srv.floor.db.read_sync(lambda c: c.execute(q, {"t": TABLE}).scalar_one()))


def wallet(srv: Srv, who: str) -> dict[str, Any]:
    r = srv.client.get("/wallet", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def ledger_ok(srv: Srv) -> None:
    r = srv.client.get("/audit/ledger", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    assert r.json() == {"ok": True, "problems": []}


def betting(srv: Srv) -> None:
    """Alice seated with 10,000 and the betting open."""
    srv.ok("alice", TABLE, "join", {"amount": 10_000})
    assert srv.step(TABLE)  # the shuffle: betting is open


def settle(srv: Srv) -> None:
    """Deal and reveal: the round settles, each open hold closed once (the database
    refuses a hold closed twice or never opened), the ledger balanced."""
    assert srv.step(TABLE)
    r = srv.ok("alice", TABLE, "reveal")
    assert "hilo.round_settled" in [e["kind"] for e in r["events"]]
    ledger_ok(srv)


#: where the bet's failure comes from: its hold (raised by the flush inside store.post)
#: or its journal entry (raised by the flush that goes with the unit's RELEASE SAVEPOINT)
WHERE = {
    "holds_opened": ("holds_opened", f"NEW.table_id = '{TABLE}'"),
    "journal": ("journal", "NEW.kind = 'hilo.bet_placed'"),
}
SQLSTATES = ("40001", "40P01")  # serialization_failure, deadlock_detected


def test_a_bet_that_fails_once_is_retried_and_recorded_once(srv: Srv, fault: Fault) -> None:
    betting(srv)
    stack = wallet(srv, "alice")["stacks"][STACK]
    for sqlstate in SQLSTATES:
        for where in sorted(WHERE):
            case = f"{sqlstate} on {where}"
            before = counts(srv)
            fault.arm(*WHERE[where], sqlstate=sqlstate, times=1)
            r = srv.cmd("alice", TABLE, "bet", {"amount": 700})
            fired = fault.fired()
            fault.disarm()
            assert r.status_code == 200, (case, r.text)
            assert fired == 2, case  # the failure, then the retry's insert went through
            assert [e["kind"] for e in r.json()["events"]] == ["hilo.bet_placed"], case
            after = counts(srv)
            assert after["holds"] == before["holds"] + 1, case
            assert after["bets"] == before["bets"] + 1, case
            assert after["journal"] == before["journal"] + 1, case
            assert after["transactions"] == before["transactions"] + 1, case
            assert after["idempotency"] == before["idempotency"] + 1, case
            assert r.json()["seq"] == head(srv), case  # the reply's seq is the recorded one
            stack -= 700
            assert wallet(srv, "alice")["stacks"][STACK] == stack, case
            ledger_ok(srv)
    journal = srv.client.get(f"/audit/tables/{TABLE}/journal", headers=srv.headers("auditor"))
    assert journal.status_code == 200, journal.text
    kinds = [e["event"]["kind"] for e in journal.json()["entries"]]
    assert kinds.count("hilo.bet_placed") == 4
    # the engine that went on is the rebuilt one: its next command chains on, and the
    # round settles each bet's hold once
    srv.ok("alice", TABLE, "bet", {"amount": 300})
    assert wallet(srv, "alice")["stacks"][STACK] == stack - 300
    settle(srv)


def test_a_bet_that_keeps_failing_is_refused_and_nothing_is_recorded(
    srv: Srv, fault: Fault
) -> None:
    betting(srv)
    before, stack = counts(srv), wallet(srv, "alice")["stacks"][STACK]
    seq = srv.client.get(f"/tables/{TABLE}", headers=srv.headers("alice")).json()["seq"]
    for sqlstate in SQLSTATES:
        fault.arm(*WHERE["holds_opened"], sqlstate=sqlstate, times=1_000)
        r = srv.cmd("alice", TABLE, "bet", {"amount": 700}, key="bet-refused")
        fired = fault.fired()
        fault.disarm()
        assert fired == ATTEMPTS, sqlstate  # each attempt failed: then no more
        assert r.status_code == 503, (sqlstate, r.text)
        body = r.json()
        assert body["error"] == "unavailable" and body["rule"] == "SRV-DB", (sqlstate, body)
        assert counts(srv) == before, sqlstate
        assert wallet(srv, "alice")["stacks"][STACK] == stack, sqlstate
        view = srv.client.get(f"/tables/{TABLE}", headers=srv.headers("alice")).json()
        assert view["seq"] == seq, sqlstate
        ledger_ok(srv)
    # the table still works, and the refusal was not kept under its key: the same key
    # sent again is a new command, recorded once
    again = srv.cmd("alice", TABLE, "bet", {"amount": 700}, key="bet-refused")
    assert again.status_code == 200, again.text
    assert counts(srv)["bets"] == before["bets"] + 1
    assert wallet(srv, "alice")["stacks"][STACK] == stack - 700
    settle(srv)


def deposit(srv: Srv, key: str, amount: int) -> Any:
    return srv.client.post(
        "/cashier/deposit",
        json={"player": "bob", "amount": amount},
        headers=srv.headers("cashier", key),
    )


#: the deposit's failure: on its posting to bob's wallet (raised by the flush before
#: the RELEASE of the cashier's savepoint), in its own transaction (Database.write_sync)
BOB = ("postings", "NEW.account = 'player:bob'")


def test_a_deposit_that_fails_once_is_retried_and_recorded_once(srv: Srv, fault: Fault) -> None:
    for sqlstate in SQLSTATES:
        before, money = counts(srv), wallet(srv, "bob")["wallet"]
        fault.arm(*BOB, sqlstate=sqlstate, times=1)
        key = new_key()
        r = deposit(srv, key, 250)
        fired = fault.fired()
        fault.disarm()
        assert r.status_code == 200, (sqlstate, r.text)
        assert fired == 2, sqlstate
        assert r.json() == {"account": "player:bob", "balance": money + 250}, sqlstate
        after = counts(srv)
        assert after["postings"] == before["postings"] + 2, sqlstate
        assert after["transactions"] == before["transactions"] + 1, sqlstate
        assert after["idempotency"] == before["idempotency"] + 1, sqlstate
        assert wallet(srv, "bob")["wallet"] == money + 250, sqlstate
        assert deposit(srv, key, 250).json() == r.json(), sqlstate  # answered as recorded
        assert wallet(srv, "bob")["wallet"] == money + 250, sqlstate
        ledger_ok(srv)


def test_a_deposit_that_keeps_failing_is_refused_and_nothing_is_recorded(
    srv: Srv, fault: Fault, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the answer the server sends (the test client would raise an unhandled error instead)
    monkeypatch.setattr(srv.client._transport, "raise_server_exceptions", False)
    answers = {}
    for sqlstate in SQLSTATES:
        before, money = counts(srv), wallet(srv, "bob")["wallet"]
        fault.arm(*BOB, sqlstate=sqlstate, times=1_000)
        key = new_key()
        r = deposit(srv, key, 250)
        fired = fault.fired()
        fault.disarm()
        assert fired == ATTEMPTS, sqlstate
        assert counts(srv) == before, sqlstate
        assert wallet(srv, "bob")["wallet"] == money, sqlstate
        ledger_ok(srv)
        again = deposit(srv, key, 250)  # the same key: a new request, recorded once
        assert again.status_code == 200, (sqlstate, again.text)
        assert wallet(srv, "bob")["wallet"] == money + 250, sqlstate
        ledger_ok(srv)
        answers[sqlstate] = (r.status_code, r.json().get("rule"))
    # docs/server.md, "Errors": the database failed, nothing was recorded: 503 SRV-DB, as
    # a table's command answers (SRV-INTERNAL, 500, is "a bug, never meant as an answer")
    assert answers == dict.fromkeys(SQLSTATES, (503, "SRV-DB"))
