"""Craps golden transcript: a seeded session's full journal, checked in as JSON.

Any change to the engine's behaviour (a payout, a rule, an event field) shows up as a diff
of ``data/craps_golden.json`` that a reviewer can read. Regenerate deliberately with
``CRAPS_GOLDEN=write pytest tests/games/test_craps_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from macau_tables.core.journal import Journal
from macau_tables.core.journal import replay as journal_replay
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.games.contract import Actor, Command, SeedCommitted, SeedRevealed, time_out
from macau_tables.games.craps import CrapsTable, DiceThrown, replay

GOLDEN = Path(__file__).parent / "data" / "craps_golden.json"
ODDS = {"pass": "pass_odds", "come": "come_odds", "dont_pass": "dont_pass_odds",
        "dont_come": "dont_come_odds"}  # fmt: skip


def session() -> CrapsTable:
    """CR-2.1 … CR-11 in one seeded session driven through ``execute``: two players join
    with chips, line bets with odds, Come and Don't Come with lay odds, the Field, hard ways,
    Big 7, 11, Any Craps and the Big bets; a void throw (CR-R1), the dice passed on
    seven-outs (CR-R7), passed by a shooter and on a time-out, a third player joining and
    the first leaving with his chips."""
    rng = Rng.seeded("craps-golden")
    t = CrapsTable(table_id="golden")
    run = t.execute
    for name in ("alice", "bob"):
        run(Command(Actor.player(name), "sit", {"amount": 1000_00}), rng)
    plan = ["pass", "dont_pass", "field", "hard8", "big7", "eleven", "any_craps", "big6",
            "big5", "big4", "come", "dont_come", "hard6", "big10"]  # fmt: skip
    for i in range(40):
        players = t.seats
        for seat, name in zip(players, plan[i % len(plan) :][:2], strict=False):
            cmd = Command(Actor.player(seat), "place_bet", {"bet": name, "amount": 10_00})
            if t.can_place_bet(seat, name, Money(10_00)):
                run(cmd, rng)
        for bet in t.bets:  # the largest odds that the cap allows (CR-2.2, CR-R2)
            odds = ODDS.get(bet.kind)
            if odds and bet.point and t.odds_on(bet.id) is None:
                for stake in (2000, 1500, 1200, 833, 666, 500):
                    if t.can_place_bet(bet.player, odds, Money(stake), on=bet.id):
                        run(Command(Actor.player(bet.player), "place_bet",
                                    {"bet": odds, "amount": stake, "on": bet.id}), rng)  # fmt: skip
                        break
        assert t.shooter is not None
        if i == 17:
            run(Command(Actor.DEALER, "void_throw", {"reason": "a die left the table"}), rng)
        if i == 22:
            run(Command(Actor.player(t.shooter), "pass_dice"), rng)
        if i == 25:
            run(time_out(t.pending()[0]), rng)
        if i == 28:
            run(Command(Actor.player("carol"), "sit", {"amount": 500_00}), rng)
        if i == 33 and t.can_leave("alice"):
            run(Command(Actor.player("alice"), "leave"), rng)
        assert t.shooter is not None
        run(Command(Actor.player(t.shooter), "throw"), rng)
    return t


def test_golden_transcript_is_unchanged_and_replays() -> None:
    """CR-1: the dice of a seeded session; the whole journal equals the checked-in one, and
    replaying it (``macau-tables verify``'s path) rebuilds the identical table."""
    t = session()
    got = t.journal.to_json()
    if os.environ.get("CRAPS_GOLDEN") == "write":
        t.journal.dump(GOLDEN)
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got == expected
    loaded = Journal.load(GOLDEN)
    again = replay(loaded)
    assert again.snapshot() == t.snapshot()
    assert again.journal.head == loaded.head
    assert isinstance(journal_replay(loaded), CrapsTable)


def test_cr_1_golden_dice_follow_from_the_revealed_seeds() -> None:
    """CR-1 with commit–reveal: every revealed seed matches its commitment, and each throw
    of that shooter is ``Rng.for_event(seed, table, "throw:<n>")``."""
    events = Journal.load(GOLDEN).events
    committed = {e.label: e.commitment for e in events if isinstance(e, SeedCommitted)}
    revealed = {e.label: bytes.fromhex(e.seed) for e in events if isinstance(e, SeedRevealed)}
    assert len(revealed) >= 4
    for label, seed in revealed.items():
        assert commitment(seed) == committed[label]
    label, checked = None, 0
    for e in events:
        if isinstance(e, SeedCommitted):
            label = e.label
        if isinstance(e, DiceThrown) and label in revealed:
            assert e.dice == Rng.for_event(revealed[label], "golden", f"throw:{e.throw}").dice(2)
            checked += 1
    assert checked >= 20
