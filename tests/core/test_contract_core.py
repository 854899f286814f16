"""The shared pieces of the engine contract: holds, audiences, per-event generators, actors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import (
    HoldError,
    InsufficientFunds,
    InvalidInput,
    UnbalancedPostings,
)
from macau_tables.core.ledger import CAGE, Ledger, Movement, Transaction
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Audience, Viewer
from macau_tables.games.contract import Actor, Pending, Role, accounts, time_out


def _bet(hold: str, minor: int) -> Movement:
    tx = Transaction.transfer("stack:t1:alice", "wagers:t1", Money(minor), memo=hold)
    return Movement(tx, opens=(hold,))


def _settle(hold: str, minor: int) -> Movement:
    tx = Transaction.transfer("wagers:t1", "stack:t1:alice", Money(minor), memo=hold)
    return Movement(tx, closes=(hold,))


def _funded() -> Ledger:
    ledger = Ledger()
    ledger.post(Transaction.transfer(CAGE, "stack:t1:alice", Money(1000)))
    return ledger


def test_a_hold_is_placed_once_and_settled_once() -> None:
    ledger = _funded()
    ledger.move(_bet("b1", 100))
    assert ledger.open_holds == {"b1"}
    with pytest.raises(HoldError, match="already placed"):
        ledger.move(_bet("b1", 100))
    ledger.move(_settle("b1", 100))
    assert ledger.open_holds == frozenset()
    with pytest.raises(HoldError, match="already settled"):
        ledger.move(_settle("b1", 100))
    with pytest.raises(HoldError, match="never placed"):
        ledger.move(_settle("b2", 0))
    assert ledger.balance("stack:t1:alice") == Money(1000)


def test_a_refused_movement_changes_nothing() -> None:
    ledger = _funded()
    with pytest.raises(InsufficientFunds):
        ledger.move(_bet("b1", 5000))  # a stack may not go below zero
    assert ledger.open_holds == frozenset()
    ledger.move(_bet("b1", 1000))  # the hold id was not consumed by the refusal
    assert ledger.balance("stack:t1:alice") == Money(0)


@given(st.lists(st.integers(0, 300), max_size=20))
def test_projection_conserves_money(stakes: list[int]) -> None:
    ledger = _funded()
    for i, stake in enumerate(stakes):
        if ledger.balance("stack:t1:alice").minor >= stake:
            ledger.move(_bet(f"b{i}", stake))
            ledger.move(_settle(f"b{i}", stake))
    assert ledger.total() == Money(0)
    assert ledger.open_holds == frozenset()


def test_audiences() -> None:
    alice, bob = Viewer.player("alice"), Viewer.player("bob")
    private = Audience.private("alice")
    assert private.admits(alice)
    assert not private.admits(bob)
    assert not private.admits(Viewer.PUBLIC)
    assert private.admits(Viewer.DEALER)
    assert not Audience.private("alice", staff=False).admits(Viewer.DEALER)
    assert Audience.private("alice", staff=False).admits(Viewer.SUPERVISOR)
    assert Audience.PUBLIC.admits(Viewer.PUBLIC)
    assert not Audience.STAFF.admits(alice)
    with pytest.raises(InvalidInput):
        Viewer.player("")


def test_for_event_depends_on_seed_table_and_label_only() -> None:
    seed = bytes(range(32))
    a = Rng.for_event(seed, "bac-1", "shoe:3").permutation(52)
    assert a == Rng.for_event(seed, "bac-1", "shoe:3").permutation(52)
    assert a != Rng.for_event(seed, "bac-2", "shoe:3").permutation(52)
    assert a != Rng.for_event(seed, "bac-1", "shoe:4").permutation(52)
    with pytest.raises(InvalidInput):
        Rng.for_event(b"short", "bac-1", "shoe")


def test_actors_parse_and_print() -> None:
    for text in ("player:alice", "dealer", "dealer:ann", "supervisor:sam", "system"):
        assert str(Actor.parse(text)) == text
    assert Actor.parse("player:alice").role is Role.PLAYER
    for bad in ("player:", "boss:x", "system:x", "player:a b"):
        with pytest.raises(InvalidInput):
            Actor.parse(bad)


def test_time_out_needs_a_default() -> None:
    p = Pending(Actor.player("alice"), ("set_tiles",), default="set_tiles", rule="PG-R10")
    cmd = time_out(p)
    assert cmd.actor == Actor.SYSTEM
    assert cmd.args == {"actor": "player:alice", "op": "set_tiles"}
    with pytest.raises(InvalidInput):
        time_out(Pending(Actor.player("alice"), ("place_bet",), required=False))


def test_account_scheme_names_the_table() -> None:
    assert accounts.stack("t1", "alice") == "stack:t1:alice"
    assert accounts.wagers("t1") == "wagers:t1"
    with pytest.raises(InvalidInput):
        accounts.wallet("a:b")


_ACCOUNTS = st.sampled_from(["stack:t-1:alice", "wagers:t-1", "house:t-1", "player:bob", CAGE])


@given(st.lists(st.tuples(_ACCOUNTS, st.integers(-1_000, 1_000)), max_size=8))
def test_an_events_movement_is_the_transaction_of_its_postings(
    pairs: list[tuple[str, int]],
) -> None:
    """``contract.movement`` merges the plain pairs itself (each posting built once): the
    same transaction as ``Transaction.of`` over the postings, accounts in first-seen order,
    zero nets dropped; an unbalanced one, a bad account or a non-int refused alike."""
    from macau_tables.core.ledger import Posting
    from macau_tables.core.money import MOP
    from macau_tables.games.contract import movement

    pairs = [*pairs, (CAGE, -sum(m for _, m in pairs))]
    expected = Transaction.of((Posting(a, Money(m, MOP)) for a, m in pairs), "memo")
    got = movement(MOP, pairs, opens=["b1"], memo="memo")
    assert got == Movement(expected, ("b1",), ())
    with pytest.raises(InvalidInput):
        movement(MOP, [*pairs, ("Not An Account", 0)])
    with pytest.raises(TypeError):
        movement(MOP, [*pairs, (CAGE, True)])
    if pairs[0][1]:  # unbalanced by one posting's amount
        with pytest.raises(UnbalancedPostings):
            movement(MOP, pairs[1:])
