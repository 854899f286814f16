"""Exact craps PAR sheet (analysis.craps) against published figures, the rules and the engine.

The published anchors are computed, not copied: each is the expected value of the sheet
the engine's own bet data produce. Independent checks recompute a figure by a closed
formula from :data:`TOTAL_PROBABILITIES`; the engine checks play every transition (and
random sessions) on a real :class:`CrapsTable` and compare its ledger with the chain.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

from macau_tables.analysis.craps import (
    CrapsLine,
    End,
    absorb,
    craps_lines,
    craps_par,
    full_odds_stake,
    step,
)
from macau_tables.analysis.par import ParSheet, percent
from macau_tables.core.errors import BetNotAllowed, InvalidInput
from macau_tables.core.money import Money, Rounding
from macau_tables.core.rng import Rng
from macau_tables.games.craps import (
    BET_KINDS,
    DICE_OUTCOMES,
    EVEN,
    POINTS,
    TOTAL_PROBABILITIES,
    ByNumber,
    CrapsRules,
    CrapsTable,
    Dice,
    Odds,
    PerUnits,
    Result,
    When,
    iter_kinds,
)

F = Fraction
P = TOTAL_PROBABILITIES
SHEET = craps_par()


def edge(name: str, sheet: ParSheet = SHEET) -> Fraction:
    return sheet.line(name).house_edge


# --- published anchors -----------------------------------------------------------------------

#: (line, the published edge as a fraction or None, the published percent, its places)
ANCHORS = [
    ("Pass Line", F(7, 495), "1.414%", 3),  # CR-2.1
    ("Don't Pass", F(3, 220), "1.364%", 3),  # CR-3.1 (bar 12, push counted as resolved)
    ("Field", F(1, 18), "5.556%", 3),  # CR-4, 2 and 12 double
    ("Hard 6", F(1, 11), "9.09%", 2),  # CR-5, 9 to 1
    ("Hard 8", F(1, 11), "9.09%", 2),
    ("Hard 4", F(1, 9), "11.11%", 2),  # CR-5, 7 to 1
    ("Hard 10", F(1, 9), "11.11%", 2),
    ("11", F(1, 9), "11.11%", 2),  # CR-7, 15 to 1
    ("Any Craps", F(1, 9), "11.11%", 2),  # CR-8, 7 to 1
    ("Big 6", F(1, 66), "1.515%", 3),  # CR-9, 7 for 6 (CR-R4)
    ("Big 8", F(1, 66), "1.515%", 3),
    ("Big 5", None, "4.0%", 1),  # CR-10, 7 for 5 (CR-R4)
    ("Big 9", None, "4.0%", 1),
    ("Big 4", None, "6.67%", 2),  # CR-11, 9 for 5 (CR-R4)
    ("Big 10", None, "6.67%", 2),
    ("Big 7", F(1, 12), "8.33%", 2),  # CR-6, 4.5 to 1 (CR-R5)
]


@pytest.mark.parametrize(("name", "exact", "published", "places"), ANCHORS)
def test_published_house_edges(
    name: str, exact: Fraction | None, published: str, places: int
) -> None:
    got = edge(name)
    if exact is not None:
        assert got == exact
    assert percent(got, places) == published


def test_cr_10_cr_11_big_bets_exact() -> None:
    """The anchors published as decimals are these fractions (2/5 · 12/5 and 1/3 · 14/5)."""
    assert edge("Big 5") == edge("Big 9") == F(1, 25)
    assert edge("Big 4") == edge("Big 10") == F(1, 15)


def test_cr_2_1_cr_3_1_per_roll_and_excluding_push() -> None:
    """Per roll: 7/495 over 557/165 rolls (0.42%); Don't Pass 0.40%; ties not counted 1.40%."""
    pass_line, dont = SHEET.line("Pass Line"), SHEET.line("Don't Pass")
    rolls = 1 + sum(P[p] / (P[p] + P[7]) for p in POINTS)  # the come-out and the point
    assert pass_line.extras["mean_rolls"] == dont.extras["mean_rolls"] == rolls == F(557, 165)
    assert pass_line.extras["edge_per_roll"] == F(7, 495) / rolls == F(7, 1671)
    assert percent(pass_line.extras["edge_per_roll"], 2) == "0.42%"
    assert percent(dont.extras["edge_per_roll"], 2) == "0.40%"
    assert dont.extras["edge_excluding_push"] == F(3, 220) / (1 - P[12]) == F(27, 1925)
    assert percent(dont.extras["edge_excluding_push"], 2) == "1.40%"
    assert dont.probability("push") == P[12]  # CR-3.1: 12 pushes, on the come-out only
    assert "edge_excluding_push" not in pass_line.extras


def test_cr_5_hard_ways_per_roll() -> None:
    """A hard way resolves on its total or a 7: 1/36 per roll for all four (2.78%)."""
    for n in (4, 6, 8, 10):
        line = SHEET.line(f"Hard {n}")
        assert line.extras["mean_rolls"] == 1 / (P[n] + P[7])
        assert line.extras["edge_per_roll"] == F(1, 36)


def test_cr_4_field_outcomes_by_number() -> None:
    field = SHEET.line("Field")
    by_label = {o.label: (o.net, o.probability) for o in field.outcomes}
    assert by_label == {
        "win on 2, 12": (F(2), P[2] + P[12]),
        "win on 3, 4, 9, 10, 11": (F(1), P[3] + P[4] + P[9] + P[10] + P[11]),
        "lose": (F(-1), P[5] + P[6] + P[7] + P[8]),
    }
    assert field.extras["mean_rolls"] == 1


def test_cr_r4_big_bets_net_per_block_and_small_stakes() -> None:
    """Big 6 wins 7 for a stake of 6 U; a stake under 6 U wins even money (edge 1/11)."""
    big6 = SHEET.line("Big 6")
    assert {o.label: o.net for o in big6.outcomes} == {"win": F(7, 6), "lose": -1}
    assert big6.probability("win") == P[6] / (P[6] + P[7])
    assert any(percent(F(1, 11)) in n for n in big6.notes)


# --- every bet of the engine, odds, sums -----------------------------------------------------


def test_every_engine_bet_has_a_line() -> None:
    names = {b.name for b in SHEET.lines}
    expected: set[str] = set()
    for kind in iter_kinds():
        if kind.on is None:
            expected.add(kind.label)
        else:
            expected |= {f"{kind.label} on {p}" for p in POINTS}
    expected |= {"Pass Line + full odds", "Don't Pass + full lay odds"}
    assert names == expected
    assert len(SHEET.lines) == len(expected)  # no line twice
    for b in SHEET.lines:
        assert b.rule is not None and re.fullmatch(r"CR-[\d.]+(, CR-[\d.]+)*", b.rule)


@pytest.mark.parametrize("cap", ["winnings", "stake"])
def test_cr_2_2_cr_3_2_odds_have_no_edge(cap: str) -> None:
    sheet = craps_par(CrapsRules(odds_cap=cap))  # type: ignore[arg-type]
    odds = [b for b in sheet.lines if " odds on " in b.name]
    assert len(odds) == 4 * len(POINTS)
    for b in odds:
        assert b.house_edge == 0
        assert b.extras["edge_per_roll"] == 0
        point = int(b.name.rsplit(" ", 1)[1])
        assert b.extras["mean_rolls"] == 1 / (P[point] + P[7])


def test_probabilities_sum_to_one_and_labels_are_distinct() -> None:
    for b in SHEET.lines:
        assert sum(o.probability for o in b.outcomes) == 1
        assert all(o.probability > 0 for o in b.outcomes)
        assert len({o.label for o in b.outcomes}) == len(b.outcomes)
        assert b.extras["edge_per_roll"] * b.extras["mean_rolls"] == b.extras.get(
            "combined_edge", b.house_edge
        )


def test_cr_2_3_cr_3_3_come_lines_equal_pass_lines() -> None:
    assert SHEET.line("Come").outcomes == SHEET.line("Pass Line").outcomes
    assert SHEET.line("Don't Come").outcomes == SHEET.line("Don't Pass").outcomes


# --- combinations at the odds cap ------------------------------------------------------------


def _combined(flat_edge: Fraction, odds_stake: dict[int, Fraction]) -> Fraction:
    """The combined edge by formula: the flat bet's loss over the expected total stake."""
    return flat_edge / (1 + sum(P[p] * odds_stake[p] for p in POINTS))


TAKE = {4: F(2), 10: F(2), 5: F(3, 2), 9: F(3, 2), 6: F(6, 5), 8: F(6, 5)}


def test_cr_2_2_pass_with_full_odds() -> None:
    """Winnings capped at the flat bet (CR-2.2): odds ½, ⅔, ⅚ of the flat bet."""
    line = SHEET.line("Pass Line + full odds")
    assert line.house_edge == F(7, 495)  # per unit of flat bet: the odds add nothing
    expected = _combined(F(7, 495), {p: 1 / r for p, r in TAKE.items()})
    assert line.extras["combined_edge"] == expected == F(42, 4345)
    assert line.extras["mean_stake"] == F(79, 54)
    assert line.probability("win on the come-out") == P[7] + P[11]


def test_cr_r2_single_odds_published_combined_edges() -> None:
    """Published: Pass with 1x odds 0.848% (7/825); Don't Pass laying to win 1x 0.682%."""
    stake = craps_par(CrapsRules(odds_cap="stake"))
    assert stake.line("Pass Line + full odds").extras["combined_edge"] == F(7, 825)
    assert percent(F(7, 825), 3) == "0.848%"
    dont = SHEET.line("Don't Pass + full lay odds")  # CR-R2: the lay wins at most the flat bet
    assert dont.extras["mean_stake"] == 2
    assert dont.extras["combined_edge"] == F(3, 440)
    assert percent(F(3, 440), 3) == "0.682%"
    same = _combined(F(3, 220), dict.fromkeys(POINTS, F(1)))
    assert stake.line("Don't Pass + full lay odds").extras["combined_edge"] == same
    # a bar-12 push is counted as a bet never made: the flat stake alone leaves the total
    assert dont.extras["edge_excluding_push"] == F(3, 220) / (2 - P[12])


@pytest.mark.parametrize("cap", ["winnings", "stake"])
def test_cr_r2_full_odds_stake_is_the_engines_cap(cap: str) -> None:
    """The stake the analysis lays is exactly the most the table accepts on a MOP 30 bet."""
    rules = CrapsRules(odds_cap=cap)  # type: ignore[arg-type]
    for flat_name in ("pass", "dont_pass"):
        odds_kind = next(k for k in iter_kinds() if k.on == flat_name)
        for point in POINTS:
            t = CrapsTable(("a",), rules)
            t.buy_in("a", Money.of(1000))
            flat = t.place_bet("a", flat_name, Money.of(30))[0].bet_id
            t.throw_dice(*next((d.d1, d.d2) for d, _ in DICE_OUTCOMES if d.total == point))
            most = full_odds_stake(rules, odds_kind, point) * 3000
            assert most.denominator == 1
            too_much = Money(int(most) + 1)
            with pytest.raises(BetNotAllowed, match="CR-"):
                t.place_bet("a", odds_kind, too_much, on=flat)
            t.place_bet("a", odds_kind, Money(int(most)), on=flat)


# --- rule-set options change the figures where they change payouts ---------------------------


def test_cr_r5_pays_override_changes_the_figures() -> None:
    """Big 7 at 4 to 1, Field 12 triple, hard 6 at 7 to 1: the published variant edges."""
    field3 = ByNumber("total", ((2, Odds(2)), (12, Odds(3))), EVEN)
    rules = CrapsRules(pays={"big7": Odds(4), "field": field3, "hard6": Odds(7)})
    sheet = craps_par(rules)
    assert edge("Big 7", sheet) == F(1, 6)  # 16.67%
    assert edge("Field", sheet) == F(1, 36)  # 2.78%
    assert edge("Hard 6", sheet) == F(3, 11)  # 27.27%
    assert sheet.line("Big 7").pays == "4:1"
    # CR-9 「六元投注金可贏取七元彩金」: 7 to 6, written like the other lines (not "7 for 6")
    default = craps_par()
    assert default.line("Big 6").pays == default.line("Big 8").pays == "7:6 per full 6 U"
    assert default.line("Big 5").pays == "7:5 per full 5 U"
    assert default.line("Big 4").pays == "9:5 per full 5 U"
    assert sheet.options == rules.to_json()
    for name in ("Pass Line", "Don't Pass", "Hard 8", "Big 6"):
        assert sheet.line(name).outcomes == SHEET.line(name).outcomes


def test_cr_r4_big_unit_and_block_override() -> None:
    """The unit U scales the block, not the net per block; a new block size changes it."""
    two = craps_par(CrapsRules(big_unit=Money.of(2), rounding=Rounding.HALF_EVEN))
    assert two.line("Big 6").outcomes == SHEET.line("Big 6").outcomes
    five = craps_par(CrapsRules(pays={"big6": PerUnits(5, 6)}))  # 6 for 5
    assert five.line("Big 6").house_edge == 1 - P[6] / (P[6] + P[7]) * (1 + F(6, 5))


def test_cr_r2_odds_cap_changes_only_the_combinations() -> None:
    stake = craps_par(CrapsRules(odds_cap="stake"))
    for a, b in zip(SHEET.lines, stake.lines, strict=True):
        assert a.name == b.name
        if "+ full" in a.name:
            assert a.extras["combined_edge"] != b.extras["combined_edge"]
        else:
            assert a.outcomes == b.outcomes


# --- the engine: every transition on a real table, and random sessions -----------------------


VARIANT = CrapsRules(
    odds_cap="stake",
    big_unit=Money.of(5),
    pays={
        "big7": Odds(4),
        "field": ByNumber("total", ((2, Odds(2)), (12, Odds(3))), EVEN),
        "big4": PerUnits(5, 8),
        "pass_odds": ByNumber("point", ((4, Odds(2)), (10, Odds(2))), Odds(1)),
    },
)


@pytest.mark.parametrize("rules", [CrapsRules(), VARIANT], ids=["macau", "variant"])
def test_sheet_through_the_table_is_identical(rules: CrapsRules) -> None:
    """Every transition played on a fresh CrapsTable (bets placed through the engine's
    checks, dice thrown, winnings read from its ledger) gives the same sheet, exactly."""
    assert craps_par(rules, through_table=True).to_json() == craps_par(rules).to_json()


def _open(t: CrapsTable, line: CrapsLine, unit: int) -> list[int]:
    """Put ``line``'s starting bets on ``t``: the flat bet (its point made by a throw), then
    the odds on it; a stake-0 flat bet gets room for the odds (double the unit)."""
    ids: list[int] = []
    for held in line.start:
        kind = BET_KINDS[held.bet.kind]
        stake = Money(int(held.stake * unit) if held.stake else 2 * unit)
        if kind.on is not None:
            ids.append(t.place_bet("a", kind, stake, on=ids[0])[0].bet_id)
            continue
        if kind.when is When.POINT_ON:
            t.throw_dice(1, 3)  # a point on, for Come / Don't Come (CR-R6)
        ids.append(t.place_bet("a", kind, stake)[0].bet_id)
        if held.bet.point is not None:
            t.throw_dice(*next((d.d1, d.d2) for d, _ in DICE_OUTCOMES if d.total == held.bet.point))
    return ids


@pytest.mark.parametrize("line", craps_lines(), ids=lambda line: line.name)
def test_random_sessions_decide_as_the_table(line: CrapsLine) -> None:
    """Random rolls on one table per session: each roll the chain's step and the engine
    agree on the bets still up (kind, point) and, at the end, on the result and the net."""
    rules = CrapsRules()
    rng = Rng.seeded("test_craps_par", line.name)
    payout = rules.payout(BET_KINDS[line.start[0].bet.kind])
    # one unit of the line: MOP 60 (winnings and capped odds whole), a Big bet's block
    unit = rules.big_unit.minor * payout.units if isinstance(payout, PerUnits) else 6000
    for _ in range(12):
        t = CrapsTable(("a",), rules)
        t.buy_in("a", Money.of(10**6))
        ids = _open(t, line, unit)
        before = t.balance("a") + t.on_layout("a")
        counted = {i: bool(h.stake) for i, h in zip(ids, line.start, strict=True)}
        position = line.start
        for _roll in range(200):
            d1, d2 = rng.dice(2)
            nxt = step(rules, line, position, Dice(d1, d2))
            t.throw_dice(d1, d2)
            assert t.last_roll is not None
            if isinstance(nxt, End):
                results = {r["bet"]: r for r in t.last_roll.results}
                assert set(results) == set(ids)  # all decided together
                lead = next(i for i in ids if counted[i])
                assert nxt.result is Result(results[lead]["result"])
                won = sum(
                    r["won"] if r["result"] == "win" else -r["stake"] if r["result"] == "lose"
                    else 0
                    for i, r in results.items() if counted[i]
                )  # fmt: skip
                assert nxt.net == F(won, unit)
                if all(counted.values()):
                    assert t.balance("a") - before == Money(won)
                break
            if len(nxt) > len(position):  # full odds laid when the point came
                odds = nxt[-1]
                ids.append(t.place_bet("a", odds.bet.kind, Money(int(odds.stake * unit)),
                                       on=ids[0])[0].bet_id)  # fmt: skip
                counted[ids[-1]] = True
            assert [(b.kind, b.point) for b in t.bets] == [(h.bet.kind, h.bet.point) for h in nxt]
            position = nxt
        else:
            pytest.fail(f"{line.name}: not resolved in 200 rolls")


# --- the solver and bad input ----------------------------------------------------------------


def test_absorb_solves_a_geometric_chain() -> None:
    """ "Roll until a 6 or 7": P(6 first) = 5/11, expected rolls 36/11."""

    def move(state: int, dice: Dice) -> int | End:
        if dice.total in (6, 7):
            return End(Result.WIN if dice.total == 6 else Result.LOSE, F(0))
        return state

    probabilities, rolls = absorb(0, move)
    assert probabilities == {End(Result.WIN, F(0)): F(5, 11), End(Result.LOSE, F(0)): F(6, 11)}
    assert rolls == F(36, 11)


def test_absorb_refuses_a_chain_that_never_ends() -> None:
    with pytest.raises(InvalidInput, match="never be resolved"):
        absorb(0, lambda s, d: 1 - s)


def test_bad_input_is_a_typed_error() -> None:
    with pytest.raises(InvalidInput, match="CrapsRules"):
        craps_par("macau")  # type: ignore[arg-type]
    free = CrapsRules(pays={"pass_odds": Odds(0)})  # odds that win nothing: no cap on them
    with pytest.raises(InvalidInput, match="CR-2.2"):
        craps_par(free)
    with pytest.raises(InvalidInput, match="CR-3.2"):
        craps_par(CrapsRules(pays={"dont_pass_odds": PerUnits(5, 7)}))
