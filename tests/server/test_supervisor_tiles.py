"""The supervisor's corrections at a live Pai Gow / Taiwan Pai Kao table through the API,
on SQLite and PostgreSQL: the dealer's keyed-in deal corrected with a second
supervisor's approval (PG-1.4, T-1 checked; the round re-dealt and re-settled by the rules),
the last round voided (every bet and the bank's capital refunded, the woodpile ended); the
ledger at zero and the journal replaying."""

from __future__ import annotations

from typing import Any

import pytest

from tests.server.conftest import Srv
from tests.server.test_dealer import TILES, dealer_ops, default, pending, refused, stack, whole
from tests.server.test_supervisor import decide, ledger_ok, request, second_supervisor


def hands(tiles: list[str]) -> dict[str, list[str]]:
    return {str(s): tiles[4 * (s - 1) : 4 * s] for s in range(1, 9)}


def round_keyed(srv: Srv, t: str, tiles: list[str], capital: int = 50_000) -> int:
    """The bank opened, a physical woodpile, bob's bet, the deal keyed in; the seq of the
    keyed hands."""
    srv.ok("alice", t, "open_bank", {"capital": capital})
    srv.ok("dealer", t, "build_woodpile")
    srv.ok("bob", t, "place_bet", {"seat": 2, "amount": 10_000})
    out = srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands(tiles)})
    return int(next(e["seq"] for e in out["events"] if e["kind"] == "tiletable.hands_keyed"))


def settle(srv: Srv, t: str) -> None:
    """The dealer applies the rules' defaults (the house way) and turns the hands."""
    for _ in range(4):
        waiting = [p for p in pending(srv, t) if p["default"] == "set_tiles"]
        if not waiting:
            break
        r = default(srv, t, waiting[0]["actor"], "set_tiles")
        assert r.status_code == 200, r.text
    assert dealer_ops(srv, t) == ["settle"]
    srv.ok("dealer", t, "settle")


def table(srv: Srv, name: str) -> str:
    r = srv.client.post(
        "/tables",
        json={"id": name, "game": "paigow", "dealer": "live"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    for seat, who in ((1, "alice"), (2, "bob")):
        srv.ok(who, name, "sit", {"seat": seat})
        srv.ok(who, name, "buy_in", {"amount": 100_000})
    return name


def approve(srv: Srv, sam: str, t: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    r = request(srv, "supervisor", t, body)
    assert r.status_code == 200, r.text
    r = decide(srv, sam, r.json()["id"])
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


SWAPPED = TILES[4:8] + TILES[:4] + TILES[8:]  # seat 1's and seat 2's hands keyed swapped


def test_a_mis_keyed_deal_is_corrected_with_a_second_approval(srv: Srv) -> None:
    sam = second_supervisor(srv)
    t, right = table(srv, "pg-wrong"), table(srv, "pg-right")
    wrong = round_keyed(srv, t, SWAPPED)
    round_keyed(srv, right, TILES)
    settle(srv, t)
    settle(srv, right)
    assert stack(srv, "bob", t) != stack(srv, "bob", right)
    body = {"action": "correct", "of_seq": wrong, "reason": "seats swapped on the keypad"}
    twice = {**hands(TILES), "3": hands(TILES)["2"]}
    r = request(srv, "supervisor", t, {**body, "args": {"hands": twice}})
    refused(srv, t, r, 422, "T-1")  # refused when asked: nothing recorded
    events = approve(srv, sam, t, {**body, "args": {"hands": hands(TILES)}})
    (corrected,) = [e for e in events if e["kind"] == "table.round_corrected"]
    assert corrected["data"]["approved_by"] == sam
    for who in ("alice", "bob"):
        assert stack(srv, who, t) == stack(srv, who, right)
    ledger_ok(srv)
    whole(srv, t)
    # the table plays on (PG-4.9: the banker keeps the bank with at least what is left)
    round_keyed(srv, t, TILES, capital=stack(srv, "alice", t) - 40_000)
    settle(srv, t)
    ledger_ok(srv)


@pytest.mark.parametrize("settled", [True, False])
def test_the_last_round_is_voided_every_bet_and_the_capital_refunded(
    srv: Srv, settled: bool
) -> None:
    sam = second_supervisor(srv)
    t = table(srv, "pg-void")
    round_keyed(srv, t, SWAPPED)
    if settled:
        settle(srv, t)
    events = approve(srv, sam, t, {"action": "void", "reason": "the woodpile was disturbed"})
    kinds = [e["kind"] for e in events]
    assert kinds == ["table.round_voided"] + ([] if settled else ["tiletable.woodpile_ended"])
    assert stack(srv, "alice", t) == stack(srv, "bob", t) == 100_000
    r = request(srv, "supervisor", t, {"action": "void", "reason": "again"})
    assert r.status_code == 409, r.text  # nothing left to void
    ledger_ok(srv)
    whole(srv, t)
    round_keyed(srv, t, TILES)  # a new woodpile, new holds
    settle(srv, t)
    ledger_ok(srv)
    whole(srv, t)
