"""What the table page may bet, spot by spot (web/betting.py), agrees with the engines' own
checks: every amount inside a spot's answered range is accepted by ``can_place_bet`` and the
amounts just outside it are refused; a spot that takes nothing now is refused with the rule
the engine names (BA-13 … BA-15, CR-R6, CR-2.2 / CR-R2, CR-R9, PG-3.2, PG-4.7); craps says
which bets are working (CR-2.3)."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.core.money import Money
from macau_tables.games.baccarat import BaccaratBetKind, BaccaratRules
from macau_tables.games.contract import Actor, Command
from macau_tables.games.craps import CrapsRules, CrapsTable
from macau_tables.web.betting import bet_room, room
from macau_tables.web.routes import router
from tests.games.baccarat_helpers import table as baccarat_table
from tests.games.tiletable_helpers import seated


def test_room_is_the_interval_the_check_accepts() -> None:
    def verify(amount: int) -> None:
        if not 250 <= amount <= 9_000:
            from macau_tables.core.errors import BetNotAllowed

            raise BetNotAllowed("outside", rule="X-1")

    assert room(verify, 250, 20_000) == {"open": True, "min": 250, "max": 9_000}
    assert room(verify, 250, 4_000) == {"open": True, "min": 250, "max": 4_000}
    assert room(verify, 10_000, 20_000) == {"open": False, "why": "outside", "rule": "X-1"}


@settings(max_examples=25, deadline=None)
@given(
    chips=st.integers(0, 3_000_000),
    banker=st.integers(0, 50),
    player=st.integers(0, 50),
)
def test_ba_13_each_spots_range_is_what_the_engine_accepts(
    chips: int, banker: int, player: int
) -> None:
    """BA-13 the limits (and BA-14 the Banker/Player differential) and the player's chips:
    the answered [min, max] of each spot is accepted at its ends, refused just outside."""
    t = baccarat_table(players={"ann": 1, "bob": 2}, buy_in=max(chips, 1))
    for who, kind, n in (("bob", BaccaratBetKind.BANKER, banker), ("bob", "player", player)):
        if n and t.can_place_bet(who, BaccaratBetKind(kind), Money(n * 10_000)):
            t.place_bet(who, BaccaratBetKind(kind), Money(n * 10_000))
    spots = bet_room(t, "ann")["spots"]
    assert set(spots) == {str(k) for k in BaccaratBetKind}
    for kind in BaccaratBetKind:
        r = spots[str(kind)]
        can = lambda a, k=kind: a > 0 and t.can_place_bet("ann", k, Money(a))  # noqa: E731
        if not r["open"]:
            assert r["why"]  # (the refusal; a rule when the regulation names one)
            assert not can(t.rules.limits[kind].minimum.minor)
            continue
        assert can(r["min"]) and can(r["max"])
        assert not can(r["min"] - 1) and not can(r["max"] + 1)


def test_ba_15_a_player_not_at_the_table_has_no_spot() -> None:
    t = baccarat_table(players={"ann": 1})
    assert bet_room(t, "zed") == {"spots": {}, "working": {}}


def craps_at_point_4() -> CrapsTable:
    t = CrapsTable((), table_id="craps-room")
    t.execute(Command(Actor.player("alice"), "sit", {"amount": 100_000}))
    t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "pass", "amount": 10_000}))
    t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [1, 3]}))  # CR-2.1: point 4
    return t


def test_cr_r6_line_bets_on_the_come_out_only_come_bets_with_a_point() -> None:
    t = CrapsTable((), table_id="craps-room")
    t.execute(Command(Actor.player("alice"), "sit", {"amount": 100_000}))
    come_out = bet_room(t, "alice")["spots"]
    assert come_out["pass"]["open"] and come_out["dont_pass"]["open"]
    assert not come_out["come"]["open"] and "CR-R6" in come_out["come"]["why"]
    t = craps_at_point_4()
    point = bet_room(t, "alice")["spots"]
    assert not point["pass"]["open"] and point["pass"]["rule"] == "CR-2.1"
    assert point["come"]["open"] and point["field"]["open"]


def test_cr_2_2_the_odds_room_is_the_cap_the_engine_enforces() -> None:
    """CR-2.2 / CR-R2: odds at 2:1 on a point of 4 may win at most the flat bet: MOP 50 on
    MOP 100; once taken (CR-R9) the flat bet takes no more."""
    t = craps_at_point_4()
    odds = bet_room(t, "alice")["spots"]["odds:1"]
    assert odds == {"bet": "pass_odds", "open": True, "min": 1, "max": 5_000}
    cur = t.rules.currency
    assert t.can_place_bet("alice", "pass_odds", Money(5_000, cur), on=1)
    assert not t.can_place_bet("alice", "pass_odds", Money(5_001, cur), on=1)
    t.execute(
        Command(Actor.player("alice"), "place_bet", {"bet": "pass_odds", "amount": 5_000, "on": 1})
    )
    again = bet_room(t, "alice")["spots"]["odds:1"]
    assert not again["open"] and "CR-R9" in again["why"]


def test_cr_2_3_come_odds_are_off_on_the_come_out_under_the_option() -> None:
    for option, working in (("working", True), ("off", False)):
        t = CrapsTable((), rules=CrapsRules(come_odds_on_come_out=option), table_id="c")  # type: ignore[arg-type]
        a = Actor.player("alice")
        t.execute(Command(a, "sit", {"amount": 100_000}))
        t.execute(Command(a, "place_bet", {"bet": "pass", "amount": 1_000}))
        t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [2, 2]}))  # point 4
        t.execute(Command(a, "place_bet", {"bet": "come", "amount": 1_000}))
        t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [2, 3]}))  # the Come bet's 5
        come = next(b for b in t.bets_of("alice") if b.kind == "come")
        t.execute(Command(a, "place_bet", {"bet": "come_odds", "amount": 600, "on": come.id}))
        t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [1, 3]}))  # point made: come-out
        assert t.point is None
        odds = next(b for b in t.bets_of("alice") if b.kind == "come_odds")
        assert bet_room(t, "alice")["working"][str(odds.id)] is working
        assert bet_room(t, "alice")["working"][str(come.id)] is True  # CR-R8


def test_pg_3_2_the_bankers_place_takes_no_bet_and_pg_4_7_none_after_the_dice() -> None:
    t = seated(players=("ann", "bob"))
    t.execute(Command(Actor.player("ann"), "open_bank", {"capital": 50_000}))
    from macau_tables.core.rng import Rng

    t.execute(Command(Actor.DEALER, "shuffle", {}), Rng.seeded("room"))
    spots = bet_room(t, "bob")["spots"]
    banker = spots[f"seat:{t.banker_seat}"]
    assert not banker["open"] and banker["rule"] == "PG-3.2"
    other = next(k for k in spots if k != f"seat:{t.banker_seat}")
    assert spots[other] == {"open": True, "min": 1, "max": t.stack("bob").minor}
    t.execute(Command(Actor.player("ann"), "shake", {}))
    after = bet_room(t, "bob")["spots"][other]
    assert not after["open"] and after["rule"] == "PG-4.7"


def test_the_room_endpoint_without_the_table_says_it_does_not_know_it() -> None:
    app = FastAPI()
    app.include_router(router)
    r = TestClient(app).get("/ui/room/nowhere")
    assert r.status_code == 200
    assert r.json() == {"table_id": "nowhere", "known": False, "spots": {}, "working": {}}
    clock = TestClient(app).get("/ui/clock").json()
    import time

    assert abs(clock["now"] - time.time() * 1000) < 5_000


def test_the_baccarat_differential_is_in_the_answer() -> None:
    """BA-14 (a table option): the Banker/Player difference limit caps a spot below its
    own maximum."""
    rules = BaccaratRules(differential_limit=Money.of(1_000))
    t = baccarat_table(players={"ann": 1}, rules=rules, buy_in=1_000_000)
    spots = bet_room(t, "ann")["spots"]
    assert spots["banker"]["max"] == 100_000
    assert t.can_place_bet("ann", BaccaratBetKind.BANKER, Money(100_000))
    assert not t.can_place_bet("ann", BaccaratBetKind.BANKER, Money(100_001))
