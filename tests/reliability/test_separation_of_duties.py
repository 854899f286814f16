"""Separation of duties through the API (SQLite and PostgreSQL): no one person creates a
staff account and puts it to work, approves what he asked for, or has a request approved
by an account made after it; the cage pays deposits only from its float, refilled by a
fill one person asks for and another approves. Every refusal is a 4xx naming its rule,
with nothing written."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Srv, new_key
from tests.server.test_supervisor import bet, decide, key, live_craps, request

MILLION = 100_000_000  # avos: MOP 1,000,000.00


def post(srv: Srv, who: str, path: str, body: dict[str, Any], idem: bool = False) -> Any:
    return srv.client.post(path, json=body, headers=srv.headers(who, new_key() if idem else None))


def users(srv: Srv) -> dict[str, Any]:
    rows = srv.client.get("/users", headers=srv.headers("auditor")).json()
    return {u["name"]: u for u in rows}


def login(srv: Srv, name: str, password: str) -> int:
    r = srv.client.post("/auth/login", json={"name": name, "password": password})
    return r.status_code


def cage(srv: Srv) -> int:
    r = srv.client.get("/accounts/cage", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    return int(r.json()["balance"])


def refused(r: Any, status: int, rule: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["rule"] == rule, r.text


def test_a_supervisor_creates_no_staff_and_a_staff_account_needs_a_second_administrator(
    srv: Srv,
) -> None:
    for role in ("supervisor", "cashier", "administrator"):
        r = post(srv, "supervisor", "/users", {"name": "mole", "role": role, "password": "x" * 12})
        refused(r, 403, "SRV-DUTY")
    assert "mole" not in users(srv)
    # a player's account: a supervisor still opens one, and it plays at once
    r = post(srv, "supervisor", "/users", {"name": "pat", "role": "player", "password": "p" * 12})
    assert r.status_code == 200, r.text
    assert login(srv, "pat", "p" * 12) == 200

    r = post(
        srv, "administrator", "/users", {"name": "sue", "role": "cashier", "password": "s" * 12}
    )
    assert (r.status_code, r.json()["approved"]) == (200, False), r.text
    assert login(srv, "sue", "s" * 12) == 401  # not approved: cannot act
    refused(post(srv, "administrator", "/users/sue/approve", {"reason": "me"}), 403, "SRV-DUTY")
    refused(post(srv, "supervisor", "/users/sue/approve", {"reason": "me"}), 403, "SRV-ROLE")
    assert users(srv)["sue"]["approved"] is False
    r = post(srv, "administrator2", "/users/sue/approve", {"reason": "hired"})
    assert r.status_code == 200, r.text
    assert login(srv, "sue", "s" * 12) == 200
    refused(post(srv, "administrator2", "/users/sue/approve", {"reason": "x"}), 409, "SRV-DECIDED")
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    actions = [(e["user"], e["action"], e["target"]) for e in log]
    assert ("administrator", "create_user", "sue") in actions
    assert ("administrator2", "approve_user", "sue") in actions


def test_an_approver_made_after_the_request_cannot_approve_it(srv: Srv) -> None:
    t = live_craps(srv)
    bet(srv, t, "field", 1_000)
    key(srv, t, 2, 3)
    rid = request(srv, "supervisor", t, {"action": "void", "reason": "x"}).json()["id"]
    post(
        srv, "administrator", "/users", {"name": "late", "role": "supervisor", "password": "l" * 12}
    )
    assert post(srv, "administrator2", "/users/late/approve", {"reason": "ok"}).status_code == 200
    srv.creds["late"] = "l" * 12
    seq = srv.floor.tables[t].seq
    refused(decide(srv, "late", rid), 403, "SRV-DUTY")
    assert srv.floor.tables[t].seq == seq
    r = srv.client.get("/supervisor/requests", headers=srv.headers("auditor")).json()
    assert [q["state"] for q in r if q["id"] == rid] == ["pending"]


def test_the_cage_pays_from_its_float_and_a_fill_needs_a_second_person(srv: Srv) -> None:
    before = cage(srv)
    assert before > 0  # the demo floor's opening fill
    wallet = srv.client.get("/wallet", headers=srv.headers("alice")).json()["wallet"]
    r = post(srv, "cashier", "/cashier/deposit", {"player": "alice", "amount": before + 1}, True)
    refused(r, 409, "SRV-FUNDS")
    assert cage(srv) == before
    assert srv.client.get("/wallet", headers=srv.headers("alice")).json()["wallet"] == wallet

    fill = post(srv, "supervisor", "/cage/fills", {"amount": MILLION, "reason": "weekend"})
    assert fill.status_code == 200, fill.text
    fid = fill.json()["id"]
    refused(
        post(srv, "supervisor", f"/cage/fills/{fid}/approve", {"reason": "me"}), 403, "SRV-DUTY"
    )
    refused(post(srv, "cashier", f"/cage/fills/{fid}/approve", {"reason": "me"}), 403, "SRV-ROLE")
    assert cage(srv) == before
    r = post(srv, "administrator", f"/cage/fills/{fid}/approve", {"reason": "counted"})
    assert (r.status_code, r.json()["state"]) == (200, "approved"), r.text
    assert cage(srv) == before + MILLION
    refused(
        post(srv, "administrator2", f"/cage/fills/{fid}/approve", {"reason": "x"}),
        409,
        "SRV-DECIDED",
    )
    r = post(srv, "cashier", "/cashier/deposit", {"player": "alice", "amount": before + 1}, True)
    assert r.status_code == 200, r.text
    assert cage(srv) == MILLION - 1
    audit = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert audit == {"ok": True, "problems": []}
