"""Tile table golden transcripts: a seeded Pai Gow session and a Taiwan 4-place session,
their full journals checked in as JSON.

Any change to the engine's behaviour (a payout, a rule, an event field) shows up as a diff
of ``data/paigow_golden.json`` / ``data/taiwan_golden.json`` that a reviewer can read.
Regenerate deliberately with ``TILES_GOLDEN=write pytest tests/games/test_tiletable_golden.py``.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TilePhase, TileTable, replay

from .tiletable_helpers import play_round, seated, step_default

DATA = Path(__file__).parent / "data"


def session(game: str) -> TileTable:
    """Several rounds: a banker keeps the bank (PG-4.9), passes it after two (PG-4.1), a
    seat declines (PG-4.3), co-banking (PG-3.2), bets by several players on one seat
    (PG-7.1), a rearrangement (PG-2.1), time-outs for every setting (PG-R10 / TW-6b)."""
    places = 4 if game == "taiwan" else 8
    t = seated(game, ("ann", "bob", "cy", "dee"), places=places)
    rng = Rng.seeded("tiles-golden", game)
    play_round(t, rng, capital=30_000, bet=2_000)  # ann banks
    play_round(t, rng, capital=40_000, bet=1_500)  # ann keeps with more
    t.execute(Command(Actor.player("bob"), "decline_bank", {}))
    t.execute(Command(Actor.player("cy"), "open_bank", {"capital": 25_000}))
    if t.phase is TilePhase.SHUFFLE:
        t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(Actor.player("dee"), "join_bank", {"capital": 5_000}))
    t.execute(Command(Actor.player("ann"), "place_bet", {"seat": 2, "amount": 3_000}))
    t.execute(Command(Actor.player("bob"), "place_bet", {"seat": 2, "amount": 1_000}))
    rnd = t.round
    assert rnd is not None
    t.execute(Command(Actor.player("ann"), "rearrange", {"order": list(reversed(rnd.stack_order))}))
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)
    play_round(t, rng, capital=10_000, bet=700)
    return t


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_golden_transcript_is_unchanged_and_replays(game: str) -> None:
    t = session(game)
    path = DATA / f"{game}_golden.json"
    if os.environ.get("TILES_GOLDEN") == "write":
        t.journal.dump(path)
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert t.journal.to_json() == expected
    again = replay(Journal.load(path))
    assert again.journal.head == t.journal.head
    assert again.view(Actor.DEALER.viewer()) == t.view(Actor.DEALER.viewer())
