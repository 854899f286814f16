"""Baccarat (百家樂) — Macau statutory rules 《百家樂法定規章》 (seed 004).

Read beside ``../shared/rules/baccarat.md``: the sections below follow the articles in order
(BA-1 … BA-18) and each rule is implemented once, citing its ID; the options the statute
leaves to the house are the Readings BA-R1 … BA-R7, gathered in :class:`BaccaratRules`.

The engine is pure: no I/O, no clock, no randomness of its own. Chance enters in two named
places, the shuffle of a shoe (:meth:`BaccaratTable.shuffle`) and, with a continuous
shuffler, each card drawn from the machine; both are recorded as events. Every operation is
``verify_x`` (raises a typed error naming the rule) / ``can_x`` / ``x`` (applies and returns
the journalled event), and the state changes only by applying events, so
``core.journal.replay`` rebuilds the identical table from the journal.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, ClassVar

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    JournalError,
    OutOfOrder,
    RuleViolation,
)
from macau_tables.core.errors import passes as _can
from macau_tables.core.journal import Event, Journal, event, register_replayer
from macau_tables.core.ledger import CAGE, Ledger, Posting, Transaction
from macau_tables.core.money import MOP, Currency, Money, Rounding
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat_roads import RoadHand, Roads, roads

GAME = "baccarat"

# ==========================================================================================
# BA-1 Equipment: 6 to 12 decks of 52 cards
# ==========================================================================================

RANKS = "A23456789TJQK"
SUITS = "cdhs"
MIN_DECKS, MAX_DECKS = 6, 12  # BA-1
MIN_SEATS = 7  # BA-1: seven or more seats


@dataclass(frozen=True, order=True)
class Card:
    """A playing card: ``rank`` 1 (ace) … 13 (king), ``suit`` one of ``c d h s``.

    ``Card.parse("Td")`` ↔ ``str(card) == "Td"`` (``"10d"`` is read too).
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
            raise InvalidInput(f"not a card: rank {self.rank!r}, suit {self.suit!r}")

    @classmethod
    def parse(cls, text: str) -> Card:
        t = text.strip()
        if t[:2] == "10":
            t = "T" + t[2:]
        if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
            raise InvalidInput(f"not a card: {text!r} (try 'Td', 'As', '9h')")
        return cls(RANKS.index(t[0].upper()) + 1, t[1].lower())

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    # --- BA-5 Values ----------------------------------------------------------------------
    @property
    def value(self) -> int:
        """BA-5: tens and face cards count 0, the others their face value (ace 1)."""
        return self.rank if self.rank < 10 else 0

    @property
    def burn_count(self) -> int:
        """BA-R1 burning by the first card: its face value, tens and faces counting 10."""
        return min(self.rank, 10)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """``"Td 9h As"`` or ``["Td", "9h"]`` → cards."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in items)


def full_set(decks: int) -> tuple[Card, ...]:
    """BA-1: ``decks`` packs of 52 cards, in pack order."""
    return tuple(Card(r, s) for _ in range(decks) for s in SUITS for r in range(1, 14))


# --- Chance structure, for the analysis code ---------------------------------------------

Composition = tuple[int, ...]  # 13 counts, ace … king


def composition(cards: Iterable[Card]) -> Composition:
    """How many cards of each rank (ace … king)."""
    counts = Counter(c.rank for c in cards)
    return tuple(counts.get(r, 0) for r in range(1, 14))


def fresh_composition(decks: int) -> Composition:
    return (4 * decks,) * 13


def rank_probabilities(comp: Composition) -> dict[int, Fraction]:
    """The chance node of one card drawn from ``comp``: rank → exact probability."""
    total = sum(comp)
    if total == 0:
        raise InvalidInput("no cards left to draw")
    return {r: Fraction(n, total) for r, n in zip(range(1, 14), comp, strict=True) if n}


def value_probabilities(comp: Composition) -> dict[int, Fraction]:
    """The same chance node by BA-5 value (0 … 9)."""
    out: dict[int, Fraction] = {}
    for rank, p in rank_probabilities(comp).items():
        v = rank if rank < 10 else 0
        out[v] = out.get(v, Fraction(0)) + p
    return out


# ==========================================================================================
# Options: the Readings BA-R1 … BA-R7 (defaults as read in ../shared/rules/baccarat.md)
# ==========================================================================================


class BurnMode(StrEnum):
    DECKS = "decks"  # BA-2.1: as many cards as there are decks
    FIRST_CARD = "first_card"  # BA-2.1: turn the first card, burn its value (BA-R1)


class LastHand(StrEnum):
    ONE_MORE = "one_more"  # BA-3.1: one more hand after the one the cut card came out in
    LAST = "last"  # BA-3.1: the hand the cut card came out in is the last


class TieChoice(StrEnum):
    """BA-12's alternatives for Player/Banker bets after a tie (BA-R2: the house picks)."""

    WITHDRAW = "withdraw"  # BA-12 (1)
    KEEP = "keep"  # BA-12 (2)
    CHANGE = "change"  # BA-12 (3): reduce or not, or move Player ↔ Banker
    INCREASE = "increase"  # SJM house practice (BA-18 note): only increase


TIE_FULL = frozenset({TieChoice.WITHDRAW, TieChoice.KEEP, TieChoice.CHANGE})  # BA-R2 default
TIE_INCREASE_ONLY = frozenset({TieChoice.KEEP, TieChoice.INCREASE})  # BA-R2 SJM


class BetKind(StrEnum):
    """BA-13 the bets."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    BANKER_PAIR = "banker_pair"
    PLAYER_PAIR = "player_pair"

    @classmethod
    def parse(cls, text: str) -> BetKind:
        t = text.strip().lower().replace("-", "_").replace(" ", "_")
        aliases = {"p": "player", "b": "banker", "t": "tie", "bp": "banker_pair"}
        aliases |= {"pp": "player_pair", "閒": "player", "莊": "banker", "和": "tie"}
        try:
            return cls(aliases.get(t, t))
        except ValueError:
            raise InvalidInput(
                f"not a bet: {text!r} (player, banker, tie, banker_pair, player_pair)"
            ) from None


class Side(StrEnum):
    """BA-6: only two hands."""

    PLAYER = "player"  # 閒
    BANKER = "banker"  # 莊


@dataclass(frozen=True)
class BetLimit:
    minimum: Money
    maximum: Money


def _limits(
    main: tuple[int, int] = (100, 20_000),
    tie: tuple[int, int] = (100, 2_500),
    pair: tuple[int, int] = (100, 2_000),
    currency: Currency = MOP,
) -> dict[BetKind, BetLimit]:
    def lim(a: int, b: int) -> BetLimit:
        return BetLimit(Money.of(a, currency), Money.of(b, currency))

    return {
        BetKind.PLAYER: lim(*main),
        BetKind.BANKER: lim(*main),
        BetKind.TIE: lim(*tie),
        BetKind.BANKER_PAIR: lim(*pair),
        BetKind.PLAYER_PAIR: lim(*pair),
    }


@dataclass(frozen=True)
class BaccaratRules:
    """The table's options; each default is the Reading of ../shared/rules/baccarat.md."""

    decks: int = 8  # BA-1, BA-R1
    cut_from_end: int = 14  # BA-2.1, BA-R1: never fewer than 12
    burn: BurnMode = BurnMode.DECKS  # BA-2.1, BA-R1
    last_hand: LastHand = LastHand.ONE_MORE  # BA-3.1, BA-R1
    demonstration_hands: int = 0  # BA-2.2, BA-R1: 0 to 3
    continuous_shuffler: bool = False  # BA-2.3, BA-7.2, BA-R4
    tie_choices: frozenset[TieChoice] = TIE_FULL  # BA-12, BA-R2
    commission: Fraction = Fraction(1, 20)  # BA-18: 5%
    commission_rounding: Rounding = Rounding.DOWN  # BA-R5
    banker_multiples_of_minimum: bool = False  # BA-18 house note, BA-R5 (off)
    no_commission: bool = False  # BA-R7 (off)
    squeeze: bool = False  # BA-16 (the casino may allow it), BA-R6
    seats: int = 7  # BA-1: seven or more
    standing_spots: int = 7  # BA-15: spots for standing players, numbered after the seats
    limits: Mapping[BetKind, BetLimit] = field(default_factory=_limits, hash=False)
    differential_limit: Money | None = field(default_factory=lambda: Money.of(20_000))  # BA-14
    currency: Currency = MOP

    def __post_init__(self) -> None:
        if not MIN_DECKS <= self.decks <= MAX_DECKS:
            raise InvalidInput(f"{self.decks} decks: 6 to 12", rule="BA-1")
        if self.seats < MIN_SEATS:
            raise InvalidInput(f"{self.seats} seats: seven or more", rule="BA-1")
        if not self.continuous_shuffler:
            _check_cut(self.cut_from_end, self.decks)
        if not 0 <= self.demonstration_hands <= 3:
            raise InvalidInput("at most three demonstration hands", rule="BA-2.2")
        if not self.tie_choices:
            raise InvalidInput("a table offers at least one tie alternative", rule="BA-R2")
        if set(self.limits) != set(BetKind):
            raise InvalidInput("a limit for every bet", rule="BA-13")

    def limit(self, kind: BetKind) -> BetLimit:
        return self.limits[kind]

    def to_json(self) -> dict[str, Any]:
        return {
            "decks": self.decks,
            "cut_from_end": self.cut_from_end,
            "burn": str(self.burn),
            "last_hand": str(self.last_hand),
            "demonstration_hands": self.demonstration_hands,
            "continuous_shuffler": self.continuous_shuffler,
            "tie_choices": sorted(str(c) for c in self.tie_choices),
            "commission": [self.commission.numerator, self.commission.denominator],
            "commission_rounding": self.commission_rounding.value,
            "banker_multiples_of_minimum": self.banker_multiples_of_minimum,
            "no_commission": self.no_commission,
            "squeeze": self.squeeze,
            "seats": self.seats,
            "standing_spots": self.standing_spots,
            "limits": {str(k): [v.minimum.minor, v.maximum.minor] for k, v in self.limits.items()},
            "differential_limit": (
                None if self.differential_limit is None else self.differential_limit.minor
            ),
            "currency": [self.currency.code, self.currency.minor_digits, self.currency.symbol],
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> BaccaratRules:
        cur = Currency(*obj["currency"])
        diff = obj["differential_limit"]
        return cls(
            decks=obj["decks"],
            cut_from_end=obj["cut_from_end"],
            burn=BurnMode(obj["burn"]),
            last_hand=LastHand(obj["last_hand"]),
            demonstration_hands=obj["demonstration_hands"],
            continuous_shuffler=obj["continuous_shuffler"],
            tie_choices=frozenset(TieChoice(c) for c in obj["tie_choices"]),
            commission=Fraction(*obj["commission"]),
            commission_rounding=Rounding(obj["commission_rounding"]),
            banker_multiples_of_minimum=obj["banker_multiples_of_minimum"],
            no_commission=obj["no_commission"],
            squeeze=obj["squeeze"],
            seats=obj["seats"],
            standing_spots=obj["standing_spots"],
            limits={
                BetKind(k): BetLimit(Money(a, cur), Money(b, cur))
                for k, (a, b) in obj["limits"].items()
            },
            differential_limit=None if diff is None else Money(diff, cur),
            currency=cur,
        )


# ==========================================================================================
# BA-2 Starting a shoe; BA-3 the last hand; BA-8 burning
# ==========================================================================================

MIN_CUT_FROM_END = 12  # BA-2.1: the cut card at least (about) 12 cards from the end


def _check_cut(from_end: int, decks: int) -> None:
    """BA-2.1: never fewer than 12 cards behind the cut card (and at least a deck in play)."""
    if from_end < MIN_CUT_FROM_END:
        raise BetNotAllowed(
            f"the cut card goes at least {MIN_CUT_FROM_END} cards from the end, not {from_end}",
            rule="BA-2.1",
        )
    if from_end > 52 * decks - 52:
        raise InvalidInput(f"cut card {from_end} from the end leaves too few cards", rule="BA-2.1")


class Phase(StrEnum):
    SHUFFLE = "shuffle"  # BA-2.1 / BA-3.1: a new shoe is needed
    CUT = "cut"  # BA-2.1
    BURN = "burn"  # BA-2.1
    DEMONSTRATION = "demonstration"  # BA-2.2
    BETTING = "betting"
    DEALING = "dealing"  # BA-7 … BA-11


# ==========================================================================================
# BA-5 Values, BA-9 the third card — as data
# ==========================================================================================


def total(cards: Iterable[Card]) -> int:
    """BA-5: totals count modulo 10 (9 is the highest)."""
    return sum(c.value for c in cards) % 10


NATURALS = frozenset({8, 9})  # BA-9.2 / BA-9.4 (6): "例牌"
ALL_VALUES = frozenset(range(10))

PLAYER_DRAWS_ON = frozenset({0, 1, 2, 3, 4, 5})  # BA-9.1 ("1, 2, 3, 4, 5 or 10 points")
PLAYER_STANDS_ON = frozenset({6, 7, 8, 9})  # BA-9.2

#: BA-9.3 / BA-9.4: Banker's two-card total → the values of Player's third card against which
#: Banker draws (for any other third card Banker stands).
BANKER_DRAWS_AGAINST: Mapping[int, frozenset[int]] = {
    0: ALL_VALUES,  # BA-9.3 (1)
    1: ALL_VALUES,  # BA-9.3 (1)
    2: ALL_VALUES,  # BA-9.3 (1)
    3: ALL_VALUES - {8},  # BA-9.3 (2); BA-9.4 (1)
    4: frozenset({2, 3, 4, 5, 6, 7}),  # BA-9.3 (3); BA-9.4 (2)
    5: frozenset({4, 5, 6, 7}),  # BA-9.3 (4); BA-9.4 (3)
    6: frozenset({6, 7}),  # BA-9.3 (5); BA-9.4 (4)
    7: frozenset(),  # BA-9.4 (5)
    8: frozenset(),  # BA-9.4 (5)
    9: frozenset(),  # BA-9.4 (5)
}
#: BA-9.3 (6) / BA-9.4 (4): when Player did not draw, Banker draws on 0–5.
BANKER_DRAWS_WHEN_PLAYER_STOOD = frozenset({0, 1, 2, 3, 4, 5})


def player_draws(player_total: int, banker_total: int) -> bool:
    """BA-9.1 / BA-9.2: Player's third card, decided on the two-card totals."""
    if player_total in NATURALS or banker_total in NATURALS:
        return False  # BA-9.2: stands on 8, 9, or against Banker's natural
    return player_total in PLAYER_DRAWS_ON


def banker_draws(banker_total: int, player_total: int, player_third: int | None) -> bool:
    """BA-9.3 / BA-9.4: Banker's third card; ``player_third`` is the value of Player's third
    card, None when Player did not draw."""
    if player_total in NATURALS or banker_total in NATURALS:
        return False  # BA-9.4 (6), (5)
    if player_third is None:
        return banker_total in BANKER_DRAWS_WHEN_PLAYER_STOOD
    return player_third in BANKER_DRAWS_AGAINST[banker_total]


def play_out(draw: Callable[[], Card]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A whole hand from a source of cards (BA-7.1, BA-9): ``(player cards, banker cards)``."""
    p1, b1, p2, b2 = draw(), draw(), draw(), draw()
    player, banker = [p1, p2], [b1, b2]
    pt, bt = total(player), total(banker)
    third: int | None = None
    if player_draws(pt, bt):
        player.append(draw())
        third = player[2].value
    if banker_draws(bt, pt, third):
        banker.append(draw())
    return tuple(player), tuple(banker)


# ==========================================================================================
# BA-11 the winner, BA-12 tie, BA-13 pairs, BA-17 payouts, BA-18 commission
# ==========================================================================================

PAYS: Mapping[BetKind, int] = {  # BA-17: to one
    BetKind.PLAYER: 1,
    BetKind.BANKER: 1,
    BetKind.TIE: 8,
    BetKind.BANKER_PAIR: 11,
    BetKind.PLAYER_PAIR: 11,
}
NO_COMMISSION_BANKER_SIX = Fraction(1, 2)  # BA-R7: a Banker win on 6 pays 1:2


def outcome(player_total: int, banker_total: int) -> str:
    """BA-11 the higher total wins; BA-12 equal totals tie. ``"P"``, ``"B"`` or ``"T"``."""
    if player_total == banker_total:
        return "T"
    return "P" if player_total > banker_total else "B"


def is_pair(cards: Sequence[Card]) -> bool:
    """BA-13: the side's first two cards have the same rank (J-J yes, J-Q no; suits ignored)."""
    return cards[0].rank == cards[1].rank


@dataclass(frozen=True)
class Bet:
    player: str
    kind: BetKind
    amount: Money
    spot: int
    carried: bool = False  # a Player/Banker bet left on the layout after a tie (BA-12)


@dataclass(frozen=True)
class HandResult:
    number: int
    shoe: int
    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    outcome: str  # "P" "B" "T", or "V" for a void hand (BA-10)
    demonstration: bool = False

    @property
    def player_total(self) -> int:
        return total(self.player_cards)

    @property
    def banker_total(self) -> int:
        return total(self.banker_cards)

    def road_hand(self) -> RoadHand:
        return RoadHand(
            self.outcome,  # type: ignore[arg-type]
            banker_pair=is_pair(self.banker_cards),
            player_pair=is_pair(self.player_cards),
            natural=total(self.player_cards[:2]) in NATURALS
            or total(self.banker_cards[:2]) in NATURALS,
        )


# ==========================================================================================
# Events (every decision and every chance result)
# ==========================================================================================


@event
@dataclass(frozen=True)
class PlayerJoined(Event):
    kind: ClassVar[str] = "baccarat.player_joined"
    player: str
    seat: int | None  # None: standing (BA-15)
    buy_in: int


@event
@dataclass(frozen=True)
class PlayerLeft(Event):
    kind: ClassVar[str] = "baccarat.player_left"
    player: str
    cash_out: int


@event
@dataclass(frozen=True)
class ShoeShuffled(Event):
    """BA-2.1 the shuffle (chance: the order of every card); BA-3.1 / BA-3.2 a new shoe."""

    kind: ClassVar[str] = "baccarat.shoe_shuffled"
    shoe: int
    cards: tuple[str, ...]  # empty for a continuous shuffler (BA-2.3)
    reason: str  # "BA-2.1" first shoe, "BA-3.1" after the last hand, "BA-3.2" changed
    new_set: bool  # BA-3.1: damaged cards, a new set


@event
@dataclass(frozen=True)
class CutCardPlaced(Event):
    kind: ClassVar[str] = "baccarat.cut_card_placed"
    from_end: int
    by: str


@event
@dataclass(frozen=True)
class CardsBurned(Event):
    kind: ClassVar[str] = "baccarat.cards_burned"
    cards: tuple[str, ...]
    rule: str  # "BA-2.1" at the start of the shoe, "BA-8" before a hand
    shown: str | None  # the first card turned (BA-R1 first_card mode)


@event
@dataclass(frozen=True)
class BetPlaced(Event):
    kind: ClassVar[str] = "baccarat.bet_placed"
    player: str
    bet: str
    amount: int
    spot: int


@event
@dataclass(frozen=True)
class BetChanged(Event):
    """A bet changed before the deal (a tie's bets: BA-12 / BA-R2); ``amount`` 0 = taken down."""

    kind: ClassVar[str] = "baccarat.bet_changed"
    player: str
    bet: str
    spot: int
    to_bet: str
    amount: int
    rule: str


@event
@dataclass(frozen=True)
class CardsDealt(Event):
    """BA-7.1: Player, Banker, Player, Banker (chance: the cards)."""

    kind: ClassVar[str] = "baccarat.cards_dealt"
    hand: int
    cards: tuple[str, ...]
    demonstration: bool
    holders: dict[str, str | None]  # BA-16: who squeezes each side
    cut_card_out: bool  # BA-3.1


@event
@dataclass(frozen=True)
class CardsRevealed(Event):
    """BA-16 / BA-R6: the holder opens their side's cards (the third card on its own)."""

    kind: ClassVar[str] = "baccarat.cards_revealed"
    side: str
    by: str
    cards: tuple[str, ...]


@event
@dataclass(frozen=True)
class ThirdCardDealt(Event):
    kind: ClassVar[str] = "baccarat.third_card_dealt"
    side: str
    card: str
    rule: str  # "BA-9.1" or "BA-9.3"
    cut_card_out: bool


@event
@dataclass(frozen=True)
class CardExposed(Event):
    """BA-4: a card turned face up by accident stays valid; the hand goes on."""

    kind: ClassVar[str] = "baccarat.card_exposed"
    card: str


@event
@dataclass(frozen=True)
class DealingErrorCorrected(Event):
    kind: ClassVar[str] = "baccarat.dealing_error_corrected"
    description: str


@event
@dataclass(frozen=True)
class HandVoided(Event):
    """BA-10 / BA-R3: the hand is void, every bet returned, the cards discarded."""

    kind: ClassVar[str] = "baccarat.hand_voided"
    hand: int
    reason: str
    returned: tuple[dict[str, Any], ...]


@event
@dataclass(frozen=True)
class HandSettled(Event):
    kind: ClassVar[str] = "baccarat.hand_settled"
    hand: int
    outcome: str
    player_total: int
    banker_total: int
    results: tuple[dict[str, Any], ...]  # one per bet: stake, result, paid, commission
    shoe_over: bool  # BA-3.1


# ==========================================================================================
# The table
# ==========================================================================================

_NAME = re.compile(r"[\w.\-]+")

STAKES = "table:stakes"  # chips on the layout
HOUSE = "bank:house"
COMMISSION = "house:commission"


@dataclass
class Hand:
    number: int
    demonstration: bool
    player: list[Card] = field(default_factory=list)
    banker: list[Card] = field(default_factory=list)
    hidden: dict[Side, int] = field(default_factory=dict)  # face-down cards awaiting a reveal
    holders: dict[Side, str | None] = field(default_factory=dict)
    exposed: list[Card] = field(default_factory=list)

    def cards(self, side: Side) -> list[Card]:
        return self.player if side is Side.PLAYER else self.banker


def _account(player: str) -> str:
    return f"player:{player}"


class BaccaratTable:
    """One baccarat table: its shoe, players, bets, hands, ledger and journal."""

    def __init__(self, rules: BaccaratRules | None = None) -> None:
        self.rules = rules or BaccaratRules()
        self.journal = Journal(GAME, {"rules": self.rules.to_json()})
        self.ledger = Ledger()
        self.phase = Phase.SHUFFLE
        self.shoe_number = 0
        self.shoe: tuple[Card, ...] = ()
        self.position = 0  # next card to deal from the shoe
        self.cut_index: int | None = None  # shoe index of the first card behind the cut card
        self.cut_card_out = False
        self.hands_left: int | None = None  # BA-3.1: set when the cut card comes out
        self.demonstrations_left = 0
        self.seats: dict[str, int | None] = {}
        self.bets: list[Bet] = []
        self.hand: Hand | None = None
        self.hand_number = 0
        self.results: list[HandResult] = []
        self.discards = 0
        self.exposed_before_deal = False

    # --- events -----------------------------------------------------------------------------

    def _commit(self, ev: Event) -> Event:
        self._apply(ev)
        self.journal.append(ev)
        return ev

    def _apply(self, ev: Event) -> None:
        handler = getattr(self, "_on_" + ev.kind.split(".", 1)[1])
        handler(ev)

    def _money(self, minor: int) -> Money:
        return Money(minor, self.rules.currency)

    # --- players and spots (BA-1 seats, BA-15) ---------------------------------------------

    def verify_join(self, player: str, buy_in: Money, seat: int | None = None) -> None:
        if not _NAME.fullmatch(player):
            raise InvalidInput(f"player name {player!r}: letters, digits, _ . - only")
        if player in self.seats:
            raise InvalidInput(f"{player} is already at the table")
        if buy_in.currency != self.rules.currency or buy_in.is_negative():
            raise InvalidInput(f"buy-in {buy_in}")
        if seat is not None:
            if not 1 <= seat <= self.rules.seats:
                raise InvalidInput(f"seat {seat}: the table has seats 1–{self.rules.seats}")
            if seat in self.seats.values():
                raise InvalidInput(f"seat {seat} is taken")

    def can_join(self, player: str, buy_in: Money, seat: int | None = None) -> bool:
        return _can(self.verify_join, player, buy_in, seat)

    def join(self, player: str, buy_in: Money, seat: int | None = None) -> Event:
        """A player arrives with chips from the cage, seated at ``seat`` or standing."""
        self.verify_join(player, buy_in, seat)
        return self._commit(PlayerJoined(player, seat, buy_in.minor))

    def _on_player_joined(self, ev: PlayerJoined) -> None:
        self.seats[ev.player] = ev.seat
        if ev.buy_in:
            amount = self._money(ev.buy_in)
            self.ledger.post(Transaction.transfer(CAGE, _account(ev.player), amount, "buy-in"))

    def verify_leave(self, player: str) -> None:
        self._known(player)
        hand = self.hand
        if hand is not None and player in hand.holders.values():
            raise RuleViolation(f"{player} holds the cards and may not leave", rule="BA-16")
        if any(b.player == player for b in self.bets):
            raise OutOfOrder(f"{player} has bets on the layout", rule="BA-12")

    def can_leave(self, player: str) -> bool:
        return _can(self.verify_leave, player)

    def leave(self, player: str) -> Event:
        self.verify_leave(player)
        return self._commit(PlayerLeft(player, self.balance(player).minor))

    def _on_player_left(self, ev: PlayerLeft) -> None:
        del self.seats[ev.player]
        if ev.cash_out:
            amount = self._money(ev.cash_out)
            self.ledger.post(Transaction.transfer(_account(ev.player), CAGE, amount, "cash-out"))

    def balance(self, player: str) -> Money:
        return self.ledger.balance(_account(player), self.rules.currency)

    def _known(self, player: str) -> None:
        if player not in self.seats:
            raise InvalidInput(f"{player} is not at the table")

    def default_spot(self, player: str) -> int:
        """A seated player's own spot; a standing player's first standing spot (BA-15)."""
        seat = self.seats[player]
        return seat if seat is not None else self.rules.seats + 1

    # --- BA-2.1 / BA-3 the shoe: shuffle, cut, burn ----------------------------------------

    def verify_shuffle(self, reason: str | None = None) -> None:
        if self.phase is Phase.DEALING:
            raise OutOfOrder("a hand is being dealt", rule="BA-3.2")
        if self.phase is Phase.BETTING and any(not b.carried for b in self.bets):
            raise OutOfOrder("the shoe is changed after a hand, before new bets", rule="BA-3.2")

    def can_shuffle(self) -> bool:
        return _can(self.verify_shuffle)

    def shuffle(self, rng: Rng, *, new_set: bool = False) -> Event:
        """BA-2.1: shuffle a new shoe (chance: :meth:`Rng.shuffle`, recorded as an event).

        Also the reshuffle after the last hand (BA-3.1) and a change of shoe after any hand
        (BA-3.2). With a continuous shuffler the cards are loaded into the machine (BA-2.3).
        """
        self.verify_shuffle()
        if self.rules.continuous_shuffler:
            return self.load_shoe((), new_set=new_set)
        return self.load_shoe(rng.shuffle(full_set(self.rules.decks)), new_set=new_set)

    def load_shoe(self, cards: Sequence[Card], *, new_set: bool = False) -> Event:
        """A shoe shuffled elsewhere (e.g. by the shuffling machine of BA-1), in dealing order.

        It must hold exactly the table's decks (BA-1); empty for a continuous shuffler.
        """
        self.verify_shuffle()
        expected = () if self.rules.continuous_shuffler else full_set(self.rules.decks)
        if Counter(cards) != Counter(expected):
            raise InvalidInput(f"a shoe holds exactly {self.rules.decks} decks", rule="BA-1")
        if self.shoe_number == 0:
            reason = "BA-2.1"
        elif self.phase is Phase.SHUFFLE and self.hands_left == 0:
            reason = "BA-3.1"
        else:
            reason = "BA-3.2"
        ev = ShoeShuffled(self.shoe_number + 1, tuple(str(c) for c in cards), reason, new_set)
        return self._commit(ev)

    def _on_shoe_shuffled(self, ev: ShoeShuffled) -> None:
        self.shoe_number = ev.shoe
        self.shoe = parse_cards(ev.cards)
        self.position = 0
        self.cut_index = None
        self.cut_card_out = False
        self.hands_left = None
        self.discards = 0
        self.exposed_before_deal = False
        if self.rules.continuous_shuffler:
            self.phase = Phase.BETTING  # BA-2.3: no cut, burn or demonstration (BA-R4)
        else:
            self.phase = Phase.CUT

    def verify_cut(self, from_end: int | None = None) -> None:
        if self.phase is not Phase.CUT:
            raise OutOfOrder("the cut comes after the shuffle", rule="BA-2.1")
        _check_cut(self.rules.cut_from_end if from_end is None else from_end, self.rules.decks)

    def can_cut(self, from_end: int | None = None) -> bool:
        return _can(self.verify_cut, from_end)

    def cut(self, from_end: int | None = None, by: str = "dealer") -> Event:
        """BA-2.1: a player or the dealer cuts; the cut card goes ``from_end`` cards from the
        end (the table's default when None), never fewer than 12."""
        self.verify_cut(from_end)
        return self._commit(
            CutCardPlaced(self.rules.cut_from_end if from_end is None else from_end, by)
        )

    def _on_cut_card_placed(self, ev: CutCardPlaced) -> None:
        self.cut_index = len(self.shoe) - ev.from_end
        self.phase = Phase.BURN

    def verify_burn(self, count: int | None = None) -> None:
        """BA-2.1 the burn that starts a shoe; BA-8 a burn before any hand."""
        if self.rules.continuous_shuffler:
            raise OutOfOrder("a continuous shuffler burns no cards", rule="BA-R4")
        if self.phase is Phase.BURN:
            if count is not None:
                raise InvalidInput("the burn at the start of a shoe is set by BA-2.1")
            return
        if self.phase is not Phase.BETTING or any(not b.carried for b in self.bets):
            raise OutOfOrder("cards are burned at the start of a hand", rule="BA-8")
        if count is None or count < 1:
            raise InvalidInput("how many cards to burn?", rule="BA-8")
        assert self.cut_index is not None
        if self.position + count > self.cut_index:
            raise RuleViolation("a burn may not reach the cut card", rule="BA-8")

    def can_burn(self, count: int | None = None) -> bool:
        return _can(self.verify_burn, count)

    def burn(self, count: int | None = None) -> Event:
        """Burn cards: at the start of a shoe as BA-2.1 says (``count`` None), or ``count``
        cards at the start of any hand (BA-8)."""
        self.verify_burn(count)
        shown: str | None = None
        if self.phase is Phase.BURN:
            rule = "BA-2.1"
            if self.rules.burn is BurnMode.DECKS:
                count = self.rules.decks
            else:  # BA-R1: turn the first card; burn as many as it shows (tens, faces: 10)
                first = self.shoe[self.position]
                shown = str(first)
                count = 1 + first.burn_count
        else:
            rule = "BA-8"
        assert count is not None
        cards = self.shoe[self.position : self.position + count]
        return self._commit(CardsBurned(tuple(str(c) for c in cards), rule, shown))

    def _on_cards_burned(self, ev: CardsBurned) -> None:
        self._take_from_shoe(parse_cards(ev.cards))
        self.discards += len(ev.cards)
        if self.phase is Phase.BURN:
            self.demonstrations_left = self.rules.demonstration_hands
            self.phase = Phase.DEMONSTRATION if self.demonstrations_left else Phase.BETTING

    def _take_from_shoe(self, cards: Sequence[Card]) -> bool:
        """Advance the shoe past ``cards`` (checking they are the next ones); return whether
        the cut card came out (BA-3.1)."""
        if self.rules.continuous_shuffler:
            return False
        out = False
        for card in cards:
            if self.position >= len(self.shoe) or self.shoe[self.position] != card:
                raise JournalError(f"{card} is not the next card of the shoe")
            if self.cut_index is not None and self.position >= self.cut_index:
                if not self.cut_card_out:
                    out = True
                self.cut_card_out = True
            self.position += 1
        return out

    def cards_left(self) -> int:
        return len(self.shoe) - self.position

    def cards_to_cut(self) -> int | None:
        """Cards still to deal before the cut card comes out (None: no cut card)."""
        if self.cut_index is None:
            return None
        return max(0, self.cut_index - self.position)

    def composition(self) -> Composition:
        """The unseen cards: what the next card is drawn from (for the analysis)."""
        if self.rules.continuous_shuffler:  # BA-R4: always the full set
            return fresh_composition(self.rules.decks)
        return composition(self.shoe[self.position :])

    # --- BA-4 exposed cards ----------------------------------------------------------------

    def verify_expose_card(self) -> None:
        if self.rules.continuous_shuffler:
            raise OutOfOrder("the machine deals face up", rule="BA-7.2")
        if self.phase not in (Phase.BETTING, Phase.DEALING, Phase.DEMONSTRATION):
            raise OutOfOrder("no card is coming out of the shoe", rule="BA-4")
        if self.position >= len(self.shoe):
            raise OutOfOrder("the shoe is empty", rule="BA-4")

    def can_expose_card(self) -> bool:
        return _can(self.verify_expose_card)

    def expose_card(self) -> Event:
        """BA-4: the next card comes face up by accident; it stays valid, the hand goes on
        (and bets already placed stand; reading: no new bets once it is seen)."""
        self.verify_expose_card()
        return self._commit(CardExposed(str(self.shoe[self.position])))

    def _on_card_exposed(self, ev: CardExposed) -> None:
        if self.hand is not None:
            self.hand.exposed.append(Card.parse(ev.card))
        else:
            self.exposed_before_deal = True

    # --- BA-13 … BA-15, BA-18 bets ---------------------------------------------------------

    def _spot_bet(self, player: str, kind: BetKind, spot: int) -> Bet | None:
        for b in self.bets:
            if b.player == player and b.kind is kind and b.spot == spot:
                return b
        return None

    def _check_spot(self, player: str, spot: int) -> None:
        """BA-15: standing players may not bet on the spots reserved for seated players
        (read: a seat's spot is its seated player's alone)."""
        last = self.rules.seats + self.rules.standing_spots
        if not 1 <= spot <= last:
            raise InvalidInput(f"spot {spot}: the layout has spots 1–{last}")
        if spot <= self.rules.seats and self.seats[player] != spot:
            who = "a standing player" if self.seats[player] is None else "another seat's player"
            raise BetNotAllowed(
                f"spot {spot} is reserved for its seated player, not {who}", rule="BA-15"
            )

    def _check_amount(self, kind: BetKind, amount: Money) -> None:
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
            kind is BetKind.BANKER
            and self.rules.banker_multiples_of_minimum
            and amount.minor % lim.minimum.minor
        ):
            raise BetNotAllowed(
                f"Banker bets in multiples of the minimum {lim.minimum}", rule="BA-18"
            )

    def differential(self, bets: Iterable[Bet] | None = None) -> Money:
        """BA-14: total Banker stakes minus total Player stakes, in absolute value."""
        net = 0
        for b in self.bets if bets is None else bets:
            if b.kind is BetKind.BANKER:
                net += b.amount.minor
            elif b.kind is BetKind.PLAYER:
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

    def _check_betting(self, player: str) -> None:
        self._known(player)
        if self.phase is Phase.DEMONSTRATION:
            raise BetNotAllowed("demonstration hands are dealt with no bets", rule="BA-2.2")
        if self.phase is not Phase.BETTING:
            raise OutOfOrder(f"bets are placed before the deal (now: {self.phase})", rule="BA-7.1")
        if self.exposed_before_deal:
            raise BetNotAllowed("a card has been exposed; the bets stand as they are", rule="BA-4")

    def verify_place_bet(
        self, player: str, kind: BetKind, amount: Money, spot: int | None = None
    ) -> None:
        self._check_betting(player)
        spot = self.default_spot(player) if spot is None else spot
        self._check_spot(player, spot)
        old = self._spot_bet(player, kind, spot)
        if old is not None and old.carried:
            self._check_tie_change(old, kind, old.amount + amount)
        new_amount = amount if old is None else old.amount + amount
        if not amount.is_positive():
            raise InvalidInput(f"a bet of {amount}")
        self._check_amount(kind, new_amount)
        after = [b for b in self.bets if b is not old]
        after.append(Bet(player, kind, new_amount, spot))
        self._check_differential(after)
        if self.balance(player) < amount:
            raise InsufficientFunds(f"{player} has {self.balance(player)}, not {amount}")

    def can_place_bet(
        self, player: str, kind: BetKind, amount: Money, spot: int | None = None
    ) -> bool:
        return _can(self.verify_place_bet, player, kind, amount, spot)

    def place_bet(
        self, player: str, kind: BetKind, amount: Money, spot: int | None = None
    ) -> Event:
        """BA-13: place ``amount`` on ``kind`` (added to the player's bet there, if any)."""
        self.verify_place_bet(player, kind, amount, spot)
        spot = self.default_spot(player) if spot is None else spot
        return self._commit(BetPlaced(player, str(kind), amount.minor, spot))

    def _on_bet_placed(self, ev: BetPlaced) -> None:
        kind, amount = BetKind(ev.bet), self._money(ev.amount)
        old = self._spot_bet(ev.player, kind, ev.spot)
        new = Bet(
            ev.player,
            kind,
            amount if old is None else old.amount + amount,
            ev.spot,
            carried=old.carried if old else False,
        )
        self._replace(old, new)
        self.ledger.post(
            Transaction.transfer(_account(ev.player), STAKES, amount, f"bet {kind} spot {ev.spot}")
        )

    def _replace(self, old: Bet | None, new: Bet | None) -> None:
        if old is not None:
            i = self.bets.index(old)
            if new is None:
                del self.bets[i]
            else:
                self.bets[i] = new
        elif new is not None:
            self.bets.append(new)

    def _check_tie_change(self, old: Bet, to_kind: BetKind, amount: Money) -> None:
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
        if TieChoice.INCREASE in choices and to_kind is old.kind and amount >= old.amount:
            return  # SJM: only increased (BA-18 house note)
        raise BetNotAllowed(
            "after a tie these bets may only be "
            + " or ".join(sorted(str(c) for c in choices))
            + " here",
            rule="BA-R2",
        )

    def verify_change_bet(
        self,
        player: str,
        kind: BetKind,
        amount: Money,
        *,
        to_kind: BetKind | None = None,
        spot: int | None = None,
    ) -> None:
        self._check_betting(player)
        spot = self.default_spot(player) if spot is None else spot
        old = self._spot_bet(player, kind, spot)
        if old is None:
            raise InvalidInput(f"{player} has no {kind} bet on spot {spot}")
        to_kind = kind if to_kind is None else to_kind
        if to_kind is not kind and (
            {kind, to_kind} != {BetKind.PLAYER, BetKind.BANKER}
            or self._spot_bet(player, to_kind, spot) is not None
        ):
            raise BetNotAllowed(f"a {kind} bet cannot move to {to_kind} here", rule="BA-12")
        if old.carried:
            self._check_tie_change(old, to_kind, amount)
        if amount.is_negative():
            raise InvalidInput(f"a bet of {amount}")
        if amount.is_zero():
            return
        self._check_amount(to_kind, amount)
        after = [b for b in self.bets if b is not old]
        after.append(Bet(player, to_kind, amount, spot))
        self._check_differential(after)
        if amount > old.amount and self.balance(player) < amount - old.amount:
            raise InsufficientFunds(f"{player} has {self.balance(player)}")

    def can_change_bet(
        self,
        player: str,
        kind: BetKind,
        amount: Money,
        *,
        to_kind: BetKind | None = None,
        spot: int | None = None,
    ) -> bool:
        return _can(self.verify_change_bet, player, kind, amount, to_kind=to_kind, spot=spot)

    def change_bet(
        self,
        player: str,
        kind: BetKind,
        amount: Money,
        *,
        to_kind: BetKind | None = None,
        spot: int | None = None,
    ) -> Event:
        """Set the player's ``kind`` bet to ``amount`` (0 takes it down), optionally moving it
        between Player and Banker. For a bet left on after a tie this is BA-12's choice
        (1) withdraw or (3) change, as the table allows (BA-R2)."""
        self.verify_change_bet(player, kind, amount, to_kind=to_kind, spot=spot)
        spot = self.default_spot(player) if spot is None else spot
        old = self._spot_bet(player, kind, spot)
        rule = "BA-12" if old is not None and old.carried else "BA-13"
        to = kind if to_kind is None else to_kind
        return self._commit(BetChanged(player, str(kind), spot, str(to), amount.minor, rule))

    def withdraw_bet(self, player: str, kind: BetKind, spot: int | None = None) -> Event:
        """Take a bet down before the deal (after a tie: BA-12 (1))."""
        return self.change_bet(player, kind, Money.zero(self.rules.currency), spot=spot)

    def _on_bet_changed(self, ev: BetChanged) -> None:
        old = self._spot_bet(ev.player, BetKind(ev.bet), ev.spot)
        assert old is not None
        new_amount = self._money(ev.amount)
        delta = new_amount - old.amount
        new = (
            None
            if new_amount.is_zero()
            else Bet(ev.player, BetKind(ev.to_bet), new_amount, ev.spot, carried=old.carried)
        )
        self._replace(old, new)
        if delta.is_positive():
            self.ledger.post(Transaction.transfer(_account(ev.player), STAKES, delta, "bet up"))
        elif delta.is_negative():
            self.ledger.post(Transaction.transfer(STAKES, _account(ev.player), -delta, "bet down"))

    # --- BA-7 dealing, BA-16 squeeze -------------------------------------------------------

    def squeeze_holders(self) -> dict[Side, str | None]:
        """BA-16: the seated player with the largest bet on a side handles that side's cards
        (BA-R6; equal bets: the lower seat). None: the dealer opens them."""
        holders: dict[Side, str | None] = {Side.PLAYER: None, Side.BANKER: None}
        if not self.rules.squeeze or self.rules.continuous_shuffler:  # BA-7.2 face up
            return holders
        for side, kind in ((Side.PLAYER, BetKind.PLAYER), (Side.BANKER, BetKind.BANKER)):
            best: tuple[int, int] | None = None
            for b in self.bets:
                seat = self.seats.get(b.player)
                if b.kind is kind and seat is not None and b.spot == seat:
                    key = (-b.amount.minor, seat)
                    if best is None or key < best:
                        best, holders[side] = key, b.player
        return holders

    def verify_deal(self, rng: Rng | None = None) -> None:
        if self.phase not in (Phase.BETTING, Phase.DEMONSTRATION):
            raise OutOfOrder(f"no hand can be dealt now ({self.phase})", rule="BA-7.1")
        if self.rules.continuous_shuffler and rng is None:
            raise InvalidInput("a continuous shuffler deals by chance: pass an Rng", rule="BA-2.3")

    def can_deal(self, rng: Rng | None = None) -> bool:
        return _can(self.verify_deal, rng)

    def _draw(self, rng: Rng | None, n: int) -> list[Card]:
        if self.rules.continuous_shuffler:  # BA-R4: from the full set, less this hand's cards
            assert rng is not None
            pool = Counter(full_set(self.rules.decks))
            if self.hand is not None:
                pool.subtract(self.hand.player + self.hand.banker)
            out = []
            for _ in range(n):
                cards = sorted(pool.elements())
                card = cards[rng.below(len(cards))]
                pool[card] -= 1
                out.append(card)
            return out
        return list(self.shoe[self.position : self.position + n])

    def deal(self, rng: Rng | None = None) -> Event:
        """BA-7.1: two cards each, one at a time, Player first (a demonstration hand in the
        demonstration phase, BA-2.2). ``rng`` only for a continuous shuffler."""
        self.verify_deal(rng)
        demo = self.phase is Phase.DEMONSTRATION
        holders = {str(k): None if demo else v for k, v in self.squeeze_holders().items()}
        cards = self._draw(rng, 4)
        out = (
            not self.rules.continuous_shuffler
            and not self.cut_card_out
            and self.cut_index is not None
            and self.position + 4 > self.cut_index
        )
        ev = CardsDealt(self.hand_number + 1, tuple(str(c) for c in cards), demo, holders, out)
        return self._commit(ev)

    def _on_cards_dealt(self, ev: CardsDealt) -> None:
        cards = parse_cards(ev.cards)
        self._take_from_shoe(cards)
        self.hand_number = ev.hand
        hand = Hand(ev.hand, ev.demonstration)
        hand.player = [cards[0], cards[2]]  # BA-7.1
        hand.banker = [cards[1], cards[3]]
        hand.holders = {Side(k): v for k, v in ev.holders.items()}
        hand.hidden = {s: (2 if hand.holders.get(s) else 0) for s in Side}
        self.hand = hand
        self.phase = Phase.DEALING
        self.exposed_before_deal = False

    def next_step(self) -> str | None:
        """What the hand needs next: ``reveal:player``, ``draw:player``, ``reveal:banker``,
        ``draw:banker``, ``settle`` — None outside a hand."""
        h = self.hand
        if h is None or self.phase is not Phase.DEALING:
            return None
        if h.hidden[Side.PLAYER] == 2:
            return "reveal:player"  # BA-7.1 Player's hand is opened first
        if h.hidden[Side.BANKER] == 2:
            return "reveal:banker"
        pt, bt = total(h.player[:2]), total(h.banker[:2])
        if len(h.player) == 2 and player_draws(pt, bt):
            return "draw:player"
        if h.hidden[Side.PLAYER]:
            return "reveal:player"  # BA-16: the third card on its own
        third = h.player[2].value if len(h.player) == 3 else None
        if len(h.banker) == 2 and banker_draws(bt, pt, third):
            return "draw:banker"
        if h.hidden[Side.BANKER]:
            return "reveal:banker"
        return "settle"

    def _step(self, step: str, rule: str) -> None:
        now = self.next_step()
        if now != step:
            raise OutOfOrder(f"the hand needs {now or 'a deal'}, not {step}", rule=rule)

    def verify_reveal(self, side: Side, by: str | None = None) -> None:
        self._step(f"reveal:{side}", "BA-16")
        assert self.hand is not None
        holder = self.hand.holders.get(side)
        if by is not None and by != holder:
            raise RuleViolation(f"{holder} holds the {side} cards, not {by}", rule="BA-16")

    def can_reveal(self, side: Side, by: str | None = None) -> bool:
        return _can(self.verify_reveal, side, by)

    def reveal(self, side: Side, by: str | None = None) -> Event:
        """BA-16 / BA-R6: the holder opens their side's face-down cards; a third card is
        opened on its own, never together with the first two."""
        self.verify_reveal(side, by)
        assert self.hand is not None
        holder = self.hand.holders[side]
        assert holder is not None
        cards = self.hand.cards(side)[-self.hand.hidden[side] :]
        return self._commit(CardsRevealed(str(side), holder, tuple(str(c) for c in cards)))

    def _on_cards_revealed(self, ev: CardsRevealed) -> None:
        assert self.hand is not None
        self.hand.hidden[Side(ev.side)] = 0

    def verify_draw(self, rng: Rng | None = None) -> None:
        step = self.next_step()
        if step is None or not step.startswith("draw:"):
            raise OutOfOrder(f"no third card is due (the hand needs {step})", rule="BA-9")
        if self.rules.continuous_shuffler and rng is None:
            raise InvalidInput("a continuous shuffler deals by chance: pass an Rng", rule="BA-2.3")

    def can_draw(self, rng: Rng | None = None) -> bool:
        return _can(self.verify_draw, rng)

    def draw(self, rng: Rng | None = None) -> Event:
        """BA-9: the third card that the drawing rules require (Player's first)."""
        self.verify_draw(rng)
        step = self.next_step()
        assert step is not None
        side = Side(step.split(":")[1])
        (card,) = self._draw(rng, 1)
        out = (
            not self.rules.continuous_shuffler
            and not self.cut_card_out
            and self.cut_index is not None
            and self.position >= self.cut_index
        )
        rule = "BA-9.1" if side is Side.PLAYER else "BA-9.3"
        return self._commit(ThirdCardDealt(str(side), str(card), rule, out))

    def _on_third_card_dealt(self, ev: ThirdCardDealt) -> None:
        assert self.hand is not None
        card = Card.parse(ev.card)
        self._take_from_shoe([card])
        side = Side(ev.side)
        self.hand.cards(side).append(card)
        if self.hand.holders.get(side):
            self.hand.hidden[side] = 1

    # --- BA-10 dealing errors, BA-R3 void hand ---------------------------------------------

    def verify_correct_error(self, description: str) -> None:
        if self.phase is not Phase.DEALING:
            raise OutOfOrder("no hand is being dealt", rule="BA-10")

    def can_correct_error(self, description: str) -> bool:
        return _can(self.verify_correct_error, description)

    def correct_error(self, description: str) -> Event:
        """BA-10: a dealing error (or a third card drawn against the rules) corrected at once;
        the hand goes on as the rules deal it."""
        self.verify_correct_error(description)
        return self._commit(DealingErrorCorrected(description))

    def _on_dealing_error_corrected(self, ev: DealingErrorCorrected) -> None:
        pass

    def verify_void_hand(self, reason: str) -> None:
        if self.phase is not Phase.DEALING:
            raise OutOfOrder("no hand is being dealt", rule="BA-10")

    def can_void_hand(self, reason: str) -> bool:
        return _can(self.verify_void_hand, reason)

    def void_hand(self, reason: str) -> Event:
        """BA-10 / BA-R3: a hand that cannot be corrected is void: every bet is returned and
        the cards dealt are discarded."""
        self.verify_void_hand(reason)
        assert self.hand is not None
        returned = tuple(_bet_json(b) for b in self.bets)
        return self._commit(HandVoided(self.hand.number, reason, returned))

    def _on_hand_voided(self, ev: HandVoided) -> None:
        assert self.hand is not None
        postings = []
        for b in self.bets:
            postings += [Posting(STAKES, -b.amount), Posting(_account(b.player), b.amount)]
        if postings:
            self.ledger.post(Transaction.of(postings, f"hand {ev.hand} void (BA-R3)"))
        self.bets = []
        self._end_hand("V")

    # --- BA-11 … BA-18 settlement ----------------------------------------------------------

    def _settle_bet(self, b: Bet, h: Hand, result: str) -> tuple[str, Money, Money]:
        """One bet's result: ``(win|lose|push, amount won, commission)``."""
        zero = Money.zero(self.rules.currency)
        kind = b.kind
        if kind in (BetKind.PLAYER, BetKind.BANKER) and result == "T":
            return "push", zero, zero  # BA-12: not lost
        wins = {
            BetKind.PLAYER: result == "P",  # BA-11
            BetKind.BANKER: result == "B",  # BA-11
            BetKind.TIE: result == "T",  # BA-12
            BetKind.BANKER_PAIR: is_pair(h.banker),  # BA-13
            BetKind.PLAYER_PAIR: is_pair(h.player),  # BA-13
        }[kind]
        if not wins:
            return "lose", zero, zero
        won = b.amount * PAYS[kind]  # BA-17
        commission = zero
        if kind is BetKind.BANKER:
            if self.rules.no_commission:  # BA-R7: 1:1, but 1:2 on a Banker six
                if total(h.banker) == 6:
                    won = b.amount.times(NO_COMMISSION_BANKER_SIX, self.rules.commission_rounding)
            else:  # BA-18: 5% of the win, rounded (BA-R5: down to the minor unit)
                commission = won.times(self.rules.commission, self.rules.commission_rounding)
        return "win", won, commission

    def verify_settle(self) -> None:
        self._step("settle", "BA-11")

    def can_settle(self) -> bool:
        return _can(self.verify_settle)

    def settle(self) -> Event:
        """BA-11 / BA-12 the result; BA-17 payouts; BA-18 commission; BA-3.1 the last hand."""
        self.verify_settle()
        h = self.hand
        assert h is not None
        pt, bt = total(h.player), total(h.banker)
        result = outcome(pt, bt)
        rows = []
        if not h.demonstration:
            for b in self.bets:
                res, won, commission = self._settle_bet(b, h, result)
                if res == "push" and TieChoice.KEEP not in self.rules.tie_choices:
                    res = "returned"  # BA-R2: this table does not let them stay on
                rows.append(
                    _bet_json(b) | {"result": res, "won": won.minor, "commission": commission.minor}
                )
        return self._commit(
            HandSettled(h.number, result, pt, bt, tuple(rows), self._shoe_over_after_hand(h))
        )

    def _shoe_over_after_hand(self, h: Hand) -> bool:
        """BA-3.1: the hand the cut card came out in is the last (``last``), or one more hand
        is played (``one_more``)."""
        if self.rules.continuous_shuffler or not self.cut_card_out:
            return False
        if self.hands_left is None:  # the cut card came out in this hand
            return self.rules.last_hand is LastHand.LAST
        return self.hands_left <= 1

    def _on_hand_settled(self, ev: HandSettled) -> None:
        postings: list[Posting] = []
        keep: list[Bet] = []
        by_key = {(b.player, str(b.kind), b.spot): b for b in self.bets}
        for row in ev.results:
            b = by_key[(row["player"], row["bet"], row["spot"])]
            stake, won = b.amount, self._money(row["won"])
            commission = self._money(row["commission"])
            wallet = _account(b.player)
            if row["result"] == "win":
                postings += [
                    Posting(STAKES, -stake),
                    Posting(HOUSE, -won),
                    Posting(wallet, stake + won - commission),
                ]
                if commission.is_positive():
                    postings.append(Posting(COMMISSION, commission))
            elif row["result"] == "lose":
                postings += [Posting(STAKES, -stake), Posting(HOUSE, stake)]
            elif row["result"] == "push":
                keep.append(Bet(b.player, b.kind, b.amount, b.spot, carried=True))  # BA-12
            else:  # returned
                postings += [Posting(STAKES, -stake), Posting(wallet, stake)]
        if postings:
            self.ledger.post(Transaction.of(postings, f"hand {ev.hand} settled"))
        if not (self.hand and self.hand.demonstration):
            self.bets = keep
        self._end_hand(ev.outcome)

    def _end_hand(self, result: str) -> None:
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
            self.phase = Phase.DEMONSTRATION if self.demonstrations_left else Phase.BETTING
            return
        self.phase = Phase.BETTING
        if self.rules.continuous_shuffler:
            return  # BA-7.2: the cards go back into the machine
        if self.cut_card_out:  # BA-3.1
            if self.hands_left is None:
                self.hands_left = 0 if self.rules.last_hand is LastHand.LAST else 1
            else:
                self.hands_left -= 1
            if self.hands_left <= 0:
                self.hands_left = 0
                self.phase = Phase.SHUFFLE

    # --- conveniences ------------------------------------------------------------------------

    def start_shoe(self, rng: Rng, *, cut_from_end: int | None = None) -> list[Event]:
        """Shuffle, cut and burn (BA-2.1); with a continuous shuffler just load (BA-2.3)."""
        events = [self.shuffle(rng)]
        if self.phase is Phase.CUT:
            events.append(self.cut(cut_from_end))
            events.append(self.burn())
        return events

    def play_hand(self, rng: Rng | None = None) -> list[Event]:
        """Deal a whole hand: each holder reveals in turn, third cards as BA-9 says, settle."""
        events = [self.deal(rng)]
        while (step := self.next_step()) is not None:
            if step.startswith("reveal:"):
                events.append(self.reveal(Side(step.split(":")[1])))
            elif step.startswith("draw:"):
                events.append(self.draw(rng))
            else:
                events.append(self.settle())
        return events

    def shoe_results(self, shoe: int | None = None) -> list[HandResult]:
        """The hands of a shoe (the current one by default), without demonstrations and
        void hands: what the road maps show."""
        n = self.shoe_number if shoe is None else shoe
        return [r for r in self.results if r.shoe == n and not r.demonstration and r.outcome != "V"]

    def roads(self) -> Roads:
        return roads([r.road_hand() for r in self.shoe_results()])

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (replay must rebuild it exactly)."""
        h = self.hand
        return {
            "phase": str(self.phase),
            "shoe_number": self.shoe_number,
            "shoe": [str(c) for c in self.shoe],
            "position": self.position,
            "cut_index": self.cut_index,
            "cut_card_out": self.cut_card_out,
            "hands_left": self.hands_left,
            "demonstrations_left": self.demonstrations_left,
            "seats": dict(self.seats),
            "bets": [_bet_json(b) | {"carried": b.carried} for b in self.bets],
            "hand": None
            if h is None
            else {
                "number": h.number,
                "player": [str(c) for c in h.player],
                "banker": [str(c) for c in h.banker],
                "hidden": {str(k): v for k, v in h.hidden.items()},
                "exposed": [str(c) for c in h.exposed],
            },
            "hand_number": self.hand_number,
            "results": [
                (
                    r.number,
                    r.shoe,
                    [str(c) for c in r.player_cards],
                    [str(c) for c in r.banker_cards],
                    r.outcome,
                    r.demonstration,
                )
                for r in self.results
            ],
            "discards": self.discards,
            "balances": {k: v.minor for k, v in self.ledger.balances(self.rules.currency).items()},
            "head": self.journal.head,
        }


def _bet_json(b: Bet) -> dict[str, Any]:
    return {"player": b.player, "bet": str(b.kind), "spot": b.spot, "stake": b.amount.minor}


# ==========================================================================================
# Replay
# ==========================================================================================


def replay_baccarat(journal: Journal) -> BaccaratTable:
    """Rebuild a table from its journal, applying each event (no RNG needed)."""
    table = BaccaratTable(BaccaratRules.from_json(journal.header["rules"]))  # type: ignore[arg-type]
    for ev in journal.events:
        table._commit(ev)
    return table


register_replayer(GAME, replay_baccarat)
