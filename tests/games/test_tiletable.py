"""The tile table under the live-table contract: operations, pending, time-outs, the bank's
rotation, replay, and the forged journals ``macau-tables verify`` refuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from macau_tables.cli.app import app
from macau_tables.core.errors import (
    InvalidInput,
    OutOfOrder,
    ReplayMismatch,
    RuleViolation,
)
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import Ledger
from macau_tables.core.rng import Rng, verify_reveal
from macau_tables.games.contract import (
    Actor,
    Command,
    SeedCommitted,
    SeedRevealed,
    TableEngine,
    TimedOut,
)
from macau_tables.games.tiles import (
    BankOpened,
    BetOutcome,
    RoundSettled,
    TilePhase,
    TilesDealt,
    TilesSet,
    TileTableRules,
    open_table,
    replay,
)

from .tiletable_helpers import (
    bet_own_seats,
    funded_ledger,
    play_round,
    rechained,
    seated,
    step_default,
)

runner = CliRunner()
ANN, BOB, CY = Actor.player("ann"), Actor.player("bob"), Actor.player("cy")


def _open(t, who: Actor = ANN, capital: int = 50_000) -> None:  # type: ignore[no-untyped-def]
    t.execute(Command(who, "open_bank", {"capital": capital}))


def test_the_table_is_a_table_engine() -> None:
    t = seated()
    assert isinstance(t, TableEngine)
    assert t.game == "paigow"
    assert seated("taiwan").game == "taiwan"


@pytest.mark.parametrize(("game", "places"), [("paigow", 8), ("taiwan", 8), ("taiwan", 4)])
def test_pending_drives_rounds_with_time_outs_only(game: str, places: int) -> None:
    """Every step by the rules' default: the seat whose turn it is declines (PG-4.3), the
    house banks (PG-R6), the dealer shuffles (PG-1.1), the banker's dice (PG-1.2), the
    house way / forced setting (PG-R10 / TW-6b), the dealer settles (PG-8.3)."""
    t = seated(game, places=places)
    rng = Rng.seeded("timeouts", game)
    for _ in range(4):
        play_round(t, rng, bet=0)
    kinds = [ev.kind for ev in t.journal.events]
    assert kinds.count("tiletable.round_settled") == 4
    timed = [ev for ev in t.journal.events if isinstance(ev, TimedOut)]
    want = {"PG-R6", "PG-1.1", "PG-1.2", "PG-8.3"}
    if game == "taiwan":  # TW-R3: rotation as PG-R6
        want = {"PG-R6", "TW-2a", "TW-2b", "TW-6b"}
    assert {ev.rule for ev in timed} >= want
    assert all(ev.banker == "house" for ev in t.journal.events if isinstance(ev, BankOpened))
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.journal.head == t.journal.head


def test_a_scripted_round_by_the_players_settles_and_replays() -> None:
    """PG-4.4 capital, PG-4.6 bets, PG-5.1 each holder sets, PG-8.1 the banker last."""
    t = seated()
    rng = Rng.seeded("scripted")
    _open(t)
    assert t.phase is TilePhase.SHUFFLE
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 2_000}))
    t.execute(Command(CY, "place_bet", {"seat": 3, "amount": 3_000}))
    t.execute(Command(CY, "place_bet", {"seat": 2, "amount": 500}))
    assert t.stack("cy").minor == 100_000 - 3_500
    t.execute(Command(ANN, "shake", {}))
    assert t.phase is TilePhase.SETTING
    rnd = t.round
    assert rnd is not None
    with pytest.raises(RuleViolation, match="PG-7.4"):
        t.execute(
            Command(CY, "set_tiles", {"seat": 2, "front": [str(x) for x in rnd.hands[2][:2]]})
        )
    with pytest.raises(OutOfOrder, match="PG-8.1"):
        t.execute(
            Command(ANN, "set_tiles", {"seat": 1, "front": [str(x) for x in rnd.hands[1][:2]]})
        )
    for who, seat in ((BOB, 2), (CY, 3), (ANN, 1)):
        front = [str(x) for x in rnd.hands[seat][:2]]
        t.execute(Command(who, "set_tiles", {"seat": seat, "front": front}))
    assert t.phase is TilePhase.SETTLE
    events = t.execute(Command(Actor.DEALER, "settle", {}))
    settled = events[0]
    assert isinstance(settled, RoundSettled)
    assert isinstance(events[1], SeedRevealed)  # 8 places: the woodpile is used up
    bets = settled.bets()
    assert [b.bet_id for b in bets] == sorted(b.bet_id for b in bets) or len(bets) == 3
    assert {b.outcome for b in bets} <= set(BetOutcome)
    assert sorted(settled.closes) == ["bank-1-ann", "bet-1", "bet-2", "bet-3"]
    led = Ledger.project(t.journal.events, funded_ledger(["ann", "bob", "cy"]))
    assert led.total().is_zero()
    assert not led.open_holds
    for p in ("ann", "bob", "cy"):
        assert led.balance(f"stack:t1:{p}") == t.stack(p)
    assert replay(Journal.from_json(t.journal.to_json())).journal.head == t.journal.head


def test_pg_4_1_nobody_shakes_for_the_banker_and_the_dealer_settles() -> None:
    t = seated()
    _open(t)
    t.execute(Command(Actor.DEALER, "shuffle", {}), Rng.seeded("x"))
    with pytest.raises(RuleViolation, match="PG-4.1"):
        t.execute(Command(BOB, "shake", {}))
    with pytest.raises(RuleViolation, match="PG-1.1"):
        t.execute(Command(BOB, "shuffle", {}), Rng.seeded("x"))
    with pytest.raises(InvalidInput, match="unknown argument"):
        t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 100, "sseat": 3}))
    with pytest.raises(InvalidInput, match="positive"):
        t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": -100}))
    for _ in range(2):  # (the operation's signature is worked out once, then kept)
        with pytest.raises(InvalidInput, match=r"place_bet: .*amount.*it takes"):
            t.execute(Command(BOB, "place_bet", {"seat": 2}))
    with pytest.raises(RuleViolation, match="PG-4.6"):
        t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 100_001}))


def test_pg_4_9_a_keeping_banker_never_reduces_the_capital_and_pg_4_1_passes_after_two() -> None:
    t = seated()
    rng = Rng.seeded("keep")
    play_round(t, rng, capital=50_000)
    offer = t.view(ANN.viewer())["bank_offer"]
    assert isinstance(offer, dict)
    assert offer["seat"] == 1
    assert offer["keep"] is True
    floor = offer["min_capital"]
    assert isinstance(floor, int)
    assert floor > 0
    with pytest.raises(RuleViolation, match="PG-4.9"):
        _open(t, ANN, floor - 1)
    _open(t, ANN, floor)
    play_round(t, rng)
    # PG-4.1 / PG-R6: two rounds held; the turn passes to the seat on the right (seat 2)
    assert t.bank_candidate() == 2
    with pytest.raises(RuleViolation, match="PG-4.3"):
        _open(t, ANN, 1_000)


def test_pg_4_3_a_declined_bank_goes_only_to_a_seat_that_bet_and_pg_r6_the_house_banks() -> None:
    t = seated()
    rng = Rng.seeded("decline")
    assert t.bank_candidate() == 1  # whose turn it is: no bet needed
    t.execute(Command(ANN, "decline_bank", {}))
    assert t.bank_candidate() is None  # nobody bet in a previous round
    (p,) = t.pending()
    assert (p.actor, p.default, p.rule) == (Actor.DEALER, "house_banks", "PG-R6")
    t.execute(Command(Actor.DEALER, "house_banks", {}))
    assert t.banker == "house"
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    bet_own_seats(t)
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)
    assert t.bank_candidate() == 2  # the turn moved right
    t.execute(Command(BOB, "decline_bank", {}))
    assert t.bank_candidate() == 3  # cy bet on seat 3 last round


def test_tw_2d_r2_a_four_place_woodpile_serves_two_rounds() -> None:
    """TW-2d / TW-R2: one seed for two rounds, revealed after the second; the first
    round's tiles lie face up (public) during the second."""
    t = seated("taiwan", places=4)
    rng = Rng.seeded("tw4")
    play_round(t, rng, capital=20_000)
    assert not any(isinstance(ev, SeedRevealed) for ev in t.journal.events)
    face_up = t.view(BOB.viewer())["face_up"]
    assert isinstance(face_up, list)
    assert len(face_up) == 16
    play_round(t, rng, capital=20_000)
    commits = [ev for ev in t.journal.events if isinstance(ev, SeedCommitted)]
    reveals = [ev for ev in t.journal.events if isinstance(ev, SeedRevealed)]
    assert len(commits) == 1
    assert len(reveals) == 1
    assert verify_reveal(bytes.fromhex(reveals[0].seed), commits[0].commitment)
    settled = [ev for ev in t.journal.events if isinstance(ev, RoundSettled)]
    first = sorted(x for _s, ts in settled[0].hands for x in ts)
    second = sorted(x for _s, ts in settled[1].hands for x in ts)
    from macau_tables.tiles import FULL_SET

    assert sorted(first + second) == sorted(str(x) for x in FULL_SET)


def test_pg_4_7_a_player_with_a_bet_in_play_may_not_leave() -> None:
    t = seated()
    _open(t)
    t.execute(Command(Actor.DEALER, "shuffle", {}), Rng.seeded("x"))
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 100}))
    with pytest.raises(RuleViolation, match="PG-4.7"):
        t.execute(Command(BOB, "leave", {}))
    assert t.can_leave(CY)
    events = t.execute(Command(CY, "leave", {}))
    assert [e.kind for e in events] == ["tiletable.chips_cashed", "tiletable.player_left"]


def test_time_out_names_the_rule_and_refuses_what_has_no_default() -> None:
    t = seated("taiwan")
    rng = Rng.seeded("to")
    _open(t)
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    bet_own_seats(t)
    with pytest.raises(OutOfOrder):
        t.execute(Command(Actor.SYSTEM, "time_out", {"actor": "player:bob", "op": "place_bet"}))
    with pytest.raises(RuleViolation):
        t.execute(Command(BOB, "time_out", {"actor": "player:ann", "op": "shake"}))
    step_default(t, rng)  # the banker's dice
    setters = [p for p in t.pending() if p.default == "set_tiles"]
    assert {p.rule for p in setters} == {"TW-6b"}
    events = t.execute(
        Command(Actor.SYSTEM, "time_out", {"actor": str(setters[0].actor), "op": "set_tiles"})
    )
    assert isinstance(events[0], TimedOut)
    assert events[0].rule == "TW-6b"
    assert isinstance(events[1], TilesSet)


def test_replay_needs_the_seed_of_an_unrevealed_woodpile() -> None:
    t = seated()
    _open(t)
    t.execute(Command(Actor.DEALER, "shuffle", {}), Rng.seeded("x"))
    with pytest.raises(ReplayMismatch, match="not revealed"):
        replay(Journal.from_json(t.journal.to_json()))
    seed = t.seed_vault()  # the server keeps its seeds: a live table's recovery passes them
    again = replay(Journal.from_json(t.journal.to_json()), seeds=seed)
    assert again.journal.head == t.journal.head


def _session(tmp_path: Path) -> tuple[Journal, Path]:
    t = seated()
    rng = Rng.seeded("forged")
    play_round(t, rng, capital=50_000)
    path = tmp_path / "table.json"
    t.journal.dump(path)
    return t.journal, path


def test_verify_accepts_a_session_and_refuses_a_forged_settlement(tmp_path: Path) -> None:
    journal, path = _session(tmp_path)
    ok = runner.invoke(app, ["verify", str(path), "--json"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout)["reproduced"] is True
    i = next(k for k, ev in enumerate(journal.events) if isinstance(ev, RoundSettled))
    ev = journal.events[i]
    assert isinstance(ev, RoundSettled)
    postings = [list(p) for p in ev.postings]
    k = next(j for j, (acc, _v) in enumerate(postings) if acc == "stack:t1:bob")
    postings[k][1] += 500_000  # bob's result rewritten
    postings.append(["house:t1", -500_000])
    forged = rechained(journal, {i: {"postings": postings}})
    forged_path = tmp_path / "forged.json"
    forged.dump(forged_path)
    bad = runner.invoke(app, ["verify", str(forged_path)])
    assert bad.exit_code == 2
    assert f"entry {i}" in bad.stderr
    assert "Traceback" not in bad.output
    assert len(bad.stderr.strip().splitlines()) == 1


def test_verify_refuses_a_forged_deal_and_a_missing_rules_key(tmp_path: Path) -> None:
    journal, _ = _session(tmp_path)
    i = next(k for k, ev in enumerate(journal.events) if isinstance(ev, TilesDealt))
    ev = journal.events[i]
    assert isinstance(ev, TilesDealt)
    swapped = rechained(journal, {i: {"tiles": [*list(reversed(ev.tiles))[:3], "6-6"]}})
    p1 = tmp_path / "dealt.json"
    swapped.dump(p1)
    bad = runner.invoke(app, ["verify", str(p1)])
    assert bad.exit_code == 2
    assert f"entry {i}" in bad.stderr
    rules = TileTableRules().to_json()
    del rules["places"]
    broken = rechained(journal, {0: {"rules": rules}})
    p2 = tmp_path / "rules.json"
    broken.dump(p2)
    bad = runner.invoke(app, ["verify", str(p2)])
    assert bad.exit_code == 2
    assert "places" in bad.stderr
    assert "Traceback" not in bad.output
    assert len(bad.stderr.strip().splitlines()) == 1


def test_rules_serialiser_refuses_unknown_and_bad_keys() -> None:
    rules = TileTableRules(game="taiwan", places=4)
    assert TileTableRules.from_json(rules.to_json()) == rules
    with pytest.raises(InvalidInput, match="unknown"):
        TileTableRules.from_json({**rules.to_json(), "plaecs": 4})
    with pytest.raises(RuleViolation, match="PG-1.4"):
        TileTableRules(game="paigow", places=4)
    with pytest.raises(InvalidInput):
        TileTableRules.from_json({**rules.to_json(), "round": {"settlment": "cover"}})


def test_pg_4_1_the_seat_offered_the_bank_first_is_the_houses_choice() -> None:
    """PG-4.1 / TW-5a 每門均得輪流做莊: the seats bank in turn; where the turn starts when
    the table opens is the house's choice (``first_bank``, seat 1 unless set). Written in
    the rules only when set: the rules of a table opened before read as they were."""
    assert "first_bank" not in TileTableRules().to_json()
    rules = TileTableRules(game="taiwan", places=4, first_bank=3)
    assert rules.to_json()["first_bank"] == 3
    assert TileTableRules.from_json(rules.to_json()) == rules
    for bad in (0, 5, True, "3"):
        with pytest.raises(InvalidInput, match="first_bank"):
            TileTableRules(game="taiwan", places=4, first_bank=bad)  # type: ignore[arg-type]
    t = open_table(rules)
    for seat, p in ((1, "ann"), (3, "cy")):
        t.execute(Command(Actor.player(p), "sit", {"seat": seat}))
        t.execute(Command(Actor.player(p), "buy_in", {"amount": 10_000}))
    assert t.bank_candidate() == 3
    (p,) = t.pending()
    assert (p.actor, p.default, p.rule) == (Actor.player("cy"), "decline_bank", "TW-5b")
    t.execute(Command(Actor.player("cy"), "open_bank", {"capital": 5_000}))
    assert (t.banker, t.banker_seat) == ("cy", 3)
    assert replay(Journal.from_json(t.journal.to_json())).journal.head == t.journal.head


def test_pg_2_3_r3_a_void_deal_reveals_the_woodpile_and_a_new_one_is_shuffled() -> None:
    """Two tiles exposed in the banker's stack: the exposed tiles are public, the voided
    woodpile's seed is revealed, the dealer shuffles a new one; bets stay (PG-R3)."""
    t = seated()
    rng = Rng.seeded("void")
    _open(t)
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    bet_own_seats(t)
    step_default(t, rng)  # the dice and the deal
    rnd = t.round
    assert rnd is not None
    two = [str(x) for x in rnd.hands[1][:2]]
    events = t.execute(Command(Actor.DEALER, "report_exposed", {"seat": 1, "tiles": two}))
    assert [e.kind for e in events] == ["tiletable.tiles_exposed", "table.seed_revealed"]
    assert events[0].audience().admits(BOB.viewer())
    assert t.phase is TilePhase.SHUFFLE
    assert len(t.view(BOB.viewer())["bets"]) == 2  # type: ignore[arg-type]
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)
    commits = [ev for ev in t.journal.events if isinstance(ev, SeedCommitted)]
    assert [c.label for c in commits] == ["woodpile:1", "woodpile:2"]
    assert replay(Journal.from_json(t.journal.to_json())).journal.head == t.journal.head
