"""`macau-tables play` without a game: the menu that `make run` opens."""

from __future__ import annotations

from typer.testing import CliRunner

from macau_tables.cli.app import app

runner = CliRunner()


def test_menu_lists_the_four_games_and_starts_the_chosen_one() -> None:
    result = runner.invoke(app, ["play"], input="paigow\n0\nq\n")
    assert result.exit_code == 0, result.output
    for game in ("baccarat", "craps", "paigow", "taiwan"):
        assert game in result.stdout
    assert "Pai Gow, Portaria 96/85/M" in result.stdout


def test_menu_by_number_and_quit() -> None:
    assert runner.invoke(app, ["play"], input="q\n").exit_code == 0
    result = runner.invoke(app, ["play"], input="4\nq\n")
    assert "Taiwan Pai Kao" in result.stdout


def test_menu_unknown_game_is_one_line_exit_2() -> None:
    result = runner.invoke(app, ["play"], input="chess\n")
    assert result.exit_code == 2
    assert "no game 'chess'" in result.stderr
