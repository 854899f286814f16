"""Craps, Portaria 97/85/M: the throw, the shooter, when bets may be made and taken down,
the odds caps, table limits, settlement through the ledger, and the journal with replay."""

from __future__ import annotations

import json
from typing import Any

import pytest

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    JournalError,
    OutOfOrder,
)
from macau_tables.core.journal import Journal, event_from_json
from macau_tables.core.journal import replay as journal_replay
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import HKD, Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command, accounts
from macau_tables.games.craps import (
    BET_KINDS,
    CrapsPhase,
    CrapsRules,
    CrapsTable,
    Dice,
    Odds,
    PerUnits,
    bet_kind,
    payout_from_text,
    replay,
)

M = Money.of


def table(*seats: str, rules: CrapsRules | None = None, rng: Rng | None = None) -> CrapsTable:
    t = CrapsTable(seats or ("alice",), rules, rng=rng)
    for seat in t.seats:
        t.buy_in(seat, M(1000))
    return t


def rechained(obj: dict[str, Any]) -> Journal:
    """A journal whose events were edited, with its hash chain recomputed (a forgery that
    the chain alone cannot catch)."""
    j = Journal(obj["game"], obj["header"])
    for entry in obj["entries"]:
        j.append(event_from_json(entry["event"]))
    return j


def ledger(t: CrapsTable) -> Ledger:
    """The table's money: every wallet funded from the cage, then the events projected."""
    funded = Ledger()
    for ev in t.events:
        player = getattr(ev, "player", None)
        if ev.kind in ("craps.player_joined", "craps.chips_bought") and player:
            funded.post(Transaction.transfer(CAGE, accounts.wallet(player), M(1000), "cash"))
    return Ledger.project(t.events, funded)


# --- CR-1 The throw; CR-R1 void throws and cocked dice ------------------------------------


def test_cr_1_a_throw_is_two_dice_from_the_rng_recorded_as_an_event() -> None:
    """CR-1: two dice; the draw is recorded, so the same seed throws the same dice."""
    a, b = table(rng=Rng.seeded("cr-1")), table(rng=Rng.seeded("cr-1"))
    ev_a = a.throw("alice")[0]
    ev_b = b.throw("alice")[0]
    assert ev_a == ev_b
    assert ev_a.kind == "craps.dice_thrown"
    assert all(1 <= d <= 6 for d in ev_a.dice)
    assert a.events[-2] == ev_a  # followed by its settlement
    assert a.events[-1].kind == "craps.roll_settled"


def test_cr_1_dice_out_of_range_are_refused() -> None:
    """CR-1: a die shows 1 to 6."""
    t = table()
    with pytest.raises(InvalidInput, match="CR-1"):
        t.throw_dice(0, 7)
    assert t.rolls == 0
    with pytest.raises(InvalidInput, match="CR-1"):
        Dice.parse("7-1")


def test_cr_1_only_the_shooter_throws() -> None:
    """CR-1: any number may play, but one player throws: others are out of order."""
    t = table("alice", "bob", rng=Rng.seeded("cr-1"))
    with pytest.raises(OutOfOrder, match=r"CR-1 alice has the dice, not player:bob"):
        t.throw("bob")
    assert not t.can_throw("bob")
    assert not t.can_throw(Actor.DEALER)
    assert t.can_throw("alice")
    with pytest.raises(OutOfOrder, match=r"CR-R1 the dealer keys in the dice, not player:bob"):
        t.throw_dice(3, 4, by=Actor.player("bob"))
    t.throw("alice")


def test_cr_r1_a_die_off_the_table_is_a_void_throw_touching_nothing() -> None:
    """CR-1, CR-R1: the throw is void and repeated: logged, no bet touched."""
    t = table()
    t.place_bet("alice", "field", M(10))
    t.place_bet("alice", "pass", M(10))
    before = t.snapshot()
    ev = t.void_throw()[0]
    assert ev.kind == "craps.throw_voided"
    after = t.snapshot()
    assert {k: v for k, v in after.items() if k not in ("head", "throws")} == {
        k: v for k, v in before.items() if k not in ("head", "throws")
    }
    assert after["throws"] == before["throws"] + 1  # the void throw counts as a throw
    assert t.events[-1] == ev
    t.throw_dice(5, 6)  # thrown again: 11 wins the Field and the Pass Line
    assert t.last_roll is not None
    assert [r["result"] for r in t.last_roll.results] == ["win", "win"]


def test_cr_r1_a_cocked_die_declared_by_the_dealer_is_an_input() -> None:
    """CR-R1: the face most evidently up, declared by the dealer, counts; it is recorded."""
    t = table()
    ev = t.throw_dice(2, 2, cocked=(False, True))[0]
    assert ev.cocked == (False, True)
    assert t.point == 4
    assert replay(t.journal).snapshot() == t.snapshot()


def test_cr_r1_a_dealer_operated_table_keys_in_every_throw_and_refuses_the_rng_throw() -> None:
    """CR-R1, one source of results per table: at a dealer-operated table (``dealer="live"``)
    the dice are physical — no seed is drawn for a shooter, his RNG throw is refused and
    nothing is journalled; the dealer keys in every throw and declares void throws."""
    live = CrapsRules(dealer="live")
    t = table("alice", "bob", rules=live, rng=Rng.seeded("live"))
    assert t.view(Viewer.SUPERVISOR)["shooter_seed"] is None  # the RNG throws none
    t.place_bet("alice", "pass", M(10))
    head = t.journal.head
    with pytest.raises(OutOfOrder, match=r"^CR-R1 .*dealer-operated"):
        t.throw("alice")
    with pytest.raises(OutOfOrder, match=r"^CR-R1"):
        t.execute(Command(Actor.player("alice"), "throw"), Rng.seeded("live"))
    assert not t.can_throw("alice")
    assert t.journal.head == head
    dealer = next(p for p in t.pending() if p.actor == Actor.DEALER)
    assert dealer.operations == ("throw_dice", "void_throw") and dealer.required
    t.void_throw()  # a die off the table: only here (CR-R1)
    t.throw_dice(3, 4)  # 7 on the come-out: the Pass Line wins
    assert t.balance("alice") == M(1000 + 10)
    assert replay(t.journal).snapshot() == t.snapshot()


def test_cr_r1_an_auto_dealt_table_refuses_a_void_throw_and_keyed_dice() -> None:
    """CR-R1: an auto-dealt table's (``dealer="auto"``) throws are the RNG's: a void throw
    (which would skip a random outcome) and keyed-in dice are refused, nothing journalled."""
    t = table("alice", rules=CrapsRules(dealer="auto"), rng=Rng.seeded("auto"))
    t.place_bet("alice", "field", M(10))
    head = t.journal.head
    with pytest.raises(OutOfOrder, match=r"^CR-R1 .*auto-dealt.*never voided"):
        t.void_throw()
    with pytest.raises(OutOfOrder, match=r"^CR-R1 .*auto-dealt"):
        t.execute(Command(Actor.DEALER, "void_throw", {"reason": "a die left the table"}))
    with pytest.raises(OutOfOrder, match=r"^CR-R1 .*auto-dealt"):
        t.throw_dice(3, 4)
    assert not t.can_void_throw() and not t.can_throw_dice(3, 4)
    assert t.journal.head == head and t.throws == 0
    assert all(p.actor != Actor.DEALER for p in t.pending())
    t.throw("alice")
    assert t.rolls == 1


def test_cr_r1_option_dealer_is_written_only_when_declared() -> None:
    """CR-R1: the table's source of results is the rule set's ``dealer``; a rule set
    without it (written before it was declared) reads and writes as before."""
    undeclared = CrapsRules()
    assert undeclared.dealer is None and "dealer" not in undeclared.to_json()
    assert CrapsRules.from_json(undeclared.to_json()) == undeclared
    for dealer in ("auto", "live"):
        rules = CrapsRules(dealer=dealer)  # type: ignore[arg-type]
        assert rules.to_json()["dealer"] == dealer
        assert CrapsRules.from_json(rules.to_json()) == rules
    with pytest.raises(InvalidInput, match="CR-R1"):
        CrapsRules(dealer="robot")  # type: ignore[arg-type]


# --- CR-2.1 the point cycle; CR-R7 the shooter ---------------------------------------------


def test_cr_2_1_point_is_set_made_and_sevened_out() -> None:
    """CR-2.1: a point number on the come-out sets the point; the point or a 7 ends it."""
    t = table()
    assert t.phase is CrapsPhase.COME_OUT
    t.throw_dice(1, 1)  # craps: still a come-out
    assert t.point is None
    t.throw_dice(3, 4)  # natural
    assert t.point is None
    t.throw_dice(4, 5)
    assert (t.phase, t.point) == (CrapsPhase.POINT, 9)
    t.throw_dice(3, 4)  # seven-out
    assert t.point is None


def test_cr_r7_shooter_keeps_the_dice_until_a_seven_out() -> None:
    """CR-R7: naturals, craps and a made point keep the dice; a seven-out passes them on,
    in seat order, back to the first seat."""
    t = table("alice", "bob", "carol")
    for dice in ((3, 4), (1, 1), (2, 2), (1, 3), (5, 6), (2, 4), (6, 6), (3, 3)):
        t.throw_dice(*dice)
        assert t.shooter == "alice"
    t.throw_dice(2, 2)
    t.throw_dice(3, 4)  # seven-out
    assert t.shooter == "bob"
    assert [e.kind for e in t.events[-2:]] == ["craps.roll_settled", "craps.dice_passed"]
    t.throw_dice(4, 4)
    t.throw_dice(1, 6)
    assert t.shooter == "carol"
    t.throw_dice(5, 5)
    t.throw_dice(6, 1)
    assert t.shooter == "alice"


# --- CR-R6 when bets may be made, increased and taken down ------------------------------------


def test_cr_r6_pass_and_dont_pass_only_on_a_come_out() -> None:
    """CR-R6, CR-2.1, CR-3.1: line bets are made on a come-out roll only."""
    t = table()
    t.throw_dice(2, 4)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.1 Pass Line bets are made on a come-out"):
        t.place_bet("alice", "pass", M(10))
    with pytest.raises(BetNotAllowed, match=r"^CR-3\.1 Don't Pass bets are made on a come-out"):
        t.place_bet("alice", "dp", M(10))
    assert not t.can_place_bet("alice", "pass", M(10))


def test_cr_2_3_come_bets_need_a_point() -> None:
    """CR-2.3, CR-3.3, CR-R6: Come and Don't Come only while a point is on."""
    t = table()
    with pytest.raises(BetNotAllowed) as err:
        t.place_bet("alice", "come", M(10))
    assert str(err.value) == "CR-2.3 Come bets need a point (CR-R6)"
    assert err.value.rule == "CR-2.3"
    with pytest.raises(BetNotAllowed, match=r"^CR-3\.3 Don't Come bets need a point"):
        t.place_bet("alice", "dont_come", M(10))
    t.throw_dice(2, 4)
    assert t.can_place_bet("alice", "come", M(10))
    assert t.can_place_bet("alice", "dont_come", M(10))


def test_cr_r6_odds_need_their_bet_to_have_a_point() -> None:
    """CR-R6, CR-2.2, CR-2.3: odds only once the bet has a point; one odds bet per bet."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 odds need a point"):
        t.place_bet("alice", "pass_odds", M(5), on=line)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 .* must name the Pass Line bet"):
        t.place_bet("alice", "pass_odds", M(5))
    t.throw_dice(2, 2)
    come = t.place_bet("alice", "come", M(10))[0].bet_id
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.3 odds need a point"):
        t.place_bet("alice", "come_odds", M(5), on=come)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.3 alice has no Come bet"):
        t.place_bet("alice", "come_odds", M(5), on=line)
    odds = t.place_bet("alice", "pass_odds", M(5), on=line)[0].bet_id
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 .* one odds bet already"):
        t.place_bet("alice", "pass_odds", M(1), on=line)
    assert t.bet(odds).point == 4


def test_cr_r6_a_contract_bet_cannot_be_taken_down() -> None:
    """CR-R6: Pass or Come with a point cannot come down; before the point it can."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    assert t.can_take_down("alice", line)
    t.throw_dice(3, 3)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.1 the Pass Line 6 bet has a point"):
        t.take_down("alice", line)
    come = t.place_bet("alice", "come", M(10))[0].bet_id
    assert t.can_take_down("alice", come)  # in transit: no point yet
    t.throw_dice(4, 4)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.3 the Come 8 bet has a point"):
        t.take_down("alice", come)


def test_cr_r6_odds_and_other_bets_come_down_between_rolls() -> None:
    """CR-R6: odds, Don't Pass with its point (and its lay), and every CR-12 bet come down;
    the stakes go back to the wallet."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    dp = t.place_bet("alice", "dont_pass", M(10))[0].bet_id
    t.throw_dice(5, 5)
    odds = t.place_bet("alice", "pass_odds", M(5), on=line)[0].bet_id
    lay = t.place_bet("alice", "dont_pass_odds", M(20), on=dp)[0].bet_id
    hard = t.place_bet("alice", "hard10", M(5))[0].bet_id
    assert t.balance("alice") == M(1000 - 50)
    assert t.take_down("alice", odds)[0].bet_ids == (odds,)
    assert t.take_down("alice", dp)[0].bet_ids == (dp, lay)  # its lay comes down with it
    t.take_down("alice", hard)
    assert [b.id for b in t.bets] == [line]
    assert t.balance("alice") == M(990)
    assert ledger(t).balance(accounts.wagers("craps")) == M(10)


def test_cr_r6_a_line_bet_may_not_be_increased_after_its_point() -> None:
    """CR-R6: the flat bet of Pass may grow on the come-out, not once it has a point;
    CR-12 bets grow at any time."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    t.increase_bet("alice", line, M(5))
    assert t.bet(line).amount == M(15)
    field = t.place_bet("alice", "field", M(5))[0].bet_id
    t.throw_dice(4, 6)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.1"):
        t.increase_bet("alice", line, M(5))
    big = t.place_bet("alice", "big8", M(6))[0].bet_id
    t.increase_bet("alice", big, M(6))
    assert t.bet(big).amount == M(12)
    assert field not in {b.id for b in t.bets}  # the Field was decided by the 10


def test_cr_2_2_cr_r2_odds_may_win_at_most_the_flat_bet() -> None:
    """CR-2.2, CR-R2: MOP 10 on Pass, point 6: odds up to MOP 8.33 (wins 9.99), not 8.34."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    t.throw_dice(1, 5)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 .*at most MOP 8\.33 \(CR-R2\)"):
        t.place_bet("alice", "pass_odds", Money.parse("8.34"), on=line)
    odds = t.place_bet("alice", "pass_odds", Money.parse("8.33"), on=line)[0].bet_id
    assert t.bet(odds).amount == Money.parse("8.33")


def test_cr_3_2_cr_r2_the_lay_may_win_at_most_the_flat_bet() -> None:
    """CR-3.2, CR-R2: MOP 10 Don't Pass on 4: a lay up to MOP 20 (wins 10), not 20.01."""
    t = table()
    dp = t.place_bet("alice", "dont_pass", M(10))[0].bet_id
    t.throw_dice(3, 1)
    with pytest.raises(BetNotAllowed, match=r"^CR-3\.2 .*\(CR-R2\)"):
        t.place_bet("alice", "dont_pass_odds", Money.parse("20.01"), on=dp)
    t.place_bet("alice", "dont_pass_odds", M(20), on=dp)
    t.throw_dice(3, 4)
    assert t.balance("alice") == M(1000 + 10 + 10)


def test_cr_r2_option_odds_cap_stake_caps_the_odds_stake_at_the_flat_bet() -> None:
    """CR-R2, odds_cap="stake": the odds stake may not exceed the flat bet (single odds)."""
    t = table(rules=CrapsRules(odds_cap="stake"))
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    t.throw_dice(2, 2)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 .*odds_cap='stake'"):
        t.place_bet("alice", "pass_odds", Money.parse("10.01"), on=line)
    t.place_bet("alice", "pass_odds", M(10), on=line)  # would win 20 under this option
    t.throw_dice(1, 3)
    assert t.balance("alice") == M(1000 + 10 + 20)


# --- CR-R9 one odds bet, once ---------------------------------------------------------------


def test_cr_r9_odds_not_increased() -> None:
    """CR-R9 (CR-2.2, CR-3.2: 可額外投注一次): the odds on a flat bet with a point, and the
    lay, are one bet: not increased, even within the cap; nothing is journalled."""
    t = table()
    assert t.rules.odds_increases == "refused"
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    dp = t.place_bet("alice", "dont_pass", M(10))[0].bet_id
    t.throw_dice(1, 5)  # point 6: odds up to MOP 8.33, a lay up to MOP 12
    odds = t.place_bet("alice", "pass_odds", M(5), on=line)[0].bet_id
    lay = t.place_bet("alice", "dont_pass_odds", M(6), on=dp)[0].bet_id
    head = t.journal.head
    for bet_id in (odds, lay):
        with pytest.raises(BetNotAllowed, match=r"CR-R9"):
            t.increase_bet("alice", bet_id, M(1))
        assert not t.can_increase_bet("alice", bet_id, M(1))
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2 .*one odds bet already.*CR-R9"):
        t.place_bet("alice", "pass_odds", M(1), on=line)
    assert t.journal.head == head
    assert (t.bet(odds).amount, t.bet(lay).amount) == (M(5), M(6))


def test_cr_r9_odds_not_made_again_after_taken_down() -> None:
    """CR-R9: odds taken down (CR-R6) are not made again on that flat bet — Pass Line odds,
    a Come bet's odds, a Don't Pass lay; another flat bet still takes its one odds bet."""
    t = table()
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    dp = t.place_bet("alice", "dont_pass", M(10))[0].bet_id
    t.throw_dice(2, 2)  # point 4
    come = t.place_bet("alice", "come", M(10))[0].bet_id
    t.throw_dice(3, 3)  # the Come bet moves to 6
    for flat, kind, amount in ((line, "pass_odds", M(5)), (dp, "dont_pass_odds", M(20)),
                               (come, "come_odds", M(5))):  # fmt: skip
        odds = t.place_bet("alice", kind, amount, on=flat)[0].bet_id
        t.take_down("alice", odds)
        assert t.odds_on(flat) is None
        head = t.journal.head
        with pytest.raises(BetNotAllowed, match=r"taken down.*CR-R9"):
            t.place_bet("alice", kind, amount, on=flat)
        assert not t.can_place_bet("alice", kind, M(1), on=flat)
        assert t.journal.head == head
    # a table started again from a snapshot knows it too (its checkpoint re-derived)
    seq = len(t.journal)
    t.checkpoint()
    empty = Journal.resume(t.journal.game, t.journal.header, seq + 1, t.journal.head)
    again = CrapsTable.from_snapshot(t.latest_snapshot()[1], empty)  # type: ignore[index]
    assert not again.can_place_bet("alice", "pass_odds", M(1), on=line)
    assert replay(t.journal).snapshot() == t.snapshot()
    t.throw_dice(4, 5)  # a new Come bet, its point 9, takes its one odds bet
    other = t.place_bet("alice", "come", M(10))[0].bet_id
    t.throw_dice(4, 5)
    assert t.bet(other).point == 9
    t.place_bet("alice", "come_odds", M(6), on=other)
    assert replay(t.journal).snapshot() == t.snapshot()


def test_cr_r9_option_odds_increases_allows_more() -> None:
    """CR-R9, option ``odds_increases="allowed"``: a house may let the odds grow within the
    cap (CR-2.2, CR-R2) and be made again after they were taken down."""
    rules = CrapsRules(odds_increases="allowed")
    assert CrapsRules.from_json(rules.to_json()) == rules
    t = table(rules=rules)
    line = t.place_bet("alice", "pass", M(10))[0].bet_id
    t.throw_dice(1, 5)
    odds = t.place_bet("alice", "pass_odds", Money.parse("8.00"), on=line)[0].bet_id
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.2"):  # still within the cap
        t.increase_bet("alice", odds, Money.parse("0.34"))
    t.increase_bet("alice", odds, Money.parse("0.33"))
    assert t.bet(odds).amount == Money.parse("8.33")
    t.take_down("alice", odds)
    again = t.place_bet("alice", "pass_odds", M(8), on=line)[0].bet_id
    assert t.odds_on(line) == t.bet(again)
    with pytest.raises(InvalidInput, match="CR-R9"):
        CrapsRules(odds_increases="sometimes")  # type: ignore[arg-type]


def test_cr_12_bets_of_cr_4_to_cr_11_are_accepted_on_every_roll() -> None:
    """CR-12, CR-R8: Field, hard ways, Big 7, 11, Any Craps and the Big bets may be placed
    on a come-out and while a point is on, and work on the come-out."""
    names = [k.name for k in BET_KINDS.values() if k.rule in {f"CR-{n}" for n in range(4, 12)}]
    assert len(names) == 14
    t = table()
    for _ in range(2):
        for name in names:
            assert t.can_place_bet("alice", name, M(5)), (name, t.point)
        t.throw_dice(2, 3)
    t = table()
    hard = t.place_bet("alice", "hard4", M(5))[0].bet_id
    t.throw_dice(2, 2)  # a come-out roll: the hard 4 works (CR-R8)
    assert t.last_roll is not None
    assert t.last_roll.results[0]["bet"] == hard


# --- Table limits, funds, input -----------------------------------------------------------------


def test_table_limits_and_funds() -> None:
    """Table limits apply to flat bets; the wallet may not go below zero (ledger)."""
    t = table(rules=CrapsRules(min_bet=M(5), max_bet=M(500)))
    with pytest.raises(BetNotAllowed, match=r"below the table minimum MOP 5\.00"):
        t.place_bet("alice", "field", M(4))
    with pytest.raises(BetNotAllowed, match=r"above the table maximum MOP 500\.00"):
        t.place_bet("alice", "field", M(501))
    big = t.place_bet("alice", "big6", M(500))[0].bet_id
    with pytest.raises(BetNotAllowed, match="above the table maximum"):
        t.increase_bet("alice", big, M(1))
    t.place_bet("alice", "field", M(500))
    with pytest.raises(InsufficientFunds):
        t.place_bet("alice", "big8", M(5))
    assert t.balance("alice") == M(0)
    with pytest.raises(InvalidInput, match="positive"):
        t.place_bet("alice", "field", M(0))
    with pytest.raises(InvalidInput, match="plays in MOP"):
        t.place_bet("alice", "field", Money.of(5, HKD))
    with pytest.raises(InvalidInput, match="no seat"):
        t.place_bet("zed", "field", M(5))
    with pytest.raises(InvalidInput, match="no bet called"):
        bet_kind("lucky")


def test_spot_limits_are_a_bet_spots_own_and_read_back() -> None:
    """A casino's limits for some spots (a lower maximum on Big 7, a higher minimum on
    the Field); the other flat bets keep the table's; the rule set's JSON keeps them, and
    a rule set without them writes the JSON it always wrote (old journals read)."""
    rules = CrapsRules(
        min_bet=M(5),
        max_bet=M(500),
        spot_limits={"big7": (M(1), M(50)), "field": (M(20), M(500))},
    )
    t = table(rules=rules)
    with pytest.raises(BetNotAllowed, match=r"above the spot maximum MOP 50\.00 \(spot limits\)"):
        t.place_bet("alice", "seven", M(51))
    t.place_bet("alice", "big7", M(2))  # below the table's minimum: the spot's own
    with pytest.raises(BetNotAllowed, match=r"below the spot minimum MOP 20\.00"):
        t.place_bet("alice", "field", M(10))
    seven = t.place_bet("alice", "big7", M(50))[0].bet_id
    with pytest.raises(BetNotAllowed, match="spot maximum"):
        t.increase_bet("alice", seven, M(1))
    t.place_bet("alice", "pass", M(500))  # the table's limits
    with pytest.raises(BetNotAllowed, match=r"below the table minimum MOP 5\.00"):
        t.place_bet("alice", "eleven", M(4))
    data = rules.to_json()
    assert data["spot_limits"] == {"big7": [100, 5_000], "field": [2_000, 50_000]}
    assert CrapsRules.from_json(json.loads(json.dumps(data))) == rules
    plain = CrapsRules().to_json()
    assert "spot_limits" not in plain and list(plain) == list(CrapsRules.KEYS)
    assert CrapsRules.from_json(plain) == CrapsRules()
    for bad in (
        {"lucky": (M(1), M(2))},  # no such bet
        {"pass_odds": (M(1), M(2))},  # odds have only their cap (CR-2.2)
        {"field": (M(9), M(2))},  # minimum above maximum
        {"field": (M(0), M(2))},
        {"field": (Money.of(1, HKD), Money.of(2, HKD))},
    ):
        with pytest.raises(InvalidInput, match="spot_limits"):
            CrapsRules(spot_limits=bad)
    for bad_json in ({"field": [1]}, {"field": [1.5, 2]}, [1, 2]):
        with pytest.raises(InvalidInput, match="spot_limits"):
            CrapsRules.from_json({**plain, "spot_limits": bad_json})


def test_bet_names_and_pay_tables_read_back() -> None:
    """Aliases name the bets; pay tables are text that reads back (for the journal)."""
    assert bet_kind("dp").name == "dont_pass"
    assert bet_kind("11").name == "eleven"
    assert bet_kind("Any Craps").name == "any_craps"
    for kind in BET_KINDS.values():
        assert payout_from_text(str(kind.pays)) == kind.pays
    assert str(PerUnits(5, 9)) == "9/5U"
    assert payout_from_text("9:2") == Odds(9, 2)
    with pytest.raises(InvalidInput):
        payout_from_text("lots")
    with pytest.raises(InvalidInput):
        CrapsRules(pays={"lucky": Odds(1)})
    with pytest.raises(InvalidInput):
        CrapsRules(min_bet=M(10), max_bet=M(5))


# --- Settlement through the ledger; journal and replay ------------------------------------------


def test_settlement_moves_money_between_wallet_layout_and_house() -> None:
    """Zero-sum postings: stakes on the layout; winnings from the house; losses to it."""
    t = table()
    t.place_bet("alice", "field", M(10))
    t.place_bet("alice", "any_craps", M(10))
    t.throw_dice(6, 6)  # Field 2:1 (CR-4), Any Craps 7:1 (CR-8)
    assert t.balance("alice") == M(1000 + 20 + 70)
    money = ledger(t)
    assert money.balance(accounts.house("craps")) == M(-90)
    assert money.balance(accounts.wagers("craps")) == M(0)
    assert money.balance(accounts.stack("craps", "alice")) == M(1000 + 20 + 70)
    assert money.total().is_zero()


def test_replay_rebuilds_the_identical_table_and_refuses_a_forged_settlement() -> None:
    """The journal alone rebuilds the table (no RNG); a RollSettled that does not follow
    from the dice is refused."""
    rng = Rng.seeded("replay")
    t = table("alice", "bob", rules=CrapsRules(pays={"big7": Odds(4)}), rng=rng)
    t.place_bet("alice", "pass", M(10))
    t.place_bet("bob", "big7", M(5))
    for _ in range(12):
        assert t.shooter is not None
        t.throw(t.shooter, rng=rng)
    t.void_throw()
    loaded = Journal.from_json(t.journal.to_json())
    again = journal_replay(loaded)
    assert isinstance(again, CrapsTable)
    assert again.snapshot() == t.snapshot()
    assert again.journal.head == t.journal.head

    forged = t.journal.to_json()
    entries = forged["entries"]
    assert isinstance(entries, list)
    for entry in entries:
        assert isinstance(entry, dict)
        ev = entry["event"]
        assert isinstance(ev, dict)
        if ev["kind"] == "craps.roll_settled":
            data = ev["data"]
            assert isinstance(data, dict)
            data["total"] = 13
            break
    with pytest.raises(JournalError, match=r"entry \d+: .* the rules give craps.roll_settled"):
        replay(rechained(forged))
