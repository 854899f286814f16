"""`macau-tables simulate …`: JSON figures, CSV and PNG exports, one-line errors (exit 2)."""

from __future__ import annotations

import csv
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app

# whole simulations through the CLI: `make test` runs them, `make check` leaves them out
pytestmark = pytest.mark.slow

runner = CliRunner()
SMALL = ["--rounds", "20000", "--chunk-rounds", "5000", "--workers", "1", "--seed", "11"]


def simulate(*args: str) -> dict[str, Any]:
    result = runner.invoke(app, ["simulate", *args, "--json"])
    assert result.exit_code == 0, result.output
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def test_baccarat_json_checks_every_ba13_bet_against_the_exact_par() -> None:
    out = simulate("baccarat", *SMALL)
    assert out["job"] == {
        "game": "baccarat", "rounds": 20000, "seed": 11, "chunk_rounds": 5000, "chunks": 4,
        "options": {"decks": 8},
    }  # fmt: skip
    bets = {b["bet"]: b for b in out["bets"]}
    assert set(bets) == {"banker", "player", "tie", "banker_pair", "player_pair"}
    banker = bets["banker"]
    assert banker["decisions"] == 20000
    assert banker["exact_ev_fraction"] is not None and banker["exact_ev"] == pytest.approx(
        -0.010579, abs=1e-6
    )  # BA-17/BA-18: the 8-deck Banker edge, 1.0579%
    assert banker["ci95"][0] < banker["mean"] < banker["ci95"][1]
    assert abs(banker["z"]) < 4 and out["flagged"] == []
    assert out["sessions"] is None


def test_same_seed_same_figures_whatever_the_workers() -> None:
    one = simulate("baccarat", *SMALL)
    two = simulate("baccarat", *SMALL[:4], "--workers", "2", "--seed", "11")
    assert [b["mean_exact"] for b in one["bets"]] == [b["mean_exact"] for b in two["bets"]]
    other = simulate("baccarat", *SMALL[:-1], "12")
    assert [b["mean_exact"] for b in other["bets"]] != [b["mean_exact"] for b in one["bets"]]


def test_craps_sessions_with_martingale_report_risk_of_ruin(tmp_path: Path) -> None:
    out = simulate(
        "craps", "--seed", "5", "--workers", "1", "--bet", "10", "--odds", "max",
        "--sessions", "200", "--session-rounds", "30", "--bankroll", "300",
        "--system", "martingale", "--stop-win", "100",
    )  # fmt: skip
    s = out["sessions"]
    assert s["sessions"] == 200 and s["system"] == "martingale"
    assert s["round_is"] == "line decision"
    ends = {k: Fraction(v) for k, v in s["ends"].items()}
    assert sum(ends.values()) == 1
    assert s["risk_of_ruin"] == pytest.approx(float(ends["ruin"] + ends["stop_loss"]))
    assert ends["ruin"] > 0 and ends["stop_win"] > 0  # Martingale: both happen in 200 sessions
    assert s["percentiles"]["5"] <= s["percentiles"]["50"] <= s["percentiles"]["95"]
    assert out["job"]["rounds"] >= 200 * 30 * 3  # raised to fit the sessions
    names = {b["bet"] for b in out["bets"]}
    assert {"Pass Line", "Pass Line odds on 6"} <= names  # CR-2.1, CR-2.2


def test_csv_export(tmp_path: Path) -> None:
    path = tmp_path / "bac.csv"
    out = simulate("baccarat", *SMALL, "--csv", str(path), "--sessions", "10",
                   "--session-rounds", "50")  # fmt: skip
    rows = list(csv.DictReader(path.open(encoding="utf-8")))
    bets = [r for r in rows if r["section"] == "bet"]
    assert [r["name"] for r in bets] == [b["bet"] for b in out["bets"]]
    assert float(bets[0]["mean"]) == pytest.approx(out["bets"][0]["mean"])
    figures = {r["name"]: r["value"] for r in rows if r["section"] == "sessions"}
    assert figures["sessions"] == "10" and "risk_of_ruin" in figures and "p50" in figures


def test_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "run.png"
    simulate("baccarat", *SMALL, "--plot", str(path), "--sessions", "20",
             "--session-rounds", "100", "--system", "paroli")  # fmt: skip
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert path.stat().st_size > 10_000


def test_paigow_banking_sessions() -> None:
    """PG-R5: the bank's commission on its net win; the bank covers all seven seats."""
    out = simulate(
        "paigow", "--rounds", "3000", "--workers", "1", "--seed", "2", "--no-par",
        "--role", "banker", "--sessions", "30", "--session-rounds", "100",
        "--bankroll", "70", "--bet", "10",
    )  # fmt: skip
    s = out["sessions"]
    assert s["sessions"] == 30 and s["program"] == "paigow bank"
    assert out["par"] is None and {b["bet"] for b in out["bets"]} >= {"bank"}


def test_table_output_shows_the_check_and_the_sessions() -> None:
    result = runner.invoke(
        app, ["simulate", "baccarat", *SMALL, "--sessions", "10", "--session-rounds", "50"]
    )
    assert result.exit_code == 0, result.output
    assert "within 4 standard errors" in result.stdout
    assert "risk of ruin" in result.stdout and "rounds/s" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["baccarat", "--decks", "5"], "BA-1"),
        (["baccarat", "--system", "labouchere", "--sessions", "5"], "no betting system"),
        (["baccarat", "--bet-on", "dragon", "--sessions", "5"], "BA-13"),
        (["baccarat", "--after-streak", "player", "--sessions", "5"], "SIDE:LENGTH"),
        (["baccarat", "--seed", "-1"], "--seed"),
        (["baccarat", "--workers", "0", "--rounds", "10"], "workers"),
        (["craps", "--line", "come"], "--line"),
        (["craps", "--big", "7"], "CR-9"),
        (["craps", "--odds-cap", "triple"], "CR-R2"),
        (["taiwan", "--places", "6"], "places"),
        (["paigow", "--seat", "9"], "--seat"),
        (["baccarat", "--rounds", "100", "--workers", "1", "--cluster", "tcp://x:1"], "either"),
    ],
)
def test_bad_options_give_one_line_and_exit_2(args: list[str], message: str) -> None:
    result = runner.invoke(app, ["simulate", *args])
    assert result.exit_code == 2, result.output
    lines = [ln for ln in result.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and message in lines[0], result.stderr


@pytest.mark.parametrize("game", ["baccarat", "craps", "paigow", "taiwan"])
def test_help_has_an_example(game: str) -> None:
    result = runner.invoke(app, ["simulate", game, "--help"])
    assert result.exit_code == 0
    assert "Example: macau-tables simulate " + game in " ".join(result.stdout.split())


def test_a_one_chunk_plot_draws_lines_not_dots() -> None:
    """With a single chunk the running estimate is one point, drawn as a line."""
    from macau_tables.analysis.simulation import Job, run
    from macau_tables.cli.simulate import _figure

    result = run(Job("baccarat", 5000, 11, {}, None), workers=1)
    assert len(result.chunk_totals) == 1
    fig = _figure(result, result.stats(None), None)
    ax = fig.axes[0]
    assert all(len(line.get_xdata()) > 1 for line in ax.get_lines())
    assert len(ax.collections) == len(result.stats(None))  # one horizontal line per bet
