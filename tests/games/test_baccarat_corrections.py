"""Supervisor corrections at a live baccarat table (the contract's
``table.round_voided`` / ``table.round_corrected``): a mis-keyed card of the last hand
corrected to cards the shoe can hold (BA-1) and the hand re-derived and re-settled by the
rules (BA-9, BA-11 … BA-18); the last hand settled voided, every bet refunded and its cards
kept out of the shoe (BA-R3); replay re-runs them and demands the same events; the money
follows the right history."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, OutOfOrder
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import MOP, Money
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    Card,
    CardsKeyed,
    HandVoided,
    KeyedShoe,
    full_set,
    replay_baccarat,
)
from macau_tables.games.contract import Actor, Command, RoundCorrected, RoundVoided

SAM, ANN = Actor.supervisor("sam"), Actor.supervisor("ann")
D = Actor.DEALER
BUY_IN = 100_000
MAIN, SIDE = 20_000, 10_000  # BA-13: the table minimum is MOP 100
CARD = st.sampled_from([str(c) for c in full_set(1)])


def table(decks: int = 8) -> BaccaratTable:
    t = BaccaratTable(BaccaratRules(decks=decks), table_id="t")
    for seat, name in enumerate(("alice", "bob"), start=1):
        run(t, Actor.player(name), "join", seat=seat, buy_in=BUY_IN)
    run(t, D, "open_shoe")
    run(t, D, "cut", from_end=14)
    return t


def run(t: BaccaratTable, actor: Actor, op: str, **args: Any) -> Any:
    return t.execute(Command(actor, op, args))


def bets(t: BaccaratTable) -> None:
    """Each player's bets of a hand: Player and Banker (BA-11), Tie (BA-12), a pair (BA-13)."""
    for name, main, side in (("alice", "player", "tie"), ("bob", "banker", "player_pair")):
        run(t, Actor.player(name), "place_bet", bet=main, amount=MAIN)
        run(t, Actor.player(name), "place_bet", bet=side, amount=SIDE)


def deal(t: BaccaratTable, cards: list[str]) -> int:
    """The dealer keys in the deal's four cards (BA-7.1); returns the seq of the key-in."""
    seq = len(t.journal)
    run(t, D, "deal", cards=cards)
    return seq


def draws(t: BaccaratTable, cards: list[str]) -> list[str]:
    """The dealer keys in each third card the rules ask for (BA-9), from ``cards``; returns
    the cards he keyed."""
    keyed: list[str] = []
    while t.third_card_due() is not None:
        keyed.append(cards[len(keyed)])
        run(t, D, "draw", card=keyed[-1])
    return keyed


def preload(t: BaccaratTable, card: str, n: int) -> None:
    """Hands without bets that key ``card`` in ``n`` times (tens, each once, for the rest)."""
    tens = iter(f"{r}{s}" for r in "TJQK" for s in "cdhs")
    while n > 0:
        k = min(n, 4)
        n -= k
        deal(t, [card] * k + [next(tens) for _ in range(4 - k)])
        draws(t, [next(tens), next(tens)])


def correct(t: BaccaratTable, of_seq: int, **args: Any) -> Any:
    return run(
        t, ANN, "correct_round", of_seq=of_seq, args=args, reason="video", request=1,
        requested_by="sam",
    )  # fmt: skip


def void(t: BaccaratTable) -> Any:
    return run(t, ANN, "void_round", reason="video", request=2, requested_by="sam")


def ledger(t: BaccaratTable) -> Ledger:
    led = Ledger()
    for name in ("alice", "bob"):
        led.post(Transaction.transfer(CAGE, f"player:{name}", Money(10**6, MOP)))
    return Ledger.project(t.journal.events, led)


def state(t: BaccaratTable) -> dict[str, Any]:
    """What the players and the cage see, hold ids aside (a re-issued hold is renamed)."""
    led = ledger(t)
    assert isinstance(t.shoe, KeyedShoe)
    return {
        "stacks": dict(t.stacks),
        "holds": sorted((b.player, str(b.kind), b.amount.minor, b.carried) for b in t.holds),
        "open_holds": len(led.open_holds),
        "balances": {a: m.minor for a, m in led.balances().items() if m.minor},
        "phase": t.phase,
        "hand": None if t.hand is None else (t.hand.player, t.hand.banker, t.hand.number),
        "results": [(r.player_cards, r.banker_cards, r.outcome) for r in t.results],
        "position": t.position,
        "keyed": t.shoe.keyed(),
        "due": t.third_card_due(),
    }


def test_ba_9_a_mis_keyed_natural_corrected_is_re_dealt_and_re_settled_by_the_rules() -> None:
    """The dealer keyed 9h (a Player natural 9, BA-8.1 … BA-11: Player wins); the card was
    4h: Player 4 must draw (BA-9.1), so the correction reverses the settlement and the hand
    waits for the third card; the 9h goes back to what the shoe holds."""
    t = table(decks=6)
    preload(t, "9h", 4)
    bets(t)
    wrong = deal(t, ["9h", "2c", "Kd", "5s"])  # the fifth 9h of six
    assert t.phase is BaccaratPhase.BETTING and t.stacks["alice"] == BUY_IN + MAIN - SIDE
    (ev,) = correct(t, wrong, cards=["4h", "2c", "Kd", "5s"])
    assert isinstance(ev, RoundCorrected) and ev.approved_by == "ann" and ev.op == "deal"
    # the settlement reversed: every stake back on the layout, under re-issued holds
    assert t.phase is BaccaratPhase.DEALING and t.third_card_due() is not None
    assert sorted(t_id for _, t_id in ev.aliases) == sorted(b.id for b in t.holds)
    assert all("~" in b.id for b in t.holds) and len(t.holds) == 4
    assert t.stacks == {"alice": BUY_IN - MAIN - SIDE, "bob": BUY_IN - MAIN - SIDE}
    assert isinstance(t.shoe, KeyedShoe) and t.shoe.keyed().count(Card.parse("9h")) == 4
    draws(t, ["Ks"])  # Player 4 + 0 = 4; Banker 7 stands (BA-9.3): Banker wins
    right = table(decks=6)
    preload(right, "9h", 4)
    bets(right)
    deal(right, ["4h", "2c", "Kd", "5s"])
    draws(right, ["Ks"])
    assert state(t) == state(right)
    assert (
        t.stacks["bob"] == BUY_IN + MAIN * 95 // 100 - SIDE
    )  # BA-18: 5% commission on the Banker win
    assert ledger(t).open_holds == frozenset()  # the re-issued holds settled once
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()
    bets(t)
    deal(t, ["9h", "9h", "Qd", "4s"])  # BA-1: the fifth 9h is in the shoe again


def test_ba_1_the_corrected_cards_must_be_ones_the_shoe_can_hold() -> None:
    t = table(decks=6)
    preload(t, "As", 6)
    bets(t)
    wrong = deal(t, ["9h", "2d", "Kc", "6s"])
    before = (len(t.journal), state(t))
    with pytest.raises(InvalidInput) as exc:
        correct(t, wrong, cards=["As", "2d", "Kc", "6s"])  # six decks hold six As
    assert exc.value.rule == "BA-1"
    with pytest.raises(InvalidInput):
        correct(t, wrong, cards=["9h", "2d", "Kc"])  # BA-7.1: four cards
    with pytest.raises(InvalidInput):
        correct(t, wrong, dice=[5, 6])
    assert (len(t.journal), state(t)) == before  # nothing recorded


def test_a_keyed_third_card_is_corrected_and_only_the_last_hand() -> None:
    t = table()
    bets(t)
    deal(t, ["2c", "Kh", "3d", "Qs"])  # Player 5 draws, Banker 0 draws (BA-9)
    first = len(t.journal)
    draws(t, ["4h", "5d"])  # Player 9, Banker 5: Player wins
    (ev,) = correct(t, first, card="Kh")  # the Player's third card was a king: Player 5
    assert isinstance(ev, RoundCorrected) and ev.args == {"card": "Kh"}
    fixed_at = len(t.journal) - 1  # the corrected key-in stands here now
    with pytest.raises(OutOfOrder, match="as it stands"):
        correct(t, first, card="4h")
    assert t.results[-1].player_total == 5 and t.results[-1].banker_total == 5
    assert t.results[-1].outcome == "T"  # BA-12: Tie pays 8 to 1; Player and Banker push
    assert t.stacks["alice"] == BUY_IN - MAIN - SIDE + SIDE + 8 * SIDE
    with pytest.raises(OutOfOrder):  # the same supervisor may not approve his own request
        run(t, SAM, "correct_round", of_seq=first, args={"card": "4h"}, reason="x", request=3,
            requested_by="sam")  # fmt: skip
    with pytest.raises(OutOfOrder):  # a dealer does not correct
        run(t, D, "correct_round", of_seq=first, args={"card": "4h"}, reason="x", request=3,
            requested_by="sam")  # fmt: skip
    assert t.can_correct_round(ANN, fixed_at, {"card": "4h"}, "sam")
    bets(t)
    assert t.can_correct_round(ANN, fixed_at, {"card": "4h"}, "sam") is False
    with pytest.raises(OutOfOrder, match="last hand"):
        correct(t, fixed_at, card="4h")
    with pytest.raises(OutOfOrder):
        correct(t, 1, card="4h")  # not a keyed card
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()


def test_ba_r3_a_settled_hand_voided_refunds_every_bet_and_keeps_its_cards_out() -> None:
    t = table(decks=6)
    preload(t, "9h", 4)
    bets(t)
    deal(t, ["9h", "2c", "9h", "5s"])  # Player 8, Banker 7: naturals
    keyed, position = t.shoe.keyed(), t.position  # type: ignore[attr-defined]
    (ev,) = void(t)
    assert isinstance(ev, RoundVoided) and ev.aliases == ()
    assert t.stacks == {"alice": BUY_IN, "bob": BUY_IN}
    assert t.results[-1].outcome == "V" and t.holds == []
    assert ledger(t).open_holds == frozenset()
    assert t.shoe.keyed() == keyed and t.position == position  # type: ignore[attr-defined]
    with pytest.raises(OutOfOrder):
        void(t)  # voided already
    bets(t)
    with pytest.raises(InvalidInput) as exc:
        deal(t, ["9h", "3c", "Qd", "4s"])  # BA-R3: the voided hand's 9h stay out
    assert exc.value.rule == "BA-1"
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()


def test_ba_10_a_hand_being_dealt_is_voided_by_the_rules_own_void() -> None:
    t = table()
    bets(t)
    deal(t, ["2c", "Kh", "3d", "Qs"])  # waits for the Player's third card
    events = void(t)
    assert [type(e) for e in events] == [HandVoided]
    assert events[0].by == "supervisor:ann" and "request 2 by sam" in events[0].reason
    assert t.stacks == {"alice": BUY_IN, "bob": BUY_IN}
    with pytest.raises(OutOfOrder):
        void(t)  # nothing left to void: no hand settled since
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()


def _key_hand(t: BaccaratTable, cards: list[str], extra: list[str]) -> tuple[int, list[str]]:
    bets(t)
    seq = deal(t, cards)
    return seq, draws(t, extra)


HAND = st.lists(CARD, min_size=4, max_size=4)
EXTRA = st.lists(CARD, min_size=2, max_size=2)


@settings(max_examples=60, deadline=None)
@given(HAND, EXTRA, HAND, EXTRA, HAND, EXTRA)
@example(  # a natural keyed, a tie the truth: the pushed bets' holds re-issued
    ["9h", "2c", "Kd", "5s"], ["Ah", "Ah"], ["7h", "2c", "Kd", "5s"], ["Ah", "Ah"],
    ["2c", "3c", "4c", "5c"], ["6c", "7c"],
)  # fmt: skip
def test_a_corrected_hand_leaves_the_table_as_if_the_right_cards_were_keyed(
    wrong: list[str],
    wrong_extra: list[str],
    fixed: list[str],
    fixed_extra: list[str],
    after: list[str],
    after_extra: list[str],
) -> None:
    """The dealer keyed ``wrong`` (and the third cards the rules asked for); the supervisor
    corrects the deal to ``fixed``: the table is the one whose dealer keyed ``fixed`` and
    the same third cards as far as the rules take them, then drew what was still due —
    stacks, holds, ledger and shoe — and the next hand plays on the same."""
    assume(
        max(Counter(wrong + wrong_extra + fixed + fixed_extra + after + after_extra).values()) <= 8
    )
    t = table()
    seq, drawn = _key_hand(t, wrong, wrong_extra)
    correct(t, seq, cards=fixed)
    right = table()
    bets(right)
    deal(right, fixed)
    kept = draws(right, drawn + fixed_extra)
    draws(t, kept[len(drawn) :] if len(kept) > len(drawn) else [])
    assert state(t) == state(right)
    for u in (t, right):
        _key_hand(u, after, after_extra)
    assert state(t) == state(right)
    assert ledger(t).open_holds == {b.id for b in t.holds}  # a hold per bet on the layout
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()


@settings(max_examples=40, deadline=None)
@given(HAND, EXTRA, st.booleans())
def test_a_voided_hand_refunds_every_bet_of_it(
    cards: list[str], extra: list[str], settled_first: bool
) -> None:
    """Whatever the hand: after the void every stack is what it was before its bets, no hold
    is open, and the hand's cards are still out of the shoe (BA-R3)."""
    t = table()
    bets(t)
    run(t, D, "deal", cards=cards)
    if settled_first:
        draws(t, extra)
    keyed = t.shoe.keyed()  # type: ignore[attr-defined]
    void(t)
    assert t.stacks == {"alice": BUY_IN, "bob": BUY_IN}
    assert ledger(t).open_holds == frozenset() and t.holds == []
    assert t.shoe.keyed() == keyed  # type: ignore[attr-defined]
    assert t.phase is BaccaratPhase.BETTING
    assert replay_baccarat(t.journal).snapshot() == t.snapshot()


def test_the_keyed_event_is_named_as_it_stands() -> None:
    """A correction names a keyed card: a bet, a non-event or a bad number is refused."""
    t = table()
    bets(t)
    seq = deal(t, ["9h", "2c", "Kd", "5s"])
    assert isinstance(t.journal.events[seq], CardsKeyed)
    for bad in (seq + 1, -1, 10**6, True):
        with pytest.raises((OutOfOrder, InvalidInput)):
            correct(t, bad, cards=["4h", "2c", "Kd", "5s"])


def test_the_views_roads_follow_a_voided_hand() -> None:
    """(The view keeps the roads' JSON per shoe and hands recorded: a void leaves as many
    hands recorded, the voided one now out of the roads.)"""
    t = table(decks=6)
    preload(t, "9h", 4)
    bets(t)
    deal(t, ["9h", "2c", "9h", "5s"])  # Player 8, Banker 7
    before = t.view(Viewer.SUPERVISOR)["roads"]
    void(t)
    after = t.view(Viewer.SUPERVISOR)["roads"]
    assert after != before and after == t.roads().to_json()
