"""Craps golden transcript: a seeded two-seat session's full journal, checked in as JSON.

Any change to the engine's behaviour (a payout, a rule, an event field) shows up as a diff
of ``data/craps_golden.json`` that a reviewer can read. Regenerate deliberately with
``CRAPS_GOLDEN=write pytest tests/games/test_craps_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from macau_tables.core.journal import Journal
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.craps import CrapsTable, replay

GOLDEN = Path(__file__).parent / "data" / "craps_golden.json"


def session() -> CrapsTable:
    """CR-2.1 … CR-11 in one seeded session: line bets with odds, Come and Don't Come with
    lay odds, the Field, hard ways, Big 7, 11, Any Craps and the Big bets, at two seats
    (CR-R7 passes the dice on a seven-out)."""
    rng = Rng.seeded("craps-golden")
    t = CrapsTable(["alice", "bob"], header={"seed": "craps-golden"})
    t.buy_in("alice", Money.of(1000))
    t.buy_in("bob", Money.of(1000))
    plan = ["pass", "dont_pass", "field", "hard8", "big7", "eleven", "any_craps", "big6",
            "big5", "big4", "come", "dont_come", "hard6", "big10"]  # fmt: skip
    for i in range(40):
        for seat, name in zip(("alice", "bob"), plan[i % len(plan) :][:2], strict=False):
            if t.can_place_bet(seat, name, Money.of(10)):
                t.place_bet(seat, name, Money.of(10))
        for bet in t.bets:  # take the largest odds that the cap allows (CR-2.2, CR-R2)
            odds = {"pass": "pass_odds", "come": "come_odds", "dont_pass": "dont_pass_odds",
                    "dont_come": "dont_come_odds"}.get(bet.kind)  # fmt: skip
            if odds and bet.point and t.odds_on(bet.id) is None:
                for stake in (2000, 1500, 1200, 833, 666, 500):
                    if t.can_place_bet(bet.player, odds, Money(stake), on=bet.id):
                        t.place_bet(bet.player, odds, Money(stake), on=bet.id)
                        break
        if i == 17:
            t.void_throw()
        t.throw(rng)
    return t


def test_golden_transcript_is_unchanged_and_replays() -> None:
    """CR-1: the dice of a seeded session; the whole journal equals the checked-in one."""
    t = session()
    got = t.journal.to_json()
    if os.environ.get("CRAPS_GOLDEN") == "write":
        t.journal.dump(GOLDEN)
    expected = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got == expected
    again = replay(Journal.load(GOLDEN))
    assert again.snapshot() == t.snapshot()
