"""Ledger: balanced transactions, atomic posting, wallets that never go negative."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from macau_tables.core.errors import InsufficientFunds, InvalidInput, UnbalancedPostings
from macau_tables.core.ledger import CAGE, Ledger, Posting, Transaction, validate_account
from macau_tables.core.money import HKD, MOP, Money


def funded(**wallets: int) -> Ledger:
    """A ledger where each ``player:<name>`` bought in ``minor`` avos from the cage."""
    ledger = Ledger()
    for name, minor in wallets.items():
        ledger.post(Transaction.transfer(CAGE, f"player:{name}", Money(minor), "buy-in"))
    return ledger


# --- accounts ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name",
    ["cage", "player:alice", "bank:banker", "bank:house", "bank:cobank:bob", "house:commission"],
)
def test_good_account_names(name: str) -> None:
    assert validate_account(name) == name
    assert Posting(name, Money(1)).account == name


@pytest.mark.parametrize(
    "name", ["", "alice", "player:", ":alice", "Player:alice", "player:al ice", "player::x"]
)
def test_bad_account_names(name: str) -> None:
    with pytest.raises(InvalidInput):
        Posting(name, Money(1))
    with pytest.raises(InvalidInput):
        Ledger().balance(name)


def test_posting_amount_must_be_money() -> None:
    with pytest.raises(TypeError):
        Posting("player:alice", 100)  # type: ignore[arg-type]


# --- transactions --------------------------------------------------------------------


def test_unbalanced_postings_are_refused() -> None:
    with pytest.raises(UnbalancedPostings, match=r"MOP 0\.01"):
        Transaction((Posting("player:a", Money(101)), Posting(CAGE, Money(-100))), "pay")


def test_balance_is_per_currency() -> None:
    with pytest.raises(UnbalancedPostings):
        Transaction((Posting("player:a", Money(100)), Posting(CAGE, Money(-100, HKD))))
    tx = Transaction(
        (
            Posting("player:a", Money(100)),
            Posting(CAGE, Money(-100)),
            Posting("player:a", Money(-7, HKD)),
            Posting(CAGE, Money(7, HKD)),
        )
    )
    assert len(tx.postings) == 4


def test_transaction_is_frozen() -> None:
    tx = Transaction.transfer(CAGE, "player:a", Money(5))
    with pytest.raises(AttributeError):
        tx.memo = "x"  # type: ignore[misc]


def test_transfer() -> None:
    tx = Transaction.transfer("player:a", "bank:banker", Money(250), "lost bet")
    assert tx.postings == (Posting("player:a", Money(-250)), Posting("bank:banker", Money(250)))
    assert tx.memo == "lost bet"
    with pytest.raises(InvalidInput):
        Transaction.transfer("player:a", "bank:banker", Money(-1))
    with pytest.raises(InvalidInput):
        Transaction.transfer("player:a", "player:a", Money(1))


def test_of_merges_postings_per_account_and_drops_zeros() -> None:
    tx = Transaction.of(
        [
            Posting("player:a", Money(-100)),  # stake collected
            Posting("bank:banker", Money(100)),
            Posting("bank:banker", Money(-195)),  # stake back plus 0.95 win
            Posting("player:a", Money(195)),
            Posting("player:a", Money(-4)),  # commission
            Posting("house:commission", Money(4)),
            Posting("player:b", Money(0)),
        ],
        "settle",
    )
    assert tx.postings == (
        Posting("player:a", Money(91)),
        Posting("bank:banker", Money(-95)),
        Posting("house:commission", Money(4)),
    )
    assert tx.memo == "settle"


def test_of_still_refuses_unbalanced_postings() -> None:
    with pytest.raises(UnbalancedPostings):
        Transaction.of([Posting("player:a", Money(1))])


# --- ledger --------------------------------------------------------------------------


def test_post_moves_money_and_records_history() -> None:
    ledger = funded(alice=1000)
    tx = ledger.post(Transaction.transfer("player:alice", "bank:banker", Money(300), "bet"))
    assert ledger.balance("player:alice") == Money(700)
    assert ledger.balance("bank:banker") == Money(300)
    assert ledger.balance(CAGE) == Money(-1000)
    assert ledger.balance("player:nobody") == Money(0)
    assert ledger.history[-1] is tx
    assert len(ledger.history) == 2
    assert ledger.balances() == {
        "bank:banker": Money(300),
        "cage": Money(-1000),
        "player:alice": Money(700),
    }
    assert ledger.total() == Money(0)


def test_balances_are_kept_per_currency() -> None:
    ledger = Ledger()
    ledger.post(Transaction.transfer(CAGE, "player:a", Money(500, HKD)))
    assert ledger.balance("player:a", HKD) == Money(500, HKD)
    assert ledger.balance("player:a") == Money(0, MOP)
    assert ledger.balances() == {}
    assert ledger.balances(HKD) == {"cage": Money(-500, HKD), "player:a": Money(500, HKD)}
    assert ledger.total(HKD) == Money(0, HKD)


def test_player_wallet_may_reach_zero_but_not_below() -> None:
    ledger = funded(alice=500)
    ledger.post(Transaction.transfer("player:alice", "bank:banker", Money(500)))
    assert ledger.balance("player:alice") == Money(0)
    with pytest.raises(InsufficientFunds, match="player:alice"):
        ledger.post(Transaction.transfer("player:alice", "bank:banker", Money(1)))


def test_insufficient_funds_leaves_the_ledger_unchanged() -> None:
    ledger = funded(alice=500, bob=200)
    before, history = ledger.balances(), ledger.history
    # Alice's posting alone would be fine; Bob's makes the whole transaction fail.
    tx = Transaction.of(
        [
            Posting("player:alice", Money(-300)),
            Posting("player:bob", Money(-201)),
            Posting("bank:banker", Money(501)),
        ],
        "two bets",
    )
    assert not ledger.can_post(tx)
    with pytest.raises(InsufficientFunds, match="player:bob"):
        ledger.post(tx)
    assert ledger.balances() == before
    assert ledger.history == history


def test_a_wallet_may_pass_through_negative_within_one_transaction() -> None:
    """Only the balance after the whole transaction counts: postings are applied together."""
    ledger = funded(alice=100)
    tx = Transaction(
        (
            Posting("player:alice", Money(-150)),
            Posting("player:alice", Money(100)),
            Posting("bank:banker", Money(50)),
        )
    )
    assert ledger.can_post(tx)
    ledger.post(tx)
    assert ledger.balance("player:alice") == Money(50)


def test_bank_and_cage_may_go_negative() -> None:
    """Only player wallets are protected here; the bank's cap is the game's rule (PG-R4)."""
    ledger = Ledger()
    ledger.post(Transaction.transfer("bank:banker", "player:alice", Money(100)))
    assert ledger.balance("bank:banker") == Money(-100)
    assert ledger.total() == Money(0)


def test_post_needs_a_transaction() -> None:
    with pytest.raises(TypeError):
        Ledger().post(Posting("player:a", Money(1)))  # type: ignore[arg-type]


# --- property: money is conserved ----------------------------------------------------

PLAYERS = ["player:alice", "player:bob", "player:chen"]
OTHERS = ["bank:banker", "bank:house", "bank:cobank:dora", "house:commission", CAGE]
ACCOUNTS = PLAYERS + OTHERS
amounts = st.integers(0, 5_000)


@st.composite
def settlements(draw: st.DrawFn) -> list[Posting]:
    """Postings of one settlement: players win or lose, the bank takes the other side."""
    postings = [
        Posting(account, Money(draw(st.integers(-5_000, 5_000))))
        for account in draw(st.lists(st.sampled_from(ACCOUNTS), max_size=6))
    ]
    counterparty = draw(st.sampled_from(OTHERS))
    net = sum(p.amount.minor for p in postings)
    return [*postings, Posting(counterparty, Money(-net))]


operations = st.one_of(
    st.tuples(st.sampled_from(ACCOUNTS), st.sampled_from(ACCOUNTS), amounts)
    .filter(lambda t: t[0] != t[1])
    .map(lambda t: Transaction.transfer(t[0], t[1], Money(t[2]), "transfer")),
    settlements().map(lambda ps: Transaction.of(ps, "settlement")),
    settlements().map(lambda ps: Transaction(tuple(ps), "settlement")),
)


@given(st.lists(operations, max_size=40))
def test_money_is_conserved_over_any_sequence_of_transactions(txs: list[Transaction]) -> None:
    """Every transaction sums to zero; the ledger total stays zero; wallets stay >= 0;
    a refused transaction changes nothing."""
    ledger = funded(alice=3_000, bob=1_000)
    for tx in txs:
        assert sum(p.amount.minor for p in tx.postings) == 0
        before, history = ledger.balances(), ledger.history
        if ledger.can_post(tx):
            ledger.post(tx)
            assert ledger.history == (*history, tx)
            for p in Transaction.of(tx.postings).postings:
                assert ledger.balance(p.account) == before.get(p.account, Money(0)) + p.amount
        else:
            with pytest.raises(InsufficientFunds):
                ledger.post(tx)
            assert ledger.balances() == before
            assert ledger.history == history
        assert ledger.total() == Money(0)
        assert sum(b.minor for b in ledger.balances().values()) == 0
        assert all(ledger.balance(p) >= Money(0) for p in PLAYERS)
