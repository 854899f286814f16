"""`macau-tables play baccarat` and `baccarat roads`, driven by scripted input."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal, replay
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
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


def test_play_a_few_hands_scripted(tmp_path: Path) -> None:
    """BA-13 bets, BA-16 squeeze prompts, BA-17 payouts, chips and roads in the terminal;
    the journal, written event by event, replays (BA-R6: squeezing changes nothing)."""
    script = "b 200\npp 100\n" + "\n" * 12 + "roads\ntable\nt 100\ndeal\n" + "\n" * 6 + "quit\n"
    path = tmp_path / "j.json"
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "7", "--decks", "6", "--journal", str(path), "--json"],
        input=script,
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Bets, payouts and limits" in out
    assert "cards to the cut card" in out
    assert "Enter to squeeze" in out
    assert "your Banker MOP$200.00" in out
    assert "Bead Plate" in out
    summary = json.loads(out[out.rindex("{") :])
    assert summary["hands"] >= 2
    assert summary["left_the_table"] is True
    table = replay(Journal.load(path))
    assert isinstance(table, BaccaratTable)
    assert table.journal.head == summary["journal_head"]
    money = Ledger()
    money.post(Transaction.transfer(CAGE, "player:guest", Money.of(10_000)))
    Ledger.project(table.journal.events, money)
    assert money.balance("player:guest").minor == summary["balance"]
    assert verify_runner(path).exit_code == 0


def verify_runner(path: Path):  # type: ignore[no-untyped-def]
    return runner.invoke(app, ["verify", str(path)])


def test_play_refusals_name_the_rule_and_ask_again() -> None:
    """BA-13 limits: a bet under the minimum is refused with its rule, a negative or
    sub-avo bet with a clear message, and play goes on; no class names."""
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "1", "--no-squeeze"],
        input="b 5\np -100\np 0.001\nfoo\nquit\n",
    )
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    assert "BA-13" in out
    assert "a bet must be more than zero, not -100" in out
    assert "more than 2 decimals" in out
    assert "InvalidInput" not in out and "BetNotAllowed" not in out
    assert out.count("bet>") == 5
    assert "Goodbye: you leave with MOP$10,000.00 after 0 hands." in out


def test_quit_with_bets_down_returns_them_and_says_so(tmp_path: Path) -> None:
    """`b 500` then `quit` — the stake comes back, and the player is told."""
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "1", "--journal", str(tmp_path), "--json"],
        input="b 500\nquit\n",
    )
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "(Banker, MOP$500.00) were not dealt on: they are returned to you" in said
    summary = json.loads(result.output[result.output.rindex("{") :])
    assert summary["balance"] == Money.of(10_000).minor
    (path,) = tmp_path.iterdir()
    assert path.name == "baccarat-0001.json"
    assert verify_runner(path).exit_code == 0


def test_journal_is_checked_before_play_and_never_creates_folders(tmp_path: Path) -> None:
    """A missing folder is refused before play (one line, exit 2)."""
    missing = tmp_path / "nope" / "j.json"
    result = runner.invoke(app, ["play", "baccarat", "--journal", str(missing)], input="")
    assert result.exit_code == 2
    assert "does not exist" in result.output
    assert not (tmp_path / "nope").exists()
    assert "Traceback" not in result.output


def test_journal_is_valid_after_every_event(tmp_path: Path) -> None:
    """The journal is appended event by event — the file read while the
    game is still running (here: after the input ended mid-session, before quitting) is a
    valid journal whose chain verifies."""
    path = tmp_path / "j.json"
    result = runner.invoke(
        app, ["play", "baccarat", "--seed", "2", "--journal", str(path)], input="b 100\n\n\n\n"
    )
    assert result.exit_code == 0
    journal = Journal.load(path)
    kinds = [e.kind for e in journal.events]
    assert kinds[0] == "table.opened"
    assert "baccarat.hand_settled" in kinds
    assert kinds[-1] == "table.seed_revealed"  # leaving at the end of input reveals the shoe


def test_play_whole_shoe_reshuffles() -> None:
    """BA-3.1: a whole shoe played to the cut card, then the cards are reshuffled."""
    result = runner.invoke(
        app,
        ["play", "baccarat", "--seed", "3", "--decks", "6", "--no-squeeze"],
        input="\n" * 80 + "quit\n",
    )
    assert result.exit_code == 0
    out = " ".join(result.output.split())
    assert "the cut card is out, last hand (BA-3.1)" in out
    assert "The shoe is over (BA-3.1): the cards are reshuffled." in out
    assert "New shoe 2" in out
    assert "1 hands" not in out


def test_screen_shows_the_result_last_and_roads_on_request() -> None:
    """After a hand the result is the last thing printed before the
    prompt's status line; the roads are one line unless asked for."""
    result = runner.invoke(
        app, ["play", "baccarat", "--seed", "5", "--no-squeeze"], input="b 100\n\nquit\n"
    )
    out = result.output
    assert "Bead Plate" not in out
    after = out[out.index("Hand 1:") :]
    assert after.index("Hand 1:") < after.index("bet>")
    assert len(after[: after.index("bet>")].splitlines()) <= 6


def test_name_is_checked() -> None:
    result = runner.invoke(app, ["play", "baccarat", "--name", "a b"], input="")
    assert result.exit_code == 2
    assert "bad name" in result.output
