"""The craps simulation kernel against the readable engine and exact figures.

The kernel must decide every bet exactly as :class:`CrapsTable` does on the same dice (CR-2.1 …
CR-11, the odds caps CR-2.2/CR-R2, the Big bets' unit payouts CR-R4), and its long-run
means must sit within 4 sigma of the exact expectations computed from the engine's BetKind
data (Pass 7/495, Don't Pass 3/220, Field 1/18).
"""

from __future__ import annotations

import math
from collections import defaultdict
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.analysis.kernels import craps_sim as cs
from macau_tables.analysis.kernels.craps_sim import CrapsProgram
from macau_tables.analysis.kernels.rng import generator
from macau_tables.core.errors import BetNotAllowed, InvalidInput
from macau_tables.core.money import Money
from macau_tables.games.craps import (
    BET_KINDS,
    DICE_OUTCOMES,
    ByNumber,
    CrapsRules,
    Odds,
    OpenBet,
    Result,
)

#: Nearly every bet of the regulation at once, with odds and lay odds at the cap.
EVERY_BET = CrapsProgram.of(
    pass_line=6, dont_pass=6, come=6, dont_come=6, field=1, hard4=1, hard6=2, hard8=1,
    hard10=3, big7=2, eleven=1, any_craps=1, big6=6, big8=7, big5=5, big9=3, big4=5,
    big10=11, odds="max", lay="max", come_max=3, dont_come_max=2,
)  # fmt: skip


def _decisions(series: dict[str, np.ndarray]) -> list[tuple[int, ...]]:
    """(roll, kind, point, result, stake, won) of every decision, sorted (the kernel and the
    engine list a roll's decisions in different orders)."""
    rolls = np.repeat(np.arange(len(series["total"])), series["decisions"])
    cols = [series[k] for k in cs._DECISION_KEYS]
    return sorted(zip(rolls.tolist(), *(c.tolist() for c in cols), strict=True))


def assert_same(dice: np.ndarray, program: CrapsProgram, rules: CrapsRules | None = None) -> None:
    kernel = cs.run_dice(dice, program, rules, series=True)
    engine = cs.run_engine(dice, program, rules, series=True)
    assert kernel.rounds == engine.rounds == len(dice)
    assert kernel.counts == engine.counts
    assert kernel.nets == engine.nets
    for key in cs._ROLL_KEYS:  # dice, money placed/returned, net, decisions: roll by roll
        assert np.array_equal(kernel.series[key], engine.series[key]), key
    assert _decisions(kernel.series) == _decisions(engine.series)
    assert int(kernel.series["net"].sum()) == int(engine.series["net"].sum())


# --- the kernel decides as the engine does -------------------------------------------------


def test_every_bet_matches_the_engine_on_random_dice() -> None:
    """CR-2.1 … CR-11 with odds (CR-2.2, CR-3.2), Come/Don't Come points (CR-2.3, CR-3.3),
    hard ways (CR-5), one-roll bets (CR-4, CR-6 … CR-8) and Big bets (CR-9 … CR-11)."""
    dice = generator(7).integers(1, 7, size=(400, 2))
    result = cs.run_dice(dice, EVERY_BET)
    # the sequence is long enough to reach every line of the program
    assert all(sum(c.values()) > 0 for c in result.counts.values()), result.counts
    assert_same(dice, EVERY_BET)


def test_variant_rules_match_the_engine() -> None:
    """CR-R2 odds_cap='stake', a casino's Big 7 at 4 to 1 (CR-R5) and a Field paying 12
    triple, props only while a point is on: the kernel follows the rules it is given."""
    rules = CrapsRules(
        odds_cap="stake",
        pays={"big7": Odds(4), "field": ByNumber("total", ((2, Odds(2)), (12, Odds(3))), Odds(1))},
    )
    program = CrapsProgram.of(
        pass_line=5, dont_come=4, come=3, field=2, big7=3, hard8=1, big6=13,
        odds="max", lay={4: 4, 10: 2, 6: 3}, come_max=1, props="point",
    )  # fmt: skip
    dice = generator(11).integers(1, 7, size=(500, 2))
    assert_same(dice, program, rules)
    nets = cs.run_dice(dice, program, rules).nets
    assert nets["Big 7"]["win"] == 4
    assert nets["Field"] == {"win on 12": 3, "win on 2": 2, "win on 3, 4, 9, 10, 11": 1, "lose": -1}
    assert nets["Big 6"]["win"] == Fraction(7 * 2 + 1, 13)  # CR-R4: 7 per full 6 U, 1 on the rest


programs = st.builds(
    lambda stakes, odds, lay, come_max, props: CrapsProgram(
        stakes, odds=odds, lay=lay, come_max=come_max, props=props
    ),
    st.dictionaries(st.sampled_from(sorted(n for n, k in BET_KINDS.items() if k.on is None)),
                    st.integers(1, 13), min_size=1),
    st.sampled_from([None, "max"]),
    st.sampled_from([None, "max"]),
    st.integers(1, 6),
    st.sampled_from(["always", "point", "come_out"]),
)  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(programs, st.lists(st.tuples(st.integers(1, 6), st.integers(1, 6)), max_size=40))
def test_random_programs_match_the_engine(
    program: CrapsProgram, rolls: list[tuple[int, int]]
) -> None:
    assert_same(np.array(rolls, dtype=np.int64).reshape(-1, 2), program)


def test_hand_made_sequence() -> None:
    """Hard 6 (3-3) wins 9 to 1 (CR-5); 6 the easy way loses it; a 7 loses the Big bets
    (CR-R3); the Come bet travels to its point and wins there (CR-2.3)."""
    program = CrapsProgram.of(pass_line=6, come=6, hard6=1, big8=6, odds="max", come_max=1)
    dice = [(2, 2), (3, 3), (2, 4), (4, 4), (2, 2), (3, 4)]
    r = cs.run_dice(dice, program, series=True)
    assert r.counts["Hard 6"] == {"win": 1, "lose": 2}  # down again after the win: 2-4, 3-4
    assert r.counts["Big 8"] == {"win": 1, "lose": 1}
    assert r.counts["Pass Line"] == {"win": 2, "lose": 0}  # point 4 made, then a natural 7
    assert r.counts["Pass Line odds on 4"] == {"win": 1, "lose": 0}
    # Come: on 6 from roll 2, wins on roll 3; a new one on 8 from roll 4 loses to the 7
    assert r.counts["Come"] == {"win": 1, "lose": 1}
    assert r.counts["Come odds on 6"] == {"win": 1, "lose": 0}
    assert r.counts["Come odds on 8"] == {"win": 0, "lose": 1}  # working on the come-out
    # roll 2: Hard 6 wins 9 (1 unit = 100 avos), Pass still on 4, Come gets its point
    assert r.series["net"].tolist()[1] == 900
    assert_same(np.array(dice), program)


# --- exact figures (computed from the engine's data) ----------------------------------------


def exact_distribution(kind_name: str) -> dict[tuple[Result, int], Fraction]:
    """P(the bet ends with result R on a roll totalling t), from placement: the engine's
    resolver over the 36 outcomes (DICE_OUTCOMES), a point bet solved as a ratio of rates."""
    kind = BET_KINDS[kind_name]
    out: dict[tuple[Result, int], Fraction] = defaultdict(Fraction)

    def settle(point: int | None, weight: Fraction) -> None:
        bet = OpenBet(1, "p", kind_name, Money.of(1), point)
        ends = [(kind.resolve(bet, d, {}), d, p) for d, p in DICE_OUTCOMES]
        moving = [(dec, d, p) for dec, d, p in ends if dec.result is not Result.STANDS]
        rate = sum((p for _, _, p in moving), Fraction(0))
        for dec, d, p in moving:  # the roll that moves the bet, given that one does
            if dec.result is Result.POINT:
                settle(dec.point, weight * p / rate)
            else:
                out[(dec.result, d.total)] += weight * p / rate

    settle(None, Fraction(1))
    assert sum(out.values()) == 1
    return dict(out)


def net_of(kind_name: str, result: Result, total: int) -> Fraction:
    payout = CrapsRules().payout(BET_KINDS[kind_name])
    if result is Result.WIN:
        odds = payout.odds_for(total) if isinstance(payout, ByNumber) else payout
        assert isinstance(odds, Odds)
        return odds.ratio
    return Fraction(-1 if result is Result.LOSE else 0)


@pytest.mark.parametrize(
    ("kind", "line", "edge"),
    [
        ("pass", "Pass Line", Fraction(7, 495)),  # CR-2.1
        ("dont_pass", "Don't Pass", Fraction(3, 220)),  # CR-3.1 (bar 12: a push is a decision)
        ("field", "Field", Fraction(1, 18)),  # CR-4, 2 and 12 double
    ],
)
def test_mean_within_4_sigma_of_the_exact_edge(kind: str, line: str, edge: Fraction) -> None:
    dist = exact_distribution(kind)
    ev = sum((p * net_of(kind, r, t) for (r, t), p in dist.items()), Fraction(0))
    assert -ev == edge  # the published anchor, computed from the engine's data
    var = sum((p * (net_of(kind, r, t) - ev) ** 2 for (r, t), p in dist.items()), Fraction(0))
    result = cs.simulate_chunk(2026, 0, 1_500_000, {"program": [(kind, 1)]})
    n = result.decisions(line)
    assert n > 400_000
    z = float(result.mean(line) - ev) / (math.sqrt(var) / math.sqrt(n))
    assert abs(z) < 4, z
    # and the label frequencies sit near their exact probabilities too (5 sigma each)
    for label, count in result.counts[line].items():
        net = result.nets[line][label]
        p = sum((q for (r, t), q in dist.items() if net_of(kind, r, t) == net), Fraction(0))
        if label.startswith(("win", "lose", "push")):
            assert abs(count - n * p) < 5 * math.sqrt(n * p * (1 - p)), (label, count, n * p)


#: Every line of the PAR sheet at stakes it is exact for: Big bets in whole blocks (CR-R4),
#: flat bets of 30 so that every lay at the cap wins exactly the flat bet (CR-R2).
PAR_PROGRAM = CrapsProgram.of(
    pass_line=30, dont_pass=30, come=30, dont_come=30, field=1, hard4=1, hard6=1, hard8=1,
    hard10=1, big7=1, eleven=1, any_craps=1, big6=6, big8=12, big5=5, big9=5, big4=10,
    big10=5, odds="max", lay="max",
)  # fmt: skip


@pytest.mark.parametrize("cap", ["winnings", "stake"])
def test_every_line_within_4_sigma_of_craps_par(cap: str) -> None:
    """The counts are the PAR sheet's lines and labels with its nets (incl. "Pass Line +
    full odds" at the cap, CR-2.2/CR-R2), and each line's mean is within 4 sigma of it."""
    from macau_tables.analysis.craps import craps_par

    rules = CrapsRules(odds_cap=cap)  # type: ignore[arg-type]
    sheet = craps_par(rules)
    result = cs.simulate_chunk(31, 0, 600_000, {"program": PAR_PROGRAM, "rules": rules})
    assert set(result.counts) == {line.name for line in sheet.lines}
    for line in sheet.lines:
        assert result.nets[line.name] == {o.label: o.net for o in line.outcomes}, line.name
        n = result.decisions(line.name)
        assert n > 10_000, line.name
        z = float(result.mean(line.name) - line.expected_return) / (line.std_dev / math.sqrt(n))
        assert abs(z) < 4, (line.name, z)


def test_max_odds_follow_the_cap() -> None:
    """CR-2.2 / CR-R2: on a flat bet of 6 the odds may win at most 6: 3 units on 4/10, 4 on
    5/9, 5 on 6/8; the lay 12, 9 and 7 (7 × 5/6 < 6 < 8 × 5/6); odds_cap='stake': 6 each."""
    program = CrapsProgram.of(pass_line=6, dont_pass=6, odds="max", lay="max")

    def units(rules: CrapsRules | None, kind: str) -> list[int]:
        stake = cs.compile_program(program, rules).stake[cs._CODE[kind]]
        return [int(stake[p]) // 100 for p in (4, 5, 6, 8, 9, 10)]

    assert units(None, "pass_odds") == [3, 4, 5, 5, 4, 3]
    assert units(None, "dont_pass_odds") == [12, 9, 7, 7, 9, 12]
    stake_cap = CrapsRules(odds_cap="stake")
    assert units(stake_cap, "pass_odds") == [6] * 6
    assert units(stake_cap, "dont_pass_odds") == [6] * 6
    assert cs.simulate_chunk(1, 0, 100, {"program": program, "odds_cap": "stake"}).rounds == 100


# --- the contract: determinism, series, merging ---------------------------------------------


def test_same_seed_same_result() -> None:
    options = {"program": EVERY_BET, "series": True}
    a = cs.simulate_chunk(99, 3, 20_000, options)
    b = cs.simulate_chunk(99, 3, 20_000, options)
    assert a.counts == b.counts and a.nets == b.nets and a.rounds == b.rounds == 20_000
    assert a.series.keys() == b.series.keys()
    assert all(np.array_equal(a.series[k], b.series[k]) for k in a.series)
    other = cs.simulate_chunk(99, 4, 20_000, options)  # another chunk: another stream
    assert other.counts != a.counts
    # series or not, the same dice and the same counts
    assert cs.simulate_chunk(99, 3, 20_000, {"program": EVERY_BET}).counts == a.counts


def test_series_add_up() -> None:
    """Money and decisions in the series agree with each other and with the counts."""
    r = cs.simulate_chunk(5, 0, 30_000, {"program": EVERY_BET, "series": True})
    s = r.series
    assert len(s["total"]) == 30_000
    assert np.array_equal(s["total"], s["die1"] + s["die2"])
    assert (
        int(s["decisions"].sum())
        == len(s["decision_kind"])
        == sum(r.decisions(line) for line in r.counts if " + full " not in line)
    )
    win = s["decision_result"] == 0
    lose = s["decision_result"] == 1
    assert int(s["net"].sum()) == int(
        s["decision_won"][win].sum() - s["decision_stake"][lose].sum()
    )
    returned = s["decision_stake"][~lose].sum() + s["decision_won"].sum()
    assert int(s["returned"].sum()) == int(returned)
    on_layout = int(s["placed"].sum() - s["decision_stake"].sum())
    assert 0 <= on_layout <= 64 * 1_100  # what stands on the layout after the last roll
    # the exact counts and nets give the same money as the decisions, line by line
    for line, labels in r.counts.items():
        assert sum(labels.values()) == r.decisions(line)


def test_chunks_merge() -> None:
    a = cs.simulate_chunk(8, 0, 5_000, {"series": True})
    b = cs.simulate_chunk(8, 1, 7_000, {"series": True})
    m = a.merge(b)
    assert m.rounds == 12_000
    assert (
        m.counts["Pass Line"]["win"] == a.counts["Pass Line"]["win"] + b.counts["Pass Line"]["win"]
    )
    assert len(m.series["total"]) == 12_000


def test_default_program_is_pass_line_with_max_odds() -> None:
    r = cs.simulate_chunk(1, 0, 10_000, {})
    odds = {f"Pass Line odds on {p}" for p in (4, 5, 6, 8, 9, 10)}
    assert set(r.counts) == {"Pass Line", "Pass Line + full odds"} | odds
    # the combination counts each Pass Line decision once, with its odds
    assert r.decisions("Pass Line + full odds") == r.decisions("Pass Line")
    assert r.nets["Pass Line + full odds"]["lose on point 6, 8"] == Fraction(-11, 6)
    assert r.nets["Pass Line odds on 5"] == {"win": Fraction(3, 2), "lose": -1}


# --- the dice (CR-1) -------------------------------------------------------------------------


def test_dice_from_raw_bits_are_exact() -> None:
    rejected = 0  # v = 0 gives m = 0 < 4: rejected, as the reference says
    edge = [0xFFFFFFFF, 0x80000000, 119304647, 119304648, rejected, 1, 2**32 // 36 * 35]
    rng = generator(3)
    words = [(a << 32) | b for a, b in zip(edge, reversed(edge), strict=True)]
    words += [int(w) for w in rng.bit_generator.random_raw(200)]
    expected = []
    for x in words:
        for v in (x >> 32, x & 0xFFFFFFFF):
            m = v * 36
            if m % 2**32 >= 2**32 % 36:
                expected.append(divmod(m >> 32, 6))
    d1 = np.zeros(len(expected), dtype=np.int8)
    d2 = np.zeros(len(expected), dtype=np.int8)
    assert cs._dice_from_bits(np.array(words, dtype=np.uint64), d1, d2, 0) == len(expected)
    assert len(expected) < 2 * len(words)  # the rejection branch was taken
    assert list(zip(d1.tolist(), d2.tolist(), strict=True)) == [(a + 1, b + 1) for a, b in expected]
    # and the totals of many throws look like two fair dice (chi-square, 35 d.o.f., p ~ 1e-6)
    a, b = cs.draw_dice(generator(4), 360_000)
    seen = np.bincount((a.astype(np.int64) - 1) * 6 + b - 1, minlength=36)
    assert ((seen - 10_000) ** 2 / 10_000).sum() < 80


# --- bad input: typed errors naming the rule ------------------------------------------------


def test_bad_programs_and_options() -> None:
    with pytest.raises(InvalidInput, match="no bet called"):
        CrapsProgram.of(("place6", 6))
    with pytest.raises(InvalidInput, match="CR-2.2"):
        CrapsProgram.of(("pass_odds", 6))  # odds go with odds=
    with pytest.raises(InvalidInput, match="whole units"):
        CrapsProgram.of(pass_line=0)
    with pytest.raises(InvalidInput, match="come_max"):
        CrapsProgram.of(come=1, come_max=7)
    with pytest.raises(InvalidInput, match="point number"):
        CrapsProgram.of(pass_line=6, odds={7: 1})
    with pytest.raises(BetNotAllowed, match="CR-2.2"):  # 6 units on 4 would win 12 > 6
        cs.compile_program(CrapsProgram.of(pass_line=6, odds=6))
    with pytest.raises(BetNotAllowed, match="table maximum"):
        cs.compile_program(CrapsProgram.of(field=20_000))
    with pytest.raises(InvalidInput, match="unknown craps simulation option"):
        cs.simulate_chunk(1, 0, 10, {"decks": 8})
    with pytest.raises(InvalidInput, match="CR-R2"):
        cs.simulate_chunk(1, 0, 10, {"odds_cap": "double"})
    with pytest.raises(InvalidInput, match="rounds"):
        cs.simulate_chunk(1, 0, -1, {})
    with pytest.raises(InvalidInput, match="CR-1"):
        cs.run_dice([(1, 7)])
