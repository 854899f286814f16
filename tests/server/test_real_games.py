"""The four real games through the API: bad input names the rule; an auto-dealt table
refuses keyed-in outcomes (dice, a shoe) from anyone."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa

from macau_tables.server import store
from tests.server.conftest import Srv


def table(srv: Srv, game: str) -> str:
    r = srv.client.post(
        "/tables", json={"id": f"{game}-t", "game": game}, headers=srv.headers("supervisor")
    )
    assert r.status_code == 200, r.text
    return f"{game}-t"


@pytest.mark.parametrize(
    ("game", "who", "op", "args", "status", "rule"),
    [
        ("craps", "dealer", "throw_dice", {"dice": [3, 4]}, 403, "SRV-KEYIN"),
        ("craps", "alice", "throw", {"dice": [6, 6]}, 403, "SRV-KEYIN"),
        ("baccarat", "dealer", "load_shoe", {"cards": ["Td"] * 8}, 403, "SRV-KEYIN"),
        ("paigow", "alice", "shake", {"dice": [1, 2, 3]}, 403, "SRV-KEYIN"),
        ("baccarat", "alice", "place_bet", {"bet": "dragon", "amount": 10_000}, 422, "SRV-INPUT"),
        (
            "baccarat",
            "alice",
            "place_bet",
            {"bet": "banker", "amount": 10_000.5},
            422,
            "SRV-AMOUNT",
        ),
        ("craps", "alice", "place_bet", {"bet": "pass", "amount": -5}, 422, "SRV-INPUT"),
        ("taiwan", "alice", "sit", {"seat": "x"}, 422, "TW-3a"),
        ("paigow", "alice", "sit", {"seat": "x"}, 422, "PG-1.4"),  # a PG ID at a PG table
        ("taiwan", "alice", "place_bet", {"seat": 2, "amount": 100}, 409, "TW-2g"),
        ("paigow", "alice", "place_bet", {"seat": 2, "amount": 100}, 409, "PG-4.7"),
        ("craps", "alice", "place_bet", {"bet": "pass", "amount": 0}, 422, "SRV-INPUT"),
        ("baccarat", "alice", "join", {"buy_in": -100}, 422, "SRV-INPUT"),
        ("paigow", "alice", "fly", {}, 422, "SRV-INPUT"),
        ("paigow", "alice", "set_tiles", {"seat": 2, "front": ["6-7", "9-9"]}, 409, "PG-5.1"),
    ],
)
def test_bad_input_and_key_in_at_real_tables(
    srv: Srv, game: str, who: str, op: str, args: dict[str, Any], status: int, rule: str
) -> None:
    t = table(srv, game)
    before = written(srv)
    r = srv.cmd(who, t, op, args)
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error", "rule", "message"}
    assert body["rule"] == rule  # a rule always: the game's, or the server's for its kind
    assert written(srv) == before  # nothing posted, nothing journalled
    led = srv.client.get("/audit/ledger", headers=srv.headers("auditor")).json()
    assert led["ok"]


def written(srv: Srv) -> tuple[int, int]:
    """How many postings and journal entries the database holds."""

    def count(conn: Any) -> tuple[int, int]:
        return tuple(  # type: ignore[return-value]
            conn.execute(sa.select(sa.func.count()).select_from(t)).scalar_one()
            for t in (store.postings_t, store.journal_t)
        )

    return srv.floor.db.read_sync(count)


def test_an_expired_token_is_refused(srv: Srv) -> None:
    srv.headers("alice")
    srv.floor.settings.token_seconds = -1
    r = srv.client.post("/auth/login", json={"name": "bob", "password": srv.creds["bob"]})
    h = {"Authorization": f"Bearer {r.json()['token']}"}
    r = srv.client.get("/me", headers=h)
    assert (r.status_code, r.json()["rule"]) == (401, "SRV-AUTH")


def test_each_baccarat_hand_gets_its_own_betting_window(srv: Srv) -> None:
    """The next hand's betting window looks like the last one to the clock; it must get a
    fresh countdown, not the spent deadline of the last window (hands were dealt back to
    back with no time to bet)."""
    t = table(srv, "baccarat")
    actor = srv.floor.tables[t]
    srv.ok("alice", t, "join", {"buy_in": 100_000})
    for _hand in range(3):
        for _ in range(10):  # the dealer's steps (shuffle, cut, burn) up to the betting
            plan = actor._plan()
            if plan is not None and plan[0] == "betting":
                break
            assert srv.step(t)
        planned = actor._plan_countdown()
        assert planned is not None
        assert planned[0] > 0.1, "the betting window opened already spent"
        # the window runs out (as if its seconds passed): the clock deals the hand
        actor._deadline = (actor._deadline[0], actor._deadline[1] - 60.0)  # type: ignore[index]
        assert srv.step(t)


def test_a_shooter_who_throws_keeps_the_dice(srv: Srv) -> None:
    """CR-R7: the shooter keeps the dice until a seven-out. The clock passes the dice of a
    shooter who does not throw in time (the rules' default); each throw starts his time
    again. The window that began when the dice came to him used to run on through his
    throws, and passed the dice of a shooter throwing every second and a half."""
    t = table(srv, "craps")
    actor = srv.floor.tables[t]
    srv.ok("alice", t, "join", {"amount": 100_000})
    srv.ok("bob", t, "join", {"amount": 100_000})
    kept = 0
    for _ in range(200):
        shooter = next((p.actor.name for p in actor.pending() if "throw" in p.operations), None)
        if shooter is None:
            assert srv.step(t)  # the dealer's steps (the shooter's seed, the dice passed)
            continue
        assert actor._plan_countdown() is not None
        # his time runs out (as if its seconds passed) … but he throws just before
        actor._deadline = (actor._deadline[0], actor._deadline[1] - 60.0)  # type: ignore[index]
        srv.ok(shooter, t, "throw")
        still = any("throw" in p.operations and p.actor.name == shooter for p in actor.pending())
        if still:  # no seven-out: he keeps the dice, and a new window to throw in
            planned = actor._plan_countdown()
            assert planned is not None and planned[0] > 0.1, "his throw did not restart it"
            kept += 1
            if kept == 5:
                return
    raise AssertionError(f"only {kept} throws kept the dice")


def test_a_live_table_takes_keyed_in_dice_and_leaves_the_dealer_steps_to_the_dealer(
    srv: Srv,
) -> None:
    """``dealer: live``: the outcome is keyed in from the physical table (CR-1), which an
    auto-dealt table refuses (SRV-KEYIN); the clock never runs a dealer's step."""
    r = srv.client.post(
        "/tables",
        json={"id": "craps-live", "game": "craps", "dealer": "live"},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    assert r.json()["settings"]["auto_dealer"] is False
    srv.ok("alice", "craps-live", "join", {"amount": 100_000})
    srv.ok("alice", "craps-live", "place_bet", {"bet": "pass", "amount": 1_000})
    plan = srv.floor.tables["craps-live"]._plan()
    assert plan is None or all(c.actor.role.value != "dealer" for c in plan[3])
    r = srv.cmd("dealer", "craps-live", "throw_dice", {"dice": [3, 4]})
    assert r.status_code == 200, r.text
    thrown = next(e for e in r.json()["events"] if e["kind"] == "craps.dice_thrown")
    assert thrown["data"]["dice"] == [3, 4]
    assert srv.client.get("/wallet", headers=srv.headers("alice")).json()["stacks"] == {
        "stack:craps-live:alice": 101_000
    }
    r = srv.cmd("dealer", "craps-live", "throw_dice", {"dice": [0, 7]})
    assert r.status_code == 422, r.text
    r = srv.cmd("dealer", table(srv, "craps"), "throw_dice", {"dice": [3, 4]})
    assert (r.status_code, r.json()["rule"]) == (403, "SRV-KEYIN")


def test_a_craps_table_with_limits_for_a_spot(srv: Srv) -> None:
    """Limits per bet spot at a craps table: the rule set's spot_limits, set when the table
    is created; the other flat bets keep the table's."""
    r = srv.client.post(
        "/tables",
        json={"id": "craps-s", "game": "craps", "options": {"spot_limits": {"big7": [100, 5_000]}}},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    srv.ok("alice", "craps-s", "join", {"amount": 100_000})
    before = written(srv)
    r = srv.cmd("alice", "craps-s", "place_bet", {"bet": "big7", "amount": 5_100})
    assert r.status_code == 409 and "spot maximum MOP 50.00" in r.json()["message"], r.text
    assert r.json()["rule"] == "SRV-PLAY"  # (the regulation sets no limits: the casino's)
    assert written(srv) == before
    srv.ok("alice", "craps-s", "place_bet", {"bet": "big7", "amount": 5_000})
    srv.ok("alice", "craps-s", "place_bet", {"bet": "field", "amount": 50_000})
    r = srv.client.post(
        "/tables",
        json={"id": "craps-x", "game": "craps", "options": {"spot_limits": {"pass_odds": [1, 2]}}},
        headers=srv.headers("supervisor"),
    )
    assert (r.status_code, r.json()["rule"]) == (422, "SRV-INPUT"), r.text


def test_tw_r7_pg_r6_a_declined_bank_goes_to_the_player_who_bet_through_the_api(srv: Srv) -> None:
    """PG-R6 / TW-R7 at a live table through the API: alice banks; carol (seat 3) bets on
    bob's seat 2 and bob bets nothing. Alice passes the bank on and bob, whose turn it is,
    declines: carol bet in the previous round (on another seat), so the bank is hers."""
    from tests.server.test_dealer import TILES, default, live

    for game in ("paigow", "taiwan"):
        t = live(srv, game)
        for seat, who in enumerate(("alice", "bob", "carol"), start=1):
            srv.ok(who, t, "sit", {"seat": seat})
            srv.ok(who, t, "buy_in", {"amount": 100_000})
        srv.ok("alice", t, "open_bank", {"capital": 50_000})
        srv.ok("dealer", t, "build_woodpile")
        srv.ok("carol", t, "place_bet", {"seat": 2, "amount": 1_000})
        hands = {str(s): TILES[4 * (s - 1) : 4 * s] for s in range(1, 9)}
        srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
        for actor in ("player:carol", "player:alice"):  # seat 2's holder, then the banker
            r = default(srv, t, actor, "set_tiles")
            assert r.status_code == 200, r.text
        srv.ok("dealer", t, "settle")
        srv.ok("alice", t, "decline_bank")  # the keeping banker passes it on
        srv.ok("bob", t, "decline_bank")  # bob's turn: he declines
        r = srv.cmd("bob", t, "open_bank", {"capital": 10_000})
        assert r.status_code == 409, r.text
        assert r.json()["rule"] == ("PG-4.3" if game == "paigow" else "TW-5b")
        srv.ok("carol", t, "open_bank", {"capital": 10_000})


def _keyed_round(srv: Srv, game: str, table_id: str, **options: Any) -> tuple[str, dict[str, Any]]:
    """A live tile table: alice (seat 1) banks, bob (2) and carol (3) sit; a physical
    woodpile whose seat 1 holds 6-6 6-6 4-4 1-3."""
    from tests.server.test_dealer import TILES

    r = srv.client.post(
        "/tables",
        json={"id": table_id, "game": game, "dealer": "live", "options": options},
        headers=srv.headers("supervisor"),
    )
    assert r.status_code == 200, r.text
    for seat, who in enumerate(("alice", "bob", "carol"), start=1):
        srv.ok(who, table_id, "sit", {"seat": seat})
        srv.ok(who, table_id, "buy_in", {"amount": 100_000})
    srv.ok("alice", table_id, "open_bank", {"capital": 50_000})
    srv.ok("dealer", table_id, "build_woodpile")
    banker = ["6-6", "6-6", "4-4", "1-3"]
    rest = list(TILES)
    for tile in banker:
        rest.remove(tile)
    tiles = banker + rest
    return table_id, {str(s): tiles[4 * (s - 1) : 4 * s] for s in range(1, 9)}


def test_tw_r1_bind_banker_the_bankers_default_is_accepted_through_the_api(srv: Srv) -> None:
    """TW-R1 with bind_banker (a rule-set option of the table): the dealer applies the
    banker's default and it is a setting the forced rule accepts — the pair of Teen
    behind — not the house way the rule refuses."""
    from tests.server.test_dealer import default

    t, hands = _keyed_round(srv, "taiwan", "tw-bind", round={"bind_banker": True})
    srv.ok("bob", t, "place_bet", {"seat": 2, "amount": 1_000})
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    assert default(srv, t, "player:bob", "set_tiles").status_code == 200
    r = default(srv, t, "player:alice", "set_tiles")
    assert r.status_code == 200, r.text
    tiles_set = next(e for e in r.json()["events"] if e["kind"] == "tiletable.tiles_set")
    assert tiles_set["data"]["back"] == ["6-6", "6-6"]


def test_tw_r6_one_player_holds_two_places_through_the_api(srv: Srv) -> None:
    """TW-R6: bob's bets are the largest on places 2 and 3; carol's smaller bet on her own
    place 3 holds nothing there (TW-3c), and bob sets both."""
    t, hands = _keyed_round(srv, "taiwan", "tw-holder")
    srv.ok("bob", t, "place_bet", {"seat": 2, "amount": 2_000})
    srv.ok("bob", t, "place_bet", {"seat": 3, "amount": 2_000})
    srv.ok("carol", t, "place_bet", {"seat": 3, "amount": 1_000})
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    r = srv.cmd("carol", t, "set_tiles", {"seat": 3, "front": hands["3"][:2]})
    assert (r.status_code, r.json()["rule"]) == (409, "TW-3c"), r.text
    view = srv.client.get(f"/tables/{t}/view", headers=srv.headers("bob")).json()
    assert sorted(view["view"]["hands"]) == ["2", "3"]  # both dealt to their holder
    setters = [p["actor"] for p in view["pending"] if p["default"] == "set_tiles"]
    assert setters == ["player:bob", "player:bob"]


def test_pg_r3_after_a_void_deal_nobody_is_offered_a_bet_through_the_api(srv: Srv) -> None:
    """PG-R3: two tiles of the banker's stack exposed — the deal is void, a new woodpile;
    bets, co-bank and the stacks stay as they were: the view's pending offers no bet or
    co-bank, and a bet is refused (PG-R3)."""
    t, hands = _keyed_round(srv, "paigow", "pg-void")
    srv.ok("bob", t, "place_bet", {"seat": 2, "amount": 1_000})
    srv.ok("dealer", t, "shake", {"dice": [1, 2, 3, 4], "hands": hands})
    srv.ok("dealer", t, "report_exposed", {"seat": 1, "tiles": hands["1"][:2]})
    srv.ok("dealer", t, "build_woodpile")
    for who in ("bob", "carol"):
        view = srv.client.get(f"/tables/{t}/view", headers=srv.headers(who)).json()
        offered = {op for p in view["pending"] for op in p["operations"]}
        assert not offered & {"place_bet", "join_bank", "rearrange"}, view["pending"]
    r = srv.cmd("carol", t, "place_bet", {"seat": 3, "amount": 1_000})
    assert (r.status_code, r.json()["rule"]) == (409, "PG-R3"), r.text
