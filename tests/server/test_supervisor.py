"""The supervisor's day through the API, on SQLite and PostgreSQL: a mis-keyed
throw corrected with a second supervisor's approval (the ledger at zero, the audit log
complete, replay verifying after a restart), a disputed round frozen with its evidence and
voided, limits from the next round, and every refusal a 4xx naming its rule."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Srv, new_key
from tests.server.test_recovery import restarted


def second_supervisor(srv: Srv) -> str:
    """A second supervisor's account: an administrator creates it, another approves it."""
    return add_staff(srv, "sam", "supervisor")


def add_staff(srv: Srv, name: str, role: str) -> str:
    r = srv.client.post(
        "/users",
        json={"name": name, "role": role, "password": f"{name}-password"},
        headers=srv.headers("administrator"),
    )
    assert r.status_code == 200, r.text
    r = srv.client.post(
        f"/users/{name}/approve", json={"reason": "hired"}, headers=srv.headers("administrator2")
    )
    assert r.status_code == 200, r.text
    srv.creds[name] = f"{name}-password"
    return name


def live_craps(srv: Srv, table: str = "craps-live") -> str:
    r = srv.client.post(
        "/tables",
        json={"id": table, "game": "craps", "dealer": "live"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    srv.ok("alice", table, "join", {"amount": 100_000})
    return table


def key(srv: Srv, table: str, d1: int, d2: int) -> int:
    """The dealer keys in the dice; the seq of the throw."""
    r = srv.cmd("dealer", table, "throw_dice", {"dice": [d1, d2]})
    assert r.status_code == 200, r.text
    return int(next(e["seq"] for e in r.json()["events"] if e["kind"] == "craps.dice_thrown"))


def bet(srv: Srv, table: str, kind: str, amount: int) -> None:
    srv.ok("alice", table, "place_bet", {"bet": kind, "amount": amount})


def stack(srv: Srv, table: str) -> int:
    return int(
        srv.client.get("/wallet", headers=srv.headers("alice")).json()["stacks"][
            f"stack:{table}:alice"
        ]
    )


def request(srv: Srv, who: str, table: str, body: dict[str, Any]) -> Any:
    return srv.client.post(f"/tables/{table}/requests", json=body, headers=srv.headers(who))


def decide(srv: Srv, who: str, rid: int, verdict: str = "approve", key: str | None = None) -> Any:
    return srv.client.post(
        f"/supervisor/requests/{rid}/{verdict}",
        json={"reason": "seen on camera 3"},
        headers=srv.headers(who, key or new_key()),
    )


def ledger_ok(srv: Srv) -> None:
    r = srv.client.get("/audit/ledger", headers=srv.headers("auditor"))
    assert r.json() == {"ok": True, "problems": []}


def audit_actions(srv: Srv) -> list[tuple[str, str]]:
    r = srv.client.get("/audit/log", headers=srv.headers("auditor"))
    assert r.status_code == 200
    return [(e["user"], e["action"]) for e in r.json()]


def test_a_mis_keyed_seven_out_is_corrected_with_a_second_approval_and_survives_a_restart(
    srv: Srv,
) -> None:
    """The dealer keyed [3, 4] (a seven-out), the table showed [5, 6]: one supervisor asks,
    another approves; the rules re-settle (Pass Line back on its point, the Field paid 11);
    the money is what [5, 6] would have given, the ledger at zero, the log complete."""
    sam = second_supervisor(srv)
    t, right = live_craps(srv), live_craps(srv, "craps-right")
    for table in (t, right):
        bet(srv, table, "pass", 1_000)
        key(srv, table, 2, 2)  # the point is 4
        bet(srv, table, "field", 500)
    wrong = key(srv, t, 3, 4)
    key(srv, right, 5, 6)
    assert stack(srv, t) != stack(srv, right)

    r = request(
        srv,
        "supervisor",
        t,
        {"action": "correct", "of_seq": wrong, "args": {"dice": [5, 6]}, "reason": "mis-keyed"},
    )
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    assert r.json()["state"] == "pending"
    # not by himself, not through /commands
    assert (
        decide(srv, "supervisor", rid).status_code,
        decide(srv, "supervisor", rid).json()["rule"],
    ) == (403, "SRV-APPROVAL")
    r = srv.cmd("supervisor", t, "correct_round", {"of_seq": wrong, "args": {"dice": [5, 6]}})
    assert (r.status_code, r.json()["rule"]) == (403, "SRV-APPROVAL")
    assert stack(srv, t) != stack(srv, right)

    k = new_key()
    r = decide(srv, sam, rid, key=k)
    assert r.status_code == 200, r.text
    corrected = next(e for e in r.json()["events"] if e["kind"] == "table.round_corrected")
    assert corrected["data"]["approved_by"] == sam and corrected["data"]["requested_by"] == (
        "supervisor"
    )
    assert decide(srv, sam, rid, key=k).json() == r.json()  # a retry: the same answer
    again = decide(srv, sam, rid)
    assert (again.status_code, again.json()["rule"]) == (409, "SRV-DECIDED")

    assert stack(srv, t) == stack(srv, right)
    view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("auditor")).json()["view"]
    assert view["point"] == 4
    ledger_ok(srv)
    (req,) = srv.client.get(
        "/supervisor/requests", params={"table": t}, headers=srv.headers("auditor")
    ).json()
    assert (req["state"], req["decided_by"], req["seq"]) == ("approved", sam, corrected["seq"])
    log = audit_actions(srv)
    assert ("supervisor", "request:correct") in log and (sam, "approve:correct") in log
    entries = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    approval = next(e for e in entries if e["action"] == "approve:correct")
    assert approval["data"] == {
        "request": rid,
        "requested_by": "supervisor",
        "seq": corrected["seq"],
    }

    # the table goes on: the re-issued Pass Line hold is settled once
    key(srv, t, 1, 3)
    key(srv, right, 1, 3)
    assert stack(srv, t) == stack(srv, right)
    with restarted(srv) as back:
        info = back.client.get(f"/tables/{t}", headers=back.headers("auditor")).json()
        assert (info["status"], info["lock_reason"]) == ("open", None)
        assert stack(back, t) == stack(back, right)
        ledger_ok(back)
        key(back, t, 6, 6)


def test_a_frozen_disputed_round_takes_no_command_until_it_is_voided(srv: Srv) -> None:
    sam = second_supervisor(srv)
    t = live_craps(srv)
    before = stack(srv, t)
    bet(srv, t, "field", 1_000)
    seq = key(srv, t, 6, 6)  # the Field pays double on 12
    assert stack(srv, t) > before
    r = srv.client.post(
        f"/tables/{t}/freeze",
        json={
            "note": "player says a die hit the chips",
            "evidence": ["video:cam3/1402"],
            "seqs": [seq],
        },
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200 and r.json()["status"] == "frozen", r.text
    r = srv.cmd("dealer", t, "throw_dice", {"dice": [1, 1]})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-FROZEN")
    r = srv.cmd("alice", t, "place_bet", {"bet": "field", "amount": 1_000})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-FROZEN")
    r = srv.client.post(
        f"/tables/{t}/resume", json={"reason": "x"}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 409

    rid = request(srv, sam, t, {"action": "void", "reason": "die hit the chips"}).json()["id"]
    r = decide(srv, "supervisor", rid)
    assert r.status_code == 200, r.text
    assert stack(srv, t) == before  # the Field bet refunded, its win reversed
    ledger_ok(srv)
    info = srv.client.get(f"/tables/{t}", headers=srv.headers("auditor")).json()
    assert info["status"] == "open"
    (d,) = srv.client.get("/supervisor/disputes", headers=srv.headers("auditor")).json()
    assert (d["evidence"], d["seqs"], d["resolved"], d["request"]) == (
        ["video:cam3/1402"],
        [seq],
        "void",
        rid,
    )
    log = audit_actions(srv)
    for entry in (
        ("supervisor", "freeze"),
        (sam, "request:void"),
        ("supervisor", "approve:void"),
        ("supervisor", "resolve:void"),
    ):
        assert entry in log
    key(srv, t, 2, 3)  # the table goes on


def test_a_rejected_request_changes_nothing_and_a_release_unfreezes(srv: Srv) -> None:
    sam = second_supervisor(srv)
    t = live_craps(srv)
    bet(srv, t, "field", 1_000)
    key(srv, t, 6, 6)
    after = stack(srv, t)
    rid = request(srv, "supervisor", t, {"action": "void", "reason": "?"}).json()["id"]
    r = decide(srv, sam, rid, "reject")
    assert (r.status_code, r.json()["state"]) == (200, "rejected"), r.text
    r = decide(srv, sam, rid)
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-DECIDED")
    assert stack(srv, t) == after
    r = srv.client.post(
        f"/tables/{t}/freeze", json={"note": "check"}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 200
    r = srv.client.post(
        f"/tables/{t}/release", json={"reason": "video clear"}, headers=srv.headers(sam)
    )
    assert (r.status_code, r.json()["status"]) == (200, "open")
    assert ("sam", "release") in audit_actions(srv)
    key(srv, t, 2, 3)


def test_limits_change_from_the_next_round(srv: Srv) -> None:
    t = live_craps(srv)
    bet(srv, t, "pass", 1_000)
    r = srv.client.post(
        f"/tables/{t}/limits",
        json={"min_bet": 5_000, "max_bet": 50_000, "reason": "high limit"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    bet(srv, t, "field", 1_000)  # this round keeps the old limits
    key(srv, t, 6, 6)
    r = srv.cmd("alice", t, "place_bet", {"bet": "field", "amount": 1_000})
    assert r.status_code == 409 and "minimum" in r.json()["message"]
    bet(srv, t, "field", 5_000)
    assert ("supervisor", "limits") in audit_actions(srv)


def test_bad_requests_are_refused_with_their_rule(srv: Srv) -> None:
    t = live_craps(srv)
    bet(srv, t, "field", 1_000)
    seq = key(srv, t, 6, 6)
    cases = [
        ({"action": "correct", "reason": "x"}, 422, "SRV-INPUT"),
        ({"action": "void", "reason": "x", "of_seq": seq}, 422, "SRV-INPUT"),
        (
            {"action": "correct", "reason": "", "of_seq": seq, "args": {"dice": [1, 1]}},
            422,
            "SRV-INPUT",
        ),
        ({"action": "undo", "reason": "x"}, 422, "SRV-INPUT"),
        (
            {"action": "correct", "reason": "x", "of_seq": seq, "args": {"dice": [0, 7]}},
            422,
            None,
        ),
        (
            {"action": "correct", "reason": "x", "of_seq": 1, "args": {"dice": [1, 1]}},
            409,
            None,
        ),
    ]
    for body, status, rule in cases:
        r = request(srv, "supervisor", t, body)
        assert r.status_code == status, (body, r.text)
        if rule:
            assert r.json()["rule"] == rule
    r = request(srv, "supervisor", "hilo-1", {"action": "void", "reason": "x"})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-UNSUPPORTED")
    assert decide(srv, "supervisor", 999).status_code == 404
    # an id past the databases' 64-bit integers (found by tests/server/test_schemathesis.py's
    # run: it was a 500) is refused as input, and so is a recall page past them
    for verdict in ("approve", "reject"):
        for rid in (2**63, 18_487_031_836_967_377_567_744):
            r = decide(srv, "supervisor", rid, verdict)
            assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT"), r.text
    assert decide(srv, "supervisor", 2**63 - 1).status_code == 404
    r = srv.client.get(f"/tables/{t}/recall?before={2**63}", headers=srv.headers("auditor"))
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")
    r = srv.client.post(
        f"/tables/{t}/limits",
        json={"min_bet": 9, "max_bet": 5, "reason": "x"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 422
    r = srv.client.post(
        f"/tables/{t}/freeze",
        json={"note": "x", "seqs": [10**6]},
        headers=srv.headers("supervisor"),
    )
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")
    r = srv.client.post(
        f"/tables/{t}/release", json={"reason": "x"}, headers=srv.headers("supervisor")
    )
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-FROZEN")
    r = srv.client.post(
        "/supervisor/requests/1/approve", json={"reason": "x"}, headers=srv.headers("supervisor")
    )
    assert (r.status_code, r.json()["rule"]) == (400, "SRV-IDEM")
    r = request(srv, "auditor", t, {"action": "void", "reason": "x"})
    assert (r.status_code, r.json()["rule"]) == (403, "SRV-ROLE")
    ledger_ok(srv)


def test_a_baccarat_hand_being_squeezed_is_voided_by_the_engines_own_form(srv: Srv) -> None:
    """BA-10 / BA-R3: the engine's ``void_hand`` (every bet returned), asked and approved."""
    sam = second_supervisor(srv)
    r = srv.client.post(
        "/tables",
        json={"id": "bac-sq", "game": "baccarat", "options": {"squeeze": True}},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    srv.ok("alice", "bac-sq", "join", {"buy_in": 100_000, "seat": 1})

    def alice_may(op: str) -> bool:
        view = srv.client.get("/tables/bac-sq/view", headers=srv.headers("alice")).json()
        return any(op in p["operations"] for p in view["pending"])

    for _ in range(5):  # the clock shuffles and burns (BA-3, BA-4)
        if alice_may("place_bet"):
            break
        assert srv.step("bac-sq")
    srv.ok("alice", "bac-sq", "place_bet", {"bet": "banker", "amount": 10_000})
    before = srv.client.get("/wallet", headers=srv.headers("alice")).json()["stacks"]
    for _ in range(5):  # the clock deals; alice squeezes (BA-16): the hand waits for her
        if alice_may("reveal"):
            break
        assert srv.step("bac-sq")
    r = request(srv, "supervisor", "bac-sq", {"action": "void", "reason": "misdeal"})
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    r = decide(srv, sam, rid)
    assert r.status_code == 200, r.text
    assert "baccarat.hand_voided" in [e["kind"] for e in r.json()["events"]]
    after = srv.client.get("/wallet", headers=srv.headers("alice")).json()["stacks"]
    assert after["stack:bac-sq:alice"] == before["stack:bac-sq:alice"] + 10_000
    ledger_ok(srv)


def test_a_frozen_table_stays_frozen_after_a_restart(srv: Srv) -> None:
    t = live_craps(srv)
    r = srv.client.post(
        f"/tables/{t}/freeze", json={"note": "dispute"}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 200
    with restarted(srv) as back:
        info = back.client.get(f"/tables/{t}", headers=back.headers("auditor")).json()
        assert info["status"] == "frozen"
        r = back.cmd("alice", t, "place_bet", {"bet": "field", "amount": 1_000})
        assert (r.status_code, r.json()["rule"]) == (409, "SRV-FROZEN")
        r = back.client.post(
            f"/tables/{t}/release", json={"reason": "ok"}, headers=back.headers("supervisor")
        )
        assert r.json()["status"] == "open"
        bet(back, t, "field", 1_000)


def test_the_database_refuses_a_self_decision_a_second_decision_and_edits(srv: Srv) -> None:
    """The records hold even if the code did not: CHECK, primary key, append-only."""
    import sqlalchemy as sa

    from macau_tables.server import store

    t = live_craps(srv)
    bet(srv, t, "field", 1_000)
    key(srv, t, 2, 3)
    rid = request(srv, "supervisor", t, {"action": "void", "reason": "x"}).json()["id"]

    def decision(by: str) -> Any:
        return store.decisions_t.insert().values(
            request_id=rid,
            decision="approved",
            decided_by=by,
            requested_by="supervisor",
            reason="x",
            decided_at=0,
            seq=None,
        )

    refused = "constraint|append-only"
    for stmt in (
        decision("supervisor"),
        store.requests_t.update().where(store.requests_t.c.id == rid).values(reason="edited"),
        store.requests_t.delete().where(store.requests_t.c.id == rid),
    ):
        with pytest.raises(Exception, match=f"(?i){refused}"):
            srv.floor.db.write_sync(lambda c, s=stmt: c.execute(s))
    srv.floor.db.write_sync(lambda c: c.execute(decision("sam")))
    with pytest.raises(Exception, match="(?i)unique|duplicate"):
        srv.floor.db.write_sync(lambda c: c.execute(decision("carol")))
    rows = srv.floor.db.read_sync(lambda c: c.execute(sa.select(store.decisions_t)).all())
    assert [r.decided_by for r in rows] == ["sam"]


def test_pause_close_and_unlock_need_a_reason_and_are_audit_logged(srv: Srv) -> None:
    t = live_craps(srv)
    for verb in ("pause", "resume", "close", "unlock"):
        for body in ({}, {"reason": ""}):
            r = srv.client.post(f"/tables/{t}/{verb}", json=body, headers=srv.headers("supervisor"))
            assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT"), verb
    for verb in ("pause", "resume", "close"):
        if verb == "close":
            # alice's chips are seated: the table may not close over them (SRV-CLOSE)
            r = srv.client.post(
                f"/tables/{t}/close", json={"reason": "early"}, headers=srv.headers("supervisor")
            )
            assert (r.status_code, r.json()["rule"]) == (409, "SRV-CLOSE"), r.text
            assert f"stack:{t}:alice" in r.json()["message"]
            srv.ok("alice", t, "leave")
        r = srv.client.post(
            f"/tables/{t}/{verb}",
            json={"reason": f"{verb} for the test"},
            headers=srv.headers("supervisor"),
        )
        assert r.status_code == 200, r.text
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    mine = [(e["action"], e["reason"]) for e in log if e["target"] == t]
    assert [a for a in mine if a[0].startswith("status:")] == [
        ("status:closed", "close for the test"),
        ("status:open", "resume for the test"),
        ("status:paused", "pause for the test"),
    ]
