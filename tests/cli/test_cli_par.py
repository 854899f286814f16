"""`macau-tables par …` and `paigow|taiwan hint` through the real Typer app."""

from __future__ import annotations

import base64
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app

runner = CliRunner()


def _json(args: list[str]) -> object:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _bet(sheet: object, name: str) -> dict[str, object]:
    assert isinstance(sheet, dict)
    return next(b for b in sheet["bets"] if b["bet"] == name)


def test_par_craps_json_gives_exact_edges() -> None:
    sheet = _json(["par", "craps", "--json"])
    assert Fraction(str(_bet(sheet, "Pass Line")["house_edge"])) == Fraction(7, 495)
    assert Fraction(str(_bet(sheet, "Don't Pass")["house_edge"])) == Fraction(3, 220)


def test_par_craps_pay_option_changes_the_figures() -> None:
    """A casino variant's pay table is an option: Big 7 (CR-6) at 4:1 costs the bettor 1/6."""
    sheet = _json(["par", "craps", "--pay", "big7=4:1", "--json"])
    assert Fraction(str(_bet(sheet, "Big 7")["house_edge"])) == Fraction(1, 6)


def test_par_baccarat_json_counts_the_8_deck_deals() -> None:
    sheet = _json(["par", "baccarat", "--json"])
    assert isinstance(sheet, dict)
    assert sheet["total"] == 4_998_398_275_503_360
    banker = _bet(sheet, "banker")
    counts = {o["label"]: o["count"] for o in banker["outcomes"]}  # type: ignore[union-attr]
    assert counts["win"] == 2_292_252_566_437_888


def test_par_baccarat_composition_takes_its_decks_from_the_text() -> None:
    sheet = _json(["par", "baccarat", "--composition", "6 decks minus 5,5", "--json"])
    assert isinstance(sheet, dict)
    assert sheet["total"] == 310 * 309 * 308 * 307 * 306 * 305


def test_par_paigow_json_counts_every_deal_and_commission_moves_the_edge() -> None:
    four = _json(["par", "paigow", "--json"])
    five = _json(["par", "paigow", "--commission", "5%", "--json"])
    assert isinstance(four, dict) and isinstance(five, dict)
    b4, b5 = four["bets"][0], five["bets"][0]
    assert sum(o["count"] for o in b4["outcomes"]) == 736_281_000
    assert [o["count"] for o in b4["outcomes"]] == [o["count"] for o in b5["outcomes"]]
    win = Fraction(next(o["probability"] for o in b4["outcomes"] if o["label"] == "win"))
    # one point of commission costs the player exactly P(win) per unit
    assert Fraction(b5["house_edge"]) - Fraction(b4["house_edge"]) == win / 100


@pytest.mark.slow
def test_par_html_writes_a_self_contained_report(tmp_path: Path) -> None:
    out = tmp_path / "craps.html"
    result = runner.invoke(app, ["par", "craps", "--html", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    sheet = _json(["par", "craps", "--json"])
    assert isinstance(sheet, dict)
    assert len(images) == len(sheet["bets"])  # one outcome plot per bet
    assert all(base64.b64decode(i).startswith(b"\x89PNG") for i in images)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["par", "baccarat", "--decks", "5"], "BA-1"),
        (["par", "paigow", "--commission", "150%"], "commission"),
        (["par", "paigow", "--player-strategy", "wizard"], "wizard"),
        (["par", "craps", "--odds-cap", "triple"], "CR-2.2"),
        (["par", "taiwan", "--exposed", "6-6 6-6"], "16"),
        (["paigow", "hint", "6-6", "6-6", "6-6", "1-1"], "6-6"),
    ],
)
def test_bad_options_are_one_line_errors(args: list[str], message: str) -> None:
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_hint_json_lists_three_settings_best_first() -> None:
    rows = _json(["paigow", "hint", "6-6", "4-5", "2-4", "1-2", "--json"])
    assert isinstance(rows, list) and len(rows) == 3
    evs = [Fraction(r["ev"]) for r in rows]
    assert evs == sorted(evs, reverse=True)
    for r in rows:
        assert r["win"] + r["loss"] + r["push"] == r["total"] == 20_475
    # Gee Joon kept together behind 天九 wins or pushes against every house-way banker hand
    assert rows[0]["back"] == ["2-4", "1-2"] or rows[0]["front"] == ["2-4", "1-2"]
    assert rows[0]["loss"] == 0


@pytest.mark.parametrize(
    "command",
    [
        ["par", "baccarat"],
        ["par", "craps"],
        ["par", "paigow"],
        ["par", "taiwan"],
        ["paigow", "hint"],
        ["taiwan", "hint"],
    ],
)
def test_every_par_command_has_help_with_an_example(command: list[str]) -> None:
    result = runner.invoke(app, [*command, "--help"])
    assert result.exit_code == 0
    assert "Example: macau-tables" in result.output
