"""T-1 … T-4: the tiles, their names, two-tile hands and the three settings."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import AmbiguousName, InvalidInput
from macau_tables.tiles import (
    DISTINCT_TILES,
    FULL_SET,
    PG1985,
    TW1990,
    Category,
    Comparison,
    Hand,
    Tile,
    TileRules,
    class_count,
    evaluate,
    parse_tile,
    parse_tiles,
    ranking,
    settings,
    tile_rules,
)

# ---------------------------------------------------------------- an independent oracle
# Written straight from ../shared/rules/tiles.md, sharing no code with the package.
SINGLE_RANK = {
    "6-6": 1, "1-1": 2, "4-4": 3, "1-3": 4, "5-5": 5, "3-3": 6, "2-2": 7, "5-6": 8,
    "4-6": 9, "1-6": 10, "1-5": 11, "4-5": 12, "3-6": 12, "3-5": 13, "2-6": 13,
    "3-4": 14, "2-5": 14, "2-4": 15, "1-4": 16, "2-3": 16, "1-2": 17,
}  # fmt: skip


def _pips(t: str) -> int:
    return int(t[0]) + int(t[2])


def oracle(a: str, b: str, pg: bool) -> tuple[int, ...]:
    """A strength tuple; larger is better, equal is a copy (T-2)."""
    ra, rb = SINGLE_RANK[a], SINGLE_RANK[b]
    if {a, b} == {"2-4", "1-2"}:
        return (9,)
    if ra == rb:
        return (8, -ra)
    best, other = (a, b) if ra < rb else (b, a)
    rbest, rother = SINGLE_RANK[best], SINGLE_RANK[other]
    if rbest == 1 and rother == 12:
        return (7,)
    if pg and rbest == 2 and rother == 12:
        return (6,)
    if rbest == 1 and _pips(other) == 8:
        return (5,)
    if rbest == 2 and _pips(other) == 8:
        return (4,)

    def values(t: str) -> set[int]:
        return {3, 6} if pg and t in ("2-4", "1-2") else {_pips(t)}

    points = max((x + y) % 10 for x in values(a) for y in values(b))
    return (0, points, -rbest)


@pytest.mark.parametrize("rules", [PG1985, TW1990], ids=lambda r: r.name)
def test_t_2_every_comparison_agrees_with_an_independent_oracle(rules: TileRules) -> None:
    pg = rules is PG1985
    hands = [
        (a, b)
        for a, b in itertools.combinations_with_replacement(DISTINCT_TILES, 2)
        if a != b or FULL_SET.count(a) == 2
    ]
    assert len(hands) == 221  # distinct two-tile hands by pips
    for (a, b), (c, d) in itertools.product(hands, repeat=2):
        mine = evaluate(a, b, rules).compare(evaluate(c, d, rules))
        x, y = oracle(str(a), str(b), pg), oracle(str(c), str(d), pg)
        expected = Comparison.HIGHER if x > y else Comparison.LOWER if x < y else Comparison.EQUAL
        assert mine is expected, (str(a), str(b), str(c), str(d))


# ---------------------------------------------------------------- T-1 the set and names
def test_t_1_the_set_has_32_tiles_of_21_kinds_with_the_right_copies() -> None:
    assert len(FULL_SET) == 32
    assert len(DISTINCT_TILES) == 21
    counts = Counter(FULL_SET)
    assert {str(t) for t, n in counts.items() if n == 2} == {
        "6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5"
    }  # fmt: skip
    assert all(SINGLE_RANK[str(t)] == t.rank for t in DISTINCT_TILES)
    assert Tile(4, 5).rank == Tile(3, 6).rank == 12


def test_t_1_pip_notation_round_trips_and_normalises() -> None:
    for tile in DISTINCT_TILES:
        assert Tile.parse(str(tile)) == tile
        assert parse_tile(f"{tile.high}-{tile.low}") == tile
        assert parse_tile(f"{tile.low}{tile.high}") == tile


@pytest.mark.parametrize(
    ("name", "pips"),
    [
        ("天", "6-6"), ("Teen", "6-6"), ("tin", "6-6"), ("地", "1-1"), ("Day", "1-1"),
        ("人", "4-4"), ("鵝", "1-3"), ("和", "1-3"), ("Gor", "1-3"), ("梅", "5-5"),
        ("長三", "3-3"), ("板凳", "2-2"), ("Bon", "2-2"), ("虎頭", "5-6"), ("斧頭", "5-6"),
        ("Fu T'au", "5-6"), ("紅頭", "4-6"), ("高腳七", "1-6"), ("拎六", "1-5"),
        ("大雞六", "2-4"), ("Gee Joon 6", "2-4"), ("細雞", "1-2"), ("丁三", "1-2"),
        ("Gee Joon 3", "1-2"), ("Sai Kâi", "1-2"), ("sai kai", "1-2"),
    ],
)  # fmt: skip
def test_t_1_names_are_aliases(name: str, pips: str) -> None:
    assert str(parse_tile(name)) == pips


@pytest.mark.parametrize(
    ("name", "choices"),
    [("雜九", ["4-5", "3-6"]), ("Chop Bot", ["3-5", "2-6"]), ("雜七", ["3-4", "2-5"]),
     ("雜五", ["1-4", "2-3"]), ("Gee Joon", ["2-4", "1-2"])],
)  # fmt: skip
def test_t_1_ambiguous_names_list_the_choices(name: str, choices: list[str]) -> None:
    with pytest.raises(AmbiguousName) as info:
        parse_tile(name)
    assert info.value.choices == choices
    assert all(c in str(info.value) for c in choices)


@pytest.mark.parametrize("text", ["7-1", "0-0", "1-1-1", "dragon", "", "6-6x"])
def test_t_1_bad_tiles_are_refused(text: str) -> None:
    with pytest.raises(InvalidInput, match=r"unknown tile") as info:
        parse_tile(text)
    assert info.value.rule == "T-1"  # none of the 32 tiles


def test_t_1_parse_tiles_reads_lists_and_whole_names() -> None:
    assert [str(t) for t in parse_tiles(["6-6,4-5", "Gee Joon 6", "1-2 2-3"])] == [
        "6-6", "4-5", "2-4", "1-2", "2-3"
    ]  # fmt: skip


# ---------------------------------------------------------------- T-2 two-tile hands
def _v(a: str, b: str, rules: TileRules = PG1985):  # type: ignore[no-untyped-def]
    return Hand.of([a, b], rules).value


def test_t_2_gee_joon_pair_is_the_highest_hand() -> None:
    top = ranking(PG1985)[0]
    assert top.rank == 1
    assert top.value.category is Category.GEE_JOON
    assert {str(t) for t in top.tiles} == {"2-4", "1-2"}
    assert _v("2-4", "1-2", TW1990).name == "至尊"


def test_t_2_pairs_follow_table_i_and_mixed_pairs_are_pairs() -> None:
    assert _v("4-5", "3-6").category is Category.PAIR
    assert _v("4-5", "3-6").name == "雙雜九"
    assert _v("6-6", "6-6").compare(_v("1-1", "1-1")) is Comparison.HIGHER
    assert _v("1-5", "1-5").compare(_v("4-5", "3-6")) is Comparison.HIGHER
    assert _v("3-4", "2-5").compare(_v("1-4", "2-3")) is Comparison.HIGHER
    assert _v("1-4", "2-3").compare(_v("6-6", "4-5")) is Comparison.HIGHER  # pair > wong


def test_t_2_wong_and_gong() -> None:
    assert _v("6-6", "4-5").name == "天九王"
    assert _v("6-6", "3-6").compare(_v("6-6", "4-5")) is Comparison.EQUAL
    assert _v("1-1", "3-6").name == "地九王"
    assert _v("6-6", "4-4").name == "天罡"
    assert _v("6-6", "2-6", TW1990).name == "天槓"
    assert _v("1-1", "3-5").category is Category.GONG
    order = [_v("6-6", "4-5"), _v("1-1", "4-5"), _v("6-6", "3-5"), _v("1-1", "2-6")]
    assert all(x.compare(y) is Comparison.HIGHER for x, y in itertools.pairwise(order))
    assert order[-1].compare(_v("6-6", "1-6")) is Comparison.HIGHER  # gong > 9 points


def test_tw_7b_no_day_nine_wong_in_taiwan() -> None:
    """TW-7b: Day + 9 is 1 point in TW; PG's 地九王 (PG-5.4) does not exist there."""
    tw = _v("1-1", "4-5", TW1990)
    assert (tw.category, tw.points, tw.name) == (Category.POINTS, 1, "地牌一")
    assert _v("1-1", "4-5", PG1985).category is Category.WONG


def test_pg_5_4_points_are_the_sum_mod_10_then_the_best_tile() -> None:
    assert _v("5-6", "4-6").points == 1  # 21 -> 1
    assert _v("5-5", "4-6").points == 0  # 20 -> 0 (not a pair: ranks 5 and 9)
    assert _v("6-6", "1-6").compare(_v("1-1", "3-4")) is Comparison.HIGHER  # 9 v 9, 天 > 地
    assert _v("2-2", "1-4").compare(_v("2-2", "2-3")) is Comparison.EQUAL  # a copy
    # points first: 鵝 is the better tile, but 1 point loses to 7 points
    assert _v("1-3", "1-6").compare(_v("4-6", "1-6")) is Comparison.LOWER


def test_pg_5_5_gee_joon_counts_three_or_six_whichever_is_larger() -> None:
    """PG-5.5 / PG-R9: a lone 2-4 or 1-2 counts 3 or 6, always to make the hand larger."""
    assert _v("6-6", "1-2").points == 8  # 12 + 6
    assert _v("1-6", "2-4").points == 3  # 7 + 6 = 13 beats 7 + 3 = 10
    assert _v("1-5", "2-4").points == 9  # 6 + 3 beats 6 + 6 = 12
    assert _v("1-4", "1-2").points == 8  # 5 + 3
    assert _v("2-4", "4-5").points == 5  # 9 + 6 = 15 beats 9 + 3 = 12


def test_tw_9b_gee_joon_never_converts_in_taiwan() -> None:
    assert _v("6-6", "1-2", TW1990).points == 5
    assert _v("1-5", "2-4", TW1990).points == 2
    assert _v("1-6", "1-2", TW1990).points == 0


def test_t_2_equal_hands_compare_equal_never_banker() -> None:
    """Who gets a copy is the game's business (PG-6.1 / TW-6c); the tiles say EQUAL."""
    a, b = Hand.of(["6-6", "1-6"]), Hand.of(["6-6", "2-5"])
    assert a.compare(b) is Comparison.EQUAL
    assert b.compare(a) is Comparison.EQUAL
    assert a.rank == b.rank


@pytest.mark.parametrize("rules", [PG1985, TW1990], ids=lambda r: r.name)
def test_t_1_t_2_ranking_lists_all_496_hands_with_dense_shared_ranks(rules: TileRules) -> None:
    table = ranking(rules)
    assert len(table) == 496
    ranks = [h.rank for h in table]
    assert ranks == sorted(ranks)
    assert set(ranks) == set(range(1, class_count(rules) + 1))
    # the multiset of hands is exactly C(32, 2)
    expected = Counter(tuple(sorted((a, b))) for a, b in itertools.combinations(FULL_SET, 2))
    assert Counter(tuple(sorted(h.tiles)) for h in table) == expected
    for h in table:
        assert h.value == evaluate(h.tiles[0], h.tiles[1], rules)


def test_t_2_unknown_rule_set_is_refused() -> None:
    assert tile_rules("PG1985") is PG1985
    with pytest.raises(InvalidInput, match="pg1985 or tw1990"):
        tile_rules("macau2026")


# ---------------------------------------------------------------- T-4 settings
def test_t_4_three_settings_front_lower_back_higher() -> None:
    tiles = parse_tiles(["6-6", "4-5", "2-4", "1-2"])
    result = settings(tiles, "pg1985")
    assert [(str(s.front), str(s.back)) for s in result] == [
        ("6-6 4-5", "2-4 1-2"),
        ("4-5 1-2", "6-6 2-4"),  # 雜九五 / 天牌八 (PG-5.5: 2-4 as 6, 1-2 as 6)
        ("4-5 2-4", "6-6 1-2"),
    ]


@given(st.lists(st.integers(0, 31), min_size=4, max_size=4, unique=True))
def test_t_4_every_setting_uses_the_four_tiles_front_not_above_back(idx: list[int]) -> None:
    tiles = [FULL_SET[i] for i in idx]
    for rules in (PG1985, TW1990):
        result = settings(tiles, rules)
        assert len(result) == 3
        for s in result:
            assert sorted(s.tiles) == sorted(tiles)
            assert s.front.compare(s.back) is not Comparison.HIGHER


def test_t_4_a_hand_of_four_must_exist_in_one_set() -> None:
    with pytest.raises(InvalidInput, match="T-4"):
        settings(parse_tiles(["6-6", "6-6", "1-1"]))
    with pytest.raises(InvalidInput, match="T-1"):
        settings(parse_tiles(["6-6", "6-6", "6-6", "1-1"]))
    with pytest.raises(InvalidInput, match="T-1"):
        settings(parse_tiles(["2-4", "2-4", "6-6", "1-1"]))
