"""`macau-tables play craps`: a scripted player at the terminal table (Portaria 97/85/M)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.journal import Journal, replay
from macau_tables.core.rng import Rng
from macau_tables.games.contract import SeedRevealed
from macau_tables.games.craps import CrapsTable, DiceThrown

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
    assert "Error" not in out and "Invalid" not in out  # no class names for a player


def test_cr_2_3_come_without_a_point_prints_one_line_and_keeps_the_state() -> None:
    """CR-2.3, CR-R6: the refusal names the rule; nothing changes."""
    out = play("bet come 10\nbets\ntable\nquit\n")
    assert "CR-2.3 Come bets need a point (CR-R6)" in out
    assert "No bets on the layout." in out
    assert "Balance MOP$1,000.00 · on the layout MOP$0.00" in out


def test_cr_r6_contract_bet_cannot_be_taken_down_at_the_prompt() -> None:
    """CR-R6: Pass with a point stays; a hard way comes down and its stake returns."""
    out = play("bet pass 10\nbet hard8 5\ndice 5-5\ndown pass\ndown hard8\nbets\nquit\n")
    assert "CR-2.1 the Pass Line 10 bet has a point" in out
    assert "Hard 8 taken down" in out
    assert "Balance MOP$990.00 · on the layout MOP$10.00" in out


def test_cr_2_2_odds_above_the_cap_are_refused_with_the_most_allowed() -> None:
    """CR-2.2, CR-R2: on 6, MOP 10 flat takes at most MOP 8.33 odds."""
    out = play("bet pass 10\ndice 1-5\nodds pass 9\nodds pass 8.33\nquit\n")
    assert "CR-2.2 odds of MOP 9.00 at 6:5" in out
    assert "at most MOP 8.33 (CR-R2)" in out
    assert "Pass Line odds 6: MOP$8.33" in out


def test_cr_r9_odds_at_the_prompt_are_one_bet_once() -> None:
    """CR-R9: a second 'odds pass' does not add to the odds, and odds taken down are not
    made again on that bet: the engine's one-line refusal, the stake left as it was."""
    out = play("bet pass 10\ndice 2-2\nodds pass 5\nodds pass 5\ndown odds pass\n"
               "odds pass 5\nquit\nquit\n")  # fmt: skip
    assert "Pass Line odds 4: MOP$5.00" in out
    assert "it is not increased (CR-R9)" in out
    assert "not made again on that bet (CR-R9)" in out
    after = out.split("Pass Line odds 4 taken down")[-1]
    assert "Balance MOP$990.00 · on the layout MOP$10.00" in after
    assert "Pass Line odds 4:" not in after


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
    """CR-1: --seed makes the session replayable; the dice are those of the shooter's
    committed seed (``Rng.for_event(seed, table, "throw:<n>")``, revealed when he leaves);
    the session's journal verifies and replays."""
    path = tmp_path / "craps.json"
    out = play(
        "bet pass 10\nroll\nroll\nroll\nquit\nquit\n", "--seed", "s1", "--journal", str(path)
    )
    assert (
        out.split("journal head")[0]
        == play("bet pass 10\nroll\nroll\nroll\nquit\nquit\n", "--seed", "s1").split(
            "journal head"
        )[0]
    )
    journal = Journal.load(path)
    table = replay(journal)
    assert isinstance(table, CrapsTable)
    assert table.journal.head == journal.head
    assert table.rolls == 3
    revealed = [e for e in journal.events if isinstance(e, SeedRevealed)]
    thrown = [e for e in journal.events if isinstance(e, DiceThrown)]
    for ev in thrown:  # the one shooter's seed is revealed when he leaves (or walks away)
        seed = bytes.fromhex(revealed[0].seed) if revealed else None
        if seed is not None:
            assert ev.dice == Rng.for_event(seed, "terminal", f"throw:{ev.throw}").dice(2)
        assert f"you throw {ev.dice[0]}-{ev.dice[1]} = {sum(ev.dice)}" in out


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
    assert "no bet called 'lucky'" in out
    assert "not an amount: 'abc'" in out
    assert "you have no Pass Line bet" in out
    assert "unknown command 'frobnicate'" in out
    assert "odds BET AMOUNT" in out
    result = runner.invoke(app, ["play", "craps", "--help"])
    assert result.exit_code == 0
    assert "Example: macau-tables play craps --seed" in result.stdout
    bad = runner.invoke(app, ["play", "craps", "--bankroll", "lots"], input="quit\n")
    assert bad.exit_code == 2
    assert "InvalidInput" in bad.output


# --- leaving with bets, the journal as you play, bad amounts, words ---------------------------


def test_cr_r6_leaving_returns_every_bet_and_cashes_out() -> None:
    """Leaving returns what may come down and says so; nothing vanishes."""
    out = play("bet field 5\nbet hard8 5\nquit\n")
    assert "2 bets returned to you." in out
    assert "You cash out MOP$1,000.00." in out
    assert "balance MOP$1,000.00, on the layout MOP$0.00" in out


def test_cr_r6_a_contract_bet_stays_until_decided_when_you_leave() -> None:
    """CR-R6: a Pass Line with a point cannot be returned: the first quit says so, the
    prompt asks again; rolling decides it and then you may leave with everything."""
    out = play("bet pass 10\nbet field 5\ndice 2-2\nquit\ndice 2-2\nquit\n")
    assert "Your Pass Line 4 (MOP$10.00) is a contract bet: it stays on the layout" in out
    assert "point 4 made" in out
    assert "You cash out MOP$1,015.00." in out  # the Field won on the 4 too (CR-4)
    walk = play("bet pass 10\nbet hard8 5\ndice 2-2\nquit\nquit\n")
    assert "1 bet returned to you." in walk
    assert "You leave Pass Line 4 (MOP$10.00) on the layout, undecided (CR-R6)" in walk
    assert "balance MOP$990.00, on the layout MOP$10.00" in walk


def test_negative_and_sub_avo_bets_are_refused_and_the_prompt_asks_again() -> None:
    out = play("bet field -50\nbet field 0.001\nbet field 0\nbet field 5\nquit\n")
    assert "a bet must be more than zero, not -MOP$50.00; try again" in out
    assert "at most two decimals" in out
    assert "Field MOP$5.00 placed" in out
    assert "Traceback" not in out


def test_words_one_roll_and_you() -> None:
    out = play("dice 1-1\ntable\nquit\n")
    assert "Goodbye. 1 roll;" in out
    assert "you throw 1-1" in out
    assert "you have the dice" in out


def test_journal_is_written_event_by_event_and_the_rule_for_paths(tmp_path: Path) -> None:
    """--journal: a folder gets a new file; a file needs its folder; the file is valid after
    every command (a killed session keeps its journal up to the last event)."""
    folder = tmp_path / "j"
    folder.mkdir()
    play("bet field 5\ndice 6-6\n", "--journal", str(folder))  # no quit: input just ends
    files = sorted(folder.iterdir())
    assert [f.name for f in files] == ["craps-0001.json"]
    first = Journal.load(files[0])
    assert isinstance(replay(first), CrapsTable)
    play("quit\n", "--journal", str(folder))
    assert len(list(folder.iterdir())) == 2
    bad = runner.invoke(app, ["play", "craps", "--journal", str(tmp_path / "no" / "j.json")],
                        input="quit\n")  # fmt: skip
    assert bad.exit_code == 2
    assert "does not exist" in bad.output
    assert not (tmp_path / "no").exists()


def test_journal_is_valid_after_each_command(tmp_path: Path) -> None:
    """The file grows event by event (appended, flushed): read mid-session, it verifies."""
    from macau_tables.cli.craps import CrapsSession
    from macau_tables.cli.journalfile import JournalFile
    from macau_tables.core.ledger import CAGE, Ledger, Transaction
    from macau_tables.core.money import Money

    path = tmp_path / "live.json"
    table = CrapsTable(table_id="terminal")
    ledger = Ledger()
    ledger.post(Transaction.transfer(CAGE, "player:ann", Money.of(100), "deposit"))
    session = CrapsSession(table, "ann", Rng.seeded("x"), ledger,
                           journal=JournalFile(path, table.journal))  # fmt: skip
    session.run("sit", {"amount": 100_00})
    for line in ("bet field 5", "roll", "bet big6 12", "roll"):
        session.handle(line)
        loaded = Journal.load(path)
        assert loaded.head == table.journal.head
        assert isinstance(replay(loaded), CrapsTable)
