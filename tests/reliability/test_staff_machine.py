"""Hypothesis state machine over the staff's actions through the HTTP API (SQLite): staff
accounts created (by anyone who tries) and approved, voids requested and approved at a live
craps table, deposits, fills of the cage asked for and decided.

The machine keeps a model of who exists, in which role, who created each account and when
it was approved (the server's own timestamps, read back), of the pending voids and fills
and of the cage. It predicts every answer's status and rule, and checks after every step,
from the database itself: no two-person action was completed by one person — every staff
account approved by someone other than its creator, every fill and every void decided by
someone other than who asked, each approver's account approved at or before the request —
and the cage never went below zero. Never a 5xx; a refusal writes nothing.
"""

from __future__ import annotations

import itertools
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from macau_tables.server import store
from macau_tables.server.app import create_app
from macau_tables.server.floor import Floor
from macau_tables.server.logins import LoginThrottle, Rule
from tests.server.conftest import make_settings

TABLE = "craps-live"
STAFF_ROLES = ("cashier", "supervisor", "administrator")
MAX_AMOUNT = 10**12  # avos: the most a body may say (server/schemas.py)
_keys = itertools.count()


def key() -> str:
    return f"sm-staff-{next(_keys)}"


class StaffMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="macau-sm-staff-"))
        self.floor = Floor(make_settings(str(self.dir / "floor.db"), chain_check="startup"))
        # the machine tries a staff account's login before its approval, refused by design,
        # as often as it likes: the login throttle (test_logins.py) would close the name
        # after five, and then refuse the approved account's login (429) too
        unlimited = Rule(free=10**9)
        self.floor.throttle = LoginThrottle(account=unlimited, address=unlimited)
        self.client = TestClient(create_app(floor=self.floor))
        self.client.__enter__()
        self.passwords = dict(self.floor.demo_credentials)
        self.tokens: dict[str, str] = {}
        self.people: dict[str, dict[str, Any]] = {}  # name -> role, created_by, times
        self.read_people()
        self.cage = self.balance("cage")
        self.voids: dict[int, tuple[str, int]] = {}  # pending: rid -> (requester, at)
        self.fills: dict[int, tuple[str, int, int]] = {}  # pending: fid -> (who, at, amount)
        self.names = itertools.count()
        self.expect(
            self.post("supervisor", "/tables", {"id": TABLE, "game": "craps", "dealer": "live"}),
            200,
        )
        self.expect(self.command("alice", "join", {"amount": 500_000}), 200)
        # a second supervisor, hired as the rules say: one administrator, then the other
        self.passwords["sam"] = "sam-password"
        body = {"name": "sam", "role": "supervisor", "password": "sam-password"}
        self.expect(self.post("administrator", "/users", body), 200)
        self.expect(self.post("administrator2", "/users/sam/approve", {"reason": "hired"}), 200)

    # --- the HTTP calls and the database --------------------------------------------------

    def read_people(self) -> None:
        rows = self.floor.db.read_sync(lambda c: c.execute(sa.select(store.users_t)).all())
        self.people = {
            r.name: {
                "role": r.role,
                "created_by": r.created_by,
                "created_at": int(r.created_at),
                "approved_at": r.approved_at,
                "approved_by": r.approved_by,
            }
            for r in rows
        }

    def balance(self, account: str) -> int:
        return self.floor.db.read_sync(lambda c: store.balance(c, account))

    def balances(self) -> dict[str, int]:
        rows = self.floor.db.read_sync(lambda c: c.execute(sa.select(store.accounts_t)).all())
        return {r.name: int(r.balance) for r in rows}

    def token(self, who: str) -> str | None:
        """``who``'s token; None when he cannot log in (an account not approved)."""
        if who not in self.tokens:
            r = self.client.post("/auth/login", json={"name": who, "password": self.passwords[who]})
            if self.people[who]["approved_at"] is None:
                assert (r.status_code, r.json()["rule"]) == (401, "SRV-AUTH"), r.text
                return None
            assert r.status_code == 200, r.text
            self.tokens[who] = r.json()["token"]
        return self.tokens[who]

    def post(self, who: str, path: str, body: dict[str, Any]) -> Any:
        """POST as ``who`` (None: he could not log in). Never a 5xx; a refusal has its rule
        and moves no balance and adds no account of a person."""
        token = self.token(who)
        if token is None:
            return None
        before, users = self.balances(), set(self.people)
        headers = {"Authorization": f"Bearer {token}", "Idempotency-Key": key()}
        r = self.client.post(path, json=body, headers=headers)
        assert r.status_code < 500, (path, r.text)
        rule = r.json()["rule"] if r.status_code >= 400 else ""
        event(f"{re.sub(r'/(staff)?[0-9]+', '/N', path)} {r.status_code} {rule}")
        if r.status_code >= 400:
            assert set(r.json()) == {"error", "rule", "message"} and r.json()["rule"], r.text
            assert self.balances() == before, (path, body, r.text)
        self.read_people()
        if r.status_code >= 400:
            assert set(self.people) == users, (path, r.text)
        return r

    def command(self, who: str, op: str, args: dict[str, Any]) -> Any:
        return self.post(who, f"/tables/{TABLE}/commands", {"op": op, "args": args})

    def expect(self, r: Any, status: int, rule: str | None = None) -> None:
        if r is None:  # (the caller could not log in: predicted by token())
            return
        assert r.status_code == status, r.text
        if rule is not None:
            assert r.json()["rule"] == rule, r.text

    def pick(self, data: st.DataObject, label: str, *roles: str) -> str:
        """Someone for ``label``: as often one of ``roles`` (when there is one) as anyone."""
        everyone = sorted(self.people)
        fit = [n for n in everyone if self.role(n) in roles]
        anyone = st.sampled_from(everyone)
        return data.draw(st.one_of(st.sampled_from(fit), anyone) if fit else anyone, label=label)

    def role(self, who: str) -> str:
        return str(self.people[who]["role"])

    def approved_before(self, who: str, at: int) -> bool:
        approved = self.people[who]["approved_at"]
        return approved is not None and int(approved) <= at

    # --- the staff's actions ----------------------------------------------------------------

    @rule(data=st.data(), role=st.sampled_from(STAFF_ROLES))
    def create_staff(self, data: st.DataObject, role: str) -> None:
        creator = self.pick(data, "creator", "administrator", "supervisor")
        name = f"staff{next(self.names)}"
        password = f"{name}-password"
        self.passwords[name] = password
        r = self.post(creator, "/users", {"name": name, "role": role, "password": password})
        if self.role(creator) == "administrator":
            self.expect(r, 200)
            if r is not None:
                assert self.people[name]["approved_at"] is None
        elif self.role(creator) == "supervisor":
            self.expect(r, 403, "SRV-DUTY")
        else:
            self.expect(r, 403, "SRV-ROLE")

    @rule(data=st.data())
    def approve_staff(self, data: st.DataObject) -> None:
        pending = sorted(n for n, p in self.people.items() if p["approved_at"] is None)
        if not pending:
            return
        name = data.draw(st.sampled_from(pending), label="account")
        who = self.pick(data, "approver", "administrator")
        person = self.people[name]
        r = self.post(who, f"/users/{name}/approve", {"reason": "checked"})
        if self.role(who) != "administrator":
            self.expect(r, 403, "SRV-ROLE")
        elif who == person["created_by"] or not self.approved_before(who, person["created_at"]):
            self.expect(r, 403, "SRV-DUTY")
        else:
            self.expect(r, 200)

    @rule(dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
    def play(self, dice: tuple[int, int]) -> None:
        """A round to void: alice bets the Field, the dealer keys in the dice."""
        r = self.command("alice", "place_bet", {"bet": "field", "amount": 1_000})
        assert r.status_code in (200, 409), r.text
        r = self.command("dealer", "throw_dice", {"dice": list(dice)})
        assert r.status_code in (200, 409), r.text

    @rule(data=st.data(), dice=st.tuples(st.integers(1, 6), st.integers(1, 6)))
    def request_void(self, data: st.DataObject, dice: tuple[int, int]) -> None:
        """A round played, then a void of it asked for."""
        self.play(dice)
        who = self.pick(data, "requester", "supervisor")
        r = self.post(who, f"/tables/{TABLE}/requests", {"action": "void", "reason": "video"})
        if r is None:
            return
        if self.role(who) != "supervisor":
            self.expect(r, 403, "SRV-ROLE")
        elif r.status_code == 200:
            self.voids[int(r.json()["id"])] = (who, int(r.json()["requested_at"]))
        else:  # (nothing to void since the last void: the rules refuse it)
            assert r.status_code == 409, r.text

    @rule(data=st.data())
    def approve_void(self, data: st.DataObject) -> None:
        if not self.voids:
            return
        rid = data.draw(st.sampled_from(sorted(self.voids)), label="request")
        who = self.pick(data, "approver", "supervisor")
        requester, at = self.voids[rid]
        r = self.post(who, f"/supervisor/requests/{rid}/approve", {"reason": "seen"})
        if r is None:
            return
        if self.role(who) != "supervisor":
            self.expect(r, 403, "SRV-ROLE")
        elif who == requester:
            self.expect(r, 403, "SRV-APPROVAL")
        elif not self.approved_before(who, at):
            self.expect(r, 403, "SRV-DUTY")
        elif r.status_code == 200:
            del self.voids[rid]
            self.cage = self.balance("cage")  # (a void moves table money, not the cage's)
        else:  # the rules: the round it named is gone (voided by another request)
            assert r.status_code == 409, r.text

    @rule(data=st.data(), size=st.sampled_from(["some", "some", "all", "more"]))
    def deposit(self, data: st.DataObject, size: str) -> None:
        """Some of the cage's float, all of it, or one avo more than it holds."""
        who = self.pick(data, "cashier", "cashier")
        amount = {"all": self.cage, "more": self.cage + 1}.get(size) or data.draw(
            st.integers(1, 5_000_000), label="amount"
        )
        if not 1 <= amount <= MAX_AMOUNT:  # (beyond what a body may say: 422, not tried)
            return
        r = self.post(who, "/cashier/deposit", {"player": "bob", "amount": amount})
        if self.role(who) != "cashier":
            self.expect(r, 403, "SRV-ROLE")
        elif amount > self.cage:
            self.expect(r, 409, "SRV-FUNDS")
        else:
            self.expect(r, 200)
            if r is not None:
                self.cage -= amount

    @rule(data=st.data(), amount=st.integers(1, 100_000_000))
    def request_fill(self, data: st.DataObject, amount: int) -> None:
        who = self.pick(data, "requester", "supervisor", "administrator")
        r = self.post(who, "/cage/fills", {"amount": amount, "reason": "float"})
        if self.role(who) not in ("supervisor", "administrator"):
            self.expect(r, 403, "SRV-ROLE")
        else:
            self.expect(r, 200)
            if r is not None:
                self.fills[int(r.json()["id"])] = (who, int(r.json()["requested_at"]), amount)

    @rule(data=st.data(), verdict=st.sampled_from(["approve", "approve", "reject"]))
    def decide_fill(self, data: st.DataObject, verdict: str) -> None:
        if not self.fills:
            return
        fid = data.draw(st.sampled_from(sorted(self.fills)), label="fill")
        who = self.pick(data, "decider", "supervisor", "administrator")
        requester, at, amount = self.fills[fid]
        r = self.post(who, f"/cage/fills/{fid}/{verdict}", {"reason": "counted"})
        if self.role(who) not in ("supervisor", "administrator"):
            self.expect(r, 403, "SRV-ROLE")
        elif who == requester or not self.approved_before(who, at):
            self.expect(r, 403, "SRV-DUTY")
        else:
            self.expect(r, 200)
            if r is not None:
                del self.fills[fid]
                if verdict == "approve":
                    self.cage += amount

    # --- what holds after every step ---------------------------------------------------------

    @invariant()
    def the_cage_never_goes_below_zero(self) -> None:
        assert self.balance("cage") == self.cage >= 0

    @invariant()
    def no_one_person_completes_a_two_person_action(self) -> None:
        people = self.people
        for name, p in people.items():
            if p["approved_at"] is not None and p["created_by"] != "system":
                assert p["approved_by"] not in (None, p["created_by"]), (name, p)
                assert self.approved_before(p["approved_by"], p["created_at"]), (name, p)

        def read(c: sa.Connection) -> tuple[list[Any], list[Any]]:
            f, r, d = store.cage_fills_t, store.requests_t, store.decisions_t
            fills = c.execute(sa.select(f).where(f.c.decision.is_not(None))).all()
            voids = c.execute(
                sa.select(r.c.requested_by, r.c.requested_at, d.c.decided_by).select_from(
                    r.join(d, d.c.request_id == r.c.id)
                )
            ).all()
            return fills, voids

        fills, voids = self.floor.db.read_sync(read)
        for row in [*fills, *voids]:
            assert row.decided_by != row.requested_by, row
            assert self.approved_before(row.decided_by, int(row.requested_at)), row

    def teardown(self) -> None:
        try:
            if sys.exc_info()[0] is None:
                r = self.client.get(
                    "/audit/ledger", headers={"Authorization": f"Bearer {self.token('auditor')}"}
                )
                assert r.json() == {"ok": True, "problems": []}, r.text
        finally:
            self.client.__exit__(None, None, None)
            shutil.rmtree(self.dir, ignore_errors=True)


SETTINGS = settings(
    max_examples=20,
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


def test_no_one_person_completes_a_two_person_action_and_the_cage_stays_above_zero() -> None:
    run_state_machine_as_test(StaffMachine, settings=SETTINGS)
