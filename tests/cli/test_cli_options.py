"""Options that make no sense are refused before any work, in one line;
piped output is never cut to 80 columns."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app

runner = CliRunner()


def _refused(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["par", "baccarat", "--no-commission", "--commission", "5%"], "give one or the other"),
        (["par", "baccarat", "--composition", "6,0,0,0,0,0,0,0,0,0,0,0,0"], "every deal ties"),
        (["par", "craps", "--json", "--markdown"], "give one output format"),
        (["baccarat", "roads", "BBP", "--width", "0"], "--width is 1 to 500 columns, not 0"),
        (["baccarat", "roads", "BBP", "--width", "-5"], "--width is 1 to 500 columns, not -5"),
        (["simulate", "baccarat", "--rounds", "10000000000000"], "run several jobs"),
        (["simulate", "craps", "--sessions", "100000000"], "at most 100,000,000"),
        (["simulate", "baccarat", "--rounds", "100000000", "--chunk-rounds", "10"], "chunks"),
        (["simulate", "baccarat", "--chunk-rounds", "0"], "--chunk-rounds must be at least 1"),
    ],
)
def test_nonsense_is_refused_in_one_line(args: list[str], says: str) -> None:
    assert says in _refused(args)


@pytest.mark.parametrize("option", ["--csv", "--plot"])
def test_a_bad_output_path_is_refused_before_the_simulation(tmp_path: Path, option: str) -> None:
    """Far more rounds than the test could simulate in time: refused before the first."""
    missing = tmp_path / "no" / "such" / "file"
    line = _refused(["simulate", "baccarat", "--rounds", "5000000000", option, str(missing)])
    assert f"the folder {missing.parent} does not exist" in line
    assert "is a folder" in _refused(["simulate", "craps", option, str(tmp_path)])


def test_a_bad_html_path_is_refused_before_the_enumeration(tmp_path: Path) -> None:
    line = _refused(["par", "paigow", "--html", str(tmp_path / "no" / "r.html")])
    assert "does not exist" in line


def test_piped_tables_are_never_cut() -> None:
    """A pipe (not a terminal, no COLUMNS): every figure whole, as in --json."""
    env = {k: v for k, v in __import__("os").environ.items() if k != "COLUMNS"}
    out = subprocess.run(
        [sys.executable, "-c", "from macau_tables.cli.app import main; main()", "par", "baccarat"],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    ).stdout
    assert "…" not in out
    assert "1.0579%" in out  # the Banker's edge, in its column
    assert "edge_excluding_ties 1.1692%" in out
