"""The supervisor's corrections at a live baccarat table through the API, on
SQLite and PostgreSQL: a mis-keyed card of the last hand corrected with a second
supervisor's approval (BA-1 checked, the hand re-derived and re-settled by the rules, the
money what the right cards would have given), the last hand settled voided (every bet
refunded, BA-R3), the journal replaying and the ledger at zero after a restart."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Srv
from tests.server.test_dealer import refused, stack, whole
from tests.server.test_recovery import restarted
from tests.server.test_supervisor import decide, ledger_ok, request, second_supervisor


def table(srv: Srv, name: str) -> str:
    r = srv.client.post(
        "/tables",
        json={"id": name, "game": "baccarat", "dealer": "live", "options": {"decks": 6}},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    srv.ok("alice", name, "join", {"buy_in": 100_000})
    srv.ok("dealer", name, "open_shoe")
    srv.ok("dealer", name, "cut", {"from_end": 20})
    srv.ok("alice", name, "place_bet", {"bet": "player", "amount": 10_000})
    return name


def deal(srv: Srv, t: str, cards: list[str]) -> int:
    """The dealer keys in the deal (BA-7.1); the seq of the keyed cards."""
    out = srv.ok("dealer", t, "deal", {"cards": cards})
    return int(next(e["seq"] for e in out["events"] if e["kind"] == "baccarat.cards_keyed"))


def approve(srv: Srv, sam: str, t: str, body: dict[str, Any]) -> list[dict[str, Any]]:
    r = request(srv, "supervisor", t, body)
    assert r.status_code == 200, r.text
    r = decide(srv, sam, r.json()["id"])
    assert r.status_code == 200, r.text
    return list(r.json()["events"])


def test_a_mis_keyed_natural_is_corrected_with_a_second_approval(srv: Srv) -> None:
    """Keyed 9h (Player 9, a natural: Player wins), the card was 4h: Player 4 draws
    (BA-9.1); the correction reverses the win, the dealer keys the third card, the Banker's
    7 wins; the money is what the right key-in gives, after a restart too."""
    sam = second_supervisor(srv)
    t, right = table(srv, "bac-wrong"), table(srv, "bac-right")
    wrong = deal(srv, t, ["9h", "2c", "Kd", "5s"])
    assert stack(srv, "alice", t) == 110_000
    deal(srv, right, ["4h", "2c", "Kd", "5s"])
    body = {"action": "correct", "of_seq": wrong, "reason": "mis-keyed"}
    # BA-7.1: a deal is four cards; refused when asked, nothing recorded
    r = request(srv, "supervisor", t, {**body, "args": {"cards": ["9h", "2c", "Kd"]}})
    refused(srv, t, r, 422, "BA-7.1")
    events = approve(srv, sam, t, {**body, "args": {"cards": ["4h", "2c", "Kd", "5s"]}})
    (corrected,) = [e for e in events if e["kind"] == "table.round_corrected"]
    assert corrected["data"]["approved_by"] == sam
    assert stack(srv, "alice", t) == 90_000  # the stake back on the layout, not paid
    for table_id in (t, right):
        srv.ok("dealer", table_id, "draw", {"card": "Ks"})  # Player 4; Banker 7 stands
    assert stack(srv, "alice", t) == stack(srv, "alice", right) == 90_000
    ledger_ok(srv)
    whole(srv, t)
    with restarted(srv) as back:
        assert stack(back, "alice", t) == 90_000
        ledger_ok(back)
        back.ok("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
        deal(back, t, ["9c", "2d", "Kh", "5c"])
        assert stack(back, "alice", t) == 100_000


def test_ba_1_a_correction_the_shoe_cannot_hold_is_refused(srv: Srv) -> None:
    t = table(srv, "bac-ba1")
    srv.ok("dealer", t, "deal", {"cards": ["As"] * 4})  # Player 2, Banker 2: both draw
    srv.ok("dealer", t, "draw", {"card": "As"})
    srv.ok("dealer", t, "draw", {"card": "As"})  # six decks: six aces of spades
    srv.ok("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
    wrong = deal(srv, t, ["9h", "2c", "Kd", "5s"])
    r = request(
        srv,
        "supervisor",
        t,
        {"action": "correct", "of_seq": wrong, "args": {"cards": ["As", "2c", "Kd", "5s"]},
         "reason": "x"},
    )  # fmt: skip
    refused(srv, t, r, 422, "BA-1")
    pending = srv.client.get(
        "/supervisor/requests", params={"table": t}, headers=srv.headers("auditor")
    ).json()
    assert pending == []
    ledger_ok(srv)


def test_ba_r3_the_last_hand_settled_is_voided_every_bet_refunded(srv: Srv) -> None:
    sam = second_supervisor(srv)
    t = table(srv, "bac-void")
    deal(srv, t, ["9h", "2c", "Kd", "5s"])  # Player wins
    assert stack(srv, "alice", t) == 110_000
    events = approve(srv, sam, t, {"action": "void", "reason": "dealt from the wrong shoe"})
    assert [e["kind"] for e in events] == ["table.round_voided"]
    assert stack(srv, "alice", t) == 100_000
    r = request(srv, "supervisor", t, {"action": "void", "reason": "again"})
    assert r.status_code == 409, r.text  # voided already: nothing left to void
    ledger_ok(srv)
    whole(srv, t)
    with restarted(srv) as back:
        assert stack(back, "alice", t) == 100_000
        ledger_ok(back)
