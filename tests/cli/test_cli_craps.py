"""`macau-tables play craps`: a scripted player at the terminal table (Portaria 97/85/M)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal, replay
from macau_tables.core.rng import Rng
from macau_tables.games.craps import CrapsTable

runner = CliRunner()


def play(script: str, *args: str) -> str:
    result = runner.invoke(app, ["play", "craps", *args], input=script)
    assert result.exit_code == 0, result.output
    return result.stdout


def json_docs(text: str) -> list[dict[str, Any]]:
    """The JSON objects printed one after another in --json mode."""
    decoder, docs, i = json.JSONDecoder(), [], 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        obj, i = decoder.raw_decode(text, i)
        docs.append(obj)
    return docs


def test_cr_2_1_cr_2_2_pass_line_with_odds_made_point_pays_flat_and_odds() -> None:
    """CR-2.1 the point made pays even money; CR-2.2 odds on 4 pay 2:1."""
    out = play("bet pass 10\ndice 2-2\nodds pass 5\nbets\ndice 3-1\nquit\n")
    assert "Pass Line MOP$10.00 placed" in out
    assert "point is 4" in out
    assert "Pass Line odds 4: MOP$5.00" in out
    assert "point 4 made" in out
    assert "win (wins MOP$10.00)" in out  # the flat bet
    assert "MOP$20.00" in out  # the odds: 5 back + 10 won … and the flat bet's 20 paid
    assert "Goodbye. 2 rolls; balance MOP$1,020.00, on the layout MOP$0.00" in out


def test_cr_2_3_come_without_a_point_prints_one_line_and_keeps_the_state() -> None:
    """CR-2.3, CR-R6: the refusal names the rule; nothing changes."""
    out = play("bet come 10\nbets\ntable\nquit\n")
    assert "BetNotAllowed: CR-2.3 Come bets need a point (CR-R6)" in out
    assert "No bets on the layout." in out
    assert "Balance MOP$1,000.00 · on the layout MOP$0.00" in out


def test_cr_r6_contract_bet_cannot_be_taken_down_at_the_prompt() -> None:
    """CR-R6: Pass with a point stays; a hard way comes down and its stake returns."""
    out = play("bet pass 10\nbet hard8 5\ndice 5-5\ndown pass\ndown hard8\nbets\nquit\n")
    assert "BetNotAllowed: CR-2.1 the Pass Line 10 bet has a point" in out
    assert "Hard 8 taken down" in out
    assert "Balance MOP$990.00 · on the layout MOP$10.00" in out


def test_cr_2_2_odds_above_the_cap_are_refused_with_the_most_allowed() -> None:
    """CR-2.2, CR-R2: on 6, MOP 10 flat takes at most MOP 8.33 odds."""
    out = play("bet pass 10\ndice 1-5\nodds pass 9\nodds pass 8.33\nquit\n")
    assert "BetNotAllowed: CR-2.2 odds of MOP 9.00 at 6:5" in out
    assert "at most MOP 8.33 (CR-R2)" in out
    assert "Pass Line odds 6: MOP$8.33" in out


def test_cr_r2_odds_cap_stake_option() -> None:
    """CR-R2: --odds-cap stake allows odds up to the flat bet."""
    out = play("bet pass 10\ndice 1-3\nodds pass 10\nquit\n", "--odds-cap", "stake")
    assert "Pass Line odds 4: MOP$10.00" in out


def test_cr_4_field_twelve_pays_double_and_cr_9_big_6_of_ten_wins_eleven() -> None:
    """CR-4: 12 pays 2:1 on the Field. CR-9, CR-R4: MOP 10 on Big 6 wins MOP 11."""
    out = play("bet field 10\ndice 6-6\nbet big6 10\ndice 4-2\nquit\n")
    assert "Field" in out
    assert "win (wins MOP$20.00)" in out
    assert "win (wins MOP$11.00)" in out
    assert "Balance MOP$1,031.00" in out


def test_cr_5_cr_6_cr_7_cr_8_proposition_bets_at_the_prompt() -> None:
    """CR-5 hard 8 9:1, CR-6 Big 7 4.5:1, CR-7 11 15:1, CR-8 Any Craps 7:1."""
    out = play(
        "bet hard8 2\ndice 4-4\nbet big7 2\ndice 3-4\nbet 11 2\ndice 5-6\n"
        "bet craps 2\ndice 1-2\nquit\n"
    )
    for won in ("MOP$18.00", "MOP$9.00", "MOP$30.00", "MOP$14.00"):
        assert f"win (wins {won})" in out


def test_cr_3_1_dont_pass_bar_12_pushes() -> None:
    """CR-3.1: 12 on the come-out pushes a Don't Pass bet."""
    out = play("bet dp 10\ndice 6-6\nquit\n")
    assert "push" in out
    assert "Balance MOP$1,000.00" in out


def test_cr_12_bets_increase_and_come_down_any_time() -> None:
    """CR-12: a second 'bet field' adds to the first; 'down field' returns it all."""
    out = play("bet field 5\nbet field 5\ndown field\nquit\n")
    assert "Field now MOP$10.00" in out
    assert "Balance MOP$1,000.00 · on the layout MOP$0.00" in out


def test_cr_r1_void_throw_settles_nothing() -> None:
    """CR-R1: a die off the table: logged, nothing settled, the shooter throws again."""
    out = play("bet field 5\nvoid\nbets\nquit\n")
    assert "nothing is settled" in out
    assert "Field" in out.split("void")[-1]


def test_cr_1_seeded_rolls_replay_the_engine_dice_and_the_journal_verifies(
    tmp_path: Path,
) -> None:
    """CR-1: --seed gives the dice of core.rng; the session's journal verifies and replays."""
    path = tmp_path / "craps.json"
    out = play("bet pass 10\nroll\nroll\nroll\nquit\n", "--seed", "s1", "--journal", str(path))
    rng = Rng.seeded("s1")
    for _ in range(3):
        d1, d2 = rng.dice(2)
        assert f"throws {d1}-{d2} = {d1 + d2}" in out
    assert out == play("bet pass 10\nroll\nroll\nroll\nquit\n", "--seed", "s1")
    journal = Journal.load(path)
    table = replay(journal)
    assert isinstance(table, CrapsTable)
    assert table.journal.head == journal.head
    assert table.rolls == 3


def test_json_mode_answers_each_command_in_json() -> None:
    """--json: errors carry the rule ID (CR-2.3); a roll carries dice, point and results."""
    docs = json_docs(play("bet come 10\nbet pass 10\ndice 3-4\nquit\n", "--json"))
    assert docs[0]["error"] == "BetNotAllowed"
    assert docs[0]["rule"] == "CR-2.3"
    assert docs[1]["bet"] == "pass"
    roll = docs[2]
    assert roll["dice"] == [3, 4]
    assert roll["results"][0]["result"] == "win"
    assert roll["balance"] == 101_000
    assert docs[-1]["summary"]["balance"] == 101_000


def test_bad_input_is_one_line_and_help_has_an_example() -> None:
    out = play("bet lucky 5\nbet field abc\nodds pass 5\nfrobnicate\nhelp\nquit\n")
    assert "InvalidInput: no bet called 'lucky'" in out
    assert "InvalidInput: not an amount: 'abc'" in out
    assert "InvalidInput: you have no Pass Line bet" in out
    assert "InvalidInput: unknown command 'frobnicate'" in out
    assert "odds BET AMOUNT" in out
    result = runner.invoke(app, ["play", "craps", "--help"])
    assert result.exit_code == 0
    assert "Example: macau-tables play craps --seed" in result.stdout
    bad = runner.invoke(app, ["play", "craps", "--bankroll", "lots"], input="quit\n")
    assert bad.exit_code == 2
    assert "InvalidInput" in bad.output
