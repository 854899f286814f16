"""`macau-tables play paigow|taiwan` and `paigow|taiwan settle`, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal
from macau_tables.games.paigow import replay

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_pg_r4_pg_7_2_settle_the_documented_example() -> None:
    """docs/examples/paigow-round.json: seat 2 wins 100 (4% = 4.00), seat 3 loses 120;
    the running balance settles everything within C = 100 (PG-R4); the holder of seat 3
    set 0/0 where 4/6 would have won: he owes s3 20 + 19.20 (PG-7.2, PG-R8)."""
    result = runner.invoke(app, ["paigow", "settle", str(EXAMPLES / "paigow-round.json"), "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert [(b["person"], b["outcome"], b["net"]) for b in rep["bets"]] == [
        ("s1", "win", 9600), ("s2", "lose", -10000), ("s3", "lose", -2000),
    ]  # fmt: skip
    assert rep["bank_result"] == 2000
    assert rep["commissions"] == {"bank": 80}  # PG-R5: 4% of the banker's net win of 20
    assert rep["compensation"] == [
        {"seat": 3, "holder": "s2", "bettor": "s3", "better": "player", "owed": 3920}
    ]
    assert sum(rep["postings"].values()) == 0


def test_tw_6b_tw_r3_settle_the_taiwan_example() -> None:
    result = runner.invoke(app, ["taiwan", "settle", str(EXAMPLES / "taiwan-round.json"), "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert rep["dealer_resets"] == [2]  # the given setting did not max the back
    assert [(b["person"], b["outcome"]) for b in rep["bets"]] == [("a", "lose"), ("b", "win")]
    assert rep["commissions"] == {"bank": 500}  # 5% of the bet the bank won


def test_settle_human_output_and_wrong_game(tmp_path: Path) -> None:
    result = runner.invoke(app, ["paigow", "settle", str(EXAMPLES / "paigow-round.json")])
    assert result.exit_code == 0
    assert "Compensation (PG-7.2)" in result.stdout
    bad = runner.invoke(app, ["taiwan", "settle", str(EXAMPLES / "paigow-round.json")])
    assert bad.exit_code == 2
    assert "is a paigow round, not taiwan" in bad.stderr
    broken = tmp_path / "r.json"
    facts = json.loads((EXAMPLES / "paigow-round.json").read_text())
    facts["bets"] = [["x", 1, "10"]]
    broken.write_text(json.dumps(facts))
    res = runner.invoke(app, ["paigow", "settle", str(broken)])
    assert res.exit_code == 2
    assert "PG-3.2" in res.stderr  # a bet on the banker's seat
    assert "Traceback" not in res.output


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_play_a_few_rounds_as_a_new_user(game: str, tmp_path: Path) -> None:
    script = "50\n1\n20\nh\nabc\n100\n1\nq\n"  # round 3: the bank passes to you
    result = runner.invoke(
        app, ["play", game, "--seed", "7", "--journal", str(tmp_path)], input=script
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Your tiles:" in out
    assert "Bets in settlement order" in out
    assert "Your balance:" in out
    assert "Goodbye. Final balance" in out
    assert "InvalidInput" in out  # "abc" is refused with one line, the round goes on
    journals = sorted(tmp_path.glob("*.json"))
    assert len(journals) == 3
    if game == "paigow":
        again = replay(Journal.load(journals[0]))
        assert again.journal.head == Journal.load(journals[0]).head
    verify = runner.invoke(app, ["verify", str(journals[-1]), "--json"])
    assert verify.exit_code == 0, verify.output
    assert json.loads(verify.stdout)["reproduced"] is True


def test_play_is_replayable_from_the_seed() -> None:
    a = runner.invoke(app, ["play", "paigow", "--seed", "x", "--json"], input="30\n2\nq\n")
    b = runner.invoke(app, ["play", "paigow", "--seed", "x", "--json"], input="30\n2\nq\n")
    assert a.exit_code == 0, a.output
    assert a.stdout == b.stdout
    lines = a.stdout.splitlines()  # JSON Lines: one report a line
    first = json.loads(lines[0])
    assert all(isinstance(json.loads(line), dict) for line in lines)
    assert first["game"] == "paigow"
    assert len(first["seats"]) >= 2


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_every_tile_game_command_has_help_with_an_example(game: str) -> None:
    for args in (["play", game, "--help"], [game, "settle", "--help"]):
        result = runner.invoke(app, args)
        assert result.exit_code == 0
        assert "Example: macau-tables" in result.stdout
