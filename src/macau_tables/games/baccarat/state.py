"""A baccarat table's state (:class:`BaccaratState`, the base of ``BaccaratTable``) and what
each event does to it: :func:`apply_event`, the one place it changes (``apply``). The
operations decide and emit events; replay, a void's or a correction's rebuilt history and a
snapshot's restore apply the same events here.

BA-2.1 / BA-3 a new shoe, its cut card and burns; BA-3.1 the cut card coming out and the
last hand; BA-7.1 the deal; BA-9 a third card; BA-4 an exposed card; BA-12 … BA-15 the bets
on the layout; BA-10 / BA-R3 a void hand; BA-11 … BA-18 a settled hand; the limits a
supervisor changed, from the next hand.
"""

from __future__ import annotations

from collections.abc import Sequence

from macau_tables.core.errors import JournalError
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games import contract
from macau_tables.games.baccarat import bets as layout
from macau_tables.games.baccarat import events
from macau_tables.games.baccarat.cards import Card, KeyedShoe, full_set, parse_cards
from macau_tables.games.baccarat.hand import Bet, BetResult, Hand, HandOutcome, HandResult
from macau_tables.games.baccarat.rules import (
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    LastHand,
    Side,
    with_limits,
)
from macau_tables.games.contract import Actor, LimitsChanged
from macau_tables.games.kernel import Table

__all__ = ["BaccaratState", "apply_event"]


def apply_event(t: BaccaratState, ev: Event) -> None:
    """What ``ev`` does to the table's state (``BaccaratTable.apply``, the only place it
    changes)."""
    match ev:
        case (
            contract.TableOpened()
            | contract.SeedCommitted()
            | contract.SeedRevealed()
            | contract.TimedOut()
        ):
            pass
        case contract.LimitsChanged():
            t._next_limits = ev
            if not t.round_open:
                _limits_now(t)
        case contract.RoundVoided() | contract.RoundCorrected():
            pass  # the state follows the effective history (the kernel's _restate)
        case events.DealingErrorCorrected() | contract.Checkpoint():
            pass
        case events.PlayerJoined():
            t.seats[ev.player] = ev.seat
            t.stacks[ev.player] = ev.buy_in
        case events.ChipsBought():
            t.stacks[ev.player] += ev.amount
        case events.PlayerLeft():
            t.holds = [b for b in t.holds if b.id not in ev.returned]
            del t.seats[ev.player]
            del t.stacks[ev.player]
        case events.ShoeShuffled():
            seed = t._keyring.get(ev.commitment)
            if seed is None:
                raise JournalError(f"shoe {ev.shoe}: its server seed is not known")
            order: tuple[Card, ...] = ()
            if not t.rules.continuous_shuffler:
                rng = Rng.for_event(seed, t._table_id, f"shoe:{ev.shoe}")
                order = tuple(rng.shuffle(full_set(t.rules.decks)))
            _new_shoe(t, ev.shoe, order, ev.commitment)
        case events.ShoeLoaded():
            _new_shoe(t, ev.shoe, parse_cards(ev.cards), None)
        case events.ShoeOpened():
            _new_shoe(t, ev.shoe, KeyedShoe(t.rules.decks), None)
        case events.CardsKeyed():
            if not isinstance(t.shoe, KeyedShoe):
                raise JournalError("cards are keyed in only from a physical shoe")
            t.shoe.key(ev.position, parse_cards(ev.cards))
        case events.ShoeEnded():
            t.phase = BaccaratPhase.SHUFFLE
        case events.CutCardPlaced():
            t.cut_index = len(t.shoe) - ev.from_end
            t.phase = BaccaratPhase.BURN
        case events.CardsBurned():
            _take(t, ev.count)
            t.discards += ev.count
            t.burned_face_down += ev.count - (ev.shown is not None)
            if ev.shown is not None:
                t.seen.append(Card.parse(ev.shown))
            t.exposed = None
            if t.phase is BaccaratPhase.BURN:
                t.demonstrations_left = t.rules.demonstration_hands
                t.phase = (
                    BaccaratPhase.DEMONSTRATION if t.demonstrations_left else BaccaratPhase.BETTING
                )
        case events.BetPlaced():
            kind = BaccaratBetKind(ev.bet)
            ix = t._holds_ix
            carried = ix.carried(ev.player, kind, ev.spot)
            bet = Bet(ev.player, kind, t._money(ev.amount), ev.spot, carried, ev.bet_id)
            t.holds.append(bet)
            ix.add(bet)
            t.stacks[ev.player] -= ev.amount
            t.bets_placed += 1
            t.round_open = True
        case events.BetChanged():
            ix = t._holds_ix
            shut = set(ev.closes)
            closed = [b for b in t.holds if b.id in shut]
            carried = bool(closed) and all(b.carried for b in closed)
            t.holds[:] = [b for b in t.holds if b.id not in shut]  # the list the index reads
            for b in closed:
                ix.remove(b)
            if ev.bet_id is not None:
                bet = Bet(
                    ev.player,
                    BaccaratBetKind(ev.to_bet),
                    t._money(ev.amount),
                    ev.spot,
                    carried,
                    ev.bet_id,
                )
                t.holds.append(bet)
                ix.add(bet)
                t.bets_placed += 1
            t.stacks[ev.player] += ev.old_amount - ev.amount
            t.round_open = True
        case events.CardsDealt():
            _deal_cards(t, ev)
            t.round_open = True
        case events.CardsRevealed():
            assert t.hand is not None
            t.hand.hidden[Side(ev.side)] = 0
            t.seen.extend(parse_cards(ev.cards))
        case events.ThirdCardDealt():
            assert t.hand is not None
            side = Side(ev.side)
            if t.rules.continuous_shuffler:
                assert ev.card is not None
                card = Card.parse(ev.card)
            else:
                card = t.shoe[t.position]
                if ev.card is not None and Card.parse(ev.card) != card:
                    raise JournalError(f"{ev.card} is not the next card of the shoe")
                _take(t, 1)
            t.hand.cards(side).append(card)
            if ev.card is None:
                t.hand.hidden[side] = 1
            elif t.exposed is None:
                t.seen.append(card)
            t.exposed = None
        case events.CardExposed():
            t.exposed = Card.parse(ev.card)
            t.seen.append(t.exposed)
        case events.HandVoided():
            for row in ev.returned:
                t.stacks[str(row["player"])] += int(row["stake"])
            t.holds = []
            _end_hand(t, HandOutcome.VOID)
        case events.HandSettled():
            keep: list[Bet] = []
            by_id = {b.id: b for b in t.holds}
            for s in ev.settlements():
                b = by_id[s.bet_id]
                if s.result is BetResult.PUSH:
                    keep.append(Bet(b.player, b.kind, b.amount, b.spot, True, b.id))  # BA-12
                elif s.result is BetResult.WIN:
                    t.stacks[s.player] += s.stake + s.won - s.commission
                elif s.result is BetResult.RETURNED:
                    t.stacks[s.player] += s.stake
            assert t.hand is not None
            if not t.hand.demonstration:
                t.holds = keep
            t.last_settled = ev
            _end_hand(t, HandOutcome(ev.outcome))
        case _:
            raise JournalError(f"{ev.kind} is not a baccarat event")


def _new_shoe(t: BaccaratState, number: int, order: Sequence[Card], commitment: str | None) -> None:
    t.shoe_number = number
    t.shoe = order
    t.shoe_commitment = commitment
    t.position = 0
    t.cut_index = None
    t.cut_card_out = False
    t.hands_left = None
    t.shoe_over = False
    t.discards = 0
    t.burned_face_down = 0
    t.seen = []
    t.exposed = None
    # the hands of this shoe (the roads') and the last before it (the view's last
    # hand): a table's results do not grow with its history
    t.results = t.results[-1:]
    if t.rules.continuous_shuffler:
        t.phase = BaccaratPhase.BETTING  # BA-2.3: no cut, burn or demonstration (BA-R4)
    else:
        t.phase = BaccaratPhase.CUT


def _take(t: BaccaratState, n: int) -> None:
    """Advance the shoe ``n`` cards; the cut card comes out when one behind it is taken
    (BA-3.1) — dealt, or burned between hands (BA-4/BA-8: it counts for the next hand,
    BA-R1)."""
    if t.rules.continuous_shuffler:
        return
    if t.position + n > len(t.shoe):
        raise JournalError("the shoe has no more cards")
    for _ in range(n):
        if t.cut_index is not None and t.position >= t.cut_index:
            t.cut_card_out = True
        t.position += 1


def _deal_cards(t: BaccaratState, ev: events.CardsDealt) -> None:
    if t.rules.continuous_shuffler:
        cards = parse_cards(ev.cards)
    else:
        cards = tuple(t.shoe[t.position : t.position + 4])
        _take(t, 4)
        if t.exposed is not None:  # only between hands, and burned at once (BA-8)
            raise JournalError("an exposed card is dealt into a hand")
    t.hand_number = ev.hand
    hand = Hand(ev.hand, ev.demonstration)
    hand.player = [cards[0], cards[2]]  # BA-7.1
    hand.banker = [cards[1], cards[3]]
    hand.holders = {Side(k): v for k, v in ev.holders.items()}
    face_down = 0 if ev.cards else 2
    hand.hidden = dict.fromkeys(Side, face_down)
    if ev.cards:
        t.seen.extend(cards)
    t.hand = hand
    t.phase = BaccaratPhase.DEALING


def _limits_now(t: BaccaratState) -> None:
    """New limits take effect between hands (a LimitsChanged waiting, or just made)."""
    ev, t._next_limits = t._next_limits, None
    if ev is not None:
        cur = t.rules.currency
        t.rules = with_limits(
            t.rules,
            Money(ev.min_bet, cur),
            Money(ev.max_bet, cur),
            {k: (Money(a, cur), Money(b, cur)) for k, (a, b) in ev.bets.items()},
            None if ev.differential is None else Money(ev.differential, cur),
        )


def _end_hand(t: BaccaratState, result: HandOutcome) -> None:
    t.round_open = False
    _limits_now(t)
    h = t.hand
    assert h is not None
    t.results.append(
        HandResult(
            h.number,
            t.shoe_number,
            tuple(h.player),
            tuple(h.banker),
            result,
            h.demonstration,
        )
    )
    t.discards += len(h.player) + len(h.banker)
    t.hand = None
    if h.demonstration:
        t.demonstrations_left -= 1
        t.phase = BaccaratPhase.DEMONSTRATION if t.demonstrations_left else BaccaratPhase.BETTING
        return
    t.phase = BaccaratPhase.BETTING
    if t.rules.continuous_shuffler:
        return  # BA-7.2: the cards go back into the machine
    if t.cut_card_out:  # BA-3.1
        # the cut card came out in this hand, or in a burn before it (BA-4/BA-8): a cut
        # card out between hands counts for the next hand (BA-R1)
        if t.hands_left is None:
            t.hands_left = 0 if t.rules.last_hand is LastHand.LAST else 1
        else:
            t.hands_left -= 1
        if t.hands_left <= 0:
            t.hands_left = 0
            t.shoe_over = True


class BaccaratState(Table):
    """A baccarat table's state, and what each event does to it (:meth:`apply`): the seats
    and the chips (BA-1, BA-15), the shoe (BA-2, BA-3, BA-8), the bets on the layout
    (BA-12 … BA-15), the hand being dealt (BA-7, BA-9, BA-16) and the hands played. The
    operations are :class:`~macau_tables.games.baccarat.table.BaccaratTable`'s; the rules'
    decisions they and the dealer's part of a hand (``dealing``) read from here."""

    rules: BaccaratRules

    def apply(self, ev: Event) -> None:
        """The only place the table's state changes (what each event does: below)."""
        apply_event(self, ev)

    def _init_state(self) -> None:
        self.phase = BaccaratPhase.SHUFFLE
        self.shoe_number = 0
        # the dealing order: never in an event or a view (a physical shoe: keyed as dealt)
        self.shoe: Sequence[Card] = ()
        self.position = 0  # next card to deal from the shoe
        self.cut_index: int | None = None  # shoe index of the first card behind the cut card
        self.cut_card_out = False
        self.hands_left: int | None = None  # BA-3.1: set when the cut card comes out
        self.shoe_over = False  # BA-3.1: the last hand is over
        self.shoe_commitment: str | None = None
        self.demonstrations_left = 0
        self.seats: dict[str, int | None] = {}
        self.stacks: dict[str, int] = {}
        self.holds: list[Bet] = []
        self._hold_index: layout.HoldIndex | None = None  # derived from holds: _holds_ix
        self.bets_placed = 0  # bet ids are "<table>:<n>"
        self.hand: Hand | None = None
        self.hand_number = 0
        self.results: list[HandResult] = []
        # the roads' JSON for (shoe, hands recorded): views.road_maps
        self._roads_memo: tuple[tuple[int, int], JsonValue] | None = None
        self.last_settled: events.HandSettled | None = None
        self.discards = 0
        self.burned_face_down = 0
        self.seen: list[Card] = []  # cards of this shoe turned face up (public)
        self.exposed: Card | None = None  # BA-4: the next card, seen before it is dealt
        # a supervisor's new limits wait for the end of the hand under way (a bet, a change
        # of a bet or a deal since the last hand ended): that hand keeps its bets' limits
        self._next_limits: LimitsChanged | None = None
        self.round_open = False
        # hold ids re-issued by voids and corrections (contract.hold_aliases), as they come
        self._hold_aliases: dict[str, str] = {}

    def _money(self, minor: int) -> Money:
        return Money(minor, self.rules.currency)

    @property
    def _cur(self) -> str:
        return self.rules.currency.code

    @property
    def keyed(self) -> bool:
        """A physical shoe whose cards are keyed in as dealt (:meth:`open_shoe`)."""
        return isinstance(self.shoe, KeyedShoe)

    def _finish_shoe(self, reason: str, by: Actor) -> None:
        self._emit(events.ShoeEnded(self.shoe_number, reason, str(by)))
        digest = self.shoe_commitment
        if digest is not None:
            self._emit(
                contract.SeedRevealed(f"shoe:{self.shoe_number}", self._keyring[digest].hex())
            )

    def cards_left(self) -> int:
        return len(self.shoe) - self.position

    def cards_to_cut(self) -> int | None:
        """Cards still to deal before the cut card comes out (None: no cut card)."""
        if self.cut_index is None:
            return None
        return max(0, self.cut_index - self.position)

    @property
    def _holds_ix(self) -> layout.HoldIndex:
        """The index of the holds (built again when the list was replaced)."""
        ix = getattr(self, "_hold_index", None)
        if ix is None or not ix.of(self.holds):
            ix = self._hold_index = layout.HoldIndex(self.holds)
        return ix

    @property
    def bets(self) -> list[Bet]:
        """The layout: one entry per player, bet and spot (its stakes added up)."""
        return layout.merged(self.holds)
