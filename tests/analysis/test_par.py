"""The PAR-sheet data model: derived figures are exact and follow from the outcomes."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.analysis.par import (
    BetLine,
    Outcome,
    ParSheet,
    decimal,
    frac_json,
    outcomes_from_counts,
    percent,
)
from macau_tables.core.errors import InvalidInput

F = Fraction


def _pass_line() -> BetLine:
    # 244/495 win, 251/495 lose: the pass line's edge is 7/495
    return BetLine("pass", (Outcome("win", F(1), F(244, 495)), Outcome("lose", F(-1), F(251, 495))))


def test_edge_and_variance_are_exact() -> None:
    b = _pass_line()
    assert b.expected_return == F(-7, 495)
    assert b.house_edge == F(7, 495)
    assert b.variance == 1 - F(7, 495) ** 2
    assert b.std_dev == pytest.approx(math.sqrt(1 - (7 / 495) ** 2))


def test_probabilities_must_sum_to_one() -> None:
    with pytest.raises(InvalidInput, match="sum to"):
        BetLine("bad", (Outcome("win", F(1), F(1, 2)), Outcome("lose", F(-1), F(1, 3))))


def test_probability_by_label_adds_outcomes_sharing_it() -> None:
    b = BetLine(
        "field",
        (
            Outcome("win", F(1), F(14, 36)),
            Outcome("win", F(2), F(2, 36)),
            Outcome("lose", F(-1), F(20, 36)),
        ),
    )
    assert b.probability("win") == F(16, 36)
    assert b.probability("push") == 0
    assert b.house_edge == F(1, 18)


def test_outcomes_from_counts_drops_zero_counts_and_keeps_exact_counts() -> None:
    outs = outcomes_from_counts([("win", F(19, 20), 3), ("push", F(0), 0), ("lose", F(-1), 5)], 8)
    assert [o.label for o in outs] == ["win", "lose"]
    assert outs[0].probability == F(3, 8) and outs[0].count == 3


def test_decimal_rounds_half_even_and_handles_signs() -> None:
    assert decimal(F(1, 3), 4) == "0.3333"
    assert decimal(F(-2, 3), 3) == "-0.667"
    assert decimal(F(1, 8), 2) == "0.12"  # 12.5 -> 12 (half-even)
    assert decimal(F(5), 0) == "5"
    assert percent(F(7, 495), 3) == "1.414%"
    assert frac_json(F(4)) == "4" and frac_json(F(-7, 495)) == "-7/495"


@given(st.fractions(min_value=-1000, max_value=1000), st.integers(1, 15))
def test_decimal_is_within_half_a_unit_of_the_last_place(x: Fraction, places: int) -> None:
    assert abs(Fraction(decimal(x, places)) - x) <= F(1, 2 * 10**places)


def test_sheet_json_round_trips_exact_figures() -> None:
    sheet = ParSheet("craps", "t", {"x": 1}, (_pass_line(),), notes=("n",))
    j = sheet.to_json()
    bet = j["bets"][0]
    assert F(bet["house_edge"]) == F(7, 495)
    assert sum(F(o["probability"]) for o in bet["outcomes"]) == 1
    assert sheet.line("pass").name == "pass"
    with pytest.raises(InvalidInput):
        sheet.line("nope")
