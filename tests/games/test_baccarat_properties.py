"""Invariants over random shoes (hypothesis): money conserved, no card dealt twice, the
cut-card rule (BA-2.1, BA-3.1) honoured, replay identical."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from macau_tables.core.journal import Journal, replay
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import (
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    Card,
    LastHand,
    TieChoice,
    full_set,
)
from tests.games.baccarat_helpers import ledger_of

KINDS = list(BaccaratBetKind)


@st.composite
def table_options(draw: st.DrawFn) -> BaccaratRules:
    return BaccaratRules(
        decks=draw(st.integers(6, 12)),
        cut_from_end=draw(st.integers(12, 60)),
        last_hand=draw(st.sampled_from(list(LastHand))),
        no_commission=draw(st.booleans()),
        squeeze=draw(st.booleans()),
        demonstration_hands=draw(st.integers(0, 3)),
        tie_choices=draw(
            st.sampled_from(
                [
                    frozenset({TieChoice.WITHDRAW, TieChoice.KEEP, TieChoice.CHANGE}),
                    frozenset({TieChoice.KEEP, TieChoice.INCREASE}),
                    frozenset({TieChoice.WITHDRAW}),
                ]
            )
        ),
    )


def _play_shoe(rules: BaccaratRules, seed: int, bets: list[tuple[int, int, int]]) -> BaccaratTable:
    t = BaccaratTable(rules)
    t.sit("alice", Money.of(50_000), seat=1)
    t.sit("bob", Money.of(50_000), seat=4)
    t.sit("carol", Money.of(50_000))
    rng = Rng.seeded(str(seed), "prop")
    t.start_shoe(rng)
    i = 0
    while t.phase is not BaccaratPhase.SHUFFLE:
        if t.phase is BaccaratPhase.BETTING:
            who, kind, amount = bets[i % len(bets)]
            i += 1
            player = ("alice", "bob", "carol")[who]
            money = Money.of(amount * 100)
            if t.can_place_bet(player, KINDS[kind], money):
                t.place_bet(player, KINDS[kind], money)
        t.play_hand()
        if i % 7 == 3 and t.bets and t.can_change_bet(t.bets[0].player, t.bets[0].kind, Money(0)):
            b = t.bets[0]
            t.withdraw_bet(b.player, b.kind, b.spot)
    money = ledger_of(t)
    assert money.total().is_zero()
    assert money.balance("wagers:baccarat-1") == sum((b.amount for b in t.bets), Money.zero())
    return t


BETS = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 4), st.integers(1, 20)), min_size=1, max_size=8
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=table_options(), seed=st.integers(0, 10**6), bets=BETS)
def test_random_shoes_invariants(rules: BaccaratRules, seed: int, bets: list) -> None:  # type: ignore[type-arg]
    t = _play_shoe(rules, seed, bets)

    # money conserved: every transaction balanced, chips = what came from the wallets
    money = ledger_of(t)
    assert money.total().is_zero()
    players = sum((t.balance(p) for p in ("alice", "bob", "carol")), Money.zero())
    house = money.balance("house:baccarat-1") + money.balance("commission:baccarat-1")
    stakes = money.balance("wagers:baccarat-1")
    assert players + house + stakes == Money.of(150_000)
    for p in ("alice", "bob", "carol"):
        assert money.balance(f"stack:baccarat-1:{p}") == t.balance(p)

    # no card dealt twice: the hands' cards, in order, are the shoe after the burns
    dealt: list[Card] = []
    for r in t.results:
        cards = [r.player_cards[0], r.banker_cards[0], r.player_cards[1], r.banker_cards[1]]
        dealt += cards + list(r.player_cards[2:]) + list(r.banker_cards[2:])
    assert dealt == list(t.shoe[t.position - len(dealt) : t.position])
    assert t.position - len(dealt) == t.discards - len(dealt)  # burned
    assert not Counter(dealt) - Counter(full_set(rules.decks))

    # the cut card (BA-2.1, BA-3.1): ≥ 12 cards behind it; at most one more hand after it
    assert len(t.shoe) - t.cut_index >= 12  # type: ignore[operator]
    hands_behind = {r.number for r in t.results}
    out_hands = [
        ev.to_json()["data"]["hand"]
        for ev in t.journal.events
        if ev.kind == "baccarat.cards_dealt" and ev.to_json()["data"]["cut_card_out"]
    ]
    third_out = [ev for ev in t.journal.events if ev.kind == "baccarat.third_card_dealt"]
    assert len(out_hands) + sum(e.to_json()["data"]["cut_card_out"] for e in third_out) == 1
    last = max(hands_behind)
    cut_hand = max(
        [*out_hands, *[_hand_of(t, e) for e in third_out if e.to_json()["data"]["cut_card_out"]]]
    )
    assert last - cut_hand == (1 if rules.last_hand is LastHand.ONE_MORE else 0)
    assert t.cards_left() >= 0

    # replay identical, through JSON (the shoe is over: its seed is revealed)
    again = replay(Journal.from_json(t.journal.to_json()))
    assert isinstance(again, BaccaratTable)
    assert again.snapshot() == t.snapshot()


def _hand_of(t: BaccaratTable, ev: object) -> int:
    hand = 0
    for e in t.journal.events:
        if e.kind == "baccarat.cards_dealt":
            hand = e.to_json()["data"]["hand"]  # type: ignore[assignment]
        if e is ev:
            return hand
    raise AssertionError


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_continuous_shuffler_invariants(seed: int) -> None:
    """BA-R4: each hand from the full set; never more copies of a card than the decks hold."""
    t = BaccaratTable(BaccaratRules(decks=6, continuous_shuffler=True))
    t.sit("alice", Money.of(10_000), seat=2)
    rng = Rng.seeded(str(seed), "csm")
    t.shuffle(rng)
    for _ in range(15):
        t.place_bet("alice", BaccaratBetKind.TIE, Money.of(100))
        t.play_hand(rng)
        res = t.results[-1]
        in_hand = Counter(res.player_cards + res.banker_cards)
        assert max(in_hand.values()) <= 6
    assert ledger_of(t).total().is_zero()
    t.end_shoe()  # the machine's seed is revealed
    again = replay(t.journal)
    assert isinstance(again, BaccaratTable)
    assert again.snapshot() == t.snapshot()
