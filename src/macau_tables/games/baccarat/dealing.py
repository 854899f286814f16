"""The dealer's part of a baccarat hand, in the order the rules deal it: BA-7.1 the deal
(Player, Banker, Player, Banker; face up from a continuous shuffler, BA-7.2, BA-R4), the
reveals (BA-7.1 Player first; BA-16 a holder squeezes), BA-9 the third cards, and the
settlement (BA-11 … BA-18) with the end of the shoe after its last hand (BA-3.1).

Each function decides the next events from the table's state and journals them through
the table (its ``_emit``: applied and journalled); it stops where a
participant must act — a holder's squeeze, or a third card the dealer keys in from a
physical shoe.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from macau_tables.core.rng import Rng
from macau_tables.games.baccarat.bets import squeeze_holders
from macau_tables.games.baccarat.cards import Card, KeyedShoe, full_set
from macau_tables.games.baccarat.events import (
    CardsBurned,
    CardsDealt,
    CardsRevealed,
    HandSettled,
    ThirdCardDealt,
)
from macau_tables.games.baccarat.hand import Hand, Step, next_step, outcome, settle_bet, total
from macau_tables.games.baccarat.rules import BaccaratPhase, LastHand, Side
from macau_tables.games.baccarat.state import BaccaratState
from macau_tables.games.contract import Actor

__all__ = [
    "DEALER",
    "SYSTEM",
    "advance",
    "after_hand",
    "deal",
    "machine_card",
    "reveal",
    "settle",
    "third_card_due",
]

SYSTEM = str(Actor.SYSTEM)
DEALER = str(Actor.DEALER)


def machine_card(t: BaccaratState, hand: int, k: int, in_hand: Sequence[Card]) -> Card:
    """BA-R4: the continuous shuffler's ``k``-th card of a hand, from the full set less
    the hand's cards, chosen by the shoe's seed (``Rng.for_event``, label
    ``shoe:<n>:hand:<h>:card:<k>``)."""
    assert t.shoe_commitment is not None
    seed = t.seed_vault()[t.shoe_commitment]
    rng = Rng.for_event(seed, t.table_id, f"shoe:{t.shoe_number}:hand:{hand}:card:{k}")
    pool = Counter(full_set(t.rules.decks))
    pool.subtract(in_hand)
    cards = sorted(pool.elements())
    return cards[rng.below(len(cards))]


def deal(t: BaccaratState, by: Actor) -> None:
    """BA-7.1: two cards each, one at a time, Player first; BA-16 the holders named (none in
    a demonstration, BA-2.2); BA-3.1 whether the cut card comes out in this deal. Then the
    hand goes on (:func:`advance`)."""
    demo = t.phase is BaccaratPhase.DEMONSTRATION
    holders = {
        str(k): None if demo else v for k, v in squeeze_holders(t.rules, t.bets, t.seats).items()
    }
    number = t.hand_number + 1
    cards: tuple[str, ...] = ()
    if t.rules.continuous_shuffler:
        dealt: list[Card] = []
        for k in range(4):
            dealt.append(machine_card(t, number, k, dealt))
        cards = tuple(str(c) for c in dealt)
    out_now = not t.cut_card_out and t.cut_index is not None and t.position + 4 > t.cut_index
    t._emit(CardsDealt(number, demo, holders, out_now, cards, str(by)))
    advance(t)


def third_card_due(t: BaccaratState) -> Side | None:
    """From a physical shoe: the side whose third card (BA-9) the dealer must key in now."""
    if t.hand is None or not isinstance(t.shoe, KeyedShoe):
        return None
    what, side = next_step(t.hand)
    if what is not Step.DRAW or t.shoe.known(t.position):
        return None
    return side


def advance(t: BaccaratState) -> None:
    """The dealer's part of a hand, by the rules, until a holder must act or it ends."""
    while (h := t.hand) is not None:
        what, side = next_step(h)
        if what is Step.REVEAL:
            assert side is not None
            if h.holders.get(side):
                return  # BA-16: the holder squeezes (or times out)
            reveal(t, side, DEALER)
        elif what is Step.DRAW:
            assert side is not None
            if third_card_due(t) is not None:
                return  # a physical shoe: the dealer keys the third card in (draw)
            _draw(t, h, side)
        else:
            settle(t)


def reveal(t: BaccaratState, side: Side, by: str) -> None:
    """BA-7.1 / BA-16 / BA-R6: a side's face-down cards opened (a third card on its own)."""
    h = t.hand
    assert h is not None
    cards = h.cards(side)[-h.hidden[side] :]
    t._emit(CardsRevealed(str(side), by, tuple(str(c) for c in cards)))


def _draw(t: BaccaratState, h: Hand, side: Side) -> None:
    """BA-9: the third card the drawing rules require: face down to a holder, face up
    otherwise (and face up if it was exposed, BA-4)."""
    rule = "BA-9.1" if side is Side.PLAYER else "BA-9.3"
    if t.rules.continuous_shuffler:
        card = machine_card(t, h.number, len(h.player) + len(h.banker), h.player + h.banker)
        t._emit(ThirdCardDealt(str(side), str(card), rule, False))
        return
    card = t.shoe[t.position]
    comes_out = not t.cut_card_out and t.cut_index is not None and t.position >= t.cut_index
    face_up = t.exposed is not None or not h.holders.get(side)
    t._emit(ThirdCardDealt(str(side), str(card) if face_up else None, rule, comes_out))


def settle(t: BaccaratState) -> None:
    """BA-11 / BA-12 the result; BA-17 payouts; BA-18 commission; BA-3.1 the last hand."""
    h = t.hand
    assert h is not None
    pt, bt = total(h.player), total(h.banker)
    result = outcome(pt, bt)
    rows = (
        ()
        if h.demonstration
        else tuple(settle_bet(t.rules, b, h, result).to_json() for b in t.holds)
    )
    shoe_over = _last_hand(t, h)
    t._emit(HandSettled(t.table_id, h.number, str(result), pt, bt, rows, shoe_over, t._cur))
    after_hand(t)


def _last_hand(t: BaccaratState, h: Hand) -> bool:
    """BA-3.1: the hand the cut card came out in is the last (``last``), or one more hand
    is played (``one_more``). A cut card that came out between hands, in a burn (BA-4 /
    BA-8), counts for the next hand (BA-R1)."""
    if t.rules.continuous_shuffler or not t.cut_card_out or h.demonstration:
        return False
    if t.hands_left is None:  # the cut card came out in this hand (or before it: BA-R1)
        return t.rules.last_hand is LastHand.LAST
    return t.hands_left <= 1


def after_hand(t: BaccaratState) -> None:
    """After a hand: a card exposed during it and not drawn is burned (BA-4 / BA-8); the
    last hand ends the shoe and reveals its seed (BA-3.1)."""
    if t.shoe_over:
        t._finish_shoe("BA-3.1", Actor.SYSTEM)
    elif t.exposed is not None:
        t._emit(CardsBurned(1, "BA-8", str(t.exposed), SYSTEM))
