"""The table server through its HTTP API (SQLite and PostgreSQL), with the Hi-Lo double."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from macau_tables.server import store
from tests.server.conftest import Srv, new_key


def n_postings(srv: Srv) -> int:
    return int(
        srv.floor.db.read_sync(
            lambda c: c.execute(sa.select(sa.func.count()).select_from(store.postings_t))
        ).scalar_one()
    )


def wallet(srv: Srv, who: str) -> dict[str, Any]:
    r = srv.client.get("/wallet", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return dict(r.json())


def ledger_ok(srv: Srv) -> None:
    led = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert led == {"ok": True, "problems": []}


def play_round(srv: Srv, *players: str, amount: int = 1_000) -> dict[str, Any]:
    """Shuffle, each player bets, deal, each reveals; the last reply."""
    assert srv.step("hilo-1")
    for p in players:
        srv.ok(p, "hilo-1", "bet", {"amount": amount})
    assert srv.step("hilo-1")
    last: dict[str, Any] = {}
    for p in players:
        last = srv.ok(p, "hilo-1", "reveal")
    return last


def test_a_round_moves_money_through_holds_and_the_ledger_sums_to_zero(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 50_000})
    assert wallet(srv, "alice") == {"wallet": 950_000, "stacks": {"stack:hilo-1:alice": 50_000}}
    r = play_round(srv, "alice")
    kinds = [e["kind"] for e in r["events"]]
    assert kinds[:2] == ["hilo.card_revealed", "hilo.house_card"]
    assert kinds[-1] == "table.seed_revealed"
    settled = next(e for e in r["events"] if e["kind"] == "hilo.round_settled")["data"]
    [row] = settled["results"]
    stack = 50_000 + {"win": 1_000, "push": 0, "lose": -1_000}[row["result"]]
    assert wallet(srv, "alice")["stacks"] == {"stack:hilo-1:alice": stack}
    ledger_ok(srv)
    srv.ok("alice", "hilo-1", "leave")
    assert wallet(srv, "alice") == {"wallet": 950_000 + stack, "stacks": {"stack:hilo-1:alice": 0}}
    ledger_ok(srv)


def test_the_clock_times_out_a_player_by_the_rules_default(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 5_000})
    srv.ok("bob", "hilo-1", "join", {"amount": 5_000})
    assert srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 500})
    srv.ok("bob", "hilo-1", "bet", {"amount": 700})
    assert srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "reveal")
    assert srv.step("hilo-1")  # bob does not reveal: the rules do (HL-3)
    ev = srv.client.get("/tables/hilo-1/events", headers=srv.headers("bob")).json()
    timed = [e for e in ev if e["kind"] == "table.timed_out"]
    assert [t["data"] for t in timed] == [{"actor": "player:bob", "op": "reveal", "rule": "HL-3"}]
    [settled] = [e["data"] for e in ev if e["kind"] == "hilo.round_settled"]
    assert sorted(r["player"] for r in settled["results"]) == ["alice", "bob"]
    ledger_ok(srv)


def test_the_same_idempotency_key_returns_the_first_response_and_moves_money_once(
    srv: Srv,
) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 10_000})
    srv.step("hilo-1")
    first = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="bet-1")
    again = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="bet-1")
    assert first.status_code == again.status_code == 200
    # byte for byte: the record keeps the bytes first sent (not a re-rendering of them)
    assert first.content == again.content
    assert wallet(srv, "alice")["stacks"]["stack:hilo-1:alice"] == 9_000
    other = srv.cmd("alice", "hilo-1", "bet", {"amount": 2_000}, key="bet-1")
    assert other.status_code == 409
    assert other.json()["rule"] == "SRV-IDEM"
    # the same for the cashier
    h = srv.headers("cashier", "dep-1")
    a = srv.client.post("/cashier/deposit", json={"player": "bob", "amount": 100}, headers=h)
    b = srv.client.post("/cashier/deposit", json={"player": "bob", "amount": 100}, headers=h)
    assert a.json() == b.json() == {"account": "player:bob", "balance": 1_000_100}
    c = srv.client.post("/cashier/deposit", json={"player": "bob", "amount": 5}, headers=h)
    assert c.status_code == 409


def test_a_refused_command_is_idempotent_too(srv: Srv) -> None:
    r1 = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="x")
    r2 = srv.cmd("alice", "hilo-1", "bet", {"amount": 1_000}, key="x")
    assert r1.status_code == r2.status_code == 409
    assert r1.content == r2.content
    assert r1.json()["rule"] == "HL-0"


@pytest.mark.parametrize(
    ("op", "args", "status", "rule"),
    [
        ("bet", {"amount": -100}, 422, "HL-1"),
        ("bet", {"amount": 0}, 422, "HL-1"),
        ("bet", {"amount": 10.5}, 422, "SRV-AMOUNT"),
        ("bet", {"amount": 10**30}, 422, "SRV-AMOUNT"),
        ("bet", {"amount": "100"}, 422, "HL-1"),
        ("bet", {"amount": 10**12}, 409, "HL-1"),
        ("bet", {"amount": 100, "spot": "x"}, 422, None),
        ("bet", {"amount": 999_999}, 409, "HL-1"),
        ("fly", {}, 422, "HL-0"),
        ("time_out", {"actor": "player:alice", "op": "reveal"}, 403, "SRV-ROLE"),
        ("shuffle", {"seed": "00" * 32}, 422, "SRV-SEED"),
        ("reveal", {}, 409, "HL-3"),
        ("withdraw", {"bet_id": "b999"}, 409, "HL-1"),
    ],
)
def test_bad_input_is_a_4xx_naming_the_rule_and_never_a_posting(
    srv: Srv, op: str, args: dict[str, Any], status: int, rule: str | None
) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 20_000})
    srv.step("hilo-1")
    before = n_postings(srv)
    r = srv.cmd("alice", "hilo-1", op, args)
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "rule", "message"}
    if rule is not None:
        assert body["rule"] == rule
    assert n_postings(srv) == before
    ledger_ok(srv)


def test_bad_requests_outside_the_engine(srv: Srv) -> None:
    h = srv.headers("alice", new_key())
    r = srv.client.post("/tables/nope/commands", json={"op": "bet", "args": {}}, headers=h)
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-TABLE")
    r = srv.client.post("/tables/hilo-1/commands", json={"op": "bet"}, headers=srv.headers("alice"))
    assert (r.status_code, r.json()["rule"]) == (400, "SRV-IDEM")
    r = srv.client.post("/tables/hilo-1/commands", json={"op": "Bet!"}, headers=h)
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")
    r = srv.client.post("/tables/hilo-1/commands", json={"op": "bet", "x": 1}, headers=h)
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT")
    r = srv.client.post(
        "/tables/hilo-1/commands",
        content=b"{not json",
        headers={**h, "Content-Type": "application/json"},
    )
    assert r.status_code == 422
    r = srv.client.get("/tables/hilo-1/view")
    assert (r.status_code, r.json()["rule"]) == (401, "SRV-AUTH")
    r = srv.client.get("/tables/hilo-1/view", headers={"Authorization": "Bearer nope"})
    assert r.status_code == 401
    r = srv.client.post("/auth/login", json={"name": "alice", "password": "wrong-password"})
    assert (r.status_code, r.json()["rule"]) == (401, "SRV-AUTH")
    r = srv.client.get("/no/such/path", headers=srv.headers("alice"))
    assert r.status_code == 404


def test_a_stale_command_is_refused(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 20_000})
    srv.step("hilo-1")
    seq = srv.client.get("/tables/hilo-1", headers=srv.headers("alice")).json()["seq"]
    srv.ok("bob", "hilo-1", "join", {"amount": 20_000})
    r = srv.cmd("alice", "hilo-1", "bet", {"amount": 100}, expect_seq=seq)
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-STALE")
    r = srv.cmd("alice", "hilo-1", "bet", {"amount": 100}, expect_seq=seq + 2)
    assert r.status_code == 200, r.text


def test_a_buy_in_beyond_the_wallet_is_refused_and_the_table_is_unchanged(srv: Srv) -> None:
    before = n_postings(srv)
    r = srv.cmd("alice", "hilo-1", "join", {"amount": 2_000_000})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-FUNDS")
    assert n_postings(srv) == before
    view = srv.client.get("/tables/hilo-1/view", headers=srv.headers("alice")).json()
    assert view["view"]["players"] == []
    srv.ok("alice", "hilo-1", "join", {"amount": 1_000_000})  # the engine was rebuilt
    ledger_ok(srv)


def test_cashier_withdraw_cannot_overdraw_and_unknown_players_are_404(srv: Srv) -> None:
    h = srv.headers("cashier", new_key())
    r = srv.client.post("/cashier/withdraw", json={"player": "bob", "amount": 2_000_000}, headers=h)
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-FUNDS")
    h = srv.headers("cashier", new_key())
    r = srv.client.post("/cashier/withdraw", json={"player": "bob", "amount": 400_000}, headers=h)
    assert r.json() == {"account": "player:bob", "balance": 600_000}
    for bad in ({"player": "zed", "amount": 1}, {"player": "dealer", "amount": 1}):
        r = srv.client.post("/cashier/deposit", json=bad, headers=srv.headers("cashier", new_key()))
        assert (r.status_code, r.json()["rule"]) == (404, "SRV-PLAYER")
    for amount in (-1, 0, 1.5, 10**13):
        r = srv.client.post(
            "/cashier/deposit",
            json={"player": "bob", "amount": amount},
            headers=srv.headers("cashier", new_key()),
        )
        assert r.status_code == 422
    ledger_ok(srv)


def test_a_paused_table_refuses_players_and_resumes(srv: Srv) -> None:
    h = srv.headers("supervisor")
    r = srv.client.post("/tables/hilo-1/pause", json={"reason": "shift change"}, headers=h)
    assert r.json()["status"] == "paused"
    r = srv.cmd("alice", "hilo-1", "join", {"amount": 100})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-STATUS")
    srv.client.post("/tables/hilo-1/resume", json={"reason": "back"}, headers=h)
    srv.ok("alice", "hilo-1", "join", {"amount": 100})
    log = srv.client.get("/audit/log", headers=h).json()
    assert [e["action"] for e in log[:2]] == ["status:open", "status:paused"]


def test_a_table_closes_only_once_no_players_money_is_on_it(srv: Srv) -> None:
    """A closed table takes no command again, leave included: closing it with chips seated
    or a bet in play would strand them (SRV-CLOSE). The way out: pause, players leave."""
    h = srv.headers("supervisor")
    srv.ok("alice", "hilo-1", "join", {"amount": 10_000})
    srv.step("hilo-1")
    srv.ok("alice", "hilo-1", "bet", {"amount": 1_000})
    r = srv.client.post("/tables/hilo-1/close", json={"reason": "end of shift"}, headers=h)
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-CLOSE")
    assert "stack:hilo-1:alice MOP 90.00" in r.json()["message"]
    assert "wagers:hilo-1 MOP 10.00" in r.json()["message"]
    assert srv.client.get("/tables/hilo-1", headers=h).json()["status"] == "open"
    log = srv.client.get("/audit/log", headers=h).json()
    assert not [e for e in log if e["action"] == "status:closed"]
    # paused: no new bet, but a player may leave — once his bet has been settled
    r = srv.client.post("/tables/hilo-1/pause", json={"reason": "closing"}, headers=h)
    assert r.json()["status"] == "paused"
    r = srv.cmd("alice", "hilo-1", "leave")
    assert r.status_code == 409 and r.json()["rule"] != "SRV-STATUS"  # the engine's refusal
    srv.client.post("/tables/hilo-1/resume", json={"reason": "finish the round"}, headers=h)
    for _ in range(4):  # betting closes, the card is dealt, the clock reveals it (HL-3)
        if not srv.floor.db.read_sync(lambda c: store.balance(c, "wagers:hilo-1")):
            break
        srv.step("hilo-1")
    assert srv.floor.db.read_sync(lambda c: store.balance(c, "wagers:hilo-1")) == 0
    srv.client.post("/tables/hilo-1/pause", json={"reason": "closing"}, headers=h)
    r = srv.cmd("bob", "hilo-1", "join", {"amount": 100})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-STATUS")
    before = wallet(srv, "alice")
    held = before["stacks"]["stack:hilo-1:alice"]
    assert held in (9_000, 10_000, 11_000)  # lost, pushed or won the round
    srv.ok("alice", "hilo-1", "leave")
    after = wallet(srv, "alice")
    assert after["stacks"] == {"stack:hilo-1:alice": 0}
    assert after["wallet"] == before["wallet"] + held
    r = srv.client.post("/tables/hilo-1/close", json={"reason": "end of shift"}, headers=h)
    assert r.status_code == 200 and r.json()["status"] == "closed", r.text
    r = srv.cmd("alice", "hilo-1", "leave")
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-STATUS")
    ledger_ok(srv)


def test_create_table_and_per_op_route(srv: Srv) -> None:
    h = srv.headers("supervisor")
    r = srv.client.post("/tables", json={"id": "hilo-2", "game": "hilo"}, headers=h)
    assert r.status_code == 200, r.text
    r = srv.client.post("/tables", json={"id": "hilo-2", "game": "hilo"}, headers=h)
    assert r.status_code == 409
    r = srv.client.post("/tables", json={"id": "x", "game": "chess"}, headers=h)
    assert r.status_code == 422
    r = srv.client.post(
        "/tables/hilo-2/ops/join", json={"amount": 300}, headers=srv.headers("bob", new_key())
    )
    assert r.status_code == 200, r.text
    assert wallet(srv, "bob")["stacks"] == {"stack:hilo-2:bob": 300}


def test_the_journal_export_verifies_and_hides_no_seed_still_secret(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 20_000})
    play_round(srv, "alice")
    srv.step("hilo-1")  # the next shuffle: committed, not revealed
    j = srv.client.get("/audit/tables/hilo-1/journal", headers=srv.headers("auditor")).json()
    from macau_tables.core.journal import Journal

    journal = Journal.from_json(j)
    assert (
        journal.head
        == srv.client.get("/tables/hilo-1", headers=srv.headers("alice")).json()["head"]
    )
    secret = srv.floor.db.read_sync(lambda c: store.table_seeds(c, "hilo-1"))
    text = str(j)
    revealed = [e for e in j["entries"] if e["event"]["kind"] == "table.seed_revealed"]
    assert len(secret) == 2 and len(revealed) == 1
    hidden = [s.hex() for s in secret.values() if s.hex() != revealed[0]["event"]["data"]["seed"]]
    assert hidden and hidden[0] not in text


def test_a_bug_is_answered_with_the_json_error_body_and_logged(
    srv: Srv, caplog: pytest.LogCaptureFixture
) -> None:
    """Never Starlette's plain-text 500: a bug gets the body every error has, an incident
    id, and the traceback in the log under that id."""

    async def boom() -> None:
        raise RuntimeError("a bug")

    srv.client.app.add_api_route("/boom", boom)  # type: ignore[attr-defined]
    client = TestClient(srv.client.app, raise_server_exceptions=False)
    r = client.get("/boom")
    assert r.status_code == 500
    body = r.json()
    assert (body["error"], body["rule"]) == ("internal", "SRV-INTERNAL")
    incident = body["message"].split("incident ")[1].split(",")[0]
    assert any(
        f"incident {incident}" in rec.getMessage() and rec.exc_info for rec in caplog.records
    )
    r = client.get("/no/such/path")
    assert (r.status_code, r.json()["rule"]) == (404, "SRV-404")
    r = client.delete("/wallet")
    assert (r.status_code, r.json()["rule"]) == (405, "SRV-INPUT")


def test_the_same_key_sent_twice_at_once_moves_money_once(srv: Srv) -> None:
    """Deposits with one key at the same moment (a client's retry racing its first try):
    the money moves once and every try gets the recorded answer (on PostgreSQL the tries
    that lost the race on the idempotency key run again and find it; never a 500)."""
    from concurrent.futures import ThreadPoolExecutor

    body = {"player": "bob", "amount": 700}
    start = wallet(srv, "bob")["wallet"]
    for attempt in range(5):
        h = srv.headers("cashier", f"race-{attempt}")
        with ThreadPoolExecutor(4) as pool:
            answers = list(
                pool.map(
                    lambda h: srv.client.post("/cashier/deposit", json=body, headers=h), [h] * 4
                )
            )
        # the tries that lose the race on PostgreSQL run again and find the record
        assert [r.status_code for r in answers] == [200] * 4, [r.text for r in answers]
        again = srv.client.post("/cashier/deposit", json=body, headers=h)
        assert again.status_code == 200
        assert all(r.content == again.content for r in answers)  # the recorded answer
        assert wallet(srv, "bob")["wallet"] == start + 700 * (attempt + 1)
    ledger_ok(srv)
