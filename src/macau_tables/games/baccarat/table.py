"""The baccarat table (:class:`BaccaratTable`): seats and chips, the shoe (BA-2, BA-3, BA-8),
bets (BA-12 … BA-15), the deal (BA-7, BA-9, BA-16) and the settlement (BA-11 … BA-18).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any, ClassVar

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    JournalError,
    OutOfOrder,
    RuleViolation,
    SeedNotRevealed,
)
from macau_tables.core.errors import passes as _can
from macau_tables.core.journal import (
    Event,
    JsonValue,
    event_from_json,
)
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.baccarat.cards import (
    Card,
    Composition,
    KeyedShoe,
    composition,
    fresh_composition,
    full_set,
    parse_cards,
)
from macau_tables.games.baccarat.events import (
    BetChanged,
    BetPlaced,
    CardExposed,
    CardsBurned,
    CardsDealt,
    CardsKeyed,
    CardsRevealed,
    ChipsBought,
    CutCardPlaced,
    DealingErrorCorrected,
    HandSettled,
    HandVoided,
    PlayerJoined,
    PlayerLeft,
    ShoeEnded,
    ShoeLoaded,
    ShoeOpened,
    ShoeShuffled,
    ThirdCardDealt,
    voided,
)
from macau_tables.games.baccarat.hand import (
    NO_COMMISSION_BANKER_SIX,
    PAYS,
    Bet,
    BetResult,
    BetSettlement,
    HandOutcome,
    HandResult,
    banker_draws,
    is_pair,
    outcome,
    player_draws,
    total,
)
from macau_tables.games.baccarat.roads import Roads, roads
from macau_tables.games.baccarat.rules import (
    GAME,
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BetLimit,
    BurnMode,
    LastHand,
    Side,
    TieChoice,
    check_cut,
)
from macau_tables.games.contract import (
    Actor,
    Checkpoint,
    Command,
    LimitsChanged,
    Pending,
    Role,
    RoundCorrected,
    RoundVoided,
    SeedCommitted,
    SeedRevealed,
    TableOpened,
    TimedOut,
)
from macau_tables.games.kernel import (
    AMOUNT,
    FLAG,
    HEX,
    TEXT,
    WHOLE,
    Alias,
    Arg,
    Table,
    operation,
    optional,
    parsed,
    parsed_list,
    supervisor_reason,
)

# ==========================================================================================
# The table
# ==========================================================================================

SERVER_SEED_BYTES = 32
SYSTEM = str(Actor.SYSTEM)
DEALER = str(Actor.DEALER)
BET_OPERATIONS = ("place_bet", "change_bet", "withdraw_bet", "buy_in", "leave")


@dataclass
class Hand:
    number: int
    demonstration: bool
    player: list[Card] = field(default_factory=list)
    banker: list[Card] = field(default_factory=list)
    hidden: dict[Side, int] = field(default_factory=dict)  # face-down cards awaiting a reveal
    holders: dict[Side, str | None] = field(default_factory=dict)

    def cards(self, side: Side) -> list[Card]:
        return self.player if side is Side.PLAYER else self.banker

    def shown(self, side: Side) -> list[str | None]:
        """The side's cards as a viewer sees them: None for a face-down card."""
        cards = self.cards(side)
        down = self.hidden.get(side, 0)
        return [str(c) for c in cards[: len(cards) - down]] + [None] * down


class Step(StrEnum):
    """What a hand being dealt needs next (BA-7.1, BA-9, BA-16)."""

    REVEAL = "reveal"
    DRAW = "draw"
    SETTLE = "settle"


def _side(text: str) -> Side:
    try:
        return Side(text)
    except ValueError:
        raise InvalidInput("reveal: side is 'player' or 'banker'") from None


#: the roles that deal: the dealer, and the table itself (auto-dealing, time-outs)
_DEALERS = (Role.DEALER, Role.SYSTEM)
_BET = parsed(BaccaratBetKind.parse, "a bet's name (player, banker, tie, …)")
_SIDE = parsed(_side, "'player' or 'banker'")


def _side_kind(side: Side) -> BaccaratBetKind:
    return BaccaratBetKind.PLAYER if side is Side.PLAYER else BaccaratBetKind.BANKER


def _as_player(who: str | Actor) -> Actor:
    return who if isinstance(who, Actor) else Actor.player(who)


def _is_dealer(actor: Actor) -> bool:
    return actor.role in (Role.DEALER, Role.SYSTEM)


class BaccaratTable(Table):
    """One baccarat table over shoes: players and their chips, bets, hands, and its journal.

    Drive it with :meth:`execute` (a :class:`~macau_tables.games.contract.Command`) or the
    operations themselves (``place_bet``, ``deal``, ``reveal`` …); both return the events
    appended. ``seeds`` are server seeds the table may use (keyed by their commitment), for
    replaying a journal whose shoes are not yet revealed. The kernel
    (:class:`~macau_tables.games.kernel.Table`) holds what every table shares.
    """

    game: ClassVar[str] = GAME
    rules: BaccaratRules
    ROUND: ClassVar[str] = "hand"
    #: the names these acts had at a baccarat table (clients, and journals' corrections)
    ALIASES: ClassVar[Sequence[Alias]] = (
        Alias("join", "sit", {"buy_in": "amount"}),
        Alias("buy_chips", "buy_in"),
    )
    #: a snapshot writes the limits waiting for the next hand as ``next_limits``
    SNAPSHOT_NAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"_next_limits": "next_limits"})

    def __init__(
        self,
        rules: BaccaratRules | None = None,
        *,
        table_id: str = "baccarat-1",
        header: Mapping[str, Any] | None = None,
        seeds: Mapping[str, bytes] | None = None,
    ) -> None:
        super().__init__(
            rules or BaccaratRules(), table_id, journal_game=GAME, header=header, seeds=seeds
        )
        self._init_state()
        self._open()

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
        self.bets_placed = 0  # bet ids are "<table>:<n>"
        self.hand: Hand | None = None
        self.hand_number = 0
        self.results: list[HandResult] = []
        # the roads' JSON as the views show it, for (shoe, hands recorded): the roads
        # change only when a hand ends or a shoe starts, and working them out was most
        # of a view's cost (1 ms a view, at every view a player polls or is sent)
        self._roads_memo: tuple[tuple[int, int], JsonValue] | None = None
        self.last_settled: HandSettled | None = None
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

    @property
    def next_limits(self) -> LimitsChanged | None:
        """Limits changed for the next hand, waiting for this one to end (or None)."""
        return self._next_limits

    def _rules_of(self, opened: TableOpened) -> BaccaratRules:
        return BaccaratRules.from_json(opened.rules)

    def _opening(self) -> BaccaratTable:
        opened = self._events[0]
        assert isinstance(opened, TableOpened)
        return BaccaratTable(
            self._rules_of(opened),
            table_id=self._table_id,
            header=self._journal.header,
            seeds=self._keyring,
        )

    def _put(self, ev: Event, out: list[Event]) -> Event:
        """Emit ``ev`` (the kernel's ``_emit``) and add it to the operation's ``out``."""
        self._emit(ev)
        out.append(ev)
        return ev

    def _money(self, minor: int) -> Money:
        return Money(minor, self.rules.currency)

    @property
    def _cur(self) -> str:
        return self.rules.currency.code

    def apply(self, ev: Event) -> None:
        """The only place the table's state changes."""
        match ev:
            case TableOpened() | SeedCommitted() | SeedRevealed() | TimedOut():
                pass
            case LimitsChanged():
                self._next_limits = ev
                if not self.round_open:
                    self._limits_now()
            case RoundVoided() | RoundCorrected():
                pass  # the state follows the effective history (the kernel's _restate)
            case DealingErrorCorrected() | Checkpoint():
                pass
            case PlayerJoined():
                self.seats[ev.player] = ev.seat
                self.stacks[ev.player] = ev.buy_in
            case ChipsBought():
                self.stacks[ev.player] += ev.amount
            case PlayerLeft():
                self.holds = [b for b in self.holds if b.id not in ev.returned]
                del self.seats[ev.player]
                del self.stacks[ev.player]
            case ShoeShuffled():
                seed = self._keyring.get(ev.commitment)
                if seed is None:
                    raise JournalError(f"shoe {ev.shoe}: its server seed is not known")
                order: tuple[Card, ...] = ()
                if not self.rules.continuous_shuffler:
                    rng = Rng.for_event(seed, self._table_id, f"shoe:{ev.shoe}")
                    order = tuple(rng.shuffle(full_set(self.rules.decks)))
                self._new_shoe(ev.shoe, order, ev.commitment)
            case ShoeLoaded():
                self._new_shoe(ev.shoe, parse_cards(ev.cards), None)
            case ShoeOpened():
                self._new_shoe(ev.shoe, KeyedShoe(self.rules.decks), None)
            case CardsKeyed():
                if not isinstance(self.shoe, KeyedShoe):
                    raise JournalError("cards are keyed in only from a physical shoe")
                self.shoe.key(ev.position, parse_cards(ev.cards))
            case ShoeEnded():
                self.phase = BaccaratPhase.SHUFFLE
            case CutCardPlaced():
                self.cut_index = len(self.shoe) - ev.from_end
                self.phase = BaccaratPhase.BURN
            case CardsBurned():
                self._take(ev.count)
                self.discards += ev.count
                self.burned_face_down += ev.count - (ev.shown is not None)
                if ev.shown is not None:
                    self.seen.append(Card.parse(ev.shown))
                self.exposed = None
                if self.phase is BaccaratPhase.BURN:
                    self.demonstrations_left = self.rules.demonstration_hands
                    self.phase = (
                        BaccaratPhase.DEMONSTRATION
                        if self.demonstrations_left
                        else BaccaratPhase.BETTING
                    )
            case BetPlaced():
                kind = BaccaratBetKind(ev.bet)
                old = [
                    b
                    for b in self.holds
                    if (b.player, b.kind, b.spot) == (ev.player, kind, ev.spot)
                ]
                carried = bool(old) and all(b.carried for b in old)
                self.holds.append(
                    Bet(ev.player, kind, self._money(ev.amount), ev.spot, carried, ev.bet_id)
                )
                self.stacks[ev.player] -= ev.amount
                self.bets_placed += 1
                self.round_open = True
            case BetChanged():
                closed = [b for b in self.holds if b.id in ev.closes]
                carried = bool(closed) and all(b.carried for b in closed)
                self.holds = [b for b in self.holds if b.id not in ev.closes]
                if ev.bet_id is not None:
                    self.holds.append(
                        Bet(
                            ev.player,
                            BaccaratBetKind(ev.to_bet),
                            self._money(ev.amount),
                            ev.spot,
                            carried,
                            ev.bet_id,
                        )
                    )
                    self.bets_placed += 1
                self.stacks[ev.player] += ev.old_amount - ev.amount
                self.round_open = True
            case CardsDealt():
                self._deal_cards(ev)
                self.round_open = True
            case CardsRevealed():
                assert self.hand is not None
                self.hand.hidden[Side(ev.side)] = 0
                self.seen.extend(parse_cards(ev.cards))
            case ThirdCardDealt():
                assert self.hand is not None
                side = Side(ev.side)
                if self.rules.continuous_shuffler:
                    assert ev.card is not None
                    card = Card.parse(ev.card)
                else:
                    card = self.shoe[self.position]
                    if ev.card is not None and Card.parse(ev.card) != card:
                        raise JournalError(f"{ev.card} is not the next card of the shoe")
                    self._take(1)
                self.hand.cards(side).append(card)
                if ev.card is None:
                    self.hand.hidden[side] = 1
                elif self.exposed is None:
                    self.seen.append(card)
                self.exposed = None
            case CardExposed():
                self.exposed = Card.parse(ev.card)
                self.seen.append(self.exposed)
            case HandVoided():
                for row in ev.returned:
                    self.stacks[str(row["player"])] += int(row["stake"])
                self.holds = []
                self._end_hand(HandOutcome.VOID)
            case HandSettled():
                keep: list[Bet] = []
                by_id = {b.id: b for b in self.holds}
                for s in ev.settlements():
                    b = by_id[s.bet_id]
                    if s.result is BetResult.PUSH:
                        keep.append(Bet(b.player, b.kind, b.amount, b.spot, True, b.id))  # BA-12
                    elif s.result is BetResult.WIN:
                        self.stacks[s.player] += s.stake + s.won - s.commission
                    elif s.result is BetResult.RETURNED:
                        self.stacks[s.player] += s.stake
                assert self.hand is not None
                if not self.hand.demonstration:
                    self.holds = keep
                self.last_settled = ev
                self._end_hand(HandOutcome(ev.outcome))
            case _:
                raise JournalError(f"{ev.kind} is not a baccarat event")

    def _new_shoe(self, number: int, order: Sequence[Card], commitment: str | None) -> None:
        self.shoe_number = number
        self.shoe = order
        self.shoe_commitment = commitment
        self.position = 0
        self.cut_index = None
        self.cut_card_out = False
        self.hands_left = None
        self.shoe_over = False
        self.discards = 0
        self.burned_face_down = 0
        self.seen = []
        self.exposed = None
        # the hands of this shoe (the roads') and the last before it (the view's last
        # hand): a table's results do not grow with its history
        self.results = self.results[-1:]
        if self.rules.continuous_shuffler:
            self.phase = BaccaratPhase.BETTING  # BA-2.3: no cut, burn or demonstration (BA-R4)
        else:
            self.phase = BaccaratPhase.CUT

    def _take(self, n: int) -> None:
        """Advance the shoe ``n`` cards; the cut card comes out when one behind it is taken
        (BA-3.1) — dealt, or burned between hands (BA-4/BA-8: it counts for the next hand,
        BA-R1)."""
        if self.rules.continuous_shuffler:
            return
        if self.position + n > len(self.shoe):
            raise JournalError("the shoe has no more cards")
        for _ in range(n):
            if self.cut_index is not None and self.position >= self.cut_index:
                self.cut_card_out = True
            self.position += 1

    def _deal_cards(self, ev: CardsDealt) -> None:
        if self.rules.continuous_shuffler:
            cards = parse_cards(ev.cards)
        else:
            cards = tuple(self.shoe[self.position : self.position + 4])
            self._take(4)
            if self.exposed is not None:  # only between hands, and burned at once (BA-8)
                raise JournalError("an exposed card is dealt into a hand")
        self.hand_number = ev.hand
        hand = Hand(ev.hand, ev.demonstration)
        hand.player = [cards[0], cards[2]]  # BA-7.1
        hand.banker = [cards[1], cards[3]]
        hand.holders = {Side(k): v for k, v in ev.holders.items()}
        face_down = 0 if ev.cards else 2
        hand.hidden = dict.fromkeys(Side, face_down)
        if ev.cards:
            self.seen.extend(cards)
        self.hand = hand
        self.phase = BaccaratPhase.DEALING

    def _limits_now(self) -> None:
        """New limits take effect between hands (a LimitsChanged waiting, or just made)."""
        ev, self._next_limits = self._next_limits, None
        if ev is not None:
            cur = self.rules.currency
            self.rules = self._rules_with(
                Money(ev.min_bet, cur),
                Money(ev.max_bet, cur),
                {k: (Money(a, cur), Money(b, cur)) for k, (a, b) in ev.bets.items()},
                None if ev.differential is None else Money(ev.differential, cur),
            )

    def _rules_with(
        self,
        min_bet: Money,
        max_bet: Money,
        bets: Mapping[str, tuple[Money, Money]],
        differential: Money | None,
    ) -> BaccaratRules:
        """The rule set with new limits: Player and Banker ``min_bet`` – ``max_bet``, the
        bets named in ``bets`` theirs, the others as they are (BA-13); the differential
        (BA-14) if given. Validated by the rule set (``BaccaratRules``)."""
        limits = dict(self.rules.limits)
        limits[BaccaratBetKind.PLAYER] = limits[BaccaratBetKind.BANKER] = BetLimit(min_bet, max_bet)
        for name, (low, high) in bets.items():
            try:
                kind = BaccaratBetKind(name)
            except ValueError:
                raise InvalidInput(
                    f"no bet {name!r}: the limits of tie, banker_pair, player_pair", rule="BA-13"
                ) from None
            if kind in (BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER):
                raise InvalidInput(
                    "the Player and Banker limits are min_bet and max_bet", rule="BA-13"
                )
            limits[kind] = BetLimit(low, high)
        diff = self.rules.differential_limit if differential is None else differential
        return dataclasses.replace(self.rules, limits=limits, differential_limit=diff)

    def _end_hand(self, result: HandOutcome) -> None:
        self.round_open = False
        self._limits_now()
        h = self.hand
        assert h is not None
        self.results.append(
            HandResult(
                h.number,
                self.shoe_number,
                tuple(h.player),
                tuple(h.banker),
                result,
                h.demonstration,
            )
        )
        self.discards += len(h.player) + len(h.banker)
        self.hand = None
        if h.demonstration:
            self.demonstrations_left -= 1
            self.phase = (
                BaccaratPhase.DEMONSTRATION if self.demonstrations_left else BaccaratPhase.BETTING
            )
            return
        self.phase = BaccaratPhase.BETTING
        if self.rules.continuous_shuffler:
            return  # BA-7.2: the cards go back into the machine
        if self.cut_card_out:  # BA-3.1
            # the cut card came out in this hand, or in a burn before it (BA-4/BA-8): a cut
            # card out between hands counts for the next hand (BA-R1)
            if self.hands_left is None:
                self.hands_left = 0 if self.rules.last_hand is LastHand.LAST else 1
            else:
                self.hands_left -= 1
            if self.hands_left <= 0:
                self.hands_left = 0
                self.shoe_over = True

    # --- players: joining with chips, buying more, leaving (BA-1 seats, BA-15 standing) --------

    def _known(self, player: str) -> None:
        if player not in self.seats:
            raise InvalidInput(f"{player} is not at the table")

    def _player(self, actor: Actor) -> str:
        if actor.role is not Role.PLAYER:
            raise RuleViolation(f"only a player may do this, not the {actor.role}")
        return actor.name

    def verify_sit(self, player: str | Actor, amount: Money, seat: int | None = None) -> None:
        name = self._player(_as_player(player))
        if name in self.seats:
            raise InvalidInput(f"{name} is already at the table")
        if amount.currency != self.rules.currency or amount.is_negative():
            raise InvalidInput(f"a buy-in of {amount}: chips are bought with a positive amount")
        if seat is not None:
            if isinstance(seat, bool) or not 1 <= seat <= self.rules.seats:
                raise InvalidInput(f"seat {seat}: the table has seats 1–{self.rules.seats}")
            if seat in self.seats.values():
                raise InvalidInput(f"seat {seat} is taken")

    @operation(
        actor=Role.PLAYER,
        rule="BA-15",
        args=(Arg("amount", AMOUNT, None), Arg("seat", optional(WHOLE), None)),
        actor_param="player",
    )
    def sit(
        self, player: str | Actor, amount: Money | None = None, seat: int | None = None
    ) -> tuple[Event, ...]:
        """A player sits at ``seat`` (or stands, BA-15) with ``amount`` of chips bought from
        their wallet (none by default)."""
        amount = self._money(0) if amount is None else amount
        self.verify_sit(player, amount, seat)
        name = _as_player(player).name
        out: list[Event] = []
        self._put(PlayerJoined(self._table_id, name, seat, amount.minor, self._cur), out)
        return tuple(out)

    def verify_buy_in(self, player: str | Actor, amount: Money) -> None:
        name = self._player(_as_player(player))
        self._known(name)
        if amount.currency != self.rules.currency or not amount.is_positive():
            raise InvalidInput(f"chips are bought with a positive amount, not {amount}")

    @operation(actor=Role.PLAYER, args=(Arg("amount", AMOUNT),), actor_param="player")
    def buy_in(self, player: str | Actor, amount: Money) -> tuple[Event, ...]:
        """More chips from the player's wallet."""
        self.verify_buy_in(player, amount)
        out: list[Event] = []
        name = _as_player(player).name
        self._put(ChipsBought(self._table_id, name, amount.minor, self._cur), out)
        return tuple(out)

    def verify_leave(self, player: str | Actor) -> None:
        """A player may leave unless they hold cards (BA-16) or have bets in the hand being
        dealt; bets not yet dealt on are returned, but a bet left on after a tie only where
        the table lets it be withdrawn (BA-12 / BA-R2)."""
        name = self._player(_as_player(player))
        self._known(name)
        mine = [b for b in self.holds if b.player == name]
        if self.hand is not None:
            if name in self.hand.holders.values():
                raise RuleViolation(
                    "you hold the cards of this hand and may not leave the table", rule="BA-16"
                )
            if mine and not self.hand.demonstration:
                raise OutOfOrder(
                    "your bets are in play in this hand: you may leave once it is settled",
                    rule="BA-11",
                )
        if any(b.carried for b in mine) and TieChoice.WITHDRAW not in self.rules.tie_choices:
            raise BetNotAllowed(
                "your bet left on after the tie may not be withdrawn at this table: "
                "it stays for the next hand",
                rule="BA-R2",
            )

    def can_leave(self, player: str | Actor) -> bool:
        return _can(self.verify_leave, player)

    @operation(actor=Role.PLAYER, rule="BA-11", actor_param="player")
    def leave(self, player: str | Actor) -> tuple[Event, ...]:
        """The player leaves with every chip: bets not yet dealt on come back first."""
        self.verify_leave(player)
        name = _as_player(player).name
        mine = [b for b in self.holds if b.player == name]
        returned = sum(b.amount.minor for b in mine)
        out: list[Event] = []
        self._put(
            PlayerLeft(
                self._table_id,
                name,
                tuple(b.id for b in mine),
                returned,
                self.stacks[name] + returned,
                self._cur,
            ),
            out,
        )
        return tuple(out)

    def balance(self, player: str) -> Money:
        """The chips ``player`` has at the table (not counting bets on the layout)."""
        self._known(player)
        return self._money(self.stacks[player])

    def default_spot(self, player: str) -> int:
        """A seated player's own spot; a standing player's first standing spot (BA-15)."""
        seat = self.seats[player]
        return seat if seat is not None else self.rules.seats + 1

    # --- BA-2.1 / BA-3 the shoe: shuffle, cut, burn; BA-3.2 change of shoe ------------------

    def _dealer(self, actor: Actor, rule: str, *, supervisor: bool = False) -> None:
        if _is_dealer(actor) or (supervisor and actor.role is Role.SUPERVISOR):
            return
        raise RuleViolation(f"the dealer does this, not {actor}", rule=rule)

    def verify_shuffle(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-2.1")
        if self.phase is not BaccaratPhase.SHUFFLE:
            raise OutOfOrder(
                "a new shoe is shuffled when the last one is over (BA-3.1) or changed",
                rule="BA-3.2",
            )

    def can_shuffle(self, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_shuffle, by)

    def _reason(self) -> str:
        if self.shoe_number == 0:
            return "BA-2.1"
        return "BA-3.1" if self.hands_left == 0 else "BA-3.2"

    @operation(
        actor=_DEALERS,
        rule="BA-2.1",
        args=(Arg("seed", optional(HEX), None), Arg("new_set", FLAG, False)),
        rng=True,
        actor_param="by",
    )
    def shuffle(
        self,
        rng: Rng | None = None,
        *,
        seed: bytes | None = None,
        new_set: bool = False,
        by: Actor = Actor.DEALER,
    ) -> tuple[Event, ...]:
        """BA-2.1: shuffle a new shoe. A server seed (``seed``, or 32 bytes drawn from
        ``rng``) is committed; the order is ``Rng.for_event(seed, table_id, "shoe:<n>")``'s
        shuffle of the table's decks, and the seed is revealed when the shoe ends. Also the
        reshuffle after the last hand (BA-3.1) and a new shoe (BA-3.2); with a continuous
        shuffler the seed drives the machine (BA-2.3)."""
        self.verify_shuffle(by)
        if seed is None:
            if rng is None:
                raise InvalidInput("a shuffle needs a server seed or an Rng", rule="BA-2.1")
            seed = rng.source.random_bits(8 * SERVER_SEED_BYTES).to_bytes(SERVER_SEED_BYTES, "big")
        if len(seed) < SERVER_SEED_BYTES:
            raise InvalidInput(f"a server seed has at least {SERVER_SEED_BYTES} bytes")
        digest = commitment(seed)
        self._keyring[digest] = seed
        n = self.shoe_number + 1
        out: list[Event] = []
        self._put(ShoeShuffled(n, self._reason(), new_set, str(by), digest), out)
        self._put(SeedCommitted(f"shoe:{n}", digest), out)
        return tuple(out)

    @operation(
        actor=_DEALERS,
        rule="BA-1",
        args=(
            Arg("cards", parsed_list(parse_cards, "a list of cards such as 'Td'")),
            Arg("new_set", FLAG, False),
        ),
        actor_param="by",
    )
    def load_shoe(
        self, cards: Sequence[Card], *, new_set: bool = False, by: Actor = Actor.DEALER
    ) -> tuple[Event, ...]:
        """A shoe shuffled elsewhere (the shuffling machine of BA-1), keyed in in dealing
        order: exactly the table's decks (BA-1). Staff-only event; no seed to reveal."""
        self.verify_shuffle(by)
        if self.rules.continuous_shuffler:
            raise InvalidInput("a continuous shuffler is loaded with a seed", rule="BA-2.3")
        if Counter(cards) != Counter(full_set(self.rules.decks)):
            raise InvalidInput(f"a shoe holds exactly {self.rules.decks} decks", rule="BA-1")
        out: list[Event] = []
        ev = ShoeLoaded(
            self.shoe_number + 1, self._reason(), new_set, str(by), tuple(str(c) for c in cards)
        )
        self._put(ev, out)
        return tuple(out)

    @operation(actor=_DEALERS, rule="BA-2.1", args=(Arg("new_set", FLAG, False),), actor_param="by")
    def open_shoe(self, *, new_set: bool = False, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """A live table's physical shoe (BA-1, BA-2.1): the table's decks shuffled at the
        table; the system never knows the order — the dealer keys each card in as it leaves
        the shoe (``deal`` with the four cards, ``draw`` a third card, ``expose_card``,
        ``cut`` with the first card under BA-R1), and BA-1 refuses a card the shoe cannot
        hold. No server seed is committed: the record is the cards keyed in."""
        self.verify_shuffle(by)
        if self.rules.continuous_shuffler:
            raise InvalidInput("a continuous shuffler is loaded with a seed", rule="BA-2.3")
        if not isinstance(new_set, bool):
            raise InvalidInput("new_set is true or false")
        out: list[Event] = []
        self._put(ShoeOpened(self.shoe_number + 1, self._reason(), new_set, str(by)), out)
        return tuple(out)

    @property
    def keyed(self) -> bool:
        """A physical shoe whose cards are keyed in as dealt (:meth:`open_shoe`)."""
        return isinstance(self.shoe, KeyedShoe)

    def _key_cards(
        self, op: str, args: dict[str, Any], cards: Sequence[Card], by: Actor, out: list[Event]
    ) -> None:
        """Key ``cards`` in at the shoe's next positions (BA-1 checked before)."""
        self._put(CardsKeyed(op, args, self.position, tuple(str(c) for c in cards), str(by)), out)

    def _verify_keyed(self, cards: Sequence[Card] | None, what: str, rule: str) -> None:
        """Keyed-in cards only from a physical shoe, and then always (BA-1)."""
        if not self.keyed:
            if cards is not None:
                raise InvalidInput(
                    f"{what}: this shoe's cards come from its server seed; cards are keyed "
                    "in only from a physical shoe (open_shoe)",
                    rule=rule,
                )
            return
        if cards is None:
            raise InvalidInput(f"{what}: key in the card(s) from the physical shoe", rule=rule)
        assert isinstance(self.shoe, KeyedShoe)
        self.shoe.verify_key(self.position, cards)

    def verify_end_shoe(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-3.2")
        if self.phase in (BaccaratPhase.SHUFFLE, BaccaratPhase.DEALING):
            raise OutOfOrder("the shoe is changed after a hand", rule="BA-3.2")
        if any(not b.carried for b in self.holds):
            raise OutOfOrder("the shoe is changed after a hand, before new bets", rule="BA-3.2")

    def can_end_shoe(self, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_end_shoe, by)

    @operation(actor=_DEALERS, rule="BA-3.2", actor_param="by")
    def end_shoe(self, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-3.2: the casino changes the shoe after a hand (and at the end of a session):
        the shoe's seed is revealed so that anyone can check it."""
        self.verify_end_shoe(by)
        out: list[Event] = []
        self._finish_shoe("BA-3.2", by, out)
        return tuple(out)

    def _finish_shoe(self, reason: str, by: Actor, out: list[Event]) -> None:
        self._put(ShoeEnded(self.shoe_number, reason, str(by)), out)
        digest = self.shoe_commitment
        if digest is not None:
            self._put(SeedRevealed(f"shoe:{self.shoe_number}", self._keyring[digest].hex()), out)

    def verify_cut(self, from_end: int | None = None, by: Actor = Actor.DEALER) -> None:
        if by.role is Role.PLAYER:
            self._known(by.name)  # BA-2.1: a player or the dealer cuts
        else:
            self._dealer(by, "BA-2.1")
        if self.phase is not BaccaratPhase.CUT:
            raise OutOfOrder("the cut comes after the shuffle", rule="BA-2.1")
        if from_end is not None and (isinstance(from_end, bool) or not isinstance(from_end, int)):
            raise InvalidInput(f"cut card position {from_end!r}: a number of cards")
        check_cut(self.rules.cut_from_end if from_end is None else from_end, self.rules.decks)

    def can_cut(self, from_end: int | None = None, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_cut, from_end, by)

    @operation(
        actor=(*_DEALERS, Role.PLAYER),
        rule="BA-2.1",
        args=(
            Arg("from_end", optional(WHOLE), None),
            Arg("first_card", optional(parsed(Card.parse, "a card such as 'Td'")), None),
        ),
        actor_param="by",
    )
    def cut(
        self,
        from_end: int | None = None,
        by: Actor | str = Actor.DEALER,
        *,
        first_card: Card | None = None,
    ) -> tuple[Event, ...]:
        """BA-2.1: a player or the dealer cuts; the cut card goes ``from_end`` cards from the
        end (the table's default when None), never fewer than 12. The dealer then burns as
        many cards as there are decks, face down, or turns the first card and burns as many
        as it shows (BA-R1 ``first_card``; from a physical shoe the dealer keys that card
        in: ``first_card``)."""
        actor = by if isinstance(by, Actor) else Actor.player(by)
        self.verify_cut(from_end, actor)
        turned = self.rules.burn is not BurnMode.DECKS
        if turned or first_card is not None:
            self._verify_keyed(None if first_card is None else (first_card,), "cut", "BA-R1")
        if first_card is not None and not turned:
            raise InvalidInput("this table burns by the decks: no first card", rule="BA-R1")
        out: list[Event] = []
        if first_card is not None:
            at = self.rules.cut_from_end if from_end is None else from_end
            args: dict[str, Any] = {"from_end": at, "first_card": str(first_card)}
            self._key_cards("cut", args, (first_card,), actor, out)
        self._put(
            CutCardPlaced(self.rules.cut_from_end if from_end is None else from_end, str(actor)),
            out,
        )
        shown: str | None = None
        if self.rules.burn is BurnMode.DECKS:
            count = self.rules.decks
        else:  # BA-R1: turn the first card; burn as many as it shows (tens, faces: 10)
            first = self.shoe[self.position]
            shown = str(first)
            count = 1 + first.burn_count
        self._put(CardsBurned(count, "BA-2.1", shown, SYSTEM), out)
        return tuple(out)

    def verify_burn(self, count: int, by: Actor = Actor.DEALER) -> None:
        """BA-8: the casino may burn cards at the start of any hand."""
        self._dealer(by, "BA-8")
        if self.rules.continuous_shuffler:
            raise OutOfOrder("a continuous shuffler burns no cards", rule="BA-R4")
        if self.phase is not BaccaratPhase.BETTING or any(not b.carried for b in self.holds):
            raise OutOfOrder("cards are burned at the start of a hand, before bets", rule="BA-8")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidInput("burn one card or more", rule="BA-8")
        if self.cut_index is None or self.position + count > self.cut_index:
            raise RuleViolation("a burn may not reach the cut card", rule="BA-8")

    def can_burn(self, count: int, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_burn, count, by)

    @operation(actor=_DEALERS, rule="BA-8", args=(Arg("count", WHOLE),), actor_param="by")
    def burn(self, count: int, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-8: burn ``count`` cards face down at the start of a hand."""
        self.verify_burn(count, by)
        out: list[Event] = []
        self._put(CardsBurned(count, "BA-8", None, str(by)), out)
        return tuple(out)

    def cards_left(self) -> int:
        return len(self.shoe) - self.position

    def cards_to_cut(self) -> int | None:
        """Cards still to deal before the cut card comes out (None: no cut card)."""
        if self.cut_index is None:
            return None
        return max(0, self.cut_index - self.position)

    def composition(self) -> Composition:
        """The unseen cards as everyone at the table knows them: the full set less the
        cards turned face up in this shoe (what the next card is drawn from, for the
        analysis; burned face-down cards are unseen)."""
        if self.rules.continuous_shuffler:  # BA-R4: always the full set
            return fresh_composition(self.rules.decks)
        seen = composition(self.seen)
        return tuple(a - b for a, b in zip(fresh_composition(self.rules.decks), seen, strict=True))

    # --- BA-4 exposed cards -------------------------------------------------------------------

    def verify_expose_card(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-4")
        if self.rules.continuous_shuffler:
            raise OutOfOrder("the machine deals face up", rule="BA-7.2")
        if self.phase not in (
            BaccaratPhase.BETTING,
            BaccaratPhase.DEALING,
            BaccaratPhase.DEMONSTRATION,
        ):
            raise OutOfOrder("no card is coming out of the shoe", rule="BA-4")
        if self.exposed is not None:
            raise OutOfOrder("the next card is already face up", rule="BA-4")
        if self.position >= len(self.shoe):
            raise OutOfOrder("the shoe is empty", rule="BA-4")

    def can_expose_card(self, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_expose_card, by)

    @operation(
        actor=_DEALERS,
        rule="BA-4",
        args=(Arg("card", optional(parsed(Card.parse, "a card such as 'Td'")), None),),
        actor_param="by",
    )
    def expose_card(self, by: Actor = Actor.DEALER, card: Card | None = None) -> tuple[Event, ...]:
        """BA-4: the next card comes out of the shoe face up by accident. During a hand it
        stays valid and the hand goes on (「牌局繼續進行」): if the hand draws it, it is that
        third card, face up, and the bets stand — a third card already due (a physical shoe
        waiting for it to be keyed in) is dealt at once. A card seen before the hand that
        would use it (between hands, or during a hand that does not draw it) is burned at
        the start of the next hand under BA-8 — at once between hands, after the settlement
        otherwise — so no bet is ever placed on a hand whose first card is known."""
        self.verify_expose_card(by)
        self._verify_keyed(None if card is None else (card,), "expose_card", "BA-4")
        out: list[Event] = []
        if card is not None:  # a physical shoe: the dealer keys the exposed card in
            self._key_cards("expose_card", {"card": str(card)}, (card,), by, out)
        card = self.shoe[self.position]
        self._put(CardExposed(str(card), str(by)), out)
        if self.phase is not BaccaratPhase.DEALING:
            self._put(CardsBurned(1, "BA-8", str(card), SYSTEM), out)
        else:  # BA-4: the hand goes on; a third card due now is this one (BA-9)
            self._advance(out)
        return tuple(out)

    # --- BA-13 … BA-15, BA-18 bets --------------------------------------------------------------

    @property
    def bets(self) -> list[Bet]:
        """The layout: one entry per player, bet and spot (its stakes added up)."""
        merged: dict[tuple[str, BaccaratBetKind, int], Bet] = {}
        for b in self.holds:
            key = (b.player, b.kind, b.spot)
            old = merged.get(key)
            merged[key] = (
                b
                if old is None
                else Bet(b.player, b.kind, old.amount + b.amount, b.spot, old.carried, old.id)
            )
        return list(merged.values())

    def _spot_holds(self, player: str, kind: BaccaratBetKind, spot: int) -> list[Bet]:
        return [b for b in self.holds if (b.player, b.kind, b.spot) == (player, kind, spot)]

    def _check_spot(self, player: str, spot: int) -> None:
        """BA-15: standing players may not bet on the spots reserved for seated players
        (read: a seat's spot is its seated player's alone)."""
        last = self.rules.seats + self.rules.standing_spots
        if isinstance(spot, bool) or not isinstance(spot, int) or not 1 <= spot <= last:
            raise InvalidInput(f"spot {spot}: the layout has spots 1–{last}")
        if spot <= self.rules.seats and self.seats[player] != spot:
            who = "a standing player" if self.seats[player] is None else "another seat's player"
            raise BetNotAllowed(
                f"spot {spot} is reserved for its seated player, not {who}", rule="BA-15"
            )

    def _check_amount(self, kind: BaccaratBetKind, amount: Money) -> None:
        """BA-13 the table's limit for each bet; BA-18 house note (BA-R5 option): Banker bets
        in multiples of the minimum."""
        lim = self.rules.limit(kind)
        if amount.currency != self.rules.currency:
            raise InvalidInput(f"{amount} is not in {self.rules.currency}")
        if not lim.minimum <= amount <= lim.maximum:
            raise BetNotAllowed(
                f"{kind} bets from {lim.minimum} to {lim.maximum}, not {amount}", rule="BA-13"
            )
        if (
            kind is BaccaratBetKind.BANKER
            and self.rules.banker_multiples_of_minimum
            and amount.minor % lim.minimum.minor
        ):
            raise BetNotAllowed(
                f"Banker bets in multiples of the minimum {lim.minimum}", rule="BA-18"
            )

    def differential(self, bets: Iterable[Bet] | None = None) -> Money:
        """BA-14: total Banker stakes minus total Player stakes, in absolute value."""
        net = 0
        for b in self.holds if bets is None else bets:
            if b.kind is BaccaratBetKind.BANKER:
                net += b.amount.minor
            elif b.kind is BaccaratBetKind.PLAYER:
                net -= b.amount.minor
        return self._money(abs(net))

    def _check_differential(self, after: list[Bet]) -> None:
        """BA-14: unequal Banker and Player stakes are accepted up to the table's limit."""
        limit = self.rules.differential_limit
        if limit is not None and self.differential(after) > limit:
            raise BetNotAllowed(
                f"the Banker/Player difference would be {self.differential(after)}, "
                f"over the table's {limit}",
                rule="BA-14",
            )

    def _check_betting(self, actor: Actor) -> str:
        player = self._player(actor)
        self._known(player)
        if self.phase is BaccaratPhase.DEMONSTRATION:
            raise BetNotAllowed("demonstration hands are dealt with no bets", rule="BA-2.2")
        if self.phase is not BaccaratPhase.BETTING:
            raise OutOfOrder(f"bets are placed before the deal (now: {self.phase})", rule="BA-7.1")
        return player

    def _check_stake(self, amount: Money) -> None:
        if not isinstance(amount, Money):
            raise InvalidInput(f"a bet is an amount of money, not {amount!r}")
        if not amount.is_positive():
            raise InvalidInput(f"a bet must be more than zero, not {amount.format()}")

    def _check_chips(self, player: str, needed: Money) -> None:
        if self._money(self.stacks[player]) < needed:
            raise InsufficientFunds(
                f"{needed.format()} is more than the {self._money(self.stacks[player]).format()} "
                "in chips in front of you"
            )

    def verify_place_bet(
        self, player: str | Actor, kind: BaccaratBetKind, amount: Money, spot: int | None = None
    ) -> None:
        name = self._check_betting(_as_player(player))
        kind = BaccaratBetKind(kind)
        self._check_stake(amount)
        spot = self.default_spot(name) if spot is None else spot
        self._check_spot(name, spot)
        old = self._spot_holds(name, kind, spot)
        before = sum((b.amount for b in old), Money.zero(self.rules.currency))
        if old and all(b.carried for b in old):
            self._check_tie_change(kind, kind, before, before + amount)
        self._check_amount(kind, before + amount)
        after = [*self.holds, Bet(name, kind, amount, spot)]
        self._check_differential(after)
        self._check_chips(name, amount)

    def can_place_bet(
        self, player: str | Actor, kind: BaccaratBetKind, amount: Money, spot: int | None = None
    ) -> bool:
        return _can(self.verify_place_bet, player, kind, amount, spot)

    @operation(
        actor=Role.PLAYER,
        rule="BA-13",
        args=(
            Arg("bet", _BET, to="kind"),
            Arg("amount", AMOUNT),
            Arg("spot", optional(WHOLE), None),
        ),
        actor_param="player",
    )
    def place_bet(
        self, player: str | Actor, kind: BaccaratBetKind, amount: Money, spot: int | None = None
    ) -> tuple[Event, ...]:
        """BA-13: place ``amount`` on ``kind`` (added to the player's bet there, if any)."""
        self.verify_place_bet(player, kind, amount, spot)
        name = _as_player(player).name
        spot = self.default_spot(name) if spot is None else spot
        out: list[Event] = []
        self._put(
            BetPlaced(
                self._table_id,
                self._bet_id(),
                name,
                str(BaccaratBetKind(kind)),
                amount.minor,
                spot,
                self._cur,
            ),
            out,
        )
        return tuple(out)

    def _bet_id(self) -> str:
        return f"{self._table_id}:{self.bets_placed + 1}"

    def _check_tie_change(
        self, kind: BaccaratBetKind, to_kind: BaccaratBetKind, before: Money, amount: Money
    ) -> None:
        """BA-12 / BA-R2: after a tie, the house's alternatives for the bets left on."""
        choices = self.rules.tie_choices
        if amount.is_zero():
            if TieChoice.WITHDRAW not in choices:
                raise BetNotAllowed(
                    "after a tie these bets may not be withdrawn here", rule="BA-R2"
                )
            return
        if TieChoice.CHANGE in choices:
            return  # BA-12 (3): reduced or not, or moved Player ↔ Banker
        if TieChoice.INCREASE in choices and to_kind is kind and amount >= before:
            return  # SJM: only increased (BA-18 house note)
        raise BetNotAllowed(
            "after a tie these bets may only be "
            + " or ".join(sorted(str(c) for c in choices))
            + " here",
            rule="BA-R2",
        )

    def verify_change_bet(
        self,
        player: str | Actor,
        kind: BaccaratBetKind,
        amount: Money,
        *,
        to_kind: BaccaratBetKind | None = None,
        spot: int | None = None,
    ) -> None:
        name = self._check_betting(_as_player(player))
        kind = BaccaratBetKind(kind)
        spot = self.default_spot(name) if spot is None else spot
        old = self._spot_holds(name, kind, spot)
        if not old:
            raise InvalidInput(f"you have no {kind} bet on spot {spot}")
        before = sum((b.amount for b in old), Money.zero(self.rules.currency))
        to = kind if to_kind is None else BaccaratBetKind(to_kind)
        if to is not kind and (
            {kind, to} != {BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER}
            or self._spot_holds(name, to, spot)
        ):
            raise BetNotAllowed(f"a {kind} bet cannot move to {to} here", rule="BA-12")
        if not isinstance(amount, Money) or amount.is_negative():
            raise InvalidInput(f"a bet cannot be negative: {amount}")
        if all(b.carried for b in old):
            self._check_tie_change(kind, to, before, amount)
        if amount.is_zero():
            return
        self._check_amount(to, amount)
        after = [b for b in self.holds if b not in old]
        after.append(Bet(name, to, amount, spot))
        self._check_differential(after)
        if amount > before:
            self._check_chips(name, amount - before)

    def can_change_bet(
        self,
        player: str | Actor,
        kind: BaccaratBetKind,
        amount: Money,
        *,
        to_kind: BaccaratBetKind | None = None,
        spot: int | None = None,
    ) -> bool:
        return _can(self.verify_change_bet, player, kind, amount, to_kind=to_kind, spot=spot)

    @operation(
        actor=Role.PLAYER,
        rule="BA-12",
        args=(
            Arg("bet", _BET, to="kind"),
            Arg("amount", AMOUNT),
            Arg("to_bet", optional(_BET), None, to="to_kind"),
            Arg("spot", optional(WHOLE), None),
        ),
        actor_param="player",
    )
    def change_bet(
        self,
        player: str | Actor,
        kind: BaccaratBetKind,
        amount: Money,
        *,
        to_kind: BaccaratBetKind | None = None,
        spot: int | None = None,
    ) -> tuple[Event, ...]:
        """Set the player's ``kind`` bet to ``amount`` (0 takes it down), optionally moving it
        between Player and Banker. For a bet left on after a tie this is BA-12's choice
        (1) withdraw or (3) change, as the table allows (BA-R2)."""
        self.verify_change_bet(player, kind, amount, to_kind=to_kind, spot=spot)
        name = _as_player(player).name
        kind = BaccaratBetKind(kind)
        spot = self.default_spot(name) if spot is None else spot
        old = self._spot_holds(name, kind, spot)
        rule = "BA-12" if all(b.carried for b in old) else "BA-13"
        to = kind if to_kind is None else BaccaratBetKind(to_kind)
        out: list[Event] = []
        ev = BetChanged(
            self._table_id,
            name,
            str(kind),
            spot,
            str(to),
            amount.minor,
            sum(b.amount.minor for b in old),
            tuple(b.id for b in old),
            None if amount.is_zero() else self._bet_id(),
            rule,
            self._cur,
        )
        self._put(ev, out)
        return tuple(out)

    @operation(
        actor=Role.PLAYER,
        rule="BA-12",
        args=(Arg("bet", _BET, to="kind"), Arg("spot", optional(WHOLE), None)),
        actor_param="player",
    )
    def withdraw_bet(
        self, player: str | Actor, kind: BaccaratBetKind, spot: int | None = None
    ) -> tuple[Event, ...]:
        """Take a bet down before the deal (after a tie: BA-12 (1))."""
        return self.change_bet(player, kind, Money.zero(self.rules.currency), spot=spot)

    # --- BA-7 dealing, BA-9 third cards, BA-16 squeeze ------------------------------------------

    def squeeze_holders(self) -> dict[Side, str | None]:
        """BA-16: the seated player with the largest bet on a side handles that side's cards
        (BA-R6; equal bets: the lower seat). None: the dealer opens them."""
        holders: dict[Side, str | None] = {Side.PLAYER: None, Side.BANKER: None}
        if not self.rules.squeeze or self.rules.continuous_shuffler:  # BA-7.2 face up
            return holders
        for side in Side:
            best: tuple[int, int] | None = None
            for b in self.bets:
                seat = self.seats.get(b.player)
                if b.kind is _side_kind(side) and seat is not None and b.spot == seat:
                    key = (-b.amount.minor, seat)
                    if best is None or key < best:
                        best, holders[side] = key, b.player
        return holders

    def verify_deal(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-7.1")
        if self.phase not in (BaccaratPhase.BETTING, BaccaratPhase.DEMONSTRATION):
            raise OutOfOrder(f"no hand can be dealt now ({self.phase})", rule="BA-7.1")
        if self.shoe_over:
            raise OutOfOrder("the last hand of the shoe is over", rule="BA-3.1")
        if not self.rules.continuous_shuffler and self.cards_left() < 6:
            raise OutOfOrder("fewer than six cards are left: change the shoe", rule="BA-3.2")

    def can_deal(self, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_deal, by)

    def _machine(self, hand: int, k: int, in_hand: Sequence[Card]) -> Card:
        """BA-R4: the continuous shuffler's ``k``-th card of a hand, from the full set less
        the hand's cards, chosen by the shoe's seed (``Rng.for_event``, label
        ``shoe:<n>:hand:<h>:card:<k>``)."""
        assert self.shoe_commitment is not None
        seed = self._keyring[self.shoe_commitment]
        rng = Rng.for_event(seed, self._table_id, f"shoe:{self.shoe_number}:hand:{hand}:card:{k}")
        pool = Counter(full_set(self.rules.decks))
        pool.subtract(in_hand)
        cards = sorted(pool.elements())
        return cards[rng.below(len(cards))]

    @operation(
        actor=_DEALERS,
        rule="BA-7.1",
        args=(
            Arg("cards", optional(parsed_list(parse_cards, "a list of cards such as 'Td'")), None),
        ),
        actor_param="by",
    )
    def deal(
        self,
        rng: Rng | None = None,
        *,
        by: Actor = Actor.DEALER,
        cards: Sequence[Card] | None = None,
    ) -> tuple[Event, ...]:
        """BA-7.1: two cards each, one at a time, Player first, face down (face up from a
        continuous shuffler, BA-7.2); betting is closed. Then the hand goes on as the rules
        deal it (reveals, BA-9 third cards, settlement) until a holder must squeeze (BA-16)
        or, from a physical shoe, a third card must be keyed in (:meth:`draw`).
        ``rng`` is not used: chance comes from the shoe's committed seed, or from a
        physical shoe whose four ``cards`` the dealer keys in, in dealing order (Player,
        Banker, Player, Banker)."""
        del rng
        self.verify_deal(by)
        if cards is not None and len(cards) != 4:
            raise InvalidInput(
                "the deal is four cards: Player, Banker, Player, Banker (BA-7.1)", rule="BA-7.1"
            )
        self._verify_keyed(cards, "deal", "BA-7.1")
        out: list[Event] = []
        if cards is not None:
            self._key_cards("deal", {"cards": [str(c) for c in cards]}, cards, by, out)
        self._deal(by, out)
        return tuple(out)

    def third_card_due(self) -> Side | None:
        """From a physical shoe: the side whose third card (BA-9) the dealer must key in now."""
        step = self.next_step()
        if not self.keyed or step is None or step[0] is not Step.DRAW:
            return None
        assert isinstance(self.shoe, KeyedShoe)
        return None if self.shoe.known(self.position) else step[1]

    def verify_draw(self, card: Card, by: Actor = Actor.DEALER) -> None:
        side = self.third_card_due()
        rule = "BA-9.3" if side is Side.BANKER else "BA-9.1"
        self._dealer(by, rule)
        if side is None:
            raise OutOfOrder("no third card is to be keyed in now", rule=rule)
        self._verify_keyed((card,), "draw", rule)

    def can_draw(self, card: Card, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_draw, card, by)

    @operation(
        actor=_DEALERS,
        rule="BA-9",
        args=(Arg("card", parsed(Card.parse, "a card such as 'Td'")),),
        actor_param="by",
    )
    def draw(self, card: Card, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-9: the third card the drawing rules require, keyed in from a physical shoe as it
        leaves it; the hand then goes on as the rules deal it."""
        self.verify_draw(card, by)
        out: list[Event] = []
        self._key_cards("draw", {"card": str(card)}, (card,), by, out)
        self._advance(out)
        return tuple(out)

    def _deal(self, by: Actor, out: list[Event]) -> None:
        demo = self.phase is BaccaratPhase.DEMONSTRATION
        holders = {str(k): None if demo else v for k, v in self.squeeze_holders().items()}
        number = self.hand_number + 1
        cards: tuple[str, ...] = ()
        was_out = self.cut_card_out
        if self.rules.continuous_shuffler:
            dealt: list[Card] = []
            for k in range(4):
                dealt.append(self._machine(number, k, dealt))
            cards = tuple(str(c) for c in dealt)
        out_now = not was_out and self.cut_index is not None and self.position + 4 > self.cut_index
        self._put(CardsDealt(number, demo, holders, out_now, cards, str(by)), out)
        self._advance(out)

    def next_step(self) -> tuple[Step, Side | None] | None:
        """What the hand needs next — None outside a hand. BA-7.1 Player's cards are opened
        first; BA-9 the third cards, Player's first; BA-16 a third card opened on its own."""
        h = self.hand
        if h is None:
            return None
        if h.hidden[Side.PLAYER] == 2:
            return Step.REVEAL, Side.PLAYER
        if h.hidden[Side.BANKER] == 2:
            return Step.REVEAL, Side.BANKER
        pt, bt = total(h.player[:2]), total(h.banker[:2])
        if len(h.player) == 2 and player_draws(pt, bt):
            return Step.DRAW, Side.PLAYER
        if h.hidden[Side.PLAYER]:
            return Step.REVEAL, Side.PLAYER
        third = h.player[2].value if len(h.player) == 3 else None
        if len(h.banker) == 2 and banker_draws(bt, pt, third):
            return Step.DRAW, Side.BANKER
        if h.hidden[Side.BANKER]:
            return Step.REVEAL, Side.BANKER
        return Step.SETTLE, None

    def holder_due(self) -> tuple[str, Side] | None:
        """The holder who must squeeze now (BA-16), and the side."""
        step = self.next_step()
        if step is None or step[0] is not Step.REVEAL or self.hand is None:
            return None
        side = step[1]
        assert side is not None
        holder = self.hand.holders.get(side)
        return None if holder is None else (holder, side)

    def _advance(self, out: list[Event]) -> None:
        """The dealer's part of a hand, by the rules, until a holder must act or it ends."""
        while (step := self.next_step()) is not None:
            what, side = step
            h = self.hand
            assert h is not None
            if what is Step.REVEAL:
                assert side is not None
                if h.holders.get(side):
                    return  # BA-16: the holder squeezes (or times out)
                self._reveal(side, DEALER, out)
            elif what is Step.DRAW:
                assert side is not None
                if self.third_card_due() is not None:
                    return  # a physical shoe: the dealer keys the third card in (draw)
                self._draw(side, out)
            else:
                self._settle(out)

    def _reveal(self, side: Side, by: str, out: list[Event]) -> None:
        h = self.hand
        assert h is not None
        cards = h.cards(side)[-h.hidden[side] :]
        self._put(CardsRevealed(str(side), by, tuple(str(c) for c in cards)), out)

    def _draw(self, side: Side, out: list[Event]) -> None:
        """BA-9: the third card the drawing rules require: face down to a holder, face up
        otherwise (and face up if it was exposed, BA-4)."""
        h = self.hand
        assert h is not None
        rule = "BA-9.1" if side is Side.PLAYER else "BA-9.3"
        if self.rules.continuous_shuffler:
            card = self._machine(h.number, len(h.player) + len(h.banker), h.player + h.banker)
            self._put(ThirdCardDealt(str(side), str(card), rule, False), out)
            return
        card = self.shoe[self.position]
        comes_out = (
            not self.cut_card_out and self.cut_index is not None and self.position >= self.cut_index
        )
        face_up = self.exposed is not None or not h.holders.get(side)
        self._put(ThirdCardDealt(str(side), str(card) if face_up else None, rule, comes_out), out)

    def verify_reveal(self, side: Side, by: str | Actor) -> None:
        actor = _as_player(by)
        due = self.holder_due()
        if due is None:
            raise OutOfOrder("no cards are waiting to be squeezed", rule="BA-16")
        holder, due_side = due
        if Side(side) is not due_side:
            raise OutOfOrder(f"the {due_side} cards are opened now, not the {side}", rule="BA-7.1")
        if actor.role is not Role.PLAYER or actor.name != holder:
            raise RuleViolation(f"{holder} holds the {due_side} cards, not {actor}", rule="BA-16")

    def can_reveal(self, side: Side, by: str | Actor) -> bool:
        return _can(self.verify_reveal, side, by)

    @operation(
        actor=(Role.PLAYER, *_DEALERS), rule="BA-16", args=(Arg("side", _SIDE),), actor_param="by"
    )
    def reveal(self, side: Side, by: str | Actor) -> tuple[Event, ...]:
        """BA-16 / BA-R6: the holder opens their side's face-down cards; a third card is
        opened on its own, never together with the first two. The hand then goes on."""
        self.verify_reveal(side, by)
        out: list[Event] = []
        self._reveal(Side(side), _as_player(by).name, out)
        self._advance(out)
        return tuple(out)

    # --- BA-10 dealing errors, BA-R3 void hand -----------------------------------------------

    def verify_correct_error(self, description: str, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-10", supervisor=True)
        if self.phase is not BaccaratPhase.DEALING:
            raise OutOfOrder("no hand is being dealt", rule="BA-10")
        if not isinstance(description, str) or not description.strip():
            raise InvalidInput("describe the error corrected", rule="BA-10")

    def can_correct_error(self, description: str, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_correct_error, description, by)

    @operation(
        actor=(*_DEALERS, Role.SUPERVISOR),
        rule="BA-10",
        args=(Arg("description", TEXT),),
        actor_param="by",
    )
    def correct_error(self, description: str, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-10: a dealing error (or a third card drawn against the rules) corrected at once;
        the hand goes on as the rules deal it."""
        self.verify_correct_error(description, by)
        out: list[Event] = []
        self._put(DealingErrorCorrected(description, str(by)), out)
        return tuple(out)

    def verify_void_hand(self, reason: str, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-10", supervisor=True)
        if self.phase is not BaccaratPhase.DEALING:
            raise OutOfOrder("no hand is being dealt", rule="BA-10")
        if not isinstance(reason, str) or not reason.strip():
            raise InvalidInput("say why the hand is void", rule="BA-10")

    def can_void_hand(self, reason: str, by: Actor = Actor.DEALER) -> bool:
        return _can(self.verify_void_hand, reason, by)

    @operation(
        actor=(*_DEALERS, Role.SUPERVISOR),
        rule="BA-10",
        args=(Arg("reason", TEXT),),
        actor_param="by",
    )
    def void_hand(self, reason: str, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-10 / BA-R3: a hand that cannot be corrected is void: every bet is returned and
        the cards dealt are discarded (face-down ones unseen). It counts as a hand of the
        shoe: a void last hand (BA-3.1) ends the shoe (see docs/baccarat.md)."""
        self.verify_void_hand(reason, by)
        assert self.hand is not None
        returned = tuple(
            {"bet_id": b.id, "player": b.player, "stake": b.amount.minor} for b in self.holds
        )
        out: list[Event] = []
        self._put(
            HandVoided(self._table_id, self.hand.number, reason, returned, str(by), self._cur), out
        )
        self._after_hand(out)
        return tuple(out)

    # --- the supervisor's void and correction (the kernel's void_round, correct_round) ------
    #
    # A supervisor voids the last hand settled (every bet of it refunded: its settlement
    # becomes the hand's BA-R3 void; its cards stay out of the shoe) or a hand being dealt
    # (the rules' own BA-10 void), and corrects a keyed-in card of the last hand: the keyed
    # event at ``of_seq`` (``deal`` or ``draw``) is re-run with the corrected cards, then the
    # hand's later keyed draws and reveals as far as the rules still take them (a third card
    # the corrected hand no longer draws goes back to the shoe; one it now needs is keyed in
    # by the dealer). The money of either is the difference (``contract.money_delta``).

    CORRECTABLE: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"deal": ("cards",), "draw": ("card",)}
    )
    FOLLOWING_OPS: ClassVar[frozenset[str]] = frozenset({"draw", "reveal", "time_out"})

    def _effective(self) -> list[tuple[int, Event]]:
        """The history the table's state follows, as ``(seq, event)`` (see
        ``contract.effective_events``), except that a baccarat void keeps the hand: its
        settlement at ``from_seq`` is replaced by the hand's void (BA-R3). From the
        journal's window on (a snapshot's state before it)."""
        out: list[tuple[int, Event]] = []
        for seq, ev in enumerate(self._events, start=self._journal.first):
            if isinstance(ev, Checkpoint):
                continue
            if isinstance(ev, RoundVoided):
                out = [
                    (s, voided(e, ev.reason, ev.approved_by))
                    if s == ev.from_seq and isinstance(e, HandSettled)
                    else (s, e)
                    for s, e in out
                ]
            elif isinstance(ev, RoundCorrected):
                out = [(s, e) for s, e in out if s < ev.of_seq]
                out.extend((seq, event_from_json(json.loads(json.dumps(j)))) for j in ev.rerun)
            else:
                out.append((seq, ev))
        return out

    def _rename_holds(self, new: Mapping[str, str]) -> None:
        self.holds = [
            dataclasses.replace(b, id=new.get(b.id.split("~")[0], b.id)) for b in self.holds
        ]

    def _keyed_at(self, of_seq: int, event: Event) -> bool:
        return isinstance(event, CardsKeyed) and event.op in self.CORRECTABLE

    def _void_leaves(self, wrong: list[Event], approver: str, reason: str) -> list[Event]:
        settled = wrong[0]
        assert isinstance(settled, HandSettled)
        return [voided(settled, reason, approver)]

    def _void_span(self) -> tuple[int, list[Event]]:
        """BA-R3: the last hand settled, if nothing was bet, dealt or keyed since; a void
        turns its settlement into the hand's void (every bet returned)."""
        for seq, ev in reversed(self._effective()):
            if isinstance(ev, HandSettled):
                if not ev.results:
                    raise OutOfOrder("the last hand had no bets: there is nothing to void")
                return seq, [ev]
            if isinstance(
                ev,
                HandVoided
                | BetPlaced
                | BetChanged
                | CardsDealt
                | CardsKeyed
                | PlayerLeft
                | LimitsChanged,
            ):
                break  # a limits change is an operation of its own: void first, then change
        raise OutOfOrder(
            "there is no hand to void: the last hand was voided, or bets or cards came since",
            rule="BA-R3",
        )

    def verify_void_round(self, actor: Actor, requested_by: str) -> None:
        """A second supervisor voids the hand being dealt (BA-10) or the last hand settled
        before the next bet or deal (BA-R3)."""
        self._supervisor(actor, requested_by)
        if self.phase is BaccaratPhase.DEALING:
            self.verify_void_hand("void", actor)
        else:
            self._void_span()

    def void_round(
        self, actor: Actor, reason: str, *, request: int, requested_by: str
    ) -> tuple[Event, ...]:
        """Void the hand being dealt (the rules' BA-10 void, the request named in its
        reason) or the last hand settled: every bet of it refunded, its settlement reversed
        (BA-R3: its cards stay out of the shoe)."""
        self.verify_void_round(actor, requested_by)
        if self.phase is BaccaratPhase.DEALING:
            reason = supervisor_reason(reason)
            return self.void_hand(f"{reason} (request {request} by {requested_by})", actor)
        return super().void_round(actor, reason, request=request, requested_by=requested_by)

    def _check_limits(
        self,
        min_bet: Money,
        max_bet: Money,
        bets: Mapping[str, tuple[Money, Money]],
        differential: Money | None,
    ) -> None:
        """BA-13: Player and Banker ``min_bet`` – ``max_bet``, other bets by name in
        ``bets``; BA-14: the differential; each a positive amount in the table's currency,
        the minimum not above the maximum (the rule set validates)."""
        self._rules_with(min_bet, max_bet, bets, differential)

    # --- BA-11 … BA-18 settlement -----------------------------------------------------------

    def _settle_bet(self, b: Bet, h: Hand, result: HandOutcome) -> BetSettlement:
        """One bet's result: BA-11 / BA-12 / BA-13, paid as BA-17, less BA-18."""
        zero = Money.zero(self.rules.currency)

        def row(res: BetResult, won: Money = zero, commission: Money = zero) -> BetSettlement:
            return BetSettlement(
                b.id, b.player, b.kind, b.spot, b.amount.minor, res, won.minor, commission.minor
            )

        kind = b.kind
        if kind in (BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER) and result is HandOutcome.TIE:
            if TieChoice.KEEP not in self.rules.tie_choices:
                return row(BetResult.RETURNED)  # BA-R2: this table does not let them stay on
            return row(BetResult.PUSH)  # BA-12: not lost
        wins = {
            BaccaratBetKind.PLAYER: result is HandOutcome.PLAYER,  # BA-11
            BaccaratBetKind.BANKER: result is HandOutcome.BANKER,  # BA-11
            BaccaratBetKind.TIE: result is HandOutcome.TIE,  # BA-12
            BaccaratBetKind.BANKER_PAIR: is_pair(h.banker),  # BA-13
            BaccaratBetKind.PLAYER_PAIR: is_pair(h.player),  # BA-13
        }[kind]
        if not wins:
            return row(BetResult.LOSE)
        won = b.amount * PAYS[kind]  # BA-17
        commission = zero
        if kind is BaccaratBetKind.BANKER:
            if self.rules.no_commission:  # BA-R7: 1:1, but 1:2 on a Banker six
                if total(h.banker) == 6:
                    won = b.amount.times(NO_COMMISSION_BANKER_SIX, self.rules.commission_rounding)
            else:  # BA-18: 5% of the win, rounded (BA-R5: down to the minor unit)
                commission = won.times(self.rules.commission, self.rules.commission_rounding)
        return row(BetResult.WIN, won, commission)

    def _settle(self, out: list[Event]) -> None:
        """BA-11 / BA-12 the result; BA-17 payouts; BA-18 commission; BA-3.1 the last hand."""
        h = self.hand
        assert h is not None
        pt, bt = total(h.player), total(h.banker)
        result = outcome(pt, bt)
        rows = (
            ()
            if h.demonstration
            else tuple(self._settle_bet(b, h, result).to_json() for b in self.holds)
        )
        ev = HandSettled(
            self._table_id,
            h.number,
            str(result),
            pt,
            bt,
            rows,
            self._shoe_over_after_hand(h),
            self._cur,
        )
        self._put(ev, out)
        self._after_hand(out)

    def _shoe_over_after_hand(self, h: Hand) -> bool:
        """BA-3.1: the hand the cut card came out in is the last (``last``), or one more hand
        is played (``one_more``). A cut card that came out between hands, in a burn (BA-4 /
        BA-8), counts for the next hand (BA-R1)."""
        if self.rules.continuous_shuffler or not self.cut_card_out or h.demonstration:
            return False
        if self.hands_left is None:  # the cut card came out in this hand (or before it: BA-R1)
            return self.rules.last_hand is LastHand.LAST
        return self.hands_left <= 1

    def _after_hand(self, out: list[Event]) -> None:
        """After a hand: a card exposed during it and not drawn is burned (BA-4 / BA-8); the
        last hand ends the shoe and reveals its seed (BA-3.1)."""
        if self.shoe_over:
            self._finish_shoe("BA-3.1", Actor.SYSTEM, out)
        elif self.exposed is not None:
            self._put(CardsBurned(1, "BA-8", str(self.exposed), SYSTEM), out)

    # --- who acts now, and time-outs ---------------------------------------------------------

    def pending(self) -> tuple[Pending, ...]:
        """Who may act now, with which operations, and the rules' default on a time-out.

        Betting has no deadline in the engine: bettors may bet (optional, no default) and
        the dealer's ``deal`` closes betting — on a time-out the table deals (BA-7.1), so
        the server's clock closes betting by timing the dealer out. A holder who does not
        squeeze is timed out and the dealer opens the cards (BA-16). A shuffle is chance
        the dealer (or the server, as ``system``) performs: it has no default.
        """
        players = [Actor.player(p) for p in self.seats]
        phase = self.phase
        if phase is BaccaratPhase.SHUFFLE:
            return (Pending(Actor.DEALER, ("shuffle", "load_shoe", "open_shoe"), None, "BA-2.1"),)
        # a physical shoe has no default deal: the dealer keys the cards in
        manual = self.keyed
        if phase is BaccaratPhase.CUT:
            turned = manual and self.rules.burn is not BurnMode.DECKS
            return (
                Pending(Actor.DEALER, ("cut",), None if turned else "cut", "BA-2.1"),
                *(Pending(p, ("cut",), None, "BA-2.1", required=False) for p in players),
            )
        if phase is BaccaratPhase.DEMONSTRATION:
            deal = None if manual else "deal"
            return (Pending(Actor.DEALER, ("deal", "expose_card"), deal, "BA-2.2"),)
        if phase is BaccaratPhase.BETTING:
            dealer_ops = ("deal", "burn", "expose_card", "end_shoe")
            return (
                *(Pending(p, BET_OPERATIONS, None, "BA-13", required=False) for p in players),
                Pending(Actor.DEALER, dealer_ops, None if manual else "deal", "BA-7.1"),
            )
        third = self.third_card_due()
        if third is not None:
            rule = "BA-9.3" if third is Side.BANKER else "BA-9.1"
            ops = ("draw", "expose_card", "correct_error", "void_hand")
            return (Pending(Actor.DEALER, ops, None, rule),)
        due = self.holder_due()
        dealer = Pending(
            Actor.DEALER, ("expose_card", "correct_error", "void_hand"), None, "BA-10", False
        )
        if due is not None:
            holder, _side = due
            return (Pending(Actor.player(holder), ("reveal",), "reveal", "BA-16"), dealer)
        return (dealer,)

    def _time_out(self, pending: Pending, rng: Rng | None) -> None:
        """The rules' default after a time-out: the table deals; the dealer cuts; the
        dealer opens the holder's cards (BA-16)."""
        out: list[Event] = []
        if pending.default == "deal":
            self._deal(Actor.SYSTEM, out)
        elif pending.default == "cut":
            self.cut(None, Actor.SYSTEM)
        else:  # reveal: the dealer opens the holder's cards (BA-16)
            due = self.holder_due()
            assert due is not None
            self._reveal(due[1], DEALER, out)
            self._advance(out)

    # --- snapshots (the kernel's checkpoint) ----------------------------------------------------

    #: a snapshot leaves out the kernel's parts and the roads' cache
    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = Table.SNAPSHOT_SKIP | {"_roads_memo"}

    def _reset_caches(self) -> None:
        self._roads_memo = None

    # --- replay: the command that starts with an event -------------------------------------------

    def _command_of(self, ev: Event) -> Command | None:
        """The command that starts with ``ev`` in a journal (replay), None for derived events.
        A shuffle is replayed with its seed, known by its commitment."""
        match ev:
            case PlayerJoined():
                return Command(
                    Actor.player(ev.player), "sit", {"seat": ev.seat, "amount": ev.buy_in}
                )
            case ChipsBought():
                return Command(Actor.player(ev.player), "buy_in", {"amount": ev.amount})
            case PlayerLeft():
                return Command(Actor.player(ev.player), "leave")
            case ShoeShuffled():
                seed = self._keyring.get(ev.commitment)
                if seed is None:
                    raise SeedNotRevealed(
                        f"shoe {ev.shoe}: its seed (commitment {ev.commitment[:16]}…) is not "
                        "revealed in this journal (nor given)"
                    )
                return Command(
                    Actor.parse(ev.by), "shuffle", {"seed": seed.hex(), "new_set": ev.new_set}
                )
            case ShoeLoaded():
                args: dict[str, JsonValue] = {"cards": list(ev.cards), "new_set": ev.new_set}
                return Command(Actor.parse(ev.by), "load_shoe", args)
            case ShoeOpened():
                return Command(Actor.parse(ev.by), "open_shoe", {"new_set": ev.new_set})
            case CardsKeyed():
                return Command(Actor.parse(ev.by), ev.op, _plain(ev.args))
            case ShoeEnded():
                return Command(Actor.parse(ev.by), "end_shoe")
            case CutCardPlaced():
                return Command(Actor.parse(ev.by), "cut", {"from_end": ev.from_end})
            case CardsBurned():
                return Command(Actor.parse(ev.by), "burn", {"count": ev.count})
            case BetPlaced():
                return Command(
                    Actor.player(ev.player),
                    "place_bet",
                    {"bet": ev.bet, "amount": ev.amount, "spot": ev.spot},
                )
            case BetChanged():
                return Command(
                    Actor.player(ev.player),
                    "change_bet",
                    {"bet": ev.bet, "amount": ev.amount, "to_bet": ev.to_bet, "spot": ev.spot},
                )
            case CardsDealt():
                return Command(Actor.parse(ev.by), "deal")
            case CardsRevealed():
                return Command(Actor.player(ev.by), "reveal", {"side": ev.side})
            case CardExposed():
                return Command(Actor.parse(ev.by), "expose_card")
            case DealingErrorCorrected():
                return Command(Actor.parse(ev.by), "correct_error", {"description": ev.description})
            case HandVoided():
                return Command(Actor.parse(ev.by), "void_hand", {"reason": ev.reason})
        return None

    # --- what each viewer sees -----------------------------------------------------------------

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        """What ``viewer`` may see now (JSON-plain): never the shoe's order nor a face-down
        card; a player sees their own chips, the staff every player's."""
        staff = viewer.role in (ViewerRole.DEALER, ViewerRole.SUPERVISOR)
        h = self.hand
        hand: dict[str, JsonValue] | None = None
        if h is not None:
            hand = {
                "number": h.number,
                "demonstration": h.demonstration,
                "player": list(h.shown(Side.PLAYER)),
                "banker": list(h.shown(Side.BANKER)),
                "holders": {str(s): h.holders.get(s) for s in Side},
            }
        players: list[JsonValue] = []
        for name, seat in self.seats.items():
            row: dict[str, JsonValue] = {"player": name, "seat": seat}
            if staff or (viewer.role is ViewerRole.PLAYER and viewer.name == name):
                row["chips"] = self.stacks[name]
            players.append(row)
        last: dict[str, JsonValue] | None = None
        if self.results and self.results[-1].outcome is not HandOutcome.VOID:
            r = self.results[-1]
            last = {
                "hand": r.number,
                "shoe": r.shoe,
                "demonstration": r.demonstration,
                "outcome": str(r.outcome),
                "player": [str(c) for c in r.player_cards],
                "banker": [str(c) for c in r.banker_cards],
                "player_total": r.player_total,
                "banker_total": r.banker_total,
            }
        elif self.results:
            last = {"hand": self.results[-1].number, "outcome": str(HandOutcome.VOID)}
        settled: list[JsonValue] = []
        if self.last_settled is not None:
            settled = [dict(r) for r in self.last_settled.results]
        out: dict[str, JsonValue] = {
            "game": GAME,
            "table_id": self._table_id,
            "viewer": str(viewer),
            "rules": _plain(self.rules.to_json()),
            "phase": str(self.phase),
            "shoe": {
                "number": self.shoe_number,
                "commitment": self.shoe_commitment,
                "cards": len(self.shoe),
                "dealt": self.position,
                "to_cut": self.cards_to_cut(),
                "cut_card_out": self.cut_card_out,
                "burned_face_down": self.burned_face_down,
                "exposed": None if self.exposed is None else str(self.exposed),
                "continuous_shuffler": self.rules.continuous_shuffler,
                "keyed": self.keyed,
                "third_card_due": None if (t := self.third_card_due()) is None else str(t),
            },
            "players": players,
            "bets": [
                {
                    "player": b.player,
                    "bet": str(b.kind),
                    "spot": b.spot,
                    "stake": b.amount.minor,
                    "carried": b.carried,
                }
                for b in self.bets
            ],
            "hand": hand,
            "last_hand": last,
            "last_settlement": settled,
            "roads": self._roads_json(),  # (shared from view to view: read only)
            "next_limits": None if self._next_limits is None else self._next_limits.limits_json(),
            "pending": [p.to_json() for p in self.pending()],
        }
        return out

    # --- conveniences (scripts, tests, benchmarks) ------------------------------------------------

    def start_shoe(self, rng: Rng, *, cut_from_end: int | None = None) -> list[Event]:
        """Shuffle, cut and burn (BA-2.1); with a continuous shuffler just load (BA-2.3)."""
        events = list(self.shuffle(rng))
        if self.phase is BaccaratPhase.CUT:
            events += self.cut(cut_from_end)
        return events

    def play_hand(self, rng: Rng | None = None) -> list[Event]:
        """Deal a whole hand, each holder squeezing in turn (BA-16), to its settlement."""
        del rng
        events = list(self.deal())
        while (due := self.holder_due()) is not None:
            events += self.reveal(due[1], due[0])
        return events

    def shoe_results(self, shoe: int | None = None) -> list[HandResult]:
        """The hands of a shoe (the current one by default), without demonstrations and
        void hands: what the road maps show."""
        n = self.shoe_number if shoe is None else shoe
        return [
            r
            for r in self.results
            if r.shoe == n and not r.demonstration and r.outcome is not HandOutcome.VOID
        ]

    def roads(self) -> Roads:
        return roads([r.road_hand() for r in self.shoe_results()])

    def _roads_json(self) -> JsonValue:
        """:meth:`roads` as JSON, worked out again only when a hand was recorded or a new
        shoe began (``results`` only grows, and its entries are frozen)."""
        key = (self.shoe_number, len(self.results))
        if self._roads_memo is None or self._roads_memo[0] != key:
            self._roads_memo = (key, _plain(self.roads().to_json()))
        return self._roads_memo[1]

    def snapshot(self) -> dict[str, Any]:
        """The public state as plain data (replay must rebuild it exactly); no hidden order."""
        return {
            "view": self.view(Viewer.SUPERVISOR),
            "hands_left": self.hands_left,
            "demonstrations_left": self.demonstrations_left,
            "hand_number": self.hand_number,
            "discards": self.discards,
            "holds": [
                (b.id, b.player, str(b.kind), b.spot, b.amount.minor, b.carried) for b in self.holds
            ],
            "results": [(r.number, r.shoe, str(r.outcome), r.demonstration) for r in self.results],
            "head": self._journal.head,
        }


def _plain(obj: Mapping[str, Any]) -> dict[str, JsonValue]:
    """Plain JSON built by a ``to_json`` typed loosely."""
    return dict(obj)
