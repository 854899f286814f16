"""The table server through its HTTP API, with the Hi-Lo test double."""

from __future__ import annotations

from tests.server.conftest import Srv


def test_a_round_moves_money_through_holds_and_the_ledger_sums_to_zero(srv: Srv) -> None:
    srv.ok("alice", "hilo-1", "join", {"amount": 50_000})
    assert srv.step("hilo-1")  # the dealer shuffles: a committed seed
    srv.ok("alice", "hilo-1", "bet", {"amount": 1_000})
    assert srv.step("hilo-1")  # the window closes: deal
    r = srv.ok("alice", "hilo-1", "reveal")
    kinds = [e["kind"] for e in r["events"]]
    assert kinds[:2] == ["hilo.card_revealed", "hilo.house_card"]
    assert "table.seed_revealed" in kinds
    led = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert led == {"ok": True, "problems": []}
