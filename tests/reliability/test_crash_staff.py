"""The crash harness at the staff's money: ``kill -9`` of a real server process during a
supervisor's void, a supervisor's correction and a cashier's withdrawal (SQLite and
PostgreSQL).

One server process per database (tests/reliability/serve_staff.py: dealer-operated craps
tables, a second supervisor), killed by its own hook at a commit the test arms once the
state is set up: right before the action's commit (nothing of it recorded) or right after
it (recorded, its answer never sent). After the restart the same request goes again with
the same Idempotency-Key, and:

* the action took effect exactly once: a void returns every bet of the round once (one
  ``table.round_voided``, whose postings are the round's negated, the stacks back where
  they were); a correction posts the corrected settlement once (the stacks
  equal a reference table's where the right dice were keyed in, one
  ``table.round_corrected``); a withdrawal takes the money out of the wallet once (one
  transaction per request, the wallet and the cage moved by the sum);
* the answer to the resent request is the one recorded before the kill, if the action had
  committed (and the same again at a second resend); applied once, if it had not;
* the ledger verifies (the postings sum to zero, the cached balances are the postings'),
  every table's chain verifies and replays from its first entry, every table is open;
* no request was answered with a 5xx.
"""

from __future__ import annotations

import itertools
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import sqlalchemy as sa

from macau_tables.core.ledger import CAGE
from macau_tables.games.contract import accounts as acc
from macau_tables.server import store
from macau_tables.server.db import Database
from macau_tables.server.games import games
from tests.reliability.serve_staff import KILL_ARM, SECOND_SUPERVISOR
from tests.server import pg
from tests.server.pg import free_port
from tests.server.test_crash import ServerProcess
from tests.server.test_crash_snapshots import check

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
_keys = itertools.count()


def new_key(what: str) -> str:
    return f"{what}-{next(_keys)}-{os.urandom(4).hex()}"


class StaffServer(ServerProcess):
    """``tests.reliability.serve_staff`` as a child process, and a client of it that
    keeps every status it answered (none may be a 5xx)."""

    def __init__(self, url: str, port: int, log: Path) -> None:
        super().__init__(url, port, log)
        self.arm_file = log.parent / "kill.arm"
        self.tokens: dict[str, str] = {}
        self.statuses: list[int] = []
        self.kills = 0

    def start(self, **extra_env: str) -> None:
        self.arm_file.unlink(missing_ok=True)  # a new process starts unarmed
        env = {
            **os.environ,
            "PYTHONPATH": f"{ROOT / 'src'}:{ROOT}",
            KILL_ARM: str(self.arm_file),
            **extra_env,
        }
        cmd = [sys.executable, "-m", "tests.reliability.serve_staff", self.url, str(self.port)]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                cmd + (["init"] if self.starts == 0 else []),
                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
            )  # fmt: skip
        self.starts += 1
        self.wait_healthy()

    # --- the kill -------------------------------------------------------------------------

    def arm(self, when: str, n: int) -> None:
        """Die ``when`` ("before" / "after") the ``n``-th commit from now."""
        self.arm_file.write_text(f"{when} {n}")

    def killed(self, when: str, n: int) -> None:
        """The process died at the armed commit (its own SIGKILL), and only there."""
        assert self.proc is not None
        try:
            code = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            log = self.log.read_text()[-3000:]
            raise AssertionError("the armed commit never came:\n" + log) from None
        assert code == -signal.SIGKILL, self.log.read_text()[-3000:]
        self.kills += 1
        lines = [ln for ln in self.log.read_text().splitlines() if ln.startswith("killed ")]
        assert len(lines) == self.kills and lines[-1] == f"killed right {when} commit {n}", lines

    # --- the client -----------------------------------------------------------------------

    def login(self, *names: str) -> None:
        """Tokens, before anything is armed (a login commits); the tokens are in the
        database, so they survive the restarts."""
        creds = self.creds()
        for name in names:
            if name not in self.tokens:
                r = httpx.post(
                    f"http://127.0.0.1:{self.port}/auth/login",
                    json={"name": name, "password": creds[name]},
                    timeout=30,
                )
                assert r.status_code == 200, r.text
                self.tokens[name] = r.json()["token"]

    def post(
        self, path: str, who: str, body: dict[str, Any], key: str | None = None
    ) -> httpx.Response | None:
        """The answer, or None: the connection was cut (the server died)."""
        headers = {"Authorization": f"Bearer {self.tokens[who]}"}
        if key is not None:
            headers["Idempotency-Key"] = key
        try:
            r = httpx.post(
                f"http://127.0.0.1:{self.port}{path}", json=body, headers=headers, timeout=60
            )
        except httpx.TransportError:
            return None
        self.statuses.append(r.status_code)
        return r

    def ok(self, path: str, who: str, body: dict[str, Any], key: str | None = None) -> Any:
        r = self.post(path, who, body, key)
        assert r is not None and r.status_code == 200, r and r.text
        return r.json()

    def cmd(self, who: str, table: str, op: str, args: dict[str, Any]) -> Any:
        return self.ok(f"/tables/{table}/commands", who, {"op": op, "args": args}, new_key(op))

    def resend(self, path: str, who: str, body: dict[str, Any], key: str) -> httpx.Response:
        r = self.post(path, who, body, key)
        assert r is not None, "the restarted server did not answer"
        return r


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StaffServer]:
    """One server per database for the module's tests: each test sets up its own state at
    its own table (or player), kills it, and leaves it restarted."""
    games()  # craps's binding, to replay its chains here
    directory = tmp_path_factory.mktemp(request.param)
    if request.param == "sqlite":
        url = str(directory / "floor.db")
    else:
        url = pg.new_database(migrated=True)
    srv = StaffServer(url, free_port(), directory / "server.log")
    srv.start()
    try:
        yield srv
        assert "Traceback" not in srv.log.read_text(), srv.log.read_text()[-3000:]
    finally:
        srv.stop()
        reader = _readers.pop(url, None)
        if reader is not None:
            reader.close()


# --- the database, read by the test (the server's process is not in these reads) --------


_readers: dict[str, Database] = {}


def read(url: str, fn: Callable[[sa.Connection], T]) -> T:
    """``fn`` in a read transaction of the test's own connection to the database."""
    if url not in _readers:
        _readers[url] = Database(url)
    return _readers[url].read_sync(fn)


def balance(url: str, account: str) -> int:
    return read(url, lambda c: store.balance(c, account))


def stacks(url: str, table: str, players: tuple[str, ...]) -> dict[str, int]:
    return {p: balance(url, f"stack:{table}:{p}") for p in players}


def recorded(url: str, who: str, key: str) -> store.Stored | None:
    return read(url, lambda c: store.get_idempotent(c, who, key))


def decision(url: str, rid: int) -> Any:
    d = store.decisions_t
    return read(url, lambda c: c.execute(sa.select(d).where(d.c.request_id == rid)).first())


def head_seq(url: str, table: str) -> int:
    t = store.tables_t
    return int(
        read(url, lambda c: c.execute(sa.select(t.c.head_seq).where(t.c.id == table)).one())[0]
    )


def events(url: str, table: str, kind: str) -> list[tuple[int, dict[str, Any]]]:
    j = store.journal_t
    rows = read(
        url,
        lambda c: c.execute(
            sa.select(j.c.seq, j.c.event)
            .where(j.c.table_id == table, j.c.kind == kind)
            .order_by(j.c.seq)
        ).all(),
    )
    return [(int(seq), json.loads(text)) for seq, text in rows]


def postings(url: str, table: str, after: int, upto: int) -> dict[str, int]:
    """Each account's postings by the table's entries ``after`` < seq <= ``upto``, summed
    (the accounts they leave where they were left out)."""
    t, p = store.transactions_t, store.postings_t
    rows = read(
        url,
        lambda c: c.execute(
            sa.select(p.c.account, sa.func.sum(p.c.amount))
            .join(t, t.c.id == p.c.tx_id)
            .where(t.c.table_id == table, t.c.seq > after, t.c.seq <= upto)
            .group_by(p.c.account)
        ).all(),
    )
    return {str(a): int(s) for a, s in rows if int(s)}


def transactions_with(url: str, memo: str) -> int:
    t = store.transactions_t
    return len(read(url, lambda c: c.execute(sa.select(t.c.id).where(t.c.memo == memo)).all()))


def floor_ok(srv: StaffServer) -> None:
    """The ledger verifies, every table's chain verifies and replays from its first
    entry, every table is open and its holds closed once; no answer was a 5xx."""
    check(srv.url, [])
    assert [s for s in srv.statuses if s >= 500] == []


# --- a supervisor's void --------------------------------------------------------------------

VOID_PLAYERS = ("alice", "carol")


def approve(srv: StaffServer, who: str, rid: int, key: str) -> httpx.Response | None:
    return srv.post(f"/supervisor/requests/{rid}/approve", who, {"reason": "seen on camera"}, key)


def after_approval(srv: StaffServer, who: str, rid: int, key: str, when: str) -> dict[str, Any]:
    """What the kill left of the approval (nothing, or the decision with its answer's
    record), the restart, and the approval sent again with its key (the recorded answer,
    or applied now), again (the same answer), and with a new key (refused: decided once).
    The answer."""
    path, body = f"/supervisor/requests/{rid}/approve", {"reason": "seen on camera"}
    stored = recorded(srv.url, who, key)
    row = decision(srv.url, rid)
    if when == "before":  # nothing of the approval was recorded
        assert stored is None and row is None, (stored, row)
    else:  # the approval and its answer, recorded together
        assert stored is not None and stored.status == 200, stored
        assert row is not None and row.decided_by == who and row.seq == stored.body["seq"]
    srv.start()
    again = srv.resend(path, who, body, key)
    assert again.status_code == 200, again.text
    if stored is not None:
        assert again.json() == stored.body  # the answer the kill cut off
    assert srv.resend(path, who, body, key).json() == again.json()
    other = approve(srv, who, rid, new_key("approve"))
    assert other is not None and (other.status_code, other.json()["rule"]) == (409, "SRV-DECIDED")
    answer: dict[str, Any] = again.json()
    return answer


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_kill_during_a_void_returns_the_round_once(server: StaffServer, when: str) -> None:
    """Bets on a roll, the roll paid, a void requested; the server dies right before or
    right after the approval's commit (armed before the request: commit 2)."""
    srv, url, t = server, server.url, f"craps-void-{when}"
    srv.login("supervisor", SECOND_SUPERVISOR, "dealer", *VOID_PLAYERS)
    for p in VOID_PLAYERS:
        srv.cmd(p, t, "join", {"amount": 100_000})
    before, start = stacks(url, t, VOID_PLAYERS), head_seq(url, t)
    srv.cmd("alice", t, "place_bet", {"bet": "field", "amount": 1_000})
    srv.cmd("alice", t, "place_bet", {"bet": "any_craps", "amount": 500})
    srv.cmd("carol", t, "place_bet", {"bet": "field", "amount": 700})
    srv.cmd("dealer", t, "throw_dice", {"dice": [6, 6]})  # the Field pays double, craps 7:1
    paid = stacks(url, t, VOID_PLAYERS)
    assert all(paid[p] > before[p] for p in VOID_PLAYERS), (before, paid)
    voids = len(events(url, t, "table.round_voided"))

    srv.arm(when, 2)
    req = srv.ok(f"/tables/{t}/requests", SECOND_SUPERVISOR, {"action": "void", "reason": "die"})
    key = new_key("approve")
    assert approve(srv, "supervisor", req["id"], key) is None  # cut: the server died
    srv.killed(when, 2)
    # the void's money moved with its decision and its answer's record, or none of them
    assert stacks(url, t, VOID_PLAYERS) == (before if when == "after" else paid)
    answer = after_approval(srv, "supervisor", req["id"], key, when)

    # one void of this request, at the seq the answer gives
    (voided,) = events(url, t, "table.round_voided")[voids:]
    seq = voided[0]
    assert voided[1]["data"]["request"] == req["id"] and seq == answer["seq"]
    # every bet of the round returned once, its wins reversed once: the void's postings
    # are the round's, negated, and nothing else moved since
    assert stacks(url, t, VOID_PLAYERS) == before
    played = postings(url, t, start, seq - 1)
    assert played and postings(url, t, seq - 1, seq) == {a: -v for a, v in played.items()}
    assert postings(url, t, seq, head_seq(url, t)) == {}
    floor_ok(srv)


# --- a supervisor's correction --------------------------------------------------------------


def throw(srv: StaffServer, table: str, d1: int, d2: int) -> int:
    """The dealer keys in the dice; the seq of the throw."""
    r = srv.cmd("dealer", table, "throw_dice", {"dice": [d1, d2]})
    return int(next(e["seq"] for e in r["events"] if e["kind"] == "craps.dice_thrown"))


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_kill_during_a_correction_posts_the_corrected_settlement_once(
    server: StaffServer, when: str
) -> None:
    """A seven-out keyed in where the table showed [5, 6], the correction requested; the
    server dies right before or right after the approval's commit (armed before the
    approval: commit 1). The reference table, keyed [5, 6], is where the money must be.
    (Each case at tables of its own: craps refuses to correct a seven-out at a table whose
    history already holds a corrected one — the re-run reveals the first shooter's seed
    again —, crash or no crash.)"""
    srv, url, t, ref_t = server, server.url, f"craps-fix-{when}", f"craps-ref-{when}"
    srv.login("supervisor", SECOND_SUPERVISOR, "dealer", "alice")
    fix, ref = f"stack:{t}:alice", f"stack:{ref_t}:alice"
    for table in (t, ref_t):
        srv.cmd("alice", table, "join", {"amount": 100_000})

    def won() -> tuple[int, int]:
        """What the round moved to alice's stack at each table."""
        return balance(url, fix) - base[0], balance(url, ref) - base[1]

    base = balance(url, fix), balance(url, ref)
    for table in (t, ref_t):
        srv.cmd("alice", table, "place_bet", {"bet": "pass", "amount": 1_000})
        throw(srv, table, 2, 2)  # the point is 4
        srv.cmd("alice", table, "place_bet", {"bet": "field", "amount": 500})
    wrong = throw(srv, t, 3, 4)
    throw(srv, ref_t, 5, 6)
    assert won()[0] != won()[1]
    corrections = len(events(url, t, "table.round_corrected"))
    req = srv.ok(
        f"/tables/{t}/requests",
        "supervisor",
        {"action": "correct", "of_seq": wrong, "args": {"dice": [5, 6]}, "reason": "mis-keyed"},
    )

    srv.arm(when, 1)
    key = new_key("approve")
    assert approve(srv, SECOND_SUPERVISOR, req["id"], key) is None
    srv.killed(when, 1)
    # the correction's money moved with its decision and its answer's record, or none
    assert (won()[0] == won()[1]) is (when == "after")
    answer = after_approval(srv, SECOND_SUPERVISOR, req["id"], key, when)

    assert won()[0] == won()[1]  # the corrected settlement, once
    (corrected,) = events(url, t, "table.round_corrected")[corrections:]
    assert corrected[1]["data"]["request"] == req["id"] and corrected[0] == answer["seq"]
    # the round goes on from the corrected throw: the point made, the Pass Line paid once
    throw(srv, t, 1, 3)
    throw(srv, ref_t, 1, 3)
    assert won()[0] == won()[1]
    floor_ok(srv)


# --- a cashier's withdrawal -----------------------------------------------------------------

PLAYER = "bob"


def withdrawal(amount: int, memo: str) -> dict[str, Any]:
    return {"player": PLAYER, "amount": amount, "memo": memo}


@pytest.mark.parametrize(
    ("when", "n", "together"),
    [("after", 1, True), ("before", 2, False)],
    ids=["after-commit-1-two-at-once", "before-commit-2-one-after-another"],
)
def test_a_kill_during_a_withdrawal_takes_the_money_out_once(
    server: StaffServer, when: str, n: int, together: bool
) -> None:
    """Two withdrawals, each with its key: sent at once, the server dying right after the
    first commit (one or both recorded, neither answered); or one after the other, the
    server dying right before the second one's commit (the first answered, the second
    never recorded). Both sent again with their keys after the restart."""
    srv, url, path = server, server.url, "/cashier/withdraw"
    srv.login("cashier")
    wallet, cage = balance(url, acc.wallet(PLAYER)), balance(url, CAGE)
    tag = os.urandom(4).hex()
    sent = [
        (new_key("withdraw"), withdrawal(amount, f"{tag}-{amount}")) for amount in (1_100, 2_200)
    ]
    answers: dict[str, httpx.Response | None] = {}

    srv.arm(when, n)
    if together:
        threads = [
            threading.Thread(
                target=lambda k=k, b=b: answers.update({k: srv.post(path, "cashier", b, k)})
            )
            for k, b in sent
        ]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        assert list(answers.values()) == [None, None]  # both cut: the first commit killed
    else:
        for k, b in sent:
            answers[k] = srv.post(path, "cashier", b, k)
        first = answers[sent[0][0]]
        assert first is not None and first.status_code == 200, first and first.text
        assert answers[sent[1][0]] is None
    srv.killed(when, n)

    records = {k: recorded(url, "cashier", k) for k, _ in sent}
    if together:
        assert any(records.values())  # at least the first commit's
    else:
        first, first_record = answers[sent[0][0]], records[sent[0][0]]
        assert first is not None and first_record is not None
        assert first_record.body == first.json()
        assert records[sent[1][0]] is None
    # the money moved with its record, in the same commit: for the recorded ones only
    moved = sum(b["amount"] for k, b in sent if records[k] is not None)
    assert balance(url, acc.wallet(PLAYER)) == wallet - moved
    srv.start()
    for k, b in sent:
        again = srv.resend(path, "cashier", b, k)
        assert again.status_code == 200, again.text
        stored = records[k]
        if stored is not None:
            assert again.json() == stored.body  # the recorded answer
        assert srv.resend(path, "cashier", b, k).json() == again.json()

    total = sum(b["amount"] for _, b in sent)
    assert balance(url, acc.wallet(PLAYER)) == wallet - total  # out of the wallet once
    assert balance(url, CAGE) == cage + total
    assert [transactions_with(url, b["memo"]) for _, b in sent] == [1, 1]
    floor_ok(srv)
