"""Every role × every endpoint: allowed (any answer but 403, never a 500) or 403 SRV-ROLE."""

from __future__ import annotations

from typing import Any

from macau_tables.server.auth import PERMISSIONS, StaffRole
from tests.server.conftest import Srv, new_key

PATH_PARAMS = {
    "table_id": "hilo-1",
    "op": "join",
    "account": "cage",
    "name": "alice",
    "rid": 1,
    "fid": 1,
}
BODIES: dict[tuple[str, str], Any] = {
    ("POST", "/tables"): {"id": "hilo-m", "game": "hilo"},
    ("POST", "/tables/{table_id}/commands"): {"op": "join", "args": {"amount": 100}},
    ("POST", "/tables/{table_id}/ops/{op}"): {"amount": 100},
    ("POST", "/cashier/deposit"): {"player": "alice", "amount": 100},
    ("POST", "/cashier/withdraw"): {"player": "alice", "amount": 100},
    ("POST", "/users"): {"name": "newbie", "role": "player", "password": "long-enough"},
    ("POST", "/tables/{table_id}/dealer/default"): {"actor": "player:alice", "op": "join"},
    ("POST", "/meters/close"): {"day": "2020-01-01"},  # meters: a day long over
    # the supervisor
    ("POST", "/tables/{table_id}/requests"): {"action": "void", "reason": "matrix"},
    ("POST", "/supervisor/requests/{rid}/approve"): {"reason": "matrix"},
    ("POST", "/supervisor/requests/{rid}/reject"): {"reason": "matrix"},
    ("POST", "/tables/{table_id}/limits"): {"min_bet": 100, "max_bet": 1000, "reason": "matrix"},
    ("POST", "/tables/{table_id}/freeze"): {"note": "matrix", "evidence": ["video:1"]},
    ("POST", "/tables/{table_id}/release"): {"reason": "matrix"},
    # the money controls
    ("POST", "/cage/fills"): {"amount": 100, "reason": "matrix"},
    ("POST", "/cage/fills/{fid}/approve"): {"reason": "matrix"},
    ("POST", "/cage/fills/{fid}/reject"): {"reason": "matrix"},
    ("POST", "/users/{name}/approve"): {"reason": "matrix"},
    ("POST", "/users/{name}/requests"): {"action": "disable", "reason": "matrix"},
    ("POST", "/users/requests/{rid}/approve"): {"reason": "matrix"},
    ("POST", "/users/requests/{rid}/reject"): {"reason": "matrix"},
    ("POST", "/frozen-accounts/{account}/resolve"): {"reason": "matrix"},
}
CONTROL = {"reason": "matrix"}


def _operations(srv: Srv) -> list[tuple[str, str, str | None]]:
    """Every HTTP endpoint as the OpenAPI document has it: method, path, permission."""
    doc = srv.client.app.openapi()  # type: ignore[attr-defined]
    return [
        (method.upper(), path, op.get("x-permission"))
        for path, ops in doc["paths"].items()
        for method, op in ops.items()
    ]


def _routes(srv: Srv) -> list[tuple[str, str, str]]:
    return [(m, path, perm) for m, path, perm in _operations(srv) if perm is not None]


def test_every_endpoint_names_a_permission(srv: Srv) -> None:
    unnamed = [
        path
        for _, path, perm in _operations(srv)
        if perm is None and path not in ("/auth/login", "/health", "/schemas")
    ]
    assert unnamed == []
    # tables.watch is the WebSocket's (test_ws checks it: every role may watch)
    assert {p for _, _, p in _routes(srv)} | {"tables.watch"} == set(PERMISSIONS)


def test_role_matrix(srv: Srv) -> None:
    routes = _routes(srv)
    assert len(routes) >= 20
    seen: dict[tuple[str, str], set[str]] = {}
    for role in StaffRole:
        who = {"player": "alice"}.get(role.value, role.value)
        for method, path, perm in routes:
            url = path.format(**PATH_PARAMS)
            if perm == "logout":  # a token of its own, the others keep theirs
                r = srv.client.post("/auth/login", json={"name": who, "password": srv.creds[who]})
                headers = {"Authorization": f"Bearer {r.json()['token']}"}
            else:
                headers = srv.headers(who, new_key())
            body = BODIES.get((method, path))
            if body is None and path.endswith(("/pause", "/resume", "/close", "/unlock")):
                body = CONTROL
            r = srv.client.request(method, url, json=body, headers=headers)
            allowed = role in PERMISSIONS[perm]
            assert r.status_code < 500, (role, method, path, r.text)
            if allowed:
                # (a 403 of the rules, not the role's: SRV-DUTY, one person approving
                # what he asked for himself)
                refused = r.status_code == 403 and r.json()["rule"] == "SRV-ROLE"
                assert not refused, (
                    role,
                    method,
                    path,
                    r.text,
                )
                seen.setdefault((method, path), set()).add(role.value)
            else:
                assert (r.status_code, r.json()["rule"]) == (403, "SRV-ROLE"), (
                    role,
                    method,
                    path,
                )
    assert all(seen.get((m, p)) for m, p, _ in routes)


def test_key_in_and_betting_by_role_at_a_live_table(srv: Srv) -> None:
    """The role matrix at a live craps table: only staff key in what the physical table
    shows (a player: 403 SRV-KEYIN); only players bet (the dealer's and the supervisor's
    bets are the engine's refusals, nothing posted); the cashier and the auditor do not act
    at tables (403 SRV-ROLE)."""
    r = srv.client.post(
        "/tables",
        json={"id": "craps-m", "game": "craps", "dealer": "live"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    srv.deposit("alice", 100_000)
    r = srv.client.post(
        "/tables/craps-m/commands",
        json={"op": "join", "args": {"amount": 50_000}},
        headers=srv.headers("alice", new_key()),
    )
    assert r.status_code == 200, r.text
    want = {
        "player": ((403, "SRV-KEYIN"), (200, None)),
        "dealer": ((200, None), (409, None)),
        "supervisor": ((200, None), (409, None)),
        "cashier": ((403, "SRV-ROLE"), (403, "SRV-ROLE")),
        "auditor": ((403, "SRV-ROLE"), (403, "SRV-ROLE")),
        "administrator": ((403, "SRV-ROLE"), (403, "SRV-ROLE")),
    }
    for role in StaffRole:
        who = {"player": "alice"}.get(role.value, role.value)
        key_in, bet = want[role.value]
        for (status, rule), body in (
            (key_in, {"op": "throw_dice", "args": {"dice": [2, 2]}}),
            (bet, {"op": "place_bet", "args": {"bet": "field", "amount": 1_000}}),
        ):
            seq = srv.floor.tables["craps-m"].seq
            r = srv.client.post(
                "/tables/craps-m/commands", json=body, headers=srv.headers(who, new_key())
            )
            assert r.status_code == status, (role, body, r.text)
            if rule is not None:
                assert r.json()["rule"] == rule, (role, body, r.text)
            if status != 200:
                assert srv.floor.tables["craps-m"].seq == seq, (role, body)
    led = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert led == {"ok": True, "problems": []}
