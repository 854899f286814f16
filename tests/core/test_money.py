"""Money: exact minor units, parsing, rounding (PG-R5, BA-R5) and allocation (PG-R4a)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import CurrencyMismatch, InvalidInput
from macau_tables.core.money import HKD, MOP, Currency, Money, Rounding, rate, sum_money

currencies = st.sampled_from([MOP, HKD])
moneys = st.builds(Money, st.integers(-(10**12), 10**12), currencies)
mops = st.builds(Money, st.integers(-(10**12), 10**12))

# --- construction and float rejection -----------------------------------------------


def test_money_is_integer_minor_units_default_mop() -> None:
    m = Money(1234)
    assert m.minor == 1234
    assert m.currency is MOP
    assert Money.zero() == Money(0)
    assert Money.zero(HKD) == Money(0, HKD)


@pytest.mark.parametrize(
    ("major", "minor"),
    [(12, 1200), (-3, -300), ("12.34", 1234), ("-3.5", -350), (Decimal("0.01"), 1)],
)
def test_of_takes_major_units_exactly(major: int | str | Decimal, minor: int) -> None:
    assert Money.of(major) == Money(minor)


def test_of_refuses_fractions_of_the_minor_unit() -> None:
    with pytest.raises(InvalidInput):
        Money.of(Decimal("0.001"))
    with pytest.raises(InvalidInput):
        Money.of("0.001")


@pytest.mark.parametrize(
    "make",
    [
        lambda: Money(1.5),  # type: ignore[arg-type]
        lambda: Money(True),
        lambda: Money("12"),  # type: ignore[arg-type]
        lambda: Money.of(1.5),  # type: ignore[arg-type]
        lambda: Money(100) * 1.5,  # type: ignore[operator]
        lambda: 1.5 * Money(100),  # type: ignore[operator]
        lambda: Money(100) * True,
        lambda: Money(100).times(0.04),  # type: ignore[arg-type]
        lambda: Money(100).commission(0.04),  # type: ignore[arg-type]
        lambda: rate(0.04),  # type: ignore[arg-type]
        lambda: Money(100).allocate([1.0, 2.0]),  # type: ignore[list-item]
        lambda: Money(100) + 1,  # type: ignore[operator]
    ],
)
def test_float_and_other_non_exact_inputs_raise_type_error(make: object) -> None:
    with pytest.raises(TypeError):
        make()  # type: ignore[operator]


# --- parse / str / format -----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12.34", Money(1234)),
        ("12", Money(1200)),
        ("12.3", Money(1230)),
        ("-3.50", Money(-350)),
        ("MOP 12.34", Money(1234)),
        ("MOP$12.34", Money(1234)),
        ("mop$ 12.34", Money(1234)),
        ("12.34 MOP", Money(1234)),
        ("1,234.50", Money(123450)),
        ("MOP$1,234,567.89", Money(123456789)),
        ("-MOP$3.50", Money(-350)),
        ("MOP -3.50", Money(-350)),
        ("-3.50 MOP", Money(-350)),
        ("  0.07  ", Money(7)),
        ("HKD 5", Money(500, HKD)),
        ("HK$1,000", Money(100000, HKD)),
    ],
)
def test_parse_accepted_forms(text: str, expected: Money) -> None:
    assert Money.parse(text) == expected


@pytest.mark.parametrize(
    "text",
    ["12.345", "", "abc", "MOP", "12.", ".5", "1,23.00", "1,2345", "--3", "MOP -$3", "- MOP -3"],
)
def test_parse_refuses_bad_text(text: str) -> None:
    with pytest.raises(InvalidInput):
        Money.parse(text)


def test_parse_in_expected_currency() -> None:
    assert Money.parse("5", HKD) == Money(500, HKD)
    with pytest.raises(CurrencyMismatch):
        Money.parse("MOP 5", HKD)


def test_str_and_format() -> None:
    assert str(Money(1234)) == "MOP 12.34"
    assert str(Money(-350)) == "MOP -3.50"
    assert str(Money(5)) == "MOP 0.05"
    assert str(Money(123450)) == "MOP 1234.50"
    assert Money(123450).format() == "MOP$1,234.50"
    assert Money(-123450).format() == "-MOP$1,234.50"
    assert Money(123450).format(symbol=False) == "1,234.50"
    assert Money(100000, HKD).format() == "HK$1,000.00"


def test_currency_without_minor_unit() -> None:
    yen = Currency("JPY", 0, "¥")
    assert str(Money(1500, yen)) == "JPY 1500"
    assert Money.parse("JPY 1,500", yen) == Money(1500, yen)
    with pytest.raises(InvalidInput):
        Money.parse("1.5", yen)


@given(moneys)
def test_str_round_trips(m: Money) -> None:
    assert Money.parse(str(m)) == m


@given(moneys)
def test_format_round_trips(m: Money) -> None:
    assert Money.parse(m.format()) == m
    assert Money.parse(m.format(symbol=False), m.currency) == m


# --- arithmetic, ordering, hashing -------------------------------------------------


def test_arithmetic() -> None:
    a, b = Money(1250), Money(-300)
    assert a + b == Money(950)
    assert a - b == Money(1550)
    assert -a == Money(-1250)
    assert +a == a
    assert abs(b) == Money(300)
    assert a * 3 == Money(3750)
    assert 3 * a == Money(3750)
    assert b.is_negative()
    assert not b.is_positive()
    assert not b.is_zero()
    assert Money(0).is_zero()
    assert a.is_positive()


@given(mops, mops, mops)
def test_addition_is_exact_integer_addition(a: Money, b: Money, c: Money) -> None:
    assert (a + b) + c == a + (b + c)
    assert (a + b).minor == a.minor + b.minor
    assert a - a == Money.zero()


def test_currency_mismatch() -> None:
    mop, hkd = Money(100), Money(100, HKD)
    with pytest.raises(CurrencyMismatch):
        _ = mop + hkd
    with pytest.raises(CurrencyMismatch):
        _ = mop - hkd
    with pytest.raises(CurrencyMismatch):
        _ = mop < hkd
    with pytest.raises(CurrencyMismatch):
        sum_money([mop, hkd])
    with pytest.raises(CurrencyMismatch):
        sum_money([hkd])  # default currency is MOP
    assert mop != hkd  # equality never raises: different currencies are different amounts


def test_ordering_and_hashing() -> None:
    assert sorted([Money(3), Money(-1), Money(2)]) == [Money(-1), Money(2), Money(3)]
    assert Money(1) < Money(2) <= Money(2) < Money(3)
    assert Money(3) > Money(2) >= Money(2)
    assert len({Money(100), Money(100), Money(100, HKD)}) == 2
    assert max(Money(5), Money(7)) == Money(7)


def test_sum_money() -> None:
    assert sum_money([]) == Money(0)
    assert sum_money([], HKD) == Money(0, HKD)
    assert sum_money([Money(1), Money(2), Money(-5)]) == Money(-2)
    assert sum_money([Money(1, HKD)], HKD) == Money(1, HKD)


# --- rates and rounding --------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("4%", Fraction(1, 25)),
        ("5%", Fraction(1, 20)),
        ("2.5%", Fraction(1, 40)),
        ("0.04", Fraction(1, 25)),
        ("1/25", Fraction(1, 25)),
        (Fraction(1, 20), Fraction(1, 20)),
        (Decimal("0.05"), Fraction(1, 20)),
        (1, Fraction(1)),
    ],
)
def test_rate(text: str | Fraction | Decimal | int, expected: Fraction) -> None:
    assert rate(text) == expected


@pytest.mark.parametrize("text", ["four", "4 %%", "-4%", "1/0", "", "%"])
def test_rate_refuses_bad_text(text: str) -> None:
    with pytest.raises(InvalidInput):
        rate(text)


# Worked by hand: an amount in avos, a factor, and the result in each of MODES, in order.
MODES = (
    Rounding.DOWN,
    Rounding.UP,
    Rounding.FLOOR,
    Rounding.CEILING,
    Rounding.HALF_UP,
    Rounding.HALF_EVEN,
)
ROUNDING_CASES = [
    (99, Fraction(1, 25), (3, 4, 3, 4, 4, 4)),  # 4% of MOP 0.99 = 3.96 avos
    (-99, Fraction(1, 25), (-3, -4, -4, -3, -4, -4)),  # -3.96
    (13, Fraction(1, 10), (1, 2, 1, 2, 1, 1)),  # 1.3: below the half
    (-13, Fraction(1, 10), (-1, -2, -2, -1, -1, -1)),  # -1.3
    (5, Fraction(1, 2), (2, 3, 2, 3, 3, 2)),  # 2.5: a tie beside an even integer
    (-5, Fraction(1, 2), (-2, -3, -3, -2, -3, -2)),  # -2.5
    (7, Fraction(1, 2), (3, 4, 3, 4, 4, 4)),  # 3.5: a tie beside an odd integer
    (-7, Fraction(1, 2), (-3, -4, -4, -3, -4, -4)),  # -3.5
    (7, Fraction(6, 5), (8, 9, 8, 9, 8, 8)),  # 6:5 odds on MOP 0.07 = 8.4 avos
    (100, Fraction(1, 25), (4, 4, 4, 4, 4, 4)),  # exact: no rounding in any mode
]  # fmt: skip


@pytest.mark.parametrize(
    ("minor", "factor", "mode", "expected"),
    [
        (m, f, mode, want)
        for m, f, wants in ROUNDING_CASES
        for mode, want in zip(MODES, wants, strict=True)
    ],
)
def test_times_rounding_modes(minor: int, factor: Fraction, mode: Rounding, expected: int) -> None:
    assert Money(minor).times(factor, mode) == Money(expected)


def test_every_rounding_mode_is_covered() -> None:
    assert set(MODES) == set(Rounding)


def test_times_defaults_to_down_and_accepts_int() -> None:
    assert Money(99).times(Fraction(1, 25)) == Money(3)
    assert Money(-99).times(Fraction(1, 25)) == Money(-3)
    assert Money(99).times(3) == Money(297)


@given(
    mops,
    st.fractions(min_value=-100, max_value=100, max_denominator=1000),
    st.sampled_from(Rounding),
)
def test_times_is_within_one_minor_unit_of_exact(m: Money, f: Fraction, mode: Rounding) -> None:
    exact = m.minor * f
    got = m.times(f, mode).minor
    assert abs(got - exact) < 1
    if mode is Rounding.DOWN:
        assert abs(got) <= abs(exact)
    if mode is Rounding.FLOOR:
        assert got <= exact
    if mode in (Rounding.HALF_UP, Rounding.HALF_EVEN):
        assert abs(got - exact) <= Fraction(1, 2)


def test_pg_r5_commission_is_4_percent_rounded_down() -> None:
    """PG-R5: 4% of the win, exact, rounded down to the minor unit."""
    assert Money.of(100).commission("4%") == Money.of(4)
    assert Money.of("12.34").commission("4%") == Money(49)  # 49.36 avos
    assert Money.of("0.99").commission(Fraction(1, 25)) == Money(3)  # 3.96 avos
    assert Money.of("0.24").commission("4%") == Money(0)  # 0.96 avos


def test_ba_r5_commission_is_5_percent_rounded_down() -> None:
    """BA-R5: 5% of a Banker win, exact, rounded down to the minor unit."""
    assert Money.of(1000).commission("5%") == Money.of(50)
    assert Money.of("12.30").commission("5%") == Money(61)  # 61.5 avos
    assert Money.of("0.99").commission("5%") == Money(4)  # 4.95 avos
    assert Money.of("12.30").commission("5%", Rounding.HALF_EVEN) == Money(62)


# --- allocate (PG-R4a) ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("minor", "weights", "parts"),
    [
        (100, [1, 1, 1], [34, 33, 33]),  # 33.33 each; the leftover avo goes to the first
        (-100, [1, 1, 1], [-34, -33, -33]),  # a loss is shared like a win
        (100, [2, 1], [67, 33]),  # 66.67 / 33.33
        (5, [1, 1], [3, 2]),  # a tie in remainders goes to the earliest weight
        (10, [0, 1], [0, 10]),  # a zero weight gets nothing
        (1001, [30000, 10000], [751, 250]),  # banker 3 : house 1 — 750.75 / 250.25
        (7, [1, 2, 4], [1, 2, 4]),  # exact shares need no remainder
        (10, [1, 1, 3], [2, 2, 6]),  # 2 / 2 / 6 exactly
        (11, [1, 3, 1], [2, 7, 2]),  # 2.2 / 6.6 / 2.2 → largest remainder (0.6) first
        (0, [1, 2], [0, 0]),
    ],
)
def test_allocate_examples(minor: int, weights: list[int], parts: list[int]) -> None:
    assert Money(minor).allocate(weights) == [Money(p) for p in parts]


@pytest.mark.parametrize("weights", [[], [0, 0], [1, -1]])
def test_allocate_refuses_bad_weights(weights: list[int]) -> None:
    with pytest.raises(InvalidInput):
        Money(100).allocate(weights)


@given(moneys, st.lists(st.integers(0, 10**9), min_size=1, max_size=12).filter(any))
def test_allocate_sums_exactly_and_is_proportional(m: Money, weights: list[int]) -> None:
    parts = m.allocate(weights)
    assert len(parts) == len(weights)
    assert all(p.currency == m.currency for p in parts)
    assert sum(p.minor for p in parts) == m.minor
    total = sum(weights)
    for part, w in zip(parts, weights, strict=True):
        assert abs(part.minor - Fraction(m.minor * w, total)) < 1
        if w == 0:
            assert part.is_zero()


@given(mops, st.lists(st.integers(0, 1000), min_size=1, max_size=8).filter(any))
def test_allocate_is_sign_symmetric(m: Money, weights: list[int]) -> None:
    assert (-m).allocate(weights) == [-p for p in m.allocate(weights)]


def test_currency_by_code_reads_known_codes_back() -> None:
    from macau_tables.core.money import HKD, MOP, currency_by_code

    assert currency_by_code("MOP") is MOP
    assert currency_by_code("HKD") is HKD
    with pytest.raises(InvalidInput, match="unknown currency"):
        currency_by_code("XYZ")
