"""Dealer-operated (live) tables through the API, on SQLite and PostgreSQL (the
dealer's part): the dealer drives the dealer's operations in the order ``pending()`` gives
and keys in what the physical table shows — craps dice (CR-1), baccarat cards card by card
(BA-1, BA-7.1, BA-9), Pai Gow / Taiwan hands from a physical woodpile (PG-1.4, T-1); the
engine refuses what the table cannot hold, naming the rule, and nothing is recorded; the
clock times nobody out at a live table unless its settings ask for it, and the dealer may
apply a waiting player's default (audited)."""

from __future__ import annotations

from typing import Any

import pytest

from macau_tables.games.contract import rounds
from macau_tables.server import store
from macau_tables.server.recall import round_index
from macau_tables.tiles import FULL_SET
from tests.server.conftest import Srv, new_key
from tests.server.test_recovery import restarted

TILES = [str(t) for t in FULL_SET]


def live(srv: Srv, game: str, **extra: Any) -> str:
    table_id = f"{game}-live"
    body = {"id": table_id, "game": game, "dealer": "live", **extra}
    r = srv.client.post("/tables", json=body, headers=srv.headers("supervisor"))
    assert r.status_code == 200, r.text
    return table_id


def pending(srv: Srv, table: str, who: str = "dealer") -> list[dict[str, Any]]:
    r = srv.client.get(f"/tables/{table}/view", headers=srv.headers(who))
    assert r.status_code == 200, r.text
    return list(r.json()["pending"])


def dealer_ops(srv: Srv, table: str) -> list[str]:
    return [op for p in pending(srv, table) if p["actor"] == "dealer" for op in p["operations"]]


def default(srv: Srv, table: str, actor: str, op: str, who: str = "dealer") -> Any:
    return srv.client.post(
        f"/tables/{table}/dealer/default",
        json={"actor": actor, "op": op},
        headers=srv.headers(who, new_key()),
    )


def whole(srv: Srv, table: str) -> None:
    """The ledger checks out and sums to zero; the table's journal, read back from the
    database, replays through the rules to the same head (``contract.replay``)."""
    r = srv.client.get("/audit/ledger", headers=srv.headers("auditor"))
    assert r.json() == {"ok": True, "problems": []}
    balances = srv.client.portal.call(srv.floor.db.read, lambda c: store.balances_like(c, ""))  # type: ignore[union-attr]
    assert sum(balances.values()) == 0
    actor = srv.floor.tables[table]
    engine = srv.client.portal.call(srv.floor.db.read, actor.load)  # type: ignore[union-attr]
    assert engine.journal.head == actor.head
    assert actor.seq == len(engine.journal) - 1

    def rounds_both_ways(c: Any) -> tuple[Any, Any]:
        journal = store.load_journal(c, table, actor.game.name, actor.header)
        return round_index(c, table), rounds(journal.events)

    # the recall's round index, from the marking entries the database selects by kind (its
    # voids and corrections parsed), is the rounds of the whole journal's events
    by_kind, by_events = srv.floor.db.read_sync(rounds_both_ways)
    assert by_kind == by_events


def refused(srv: Srv, table: str, r: Any, status: int, rule: str) -> None:
    """A refusal names the rule; nothing was recorded."""
    assert (r.status_code, r.json()["rule"]) == (status, rule), r.text
    assert set(r.json()) == {"error", "rule", "message"}


def stack(srv: Srv, who: str, table: str) -> int:
    stacks = srv.client.get("/wallet", headers=srv.headers(who)).json()["stacks"]
    return int(stacks[f"stack:{table}:{who}"])


# --- craps ----------------------------------------------------------------------------------


def test_a_live_craps_round_with_keyed_dice_and_the_dealer_applying_a_default(srv: Srv) -> None:
    t = live(srv, "craps")
    srv.ok("alice", t, "join", {"amount": 100_000})
    srv.ok("bob", t, "join", {"amount": 100_000})
    srv.ok("alice", t, "place_bet", {"bet": "pass", "amount": 1_000})
    srv.ok("bob", t, "place_bet", {"bet": "dont_pass", "amount": 1_000})
    assert "throw_dice" in dealer_ops(srv, t)
    # the shooter is waited for, but a live table's clock times nobody out
    assert srv.floor.tables[t]._plan() is None
    assert not srv.step(t)
    seq = srv.floor.tables[t].seq
    # CR-1: a die out of 1-6 is refused by the engine, nothing recorded
    refused(srv, t, srv.cmd("dealer", t, "throw_dice", {"dice": [0, 7]}), 422, "CR-1")
    assert srv.floor.tables[t].seq == seq
    # players may not key in: the dealer reads the dice
    refused(srv, t, srv.cmd("alice", t, "throw_dice", {"dice": [3, 4]}), 403, "SRV-KEYIN")
    refused(srv, t, srv.cmd("alice", t, "throw", {"dice": [6, 6]}), 403, "SRV-KEYIN")
    r = srv.cmd("dealer", t, "throw_dice", {"dice": [5, 6]})  # 11 on the come-out: Pass wins
    assert r.status_code == 200, r.text
    assert stack(srv, "alice", t) == 101_000 and stack(srv, "bob", t) == 99_000
    shooter = next(p for p in pending(srv, t) if p["default"] == "pass_dice")
    # the dealer applies the waiting shooter's default by the rules (CR-R7: the dice pass)
    r = default(srv, t, shooter["actor"], "pass_dice")
    assert r.status_code == 200, r.text
    timed = next(e for e in r.json()["events"] if e["kind"] == "table.timed_out")
    assert timed["data"] == {"actor": shooter["actor"], "op": "pass_dice", "rule": "CR-R7"}
    log = srv.client.get("/audit/log", headers=srv.headers("auditor")).json()
    assert log[0]["user"] == "dealer" and log[0]["action"] == "apply_default"
    assert "CR-R7" in log[0]["reason"] and shooter["actor"] in log[0]["reason"]
    # a default nobody owes is the engine's refusal, not an audit entry
    r = default(srv, t, "player:carol", "pass_dice")
    assert r.status_code == 409, r.text
    assert len(srv.client.get("/audit/log", headers=srv.headers("auditor")).json()) == len(log)
    whole(srv, t)


def balances(srv: Srv) -> dict[str, int]:
    return dict(srv.client.portal.call(srv.floor.db.read, lambda c: store.balances_like(c, "")))  # type: ignore[union-attr]


def test_cr_r1_a_live_craps_table_refuses_the_shooters_rng_throw(srv: Srv) -> None:
    """CR-R1, one source of results per table: at a dealer-operated craps table every throw
    is keyed in by the dealer; the shooter's RNG throw is a 4xx naming CR-R1, and nothing is
    journalled or posted. The table's rule set says so (``dealer: live``)."""
    t = live(srv, "craps")
    srv.ok("alice", t, "join", {"amount": 100_000})
    srv.ok("alice", t, "place_bet", {"bet": "pass", "amount": 1_000})
    view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("alice")).json()
    assert view["view"]["rules"]["dealer"] == "live"
    assert view["view"]["shooter_seed"] is None  # no seed drawn: the RNG throws none
    assert "throw" not in [op for p in pending(srv, t, "alice") for op in p["operations"]]
    seq, money = srv.floor.tables[t].seq, balances(srv)
    r = srv.cmd("alice", t, "throw")
    refused(srv, t, r, 409, "CR-R1")
    assert "dealer-operated" in r.json()["message"]
    assert srv.floor.tables[t].seq == seq and balances(srv) == money
    r = srv.cmd("dealer", t, "throw_dice", {"dice": [3, 4]})  # the dealer keys it in
    assert r.status_code == 200, r.text
    assert stack(srv, "alice", t) == 101_000
    whole(srv, t)


def test_cr_r1_an_auto_dealt_craps_table_refuses_a_void_throw(srv: Srv) -> None:
    """CR-R1: an auto-dealt craps table's RNG throw is never voided: the dealer's (or a
    supervisor's) void throw is a 4xx naming CR-R1; nothing is journalled or posted."""
    r = srv.client.post(
        "/tables", json={"id": "craps-auto", "game": "craps"}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 200, r.text
    t = "craps-auto"
    srv.ok("alice", t, "join", {"amount": 100_000})
    srv.ok("alice", t, "place_bet", {"bet": "field", "amount": 1_000})
    assert "void_throw" not in dealer_ops(srv, t)
    seq, money = srv.floor.tables[t].seq, balances(srv)
    for who in ("dealer", "supervisor"):
        r = srv.cmd(who, t, "void_throw", {"reason": "a die left the table"})
        refused(srv, t, r, 409, "CR-R1")
        assert "auto-dealt" in r.json()["message"]
    assert srv.floor.tables[t].seq == seq and balances(srv) == money
    srv.ok("alice", t, "throw")  # the shooter throws from his seed
    whole(srv, t)


def test_cr_r1_a_craps_tables_rules_follow_its_dealer(srv: Srv) -> None:
    """CR-R1: the server writes the table's dealer into the craps rule set; options that
    say otherwise are refused."""
    body = {"id": "craps-odd", "game": "craps", "dealer": "live", "options": {"dealer": "auto"}}
    r = srv.client.post("/tables", json=body, headers=srv.headers("supervisor"))
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT"), r.text
    assert "craps-odd" not in srv.floor.tables


def test_a_live_table_may_ask_the_clock_to_time_players_out(srv: Srv) -> None:
    t = live(srv, "craps", player_timeouts=True, action_seconds=0.5)
    srv.ok("alice", t, "join", {"amount": 100_000})
    plan = srv.floor.tables[t]._plan()
    assert plan is not None and plan[0] == "action"
    assert [c.args["op"] for c in plan[3]] == ["pass_dice"]
    assert all(c.op == "time_out" for c in plan[3])  # never a dealer's step


def test_the_dealer_default_is_for_live_tables_and_staff(srv: Srv) -> None:
    auto = "hilo-1"
    refused(srv, auto, default(srv, auto, "player:alice", "join"), 409, "SRV-LIVE")
    t = live(srv, "craps")
    refused(srv, t, default(srv, t, "player:alice", "pass_dice", who="alice"), 403, "SRV-ROLE")
    r = srv.client.post(
        f"/tables/{t}/dealer/default",
        json={"actor": "player:alice", "op": "pass_dice"},
        headers=srv.headers("dealer"),
    )
    refused(srv, t, r, 400, "SRV-IDEM")
    r = srv.client.get(f"/tables/{t}/dealer", headers=srv.headers("dealer"))
    assert r.status_code == 200 and r.json()["live"] is True
    assert r.json()["keyin"]["throw_dice"] == ["dice", "cocked"]


# --- baccarat --------------------------------------------------------------------------------


def test_a_live_baccarat_round_from_a_physical_shoe_keyed_card_by_card(srv: Srv) -> None:
    t = live(srv, "baccarat", options={"decks": 6})
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    srv.ok("bob", t, "join", {"buy_in": 100_000})
    assert dealer_ops(srv, t) == ["shuffle", "load_shoe", "open_shoe"]
    srv.ok("dealer", t, "open_shoe")
    srv.ok("dealer", t, "cut", {"from_end": 20})
    srv.ok("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
    srv.ok("bob", t, "place_bet", {"bet": "banker", "amount": 10_000})
    # dealers may not bet as players; players may not key in cards
    seq = srv.floor.tables[t].seq
    r = srv.cmd("dealer", t, "place_bet", {"bet": "tie", "amount": 10_000})
    assert (r.status_code, r.json()["error"]) == (409, "out_of_order"), (
        r.text
    )  # a player bets (BA-13)
    assert "a player performs it" in r.json()["message"]
    assert srv.floor.tables[t].seq == seq
    refused(srv, t, srv.cmd("alice", t, "deal", {"cards": ["9c"] * 4}), 403, "SRV-KEYIN")
    srv.ok("dealer", t, "deal", {"cards": ["2c", "Kh", "3d", "Qs"]})
    assert dealer_ops(srv, t)[0] == "draw"  # BA-9.1: Player's 5 draws
    assert next(p for p in pending(srv, t) if p["actor"] == "dealer")["rule"] == "BA-9.1"
    srv.ok("dealer", t, "draw", {"card": "4h"})
    out = srv.ok("dealer", t, "draw", {"card": "5d"})  # BA-9.3: Banker's 0 draws
    settled = next(e for e in out["events"] if e["kind"] == "baccarat.hand_settled")
    assert (settled["data"]["player_total"], settled["data"]["banker_total"]) == (9, 5)
    assert stack(srv, "alice", t) == 110_000 and stack(srv, "bob", t) == 90_000
    # the keyed record is the staff's: a player's events never hold it
    kinds = {
        e["kind"]
        for e in srv.client.get(f"/tables/{t}/events", headers=srv.headers("alice")).json()
    }
    assert "baccarat.cards_keyed" not in kinds
    whole(srv, t)


def test_ba_4_a_card_exposed_while_a_third_card_is_due_settles_through_the_api(srv: Srv) -> None:
    """BA-4 「陽反之牌及該局之投注仍然有效,牌局繼續進行」: the dealer keys in the card that came
    out face up while Player's third card was due; it is that card, and the hand settles."""
    t = live(srv, "baccarat", options={"decks": 6})
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    srv.ok("dealer", t, "open_shoe")
    srv.ok("dealer", t, "cut", {"from_end": 20})
    srv.ok("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
    srv.ok("dealer", t, "deal", {"cards": ["2c", "Kd", "3c", "7d"]})
    assert dealer_ops(srv, t)[0] == "draw"  # BA-9.1: Player's 5 draws
    out = srv.ok("dealer", t, "expose_card", {"card": "4d"})
    third = next(e for e in out["events"] if e["kind"] == "baccarat.third_card_dealt")
    assert (third["data"]["side"], third["data"]["card"]) == ("player", "4d")
    settled = next(e for e in out["events"] if e["kind"] == "baccarat.hand_settled")
    assert (settled["data"]["player_total"], settled["data"]["banker_total"]) == (9, 7)
    assert stack(srv, "alice", t) == 110_000  # BA-17: the Player bet stood and won 1:1
    whole(srv, t)


def test_ba_1_a_card_the_shoe_cannot_hold_is_refused_through_the_api(srv: Srv) -> None:
    t = live(srv, "baccarat", options={"decks": 6})
    srv.ok("dealer", t, "open_shoe")
    srv.ok("dealer", t, "cut", {"from_end": 20})
    srv.ok("dealer", t, "deal", {"cards": ["As"] * 4})
    srv.ok("dealer", t, "draw", {"card": "As"})
    srv.ok("dealer", t, "draw", {"card": "As"})  # the six aces of spades of six decks
    seq = srv.floor.tables[t].seq
    r = srv.cmd("dealer", t, "deal", {"cards": ["As", "2c", "3c", "4c"]})
    refused(srv, t, r, 422, "BA-1")
    assert "As" in r.json()["message"]
    assert srv.floor.tables[t].seq == seq
    whole(srv, t)


# --- Pai Gow and Taiwan Pai Kao ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_a_live_tile_round_from_a_physical_woodpile(srv: Srv, game: str) -> None:
    t = live(srv, game)
    for seat, who in ((1, "alice"), (2, "bob")):
        srv.ok(who, t, "sit", {"seat": seat})
        srv.ok(who, t, "buy_in", {"amount": 100_000})
    srv.ok("alice", t, "open_bank", {"capital": 50_000})
    assert dealer_ops(srv, t) == ["shuffle", "build_woodpile"]
    srv.ok("dealer", t, "build_woodpile")
    srv.ok("bob", t, "place_bet", {"seat": 2, "amount": 10_000})
    hands = {str(s): TILES[4 * (s - 1) : 4 * s] for s in range(1, 9)}
    # players may not key in, not even the banker who shook the dice
    r = srv.cmd("alice", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    refused(srv, t, r, 403, "SRV-KEYIN")
    seq = srv.floor.tables[t].seq
    twice = {**hands, "3": hands["2"]}  # seat 2's tiles dealt again: the set has no more
    refused(
        srv, t, srv.cmd("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": twice}), 422, "T-1"
    )
    r = srv.cmd("dealer", t, "shake", {"dice": [1, 2, 3, 7], "hands": hands})
    assert r.status_code == 422 and r.json()["rule"] in ("PG-1.2", "TW-2b"), r.text
    assert srv.floor.tables[t].seq == seq
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("bob")).json()["view"]
    assert view["hands"] == {"2": hands["2"]}  # bob sees his seat's tiles only
    # nobody is timed out at a live table: the dealer applies the rules' defaults
    assert srv.floor.tables[t]._plan() is None
    for _ in range(4):
        waiting = [p for p in pending(srv, t) if p["default"] == "set_tiles"]
        if not waiting:
            break
        r = default(srv, t, waiting[0]["actor"], "set_tiles")
        assert r.status_code == 200, r.text
    assert dealer_ops(srv, t) == ["settle"]
    out = srv.ok("dealer", t, "settle")
    settled = next(e for e in out["events"] if e["kind"] == "tiletable.round_settled")
    posted = dict(settled["data"]["postings"])
    assert stack(srv, "bob", t) == 90_000 + posted.get(f"stack:{t}:bob", 0)
    assert stack(srv, "alice", t) == 50_000 + posted.get(f"stack:{t}:alice", 0)
    whole(srv, t)


def test_a_live_dealer_may_ask_the_servers_rng_for_the_shoe(srv: Srv) -> None:
    """The outcome from the server's RNG at a live table: the dealer asks for a shuffle; the
    server draws the seed and commits it before any bet (BA-2.1); the deal then comes from
    that shoe, and keyed cards are refused (BA-7.1)."""
    t = live(srv, "baccarat", options={"decks": 6})
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    refused(srv, t, srv.cmd("dealer", t, "shuffle", {"seed": "00" * 32}), 422, "SRV-SEED")
    out = srv.ok("dealer", t, "shuffle")
    assert [e["kind"] for e in out["events"]] == [
        "baccarat.shoe_shuffled",
        "table.seed_committed",
    ]
    srv.ok("dealer", t, "cut")
    srv.ok("alice", t, "place_bet", {"bet": "banker", "amount": 10_000})
    refused(
        srv, t, srv.cmd("dealer", t, "deal", {"cards": ["2c", "Kh", "3d", "Qs"]}), 422, "BA-7.1"
    )
    out = srv.ok("dealer", t, "deal")
    assert any(e["kind"] == "baccarat.hand_settled" for e in out["events"])
    whole(srv, t)


def test_a_live_hand_waiting_for_a_keyed_card_survives_a_restart(srv: Srv) -> None:
    """Recovery replays the keyed cards from the database; a live table is not finished by
    the clock on restart (nobody could deal its cards): the hand waits for the dealer."""
    t = live(srv, "baccarat", options={"decks": 6})
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    srv.ok("dealer", t, "open_shoe")
    srv.ok("dealer", t, "cut", {"from_end": 20})
    srv.ok("alice", t, "place_bet", {"bet": "player", "amount": 10_000})
    srv.ok("dealer", t, "deal", {"cards": ["2c", "Kh", "3d", "Qs"]})
    seq = srv.floor.tables[t].seq
    with restarted(srv) as again:
        actor = again.floor.tables[t]
        assert (actor.status, actor.seq) == ("open", seq)
        assert dealer_ops(again, t)[0] == "draw"
        again.ok("dealer", t, "draw", {"card": "4h"})
        out = again.ok("dealer", t, "draw", {"card": "5d"})
        assert any(e["kind"] == "baccarat.hand_settled" for e in out["events"])
        assert stack(again, "alice", t) == 110_000
        whole(again, t)


def test_the_console_lists_whom_the_rules_wait_for(srv: Srv) -> None:
    """Players the rules wait for, and the dealer's own defaults only the rules can fill in
    (the house way sets the house's seats, PG-R10); not the optional bettors."""
    t = live(srv, "paigow")
    srv.ok("alice", t, "sit", {"seat": 1})
    srv.ok("alice", t, "buy_in", {"amount": 100_000})
    console = srv.client.get(f"/tables/{t}/dealer", headers=srv.headers("dealer")).json()
    assert [(p["actor"], p["default"]) for p in console["waiting"]] == [
        ("player:alice", "decline_bank")
    ]
    srv.ok("alice", t, "decline_bank")
    console = srv.client.get(f"/tables/{t}/dealer", headers=srv.headers("dealer")).json()
    assert console["waiting"] == []  # the dealer's house_banks is the dealer's to run
    assert [op for p in console["dealer"] for op in p["operations"]] == ["house_banks"]
    srv.ok("dealer", t, "house_banks")
    srv.ok("dealer", t, "build_woodpile")
    srv.ok("alice", t, "place_bet", {"seat": 2, "amount": 10_000})  # the house banks at 1
    hands = {str(s): TILES[4 * (s - 1) : 4 * s] for s in range(1, 9)}
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    waiting = lambda: [  # noqa: E731
        (p["actor"], p["default"])
        for p in srv.client.get(f"/tables/{t}/dealer", headers=srv.headers("dealer")).json()[
            "waiting"
        ]
    ]
    assert waiting() == [("player:alice", "set_tiles")]
    assert default(srv, t, "player:alice", "set_tiles").status_code == 200
    assert waiting() == [("dealer", "set_tiles")]  # the house's tiles, by the house way
    r = default(srv, t, "dealer", "set_tiles")
    assert r.status_code == 200, r.text
    timed = next(e for e in r.json()["events"] if e["kind"] == "table.timed_out")
    assert timed["data"]["rule"] == "PG-R10"
    srv.ok("dealer", t, "settle")
    whole(srv, t)
