"""A physical woodpile at a live tile table (PG-1.1, PG-1.2, PG-1.4, TW-2d, T-1): the dealer
builds it, keys in the banker's dice and each seat's four tiles as dealt; T-1 refuses a tile
dealt more often than the set has it; replay re-runs the keyed deal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, MacauTablesError, ReplayMismatch
from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import (
    HandsKeyed,
    TilePhase,
    TilesDealt,
    TileTable,
    WoodpileEnded,
    replay,
)
from macau_tables.tiles import FULL_SET
from tests.games.tiletable_helpers import bet_own_seats, rechained, seated, step_default

D = Actor.DEALER
ORDER = [str(t) for t in FULL_SET]


def _hands(tiles: list[str], places: int = 8) -> dict[str, list[str]]:
    return {str(seat): tiles[4 * (seat - 1) : 4 * seat] for seat in range(1, places + 1)}


def _to_betting(t: TileTable, capital: int = 50_000) -> None:
    seat, _keep, least = t.bank_offer()
    assert seat is not None
    capital = max(capital, least)  # PG-4.9 / TW-5d: a keeping banker never reduces it
    t.execute(Command(Actor.player(t.seats()[seat]), "open_bank", {"capital": capital}))
    if t.phase is TilePhase.SHUFFLE:
        t.execute(Command(D, "build_woodpile"))
    bet_own_seats(t)


def _finish(t: TileTable) -> None:
    rng = Rng.seeded("finish")
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)  # the house way sets (PG-R10), the dealer settles (PG-8.3)


def test_pg_1_4_the_keyed_hands_are_the_hands_dealt() -> None:
    t = seated()
    _to_betting(t)
    dealer = next(p for p in t.pending() if p.actor == D)
    assert dealer.operations == ("shake",) and dealer.default is None
    hands = _hands(ORDER)
    events = t.execute(Command(D, "shake", {"dice": [1, 2, 3, 4], "hands": hands}))
    dealt = {e.seat: list(e.tiles) for e in events if isinstance(e, TilesDealt)}
    assert {str(s): ts for s, ts in dealt.items()} == hands
    assert t.view(Viewer.player("ann"))["hands"] == {"1": hands["1"]}  # her seat only
    _finish(t)
    assert isinstance(t.journal.events[-1], WoodpileEnded)  # 8 places: one round a woodpile
    assert "table.seed_committed" not in {e.kind for e in t.journal.events}


@pytest.mark.parametrize(
    ("args", "rule"),
    [
        ({"dice": [1, 2, 3, 4], "hands": _hands(["6-6"] * 3 + ORDER[3:])}, "T-1"),
        (
            {"dice": [1, 2, 3, 4], "hands": {k: v for k, v in _hands(ORDER).items() if k != "8"}},
            "PG-1.4",
        ),
        ({"dice": [1, 2, 3, 4], "hands": {**_hands(ORDER), "1": ORDER[:3]}}, "PG-1.4"),
        ({"dice": [0, 2, 3, 7], "hands": _hands(ORDER)}, "PG-1.2"),
        ({"dice": [1, 2, 3, 4]}, "PG-1.4"),  # a physical woodpile: the hands are keyed in
        ({}, "PG-1.2"),  # and the dice
    ],
)
def test_bad_key_in_names_the_rule_and_records_nothing(args: dict[str, Any], rule: str) -> None:
    t = seated()
    _to_betting(t)
    before = len(t.journal)
    with pytest.raises(MacauTablesError) as exc:
        t.execute(Command(D, "shake", args))
    assert exc.value.rule == rule
    assert len(t.journal) == before


def test_a_seeded_woodpile_refuses_keyed_hands() -> None:
    t = seated()
    seat = t.bank_candidate()
    assert seat is not None
    t.execute(Command(Actor.player(t.seats()[seat]), "open_bank", {"capital": 50_000}))
    t.execute(Command(D, "shuffle"), Rng.seeded("w"))
    with pytest.raises(InvalidInput) as exc:
        t.execute(Command(D, "shake", {"dice": [1, 2, 3, 4], "hands": _hands(ORDER)}))
    assert exc.value.rule == "PG-1.4"


def test_players_may_not_key_in_for_the_dealer_but_the_banker_shook_the_dice() -> None:
    """The dealer keys in the banker's dice (PG-1.2: nobody shakes for the banker — he
    shook them at the table); another player may not shake."""
    t = seated()
    _to_betting(t)
    with pytest.raises(MacauTablesError) as exc:
        t.execute(Command(Actor.player("bob"), "shake", {"dice": [1, 2, 3, 4]}))
    assert exc.value.rule == "PG-4.1"


def test_tw_2d_two_rounds_from_one_physical_woodpile() -> None:
    """At 4 places the woodpile serves two rounds (TW-2d): the second round's hands come
    from the 16 tiles left; a tile the first round used up is refused (T-1)."""
    t = seated("taiwan", places=4)
    _to_betting(t)
    first, second = ORDER[:16], ORDER[16:]
    t.execute(Command(D, "shake", {"dice": [1, 1, 1, 2], "hands": _hands(first, 4)}))
    _finish(t)
    assert not any(isinstance(e, WoodpileEnded) for e in t.journal.events)
    _to_betting(t)
    assert t.phase is TilePhase.BETTING  # the same woodpile: no new one is built
    used_up = next(x for x, n in Counter(first).items() if n == Counter(ORDER)[x])
    bad = [used_up, *second[1:]]
    with pytest.raises(InvalidInput) as exc:
        t.execute(Command(D, "shake", {"dice": [2, 2, 2, 2], "hands": _hands(bad, 4)}))
    assert exc.value.rule == "T-1"
    t.execute(Command(D, "shake", {"dice": [2, 2, 2, 2], "hands": _hands(second, 4)}))
    _finish(t)
    assert isinstance(t.journal.events[-1], WoodpileEnded)
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.view(Viewer.SUPERVISOR) == t.view(Viewer.SUPERVISOR)
    assert again.journal.head == t.journal.head


def test_a_forged_keyed_hand_is_refused_on_replay_with_t_1() -> None:
    t = seated()
    _to_betting(t)
    t.execute(Command(D, "shake", {"dice": [1, 2, 3, 4], "hands": _hands(ORDER)}))
    i = next(k for k, e in enumerate(t.journal.events) if isinstance(e, HandsKeyed))
    forged = _hands(ORDER)
    forged["2"] = forged["1"]  # seat 1's tiles dealt twice
    with pytest.raises(ReplayMismatch) as exc:
        replay(rechained(t.journal, {i: {"hands": forged}}))
    assert exc.value.rule == "T-1"


@settings(max_examples=25, deadline=None)
@given(st.permutations(ORDER), st.lists(st.integers(1, 6), min_size=4, max_size=4))
@example(ORDER, [6, 6, 6, 6])
def test_any_deal_from_the_set_is_accepted_and_replays(tiles: list[str], dice: list[int]) -> None:
    t = seated()
    _to_betting(t)
    t.execute(Command(D, "shake", {"dice": dice, "hands": _hands(tiles)}))
    rnd = t.round
    assert rnd is not None
    assert {s: [str(x) for x in h] for s, h in rnd.hands.items()} == {
        int(k): v for k, v in _hands(tiles).items()
    }
    _finish(t)
    again = replay(Journal.from_json(t.journal.to_json()))
    assert again.journal.head == t.journal.head
