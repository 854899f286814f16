"""The HTML and Markdown renderings of a PAR sheet."""

from __future__ import annotations

import base64
import re
from fractions import Fraction

from macau_tables.analysis.par import BetLine, Outcome, ParSheet
from macau_tables.analysis.report import html_report, markdown_table, outcome_summary

F = Fraction


def _sheet() -> ParSheet:
    field = BetLine(
        "field",
        (
            Outcome("win", F(1), F(14, 36)),
            Outcome("win", F(2), F(2, 36)),
            Outcome("lose", F(-1), F(20, 36)),
        ),
        rule="CR-5",
        pays="1:1, 2 and 12 2:1",
        extras={"edge_per_roll": F(1, 18)},
    )
    return ParSheet("craps", "Craps <test>", {"odds_cap": "winnings"}, (field,), notes=("a&b",))


def test_outcome_summary_merges_labels() -> None:
    assert outcome_summary(_sheet().lines[0], 2) == "win 44.44% · lose 55.56%"


def test_markdown_table_has_one_row_per_bet_with_the_exact_edge() -> None:
    md = markdown_table(_sheet())
    rows = [r for r in md.splitlines() if r.startswith("| field")]
    assert len(rows) == 1
    assert "5.5556%" in rows[0] and "CR-5" in rows[0]
    assert "| 44.4444% | 55.5556% | 0.0000% |" in rows[0]


def test_html_report_is_self_contained_with_one_png_per_bet() -> None:
    page = html_report(_sheet(), command="macau-tables par craps")
    assert page.startswith("<!doctype html>")
    assert "Craps &lt;test&gt;" in page and "a&amp;b" in page  # escaped
    assert "http://" not in page and "https://" not in page  # nothing fetched
    images = re.findall(r'src="data:image/png;base64,([A-Za-z0-9+/=]+)"', page)
    assert len(images) == 1
    assert base64.b64decode(images[0]).startswith(b"\x89PNG")
    assert "1/18" in page  # the exact edge is printed beside the decimal


def test_html_report_title_says_par_sheet_once() -> None:
    """The title says PAR sheet once, never "exact PAR sheet — PAR sheet"."""
    for title in ("Craps: exact PAR sheet", "Baccarat, 8 decks"):
        sheet = ParSheet("craps", title, {}, _sheet().lines)
        page = html_report(sheet)
        assert page.count("PAR sheet") == 2  # <title> and <h1>
        assert re.search(r"<h1>[^<]*PAR sheet</h1>", page)


def test_html_report_shows_amounts_as_money_with_readable_names() -> None:
    """min_bet 100 is 100 avos: MOP$1.00, not a bare 100."""
    options = {"currency": "MOP", "min_bet": 100, "max_bet": 0, "big_unit": 2500, "pays": {}}
    page = html_report(ParSheet("craps", "Craps", options, _sheet().lines))
    assert "<th>min bet</th><td>MOP$1.00</td>" in page
    assert "<th>max bet</th><td>none</td>" in page
    assert "<th>big unit</th><td>MOP$25.00</td>" in page
    assert "<th>pays</th><td>the regulation&#x27;s</td>" in page
