"""The consoles' own JSON (web/routes.py: ``/ui/pit``, ``/ui/pit/{id}``, ``/ui/history``)
through the server's app: each answers only the roles the server's API would (401 / 403
JSON, never a 500), a bad cursor or an unknown name is a 4xx naming its rule; the pit gives
each table's limits, seats and the round a void applies to, and the keyed-in operation a
correction may change; a player's history sums up each round he played at the four games as
their settlements and the ledger say (stakes, results, what came back, the cards, dice and
tiles), a page at a time, with his session's win or loss. And the staff's words take no key
of the interface's own (i18n.STAFF_UI)."""

from __future__ import annotations

from typing import Any

from macau_tables.tiles import FULL_SET
from macau_tables.web import i18n
from tests.server.conftest import Srv, lite  # noqa: F401  (the fixture)

TILES = [str(t) for t in FULL_SET]


def get(srv: Srv, who: str | None, path: str) -> Any:
    headers = srv.headers(who) if who else {}
    r = srv.client.get(path, headers=headers)
    assert r.status_code < 500, r.text
    return r


def refused(r: Any, status: int, rule: str) -> None:
    assert r.status_code == status, r.text
    assert r.json()["rule"] == rule, r.text


def table(srv: Srv, table_id: str, game: str, **extra: Any) -> None:
    body = {"id": table_id, "game": game, "dealer": "live", **extra}
    r = srv.client.post("/tables", json=body, headers=srv.headers("supervisor"))
    assert r.status_code == 200, r.text


def test_the_staff_words_redefine_no_word_of_the_interface() -> None:
    assert i18n.CLASHES == []
    for lang in i18n.LANGS:
        words = i18n.strings(lang)
        assert all(words[k] for k in i18n.STAFF_UI)
        assert words["adm.title"] == i18n.pick(i18n.STAFF_UI["adm.title"], lang)


def test_the_pit_answers_staff_only_and_names_the_round_a_void_applies_to(lite: Srv) -> None:  # noqa: F811
    refused(get(lite, None, "/ui/pit"), 401, "SRV-AUTH")
    for who in ("alice", "dealer", "cashier", "administrator"):
        refused(get(lite, who, "/ui/pit"), 403, "SRV-ROLE")
    table(lite, "cr-r", "craps")
    lite.deposit("alice", 100_000)
    lite.ok("alice", "cr-r", "sit", {"amount": 50_000})
    pit = {t["id"]: t for t in get(lite, "auditor", "/ui/pit").json()}
    t = pit["cr-r"]
    assert (t["live"], t["limits"], t["seats"], t["players"], t["phase"]) == (
        True, [100, 1_000_000], None, 1, "come-out",
    )  # fmt: skip
    refused(get(lite, "supervisor", "/ui/pit/nowhere"), 404, "SRV-TABLE")
    one = get(lite, "supervisor", "/ui/pit/cr-r").json()
    assert (one["round"], one["keyed"], one["rounds_total"]) == (None, None, 0)
    lite.ok("alice", "cr-r", "place_bet", {"bet": "field", "amount": 1_000})
    thrown = lite.ok("dealer", "cr-r", "throw_dice", {"dice": [2, 3]})
    seq = next(e["seq"] for e in thrown["events"] if e["kind"] == "craps.dice_thrown")
    one = get(lite, "supervisor", "/ui/pit/cr-r").json()
    assert one["round"]["number"] == 1 and one["round"]["status"] == "settled"
    assert one["keyed"] == {
        "seq": seq,
        "op": "throw_dice",
        "fields": ["dice", "cocked"],
        "args": {"dice": [2, 3], "cocked": [False, False]},
        "round": 1,
    }
    lite.ok("alice", "cr-r", "place_bet", {"bet": "field", "amount": 1_000})
    one = get(lite, "supervisor", "/ui/pit/cr-r").json()
    assert one["round"]["number"] == 2 and one["round"]["status"] == "under way"
    assert one["keyed"] is None  # the last operation is a bet: nothing keyed to correct


def play_craps(srv: Srv, table_id: str, dice: tuple[int, int]) -> None:
    srv.ok("bob", table_id, "place_bet", {"bet": "field", "amount": 1_000})
    srv.ok("dealer", table_id, "throw_dice", {"dice": list(dice)})


def test_a_player_reads_his_own_history_staff_name_the_player(lite: Srv) -> None:  # noqa: F811
    table(lite, "cr-h", "craps")
    lite.deposit("bob", 100_000)
    lite.ok("bob", "cr-h", "sit", {"amount": 50_000})
    for dice in ((6, 6), (2, 3), (4, 5)):  # the Field: 12 pays 2:1, 5 loses, 9 pays 1:1
        play_craps(lite, "cr-h", dice)
    refused(get(lite, None, "/ui/history"), 401, "SRV-AUTH")
    refused(get(lite, "cashier", "/ui/history?player=bob"), 403, "SRV-ROLE")
    refused(get(lite, "alice", "/ui/history?player=bob"), 403, "SRV-ROLE")
    refused(get(lite, "supervisor", "/ui/history"), 404, "SRV-PLAYER")  # (his own: not one)
    refused(get(lite, "supervisor", "/ui/history?player=nobody"), 404, "SRV-PLAYER")
    refused(get(lite, "bob", "/ui/history?before=yesterday"), 422, "SRV-INPUT")
    mine = get(lite, "bob", "/ui/history").json()
    rounds = mine["rounds"]
    assert [r["round"] for r in rounds] == [3, 2, 1] and mine["total"] == 3
    assert [
        (b["bet"], b["stake"], b["result"], b["returned"]) for r in rounds for b in r["bets"]
    ] == [
        ("field", 1_000, "win", 2_000),
        ("field", 1_000, "lose", 0),
        ("field", 1_000, "win", 3_000),
    ]
    assert [r["net"] for r in rounds] == [1_000, -1_000, 2_000]
    assert rounds[2]["outcome"] == {
        "kind": "dice",
        "throws": [{"dice": [6, 6], "total": 12}],
        "point_before": None,
        "point_after": None,
    }
    money = mine["money"]
    assert money["stacks"] == {"cr-h": 52_000} and money["session_net"] == 2_000
    assert mine["heads"]["cr-h"] == get(lite, "bob", "/tables/cr-h").json()["head"]
    staff = get(lite, "auditor", "/ui/history?player=bob").json()
    assert staff["rounds"] == rounds and "session_net" not in staff["money"]
    # the page before round 2: round 1 only
    r2 = rounds[1]
    cursor = f"{r2['started_at']}:{r2['table_id']}:{r2['round']}"
    older = get(lite, "bob", f"/ui/history?before={cursor}").json()
    assert [r["round"] for r in older["rounds"]] == [1] and older["older"] is None


def test_a_keyed_baccarat_hand_is_summed_up_with_its_cards(lite: Srv) -> None:  # noqa: F811
    table(lite, "ba-h", "baccarat", options={"decks": 6})
    lite.deposit("bob", 100_000)
    lite.ok("bob", "ba-h", "sit", {"amount": 50_000})
    lite.ok("dealer", "ba-h", "open_shoe", {})
    lite.ok("dealer", "ba-h", "cut", {})
    lite.ok("bob", "ba-h", "place_bet", {"bet": "player", "amount": 10_000})
    lite.ok("bob", "ba-h", "place_bet", {"bet": "tie", "amount": 10_000})
    dealt = lite.ok("dealer", "ba-h", "deal", {"cards": ["2c", "Kh", "3d", "Qs"]})
    # the deal is the table's last operation (its cards turned up with it): a correction's
    keyed = get(lite, "supervisor", "/ui/pit/ba-h").json()["keyed"]
    assert keyed == {
        "seq": dealt["events"][0]["seq"],
        "op": "deal",
        "fields": ["cards"],
        "args": {"cards": ["2c", "Kh", "3d", "Qs"]},
        "round": 1,
    }
    lite.ok("dealer", "ba-h", "draw", {"card": "4h"})  # BA-9.1: Player's 5 draws
    keyed = get(lite, "supervisor", "/ui/pit/ba-h").json()["keyed"]
    assert (keyed["op"], keyed["args"]) == ("draw", {"card": "4h"})
    lite.ok("dealer", "ba-h", "draw", {"card": "5d"})  # BA-9.3: Banker's 0 draws
    (hand,) = get(lite, "bob", "/ui/history").json()["rounds"]
    assert hand["outcome"] == {
        "kind": "cards",
        "hand": 1,
        "winner": "P",
        "player_total": 9,
        "banker_total": 5,
        "player": ["2c", "3d", "4h"],
        "banker": ["Kh", "Qs", "5d"],
    }
    assert [(b["bet"], b["stake"], b["result"], b["returned"]) for b in hand["bets"]] == [
        ("player", 10_000, "win", 20_000),  # BA-17: 1:1
        ("tie", 10_000, "lose", 0),
    ]
    assert (hand["staked"], hand["returned"], hand["net"]) == (20_000, 20_000, 0)


def test_a_keyed_pai_gow_round_is_summed_up_for_the_player_and_the_banker(lite: Srv) -> None:  # noqa: F811
    table(lite, "pg-h", "paigow")
    for seat, who in ((1, "alice"), (2, "bob")):
        lite.deposit(who, 100_000)
        lite.ok(who, "pg-h", "sit", {"seat": seat})
        lite.ok(who, "pg-h", "buy_in", {"amount": 100_000})
    lite.ok("alice", "pg-h", "open_bank", {"capital": 50_000})
    lite.ok("dealer", "pg-h", "build_woodpile", {})
    lite.ok("bob", "pg-h", "place_bet", {"seat": 2, "amount": 10_000})
    # the banker (seat 1) the Yun and Gor pairs, bob (seat 2) the Teen and Day pairs
    hands = {
        "1": TILES[4:8],
        "2": TILES[0:4],
        **{str(s): TILES[4 * (s - 1) : 4 * s] for s in range(3, 9)},
    }
    lite.ok("dealer", "pg-h", "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    lite.ok("bob", "pg-h", "set_tiles", {"seat": 2, "front": ["1-1", "1-1"]})
    lite.ok("alice", "pg-h", "set_tiles", {"seat": 1, "front": ["1-3", "1-3"]})
    lite.ok("dealer", "pg-h", "settle", {})
    (his,) = get(lite, "bob", "/ui/history").json()["rounds"]
    assert his["bets"] == [
        {"bet": "place", "spot": 2, "stake": 10_000, "result": "win", "returned": 19_600,
         "commission": 400},  # PG-4.2: 4% of the win
    ]  # fmt: skip
    assert his["net"] == 9_600
    out = his["outcome"]
    assert (out["kind"], out["dice"], out["banker_seat"]) == ("tiles", [1, 2, 3, 4], 1)
    seats = {h["seat"]: h for h in out["hands"]}
    assert seats[2] == {"seat": 2, "front": ["1-1", "1-1"], "back": ["6-6", "6-6"],
                        "banker": False, "mine": True}  # fmt: skip
    assert seats[1]["banker"] and not seats[1]["mine"]
    (banked,) = get(lite, "alice", "/ui/history").json()["rounds"]
    assert banked["bets"] == [
        {"bet": "bank", "spot": 1, "stake": None, "result": "bank", "returned": None,
         "net": -10_000},
    ]  # fmt: skip
