"""Exact Pai Gow / Taiwan Pai Kao mathematics, computed, never copied.

The kernel's counts are held against the readable engine three ways: deal by deal
(``paigow.compare_seat`` / ``taiwan.compare_seat`` and the strategies' ``choose`` on random
deals), hand by hand (every one of the 20,475 opponent hands of a few four-tile hands,
enumerated tile by tile), and over a whole pool (TW-R2's second round from a 16-tile pool,
recounted class by class in plain Python). Results shared by several tests are computed
once per module.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest

from macau_tables.analysis import tiles as at
from macau_tables.analysis.kernels import tiles_exact as kx
from macau_tables.analysis.par import BetLine, ParSheet
from macau_tables.analysis.tiles import (
    DEALS,
    FULL_COUNTS,
    HANDS,
    SettingEV,
    best_setting,
    deal_result,
    hand_structure_counts,
    hint,
    optimal_table,
    paigow_comparison,
    paigow_par,
    taiwan_par,
)
from macau_tables.core.errors import InvalidInput
from macau_tables.core.rng import Rng
from macau_tables.games.tiles import paigow, taiwan
from macau_tables.games.tiles.rounds import SeatResult
from macau_tables.tiles import (
    FULL_SET,
    PG1985,
    TW1990,
    Category,
    Setting,
    Tile,
    TileRules,
    evaluate,
    settings,
)
from macau_tables.tiles.strategies import MAX_BACK, follows_forced_rule, forced_setting, strategy

FIVE = Fraction(5, 100)
FOUR = Fraction(4, 100)
SHOWN = "6-6 6-6 1-1 1-1 4-4 4-4 1-3 1-3 5-5 5-5 3-3 3-3 2-2 2-2 5-6 5-6"
LABEL = {SeatResult.PLAYER: "win", SeatResult.BANKER: "loss", SeatResult.PUSH: "push"}


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def canonical(four: Sequence[Tile]) -> tuple[Tile, ...]:
    return tuple(sorted(four, key=lambda t: (t.rank, t)))


def values(s: Setting) -> tuple[object, object]:
    return (s.front.value.key, s.back.value.key)


def split(s: Setting) -> tuple[tuple[Tile, ...], ...]:
    """Which tiles go together, whatever is called front (equal hands may be either)."""
    return tuple(sorted((tuple(sorted(s.front.tiles)), tuple(sorted(s.back.tiles)))))


def counts(line: BetLine) -> dict[str, int]:
    return {o.label: o.count or 0 for o in line.outcomes}


# --- shared results (computed once) -------------------------------------------------------------


@pytest.fixture(scope="module")
def pg_hw() -> ParSheet:
    return paigow_par()


@pytest.fixture(scope="module")
def pg_hw5() -> ParSheet:
    return paigow_par("house-way", "house-way", commission=FIVE)


@pytest.fixture(scope="module")
def pg_opt5() -> ParSheet:
    return paigow_par("optimal", "house-way", commission=FIVE)


@pytest.fixture(scope="module")
def pg_bank_opt5() -> ParSheet:
    return paigow_par("house-way", "optimal", commission=FIVE)


_CHOICES: dict[tuple[str, tuple[Tile, ...], str], Setting] = {}


def readable_choice(way: str, four: tuple[Tile, ...], rules: TileRules) -> Setting:
    """The readable strategy's setting, memoised by the multiset of tiles (it is pure)."""
    key = (way, four, rules.name)
    if key not in _CHOICES:
        _CHOICES[key] = strategy(way).choose(four, rules)
    return _CHOICES[key]


# --- counting facts -----------------------------------------------------------------------------


def test_t_1_counting_facts() -> None:
    """T-1: 35,960 four-tile hands, 20,475 for the banker from the other 28, 736,281,000
    ordered deals; by pairs (T-2: 寶 or 至尊), counted tile by tile here and through the
    weighted hand classes in the module: 120 two-pair, 6,720 one-pair, 29,120 no pair."""
    assert HANDS == len(list(itertools.combinations(range(32), 4))) == 35_960
    assert math.comb(28, 4) == 20_475
    assert DEALS == 736_281_000
    pairs = (Category.PAIR, Category.GEE_JOON)
    by_hand: Counter[str] = Counter()
    for four in itertools.combinations(FULL_SET, 4):
        made = [
            evaluate(four[a], four[b], PG1985).category in pairs
            and evaluate(four[c], four[d], PG1985).category in pairs
            for (a, b), (c, d) in (((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2)))
        ]
        single = any(
            evaluate(x, y, PG1985).category in pairs for x, y in itertools.combinations(four, 2)
        )
        by_hand["two_pair" if any(made) else "one_pair" if single else "no_pair"] += 1
    assert by_hand == {"two_pair": 120, "one_pair": 6_720, "no_pair": 29_120}
    assert hand_structure_counts() == dict(by_hand)


def test_hand_classes_weigh_every_physical_hand_once() -> None:
    """The kernel's 8,130 classes of the full set; their weights are the physical hands."""
    k, _, mults, weight = kx.hand_classes(FULL_COUNTS)
    assert len(k) == 8_130
    assert int(weight.sum()) == 35_960
    assert (k.sum(axis=1) == 4).all() and (mults.sum(axis=1) == 4).all()
    physical = Counter(canonical(f) for f in itertools.combinations(FULL_SET, 4))
    assert len(physical) == 8_130
    assert sorted(physical.values()) == sorted(int(w) for w in weight)


def test_every_sheet_counts_every_deal(pg_hw: ParSheet, pg_opt5: ParSheet) -> None:
    for sheet in (pg_hw, pg_opt5):
        assert sheet.total == DEALS
        assert sum(counts(sheet.lines[0]).values()) == DEALS


# --- the kernel against the readable engine -----------------------------------------------------


def random_deals(label: str, n: int) -> list[tuple[list[Tile], list[Tile]]]:
    """``n`` (player, banker) deals: each shuffled set is cut into four disjoint deals."""
    rng = Rng.seeded("test_tiles_par", label)
    out: list[tuple[list[Tile], list[Tile]]] = []
    while len(out) < n:
        order = [FULL_SET[i] for i in rng.permutation(32)]
        out += [(order[i : i + 4], order[i + 4 : i + 8]) for i in range(0, 32, 8)]
    return out[:n]


CROSS = [
    # game, player strategy, banker strategy, compare_seat, rules, deals
    ("paigow", "house-way", "house-way", paigow.compare_seat, PG1985, 1_200),
    ("paigow", "max-back", "house-way", paigow.compare_seat, PG1985, 400),
    ("paigow", "house-way", "max-back", paigow.compare_seat, PG1985, 400),
    ("taiwan", "max-back", "house-way", taiwan.compare_seat, TW1990, 800),
    ("taiwan", "max-back", "max-back", taiwan.compare_seat, TW1990, 400),
]


@pytest.mark.parametrize(("game", "p", "b", "compare", "rules", "n"), CROSS)
def test_pg_6_tw_6c_kernel_agrees_with_engine_deal_by_deal(
    game: str,
    p: str,
    b: str,
    compare: Callable[[Setting, Setting], SeatResult],
    rules: TileRules,
    n: int,
) -> None:
    """PG-6.1 … PG-6.4 and TW-6c: on random deals the kernel's verdict (setting codes,
    the PG-6.2 zero front, the comparison) is the engine's, every time."""
    seen: Counter[str] = Counter()
    for player, banker in random_deals(f"{game}{p}{b}", n):
        expected = LABEL[
            compare(
                readable_choice(p, canonical(player), rules),
                readable_choice(b, canonical(banker), rules),
            )
        ]
        got = deal_result(player, banker, game=game, player_strategy=p, banker_strategy=b)
        assert got == expected, (player, banker)
        seen[got] += 1
    assert set(seen) == {"win", "loss", "push"}  # the sample reaches every outcome


def test_pg_6_2_zero_fronts_go_to_the_banker_in_the_kernel() -> None:
    """PG-6.2: 0 against 0 in front is the banker's even with the player's better tile
    (梅 ``5-5`` beats 長三 ``3-3`` by T-2); the player's back wins: a push. TW has no such
    rule: the better 0 wins the front and the player the bet (TW-6c)."""
    player, banker = tiles("6-6 6-6 5-5 4-6"), tiles("1-1 1-1 2-2 3-3")
    p = MAX_BACK.choose(player, PG1985)
    b = MAX_BACK.choose(banker, PG1985)
    assert p.front.value.points == b.front.value.points == 0
    assert p.front.value.key > b.front.value.key
    assert paigow.compare_seat(p, b) is SeatResult.PUSH
    assert deal_result(player, banker, player_strategy="max-back", banker_strategy="max-back") == (
        "push"
    )
    tw = deal_result(
        player, banker, game="taiwan", player_strategy="max-back", banker_strategy="max-back"
    )
    assert tw == "win"


@pytest.mark.parametrize(
    ("hand", "game", "as_"),
    [
        ("6-6 4-5 2-4 1-2", "paigow", "player"),
        ("5-5 4-6 1-3 2-2", "paigow", "player"),  # two hands that can each be 0
        (None, "paigow", "player"),  # a random hand
        (None, "paigow", "banker"),
        (None, "taiwan", "player"),
        ("1-1 4-5 2-4 2-3", "taiwan", "banker"),  # no 地九王, no Gee Joon conversion in TW
    ],
)
def test_hint_counts_equal_the_readable_enumeration(hand: str | None, game: str, as_: str) -> None:
    """For one four-tile hand, every one of the C(28, 4) = 20,475 opponent hands of the
    other 28 physical tiles, set by the opponent's readable strategy (house way; TW players
    by the forced setting) and compared by the engine: the hint's exact counts, for each of
    the three settings, and its EV = ((1 - c)·wins - losses) / 20,475."""
    rules, compare = (PG1985, paigow.compare_seat) if game == "paigow" else (
        TW1990, taiwan.compare_seat,
    )  # fmt: skip
    four = tiles(hand) if hand else random_deals(f"hint{game}{as_}", 1)[0][0]
    rest = list(FULL_SET)
    for t in four:
        rest.remove(t)
    opponent = "max-back" if (game, as_) == ("taiwan", "banker") else "house-way"
    mine = settings(four, rules)
    tally = [Counter[str]() for _ in mine]
    flip = {"win": "loss", "loss": "win", "push": "push"}  # the banker's view
    for other in itertools.combinations(rest, 4):
        theirs = readable_choice(opponent, canonical(other), rules)
        for s, setting in enumerate(mine):
            if as_ == "player":
                tally[s][LABEL[compare(setting, theirs)]] += 1
            else:
                tally[s][flip[LABEL[compare(theirs, setting)]]] += 1
    if (game, as_) == ("taiwan", "player"):
        # TW-6b / TW-R1: a setting the player may not keep is played as the dealer's re-set
        forced = next(i for i, st_ in enumerate(mine) if split(st_) == split(
            forced_setting(four, TW1990)))  # fmt: skip
        tally = [
            t if follows_forced_rule(st_, four, TW1990) else tally[forced]
            for st_, t in zip(mine, tally, strict=True)
        ]
    expected = Counter(
        (split(setting), t["win"], t["loss"], t["push"])
        for setting, t in zip(mine, tally, strict=True)
    )
    got = hint(four, game=game, as_=as_)  # type: ignore[arg-type]
    assert Counter((split(h.setting), h.win, h.loss, h.push) for h in got) == expected
    c = at.COMMISSION[game]
    for h in got:
        assert h.total == 20_475
        assert h.ev == ((1 - c) * h.win - h.loss) / Fraction(20_475)


@pytest.mark.parametrize("hand", ["3-3 1-5 2-4 2-5", "6-6 1-6 3-4 2-3", None])
def test_tw_6b_tw_r1_hint_offers_first_the_settings_a_player_may_keep(hand: str | None) -> None:
    """TW-R1: hints offer a Taiwan player the settings he may keep (the highest back) first;
    each other setting is marked with the dealer's re-set and valued as that re-set.
    ``3-3 1-5 2-4 2-5``: the front 2-4 3-3 leaves a lower back — the dealer re-sets it."""
    four = tiles(hand) if hand else random_deals("hint-tw-r1", 1)[0][0]
    got = hint(four, game="taiwan", as_="player")
    kept = [h for h in got if h.allowed]
    assert got[: len(kept)] == kept  # the settings he may keep come first
    forced = forced_setting(four, TW1990)
    for h in got:
        assert h.allowed is follows_forced_rule(h.setting, four, TW1990)
        if not h.allowed:
            assert h.reset_to is not None and split(h.reset_to) == split(forced)
            dealer = next(k for k in kept if split(k.setting) == split(forced))
            assert (h.ev, h.win, h.loss, h.push) == (
                dealer.ev,
                dealer.win,
                dealer.loss,
                dealer.push,
            )
    if hand == "6-6 1-6 3-4 2-3":  # 天牌九 with either 7: both kept
        assert len(kept) == 2
    if hand == "3-3 1-5 2-4 2-5":
        assert not any(h.allowed and {str(t) for t in h.setting.front.tiles} == {"2-4", "3-3"}
                       for h in got)  # fmt: skip


def test_tw_r2_second_round_recounted_class_by_class() -> None:
    """TW-R2: after a four-place round shows 16 tiles, the second round is dealt from the
    other 16. With all ten single tiles and three pairs shown, the 16 left are eight pairs;
    plain Python recounts every (player, banker) deal of them class by class — forced
    player (TW-R1), house-way banker, ``taiwan.compare_seat`` — with math.comb weights."""
    exposed = tiles("5-5 5-5 3-3 3-3 1-5 1-5 4-5 3-6 3-5 2-6 3-4 2-5 2-4 1-4 2-3 1-2")
    pool = Counter(FULL_SET) - Counter(exposed)
    assert sorted(pool.values()) == [2] * 8
    kinds = sorted(pool, key=lambda t: (t.rank, t))
    classes = [
        c
        for c in itertools.combinations_with_replacement(kinds, 4)
        if max(Counter(c).values()) <= 2
    ]

    def ways(hand: tuple[Tile, ...], have: Counter[Tile]) -> int:
        return math.prod(math.comb(have[t], n) for t, n in Counter(hand).items())

    tally: Counter[str] = Counter()
    for p in classes:
        left = pool - Counter(p)
        player = readable_choice("max-back", p, TW1990)
        for b in classes:
            w = ways(p, pool) * ways(b, left)
            if w:
                banker = readable_choice("house-way", b, TW1990)
                tally[LABEL[taiwan.compare_seat(player, banker)]] += w
    sheet = taiwan_par("house-way", exposed=exposed)
    assert sheet.total == math.comb(16, 4) * math.comb(12, 4) == 900_900
    assert counts(sheet.lines[0]) == dict(tally)
    assert sum(tally.values()) == 900_900


# --- published anchors ----------------------------------------------------------------------------


def test_published_anchors_us_rules_at_five_percent(
    pg_hw5: ParSheet, pg_opt5: ParSheet, pg_bank_opt5: ParSheet
) -> None:
    """Wizard of Odds (US rules = PG's hand rules, 5%): house way vs house way, player edge
    2.44% and banker edge 0.53%; optimal player vs house way 1.67%; banking with optimal
    -0.20%. Their house way is not ours (Casino Canberra's here), so within 0.3 percentage
    points. Ours: 2.4199% / 0.5686% (gaps -0.02 / +0.04 pp), optimal 1.6307% (-0.04 pp),
    banker optimal -0.2035% (-0.00 pp); P(win/loss/push) 29.41 / 30.36 / 40.23% against
    29.21 / 30.18 / 40.61% (gaps within 0.4 pp, asserted within 0.5)."""
    tol = Fraction(3, 1000)
    hw = pg_hw5.lines[0]
    assert abs(hw.house_edge - Fraction(244, 10_000)) <= tol
    assert abs(hw.extras["banker_edge"] - Fraction(53, 10_000)) <= tol
    assert abs(pg_opt5.lines[0].house_edge - Fraction(167, 10_000)) <= tol
    assert abs(pg_bank_opt5.lines[0].extras["banker_edge"] - Fraction(-20, 10_000)) <= tol
    for key, published in (("p_win", 2921), ("p_loss", 3018), ("p_push", 4061)):
        assert abs(hw.extras[key] - Fraction(published, 10_000)) <= Fraction(5, 1000)


def test_pg_4_2_commission_changes_only_the_money(pg_hw: ParSheet, pg_hw5: ParSheet) -> None:
    """PG-4.2: the same deals are won, lost and pushed at 4% and 5%; the edges follow
    from the counts: player edge = L/N - (1 - c)·W/N, banker edge = W/N - (1 - c)·L/N."""
    four, five = pg_hw.lines[0], pg_hw5.lines[0]
    assert counts(four) == counts(five)
    w, lost = Fraction(counts(four)["win"], DEALS), Fraction(counts(four)["loss"], DEALS)
    for line, c in ((four, FOUR), (five, FIVE)):
        assert line.house_edge == lost - (1 - c) * w
        assert line.extras["banker_edge"] == w - (1 - c) * lost
        assert line.outcomes[0].net == 1 - c
    assert pg_hw.options["commission"] == "1/25"


# --- symmetry, best responses ---------------------------------------------------------------------


def test_tw_6c_tw_9a_max_back_banker_is_symmetric() -> None:
    """TW-6c / TW-9a: with the banker bound like the players (max-back) nobody has an
    advantage: P(win) == P(loss) exactly, over all deals and in a second round."""
    for sheet in (
        taiwan_par("max-back"),
        taiwan_par("max-back", exposed=tiles(SHOWN)),
    ):
        c = counts(sheet.lines[0])
        assert c["win"] == c["loss"] > 0
        assert sum(c.values()) == sheet.total
        assert sheet.lines[0].house_edge == sheet.lines[0].extras["banker_edge"]


def test_optimal_player_is_a_best_response(pg_hw5: ParSheet, pg_opt5: ParSheet) -> None:
    """For sampled hands the optimal setting's exact EV is at least every alternative's
    (hint, best_setting, strategy("optimal") and the whole table agree), and over all deals
    its edge is below house way's and max-back's against the same house-way banker."""
    table = optimal_table("paigow", commission=FIVE)
    assert len(table) == 8_130
    optimal = at.strategy("optimal")
    for n, (four, _) in enumerate(random_deals("optimal", 40)):
        ranked = hint(four, commission=FIVE)
        assert ranked[0].ev >= max(h.ev for h in ranked[1:])
        assert values(table[canonical(four)]) == values(ranked[0].setting)
        if n < 10:  # the registered strategy: best response to the house way at PG-4.2's 4%
            best = hint(four)[0].setting
            assert values(best_setting(four, PG1985)) == values(best)
            assert optimal.choose(four, PG1985) == best_setting(list(reversed(four)), "pg1985")
    mb = paigow_par("max-back", "house-way", commission=FIVE).lines[0]
    opt = pg_opt5.lines[0]
    assert opt.house_edge < pg_hw5.lines[0].house_edge < mb.house_edge
    assert "sets" in opt.notes[0]


def test_optimal_banker_is_a_best_response(pg_hw5: ParSheet, pg_bank_opt5: ParSheet) -> None:
    """The banker's best response to house-way players: as a banker's hint, the table's
    setting is the first, and the bank does better than with the house way."""
    table = optimal_table("paigow", side="banker", commission=FIVE)
    for four, _ in random_deals("bank", 15):
        ranked = hint(four, as_="banker", commission=FIVE)
        assert values(table[canonical(four)]) == values(ranked[0].setting)
    assert pg_bank_opt5.lines[0].extras["banker_edge"] < pg_hw5.lines[0].extras["banker_edge"]


def test_tw_optimal_banker_beats_the_house_way_against_forced_players() -> None:
    hw, opt = taiwan_par("house-way").lines[0], taiwan_par("optimal").lines[0]
    assert opt.extras["banker_edge"] < hw.extras["banker_edge"]
    assert sum(counts(opt).values()) == DEALS


def test_optimal_against_optimal_is_refused() -> None:
    with pytest.raises(InvalidInput, match="optimal against optimal"):
        paigow_par("optimal", "optimal")


def test_comparison_lines_are_the_single_pairings(
    pg_hw: ParSheet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(at, "PAIRINGS", (("house-way", "house-way"),))
    sheet = paigow_comparison()
    assert sheet.lines == pg_hw.lines
    assert sheet.lines[0].name == "player house-way vs banker house-way"


# --- hints -------------------------------------------------------------------------------------


def test_t_4_hint_lists_the_three_settings_best_first() -> None:
    four = tiles("6-6 4-5 2-4 1-2")
    got = hint(four)
    assert all(isinstance(h, SettingEV) for h in got)
    assert {split(h.setting) for h in got} == {split(s) for s in settings(four, PG1985)}
    assert [h.ev for h in got] == sorted((h.ev for h in got), reverse=True)
    for h in got:
        assert Counter(h.setting.tiles) == Counter(four)
        assert h.p_win + h.p_loss + h.p_push == 1
    # keeping 至尊 and 天九王 together never loses against a house-way banker
    assert got[0].loss == 0 and got[0].ev > Fraction(9, 10)


def test_hint_refuses_bad_input() -> None:
    with pytest.raises(InvalidInput, match="T-4"):
        hint(tiles("6-6 4-5 2-4"))
    with pytest.raises(InvalidInput, match="T-1"):
        hint(tiles("2-4 2-4 6-6 1-1"))
    with pytest.raises(InvalidInput, match="paigow or taiwan"):
        hint(tiles("6-6 4-5 2-4 1-2"), game="baccarat")
    with pytest.raises(InvalidInput, match="unknown setting strategy"):
        hint(tiles("6-6 4-5 2-4 1-2"), vs="lucky")
    with pytest.raises(InvalidInput, match="PG-4.2"):
        paigow_par(commission=0.05)  # type: ignore[arg-type]


def test_tw_r2_exposed_tiles_are_validated() -> None:
    with pytest.raises(InvalidInput, match="TW-R2"):
        taiwan_par(exposed=tiles("6-6 6-6 1-1"))
    with pytest.raises(InvalidInput, match="T-1"):
        taiwan_par(exposed=tiles(SHOWN.replace("1-1", "6-6", 1)))
