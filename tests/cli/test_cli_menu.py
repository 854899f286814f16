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


def test_menu_a_typo_asks_again() -> None:
    result = runner.invoke(app, ["play"], input="chess\n9\n4\nq\nq\n")
    assert result.exit_code == 0, result.output
    assert "no game 'chess'" in result.stdout
    assert "no game '9'" in result.stdout
    assert "Taiwan Pai Kao" in result.stdout  # the third answer was a game


def test_menu_leaving_a_game_returns_to_the_menu() -> None:
    result = runner.invoke(app, ["play"], input="paigow\nq\ntaiwan\nq\nq\n")
    assert result.exit_code == 0, result.output
    assert "Pai Gow, Portaria 96/85/M" in result.stdout
    assert "Taiwan Pai Kao" in result.stdout
    assert result.stdout.count("Which game?") == 3


def test_menu_end_of_input_quits_cleanly() -> None:
    result = runner.invoke(app, ["play"], input="")
    assert result.exit_code == 0, result.output
