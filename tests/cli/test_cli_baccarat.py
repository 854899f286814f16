"""`macau-tables play baccarat` and `baccarat roads`, driven by scripted input."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal, replay
from macau_tables.games.baccarat import BaccaratTable

runner = CliRunner()


def test_help_has_examples() -> None:
    for args in (["play", "baccarat", "--help"], ["baccarat", "roads", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert "Example: macau-tables" in result.output
    assert "Banker pair" in runner.invoke(app, ["baccarat", "roads", "--help"]).output


def test_roads_json_worked_shoe() -> None:
    """The roads command gives the hand-worked Big Road and derived roads."""
    result = runner.invoke(app, ["baccarat", "roads", "BBPBBBPPB", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert [c["mark"] for c in data["big_eye_boy"]] == ["B", "B", "R", "B", "R", "B"]
    assert [c["mark"] for c in data["cockroach_pig"]] == ["R", "R"]
    assert data["next_hand"]["cockroach_pig"] == {"B": "B", "P": "R"}
    assert data["stats"]["banker"] == 6


def test_roads_leading_ties_drawn() -> None:
    result = runner.invoke(app, ["baccarat", "roads", "TTBbPpT"])
    assert result.exit_code == 0
    assert "Big Road" in result.output
    assert "ties before the first result: 2" in result.output


def test_roads_bad_notation_is_one_line_error() -> None:
    result = runner.invoke(app, ["baccarat", "roads", "BXP"])
    assert result.exit_code == 2
    assert "InvalidInput" in result.output


def test_play_a_few_hands_scripted(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """BA-13 bets, BA-16 squeeze prompts, BA-17 payouts, balance and roads in the terminal;
    the journal written replays (BA-R6: squeezing changes nothing)."""
    script = "b 200\npp 100\n" + "\n" * 12 + "roads\nt 100\ndeal\n" + "\n" * 6 + "quit\n"
    path = tmp_path / "j.json"
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "7", "--decks", "6", "--journal", str(path), "--json"],
        input=script,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Your bets" in out
    assert "limits" in out
    assert "cards to the cut card" in out
    assert "Enter to squeeze" in out
    assert "Payouts" in out
    assert "Bead Plate" in out
    summary = json.loads(out[out.rindex("{") :])
    assert summary["hands"] >= 2
    table = replay(Journal.load(path))
    assert isinstance(table, BaccaratTable)
    assert table.balance("you").minor == summary["balance"]
    assert table.journal.head == summary["journal_head"]


def test_play_refusals_name_the_rule() -> None:
    """BA-13 limits: a bet under the minimum is refused with its rule and play goes on."""
    result = runner.invoke(
        app, ["play", "baccarat", "--seed", "1", "--no-squeeze"], input="b 5\nfoo\nquit\n"
    )
    assert result.exit_code == 0
    assert "BA-13" in result.output
    assert "Goodbye you" in result.output


def test_play_whole_shoe_reshuffles() -> None:
    """BA-3.1: a whole shoe played to the cut card, then the cards are reshuffled."""
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "3", "--decks", "6", "--no-squeeze"],
        input="\n" * 80 + "quit\n",
    )
    assert result.exit_code == 0
    assert "The cut card is out: one more hand (BA-3.1)." in result.output
    assert "The shoe is over (BA-3.1): reshuffling." in result.output
    assert "New shoe 2" in result.output
