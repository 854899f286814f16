"""`macau-tables play paigow|taiwan` and `paigow|taiwan settle`, driven as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal
from macau_tables.games.tiles import replay

runner = CliRunner()
EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def test_pg_r4_pg_7_2_settle_the_documented_example() -> None:
    """docs/examples/paigow-round.json: seat 2 wins 100 (4% = 4.00), seat 3 loses 120;
    the running balance settles everything within C = 100 (PG-R4); the holder of seat 3
    set 0/0 where 4/6 would have won. PG-R8: the round settled again with that setting —
    the bank, emptied by seat 2, has nothing left for seat 3 — so s3 would have received
    nothing: the holder owes him the 20 he lost (PG-7.2)."""
    result = runner.invoke(app, ["paigow", "settle", str(EXAMPLES / "paigow-round.json"), "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert [(b["person"], b["outcome"], b["net"]) for b in rep["bets"]] == [
        ("s1", "win", 9600), ("s2", "lose", -10000), ("s3", "lose", -2000),
    ]  # fmt: skip
    assert rep["bank_result"] == 2000
    assert rep["commissions"] == {"bank": 80}  # PG-R5: 4% of the banker's net win of 20
    assert rep["compensation"] == [
        {"seat": 3, "holder": "s2", "bettor": "s3", "better": "player", "owed": 2000}
    ]
    assert sum(rep["postings"].values()) == 0


def test_tw_6b_tw_r3_settle_the_taiwan_example() -> None:
    result = runner.invoke(app, ["taiwan", "settle", str(EXAMPLES / "taiwan-round.json"), "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert rep["dealer_resets"] == [2]  # the given setting did not max the back
    assert [(b["person"], b["outcome"]) for b in rep["bets"]] == [("a", "lose"), ("b", "win")]
    assert rep["commissions"] == {"bank": 500}  # 5% of the bet the bank won


def test_tw_r3_settle_shows_each_layers_commission(tmp_path: Path) -> None:
    """TW-R3: banker 100 and co-banker 100; the bank wins one bet of 150. The layers took
    100 and 50 of it (banker first, TW-5e) and each pays 5% of what it took: 5.00 and
    2.50, keeping 95.00 and 47.50. `taiwan settle` shows every layer's commission."""
    facts = json.loads((EXAMPLES / "taiwan-round.json").read_text())
    facts.update(
        banker_capital="100",
        cobankers=[["cob", "100"]],
        bets=[["a", 2, "150"]],
        tiles={k: v for k, v in facts["tiles"].items() if k in ("1", "2")},
        settings={"1": ["4-4", "5-6"], "2": ["1-3", "4-6"]},
    )
    path = tmp_path / "cobank.json"
    path.write_text(json.dumps(facts))
    result = runner.invoke(app, ["taiwan", "settle", str(path), "--json"])
    assert result.exit_code == 0, result.output
    rep = json.loads(result.stdout)
    assert rep["commissions"] == {"bank": 500, "cob": 250}
    assert [(r["person"], r["share"], r["commission"], r["net"]) for r in rep["bank_layers"]] == [
        ("bank", 10000, 500, 9500), ("cob", 5000, 250, 4750),
    ]  # fmt: skip
    human = runner.invoke(app, ["taiwan", "settle", str(path)])
    assert human.exit_code == 0, human.output
    assert "The bank's layers" in human.stdout
    rows = [" ".join(line.strip("│ ").split()) for line in human.stdout.splitlines()]
    assert "bank │ 100.00 │ 100.00 │ 5.00 │ 95.00" in rows
    assert "cob │ 100.00 │ 50.00 │ 2.50 │ 47.50" in rows


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
    """Two rounds on seat 2, then the bank passes to you (PG-4.1 / PG-R6): bad capital
    entries are refused with one line and the prompt asks again;
    q with your capital in play plays the round out first. The table's journal is
    one file, written event by event, that `verify` accepts."""
    script = "50\n1\n20\nh\nabc\n-5\n0.001\n100\nh\nh\nq\n"
    result = runner.invoke(
        app, ["play", game, "--seed", "7", "--journal", str(tmp_path)], input=script
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Your tiles:" in out
    assert "Bets in settlement order" in out
    assert "Your chips:" in out
    assert "Goodbye. Final balance" in out
    assert "'abc' is not an amount" in out
    assert "an amount cannot be negative" in out
    assert "'0.001' is not an amount" in out
    assert "InvalidInput" not in out and "RuleViolation" not in out  # no class names
    assert "You sit at seat 2 as you" in out and "you banks" not in out
    (path,) = sorted(tmp_path.glob("*.json"))
    assert path.name == f"{game}-0001.json"
    journal = Journal.load(path)
    again = replay(journal)
    assert again.journal.head == journal.head
    verify = runner.invoke(app, ["verify", str(path), "--json"])
    assert verify.exit_code == 0, verify.output
    assert json.loads(verify.stdout)["reproduced"] is True


def test_play_journal_is_one_rule_checked_before_play(tmp_path: Path) -> None:
    """A folder → a new file in it; a file whose folder is missing, or a
    file that exists, is refused before play starts (nothing is created)."""
    missing = tmp_path / "nope" / "j.json"
    bad = runner.invoke(app, ["play", "paigow", "--journal", str(missing)], input="q\n")
    assert bad.exit_code == 2
    assert "does not exist" in bad.stderr
    assert not missing.parent.exists()
    target = tmp_path / "j.json"
    ok = runner.invoke(
        app, ["play", "paigow", "--seed", "1", "--journal", str(target)], input="q\n"
    )
    assert ok.exit_code == 0, ok.output
    assert target.is_file()
    again = runner.invoke(app, ["play", "paigow", "--journal", str(target)], input="q\n")
    assert again.exit_code == 2
    assert "exists" in again.stderr


def test_play_journal_is_valid_after_every_event(tmp_path: Path) -> None:
    """The file is a valid journal up to the last event at any time (a
    killed session loses nothing): cut the input mid-round and verify what was written."""
    target = tmp_path / "j.json"
    ok = runner.invoke(
        app, ["play", "taiwan", "--seed", "2", "--journal", str(target)], input="30\n"
    )
    assert ok.exit_code == 0, ok.output
    verify = runner.invoke(app, ["verify", str(target)])
    assert verify.exit_code == 0, verify.output


def test_name_never_takes_a_computer_players_seat() -> None:
    """--name ahchan is refused (ahchan plays seat 1)."""
    res = runner.invoke(app, ["play", "paigow", "--name", "ahchan"], input="q\n")
    assert res.exit_code == 2
    assert "computer player" in res.stderr


def test_tw_6b_play_offers_only_the_settings_you_may_keep() -> None:
    """A Taiwan player sees only settings with the highest back (TW-R1)."""
    result = runner.invoke(app, ["play", "taiwan", "--seed", "7"], input="50\n1\nq\n")
    assert result.exit_code == 0, result.output
    assert "The dealer re-set seat 2" not in result.stdout


@pytest.mark.parametrize(
    ("game", "seed", "rule"), [("paigow", "3", "PG-4.9"), ("taiwan", "2", "TW-5d")]
)
def test_pg_4_9_tw_5d_play_refuses_a_smaller_capital_for_a_continuing_bank(
    game: str, seed: str, rule: str
) -> None:
    """PG-4.9 「都不得減少新的博彩本金」 / TW-5d: you bank round 3 with 100 and keep the bank;
    round 4 asks at least what is left on the table and refuses 1 with one line, asking
    again with the same (valid) default."""
    script = "0\n0\n100\nh\n1\n\nq\n"
    result = runner.invoke(app, ["play", game, "--seed", seed], input=script)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"({rule}), max" in out  # the prompt states the minimum
    assert f"{rule} the new capital may not be below" in out
    assert "Round 4: the bank is yours" in out and "[MOP$1.00]" not in out
    assert "Traceback" not in out


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


def test_tw_6b_tw_r1_play_marks_the_settings_a_player_may_not_keep() -> None:
    """TW-R1: a Taiwan player is told which settings the dealer would re-set (a back that
    is not the highest); the setting with the highest back is offered unmarked."""
    result = runner.invoke(app, ["play", "taiwan", "--seed", "7"], input="50\n1\nq\n")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Your tiles:"))
    offered = lines[start + 1 : start + 4]
    assert [("not allowed" in line) for line in offered] == [False, True, True]
    assert "(TW-6b: your back must be the highest)" in result.stdout
    assert "re-set seat 2" not in result.stdout  # the unmarked setting is kept
