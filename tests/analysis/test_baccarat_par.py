"""Exact baccarat PAR: published counts, kernel == engine, options, validation.

The published figures below are the standard counts of ordered six-card deals (e.g. the
Wizard of Odds baccarat tables; the Banker-wins-on-6 count and the 1:2 edge are in
excelpunks.com "Concepts 13: Baccarat vs. Non-Commission Baccarat"); everything they are
compared with is computed here.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from macau_tables.analysis.baccarat import (
    DealCounts,
    baccarat_par,
    check_composition,
    count_deals,
    count_deals_readable,
    format_composition,
    ordered_deals,
    parse_composition,
)
from macau_tables.analysis.kernels.baccarat_exact import MAX_CARDS, draw_tables, totals_matrix
from macau_tables.analysis.par import percent
from macau_tables.core.errors import InvalidInput
from macau_tables.games.baccarat import (
    PAYS,
    BaccaratRules,
    BetKind,
    Card,
    banker_draws,
    composition,
    fresh_composition,
    is_pair,
    play_out,
    player_draws,
    total,
)

F = Fraction

EIGHT_DECKS = {
    "banker": 2_292_252_566_437_888,
    "player": 2_230_518_282_592_256,
    "tie": 475_627_426_473_216,
    "total": 4_998_398_275_503_360,
}
SIX_DECKS = {
    "banker": 403_095_751_234_560,
    "player": 392_220_492_728_832,
    "tie": 83_552_962_932_288,
}
EIGHT_DECKS_BANKER_WINS_ON_6 = 269_232_304_455_680


def _brute_force(cards: list[Card]) -> DealCounts:
    """The counting convention itself: every ordered choice of six physical cards, each
    hand played by the engine's ``play_out``."""
    totals = [[0] * 10 for _ in range(10)]
    pp = bp = 0
    for deal in permutations(cards, 6):
        player, banker = play_out(iter(deal).__next__)
        totals[total(player)][total(banker)] += 1
        pp += is_pair(player)
        bp += is_pair(banker)
    comp = composition(cards)
    return DealCounts(comp, ordered_deals(len(cards)), tuple(map(tuple, totals)), pp, bp)


# --- published anchors ---------------------------------------------------------------------


def test_ba_11_ba_12_eight_decks_published_counts() -> None:
    c = count_deals(fresh_composition(8))
    assert (c.banker, c.player, c.tie, c.total) == (
        EIGHT_DECKS["banker"],
        EIGHT_DECKS["player"],
        EIGHT_DECKS["tie"],
        EIGHT_DECKS["total"],
    )
    assert c.total == 416 * 415 * 414 * 413 * 412 * 411


def test_ba_11_ba_12_six_decks_published_counts() -> None:
    sheet = baccarat_par(decks=6)
    assert sheet.total == 312 * 311 * 310 * 309 * 308 * 307
    banker = sheet.line("banker")
    counts = {o.label: o.count for o in banker.outcomes}
    assert counts == {
        "win": SIX_DECKS["banker"],
        "push": SIX_DECKS["tie"],
        "lose": SIX_DECKS["player"],
    }


def test_ba_13_pair_wins_31_in_415_with_eight_decks() -> None:
    sheet = baccarat_par()
    for name in ("banker_pair", "player_pair"):
        assert sheet.line(name).probability("win") == F(31, 415)
    # 11:1 (BA-17): edge 1 - 12 * 31/415
    assert sheet.line("player_pair").house_edge == 1 - 12 * F(31, 415)


def test_ba_17_ba_18_eight_deck_house_edges_to_four_decimals() -> None:
    sheet = baccarat_par(BaccaratRules(decks=8))
    assert percent(sheet.line("banker").house_edge) == "1.0579%"
    assert percent(sheet.line("player").house_edge) == "1.2351%"
    assert percent(sheet.line("tie").house_edge) == "14.3596%"
    assert sheet.line("banker").pays == "1:1 less 5.00% commission"
    assert sheet.line("tie").pays == "8:1"


def test_ba_r7_no_commission_banker_six_published_and_direct() -> None:
    c = count_deals(fresh_composition(8))
    assert c.banker_six == EIGHT_DECKS_BANKER_WINS_ON_6
    banker = baccarat_par(BaccaratRules(no_commission=True)).line("banker")
    direct = F(c.player - (c.banker - c.banker_six) - F(1, 2) * c.banker_six, c.total)
    assert banker.house_edge == direct
    assert percent(banker.house_edge) == "1.4581%"
    assert {o.label: (o.net, o.count) for o in banker.outcomes} == {
        "win": (F(1), c.banker - c.banker_six),
        "win on 6": (F(1, 2), c.banker_six),
        "push": (F(0), c.tie),
        "lose": (F(-1), c.player),
    }
    assert banker.house_edge != baccarat_par().line("banker").house_edge


# --- the kernel is the engine --------------------------------------------------------------


@st.composite
def _small_shoes(draw: st.DrawFn) -> tuple[int, ...]:
    """Depleted shoes with at most seven ranks left (so the readable path stays quick) —
    tens and faces among them, where value and rank differ (BA-5 vs BA-13)."""
    ranks = draw(st.sets(st.integers(1, 13), min_size=1, max_size=7))
    counts = [0] * 13
    for r in ranks:
        counts[r - 1] = draw(st.integers(1, 48))
    if sum(counts) < 6:
        counts[min(ranks) - 1] += 6 - sum(counts)
    return tuple(counts)


@settings(max_examples=40, deadline=None)
@given(_small_shoes())
def test_kernel_equals_readable_engine_enumeration(comp: tuple[int, ...]) -> None:
    fast = count_deals(comp)
    assert fast == count_deals_readable(comp)
    assert sum(map(sum, fast.totals)) == fast.total == ordered_deals(sum(comp))
    assert fast.banker + fast.player + fast.tie == fast.total


@pytest.mark.parametrize(
    "text",
    [
        "As 2d 3h 4c 5s 6d",
        "Ts Jd Qh Kc 5s 5d 9h",
        "As Ad Ah 8c 8s 9d 9h 7c",
        "6s 7s 6d 7d Ks Kd Ah",
    ],
)
def test_ba_7_1_ba_9_counting_convention_by_brute_force(text: str) -> None:
    """Every ordered six of the physical cards, played by ``play_out``: both enumerators
    count exactly these (hands of four or five cards count every order of the rest)."""
    cards = [Card.parse(t) for t in text.split()]
    expected = _brute_force(cards)
    comp = composition(cards)
    assert count_deals_readable(comp) == expected
    assert count_deals(comp) == expected


def test_ba_9_kernel_draw_tables_come_from_the_engine() -> None:
    player, banker = draw_tables()
    for pt in range(10):
        for bt in range(10):
            assert player[pt, bt] == player_draws(pt, bt)
            assert banker[bt, pt, 10] == banker_draws(bt, pt, None)
            for third in range(10):
                assert banker[bt, pt, third] == banker_draws(bt, pt, third)
    assert not banker[3, 0, 8] and banker[3, 0, 9]  # BA-9.3 (2) / BA-9.4 (1)


def test_readable_par_sheet_equals_fast_sheet() -> None:
    comp = (5, 0, 0, 7, 0, 0, 0, 3, 0, 0, 6, 0, 4)
    fast = baccarat_par(composition=comp, method="fast")
    slow = baccarat_par(composition=comp, method="readable")
    assert fast.to_json() == slow.to_json()
    with pytest.raises(InvalidInput, match="method"):
        baccarat_par(composition=comp, method="quick")  # type: ignore[arg-type]


# --- the sheet -----------------------------------------------------------------------------


@pytest.mark.parametrize("decks", [6, 7, 8, 12])
def test_counts_sum_to_the_total(decks: int) -> None:
    sheet = baccarat_par(decks=decks)
    n = sheet.total
    assert n == ordered_deals(52 * decks)
    for line in sheet.lines:
        assert sum(o.count or 0 for o in line.outcomes) == n
        assert all(o.probability == F(o.count or 0, n) for o in line.outcomes)
    assert sheet.options["decks"] == decks


def test_ba_1_decks_change_the_figures() -> None:
    edges = {d: baccarat_par(decks=d).line("banker").house_edge for d in (6, 8, 12)}
    assert len(set(edges.values())) == 3
    ties = {d: baccarat_par(decks=d).line("tie").probability("win") for d in (6, 8, 12)}
    assert len(set(ties.values())) == 3


def test_ba_18_commission_rate_changes_banker_edge() -> None:
    c = count_deals(fresh_composition(8))
    for rate in (F(1, 20), F(1, 25), F(0)):
        banker = baccarat_par(BaccaratRules(commission=rate)).line("banker")
        assert banker.house_edge == F(c.player - (1 - rate) * c.banker, c.total)
        assert banker.outcomes[0].net == 1 - rate
    assert baccarat_par(BaccaratRules(commission=F(0))).line("banker").house_edge < 0


def test_ba_12_ba_17_player_tie_and_edges_excluding_ties() -> None:
    c = count_deals(fresh_composition(8))
    sheet = baccarat_par()
    player, tie = sheet.line("player"), sheet.line("tie")
    assert player.house_edge == F(c.banker - c.player, c.total)
    assert player.probability("push") == F(c.tie, c.total)
    assert tie.house_edge == F(c.banker + c.player - PAYS[BetKind.TIE] * c.tie, c.total)
    resolved = F(c.total - c.tie, c.total)
    for name in ("banker", "player"):
        line = sheet.line(name)
        assert line.extras["edge_excluding_ties"] == line.house_edge / resolved
    assert sum(c.tie_on(k) for k in range(10)) == c.tie
    assert any("P(Tie) = 475,627,426,473,216/" in note for note in sheet.notes)


def test_std_dev_follows_the_outcomes() -> None:
    banker = baccarat_par().line("banker")
    ev = banker.expected_return
    assert banker.variance == sum(o.probability * (o.net - ev) ** 2 for o in banker.outcomes)
    assert 0.92 < banker.std_dev < 0.93


def test_card_removal_changes_the_figures() -> None:
    full = baccarat_par()
    minus_fives = baccarat_par(composition=parse_composition("8 decks minus 5,5,5,5,5,5,5,5"))
    assert minus_fives.total == ordered_deals(408)
    assert minus_fives.line("banker").house_edge != full.line("banker").house_edge
    assert "408 cards left of 8 decks" in minus_fives.title
    assert minus_fives.options["full_shoe"] is False


def test_ba_r4_continuous_shuffler_has_the_full_shoe_par() -> None:
    rules = BaccaratRules(decks=6, continuous_shuffler=True)
    csm = baccarat_par(rules)
    shoe = baccarat_par(BaccaratRules(decks=6))
    assert [line.to_json() for line in csm.lines] == [line.to_json() for line in shoe.lines]
    assert any("continuous shuffler" in note and "BA-R4" in note for note in csm.notes)
    assert "continuous shuffler" in csm.title
    assert baccarat_par(rules, composition=fresh_composition(6)).total == csm.total
    depleted = list(fresh_composition(6))
    depleted[0] -= 1
    with pytest.raises(InvalidInput, match="BA-R4"):
        baccarat_par(rules, composition=depleted)


# --- validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("comp", "rule", "words"),
    [
        ((32,) * 12 + (-1,), "BA-1", "negative"),
        ((32,) * 12, "BA-1", "13 counts"),
        ((1, 1, 1, 1, 1) + (0,) * 8, "BA-9", "5 cards"),
        ((0,) * 13, "BA-9", "0 cards"),
        ((33,) + (32,) * 12, "BA-1", "more than 8 decks hold"),
        ((32.0,) + (32,) * 12, "BA-1", "whole number"),
    ],
)
def test_ba_1_invalid_compositions_raise(comp: tuple[int, ...], rule: str, words: str) -> None:
    with pytest.raises(InvalidInput, match=words) as err:
        baccarat_par(composition=comp)
    assert err.value.rule == rule


def test_ba_1_decks_bound_the_composition() -> None:
    twelve = fresh_composition(12)
    with pytest.raises(InvalidInput, match="BA-1"):
        baccarat_par(composition=twelve)  # the default table has 8 decks
    assert baccarat_par(composition=twelve, decks=12).total == ordered_deals(624)
    with pytest.raises(InvalidInput, match="BA-1"):
        baccarat_par(decks=13)
    with pytest.raises(InvalidInput, match="BA-1"):
        check_composition(twelve, decks=5)


def test_kernel_guards_its_int64_bound() -> None:
    with pytest.raises(ValueError, match="cards"):
        totals_matrix([MAX_CARDS] * 10)
    with pytest.raises(InvalidInput, match="BA-1"):
        count_deals((49,) * 13)


# --- composition text ----------------------------------------------------------------------


def test_parse_composition_forms() -> None:
    eight = fresh_composition(8)
    assert parse_composition("8 decks") == eight
    assert parse_composition(" 8 Decks ") == eight
    minus = parse_composition("8 decks minus A,A,K,5")
    assert minus == (30, 32, 32, 32, 31) + (32,) * 7 + (31,)
    assert parse_composition("minus As Ah kd 5c", decks=8) == minus
    assert parse_composition("6 decks minus 10, T, Td", decks=6)[9] == 24 - 3
    assert parse_composition(format_composition(minus)) == minus
    by_rank = "K=31 A=30 2=32 3=32 4=32 5=31 6=32 7=32 8=32 9=32 T=32 J=32 Q=32"
    assert parse_composition(by_rank) == minus
    assert parse_composition(",".join(map(str, minus))) == minus


@pytest.mark.parametrize(
    ("text", "decks", "words"),
    [
        ("", None, "empty"),
        ("8 decks minus", None, "lists no cards"),
        ("8 decks minus A,X", None, "not a rank"),
        ("5 decks", None, "6 to 12"),
        ("8 decks", 6, "says 8 decks"),
        ("minus A", None, "needs the number of decks"),
        ("A=32,2=32", None, "give all 13"),
        ("A=32,A=31", None, "given twice"),
        ("A=32,32", None, "not a mix"),
        ("1,2,3", None, "give 13"),
        ("A=x", None, "not a card count"),
        ("32,32,32,32,32,32,32,32,32,32,32,32,-1", None, "not a card count"),
        ("1,0,0,0,0,0,0,0,0,0,0,0,0", None, "BA-9"),
    ],
)
def test_parse_composition_rejects_bad_text(text: str, decks: int | None, words: str) -> None:
    with pytest.raises(InvalidInput, match=words):
        parse_composition(text, decks)


def test_parse_composition_cannot_remove_more_than_the_shoe_holds() -> None:
    with pytest.raises(InvalidInput, match="BA-1"):
        parse_composition("6 decks minus " + " ".join(["A"] * 25))
