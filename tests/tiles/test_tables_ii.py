"""T-2 / T-3: the printed Tables II, walked in order, with exactly the T-3 errata as exceptions.

The ranking is derived from the principle of T-2 (src/macau_tables/tiles/hands.py); the
printed tables are data here (table_ii.py). Every consecutive pair of printed entries must
be strictly decreasing under the derived ranking, except where T-3 names a printing error;
for those the test checks that the printed hand evaluates to what T-3 says it does, and
that the evident intent fits the order.
"""

from __future__ import annotations

import pytest

from macau_tables.tiles import PG1985, TW1990, Category, Hand, Tile, TileRules, class_count

from .table_ii import PG_TABLE_II, TW_TABLE_II

Entry = tuple[int, str, str, str]

# T-3, printed hands that are wrong, with the evident intent (entry number -> tiles).
PG_ERRATA_HANDS = {38: ("1-4", "1-2"), 54: ("5-6", "1-4"), 75: ("1-5", "3-5")}
TW_ERRATA_HANDS = {37: ("1-4", "1-2"), 53: ("5-6", "1-4")}


def _hand(a: str, b: str, rules: TileRules) -> Hand:
    return Hand.of([a, b], rules)


def _walk(table: tuple[Entry, ...], errata: dict[int, tuple[str, str]], rules: TileRules) -> None:
    ranks = []
    for number, _name, a, b in table:
        tiles = errata.get(number, (a, b))
        ranks.append(_hand(*tiles, rules).rank)
    out_of_order = [table[i][0] for i in range(1, len(table)) if not ranks[i - 1] < ranks[i]]
    assert out_of_order == []


def test_t_3_pg_table_ii_in_order_except_the_errata() -> None:
    """PG-5.3: Table II ranks the combinations."""
    assert len(PG_TABLE_II) == 106
    _walk(PG_TABLE_II, PG_ERRATA_HANDS, PG1985)


def test_t_3_tw_table_ii_in_order_except_the_errata() -> None:
    """TW-7a: Tabela II ranks the combinations."""
    assert len(TW_TABLE_II) == 111
    _walk(TW_TABLE_II, TW_ERRATA_HANDS, TW1990)


@pytest.mark.parametrize(
    ("table", "errata", "rules"),
    [(PG_TABLE_II, {}, PG1985), (TW_TABLE_II, {}, TW1990)],
    ids=["pg", "tw"],
)
def test_t_3_the_printed_tables_break_the_order_exactly_at_the_errata(
    table: tuple[Entry, ...], errata: dict[int, tuple[str, str]], rules: TileRules
) -> None:
    """As printed, the order breaks exactly where T-3 says (and at the entry after 75)."""
    ranks = [_hand(a, b, rules).rank for _n, _name, a, b in table]
    breaks = {table[i][0] for i in range(1, len(table)) if not ranks[i - 1] < ranks[i]}
    expected = {38, 54, 76} if rules is PG1985 else {37, 53}
    assert breaks == expected


def test_t_3_pg_38_and_tw_37_print_a_nine_point_hand() -> None:
    """PG 38 / TW 37: 1-5 + 1-2 is 9 points, the same hand as PG 30 / TW 29."""
    assert _hand("1-5", "1-2", PG1985).value.points == 9
    assert _hand("1-5", "1-2", PG1985).rank == _hand(*PG_TABLE_II[29][2:], PG1985).rank
    assert _hand("1-5", "1-2", TW1990).rank == _hand(*TW_TABLE_II[28][2:], TW1990).rank


def test_t_3_pg_54_and_tw_53_print_a_seven_point_hand() -> None:
    """PG 54 / TW 53: 5-6 + 1-5 is 7 points, the same hand as PG 46 / TW 45."""
    for rules, entry in ((PG1985, PG_TABLE_II[45]), (TW1990, TW_TABLE_II[44])):
        printed = _hand("5-6", "1-5", rules)
        assert printed.value.points == 7
        assert printed.rank == _hand(entry[2], entry[3], rules).rank
        assert _hand("5-6", "2-3", rules).rank == _hand("5-6", "1-4", rules).rank


def test_t_3_pg_75_prints_three_points_with_best_tile_chop_bot() -> None:
    value = _hand("1-4", "3-5", PG1985).value
    assert (value.points, value.best.chinese) == (3, "雜八")
    # PG 75's evident intent is TW 74's hand (拎六四), 4 points.
    assert _hand(*TW_TABLE_II[73][2:], PG1985).value == _hand("1-5", "3-5", PG1985).value


def test_t_3_name_errata_order_right_name_off() -> None:
    """PG 66 (printed 拎六五) is 雜九五; TW 105 (Cháp Ng Iat) has best tile 大雞六."""
    pg66 = _hand("4-5", "2-4", PG1985).value
    assert (pg66.points, pg66.best, pg66.name) == (5, Tile(4, 5), "雜九五")
    assert PG_TABLE_II[65][1] == "拎\uecf6六五"  # printed: 拎冧六五
    tw105 = _hand("1-4", "2-4", TW1990).value
    assert (tw105.points, tw105.best, tw105.best.rank) == (1, Tile(2, 4), 15)


def test_t_2_tables_are_subsequences_of_the_full_ranking() -> None:
    """The derived ranking has every printed value and a few the tables leave out."""
    assert class_count(PG1985) == 107
    assert class_count(TW1990) == 118
    omitted_tw = {
        _hand(a, b, TW1990).value.name
        for a, b in [("6-6", "1-2"), ("1-1", "1-2"), ("4-4", "1-2"), ("5-5", "1-2")]
    }
    printed = {
        _hand(*TW_ERRATA_HANDS.get(n, (a, b)), TW1990).value.name for n, _name, a, b in TW_TABLE_II
    }
    assert omitted_tw.isdisjoint(printed)
    assert len(printed) == 111


def test_t_2_first_printed_entries_are_the_top_categories() -> None:
    cats = [_hand(a, b, PG1985).value.category for _n, _name, a, b in PG_TABLE_II[:20]]
    assert cats[0] is Category.GEE_JOON
    assert cats[1:16] == [Category.PAIR] * 15
    assert cats[16:18] == [Category.WONG] * 2
    assert cats[18:20] == [Category.GONG] * 2
