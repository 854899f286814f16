"""The round of a banked tile game: what Pai Gow (PG) and Taiwan Pai Kao (TW) share.

The regulations differ in a handful of rules (who wins a copy, exposed tiles, forced
setting, commission); each game module (`paigow.py`, `taiwan.py`) states its rules in
article order and hands them to this machinery as a :class:`Regulation`. What is here is
the shared mechanics, each citing the articles of both texts that fix it.

A :class:`Round` is one round at one table, pokerkit style: every operation is
``verify_x`` (raises a typed error naming the rule) / ``can_x`` / ``x`` (applies and returns
the journalled event). Chance (the shuffle, the dice) enters through ``core.rng`` or as an
input event (a live table), and is journalled, so :func:`replay_round` rebuilds the round
from its events alone.

Order of a round (PG-4.4, PG-4.6, PG-2.1, PG-1.2, PG-1.4, PG-8.1; TW-2b … TW-2g, TW-5c):
open (banker, capital, the house's co-bank, the dealing announced) → shuffle → bets,
co-bankers, rearranging (players first, the banker last) → dice (re-shaken if cocked) →
deal → exposed tiles → every seat's holder sets → the banker sets → settle.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, ClassVar

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    BetNotAllowed,
    InvalidInput,
    OutOfOrder,
    RuleViolation,
)
from macau_tables.core.errors import passes as _can
from macau_tables.core.journal import Event, Journal, event
from macau_tables.core.ledger import Posting, Transaction
from macau_tables.core.money import Currency, Money, currency_by_code
from macau_tables.core.rng import Rng
from macau_tables.games.tileround import (
    DEALER,
    HOUSE,
    HOUSE_BANK,
    HOUSE_COMMISSION,
    POT,
    ExposedEffect,
    Regulation,
    RoundOptions,
    SeatResult,
    TileRound,
    wallet,
)
from macau_tables.games.tileround import (
    Phase as RoundPhase,
)
from macau_tables.games.tilesettle import Settlement, settle
from macau_tables.tiles import FULL_SET, Hand, Setting, Tile
from macau_tables.tiles import settings as all_settings
from macau_tables.tiles.hands import make_setting

__all__ = ["DEALER", "HOUSE_BANK", "ExposedEffect"]


# --- events --------------------------------------------------------------------------------


@event
@dataclass(frozen=True, slots=True)
class RoundOpened(Event):
    """PG-4.4 / TW-5c: the banker's capital on the table, the dealing announced."""

    kind: ClassVar[str] = "tiles.round_opened"
    game: str
    round_no: int
    places: int
    banker: str
    banker_seat: int
    banker_capital: int
    house_capital: int
    currency: str
    wallets: tuple[tuple[str, int], ...]
    options: dict[str, Any]
    pile: tuple[int, ...]  # stack indices still on the table (TW-R2 second round: 4 of 8)
    tiles: tuple[str, ...]  # the woodpile carried over from a first 4-place round, else ()
    exposed: tuple[str, ...]  # tiles face up from the first 4-place round (TW-2d)


@event
@dataclass(frozen=True, slots=True)
class TilesShuffled(Event):
    """PG-1.1 / TW-2a: the 32 tiles in woodpile order, stack i = tiles[4i:4i+4]."""

    kind: ClassVar[str] = "tiles.shuffled"
    tiles: tuple[str, ...]


@event
@dataclass(frozen=True, slots=True)
class CoBankJoined(Event):
    """PG-3.2 / TW-5e: a player joins the bank with capital, after the banker."""

    kind: ClassVar[str] = "tiles.cobank_joined"
    person: str
    capital: int


@event
@dataclass(frozen=True, slots=True)
class BetPlaced(Event):
    """PG-4.6 / TW-2g: a bet on a seat, before the dice."""

    kind: ClassVar[str] = "tiles.bet_placed"
    person: str
    seat: int
    amount: int


@event
@dataclass(frozen=True, slots=True)
class StacksRearranged(Event):
    """PG-2.1 / PG-R2 / TW-2f: a permutation of the stacks' order, before the dice."""

    kind: ClassVar[str] = "tiles.stacks_rearranged"
    person: str
    order: tuple[int, ...]


@event
@dataclass(frozen=True, slots=True)
class DiceShaken(Event):
    """PG-1.2 / TW-2b: four dice; ``valid`` False for a cocked die or one out (PG-1.5)."""

    kind: ClassVar[str] = "tiles.dice_shaken"
    dice: tuple[int, ...]
    valid: bool


@event
@dataclass(frozen=True, slots=True)
class TilesExposed(Event):
    """PG-2.2 / PG-2.3 / TW-4: tiles turned face up by accident in the deal."""

    kind: ClassVar[str] = "tiles.exposed"
    seat: int
    count: int


@event
@dataclass(frozen=True, slots=True)
class SeatSet(Event):
    """PG-5.1 / TW-6a: a seat's holder (or the banker's authority) sets the four tiles."""

    kind: ClassVar[str] = "tiles.seat_set"
    person: str
    seat: int
    front: tuple[str, ...]
    back: tuple[str, ...]


@event
@dataclass(frozen=True, slots=True)
class RoundSettled(Event):
    """PG-6, PG-R4, PG-R5 / TW-6c, TW-8: results, payouts and the postings."""

    kind: ClassVar[str] = "tiles.settled"
    results: tuple[dict[str, Any], ...]
    bank_shares: tuple[tuple[str, int], ...]
    commissions: tuple[tuple[str, int], ...]
    resets: tuple[int, ...]  # TW-6b: seats the dealer re-set
    compensation: tuple[dict[str, Any], ...]  # PG-7.2 / PG-R8
    postings: tuple[tuple[str, int], ...]


# --- values of the round -------------------------------------------------------------------


class Phase(Enum):
    SHUFFLE = "shuffle"  # waiting for the shuffle (PG-1.1)
    BETTING = "betting"  # bets, co-bank, rearranging, then the dice (PG-4.6, PG-2.1)
    SETTING = "setting"  # tiles dealt; seats set, then the banker (PG-8.1)
    SETTLED = "settled"


@dataclass(frozen=True)
class Bet:
    person: str
    seat: int
    amount: Money


@dataclass(frozen=True)
class BetResult:
    """One bet settled: ``action`` is the part that had action (PG-4.5, PG-R4)."""

    person: str
    seat: int
    amount: Money
    outcome: str  # "win", "lose", "push", "no_action"
    action: Money
    net: Money  # to the player, after commission
    commission: Money  # the player's commission on a win (PG-4.2, TW-8)
    bank_fee: Money | None = None  # TW-R3: taken from a bet the bank collects (per_bet)
    #: TW-R3: who of the bank took what of this bet (``take``) and the part of ``bank_fee``
    #: that falls on him (``fee``): (participant, take, fee), the house's part included.
    #: The settlement's working (what ``RoundSettled`` records is each one's sum): not part
    #: of a snapshot (``compare=False``), so snapshots of settled rounds are as before.
    bank_parts: tuple[tuple[str, Money, Money], ...] = field(default=(), compare=False)


# --- the round -----------------------------------------------------------------------------


@dataclass
class Round:
    """One round at a Pai Gow / Taiwan Pai Kao table."""

    regulation: Regulation
    opened: RoundOpened
    journal: Journal
    phase: Phase = Phase.SHUFFLE
    tiles: tuple[Tile, ...] = ()
    stack_order: tuple[int, ...] = ()
    cobankers: list[tuple[str, Money]] = field(default_factory=list)
    bets: list[Bet] = field(default_factory=list)
    rearranged_by: list[str] = field(default_factory=list)
    dice: tuple[int, ...] | None = None
    hands: dict[int, tuple[Tile, ...]] = field(default_factory=dict)
    exposed: dict[int, int] = field(default_factory=dict)
    seats_out: set[int] = field(default_factory=set)
    settings_: dict[int, Setting] = field(default_factory=dict)
    setters: dict[int, str] = field(default_factory=dict)
    results: list[BetResult] = field(default_factory=list)
    settled: RoundSettled | None = None
    transaction: Transaction | None = None
    void_deals: int = 0  # PG-2.3 / PG-R3: deals voided this round (bets frozen since)

    # ---- opening (PG-4.4, PG-3.1, TW-5c, TW-5e) ----------------------------------------

    @classmethod
    def open(
        cls,
        regulation: Regulation,
        *,
        banker: str,
        banker_seat: int,
        banker_capital: Money,
        wallets: dict[str, Money],
        house_capital: Money | None = None,
        places: int = 8,
        round_no: int = 1,
        options: RoundOptions | None = None,
        carried: Round | None = None,
        rotation: Rotation | None = None,
        consent: bool = False,
    ) -> Round:
        """Open a round: PG-4.4 / TW-5c the capital on the table and the dealing announced.

        ``carried`` is a finished first round of a 4-place woodpile (TW-2d, TW-R2): this
        round deals its remaining four stacks, with its 16 tiles face up. ``rotation`` is
        the table's bank from the previous rounds: the opening must follow it (PG-4.1,
        PG-4.9 / TW-5a, TW-5d: a continuing banker's capital may grow, never shrink;
        ``consent``: every other seat agrees to a third round).
        """
        opts = options or RoundOptions()
        currency = banker_capital.currency
        house = house_capital if house_capital is not None else Money.zero(currency)
        if places not in regulation.places:
            raise RuleViolation(
                f"{regulation.title} deals to {' or '.join(map(str, regulation.places))} "
                f"places, not {places}",
                rule=regulation.places_rule,
            )
        if not 1 <= banker_seat <= places:
            raise InvalidInput(f"the banker's seat must be 1..{places}")
        if not banker_capital.is_positive() and not house.is_positive():
            raise RuleViolation(
                "the bank needs capital on the table", rule=regulation.rule("PG-4.4")
            )
        if banker_capital.is_negative() or house.is_negative():
            raise InvalidInput("capital cannot be negative")
        if banker == HOUSE and house.is_positive():
            raise InvalidInput("when the house banks, its capital is the banker's capital")
        if banker != HOUSE and wallets.get(banker, Money.zero(currency)) < banker_capital:
            raise RuleViolation(
                f"{banker} cannot put {banker_capital} on the table", rule=regulation.rule("PG-4.4")
            )
        pile: tuple[int, ...] = tuple(range(8))
        tiles: tuple[str, ...] = ()
        exposed: tuple[str, ...] = ()
        if carried is not None:
            if carried.opened.places != 4 or len(carried.opened.pile) != 8:
                raise RuleViolation(
                    "only a first 4-place round leaves stacks for the next", rule="TW-R2"
                )
            if carried.phase is not Phase.SETTLED or places != 4:
                raise RuleViolation(
                    "the second 4-place round follows a settled first one", rule="TW-2d"
                )
            used = carried.used_stacks()
            pile = tuple(i for i in carried.stack_order if i not in used)
            tiles = tuple(str(t) for t in carried.tiles)
            exposed = tuple(str(t) for s in sorted(carried.hands) for t in carried.hands[s])
        opened = RoundOpened(
            game=regulation.game,
            round_no=round_no,
            places=places,
            banker=banker,
            banker_seat=banker_seat,
            banker_capital=banker_capital.minor,
            house_capital=house.minor,
            currency=currency.code,
            wallets=tuple(sorted((p, m.minor) for p, m in wallets.items())),
            options=opts.to_json(),
            pile=pile,
            tiles=tiles,
            exposed=exposed,
        )
        if rotation is not None:
            rotation.verify_open(opened, consent)
        journal = Journal(regulation.game, {"regulation": regulation.title})
        journal.append(opened)
        rnd = cls(regulation=regulation, opened=opened, journal=journal)
        if tiles:
            rnd.tiles = tuple(Tile.parse(t) for t in tiles)
            rnd.stack_order = pile
            rnd.phase = Phase.BETTING
        return rnd

    # ---- convenience views --------------------------------------------------------------

    def _r(self, pg_id: str) -> str:
        """The regulation's own ID for a rule the shared mechanics cite by Pai Gow's."""
        return self.regulation.rule(pg_id)

    @property
    def options(self) -> RoundOptions:
        return RoundOptions.from_json(dict(self.opened.options))

    @property
    def currency(self) -> Currency:
        return currency_by_code(self.opened.currency)

    def money(self, minor: int) -> Money:
        return Money(minor, self.currency)

    @property
    def places(self) -> int:
        return self.opened.places

    @property
    def banker(self) -> str:
        return self.opened.banker

    @property
    def banker_seat(self) -> int:
        return self.opened.banker_seat

    def wallet_of(self, person: str) -> Money:
        return self.money(dict(self.opened.wallets).get(person, 0))

    def committed(self, person: str) -> Money:
        """What a person has on the table this round: bets, co-bank and bank capital."""
        total = sum((b.amount.minor for b in self.bets if b.person == person), 0)
        total += sum(c.minor for p, c in self.cobankers if p == person)
        if person == self.banker:
            total += self.opened.banker_capital
        return self.money(total)

    @property
    def bank_capital(self) -> Money:
        """PG-4.5 / TW-5c: the capital in play, banker + house + co-bankers."""
        total = self.opened.banker_capital + self.opened.house_capital
        total += sum(c.minor for _p, c in self.cobankers)
        return self.money(total)

    def seat_at(self, steps: int) -> int:
        return (self.banker_seat - 1 + steps) % self.places + 1

    def used_stacks(self) -> tuple[int, ...]:
        """The stacks this round deals: the first ``places`` of the pile's order (TW-R2)."""
        return self.stack_order[: self.places]

    # ---- PG-1.1 / TW-2a: the shuffle -----------------------------------------------------

    def verify_shuffle(self) -> None:
        if self.phase is not Phase.SHUFFLE:
            raise OutOfOrder("the tiles are shuffled before bets and dice", rule=self._r("PG-1.1"))

    def can_shuffle(self) -> bool:
        return _can(self.verify_shuffle)

    def shuffle(self, rng: Rng) -> TilesShuffled:
        """The dealer shuffles face down and builds the woodpile (PG-1.1, TW-2a)."""
        self.verify_shuffle()
        return self.shuffle_tiles(tuple(rng.shuffle(FULL_SET)))

    def shuffle_tiles(self, tiles: Sequence[Tile]) -> TilesShuffled:
        """A live table's shuffle, or the replay of a journalled one."""
        self.verify_shuffle()
        if sorted(tiles) != sorted(FULL_SET):
            raise InvalidInput("a shuffle is the 32 tiles of one set", rule="T-1")
        ev = TilesShuffled(tuple(str(t) for t in tiles))
        self.tiles = tuple(tiles)
        self.stack_order = self.opened.pile
        self.phase = Phase.BETTING
        self.journal.append(ev)
        return ev

    # ---- PG-3.2 / PG-3.3 / TW-5e: co-banking players -------------------------------------

    def verify_join_bank(self, person: str, capital: Money) -> None:
        self._verify_before_dice("PG-4.7")
        if person in (self.banker, HOUSE):
            raise BetNotAllowed(f"{person} is already in the bank", rule=self._r("PG-3.2"))
        if any(p == person for p, _ in self.cobankers):
            raise BetNotAllowed(f"{person} already co-banks this round", rule=self._r("PG-3.3"))
        if not self.regulation.cobanker_may_bet and any(b.person == person for b in self.bets):
            raise BetNotAllowed(
                f"{person} bets on a place: a co-banker may not bet on other places",
                rule="TW-5e",
            )
        self._verify_amount(person, capital, "PG-3.3")

    def can_join_bank(self, person: str, capital: Money) -> bool:
        return _can(self.verify_join_bank, person, capital)

    def join_bank(self, person: str, capital: Money) -> CoBankJoined:
        """PG-3.2: co-bank with one's own capital (PG-3.3: nobody joins it), after the
        banker in the order joined (正庄先行, TW-5e)."""
        self.verify_join_bank(person, capital)
        ev = CoBankJoined(person, capital.minor)
        self.cobankers.append((person, capital))
        self.journal.append(ev)
        return ev

    # ---- PG-4.6 / PG-4.7 / PG-7.1 / TW-2g / TW-3b: bets ----------------------------------

    def verify_place_bet(self, person: str, seat: int, amount: Money) -> None:
        self._verify_before_dice("PG-4.7")
        if not 1 <= seat <= self.places:
            raise BetNotAllowed(
                f"no seat {seat} at a {self.places}-place table", rule=self._r("PG-1.4")
            )
        if seat == self.banker_seat:
            raise BetNotAllowed(
                "a bet on the banker's seat is co-banking (join the bank)", rule=self._r("PG-3.2")
            )
        if person in (self.banker, HOUSE):
            raise BetNotAllowed("the bank does not bet against itself", rule=self._r("PG-4.6"))
        if not self.regulation.cobanker_may_bet and any(p == person for p, _ in self.cobankers):
            raise BetNotAllowed(
                f"{person} co-banks: a co-banker may not bet on other places", rule="TW-5e"
            )
        opts = self.options
        if opts.min_bet and amount.minor < opts.min_bet:
            raise BetNotAllowed(f"below the table minimum {self.money(opts.min_bet)}")
        if opts.max_bet and amount.minor > opts.max_bet:
            raise BetNotAllowed(f"above the table maximum {self.money(opts.max_bet)}")
        self._verify_amount(person, amount, "PG-4.6")

    def can_place_bet(self, person: str, seat: int, amount: Money) -> bool:
        return _can(self.verify_place_bet, person, seat, amount)

    def place_bet(self, person: str, seat: int, amount: Money) -> BetPlaced:
        """PG-4.6: bets lie on the table before the dice; several bettors per seat (PG-7.1,
        TW-3b); PG-4.8 / TW-2h: each is settled by the seat it lies on."""
        self.verify_place_bet(person, seat, amount)
        ev = BetPlaced(person, seat, amount.minor)
        self.bets.append(Bet(person, seat, amount))
        self.journal.append(ev)
        return ev

    def _verify_before_dice(self, rule: str) -> None:
        if self.phase is Phase.SHUFFLE:
            raise OutOfOrder("the tiles are not shuffled yet", rule=self._r("PG-1.1"))
        if self.phase is not Phase.BETTING:
            raise OutOfOrder("after the dice nothing on the table may change", rule=self._r(rule))
        if self.void_deals:
            # PG-2.3 / PG-R3: a void deal repeats the shuffle and the dice, nothing else:
            # bets, capital and co-bank stay exactly as they were when the dice were shaken.
            raise OutOfOrder(
                "the deal was void: only the shuffle and the dice repeat, bets and capital "
                "stay as they were",
                rule=self.regulation.void_deal_rule,
            )

    def _verify_amount(self, person: str, amount: Money, rule: str) -> None:
        if not amount.is_positive():
            raise InvalidInput("an amount must be positive")
        if amount.currency != self.currency:
            raise InvalidInput(f"this table plays in {self.currency.code}")
        if self.committed(person) + amount > self.wallet_of(person):
            raise BetNotAllowed(
                f"{person} has {self.wallet_of(person)}, {self.committed(person)} of it "
                f"already on the table",
                rule=self._r(rule),
            )

    # ---- PG-2.1 / PG-R2 / TW-2f: rearranging the stacks ---------------------------------

    def verify_rearrange(self, person: str, order: Sequence[int]) -> None:
        self._verify_before_dice("PG-2.1")
        if self.banker in self.rearranged_by:
            raise RuleViolation("after the banker nobody may rearrange", rule=self._r("PG-2.1"))
        if sorted(order) != sorted(self.stack_order):
            raise InvalidInput(
                f"a rearrangement is an order of the stacks {sorted(self.stack_order)}",
                rule=self._r("PG-R2"),
            )
        if person != self.banker:
            if not any(b.person == person for b in self.bets):
                raise RuleViolation(
                    "only the banker and players with a bet", rule=self._r("PG-2.1")
                )
            players = [p for p in self.rearranged_by if p != self.banker]
            if person in players:
                raise RuleViolation(f"{person} has rearranged already", rule=self._r("PG-2.1"))
            if self.regulation.rearrange_limit == "people":
                if len(players) >= 2:  # TW-2f 閒家只限兩人: two people
                    raise RuleViolation(
                        "at most two players rearrange per round", rule=self._r("PG-2.1")
                    )
            elif self._rearranging_seats([*players, person]) > 2:
                raise RuleViolation(
                    "at most two seats rearrange per round (several bettors of one seat "
                    "count once)",
                    rule=self._r("PG-2.1"),
                )

    def _rearranging_seats(self, people: Sequence[str]) -> int:
        """PG-2.1 counts seats (門): the fewest seats the rearranging players can stand
        for, each player for one seat he bet on (two bettors of seat 2 are one seat)."""
        choices = [sorted({b.seat for b in self.bets if b.person == p}) for p in people]
        return min(len(set(pick)) for pick in itertools.product(*choices))

    def can_rearrange(self, person: str, order: Sequence[int]) -> bool:
        return _can(self.verify_rearrange, person, order)

    def rearrange(self, person: str, order: Sequence[int]) -> StacksRearranged:
        """PG-2.1 / TW-2f: players (at most two) then the banker, one hand, before the dice."""
        self.verify_rearrange(person, order)
        ev = StacksRearranged(person, tuple(order))
        self.stack_order = tuple(order)
        self.rearranged_by.append(person)
        self.journal.append(ev)
        return ev

    # ---- PG-1.2 / PG-1.3 / PG-1.5 / TW-2b / TW-2e: the dice, the deal -------------------

    def verify_shake(self) -> None:
        if self.phase is Phase.SHUFFLE:
            raise OutOfOrder("the tiles are not shuffled yet", rule=self._r("PG-1.1"))
        if self.phase is not Phase.BETTING:
            raise OutOfOrder("the dice are shaken once per deal", rule=self._r("PG-1.2"))

    def can_shake(self) -> bool:
        return _can(self.verify_shake)

    def shake(self, rng: Rng) -> DiceShaken:
        """PG-1.2: the banker shakes four dice; nobody shakes for him (PG-4.1, TW-2b)."""
        self.verify_shake()
        return self.shake_dice(rng.dice(4))

    def shake_dice(self, dice: Sequence[int], *, valid: bool = True) -> DiceShaken:
        """Four dice as they lie; ``valid=False`` when a die is cocked or left the shaker:
        the banker shakes again (PG-1.5, TW-2e)."""
        self.verify_shake()
        if len(dice) != 4 or not all(1 <= d <= 6 for d in dice):
            raise InvalidInput("four dice, each 1 to 6", rule=self._r("PG-1.2"))
        ev = DiceShaken(tuple(dice), valid)
        self.journal.append(ev)
        if valid:
            self.dice = tuple(dice)
            self._deal()
        return ev

    def first_steps(self) -> int:
        """PG-R1 / TW-2b: the seat reached counting the total from the banker as 1."""
        assert self.dice is not None
        return (sum(self.dice) - 1) % self.places  # PG-1.3: never altered

    def dealing_order(self) -> list[int]:
        """Seats in dealing order: the first seat, then counter-clockwise (PG-1.3, TW-2c)."""
        first = self.first_steps()
        return [self.seat_at(first + k) for k in range(self.places)]

    def settlement_order(self) -> list[int]:
        """PG-R1 / TW-2b: player seats from the first in dealing order, counter-clockwise;
        when the count lands on the banker, the seat on the banker's right is first."""
        return [s for s in self.dealing_order() if s != self.banker_seat]

    def _deal(self) -> None:
        """PG-1.4: every stack is dealt, four tiles to each seat, whatever the players."""
        stacks = self.used_stacks()
        self.hands = {}
        for k, seat in enumerate(self.dealing_order()):
            s = stacks[k]
            self.hands[seat] = self.tiles[4 * s : 4 * s + 4]
        self.phase = Phase.SETTING

    # ---- PG-2.2 / PG-2.3 / PG-R3 / TW-4: exposed tiles -----------------------------------

    def verify_report_exposed(self, seat: int, count: int) -> None:
        if self.phase is not Phase.SETTING or self.settings_:
            raise OutOfOrder(
                "tiles are exposed in the deal, before any setting", rule=self._r("PG-2.2")
            )
        if seat not in self.hands or not 1 <= count <= 4:
            raise InvalidInput("a seat of this deal and 1 to 4 tiles")

    def report_exposed(self, seat: int, count: int) -> TilesExposed:
        """The dealer reports tiles turned face up in the deal; the regulation decides."""
        self.verify_report_exposed(seat, count)
        ev = TilesExposed(seat, count)
        self.journal.append(ev)
        total = self.exposed.get(seat, 0) + count
        self.exposed[seat] = total
        effect = self.regulation.exposed_effect(total, seat == self.banker_seat)
        if effect is ExposedEffect.SEAT_OUT:
            self.seats_out.add(seat)
        elif effect is ExposedEffect.DEAL_VOID:
            # PG-2.3 / PG-R3: the deal (是次派牌), not the round, is void: the tiles are
            # reshuffled and the dice shaken again; bets, capital, co-bank and the stacks'
            # order stay exactly as they were (PG-4.7) — see _verify_before_dice.
            self.phase = Phase.SHUFFLE
            self.dice = None
            self.hands = {}
            self.exposed = {}
            self.seats_out = set()
            self.void_deals += 1
        return ev

    # ---- PG-5 / PG-7 / PG-8 / TW-3 / TW-6: setting ---------------------------------------

    def active_seats(self) -> list[int]:
        """Player seats with bets and tiles in play, in settlement order."""
        bet_seats = {b.seat for b in self.bets}
        return [s for s in self.settlement_order() if s in bet_seats and s not in self.seats_out]

    def holder(self, seat: int) -> str | None:
        """PG-7.1 / PG-R7 / TW-3b: the largest bettor on the seat holds it (ties: the
        earliest). PG-7.5: nobody holds two seats — the next-largest bettor holds the second
        (seats taken in settlement order). TW-R6: the Taiwan text has no PG-7.5 (TW-3c
        limits each place to one holder, not each person to one place): the largest bettor
        holds every place where his bet is the largest, unless the option
        ``one_seat_per_holder`` applies PG-7.5's limit."""
        one_seat = self.options.one_seat_per_holder
        if one_seat is None:
            one_seat = self.regulation.one_seat_per_holder
        holders: dict[int, str] = {}
        for s in self.active_seats():
            totals: dict[str, int] = {}
            for b in self.bets:
                if b.seat == s:
                    totals[b.person] = totals.get(b.person, 0) + b.amount.minor
            ranked = sorted(totals, key=lambda p: -totals[p])  # stable: ties -> earliest
            taken = set(holders.values()) if one_seat else set()
            # Gap fill: when every bettor of the seat holds another seat, the dealer sets it
            # by the house way (a stated choice; the text is silent).
            holders[s] = next((p for p in ranked if p not in taken), DEALER)
        return holders.get(seat)

    def banker_authority(self) -> str:
        """PG-3.4 / PG-R10: the banker sets unless the house's co-bank capital is larger.
        TW-R5: the Taiwan text has no such article (TW-3c 庄家則不在此限): the banker sets
        his own tiles, unless the option ``larger_stake_sets_banker`` turns PG-3.4 on."""
        rule = self.options.larger_stake_sets_banker
        if rule is None:
            rule = self.regulation.larger_stake_sets_banker
        if rule and self.opened.house_capital > self.opened.banker_capital:
            return HOUSE
        return self.banker

    def verify_set_seat(self, person: str, seat: int, front: Sequence[Tile]) -> None:
        if self.phase is not Phase.SETTING:
            raise OutOfOrder("tiles are set after the deal", rule=self._r("PG-5.1"))
        if self.banker_seat in self.settings_:
            raise RuleViolation(
                "the banker has turned a tile: no setting may change", rule=self._r("PG-8.2")
            )
        if seat == self.banker_seat:
            raise RuleViolation(
                "the banker sets with set_banker, after the seats", rule=self._r("PG-8.1")
            )
        if seat not in self.active_seats():
            raise RuleViolation(
                f"seat {seat} has no bets in play this round", rule=self._r("PG-5.1")
            )
        holder = self.holder(seat)
        if person != holder:
            raise RuleViolation(
                f"seat {seat} is set by its holder {holder}, not {person}", rule=self._r("PG-7.4")
            )
        self._verify_split(seat, front)

    def can_set_seat(self, person: str, seat: int, front: Sequence[Tile]) -> bool:
        return _can(self.verify_set_seat, person, seat, front)

    def set_seat(self, person: str, seat: int, front: Sequence[Tile]) -> SeatSet:
        """PG-5.1 / TW-6a: the holder splits the four tiles; ``front`` names two of them (the
        dealer puts the lower hand in front, PG-5.2). May be changed until PG-8.2."""
        self.verify_set_seat(person, seat, front)
        return self._record_setting(person, seat, front)

    def verify_set_banker(self, person: str, front: Sequence[Tile]) -> None:
        if self.phase is not Phase.SETTING:
            raise OutOfOrder("tiles are set after the deal", rule=self._r("PG-5.1"))
        if self.banker_seat in self.settings_:
            raise RuleViolation("the banker has set already", rule=self._r("PG-8.2"))
        unset = [s for s in self.active_seats() if s not in self.settings_]
        if unset:
            raise OutOfOrder(
                f"the banker sets after every seat; seats {unset} have not set",
                rule=self.regulation.banker_last_rule,
            )
        authority = self.banker_authority()
        if person != authority:
            raise RuleViolation(
                f"the banker's tiles are set by {authority} (the larger capital)",
                rule=self._r("PG-3.4"),
            )
        self._verify_split(self.banker_seat, front)
        if (
            self.options.bind_banker
            and self.regulation.forced_setting is not None
            and not self._follows_forced(self.banker_seat, front)
        ):
            raise RuleViolation("the forced setting binds the banker here", rule="TW-R1")

    def can_set_banker(self, person: str, front: Sequence[Tile]) -> bool:
        return _can(self.verify_set_banker, person, front)

    def set_banker(self, person: str, front: Sequence[Tile]) -> SeatSet:
        """PG-8.1 / TW-6a: the banker sets after every seat, then turns his tiles (PG-8.2)."""
        self.verify_set_banker(person, front)
        return self._record_setting(person, self.banker_seat, front)

    def _verify_split(self, seat: int, front: Sequence[Tile]) -> None:
        tiles = list(self.hands[seat])
        if len(front) != 2:
            raise InvalidInput("name the two tiles of one hand", rule=self._r("PG-5.1"))
        for t in front:
            if t not in tiles:
                raise InvalidInput(f"{t} is not a tile of seat {seat}", rule=self._r("PG-5.1"))
            tiles.remove(t)

    def _split(self, seat: int, pair: Sequence[Tile]) -> Setting:
        rest = list(self.hands[seat])
        for t in pair:
            rest.remove(t)
        r = self.regulation.tiles
        return make_setting(Hand(pair[0], pair[1], r), Hand(rest[0], rest[1], r))

    def _follows_forced(self, seat: int, pair: Sequence[Tile]) -> bool:
        """TW-6b / TW-R1: the rule concerns the back only (閒家須盡量將後對擺大): a back
        equal to the highest two-tile hand of the four tiles follows it, whatever front
        that leaves."""
        forced = self.regulation.forced_setting
        assert forced is not None
        want = forced(self.hands[seat], self.regulation.tiles)
        got = self._split(seat, pair)
        return got.back.value.key == want.back.value.key

    def _record_setting(self, person: str, seat: int, pair: Sequence[Tile]) -> SeatSet:
        setting = self._split(seat, pair)
        ev = SeatSet(
            person,
            seat,
            tuple(str(t) for t in setting.front.tiles),
            tuple(str(t) for t in setting.back.tiles),
        )
        self.settings_[seat] = setting
        self.setters[seat] = person
        self.journal.append(ev)
        return ev

    # ---- PG-6 / TW-6c / PG-R4 / PG-R5 / TW-8: reveal, compare, settle --------------------

    def verify_settle(self) -> None:
        if self.phase is not Phase.SETTING or self.banker_seat not in self.settings_:
            raise OutOfOrder("settle after the banker has set and turned", rule=self._r("PG-8.1"))

    def can_settle(self) -> bool:
        return _can(self.verify_settle)

    def trial_copy(self) -> Round:
        """A copy of the round to run :meth:`settle` on, this one left as it is (a table
        decides its settlement's event before it applies it). :meth:`settle` writes
        ``settings_`` (the dealer's TW-6b re-sets), ``results``, ``transaction``,
        ``settled``, ``phase`` and the round's journal; the copy has its own of those and
        shares the rest, which settling only reads. (A deep copy of the whole round, its
        journal included, was about 6 ms — most of a Pai Gow settlement, and a third of a
        Pai Gow table's replay.)"""
        trial = copy.copy(self)
        trial.settings_ = dict(self.settings_)
        trial.journal = Journal(self.journal.game, self.journal.header)
        return trial

    def settle(self) -> RoundSettled:
        """Compare every seat with the banker and settle in settlement order."""
        self.verify_settle()
        resets: list[int] = []
        if self.regulation.forced_setting is not None:
            # TW-6b / TW-R1: the dealer re-sets a player whose back is not the highest
            # possible, to the highest back (and, of two such, the higher front).
            for seat in self.active_seats():
                s = self.settings_[seat]
                if not self._follows_forced(seat, s.front.tiles):
                    self.settings_[seat] = self.regulation.forced_setting(
                        self.hands[seat], self.regulation.tiles
                    )
                    resets.append(seat)
        banker_setting = self.settings_[self.banker_seat]
        seat_results = {
            seat: self.regulation.compare_seat(self.settings_[seat], banker_setting)
            for seat in self.active_seats()
        }
        self.results = self._settle_bets(seat_results)
        shares, commissions = self._share_bank_result()
        compensation = self._compensation(seat_results, banker_setting)
        postings = self._postings(shares, commissions)
        self.transaction = Transaction.of(
            postings, memo=f"{self.regulation.game} round {self.opened.round_no}"
        )
        ev = RoundSettled(
            results=tuple(
                {
                    "person": r.person,
                    "seat": r.seat,
                    "amount": r.amount.minor,
                    "outcome": r.outcome,
                    "action": r.action.minor,
                    "net": r.net.minor,
                    "commission": r.commission.minor,
                    "seat_result": seat_results.get(r.seat, SeatResult.PUSH).value
                    if r.seat not in self.seats_out
                    else "seat_out",
                }
                for r in self.results
            ),
            bank_shares=tuple((p, m.minor) for p, m in shares),
            commissions=tuple((p, m.minor) for p, m in commissions),
            resets=tuple(resets),
            compensation=tuple(compensation),
            postings=tuple((p.account, p.amount.minor) for p in self.transaction.postings),
        )
        self.settled = ev
        self.phase = Phase.SETTLED
        self.journal.append(ev)
        return ev

    def _bank_fee_in_balance(self) -> bool:
        """TW-R3 (``per_bet``): the house takes its commission out of each bet the bank
        collects, inside the running balance. Never when the bank is the house's alone
        (no commission on the house's own share)."""
        mode = self.options.bank_commission or self.regulation.bank_commission_default
        return mode == "per_bet" and any(p != HOUSE for p, _ in self.bank_participants())

    def _collectable(self, room: Money) -> Money:
        """TW-5c with TW-R3: the most the bank may collect from one bet when its net gain
        may grow by ``room`` at most, the commission ``floor(a × r)`` coming out of it:
        the largest ``a`` with ``a − floor(a × r) ≤ room`` is ``floor(room / (1 − r))``."""
        r = self.regulation.commission
        return self.money(room.minor * r.denominator // (r.denominator - r.numerator))

    def _bank_parts(
        self, gross: Money, take: Money, fee: Money
    ) -> tuple[tuple[str, Money, Money], ...]:
        """TW-R3: who of the bank takes what of a bet it collects, and the part of the bet's
        commission that falls on each.

        The bank's running result before commission (``gross``) is shared in layers at
        every step as the round's result is (PG-R4a, TW-5e: banker first, then the
        co-bankers in the order they joined): what a layer takes of the bet is how much
        its share grows when the bank collects ``take``. The commission falls on the layers
        in proportion to what each took (TW-R3: 正庄先行 orders who takes, it does not shift
        the charge). Rounding: the bet's commission is already rounded down to the minor
        unit (PG-R5); :meth:`Money.allocate` splits it by largest remainder, ties to the
        earlier layer, so the parts sum exactly to what the house took (the postings
        balance) and each is within one minor unit of its exact share — never more than 5%
        of its take rounded up to the minor unit.
        """
        before = self._layered(gross)
        after = self._layered(gross + take)
        people = list(before)
        takes = [after[p] - before[p] for p in people]
        parts = fee.allocate([max(t.minor, 0) for t in takes])
        return tuple(
            (p, t, f) for p, t, f in zip(people, takes, parts, strict=True) if t.is_positive()
        )

    def _collect(
        self, gross: Money, want: Money, room: Money | None
    ) -> tuple[Money, Money, tuple[tuple[str, Money, Money], ...]]:
        """TW-R3 / TW-5c: what the bank collects of a losing bet (at most ``want``), the
        commission taken out of it and its parts (:meth:`_bank_parts`). With ``room`` (the
        running balance), the bank's result net of the commission its participants pay
        grows by ``room`` at most: the house's own part of the commission is not charged
        (it stays with the house's share), so it makes no room for the bank to collect."""
        rate = self.regulation.commission
        take = want
        while True:
            fee = take.commission(rate)
            parts = self._bank_parts(gross, take, fee) if take.is_positive() else ()
            charged = fee - self.money(sum(f.minor for p, _t, f in parts if p == HOUSE))
            if room is None or take - charged <= room:
                return take, fee, parts
            take = take - max(take - charged - room, self.money(1))

    def _settle_bets(self, seat_results: Mapping[int, SeatResult]) -> list[BetResult]:
        """PG-R4: settle bets seat by seat in settlement order, each seat's bets in the order
        placed, within the bank's capital (PG-4.5, TW-5c): the running balance (default) or
        the cover (option).

        Commission (PG-4.2, TW-8): a player pays 4% / 5% of what he won, on his wins of the
        round together (``player_commission="round"``, PG's default: 「每局抽水」) or on each
        winning bet alone (``"bet"``, TW's default), rounded down (PG-R5). In ``per_bet``
        bank mode (TW-R3) the house takes its 5% out of each bet the bank collects, as it
        collects it: the running balance is net of it, so the bank never wins or loses more
        than its capital, commission included (TW-5c); each bet records who of the bank took
        what of it and the part of the commission on each (:meth:`_bank_parts`).
        """
        zero = self.money(0)
        capital = self.bank_capital
        bank_fee = self._bank_fee_in_balance()
        ordered: list[Bet] = []
        for seat in self.settlement_order():
            ordered.extend(b for b in self.bets if b.seat == seat)
        cover: dict[int, Money] = {}
        if self.options.settlement == "cover":
            left = capital
            for i, b in enumerate(ordered):
                if b.seat in seat_results:
                    cover[i] = min(b.amount, left)
                    left = left - cover[i]
        gross = zero  # the bank's running result before commission
        taken = zero  # the commission the house took out of it (TW-R3)
        charged = zero  # of which its participants pay (the house's own part is not charged)
        results: list[BetResult] = []
        for i, b in enumerate(ordered):
            res = seat_results.get(b.seat)
            if res is None or res is SeatResult.PUSH:
                outcome = "no_action" if res is None else "push"
                results.append(BetResult(b.person, b.seat, b.amount, outcome, zero, zero, zero))
                continue
            room: Money | None = None
            if self.options.settlement == "cover":
                action = cover[i]
            elif res is SeatResult.BANKER:  # the bank wins at most C (net)
                room = capital - (gross - charged)
                action = min(b.amount, self._collectable(room) if bank_fee else room)
            else:  # the bank pays at most what it has
                action = min(b.amount, capital + gross - taken)
            fee = zero
            parts: tuple[tuple[str, Money, Money], ...] = ()
            if res is SeatResult.BANKER and bank_fee and action.is_positive():
                action, fee, parts = self._collect(gross, action, room)
            if action.is_zero():
                results.append(BetResult(b.person, b.seat, b.amount, "no_action", zero, zero, zero))
            elif res is SeatResult.BANKER:
                gross, taken = gross + action, taken + fee
                charged = charged + fee - sum((f for p, _t, f in parts if p == HOUSE), zero)
                results.append(
                    BetResult(b.person, b.seat, b.amount, "lose", action, -action, zero, fee, parts)
                )
            else:
                gross = gross - action
                results.append(BetResult(b.person, b.seat, b.amount, "win", action, action, zero))
        return self._player_commissions(results)

    def _player_commissions(self, results: list[BetResult]) -> list[BetResult]:
        """PG-4.2 / TW-8 / PG-R5: the player's commission, rounded down. Base ``round``:
        a person's wins of the round together — each winning bet carries the part that
        brings the person's running total to ``floor(rate × wins so far)``, so the parts
        sum to the round's rounded commission; base ``bet``: each win on its own."""
        rate = self.regulation.commission
        base = self.options.player_commission or self.regulation.player_commission_default
        won: dict[str, Money] = {}
        out: list[BetResult] = []
        for r in results:
            if r.outcome != "win":
                out.append(r)
                continue
            if base == "bet":
                fee = r.action.commission(rate)
            else:
                before = won.get(r.person, self.money(0))
                won[r.person] = before + r.action
                fee = won[r.person].commission(rate) - before.commission(rate)
            out.append(replace(r, net=r.action - fee, commission=fee))
        return out

    def bank_result(self) -> Money:
        """The bank's result of the round before commission (collected − paid)."""
        return self.money(
            sum(r.action.minor for r in self.results if r.outcome == "lose")
            - sum(r.action.minor for r in self.results if r.outcome == "win")
        )

    def bank_fees(self) -> Money:
        """TW-R3: the commission the house took out of the bets the bank collected."""
        return self.money(sum(r.bank_fee.minor for r in self.results if r.bank_fee is not None))

    def bank_net_result(self) -> Money:
        """The bank's result after every commission its participants pay: what the bank's
        wallets gain or lose in the round (PG-4.5 / TW-5c: never beyond the capital)."""
        if self.settled is None:
            return self.bank_result() - self.bank_fees()
        return self.money(
            sum(s for _p, s in self.settled.bank_shares)
            - sum(c for _p, c in self.settled.commissions)
        )

    def bank_participants(self) -> list[tuple[str, Money]]:
        out: list[tuple[str, Money]] = []
        if self.opened.banker_capital:
            out.append((self.banker, self.money(self.opened.banker_capital)))
        if self.opened.house_capital:
            out.append((HOUSE, self.money(self.opened.house_capital)))
        return out + list(self.cobankers)

    def _layers(self) -> list[list[tuple[str, Money]]]:
        """PG-R4a / TW-5e: the core bank (banker + house, in proportion to capital, or the
        house after the banker), then each co-banking player in the order joined."""
        core = [(p, c) for p, c in self.bank_participants() if p in (self.banker, HOUSE)]
        layers: list[list[tuple[str, Money]]] = []
        if self.options.house_layer == "after_banker":
            layers.extend([[x] for x in core])
        else:
            layers.append(core)
        layers.extend([[x] for x in self.cobankers])
        return layers

    def _layered(self, result: Money) -> dict[str, Money]:
        """A result shared in layers (banker first, 正庄先行): each layer takes it up to its
        capital. A gain beyond the whole capital (a gross result that only commission
        brings back within it, TW-R3) goes to the non-house participants in proportion to
        capital: every layer took its full part."""
        sign = -1 if result.is_negative() else 1
        left = abs(result)
        shares: dict[str, Money] = {p: self.money(0) for p, _ in self.bank_participants()}
        for layer in self._layers():
            cap = self.money(sum(c.minor for _, c in layer))
            take = min(left, cap)
            left = left - take
            parts = take.allocate([c.minor for _, c in layer])
            for (p, _), part in zip(layer, parts, strict=True):
                shares[p] = shares[p] + part * sign
        if left.is_positive():
            assert sign > 0, "PG-4.5: the bank never loses more than its capital"
            payers = [(p, c) for p, c in self.bank_participants() if p != HOUSE]
            for (p, _), part in zip(
                payers, left.allocate([c.minor for _, c in payers]), strict=True
            ):
                shares[p] = shares[p] + part
        return shares

    def _share_bank_result(self) -> tuple[list[tuple[str, Money]], list[tuple[str, Money]]]:
        """Each bank participant's share of the result (before his commission) and his
        commission; never commission on the house's own share (PG-R5, TW-R3).

        ``net`` (PG-R5): the result is shared in layers (PG-R4a), then each participant
        pays 4% of his net win. ``per_bet`` (TW-R3): the result before commission is shared
        in layers (PG-R4a, TW-5e) and each participant pays the parts of the commission
        that fell on him, bet by bet, in proportion to what he took of each bet the bank won
        (:meth:`_bank_parts`): a layer that took nothing pays nothing. The house's part of
        it is no commission: it stays with the house's share. Nobody wins or loses more
        than his capital, commission included (TW-5c, :meth:`_within_capital`).
        """
        rate = self.regulation.commission
        gross = self._layered(self.bank_result())
        if not self._bank_fee_in_balance():
            fees = [
                (p, share.commission(rate))
                for p, share in gross.items()
                if p != HOUSE and share.is_positive()
            ]
            return list(gross.items()), fees
        paid = {p: self.money(0) for p in gross}
        for r in self.results:
            for p, _take, part in r.bank_parts:
                if p != HOUSE:
                    paid[p] = paid[p] + part
        net = self._within_capital({p: share - paid[p] for p, share in gross.items()})
        shares = [(p, net[p] + paid[p]) for p in gross]
        return shares, [(p, fee) for p, fee in paid.items() if fee.is_positive()]

    def _within_capital(self, net: dict[str, Money]) -> dict[str, Money]:
        """TW-5c / TW-R3: no participant wins or loses more than his capital, commission
        included. A layer that paid commission on a win the bank then paid out, and whose
        share of a loss would take it past its capital with that commission, passes the
        part beyond its capital on to the others, in layer order (banker first, 正庄先行),
        each up to his own capital (likewise a win beyond a capital). The running balance
        keeps the bank's result net of commission within the whole capital, so they have
        room for it."""
        capital = dict(self.bank_participants())
        order = [p for layer in self._layers() for p, _ in layer]
        out: dict[str, Money] = {}
        moved = self.money(0)
        for p in order:
            cap = capital[p]
            out[p] = max(-cap, min(cap, net[p]))
            moved = moved + net[p] - out[p]
        for p in order:
            if moved.is_zero():
                break
            cap = capital[p]
            step = min(moved, cap - out[p]) if moved.is_positive() else max(moved, -cap - out[p])
            out[p] = out[p] + step
            moved = moved - step
        assert moved.is_zero(), "TW-5c: the bank's result is within its capital"
        return out

    def _compensation(
        self, seat_results: dict[int, SeatResult], banker: Setting
    ) -> list[dict[str, Any]]:
        """PG-7.2 / PG-R8: a holder who lost (以致輸) where another setting would have won or
        pushed owes each other bettor of the seat — whatever his own outcome: a loss, or no
        action because the bank's capital ran out — what that bettor would have received
        had the seat been set the best such way — the round settled again with it (running
        balance, the bank's capital and commission included, PG-R4), so never more than
        the bank could have paid — less what he got. Recorded; the casino is not a party."""
        out: list[dict[str, Any]] = []
        if not self.regulation.records_compensation:
            return out
        for seat, res in seat_results.items():
            if res is not SeatResult.BANKER:
                continue
            outcomes = {
                self.regulation.compare_seat(alt, banker)
                for alt in all_settings(self.hands[seat], self.regulation.tiles)
            }
            best = next((r for r in (SeatResult.PLAYER, SeatResult.PUSH) if r in outcomes), None)
            if best is None:
                continue
            again = self._settle_bets({**seat_results, seat: best})
            holder = self.setters[seat]
            for br, would in zip(self.results, again, strict=True):
                if br.seat != seat or br.person == holder:
                    continue
                owed = would.net - br.net
                if owed.is_positive():
                    out.append(
                        {
                            "seat": seat,
                            "holder": holder,
                            "bettor": br.person,
                            "better": best.value,
                            "owed": owed.minor,
                        }
                    )
        return out

    def _postings(
        self, shares: list[tuple[str, Money]], commissions: list[tuple[str, Money]]
    ) -> list[Posting]:
        """Zero-sum postings: bets through the pot, the pot to the bank's participants,
        commission to the house."""
        posts: list[Posting] = []
        for r in self.results:
            if r.outcome == "lose":
                posts.append(Posting(wallet(r.person), -r.action))
                posts.append(Posting(POT, r.action))
            elif r.outcome == "win":
                posts.append(Posting(POT, -r.action))
                posts.append(Posting(wallet(r.person), r.action - r.commission))
                posts.append(Posting(HOUSE_COMMISSION, r.commission))
        for person, share in shares:
            posts.append(Posting(POT, -share))
            posts.append(Posting(wallet(person), share))
        for person, fee in commissions:
            posts.append(Posting(wallet(person), -fee))
            posts.append(Posting(HOUSE_COMMISSION, fee))
        return posts


# --- the round machine's journals, read by today's rules ---------------------------------------
#
# Before the terminal game drove the table, ``play --journal`` wrote each round as the round
# machine journalled it (the events above, ``tiles.*``), and a table kept such a round inside
# its state. Those journals are still read: :func:`replay_round` re-derives every event of
# one through today's round (:class:`TileRound`) and settlement (:func:`settle`), and
# :func:`legacy_digest` the digest a table's checkpoint had when its state held them.

_OLD = "macau_tables.games.tilegame"
#: what a table's snapshot named otherwise before its round was a :class:`TileRound`
_RENAMED = {"macau_tables.games.tileround:RoundOptions": f"{_OLD}:RoundOptions"}


@dataclass
class OldRound:
    """A round of the round machine rebuilt from its events through today's rules:
    ``journal`` the events it journals now (the same as recorded, if the recorded ones
    follow the rules), ``round`` where it stands, ``settlement`` once settled."""

    regulation: Regulation
    opened: RoundOpened
    round: TileRound
    journal: Journal
    wallets: dict[str, int]
    settlement: Settlement | None = None
    settled: RoundSettled | None = None

    @classmethod
    def start(
        cls, regulation: Regulation, opened: RoundOpened, carried: OldRound | None = None
    ) -> OldRound:
        """The round ``opened`` opens (PG-4.4 / TW-5c: the banker has the capital he puts
        up); ``carried``: the first 4-place round whose woodpile it goes on with (TW-2d)."""
        cur = currency_by_code(opened.currency)
        options = RoundOptions.from_json(dict(opened.options))
        wallets = dict(opened.wallets)
        rnd = TileRound.open(
            regulation, banker=opened.banker, banker_seat=opened.banker_seat,
            banker_capital=Money(opened.banker_capital, cur),
            house_capital=Money(opened.house_capital, cur), places=opened.places,
            round_no=opened.round_no, options=options,
            carried=None if carried is None else carried.round,
        )  # fmt: skip
        if opened.banker != HOUSE and wallets.get(opened.banker, 0) < opened.banker_capital:
            raise RuleViolation(
                f"{opened.banker} cannot put {rnd.money(opened.banker_capital)} on the table",
                rule=regulation.rule("PG-4.4"),
            )
        if carried is None and opened.tiles:  # a file of the second 4-place round (TW-R2)
            pile = tuple(opened.pile)
            rnd = replace(
                rnd, pile=pile, carried=tuple(opened.exposed),
                tiles=tuple(Tile.parse(t) for t in opened.tiles), stack_order=pile,
                phase=RoundPhase.BETTING,
            )  # fmt: skip
        else:
            opened = RoundOpened(
                game=regulation.game, round_no=opened.round_no, places=opened.places,
                banker=opened.banker, banker_seat=opened.banker_seat,
                banker_capital=opened.banker_capital, house_capital=rnd.house_capital,
                currency=cur.code, wallets=tuple(sorted(wallets.items())),
                options=options.to_json(), pile=rnd.pile,
                tiles=tuple(str(t) for t in rnd.tiles) if carried is not None else (),
                exposed=rnd.carried,
            )  # fmt: skip
        journal = Journal(regulation.game, {"regulation": regulation.title})
        journal.append(opened)
        return cls(regulation, opened, rnd, journal, wallets)

    def _committed(self, person: str) -> int:
        rnd = self.round
        total = sum(b.amount for b in rnd.bets if b.person == person)
        total += sum(c for p, c in rnd.cobankers if p == person)
        return total + (rnd.banker_capital if person == rnd.banker else 0)

    def _verify_wallet(self, person: str, amount: int, rule: str) -> None:
        have = self.wallets.get(person, 0)
        if self._committed(person) + amount > have:
            m = self.round.money
            raise BetNotAllowed(
                f"{person} has {m(have)}, {m(self._committed(person))} of it already on the table",
                rule=self.regulation.rule(rule),
            )

    def apply(self, ev: Event) -> Event:
        """One recorded event, taken through today's rules; the event as they journal it."""
        rnd = self.round
        new: Event
        if isinstance(ev, TilesShuffled):
            rnd = rnd.shuffle_tiles([Tile.parse(t) for t in ev.tiles])
            new = TilesShuffled(tuple(str(t) for t in rnd.tiles))
        elif isinstance(ev, CoBankJoined):
            rnd.verify_join_bank(ev.person, rnd.money(ev.capital))
            self._verify_wallet(ev.person, ev.capital, "PG-3.3")
            rnd = rnd.join_bank(ev.person, rnd.money(ev.capital))
            new = CoBankJoined(ev.person, ev.capital)
        elif isinstance(ev, BetPlaced):
            rnd.verify_place_bet(ev.person, ev.seat, rnd.money(ev.amount))
            self._verify_wallet(ev.person, ev.amount, "PG-4.6")
            rnd = rnd.place_bet(ev.person, ev.seat, rnd.money(ev.amount))
            new = BetPlaced(ev.person, ev.seat, ev.amount)
        elif isinstance(ev, StacksRearranged):
            rnd = rnd.rearrange(ev.person, ev.order)
            new = StacksRearranged(ev.person, tuple(ev.order))
        elif isinstance(ev, DiceShaken):
            rnd = rnd.shake_dice(ev.dice, valid=ev.valid)
            new = DiceShaken(tuple(ev.dice), ev.valid)
        elif isinstance(ev, TilesExposed):
            rnd = rnd.report_exposed(ev.seat, ev.count)
            new = TilesExposed(ev.seat, ev.count)
        elif isinstance(ev, SeatSet):
            rnd = rnd.set_tiles(ev.person, ev.seat, [Tile.parse(t) for t in ev.front])
            setting = rnd.settings[ev.seat]
            front = tuple(str(t) for t in setting.front.tiles)
            new = SeatSet(ev.person, ev.seat, front, tuple(str(t) for t in setting.back.tiles))
        elif isinstance(ev, RoundSettled):
            self.settlement = result = settle(rnd)
            new = self.settled = settled_event(rnd, result)
        else:
            raise InvalidInput(f"unexpected event {ev.kind} in a tile round")
        self.round = rnd
        self.journal.append(new)
        return new

    @property
    def transaction(self) -> Transaction | None:
        """The settlement's postings as the round machine posted them (its accounts)."""
        if self.settlement is None:
            return None
        memo = f"{self.regulation.game} round {self.round.round_no}"
        return Transaction.of(self.settlement.postings, memo=memo)


def settled_event(rnd: TileRound, result: Settlement) -> RoundSettled:
    """The round machine's record of a settlement (``tiles.settled``)."""
    return RoundSettled(
        results=result.records(rnd.seats_out),
        bank_shares=tuple((p, m.minor) for p, m in result.shares),
        commissions=tuple((p, m.minor) for p, m in result.commissions),
        resets=result.resets,
        compensation=tuple(result.compensation),
        postings=tuple((p.account, p.amount.minor) for p in result.postings),
    )


def replay_round(journal: Journal, regulation: Regulation) -> OldRound:
    """A round machine's journal (one round, ``tiles.*`` events) re-run through today's
    rules: every event re-derived (the settlement computed again), in a journal of its own
    that has the recorded one's head when they agree."""
    events = journal.events
    if not events or not isinstance(events[0], RoundOpened):
        raise InvalidInput("a round's journal starts with its opening")
    old = OldRound.start(regulation, events[0])
    for ev in events[1:]:
        old.apply(ev)
    return old


def _obj(name: str, fields: Mapping[str, Any]) -> Any:
    return {"o": [f"{_OLD}:{name}", dict(fields)]}


def encoded_round(old: OldRound | None) -> Any:
    """A round as the round machine's state wrote it in a snapshot."""
    if old is None:
        return None
    enc = snapshot.encode
    rnd, result = old.round, old.settlement
    money = rnd.money
    bets = [
        _obj("Bet", {"person": b.person, "seat": b.seat, "amount": enc(money(b.amount))})
        for b in rnd.bets
    ]
    results = [
        _obj(
            "BetResult",
            {
                "person": r.person,
                "seat": r.seat,
                "amount": enc(r.amount),
                "outcome": r.outcome,
                "action": enc(r.action),
                "net": enc(r.net),
                "commission": enc(r.commission),
                "bank_fee": enc(r.bank_fee),
            },
        )
        for r in (result.results if result is not None else ())
    ]
    fields = {
        "regulation": enc(old.regulation),
        "opened": enc(old.opened),
        "journal": enc(old.journal),
        "phase": {"e": [f"{_OLD}:Phase", "settled" if result is not None else rnd.phase.value]},
        "tiles": enc(rnd.tiles),
        "stack_order": enc(rnd.stack_order),
        "cobankers": enc([(p, money(c)) for p, c in rnd.cobankers]),
        "bets": {"l": bets},
        "rearranged_by": enc(list(rnd.rearranged_by)),
        "dice": enc(rnd.dice),
        "hands": enc(dict(rnd.hands)),
        "exposed": enc(dict(rnd.exposed)),
        "seats_out": enc(set(rnd.seats_out)),
        "settings_": enc(dict(result.settings if result is not None else rnd.settings)),
        "setters": enc(dict(rnd.setters)),
        "results": {"l": results},
        "settled": enc(old.settled),
        "transaction": enc(old.transaction),
        "void_deals": rnd.void_deals,
    }
    return _obj("Round", fields)


def renamed(value: Any) -> Any:
    """An encoded state with the classes :data:`_RENAMED` names under their names then."""
    if isinstance(value, list):
        return [renamed(v) for v in value]
    if not isinstance(value, dict):
        return value
    ((tag, body),) = value.items()
    if tag == "o":
        name, fields = body
        return {tag: [_RENAMED.get(name, name), {k: renamed(v) for k, v in fields.items()}]}
    if tag in ("e", "x", "lx", "tx"):
        name, rest = body
        return {tag: [_RENAMED.get(name, name), renamed(rest) if tag == "e" else rest]}
    if tag in ("c", "b", "q"):
        return value
    return {tag: renamed(body)}


# --- the bank's rotation (PG-4.1, PG-4.3, PG-4.9, PG-R6, PG-R11, TW-5a … TW-5d) --------------


@dataclass(frozen=True)
class Rotation:
    """Who banks next, and with what capital. Seats are numbered counter-clockwise; "the
    seat on the right" of seat ``s`` is the next one counter-clockwise (PG-1.3: right to
    left). ``banker_seat`` 0 is the house (PG-R6 gap fill).

    The bank passes from round to round only through this value: :meth:`verify_open`
    checks a round's opening against it (PG-4.1, PG-4.9, PG-R11 / TW-5a, TW-5d), and
    :meth:`after_round` records what the round left on the table. ``regulation`` picks the
    IDs cited (a Taiwan table cites TW-5a / TW-5d).
    """

    places: int
    banker_seat: int
    rounds_held: int = 0
    capital: int = 0  # the capital left on the table after the last round
    regulation: Regulation | None = None

    def _r(self, pg_id: str) -> str:
        return self.regulation.rule(pg_id) if self.regulation is not None else pg_id

    def verify_keep(self, new_capital: int, consent: bool) -> None:
        """PG-4.1 / TW-5a: two rounds at a time unless every other seat agrees;
        PG-4.9 / TW-5d: a winner keeps capital plus winnings, may add, never reduce;
        PG-R11: after a loss, what is left, and may add."""
        if self.rounds_held >= 2 and not consent:
            raise RuleViolation(
                "a bank is held two rounds at a time unless all other seats agree",
                rule=self._r("PG-4.1"),
            )
        if new_capital < self.capital:
            raise RuleViolation(
                f"the new capital may not be below the {Money(self.capital)} left on the table "
                "(it may be increased, never decreased)",
                rule=self._r("PG-4.9"),
            )

    def can_keep(self, new_capital: int, consent: bool = False) -> bool:
        return _can(self.verify_keep, new_capital, consent)

    def keep(self, new_capital: int, consent: bool = False) -> Rotation:
        """The banker continues with ``new_capital`` (capital left plus any addition)."""
        self.verify_keep(new_capital, consent)
        return replace(self, capital=new_capital)

    def verify_open(self, opened: RoundOpened, consent: bool = False) -> None:
        """A round opened at this table follows the rotation: the banker's seat is the
        rotation's, and a continuing banker's capital is at least what he left on the
        table (PG-4.9 / TW-5d, PG-R11)."""
        if self.banker_seat and opened.banker_seat != self.banker_seat:
            raise RuleViolation(
                f"seat {self.banker_seat} banks this round, not seat {opened.banker_seat}",
                rule=self._r("PG-4.1"),
            )
        if self.rounds_held:
            self.verify_keep(opened.banker_capital, consent)

    def after_round(self, capital_left: int) -> Rotation:
        """The round is settled: ``capital_left`` stays on the table (PG-4.9)."""
        return replace(self, rounds_held=self.rounds_held + 1, capital=capital_left)

    def must_pass(self) -> bool:
        """PG-R6: after two rounds the bank moves on (unless all consent)."""
        return self.rounds_held >= 2

    def pass_bank(
        self,
        bettors: Collection[str],
        seated: Mapping[int, str],
        declined: Iterable[int] = (),
    ) -> Rotation:
        """PG-4.3 / TW-5b / PG-R6: the bank moves to the next seat on the right, which may
        take it whether or not it bet in the previous round. A seat that declines (an
        empty seat — not in ``seated`` — counts as declining) passes it on to the nearest
        seat on its right, and the **person** who receives a declined bank may take it only
        if he himself bet in the previous round (``bettors``: the people who did, on any
        seat; PG-R6 / TW-R7 — another player's bet on his seat does not count). After the
        house (``banker_seat`` 0) the turn is seat 1's and every seat, the 8th included,
        may be reached. If no seat takes it, the house banks (PG-R6 gap fill):
        ``banker_seat`` 0."""
        refused = set(declined)
        # after a player's bank, the seven other seats; after the house's, all of them
        reach = self.places if self.banker_seat == 0 else self.places - 1
        for k in range(1, reach + 1):
            seat = (self.banker_seat - 1 + k) % self.places + 1
            person = seated.get(seat)
            if seat in refused or person is None:
                continue
            if k == 1 or person in bettors:
                return Rotation(self.places, seat, 0, 0, self.regulation)
        return Rotation(self.places, 0, 0, 0, self.regulation)


def woodpile_for(
    rnd: Round, hands: Mapping[int, Sequence[Tile]], dice: Sequence[int]
) -> list[Tile]:
    """A 32-tile woodpile that deals ``hands`` (seat → its four tiles) with these ``dice``;
    the other seats get the remaining tiles. For supervisors recomputing a round from its
    facts (``paigow settle``) and for staging tests."""
    first = (sum(dice) - 1) % rnd.places
    rest = list(FULL_SET)
    for seat_tiles in hands.values():
        for t in seat_tiles:
            if t not in rest:
                raise InvalidInput(f"tile {t} is used more often than the set holds", rule="T-1")
            rest.remove(t)
    stacks: list[list[Tile]] = [[] for _ in range(8)]
    pile = list(rnd.stack_order or rnd.opened.pile)
    for k in range(rnd.places):
        seat = rnd.seat_at(first + k)
        stacks[pile[k]] = list(hands.get(seat) or [rest.pop() for _ in range(4)])
    for s in range(8):
        if not stacks[s]:
            stacks[s] = [rest.pop() for _ in range(4)]
    return [t for s in stacks for t in s]
