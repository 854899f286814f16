"""Setting strategies: TW-6b / TW-R1's forced setting (max-back) and the Casino Canberra house
way (HW-1 … HW-4I), worked by hand from ../shared/reference/pai-gow-strategies.md."""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import pytest
from hypothesis import given
from hypothesis import settings as hyp_settings
from hypothesis import strategies as st

from macau_tables.analysis.tiles import OPTIMAL_STRATEGY, best_setting
from macau_tables.analysis.tiles import STRATEGIES as ALL_STRATEGIES
from macau_tables.analysis.tiles import strategy as any_strategy
from macau_tables.core.errors import InvalidInput, RuleViolation
from macau_tables.tiles import (
    FULL_SET,
    PG1985,
    TW1990,
    Category,
    Hand,
    Setting,
    Tile,
    TileRules,
    evaluate,
    settings,
)
from macau_tables.tiles.strategies import (
    EXCEPTIONS,
    HOUSE_WAY,
    MAX_BACK,
    STRATEGIES,
    HouseWay,
    SettingStrategy,
    exception_table,
    follows_forced_rule,
    forced_setting,
    keepable_settings,
    strategy,
    verify_forced_rule,
)

RULES = (PG1985, TW1990)


def tiles(text: str) -> list[Tile]:
    return [Tile.parse(t) for t in text.split()]


def hand(setting_part: Hand) -> str:
    """A hand's tiles as text, in a fixed order, to compare with a hand-worked answer."""
    return " ".join(sorted(str(t) for t in setting_part.tiles))


def split(setting: Setting) -> tuple[str, str]:
    return hand(setting.front), hand(setting.back)


def norm(text: str) -> str:
    return " ".join(sorted(text.split()))


def expect(front: str, back: str) -> tuple[str, str]:
    return norm(front), norm(back)


def values(setting: Setting) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    return setting.front.value.key, setting.back.value.key


@cache
def distinct_hands() -> tuple[tuple[tuple[Tile, ...], int], ...]:
    """Every distinct four-tile multiset of the 32 tiles, with how many of the C(32,4)
    index-hands it stands for."""
    counts = Counter(
        tuple(sorted(FULL_SET[i] for i in combo)) for combo in itertools.combinations(range(32), 4)
    )
    return tuple(counts.items())


def pair_count(four: tuple[Tile, ...]) -> int:
    """Pairs in a hand: two tiles of one rank (T-2.2) or the two Gee Joon tiles (T-2.1)."""
    ranks = Counter(t.rank for t in four)
    return sum(1 for c in ranks.values() if c == 2) + ({15, 17} <= set(ranks))


def test_distinct_hands_cover_the_35960_four_tile_hands() -> None:
    """T-1: C(32,4) = 35,960 hands; 120 with two pairs, 6,720 with one, 29,120 with none
    (the reference file's counts: 16 kinds of pair, 至尊 included)."""
    assert sum(n for _, n in distinct_hands()) == 35_960
    by_pairs: Counter[int] = Counter()
    for four, n in distinct_hands():
        by_pairs[pair_count(four)] += n
    assert by_pairs == {2: 120, 1: 6_720, 0: 29_120}


# ============================================================ TW-6b / TW-R1: max-back


def brute_forced(four: tuple[Tile, ...], rules: TileRules) -> tuple[tuple, tuple]:
    """Independent brute force: the six two-tile hands, the highest as back; among the
    ways to keep that back, the best front."""
    best: tuple[tuple, tuple] | None = None
    for i, j in itertools.combinations(range(4), 2):
        k, m = (n for n in range(4) if n not in (i, j))
        back = evaluate(four[i], four[j], rules).key
        front = evaluate(four[k], four[m], rules).key
        if front > back:  # that pair is not the higher hand of its setting
            continue
        if best is None or (back, front) > best:
            best = (back, front)
    assert best is not None
    return best


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_tw_r1_forced_setting_exhaustive(rules: TileRules) -> None:
    """TW-6b / TW-R1 over every distinct four-tile hand: the back is the highest of the six
    two-tile hands, and among settings with that back the front is the highest."""
    for four, _ in distinct_hands():
        chosen = forced_setting(four, rules)
        top = max(evaluate(a, b, rules).key for a, b in itertools.combinations(four, 2))
        assert chosen.back.value.key == top
        assert (chosen.back.value.key, chosen.front.value.key) == brute_forced(four, rules)


def test_tw_6b_back_is_the_highest_hand_even_when_it_starves_the_front() -> None:
    """TW-6b: 6-6 1-1 4-5 5-5: the wong 6-6 4-5 goes behind, leaving Day 2 in front, though
    6-6 1-1 / 4-5 5-5 (4 / 9) would balance the hands."""
    assert split(forced_setting(tiles("6-6 1-1 4-5 5-5"), TW1990)) == expect("1-1 5-5", "6-6 4-5")


def test_tw_r1_equal_backs_go_to_the_higher_front() -> None:
    """TW-R1: 6-6 1-6 3-4 1-4: 6-6 + 1-6 and 6-6 + 3-4 are both Teen 9; behind either, the
    front is 2 points: 1-6 1-4 (best tile 高腳七, rank 10) beats 3-4 1-4 (雜七, rank 14)."""
    chosen = forced_setting(tiles("6-6 1-6 3-4 1-4"), TW1990)
    assert split(chosen) == expect("1-6 1-4", "6-6 3-4")


def test_tw_r1_max_back_works_under_pg_rules_too() -> None:
    """TW-R1 applied to pg1985: 2-4 with 6-6 is Teen 8 there (Gee Joon 6), Teen 5 in TW."""
    four = tiles("6-6 2-4 1-3 5-5")
    assert evaluate(Tile(6, 6), Tile(2, 4), PG1985).points == 8
    assert split(MAX_BACK.choose(four, PG1985)) == expect("1-3 5-5", "6-6 2-4")
    # TW-9b: 2-4 stays 6: 6-6 2-4 is 8 too (12+6); 6-6 1-3 is 6; 6-6 5-5 is 2; 1-3 2-4 is 0 …
    assert split(MAX_BACK.choose(four, TW1990)) == expect("1-3 5-5", "6-6 2-4")


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_hw_0_the_house_way_never_plays_a_dominated_setting(rules: TileRules) -> None:
    """A house way never chooses a setting that another setting of the same tiles beats or
    equals in both hands and beats in one — over all 8,130 hand classes (under
    tw1990 HW-2a set ``1-1 4-4 4-5 6-6`` as 地牌一 / 天槓, below 地槓 / 天九王)."""
    hands = distinct_hands()
    assert len(hands) == 8130
    for four, _ in hands:
        chosen = HOUSE_WAY.choose(four, rules)
        f, b = chosen.front.value.key, chosen.back.value.key
        for s in settings(four, rules):
            sf, sb = s.front.value.key, s.back.value.key
            assert not (sf >= f and sb >= b and (sf, sb) != (f, b)), (four, str(chosen), str(s))
    d = HOUSE_WAY.decide(tiles("1-1 4-4 4-5 6-6"), TW1990)
    assert split(d.setting) == expect("1-1 4-4", "6-6 4-5") and d.rule == "HW-0"


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_tw_6b_tw_r1_follows_forced_rule_exhaustive(rules: TileRules) -> None:
    """TW-6b 「閒家須盡量將後對擺大」 / TW-R1: a setting follows the rule exactly when its back
    is the highest two-tile hand of the four tiles, whatever its front."""
    for four, _ in distinct_hands():
        highest = max(evaluate(a, b, rules).key for a, b in itertools.combinations(four, 2))
        for s in settings(four, rules):
            assert follows_forced_rule(s, four, rules) is (s.back.value.key == highest)
        kept = keepable_settings(four, rules)
        assert kept and all(s.back.value.key == highest for s in kept)


def test_tw_6b_equal_value_setting_with_swapped_tiles_follows_the_rule() -> None:
    """TW-6b is judged by value. 6-6 1-6 3-4 1-4: 3-4 1-4 / 6-6 1-6 has the highest back
    (Teen 9) with a lower front than 1-6 1-4: it follows the rule all the same (TW-R1,
    the back only). A setting whose labels say front = 6-6 3-4 is valued, not read: the
    lower pair is the front. 6-6 1-6 4-5 3-6: the pair of 9s behind, whichever 9 first."""
    four = tiles("6-6 1-6 3-4 1-4")
    other = Setting(
        front=Hand(Tile(3, 4), Tile(1, 4), TW1990), back=Hand(*tiles("6-6 1-6"), TW1990)
    )
    assert follows_forced_rule(other, four, TW1990)
    low_back = Setting(front=Hand(*tiles("6-6 1-4"), TW1990), back=Hand(*tiles("1-6 3-4"), TW1990))
    assert not follows_forced_rule(low_back, four, TW1990)
    labels_swapped = Setting(
        front=Hand(*tiles("6-6 3-4"), TW1990), back=Hand(*tiles("1-6 1-4"), TW1990)
    )
    assert follows_forced_rule(labels_swapped, four, TW1990)
    mixed = tiles("6-6 1-6 4-5 3-6")  # pair of 9s behind; 6-6 1-6 in front either way
    forced = forced_setting(mixed, TW1990)
    assert split(forced) == expect("6-6 1-6", "4-5 3-6")
    assert follows_forced_rule(forced, mixed, TW1990)


def test_tw_6b_verify_names_the_rule_and_the_forced_setting() -> None:
    four = tiles("6-6 1-1 4-5 5-5")
    wrong = Setting(front=Hand(*tiles("6-6 1-1")), back=Hand(*tiles("4-5 5-5")))
    with pytest.raises(RuleViolation, match="TW-6b") as err:
        verify_forced_rule(wrong, four, "tw1990")
    assert "1-1 5-5 / 6-6 4-5" in str(err.value)
    verify_forced_rule(forced_setting(four, "tw1990"), four, "tw1990")


def test_t_4_follows_forced_rule_refuses_a_setting_of_other_tiles() -> None:
    other = Setting(front=Hand(*tiles("6-6 1-1")), back=Hand(*tiles("4-5 5-6")))
    with pytest.raises(InvalidInput, match="T-4"):
        follows_forced_rule(other, tiles("6-6 1-1 4-5 5-5"), PG1985)


# ============================================================ registry and invariants


def test_registry_names_and_unknown_name() -> None:
    """The readable strategies are here; the analysis adds ``optimal`` (its best response
    passed in: this package never imports the analysis)."""
    assert set(STRATEGIES) == {"max-back", "house-way"}
    assert strategy("max-back") is MAX_BACK
    assert strategy(" House_Way ") is HOUSE_WAY
    with pytest.raises(InvalidInput, match="house-way or max-back"):
        strategy("wizard-way")
    assert set(ALL_STRATEGIES) == {"max-back", "house-way", "optimal"}
    assert any_strategy("max-back") is MAX_BACK
    assert any_strategy("Optimal") is OPTIMAL_STRATEGY
    assert OPTIMAL_STRATEGY.best_setting is best_setting
    for s in ALL_STRATEGIES.values():
        assert isinstance(s, SettingStrategy)
    with pytest.raises(InvalidInput, match="house-way or max-back or optimal"):
        any_strategy("wizard-way")


draws = st.lists(st.integers(0, 31), min_size=4, max_size=4, unique=True)


@pytest.mark.slow
@hyp_settings(deadline=None)  # optimal's first call builds its best-response table (seconds)
@given(draws, st.sampled_from(RULES), st.sampled_from(sorted(ALL_STRATEGIES)), st.randoms())
def test_strategy_returns_a_setting_of_exactly_the_tiles(
    idx: list[int], rules: TileRules, name: str, rnd: object
) -> None:
    """T-4: every strategy returns one of the three settings of exactly the given tiles,
    front not above back, valued under the given rules — and the same setting (by value
    and by tiles) whatever order the tiles come in, every time (deterministic, pure)."""
    four = [FULL_SET[i] for i in idx]
    chosen = any_strategy(name).choose(four, rules)
    assert Counter(chosen.tiles) == Counter(four)
    assert chosen.front.rules == chosen.back.rules == rules
    assert chosen.front.value.key <= chosen.back.value.key
    assert values(chosen) in {values(s) for s in settings(four, rules)}
    shuffled = list(four)
    rnd.shuffle(shuffled)  # type: ignore[attr-defined]
    assert any_strategy(name).choose(shuffled, rules) == chosen
    assert any_strategy(name).choose(four, rules) == chosen


# ============================================================ HW-1 Pairs


@pytest.mark.parametrize(
    ("four", "front", "back"),
    [
        # 4s: split would be 2-2 5-5 (4) / 2-2 4-6 (4); kept: 5-5 4-6 = 0 / pair.
        ("2-2 2-2 5-5 4-6", "5-5 4-6", "2-2 2-2"),
        # 5s (mixed pair 1-4 2-3): 6-6 1-3 = 6 in front.
        ("1-4 2-3 6-6 1-3", "6-6 1-3", "1-4 2-3"),
        # 6s: split would be 8 / 8 (3-3 + 6-6 = 18, 3-3 + 1-1 = 8); kept: 6-6 1-1 = 4 / pair.
        ("3-3 3-3 6-6 1-1", "6-6 1-1", "3-3 3-3"),
        # 10s: split would be 2 / 8; kept: 4-4 1-1 = 0 / pair.
        ("5-5 5-5 4-4 1-1", "4-4 1-1", "5-5 5-5"),
        # 11s: kept: 6-6 1-6, a high nine, in front.
        ("5-6 5-6 6-6 1-6", "6-6 1-6", "5-6 5-6"),
        # Gee Joon (至尊): split would be 8 / 8 in PG; kept: 6-6 1-1 = 4 / 至尊.
        ("2-4 1-2 6-6 1-1", "6-6 1-1", "2-4 1-2"),
    ],
)
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_hw_1a_never_split_4s_5s_6s_10s_11s_or_gee_joon(
    four: str, front: str, back: str, rules: TileRules
) -> None:
    decision = HOUSE_WAY.decide(tiles(four), rules)
    assert decision.rule == "HW-1a"
    assert split(decision.setting) == expect(front, back)


def test_hw_1b_split_12s_for_wong_and_gong() -> None:
    """6-6 6-6 4-5 3-5: split = Teen 8 gong / Teen 9 wong ≥ 6/8; kept = 7 / pair."""
    d = HOUSE_WAY.decide(tiles("6-6 6-6 4-5 3-5"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-1b", expect("6-6 3-5", "6-6 4-5"))
    assert d.setting.front.value.category is Category.GONG


def test_hw_1b_keep_12s_short_of_6_8() -> None:
    """6-6 6-6 5-5 4-6: split = Teen 2 / Teen 2 < 6/8: keep, 0 / pair."""
    d = HOUSE_WAY.decide(tiles("6-6 6-6 5-5 4-6"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-1b", expect("5-5 4-6", "6-6 6-6"))


def test_hw_1b_split_2s_for_8_8() -> None:
    """1-1 1-1 3-3 1-5: split = Day 8 / Day 8 ≥ 6/8; kept = 3-3 1-5 = 2 / pair."""
    d = HOUSE_WAY.decide(tiles("1-1 1-1 3-3 1-5"), PG1985)
    assert d.rule == "HW-1b"
    assert sorted(split(d.setting)) == sorted(expect("1-1 3-3", "1-1 1-5"))
    assert d.setting.front.value.points == d.setting.back.value.points == 8


def test_hw_1b_keep_2s_when_the_front_would_be_below_6() -> None:
    """1-1 1-1 5-5 1-6: split = Day 2 / Day 9: the front 2 < 6: keep, 5-5 1-6 = 7 / pair."""
    d = HOUSE_WAY.decide(tiles("1-1 1-1 5-5 1-6"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-1b", expect("5-5 1-6", "1-1 1-1"))


def test_hw_1f_published_example_12_12_gee_joon_4_keeps_the_pair() -> None:
    """HW-1f: "12, 12, Gee Joon, 4: keep the pair: 7/pair". PG: the split 6-6 1-3 (6) /
    6-6 2-4 (8) is 6/8, but keeping gives 2-4 1-3 = 7 (Gee Joon as 3) and a pair: both
    hands higher."""
    d = HOUSE_WAY.decide(tiles("6-6 6-6 2-4 1-3"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-1f", expect("2-4 1-3", "6-6 6-6"))
    assert d.setting.front.value.points == 7


def test_hw_1b_under_tw_gee_joon_does_not_convert() -> None:
    """TW-9b: 2-4 is 6 only: kept 2-4 1-3 = 0, so 6/8 (Teen 6 / Teen 8) is split for.
    With 1-2 (3 only): split 6-6 1-2 = 5 / 6-6 1-3 = 6 is short of 6/8: keep 1-2 1-3 = 7."""
    d = HOUSE_WAY.decide(tiles("6-6 6-6 2-4 1-3"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-1b", expect("6-6 1-3", "6-6 2-4"))
    d = HOUSE_WAY.decide(tiles("6-6 6-6 1-2 1-3"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-1b", expect("1-2 1-3", "6-6 6-6"))


def test_hw_1c_split_9s_for_9_9() -> None:
    """4-5 3-6 5-5 4-6: split = 9 / 9 (9 + 10 twice); the 9 with 5-5 (rank 5) is behind
    the 9 with 4-6 (rank 9). Kept: 5-5 4-6 = 0 / pair."""
    d = HOUSE_WAY.decide(tiles("4-5 3-6 5-5 4-6"), PG1985)
    assert d.rule == "HW-1c"
    assert d.setting.front.value.points == d.setting.back.value.points == 9
    assert d.setting.back.value.best == Tile(5, 5)
    assert d.setting.front.value.best == Tile(4, 6)


def test_hw_1c_9s_with_teen_and_day_depend_on_the_day_wong() -> None:
    """4-5 3-6 6-6 1-1. PG: split = Day wong / Teen wong, "9/9 or better": split.
    TW-7b: no 地九王, Day + 9 = 1: split = 1 / wong fails: keep 6-6 1-1 = 4 / pair of 9s."""
    d = HOUSE_WAY.decide(tiles("4-5 3-6 6-6 1-1"), PG1985)
    assert d.rule == "HW-1c"
    assert {d.setting.front.value.name, d.setting.back.value.name} == {"天九王", "地九王"}
    d = HOUSE_WAY.decide(tiles("4-5 3-6 6-6 1-1"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-1c", expect("6-6 1-1", "4-5 3-6"))


@pytest.mark.parametrize(
    ("four", "front", "back"),
    [
        # 8/8: 4-4 5-5 = 8, 4-4 4-6 = 8 (equal: High 8 in both).
        ("4-4 4-4 5-5 4-6", "4-4 4-6", "4-4 5-5"),
        # 7/9: 4-4 4-5 = 7, 4-4 5-6 = 9.
        ("4-4 4-4 5-6 4-5", "4-4 4-5", "4-4 5-6"),
        # 5/9 is short: keep 5-6 1-6 = 8 / pair of 8s.
        ("4-4 4-4 5-6 1-6", "5-6 1-6", "4-4 4-4"),
        # mixed 8s, 8/8: 3-5 + 5-5 (best 5-5) behind 2-6 + 4-6 (best 4-6).
        ("3-5 2-6 5-5 4-6", "2-6 4-6", "3-5 5-5"),
    ],
)
def test_hw_1d_split_8s_for_7_9_or_8_8(four: str, front: str, back: str) -> None:
    d = HOUSE_WAY.decide(tiles(four), PG1985)
    assert d.rule == "HW-1d"
    assert values(d.setting) == values(Setting(Hand(*tiles(front)), Hand(*tiles(back))))


@pytest.mark.parametrize(
    ("four", "front", "back"),
    [
        # 7 / high nine: 1-6 5-5 = 7, 6-6 1-6 = Teen 9.
        ("1-6 1-6 6-6 5-5", "1-6 5-5", "6-6 1-6"),
        # 6 / high nine is short: keep 6-6 4-5 (a wong!) in front of the pair of 7s.
        ("1-6 1-6 6-6 4-5", "6-6 4-5", "1-6 1-6"),
        # mixed 7s: Day 9 / Teen 9.
        ("3-4 2-5 6-6 1-1", "1-1 2-5", "6-6 3-4"),
        # 7 / 7 is short: keep 5-5 4-6 = 0 / pair.
        ("3-4 2-5 5-5 4-6", "5-5 4-6", "3-4 2-5"),
    ],
)
def test_hw_1e_split_7s_for_7_high_nine(four: str, front: str, back: str) -> None:
    d = HOUSE_WAY.decide(tiles(four), PG1985)
    assert d.rule == "HW-1e"
    assert values(d.setting) == values(Setting(Hand(*tiles(front)), Hand(*tiles(back))))


def test_hw_1f_two_pairs_are_always_kept() -> None:
    """6-6 6-6 4-5 3-6: splitting (wong / wong) passes both HW-1b and HW-1c, but keeping
    gives pair of 9s / pair of 12s — both hands higher."""
    d = HOUSE_WAY.decide(tiles("6-6 6-6 4-5 3-6"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-1f", expect("4-5 3-6", "6-6 6-6"))


# ============================================================ HW-2 Wong, gong, high nine


def test_hw_2a_high_nine_before_wong() -> None:
    """6-6 4-5 1-6 5-5: wong 6-6 4-5 would leave 1-6 5-5 = 7; the high nine 6-6 1-6
    leaves 4-5 5-5 = 9. Preference: high nine."""
    d = HOUSE_WAY.decide(tiles("6-6 4-5 1-6 5-5"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-2a", expect("4-5 5-5", "6-6 1-6"))


def test_hw_2a_gong_before_wong() -> None:
    """6-6 4-5 3-5 1-3: gong 6-6 3-5 leaves 4-5 1-3 = 3 with High 4 (above High 6): fine."""
    d = HOUSE_WAY.decide(tiles("6-6 4-5 3-5 1-3"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-2a", expect("4-5 1-3", "6-6 3-5"))


def test_hw_2a_use_the_12_not_the_2() -> None:
    """6-6 1-1 1-6 5-5: a high nine with Teen or with Day: use the 12. The front 1-1 5-5 is
    2 with Day — Day ranks above High 6, so the proviso does not bite."""
    d = HOUSE_WAY.decide(tiles("6-6 1-1 1-6 5-5"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-2a", expect("1-1 5-5", "6-6 1-6"))


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_hw_2b_weak_low_hand_maximise_the_high_hand(rules: TileRules) -> None:
    """6-6 1-6 4-5 2-2: the high nine leaves 4-5 2-2 = 3 with 雜九 (below High 6): maximise
    the high hand instead: wong 6-6 4-5, front 1-6 2-2 = 1."""
    d = HOUSE_WAY.decide(tiles("6-6 1-6 4-5 2-2"), rules)
    assert (d.rule, split(d.setting)) == ("HW-2b", expect("1-6 2-2", "6-6 4-5"))


def test_hw_2b_depends_on_gee_joon_conversion() -> None:
    """6-6 4-5 3-5 1-2. PG: gong leaves 4-5 1-2 = 5 (1-2 as 6): play the gong.
    TW-9b: 4-5 1-2 = 2 with 雜九: weak, so the wong: 6-6 4-5 / 3-5 1-2 = 1."""
    d = HOUSE_WAY.decide(tiles("6-6 4-5 3-5 1-2"), PG1985)
    assert (d.rule, split(d.setting)) == ("HW-2a", expect("4-5 1-2", "6-6 3-5"))
    d = HOUSE_WAY.decide(tiles("6-6 4-5 3-5 1-2"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-2b", expect("3-5 1-2", "6-6 4-5"))


# ============================================================ HW-3 All other hands


def test_hw_3b_play_a_low_hand_of_at_least_high_3() -> None:
    """5-5 3-3 1-4 2-6: all three settings total 9 (3/6, 4/5, 1/8). The best low hand is
    3-3 2-6 = 4: at least a High 3: play 4 / 5."""
    d = HOUSE_WAY.decide(tiles("5-5 3-3 1-4 2-6"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == ("HW-3b", None, expect("3-3 2-6", "5-5 1-4"))


def test_hw_3c_otherwise_a_high_hand_of_7_or_more() -> None:
    """1-3 5-6 1-5 2-5: all total 8: 3/5 (the 3 has 拎六, below High 6), 0/8, 1/7. No High
    3; the best high hand is 8: play 1-3 1-5 = 0 / 5-6 2-5 = 8."""
    d = HOUSE_WAY.decide(tiles("1-3 5-6 1-5 2-5"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == ("HW-3c", None, expect("1-3 1-5", "5-6 2-5"))


def test_hw_3d_otherwise_maximise_the_low_hand() -> None:
    """4-4 1-6 1-5 2-3: all total 6: 1/5, 2/4, 3/3. The best low hand is 1-6 1-5 = 3 with
    高腳七 (rank 10, below High 6): no High 3 (4-4 2-3 = 3 with 人 is that setting's back);
    the best high hand is 5 < 7: maximise the low hand: 3 / 3."""
    d = HOUSE_WAY.decide(tiles("4-4 1-6 1-5 2-3"), PG1985)
    assert d.rule == "HW-3d"
    assert split(d.setting) == expect("1-6 1-5", "4-4 2-3")


def test_hw_3e_high_hand_7_or_less_higher_tile_in_the_low_hand() -> None:
    """3-3 2-2 5-6 1-5 (via 3c, high hand 7): 3-3 2-2 = 0 / 5-6 1-5 = 7 and
    2-2 1-5 = 0 / 3-3 5-6 = 7: the higher-ranking tile (3-3) goes in the low hand."""
    d = HOUSE_WAY.decide(tiles("3-3 2-2 5-6 1-5"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == (
        "HW-3c", "HW-3e", expect("3-3 2-2", "5-6 1-5"),
    )  # fmt: skip
    # (d) then (e): 3-3 1-6 2-5 1-4: 2 / 3 either way; 1-6 (rank 10) beats 2-5 in front.
    d = HOUSE_WAY.decide(tiles("3-3 1-6 2-5 1-4"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == (
        "HW-3d", "HW-3e", expect("1-6 1-4", "3-3 2-5"),
    )  # fmt: skip


def test_hw_3e_high_hand_above_7_higher_tile_in_the_high_hand() -> None:
    """1-3 2-2 2-6 1-4 (via 3c, high hand 9): 1-3 2-6 = 2 / 2-2 1-4 = 9 and
    2-2 2-6 = 2 / 1-3 1-4 = 9: the higher-ranking tile (1-3, High 4) goes behind."""
    d = HOUSE_WAY.decide(tiles("1-3 2-2 2-6 1-4"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == (
        "HW-3c", "HW-3e", expect("2-2 2-6", "1-3 1-4"),
    )  # fmt: skip


def test_hw_3e_gap_fill_equal_high_hands_then_the_higher_front() -> None:
    """Gap fill: 6-6 3-3 5-6 1-5: 5-6 1-5 = 7 / 6-6 3-3 = Teen 8 and 3-3 5-6 = 7 /
    6-6 1-5 = Teen 8. (e) puts the better tile behind, but both backs are Teen 8; our
    stated choice: then the higher front, 3-3 5-6 (長三 7)."""
    d = HOUSE_WAY.decide(tiles("6-6 3-3 5-6 1-5"), PG1985)
    assert (d.rule, d.tie_break, split(d.setting)) == (
        "HW-3b", "HW-3e-gap", expect("3-3 5-6", "6-6 1-5"),
    )  # fmt: skip


# ============================================================ HW-4 Exceptions A–I

GENERAL_RULES = HouseWay(exceptions=())


@pytest.mark.parametrize(
    ("rule", "four", "front", "back", "general_front", "general_back"),
    [
        # A: 3 / wong. Rules 1–3: HW-1b keeps the 12s (3/wong is not 6/8): 0 / pair.
        ("HW-4A", "6-6 6-6 4-5 5-6", "6-6 5-6", "6-6 4-5", "4-5 5-6", "6-6 6-6"),
        # B: 5-5 1-6 = 7 / 4-4 5-6 = 9. Rules 1–3: 8/8 (HW-3b, best low 8).
        ("HW-4B", "4-4 5-5 5-6 1-6", "5-5 1-6", "4-4 5-6", "5-6 1-6", "4-4 5-5"),
        # C: 6-6 1-4 = 7 / 2-4 3-3 = 9 (Gee Joon as 3). Rules 1–3: 8/8.
        ("HW-4C", "2-4 3-3 1-4 6-6", "6-6 1-4", "2-4 3-3", "2-4 1-4", "6-6 3-3"),
        # D: make a 9 with the 4 and the 5: 1-3 1-4 = 9 (High 4) behind 2-4 2-2 = 7.
        # Rules 1–3: 8/8 (2-4 1-4 = 8, 1-3 2-2 = 8).
        ("HW-4D", "2-4 1-3 2-2 1-4", "2-4 2-2", "1-3 1-4", "2-4 1-4", "1-3 2-2"),
        # E: High 7 (4-4 4-5) & Low 8 (3-5 4-6). Rules 1–3: 3b keeps a 7 in front, 3e
        # puts the better tile behind: 4-5 3-5 = 7 / 4-4 4-6 = 8.
        ("HW-4E", "4-4 3-5 4-5 4-6", "4-4 4-5", "3-5 4-6", "4-5 3-5", "4-4 4-6"),
        # F: High 3 (3-3 1-6) & Low 9 (1-5 2-4). Rules 1–3: 3e: 1-5 1-6 / 3-3 2-4.
        ("HW-4F", "3-3 1-5 2-4 1-6", "3-3 1-6", "1-5 2-4", "1-5 1-6", "3-3 2-4"),
        # G: 3 / gong. Rules 1–3: HW-2b (the gong leaves 4-5 2-2 = 3): wong, 2 in front.
        ("HW-4G", "6-6 4-4 4-5 2-2", "4-5 2-2", "6-6 4-4", "4-4 2-2", "6-6 4-5"),
        # H: Low 1 (1-5 1-4) / High 7 (3-3 5-6). Rules 1–3 (3c, 3e): 3-3 1-4 / 5-6 1-5.
        ("HW-4H", "3-3 5-6 1-5 1-4", "1-5 1-4", "3-3 5-6", "3-3 1-4", "5-6 1-5"),
        # I: Low 2 (2-6 2-2) / High 7 (4-4 3-6). Rules 1–3 (3c, 3e): 4-4 2-2 / 2-6 3-6.
        ("HW-4I", "4-4 2-6 3-6 2-2", "2-6 2-2", "4-4 3-6", "4-4 2-2", "2-6 3-6"),
    ],
)
def test_hw_4_exceptions_take_precedence(
    rule: str, four: str, front: str, back: str, general_front: str, general_back: str
) -> None:
    d = HOUSE_WAY.decide(tiles(four), PG1985)
    assert (d.rule, split(d.setting)) == (rule, expect(front, back))
    general = GENERAL_RULES.decide(tiles(four), PG1985)
    assert split(general.setting) == expect(general_front, general_back)
    assert values(general.setting) != values(d.setting)


def test_hw_4c_and_4f_under_tw_need_the_gee_joon_3() -> None:
    """TW-9b: with 2-4 (always 6) the groupings of C and F do not give 7/9 or 3/9, so the
    exceptions do not apply and rules 1–3 decide; with 1-2 (always 3) they do."""
    d = HOUSE_WAY.decide(tiles("1-2 3-3 1-4 6-6"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-4C", expect("6-6 1-4", "1-2 3-3"))
    # 2-4 3-3 = 2 / 6-6 1-4 = 7 would be the grouping; 3c: best high 8 (two ways, both
    # Teen 8) — gap fill: the higher front, 3-3 1-4 (長三 1) over 2-4 1-4 (大雞 1).
    d = HOUSE_WAY.decide(tiles("2-4 3-3 1-4 6-6"), TW1990)
    assert (d.rule, d.tie_break, split(d.setting)) == (
        "HW-3c", "HW-3e-gap", expect("3-3 1-4", "6-6 2-4"),
    )  # fmt: skip
    d = HOUSE_WAY.decide(tiles("3-3 1-5 1-2 1-6"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-4F", expect("3-3 1-6", "1-5 1-2"))
    assert HOUSE_WAY.decide(tiles("3-3 1-5 2-4 1-6"), TW1990).rule.startswith("HW-3")


def test_hw_4g_with_day_under_tw() -> None:
    """G with 2 instead of 12 under TW: 1-1 3-5 = 地槓, 3-6 2-2 = 3."""
    d = HOUSE_WAY.decide(tiles("1-1 3-5 3-6 2-2"), TW1990)
    assert (d.rule, split(d.setting)) == ("HW-4G", expect("3-6 2-2", "1-1 3-5"))


def test_hw_4_no_hand_matches_two_exceptions() -> None:
    table = exception_table(EXCEPTIONS)
    assert table
    for entries in table.values():
        assert len({exc.rule for exc, _ in entries}) == 1


def test_hw_4d_needs_no_pair() -> None:
    """D's fourth tile makes no pair: 2-4 1-3 1-4 2-3 holds a pair of 5s (HW-1a)."""
    assert HOUSE_WAY.decide(tiles("2-4 1-3 1-4 2-3"), PG1985).rule == "HW-1a"
    assert HOUSE_WAY.decide(tiles("2-4 1-3 1-4 1-2"), PG1985).rule == "HW-1a"  # 至尊


# ============================================================ whole-space checks


@pytest.mark.slow
@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.name)
def test_hw_house_way_exhaustive_invariants(rules: TileRules) -> None:
    """Every distinct hand: a setting of the tiles; HW-1a pairs are never split; HW-3a
    settings have the largest point total; HW-2 settings play a wong, gong or high nine."""
    never = {4, 7, 16, 6, 11, 5, 9, 8}  # 4s, 5s, 6s, 10s, 11s
    for four, _ in distinct_hands():
        d = HOUSE_WAY.decide(four, rules)
        assert Counter(d.setting.tiles) == Counter(four)
        hand_ranks = [{t.rank for t in h.tiles} for h in (d.setting.front, d.setting.back)]
        for rank, n in Counter(t.rank for t in four).items():
            if n == 2 and rank in never:
                assert {rank} in hand_ranks
        if {15, 17} <= {t.rank for t in four}:
            assert {15, 17} in hand_ranks
        if d.rule.startswith("HW-3"):  # HW-3a: the largest total of the two hands' points
            total = max(
                int(s.front.value.points or 0) + int(s.back.value.points or 0)
                for s in settings(four, rules)
            )
            assert (
                int(d.setting.front.value.points or 0) + int(d.setting.back.value.points or 0)
                == total
            )
        if d.rule.startswith("HW-2"):
            hands = (d.setting.front.value, d.setting.back.value)
            assert any(
                v.category in (Category.WONG, Category.GONG) or (v.points == 9 and v.best.rank <= 2)
                for v in hands
            )
