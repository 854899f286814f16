"""Craps on the table contract: the contract's Protocol, execute with JSON
arguments, pending and time-outs, per-viewer views that never show a seed, replay that
refuses a forged journal (through ``macau-tables verify``), and the named rule-set options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.errors import BetNotAllowed, InvalidInput, MacauTablesError, OutOfOrder
from macau_tables.core.journal import Journal, event_from_json
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import (
    Actor,
    Command,
    SeedCommitted,
    TableEngine,
    TimedOut,
    time_out,
)
from macau_tables.games.craps import CrapsRules, CrapsTable, DicePassed, replay

M = Money.of
runner = CliRunner()


def rechained(obj: dict[str, Any]) -> Journal:
    j = Journal(obj["game"], obj["header"])
    for entry in obj["entries"]:
        j.append(event_from_json(entry["event"]))
    return j


def session(seed: str = "contract", players: tuple[str, ...] = ("alice", "bob")) -> CrapsTable:
    rng = Rng.seeded(seed)
    t = CrapsTable(table_id="c1")
    for p in players:
        t.execute(Command(Actor.player(p), "sit", {"amount": 500_00}), rng)
    for _ in range(25):
        assert t.shooter is not None
        if t.point is None and not t.bets_of("alice"):
            t.execute(Command(Actor.player("alice"), "place_bet",
                              {"bet": "pass", "amount": 10_00}), rng)  # fmt: skip
        if t.can_place_bet("bob", "field", M(5)):
            t.execute(Command(Actor.player("bob"), "place_bet",
                              {"bet": "field", "amount": 5_00}), rng)  # fmt: skip
        t.execute(Command(Actor.player(t.shooter), "throw"), rng)
    return t


def test_the_table_follows_the_contract() -> None:
    t = session()
    assert isinstance(t, TableEngine)
    assert t.game == "craps"
    assert t.events[0].kind == "table.opened"
    assert t.events[0].rules == CrapsRules().to_json()  # type: ignore[attr-defined]


def test_execute_refuses_unknown_ops_and_arguments_in_one_line() -> None:
    t = session()
    with pytest.raises(InvalidInput, match="no operation 'fly'"):
        t.execute(Command(Actor.player("alice"), "fly"))
    with pytest.raises(InvalidInput, match="unknown argument"):
        t.execute(Command(Actor.player("alice"), "place_bet",
                          {"bet": "field", "amount": 500, "colour": "red"}))  # fmt: skip
    with pytest.raises(InvalidInput, match="amount is an amount in minor units"):
        t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "field", "amount": "5"}))
    with pytest.raises(InvalidInput, match="must be positive"):
        t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "field", "amount": -5}))


def test_cr_1_only_the_shooter_throws_and_the_dealer_keys_in() -> None:
    """CR-1: one player throws; a player cannot key in dice, nor throw dice he chooses."""
    t = session()
    other = "bob" if t.shooter == "alice" else "alice"
    with pytest.raises(OutOfOrder, match="CR-1"):
        t.execute(Command(Actor.player(other), "throw"))
    with pytest.raises(OutOfOrder, match="CR-R1"):
        t.execute(Command(Actor.player(other), "throw_dice", {"dice": [3, 4]}))
    assert t.shooter is not None
    drawn = t._drawn()
    assert drawn is not None
    wrong = [1, 1] if (drawn.d1, drawn.d2) != (1, 1) else [2, 2]
    with pytest.raises(InvalidInput, match="not those of the shooter's seed"):
        t.execute(Command(Actor.player(t.shooter), "throw", {"dice": wrong}))


def test_cr_r7_pending_and_the_time_out_passes_the_dice() -> None:
    """CR-R7: the shooter owes a throw; on a time-out the system passes the dice for him:
    his seed is revealed and the next shooter's committed."""
    rng = Rng.seeded("to")
    t = CrapsTable(table_id="c1")
    for p in ("alice", "bob"):
        t.execute(Command(Actor.player(p), "sit", {"amount": 100_00}), rng)
    first = t.pending()[0]
    assert (first.actor, first.default, first.rule, first.required) == (
        Actor.player("alice"), "pass_dice", "CR-R7", True,
    )  # fmt: skip
    optional = [p for p in t.pending() if not p.required]
    assert {str(p.actor) for p in optional} >= {"player:alice", "player:bob"}
    events = t.execute(time_out(first), rng)
    assert isinstance(events[0], TimedOut) and events[0].rule == "CR-R7"
    assert [e.kind for e in events[1:]] == [
        "craps.dice_passed", "table.seed_revealed", "table.seed_committed",
    ]  # fmt: skip
    assert t.shooter == "bob"
    with pytest.raises(OutOfOrder):
        t.execute(Command(Actor.player("alice"), "time_out",
                          {"actor": "player:bob", "op": "pass_dice"}))  # fmt: skip
    # time-outs only: the dice go round the table, each shooter's seed revealed in turn
    for _ in range(4):
        t.execute(time_out(t.pending()[0]), rng)
    assert t.shooters == 6
    assert replay(Journal.from_json(t.journal.to_json())).snapshot() == t.snapshot()


def test_cr_r7_the_shooter_leaving_passes_the_dice_and_cashes_out() -> None:
    """The shooter leaves: his Field comes back, the dice pass to the next seat, his seed
    is revealed, the next one committed, and his chips go back to his wallet."""
    rng = Rng.seeded("leave")
    t = CrapsTable(table_id="c1")
    for p in ("alice", "bob", "carol"):
        t.execute(Command(Actor.player(p), "sit", {"amount": 100_00}), rng)
    t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "field", "amount": 5_00}))
    events = t.execute(Command(Actor.player("alice"), "leave"), rng)
    assert [e.kind for e in events] == [
        "craps.bet_taken_down", "craps.dice_passed", "table.seed_revealed",
        "table.seed_committed", "craps.player_left",
    ]  # fmt: skip
    passed = events[1]
    assert isinstance(passed, DicePassed)
    assert (passed.player, passed.to, passed.reason) == ("alice", "bob", "left")
    assert events[-1].amount == 100_00  # type: ignore[attr-defined]
    assert t.seats == ("bob", "carol")
    assert replay(Journal.from_json(t.journal.to_json())).snapshot() == t.snapshot()


def test_cr_r6_leave_waits_for_a_contract_bet() -> None:
    t = CrapsTable(["alice"])
    t.buy_in("alice", M(100))
    t.place_bet("alice", "pass", M(10))
    t.place_bet("alice", "field", M(5))
    t.throw_dice(3, 3)
    with pytest.raises(BetNotAllowed, match=r"^CR-2\.1 alice has a contract bet working"):
        t.leave("alice")
    t.throw_dice(3, 3)
    ev = t.leave("alice")[-1]
    assert ev.amount == M(100 + 10 - 5).minor  # the Pass Line won 10; the Field lost on 6 (CR-4)
    assert t.seats == ()


def test_views_show_a_stack_to_its_player_only_and_never_a_seed() -> None:
    t = session()
    seeds = [s.hex() for s in t.seed_vault().values()]
    for viewer in (Viewer.PUBLIC, Viewer.player("alice"), Viewer.player("bob"), Viewer.DEALER):
        view = t.view(viewer)
        text = json.dumps(view)
        assert not any(seed in text for seed in seeds)
        stacks = {s["player"] for s in view["seats"] if "stack" in s}  # type: ignore[index,union-attr]
        if viewer.role.value == "player":
            assert stacks == {viewer.name}
        elif viewer == Viewer.PUBLIC:
            assert stacks == set()
    assert not any(seed in json.dumps(t.snapshot()) for seed in seeds[-1:])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.sampled_from(["throw", "bet", "pass", "odds"]),
                                       max_size=30))  # fmt: skip
def test_a_view_is_the_same_for_any_hidden_seed_that_agrees_on_what_was_revealed(
    seed: int, script: list[str]
) -> None:
    """Information model: at every step, every viewer's view of the live table equals the
    view of a table that does not know the current shooter's seed (replayed from the
    journal with only the revealed seeds): nothing hidden reaches a view."""
    rng = Rng.seeded(str(seed))
    t = CrapsTable(table_id="iv")
    for p in ("alice", "bob"):
        t.execute(Command(Actor.player(p), "sit", {"amount": 200_00}), rng)
    for step in script:
        assert t.shooter is not None
        try:
            if step == "throw":
                t.execute(Command(Actor.player(t.shooter), "throw"), rng)
            elif step == "pass":
                t.execute(Command(Actor.player(t.shooter), "pass_dice"), rng)
            elif step == "bet":
                t.execute(Command(Actor.player("bob"), "place_bet",
                                  {"bet": "pass" if t.point is None else "come",
                                   "amount": 5_00}), rng)  # fmt: skip
            else:
                flat = next((b for b in t.bets if b.point and t.odds_on(b.id) is None), None)
                if flat is not None:
                    t.execute(Command(Actor.player(flat.player), "place_bet",
                                      {"bet": f"{flat.kind}_odds", "amount": 2_00,
                                       "on": flat.id}), rng)  # fmt: skip
        except (BetNotAllowed, InvalidInput):
            pass
        blind = replay(Journal.from_json(t.journal.to_json()))  # knows revealed seeds only
        assert t._commitment is None or blind._seed is None  # the live seed stays unknown
        for viewer in (Viewer.PUBLIC, Viewer.player("alice"), Viewer.player("bob")):
            assert blind.view(viewer) == t.view(viewer)


def test_verify_refuses_a_forged_settlement_with_one_line(tmp_path: Path) -> None:
    """A settlement amount edited and the chain recomputed: `macau-tables verify` names the
    entry and what differs; exit 2, no traceback."""
    t = session()
    good = tmp_path / "good.json"
    t.journal.dump(good)
    ok = runner.invoke(app, ["verify", str(good)])
    assert ok.exit_code == 0, ok.output
    forged = t.journal.to_json()
    for entry in forged["entries"]:  # type: ignore[union-attr]
        ev = entry["event"]  # type: ignore[index]
        if ev["kind"] == "craps.roll_settled" and ev["data"]["results"]:
            result = ev["data"]["results"][0]
            result["won"] = 5_000_00
            result["result"] = "win"
            break
    bad = tmp_path / "forged.json"
    rechained(forged).dump(bad)  # type: ignore[arg-type]
    out = runner.invoke(app, ["verify", str(bad)])
    assert out.exit_code == 2
    assert "Traceback" not in out.output
    assert len(out.output.strip().splitlines()) == 1
    assert "the rules give craps.roll_settled (differs in results)" in out.output


def test_verify_refuses_forged_dice_against_the_revealed_seed(tmp_path: Path) -> None:
    t = session()
    obj = t.journal.to_json()
    revealed_labels = {e.label for e in t.events if e.kind == "table.seed_revealed"}  # type: ignore[attr-defined]
    first_label = next(e.label for e in t.events if isinstance(e, SeedCommitted))
    assert first_label in revealed_labels
    for entry in obj["entries"]:  # type: ignore[union-attr]
        ev = entry["event"]  # type: ignore[index]
        if ev["kind"] == "craps.dice_thrown":
            d1, d2 = ev["data"]["dice"]
            ev["data"]["dice"] = [d2 % 6 + 1, d1]
            break
    bad = tmp_path / "dice.json"
    rechained(obj).dump(bad)  # type: ignore[arg-type]
    out = runner.invoke(app, ["verify", str(bad)])
    assert out.exit_code == 2
    assert "CR-1" in out.output and "shooter's seed" in out.output


@pytest.mark.parametrize("drop", ["odds_cap", "currency", "pays"])
def test_a_missing_rules_key_is_a_one_line_error(tmp_path: Path, drop: str) -> None:
    obj = session().journal.to_json()
    del obj["entries"][0]["event"]["data"]["rules"][drop]  # type: ignore[index]
    path = tmp_path / "rules.json"
    rechained(obj).dump(path)  # type: ignore[arg-type]
    out = runner.invoke(app, ["verify", str(path)])
    assert out.exit_code == 2
    assert "Traceback" not in out.output
    assert f"entry 0: craps rules: missing {drop}" in out.output


# --- rule-set options: the Readings are the defaults ----------------------------------------


def test_cr_r4_option_big_odd_amounts() -> None:
    """CR-R4: by default an odd Big bet wins even money on the rest; a casino may refuse
    amounts that are not whole blocks."""
    assert CrapsRules().big_odd_amounts == "even_money"
    t = CrapsTable(["a"], CrapsRules(big_odd_amounts="refused"))
    t.buy_in("a", M(100))
    with pytest.raises(BetNotAllowed, match="CR-R4"):
        t.place_bet("a", "big6", M(10))
    t.place_bet("a", "big6", M(12))
    assert CrapsRules.from_json(CrapsRules(big_odd_amounts="refused").to_json()) == CrapsRules(
        big_odd_amounts="refused"
    )
    with pytest.raises(InvalidInput, match="CR-R4"):
        CrapsRules(big_odd_amounts="sometimes")  # type: ignore[arg-type]


def test_cr_r9_option_odds_increases() -> None:
    """CR-R9: odds are not increased unless the rule set allows it (off by default)."""
    t = CrapsTable(["a"], CrapsRules(odds_increases="allowed"))
    t.buy_in("a", M(100))
    line = t.place_bet("a", "pass", M(10))[0].bet_id
    t.throw_dice(2, 2)
    odds = t.place_bet("a", "pass_odds", M(2), on=line)[0].bet_id
    t.increase_bet("a", odds, M(1))
    assert t.bet(odds).amount == M(3)
    assert CrapsTable(["a"]).rules.odds_increases == "refused"


def test_cr_2_3_option_come_odds_off_on_the_come_out() -> None:
    """CR-2.3: working (default) — come odds are decided with their Come bet on a come-out;
    'off' — they are returned when the Come bet is decided on a come-out roll."""
    for option, expected in (("working", "lose"), ("off", "push")):
        t = CrapsTable(["a"], CrapsRules(come_odds_on_come_out=option))  # type: ignore[arg-type]
        t.buy_in("a", M(100))
        t.place_bet("a", "pass", M(10))
        t.throw_dice(2, 2)  # point 4
        come = t.place_bet("a", "come", M(10))[0].bet_id
        t.throw_dice(3, 3)  # the Come bet goes to 6
        odds = t.place_bet("a", "come_odds", M(5), on=come)[0].bet_id
        t.throw_dice(2, 2)  # point made: the next roll is a come-out
        t.throw_dice(3, 4)  # a 7 on the come-out: the Come 6 loses
        assert t.last_roll is not None
        got = {r["bet"]: r["result"] for r in t.last_roll.results}
        assert got[come] == "lose"
        assert got[odds] == expected


def test_cr_1_dice_keyed_in_at_a_live_table_replay_as_keyed_in() -> None:
    """CR-1 / CR-R1: the dealer keys the dice in (a cocked die declared); replay re-runs
    ``throw_dice`` from the journal (command_of gives the keyed form) to the same table,
    and a forged die out of 1-6 is refused on replay with CR-1."""
    rng = Rng.seeded("keyed")
    t = CrapsTable(table_id="c1")
    for p in ("alice", "bob"):
        t.execute(Command(Actor.player(p), "sit", {"amount": 100_00}), rng)
    t.execute(Command(Actor.player("alice"), "place_bet", {"bet": "pass", "amount": 5_00}))
    for dice, cocked in (
        ([2, 2], [False, True]),
        ([6, 5], [False, False]),
    ):
        t.execute(Command(Actor.DEALER, "throw_dice", {"dice": dice, "cocked": cocked}), rng)
    t.execute(Command(Actor.DEALER, "throw_dice", {"dice": [4, 3]}), rng)  # seven-out on 4
    assert t.shooter == "bob"
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()
    data: Any = t.journal.to_json()
    i = next(k for k, r in enumerate(data["entries"]) if r["event"]["kind"] == "craps.dice_thrown")
    data["entries"][i]["event"]["data"]["dice"] = [0, 4]
    forged = Journal(data["game"], data["header"])
    for raw in data["entries"]:
        forged.append(event_from_json(raw["event"]))
    with pytest.raises(MacauTablesError) as exc:
        replay(forged)
    assert exc.value.rule == "CR-1"
