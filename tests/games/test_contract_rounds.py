"""The contract's rounds (recall) and its step-by-step replay (verifiable rounds)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import ReplayMismatch, SeedNotRevealed
from macau_tables.core.journal import Event, Journal
from macau_tables.core.rng import Rng
from macau_tables.games import contract
from macau_tables.games.baccarat import (
    BaccaratRules,
    BaccaratTable,
    BetPlaced,
    CardsDealt,
    HandSettled,
    HandVoided,
    open_table,
)
from macau_tables.games.contract import Actor, Command, Replay, RoundMark, SeedRevealed

ALICE = Actor.player("alice")
KINDS: dict[str, Event] = {
    "play": BetPlaced("t", "t:1", "alice", "banker", 100, 1, "MOP"),
    "play2": CardsDealt(1, False, {}, False, (), "dealer"),
    "settle": HandSettled("t", 1, "banker", 0, 9, (), False, "MOP"),
    "void": HandVoided("t", 1, "misdeal", (), "dealer", "MOP"),
    "other": contract.SeedCommitted("shoe:1", "00"),
}


@given(st.lists(st.sampled_from(sorted(KINDS)), max_size=40))
def test_rounds_partition_the_marked_events(names: list[str]) -> None:
    """Every event an engine marks lies in exactly one round; rounds are in order, apart,
    numbered from 1; each ended round ends at its settle or void event; only the last one
    may be under way, and it runs to the journal's end."""
    events = [KINDS[n] for n in names]
    rounds = contract.rounds(events)
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))
    for a, b in itertools.pairwise(rounds):
        assert a.last < b.first
        assert a.status != "under way"
    marked = [i for i, n in enumerate(names) if n != "other"]
    inside = [i for i in marked if any(r.first <= i <= r.last for r in rounds)]
    assert inside == marked
    for r in rounds:
        assert names[r.first] != "other"  # a round opens at a marked event
        if r.status == "under way":
            assert r.last == len(events) - 1 and r is rounds[-1]
        else:
            assert names[r.last] == ("settle" if r.status == "settled" else "void")
            assert all(names[i] not in ("settle", "void") for i in range(r.first, r.last))


def _table(hands: int, end_shoe: bool) -> BaccaratTable:
    t = BaccaratTable(BaccaratRules(decks=6), table_id="t")
    rng = Rng.seeded("rounds")
    t.execute(Command(ALICE, "sit", {"seat": 1, "amount": 100_000}))
    seed = Rng.seeded("seed").permutation(256)[:32]
    t.execute(Command(Actor.DEALER, "shuffle", {"seed": bytes(seed).hex()}), rng)
    t.execute(Command(ALICE, "cut", {"from_end": 20}))
    for _ in range(hands):
        t.execute(Command(ALICE, "place_bet", {"bet": "banker", "amount": 10_000}))
        t.execute(Command(Actor.DEALER, "deal"))
        for b in t.bets:
            t.execute(Command(Actor.player(b.player), "withdraw_bet", {"bet": str(b.kind)}))
    if end_shoe:
        t.execute(Command(Actor.DEALER, "end_shoe"))
    return t


def test_a_baccarat_journal_has_one_round_per_hand() -> None:
    t = _table(3, end_shoe=True)
    rounds = contract.rounds(t.journal.events)
    assert [r.status for r in rounds] == ["settled"] * 3
    for r in rounds:
        assert isinstance(t.journal.events[r.first], BetPlaced)
        assert isinstance(t.journal.events[r.last], HandSettled)
    assert contract._ROUND_MARKS["baccarat.hand_voided"] is RoundMark.VOID


def test_replay_step_by_step_stops_at_a_seed_not_revealed_only_when_asked() -> None:
    t = _table(2, end_shoe=False)
    journal = Journal.from_json(t.journal.to_json())
    assert not any(isinstance(e, SeedRevealed) for e in journal.events)
    run = Replay(journal, open_table)
    # the join replays; the shuffle's seed is secret: the steps stop there
    assert [s.command.op for s in run.steps(partial=True)] == ["sit"]
    assert run.waiting is not None and "not revealed" in run.waiting
    first_shuffle = next(i for i, e in enumerate(journal.events) if "shuffled" in e.kind)
    assert run.done == first_shuffle == 2
    with pytest.raises(SeedNotRevealed) as err:
        contract.replay(journal, open_table)
    assert err.value.entry == first_shuffle
    assert isinstance(err.value, ReplayMismatch)


def test_replay_steps_name_each_operation_and_its_events() -> None:
    t = _table(2, end_shoe=True)
    journal = Journal.from_json(t.journal.to_json())
    run = Replay(journal, open_table)
    steps = list(run.steps())
    assert run.done == len(journal) and run.waiting is None
    assert [s.command.op for s in steps][:3] == ["sit", "shuffle", "cut"]
    assert steps[-1].command.op == "end_shoe"
    covered = [i for s in steps for i in range(s.first, s.last + 1)]
    assert covered == list(range(1, len(journal)))  # entry 0 opens the table
    for s in steps:
        assert [e.to_json() for e in s.events] == [
            journal.events[i].to_json() for i in range(s.first, s.last + 1)
        ]
    assert run.engine.journal.head == journal.head
