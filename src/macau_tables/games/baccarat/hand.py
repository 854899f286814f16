"""A baccarat hand by the rules: BA-5 totals, BA-9 the third card as data, BA-11 the winner,
BA-12 the tie, BA-13 the pairs, BA-17 the payouts, BA-18 the commission; the hand being
dealt (BA-7, BA-16) and what it needs next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any

from macau_tables.core.errors import (
    JournalError,
)
from macau_tables.core.journal import (
    JsonValue,
)
from macau_tables.core.money import Money
from macau_tables.games.baccarat.cards import Card
from macau_tables.games.baccarat.roads import RoadHand
from macau_tables.games.baccarat.rules import BaccaratBetKind, BaccaratRules, Side, TieChoice

__all__ = [
    "ALL_VALUES",
    "BANKER_DRAWS_AGAINST",
    "BANKER_DRAWS_WHEN_PLAYER_STOOD",
    "NATURALS",
    "NO_COMMISSION_BANKER_SIX",
    "PAYS",
    "PLAYER_DRAWS_ON",
    "PLAYER_STANDS_ON",
    "Bet",
    "BetResult",
    "BetSettlement",
    "Hand",
    "HandOutcome",
    "HandResult",
    "Step",
    "banker_draws",
    "holder_due",
    "is_pair",
    "next_step",
    "outcome",
    "play_out",
    "player_draws",
    "settle_bet",
    "total",
]


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

PAYS: Mapping[BaccaratBetKind, int] = {  # BA-17: to one
    BaccaratBetKind.PLAYER: 1,
    BaccaratBetKind.BANKER: 1,
    BaccaratBetKind.TIE: 8,
    BaccaratBetKind.BANKER_PAIR: 11,
    BaccaratBetKind.PLAYER_PAIR: 11,
}
NO_COMMISSION_BANKER_SIX = Fraction(1, 2)  # BA-R7: a Banker win on 6 pays 1:2


class HandOutcome(StrEnum):
    """How a hand ended: BA-11 a side wins, BA-12 a tie, BA-10 / BA-R3 void (the letters of
    the road maps)."""

    PLAYER = "P"
    BANKER = "B"
    TIE = "T"
    VOID = "V"


def outcome(player_total: int, banker_total: int) -> HandOutcome:
    """BA-11 the higher total wins; BA-12 equal totals tie. ``"P"``, ``"B"`` or ``"T"``."""
    if player_total == banker_total:
        return HandOutcome.TIE
    return HandOutcome.PLAYER if player_total > banker_total else HandOutcome.BANKER


def is_pair(cards: Sequence[Card]) -> bool:
    """BA-13: the side's first two cards have the same rank (J-J yes, J-Q no; suits ignored)."""
    return cards[0].rank == cards[1].rank


class BetResult(StrEnum):
    """What became of one bet at the end of a hand."""

    WIN = "win"  # BA-11, BA-12, BA-13; paid as BA-17 (less BA-18)
    LOSE = "lose"
    PUSH = "push"  # BA-12: Player / Banker on a tie, left on for the next hand
    RETURNED = "returned"  # BA-12 / BA-R2 on a table without "keep"; BA-10 / BA-R3 void


@dataclass(frozen=True)
class Bet:
    """A bet on the layout: one stake of a player on one bet at one spot (its hold id)."""

    player: str
    kind: BaccaratBetKind
    amount: Money
    spot: int
    carried: bool = False  # a Player/Banker bet left on the layout after a tie (BA-12)
    id: str = ""  # the hold id (unique at the table, across hands)


@dataclass(frozen=True)
class BetSettlement:
    """One bet's settlement (a row of :class:`HandSettled`), typed."""

    bet_id: str
    player: str
    kind: BaccaratBetKind
    spot: int
    stake: int
    result: BetResult
    won: int
    commission: int

    def to_json(self) -> dict[str, JsonValue]:
        return {
            "bet_id": self.bet_id,
            "player": self.player,
            "bet": str(self.kind),
            "spot": self.spot,
            "stake": self.stake,
            "result": str(self.result),
            "won": self.won,
            "commission": self.commission,
        }

    @classmethod
    def from_json(cls, row: Mapping[str, Any]) -> BetSettlement:
        try:
            return cls(
                str(row["bet_id"]),
                str(row["player"]),
                BaccaratBetKind(row["bet"]),
                int(row["spot"]),
                int(row["stake"]),
                BetResult(row["result"]),
                int(row["won"]),
                int(row["commission"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise JournalError(f"a settlement row is malformed: {exc}") from exc


@dataclass(frozen=True)
class HandResult:
    number: int
    shoe: int
    player_cards: tuple[Card, ...]
    banker_cards: tuple[Card, ...]
    outcome: HandOutcome
    demonstration: bool = False

    @property
    def player_total(self) -> int:
        return total(self.player_cards)

    @property
    def banker_total(self) -> int:
        return total(self.banker_cards)

    def road_hand(self) -> RoadHand:
        return RoadHand(
            self.outcome.value,  # type: ignore[arg-type]
            banker_pair=is_pair(self.banker_cards),
            player_pair=is_pair(self.player_cards),
            natural=total(self.player_cards[:2]) in NATURALS
            or total(self.banker_cards[:2]) in NATURALS,
        )


def settle_bet(rules: BaccaratRules, b: Bet, h: Hand, result: HandOutcome) -> BetSettlement:
    """One bet's result: BA-11 / BA-12 / BA-13, paid as BA-17, less BA-18."""
    zero = Money.zero(rules.currency)

    def row(res: BetResult, won: Money = zero, commission: Money = zero) -> BetSettlement:
        return BetSettlement(
            b.id, b.player, b.kind, b.spot, b.amount.minor, res, won.minor, commission.minor
        )

    kind = b.kind
    if kind in (BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER) and result is HandOutcome.TIE:
        if TieChoice.KEEP not in rules.tie_choices:
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
        if rules.no_commission:  # BA-R7: 1:1, but 1:2 on a Banker six
            if total(h.banker) == 6:
                won = b.amount.times(NO_COMMISSION_BANKER_SIX, rules.commission_rounding)
        else:  # BA-18: 5% of the win, rounded (BA-R5: down to the minor unit)
            commission = won.times(rules.commission, rules.commission_rounding)
    return row(BetResult.WIN, won, commission)


# ==========================================================================================
# BA-7 the deal, BA-9 the third cards, BA-16 the squeeze: the hand being dealt
# ==========================================================================================


@dataclass
class Hand:
    """The hand being dealt: its cards (BA-7.1 Player, Banker, Player, Banker), those still
    face down awaiting a reveal, and who squeezes each side (BA-16)."""

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


def next_step(h: Hand) -> tuple[Step, Side | None]:
    """What the hand needs next. BA-7.1 Player's cards are opened first; BA-9 the third
    cards, Player's first; BA-16 a third card opened on its own."""
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


def holder_due(h: Hand) -> tuple[str, Side] | None:
    """The holder who must squeeze now (BA-16), and the side."""
    what, side = next_step(h)
    if what is not Step.REVEAL:
        return None
    assert side is not None
    holder = h.holders.get(side)
    return None if holder is None else (holder, side)
