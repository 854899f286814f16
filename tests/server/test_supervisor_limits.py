"""A supervisor's new limits at baccarat and the tile tables through the API, on
SQLite and PostgreSQL: ``POST /tables/{id}/limits`` writes ``table.limits_changed`` and its
audit line in one transaction; the hand or round under way keeps its limits, the next one
refuses a bet outside the new ones (BA-13, BA-14; a tile table's bet on a place); a refused
change is a 4xx naming its rule that records nothing; the journal replays after a restart."""

from __future__ import annotations

from typing import Any

from tests.server.conftest import Srv
from tests.server.test_dealer import TILES, refused, whole
from tests.server.test_recovery import restarted
from tests.server.test_supervisor_baccarat import deal
from tests.server.test_supervisor_baccarat import table as baccarat_table
from tests.server.test_supervisor_tiles import hands, settle
from tests.server.test_supervisor_tiles import table as paigow_table

NATURAL = ["9h", "2c", "Kd", "5s"]  # Player 9, Banker 7: the hand settles at once (BA-9.2)


def post_limits(srv: Srv, t: str, body: dict[str, Any], who: str = "supervisor") -> Any:
    return srv.client.post(f"/tables/{t}/limits", json=body, headers=srv.headers(who))


def audit_limits(srv: Srv) -> list[dict[str, Any]]:
    r = srv.client.get("/audit/log", headers=srv.headers("auditor"))
    return [e for e in r.json() if e["action"] == "limits"]


def view(srv: Srv, t: str, who: str = "supervisor") -> dict[str, Any]:
    r = srv.client.get(f"/tables/{t}/view", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return dict(r.json()["view"])


def head(srv: Srv, t: str) -> int:
    return int(srv.floor.tables[t].seq)


def test_baccarat_limits_from_the_next_hand(srv: Srv) -> None:
    """alice's MOP 100 Player bet is on the layout: the new limits (Player / Banker MOP 200
    – 500, Tie MOP 200 – 300, a MOP 400 difference) wait for the hand; then a MOP 100 bet
    is refused (BA-13), and so is a difference over MOP 400 (BA-14)."""
    t = baccarat_table(srv, "bac-lim")
    body = {
        "min_bet": 20_000, "max_bet": 50_000, "bets": {"tie": [20_000, 30_000]},
        "differential": 40_000, "reason": "high-limit table",
    }  # fmt: skip
    r = post_limits(srv, t, body)
    assert r.status_code == 200, r.text
    (ev,) = [e for e in r.json()["events"] if e["kind"] == "table.limits_changed"]
    assert ev["data"]["bets"] == {"tie": [20_000, 30_000]} and ev["data"]["differential"] == 40_000
    (line,) = audit_limits(srv)
    assert (line["user"], line["target"], line["reason"]) == ("supervisor", t, "high-limit table")
    assert view(srv, t, "alice")["next_limits"]["min_bet"] == 20_000
    srv.ok("alice", t, "place_bet", {"bet": "tie", "amount": 10_000})  # this hand: old limits
    deal(srv, t, NATURAL)
    r = srv.cmd("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
    refused(srv, t, r, 409, "BA-13")
    r = srv.cmd("alice", t, "place_bet", {"bet": "tie", "amount": 40_000})
    refused(srv, t, r, 409, "BA-13")
    r = srv.cmd("alice", t, "place_bet", {"bet": "player", "amount": 50_000})
    refused(srv, t, r, 409, "BA-14")  # Banker 0, Player 500: over the MOP 400 difference
    srv.ok("alice", t, "place_bet", {"bet": "player", "amount": 30_000})
    whole(srv, t)
    with restarted(srv) as back:
        r = back.cmd("alice", t, "place_bet", {"bet": "banker", "amount": 10_000})
        refused(back, t, r, 409, "BA-13")
        back.ok("alice", t, "place_bet", {"bet": "banker", "amount": 20_000})
        whole(back, t)


def test_a_refused_change_posts_nothing(srv: Srv) -> None:
    t = baccarat_table(srv, "bac-bad")
    seq = head(srv, t)
    cases = [
        ({"min_bet": 50_000, "max_bet": 20_000}, 422, "BA-13"),
        ({"min_bet": 100, "max_bet": 200, "bets": {"player": [100, 200]}}, 422, "BA-13"),
        ({"min_bet": 100, "max_bet": 200, "bets": {"tie": [300, 200]}}, 422, "BA-13"),
        ({"min_bet": 100, "max_bet": 200, "bets": {"tie": [0, 200]}}, 422, "SRV-INPUT"),
        ({"min_bet": 100, "max_bet": 200, "differential": 0}, 422, "SRV-INPUT"),
        ({"min_bet": 0, "max_bet": 200}, 422, "SRV-INPUT"),
    ]
    for limits, status, rule in cases:
        r = post_limits(srv, t, {**limits, "reason": "x"})
        assert (r.status_code, r.json()["rule"]) == (status, rule), (limits, r.text)
    for who in ("dealer", "auditor", "alice"):
        r = post_limits(srv, t, {"min_bet": 100, "max_bet": 200, "reason": "x"}, who)
        assert (r.status_code, r.json()["rule"]) == (403, "SRV-ROLE"), who
    r = srv.cmd("supervisor", t, "change_limits", {"min_bet": 100, "max_bet": 200, "reason": "x"})
    assert (r.status_code, r.json()["rule"]) == (403, "SRV-APPROVAL")  # not through /commands
    assert head(srv, t) == seq
    assert audit_limits(srv) == []
    whole(srv, t)


def open_round(srv: Srv, t: str) -> tuple[str, int]:
    """The seat offered the bank opens it (PG-4.4), the dealer builds a physical woodpile
    (PG-1.1); the other player and his seat."""
    offer = view(srv, t)["bank_offer"]
    seats = view(srv, t)["seats"]
    banker = seats[str(offer["seat"])]
    srv.ok(banker, t, "open_bank", {"capital": max(offer["min_capital"], 20_000)})
    srv.ok("dealer", t, "build_woodpile")
    seat, other = next((int(s), p) for s, p in seats.items() if p != banker)
    return other, seat


def test_paigow_limits_from_the_next_round(srv: Srv) -> None:
    """Between rounds a change applies at once; one made while the round's bets are being
    placed waits for its settlement (the round keeps its limits), then the next round
    refuses a bet outside the new ones. A tile table has no baccarat limits (PG-4.6)."""
    t = paigow_table(srv, "pg-lim")
    r = post_limits(srv, t, {"min_bet": 5_000, "max_bet": 20_000, "reason": "evening"})
    assert r.status_code == 200, r.text
    assert view(srv, t)["rules"]["round"]["max_bet"] == 20_000
    who, seat = open_round(srv, t)
    r = post_limits(srv, t, {"min_bet": 20_000, "max_bet": 40_000, "reason": "high limit"})
    assert r.status_code == 200, r.text
    assert view(srv, t, who)["next_limits"] == {"min_bet": 20_000, "max_bet": 40_000}
    r = srv.cmd(who, t, "place_bet", {"seat": seat, "amount": 30_000})  # over this round's
    assert r.status_code == 409 and "maximum" in r.json()["message"], r.text
    srv.ok(who, t, "place_bet", {"seat": seat, "amount": 10_000})
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands(TILES)})
    settle(srv, t)
    assert view(srv, t)["rules"]["round"]["min_bet"] == 20_000
    who, seat = open_round(srv, t)
    r = srv.cmd(who, t, "place_bet", {"seat": seat, "amount": 10_000})
    assert r.status_code == 409 and "minimum" in r.json()["message"], r.text
    srv.ok(who, t, "place_bet", {"seat": seat, "amount": 20_000})
    seq = head(srv, t)
    r = post_limits(srv, t, {"min_bet": 100, "max_bet": 200, "differential": 500, "reason": "x"})
    refused(srv, t, r, 422, "PG-4.6")
    assert head(srv, t) == seq
    assert [e["target"] for e in audit_limits(srv)] == [t, t]
    whole(srv, t)
    with restarted(srv) as back:
        assert view(back, t)["rules"]["round"]["min_bet"] == 20_000
        whole(back, t)


def test_a_game_without_limits_still_answers_unsupported(srv: Srv) -> None:
    r = post_limits(srv, "hilo-1", {"min_bet": 100, "max_bet": 200, "reason": "x"})
    assert (r.status_code, r.json()["rule"]) == (409, "SRV-UNSUPPORTED")
