"""Accounts disabled, enabled again and given a new password through the API (SQLite and
PostgreSQL): one administrator asks, a second approves (never the one who asked, never an
account approved after the request); a disabled account's sessions end at once and it
cannot log in; a new password is held to the policy; a void or a correction names the round
it applies to, and a void is approved only while that round is still the table's last.
Every refusal is a 4xx naming its rule, with nothing written."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Srv
from tests.server.test_supervisor import (
    add_staff,
    bet,
    decide,
    key,
    live_craps,
    request,
    second_supervisor,
)


def post(srv: Srv, who: str, path: str, body: dict[str, Any]) -> Any:
    return srv.client.post(path, json=body, headers=srv.headers(who))


def ask(srv: Srv, who: str, name: str, action: str, **extra: str) -> Any:
    return post(srv, who, f"/users/{name}/requests", {"action": action, "reason": "why", **extra})


def refused(r: Any, status: int, rule: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["rule"] == rule, r.text


def login(srv: Srv, name: str, password: str) -> int:
    r = srv.client.post("/auth/login", json={"name": name, "password": password})
    return r.status_code


def pending(srv: Srv) -> list[dict[str, Any]]:
    r = srv.client.get("/users/requests?state=pending", headers=srv.headers("auditor"))
    assert r.status_code == 200, r.text
    return list(r.json())


def test_a_disable_asked_by_one_administrator_and_approved_by_another_ends_the_sessions(
    srv: Srv,
) -> None:
    assert srv.client.get("/wallet", headers=srv.headers("bob")).status_code == 200
    r = ask(srv, "administrator", "bob", "disable")
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    assert {k: r.json()[k] for k in ("name", "action", "state", "requested_by")} == {
        "name": "bob",
        "action": "disable",
        "state": "pending",
        "requested_by": "administrator",
    }
    assert [p["id"] for p in pending(srv)] == [rid]
    # asked, not done: bob still plays; the asker cannot approve; nor can a supervisor
    assert srv.client.get("/wallet", headers=srv.headers("bob")).status_code == 200
    refused(post(srv, "administrator", f"/users/requests/{rid}/approve", {"reason": "x"}),
            403, "SRV-DUTY")  # fmt: skip
    refused(post(srv, "supervisor", f"/users/requests/{rid}/approve", {"reason": "x"}),
            403, "SRV-ROLE")  # fmt: skip
    refused(ask(srv, "administrator2", "bob", "disable"), 409, "SRV-USER")  # one at a time
    r = post(srv, "administrator2", f"/users/requests/{rid}/approve", {"reason": "left"})
    assert (r.status_code, r.json()["state"], r.json()["decided_by"]) == (
        200,
        "approved",
        "administrator2",
    ), r.text
    # his token is gone at once, and he cannot log in again
    refused(srv.client.get("/wallet", headers=srv.headers("bob")), 401, "SRV-AUTH")
    assert login(srv, "bob", srv.creds["bob"]) == 401
    users = {u["name"]: u for u in srv.client.get("/users", headers=srv.headers("auditor")).json()}
    assert users["bob"]["active"] is False
    refused(post(srv, "administrator2", f"/users/requests/{rid}/approve", {"reason": "x"}),
            409, "SRV-DECIDED")  # fmt: skip
    refused(ask(srv, "administrator", "bob", "disable"), 409, "SRV-USER")  # disabled already
    # enabled again, by the same two-person rule
    rid2 = ask(srv, "administrator2", "bob", "enable").json()["id"]
    assert (
        post(srv, "administrator", f"/users/requests/{rid2}/approve", {"reason": "back"}).json()[
            "state"
        ]
        == "approved"
    )
    assert login(srv, "bob", srv.creds["bob"]) == 200
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    actions = [(e["user"], e["action"], e["target"]) for e in log]
    for entry in [
        ("administrator", "request:disable_user", "bob"),
        ("administrator2", "approve:disable_user", "bob"),
        ("administrator2", "request:enable_user", "bob"),
        ("administrator", "approve:enable_user", "bob"),
    ]:
        assert entry in actions


def test_a_new_password_is_held_to_the_policy_and_set_only_once_approved(srv: Srv) -> None:
    refused(ask(srv, "administrator", "carol", "password", password="short"), 422, "SRV-PASSWORD")
    refused(ask(srv, "administrator", "carol", "password", password="carol"), 422, "SRV-PASSWORD")
    refused(ask(srv, "administrator", "carol", "password"), 422, "SRV-INPUT")  # no password
    refused(ask(srv, "administrator", "carol", "disable", password="a-long-password"),
            422, "SRV-INPUT")  # fmt: skip
    # his own password: POST /auth/password
    refused(ask(srv, "administrator", "administrator", "password", password="x" * 14),
            403, "SRV-DUTY")  # fmt: skip
    refused(ask(srv, "administrator", "nobody", "disable"), 404, "SRV-USER")
    r = post(srv, "administrator", "/users/carol/requests", {"action": "delete", "reason": "x"})
    refused(r, 422, "SRV-INPUT")
    assert pending(srv) == []
    r = ask(srv, "administrator", "carol", "password", password="carol-new-password")
    assert r.status_code == 200, r.text
    assert "password" not in r.json() and "password_hash" not in r.json()
    assert login(srv, "carol", "carol-new-password") == 401  # not yet
    rid = r.json()["id"]
    r = post(srv, "administrator2", f"/users/requests/{rid}/reject", {"reason": "ask carol"})
    assert r.json()["state"] == "rejected"
    assert login(srv, "carol", "carol-new-password") == 401
    rid = ask(srv, "administrator", "carol", "password", password="carol-new-password").json()["id"]
    assert (
        post(srv, "administrator2", f"/users/requests/{rid}/approve", {"reason": "ok"}).json()[
            "state"
        ]
        == "approved"
    )
    assert login(srv, "carol", "carol-new-password") == 200
    assert login(srv, "carol", srv.creds["carol"]) == 401


def test_an_administrator_made_after_the_request_cannot_approve_it_nor_two_be_left_one(
    srv: Srv,
) -> None:
    rid = ask(srv, "administrator", "carol", "disable").json()["id"]
    add_staff(srv, "ada", "administrator")  # created by administrator, approved by the 2nd
    refused(post(srv, "ada", f"/users/requests/{rid}/approve", {"reason": "x"}), 403, "SRV-DUTY")
    # three administrators: one may go, leaving two; then neither of those two may
    r = ask(srv, "ada", "administrator2", "disable")
    assert r.status_code == 200, r.text
    assert post(srv, "administrator", f"/users/requests/{r.json()['id']}/approve",
                {"reason": "retired"}).status_code == 200  # fmt: skip
    refused(ask(srv, "ada", "administrator", "disable"), 409, "SRV-DUTY")


def test_a_void_names_its_round_and_is_not_approved_once_the_table_moved_on(srv: Srv) -> None:
    sam = second_supervisor(srv)
    t = live_craps(srv)
    bet(srv, t, "field", 1_000)
    key(srv, t, 2, 3)  # round 1
    bet(srv, t, "field", 1_000)
    key(srv, t, 2, 3)  # round 2
    refused(request(srv, "supervisor", t, {"action": "void", "reason": "x", "round": 1}),
            409, "SRV-STALE")  # fmt: skip
    r = request(srv, "supervisor", t, {"action": "void", "reason": "x", "round": 2})
    assert (r.status_code, r.json()["round"], r.json()["args"]) == (200, 2, {}), r.text
    rid = r.json()["id"]
    bet(srv, t, "field", 1_000)
    key(srv, t, 2, 3)  # round 3: the void of round 2 no longer applies
    refused(decide(srv, sam, rid), 409, "SRV-STALE")
    r = request(srv, "supervisor", t, {"action": "void", "reason": "y"})  # no round named
    assert r.json()["round"] == 3
    assert decide(srv, sam, r.json()["id"]).status_code == 200
    # a correction names the round of the operation it corrects
    bet(srv, t, "field", 1_000)
    seq = key(srv, t, 2, 3)
    body = {"action": "correct", "of_seq": seq, "args": {"dice": [6, 6]}, "reason": "z"}
    refused(request(srv, "supervisor", t, {**body, "round": 3}), 409, "SRV-STALE")
    r = request(srv, "supervisor", t, {**body, "round": 4})
    assert (r.status_code, r.json()["round"]) == (200, 4), r.text
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    asked = next(e for e in log if e["action"] == "request:correct")
    assert asked["data"]["round"] == 4
    refused(request(srv, "supervisor", t, {"action": "void", "reason": "x", "round": 0}),
            422, "SRV-INPUT")  # fmt: skip
