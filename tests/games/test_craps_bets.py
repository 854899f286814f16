"""Craps, Portaria 97/85/M: every bet against all 36 dice outcomes, from each relevant state.

The expected results are written here again from the rules text (an oracle independent of
the engine's tables), and every payout is checked in minor units (avos).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import pytest

from macau_tables.core.money import Money
from macau_tables.games.craps import (
    DICE_OUTCOMES,
    POINTS,
    TOTAL_PROBABILITIES,
    CrapsTable,
    Dice,
    Odds,
)

ALL_DICE = [(a, b) for a in range(1, 7) for b in range(1, 7)]
BANKROLL = Money.of(100_000)
#: dice that make a total (the easy way where there is one, so hard ways stay untouched)
MAKE = {2: (1, 1), 3: (1, 2), 4: (1, 3), 5: (1, 4), 6: (1, 5), 7: (1, 6), 8: (2, 6),
        9: (3, 6), 10: (4, 6), 11: (5, 6), 12: (6, 6)}  # fmt: skip


@dataclass(frozen=True)
class Outcome:
    result: str  # "win", "lose", "push", "stands", "point"
    won: int = 0  # winnings in minor units (stake returned on top)


STANDS = Outcome("stands")


def table(point: int | None = None) -> CrapsTable:
    t = CrapsTable(["alice"])
    t.buy_in("alice", BANKROLL)
    if point is not None:
        t.throw_dice(*MAKE[point])
        assert t.point == point
    return t


def outcome_of(t: CrapsTable, bet_id: int, dice: tuple[int, int]) -> Outcome:
    """Throw ``dice`` and report what happened to ``bet_id``; check the wallet moved by it."""
    before = t.balance("alice")
    stake = t.bet(bet_id).amount
    t.throw_dice(*dice)
    assert t.last_roll is not None
    for r in t.last_roll.results:
        if r["bet"] == bet_id:
            delta = (t.balance("alice") - before).minor
            returned = {"win": stake.minor + r["won"], "push": stake.minor, "lose": 0}
            others = sum(
                x["stake"] + x["won"] if x["result"] == "win" else x["stake"]
                for x in t.last_roll.results
                if x["bet"] != bet_id and x["result"] != "lose"
            )
            assert delta == returned[r["result"]] + others
            return Outcome(r["result"], r["won"])
    assert t.balance("alice") == before
    bet = t.bet(bet_id)
    if any(p["bet"] == bet_id for p in t.last_roll.points):
        return Outcome("point", bet.point or 0)
    return STANDS


def win(stake: int, num: int, den: int = 1) -> Outcome:
    """Winnings of ``stake`` at num:den, rounded toward zero (CrapsRules.rounding)."""
    return Outcome("win", stake * num // den)


LOSE = Outcome("lose")
PUSH = Outcome("push")


# --- The chance outcomes ---------------------------------------------------------------


def test_cr_1_thirty_six_equally_likely_outcomes_of_two_dice() -> None:
    """CR-1: two dice; the engine's chance node lists the 36 pairs at 1/36 each."""
    assert [(d.d1, d.d2) for d, _ in DICE_OUTCOMES] == ALL_DICE
    assert sum(p for _, p in DICE_OUTCOMES) == 1
    assert TOTAL_PROBABILITIES[7] == Fraction(1, 6)
    assert TOTAL_PROBABILITIES[2] == TOTAL_PROBABILITIES[12] == Fraction(1, 36)
    assert str(Dice.parse("3-4")) == "3-4"
    assert Dice.parse(str(Dice(6, 1))) == Dice(6, 1)


# --- CR-2.1 Pass Line / CR-2.3 Come --------------------------------------------------------


def pass_expected(point: int | None, d: tuple[int, int], stake: int) -> Outcome:
    """CR-2.1 from the rules text."""
    t = sum(d)
    if point is None:
        if t in (7, 11):
            return win(stake, 1)
        if t in (2, 3, 12):
            return LOSE
        return Outcome("point", t)
    if t == point:
        return win(stake, 1)
    return LOSE if t == 7 else STANDS


@pytest.mark.parametrize("d", ALL_DICE)
def test_cr_2_1_pass_line_on_the_come_out(d: tuple[int, int]) -> None:
    """CR-2.1: 7 or 11 wins even money, 2, 3 or 12 loses, a point number becomes the point."""
    t = table()
    bet = t.place_bet("alice", "pass", Money.of(10))[0].bet_id
    assert outcome_of(t, bet, d) == pass_expected(None, d, 1000)


@pytest.mark.parametrize("point", POINTS)
def test_cr_2_1_pass_line_with_each_point_all_36(point: int) -> None:
    """CR-2.1: the point before a 7 wins even money; a 7 loses; anything else stands."""
    for d in ALL_DICE:
        t = table()
        bet = t.place_bet("alice", "pass", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        assert outcome_of(t, bet, d) == pass_expected(point, d, 1000), d


@pytest.mark.parametrize("d", ALL_DICE)
def test_cr_2_3_come_bet_in_transit_works_like_a_come_out(d: tuple[int, int]) -> None:
    """CR-2.3: a Come bet works like Pass Line from the next roll."""
    t = table(point=8)
    bet = t.place_bet("alice", "come", Money.of(10))[0].bet_id
    assert outcome_of(t, bet, d) == pass_expected(None, d, 1000)


@pytest.mark.parametrize("come_point", POINTS)
def test_cr_2_3_come_bet_on_its_own_point_all_36(come_point: int) -> None:
    """CR-2.3: a Come bet with its point wins on that number before a 7, loses on a 7."""
    table_point = 10 if come_point == 4 else 4
    for d in ALL_DICE:
        t = table(point=table_point)
        bet = t.place_bet("alice", "come", Money.of(7))[0].bet_id
        t.throw_dice(*MAKE[come_point])
        assert t.bet(bet).point == come_point
        assert outcome_of(t, bet, d) == pass_expected(come_point, d, 700), d


# --- CR-2.2 odds on Pass Line and Come ------------------------------------------------------

TAKE = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}  # CR-2.2


def most_odds(flat: int, point: int) -> int:
    """CR-2.2: the largest odds stake (minor units) whose winnings do not exceed the flat bet."""
    num, den = TAKE[point]
    return flat * den // num


@pytest.mark.parametrize("point", POINTS)
def test_cr_2_2_pass_line_odds_pay_true_odds_all_36(point: int) -> None:
    """CR-2.2: 2:1 on 4/10, 3:2 on 5/9, 6:5 on 6/8; the odds win and lose with the bet."""
    num, den = TAKE[point]
    stake = most_odds(1000, point)
    for d in ALL_DICE:
        t = table()
        flat = t.place_bet("alice", "pass", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        odds = t.place_bet("alice", "pass_odds", Money(stake), on=flat)[0].bet_id
        expected = pass_expected(point, d, stake)
        if expected.result == "win":
            expected = win(stake, num, den)
        assert outcome_of(t, odds, d) == expected, d


@pytest.mark.parametrize("point", POINTS)
def test_cr_2_3_come_odds_pay_as_cr_2_2_all_36(point: int) -> None:
    """CR-2.3: a Come bet may take odds as in CR-2.2."""
    num, den = TAKE[point]
    table_point = 10 if point == 4 else 4
    stake = most_odds(1000, point)
    for d in ALL_DICE:
        t = table(point=table_point)
        come = t.place_bet("alice", "come", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        odds = t.place_bet("alice", "come_odds", Money(stake), on=come)[0].bet_id
        expected = pass_expected(point, d, stake)
        if expected.result == "win":
            expected = win(stake, num, den)
        assert outcome_of(t, odds, d) == expected, d


def test_cr_2_2_odds_winnings_in_minor_units() -> None:
    """CR-2.2: MOP 10 flat; the largest odds and what they win (6:5 on 8.33 rounds down)."""
    wins = {}
    for point in POINTS:
        t = table()
        flat = t.place_bet("alice", "pass", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        odds = t.place_bet("alice", "pass_odds", Money(most_odds(1000, point)), on=flat)[0]
        t.throw_dice(*MAKE[point])
        assert t.last_roll is not None
        wins[point] = next(r["won"] for r in t.last_roll.results if r["bet"] == odds.bet_id)
    assert wins == {4: 1000, 10: 1000, 5: 999, 9: 999, 6: 999, 8: 999}


# --- CR-3.1 Don't Pass / CR-3.3 Don't Come ----------------------------------------------------


def dont_expected(point: int | None, d: tuple[int, int], stake: int) -> Outcome:
    """CR-3.1 from the rules text: bar 12."""
    t = sum(d)
    if point is None:
        if t in (2, 3):
            return win(stake, 1)
        if t == 12:
            return PUSH
        if t in (7, 11):
            return LOSE
        return Outcome("point", t)
    if t == 7:
        return win(stake, 1)
    return LOSE if t == point else STANDS


@pytest.mark.parametrize("d", ALL_DICE)
def test_cr_3_1_dont_pass_on_the_come_out_bar_12(d: tuple[int, int]) -> None:
    """CR-3.1: 2 or 3 wins, 12 pushes, 7 or 11 loses; a point number sets the point."""
    t = table()
    bet = t.place_bet("alice", "dp", Money.of(10))[0].bet_id
    assert outcome_of(t, bet, d) == dont_expected(None, d, 1000)


@pytest.mark.parametrize("point", POINTS)
def test_cr_3_1_dont_pass_with_each_point_all_36(point: int) -> None:
    """CR-3.1: a 7 before the point wins even money; the point loses."""
    for d in ALL_DICE:
        t = table()
        bet = t.place_bet("alice", "dont_pass", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        assert outcome_of(t, bet, d) == dont_expected(point, d, 1000), d


@pytest.mark.parametrize("d", ALL_DICE)
def test_cr_3_3_dont_come_in_transit_works_like_dont_pass(d: tuple[int, int]) -> None:
    """CR-3.3: Don't Come works like Don't Pass from the next roll (12 pushes)."""
    t = table(point=5)
    bet = t.place_bet("alice", "dont_come", Money.of(10))[0].bet_id
    assert outcome_of(t, bet, d) == dont_expected(None, d, 1000)


@pytest.mark.parametrize("dc_point", POINTS)
def test_cr_3_3_dont_come_on_its_own_point_all_36(dc_point: int) -> None:
    """CR-3.3: a Don't Come bet with its point wins on a 7, loses on its number."""
    table_point = 10 if dc_point == 4 else 4
    for d in ALL_DICE:
        t = table(point=table_point)
        bet = t.place_bet("alice", "dc", Money.of(7))[0].bet_id
        t.throw_dice(*MAKE[dc_point])
        assert outcome_of(t, bet, d) == dont_expected(dc_point, d, 700), d


# --- CR-3.2 lay odds ---------------------------------------------------------------------------

LAY = {4: (1, 2), 10: (1, 2), 5: (2, 3), 9: (2, 3), 6: (5, 6), 8: (5, 6)}  # CR-3.2


@pytest.mark.parametrize("point", POINTS)
def test_cr_3_2_dont_pass_lay_odds_all_36(point: int) -> None:
    """CR-3.2: the lay pays 1:2 on 4/10, 2:3 on 5/9, 5:6 on 6/8; capped by CR-R2."""
    num, den = LAY[point]
    stake = 1000 * den // num  # CR-R2: the lay may win at most the flat bet
    for d in ALL_DICE:
        t = table()
        flat = t.place_bet("alice", "dont_pass", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        lay = t.place_bet("alice", "dont_pass_odds", Money(stake), on=flat)[0].bet_id
        expected = dont_expected(point, d, stake)
        if expected.result == "win":
            expected = win(stake, num, den)
            assert expected.won == 1000
        assert outcome_of(t, lay, d) == expected, d


@pytest.mark.parametrize("point", POINTS)
def test_cr_3_3_dont_come_lay_odds_all_36(point: int) -> None:
    """CR-3.3: Don't Come may lay odds as CR-3.2."""
    num, den = LAY[point]
    table_point = 10 if point == 4 else 4
    for d in ALL_DICE:
        t = table(point=table_point)
        dc = t.place_bet("alice", "dont_come", Money.of(10))[0].bet_id
        t.throw_dice(*MAKE[point])
        lay = t.place_bet("alice", "dont_come_odds", Money.of(6), on=dc)[0].bet_id
        expected = dont_expected(point, d, 600)
        if expected.result == "win":
            expected = win(600, num, den)
        assert outcome_of(t, lay, d) == expected, d


# --- CR-4 … CR-8 one-roll bets and hard ways, on the come-out (CR-R8) and on a point -------------

STATES = [None, 4, 6, 8, 10]


def field_expected(d: tuple[int, int], stake: int) -> Outcome:
    """CR-4: 3, 4, 9, 10, 11 even money; 2 and 12 double; 5, 6, 7, 8 lose."""
    t = sum(d)
    if t in (2, 12):
        return win(stake, 2)
    return win(stake, 1) if t in (3, 4, 9, 10, 11) else LOSE


@pytest.mark.parametrize("point", STATES)
def test_cr_4_field_pays_double_on_2_and_12(point: int | None) -> None:
    """CR-4 (one roll), every roll (CR-12, CR-R8): the Field over all 36 outcomes."""
    for d in ALL_DICE:
        t = table(point)
        bet = t.place_bet("alice", "field", Money.of(10))[0].bet_id
        assert outcome_of(t, bet, d) == field_expected(d, 1000), d


HARD = {4: 7, 6: 9, 8: 9, 10: 7}  # CR-5: hard 6 and 8 win 9 to 1; hard 4 and 10 win 7 to 1


@pytest.mark.parametrize("number", sorted(HARD))
@pytest.mark.parametrize("point", STATES)
def test_cr_5_hard_ways_all_36(number: int, point: int | None) -> None:
    """CR-5: the pair wins (9:1 on 6/8, 7:1 on 4/10); a 7 or the easy way loses; else stands."""
    for d in ALL_DICE:
        t = table(point)
        bet = t.place_bet("alice", f"hard{number}", Money.of(10))[0].bet_id
        total = sum(d)
        if total == number and d[0] == d[1]:
            expected = win(1000, HARD[number])
        elif total in (7, number):
            expected = LOSE
        else:
            expected = STANDS
        assert outcome_of(t, bet, d) == expected, d


def test_cr_5_hard_way_stands_until_decided() -> None:
    """CR-5: any other total rolls again and the bet stands, then the pair wins."""
    t = table()
    bet = t.place_bet("alice", "hard8", Money.of(5))[0].bet_id
    assert outcome_of(t, bet, (2, 3)) == STANDS
    assert outcome_of(t, bet, (6, 6)) == STANDS
    assert outcome_of(t, bet, (4, 4)) == Outcome("win", 4500)


ONE_ROLL = {
    # name: (rule, winning totals, odds)
    "big7": ("CR-6", {7}, (9, 2)),  # CR-6, CR-R5: 4.5 to 1
    "eleven": ("CR-7", {11}, (15, 1)),  # CR-7
    "any_craps": ("CR-8", {2, 3, 12}, (7, 1)),  # CR-8
}


@pytest.mark.parametrize("name", sorted(ONE_ROLL))
@pytest.mark.parametrize("point", STATES)
def test_cr_6_cr_7_cr_8_one_roll_bets_all_36(name: str, point: int | None) -> None:
    """CR-6 Big 7 at 4.5:1, CR-7 11 at 15:1, CR-8 Any Craps at 7:1; all else loses."""
    _, wins, (num, den) = ONE_ROLL[name]
    for stake in (1000, 400, 101):
        for d in ALL_DICE:
            t = table(point)
            bet = t.place_bet("alice", name, Money(stake))[0].bet_id
            expected = win(stake, num, den) if sum(d) in wins else LOSE
            assert outcome_of(t, bet, d) == expected, (stake, d)


def test_cr_6_cr_r5_big_7_pays_four_and_a_half_in_minor_units() -> None:
    """CR-6, CR-R5: MOP 10 wins MOP 45; MOP 1.01 wins 4.545 → MOP 4.54 (rounded down)."""
    for stake, won in ((1000, 4500), (400, 1800), (101, 454), (333, 1498)):
        t = table()
        bet = t.place_bet("alice", "big7", Money(stake))[0].bet_id
        assert outcome_of(t, bet, (3, 4)) == Outcome("win", won)


# --- CR-9 … CR-11 Big bets (CR-R3 a 7 loses, CR-R4 unit payouts) ---------------------------------

BIG = {  # name: (number, units, wins per full block)
    "big6": (6, 6, 7),  # CR-9
    "big8": (8, 6, 7),  # CR-9
    "big5": (5, 5, 7),  # CR-10
    "big9": (9, 5, 7),  # CR-10
    "big4": (4, 5, 9),  # CR-11, CR-R4
    "big10": (10, 5, 9),  # CR-11, CR-R4
}


def big_winnings(stake: int, units: int, wins: int) -> int:
    """CR-R4 from the text: `wins` patacas per full `units` patacas, even money on the rest."""
    full, rest = divmod(stake, units * 100)
    return full * wins * 100 + rest


@pytest.mark.parametrize("name", sorted(BIG))
@pytest.mark.parametrize("point", STATES)
def test_cr_9_cr_10_cr_11_big_bets_all_36(name: str, point: int | None) -> None:
    """CR-9 … CR-11: the number before a 7 wins (unit payouts, CR-R4); a 7 loses (CR-R3);
    any other total decides nothing."""
    number, units, wins = BIG[name]
    for stake in (1000, 400, 700, 1250):
        for d in ALL_DICE:
            t = table(point)
            bet = t.place_bet("alice", name, Money(stake))[0].bet_id
            total = sum(d)
            if total == number:
                expected = Outcome("win", big_winnings(stake, units, wins))
            elif total == 7:
                expected = LOSE
            else:
                expected = STANDS
            assert outcome_of(t, bet, d) == expected, (stake, d)


def test_cr_r4_big_bet_payouts_of_odd_amounts_in_minor_units() -> None:
    """CR-R4: exact unit payouts — MOP 10 and MOP 4 on each Big bet."""
    paid = {}
    for name, (number, _, _) in BIG.items():
        for stake in (Money.of(10), Money.of(4), Money.parse("12.50")):
            t = table()
            bet = t.place_bet("alice", name, stake)[0].bet_id
            paid[name, str(stake)] = outcome_of(t, bet, MAKE[number]).won
    assert paid == {
        # CR-9: 6 wins 7; MOP 10 = 6 (wins 7) + 4 (even money) → 11; under 6 even money.
        ("big6", "MOP 10.00"): 1100, ("big6", "MOP 4.00"): 400, ("big6", "MOP 12.50"): 1450,
        ("big8", "MOP 10.00"): 1100, ("big8", "MOP 4.00"): 400, ("big8", "MOP 12.50"): 1450,
        # CR-10: 5 wins 7; MOP 10 = 2 × 5 → 14.
        ("big5", "MOP 10.00"): 1400, ("big5", "MOP 4.00"): 400, ("big5", "MOP 12.50"): 1650,
        ("big9", "MOP 10.00"): 1400, ("big9", "MOP 4.00"): 400, ("big9", "MOP 12.50"): 1650,
        # CR-11: 5 wins 9; MOP 10 = 2 × 5 → 18; under 5 even money (CR-R4).
        ("big4", "MOP 10.00"): 1800, ("big4", "MOP 4.00"): 400, ("big4", "MOP 12.50"): 2050,
        ("big10", "MOP 10.00"): 1800, ("big10", "MOP 4.00"): 400, ("big10", "MOP 12.50"): 2050,
    }  # fmt: skip


def test_cr_r3_seven_loses_the_big_bets_and_other_totals_decide_nothing() -> None:
    """CR-R3: Big 6 stands on 5, 8, 12 …, loses on 7."""
    t = table()
    bet = t.place_bet("alice", "big6", Money.of(6))[0].bet_id
    for d in ((1, 4), (2, 6), (6, 6), (1, 1)):
        assert outcome_of(t, bet, d) == STANDS
    assert outcome_of(t, bet, (2, 5)) == LOSE


def test_cr_r5_a_casino_paying_big_7_at_4_to_1_changes_one_number() -> None:
    """CR-R5: the pay table is a rule-set value: Big 7 at 4:1 is data, not code."""
    from macau_tables.games.craps import CrapsRules

    t = CrapsTable(["alice"], CrapsRules(pays={"big7": Odds(4)}))
    t.buy_in("alice", BANKROLL)
    bet = t.place_bet("alice", "big7", Money.of(10))[0].bet_id
    assert outcome_of(t, bet, (1, 6)) == Outcome("win", 4000)
