"""The round of a banked tile game: what Pai Gow (PG) and Taiwan Pai Kao (TW) share.

The regulations differ in a handful of rules (who wins a copy, exposed tiles, forced
setting, commission); each game module (`paigow.py`, `taiwan.py`) states its rules in
article order and hands them to this machinery as a :class:`Regulation`. What is here is
the shared mechanics of one round, each citing the articles of both texts that fix it.

A :class:`TileRound` is a value: the facts of one round so far (the bank, the woodpile, the
bets, the dice and the deal, the settings). Every step is ``verify_x`` (raises a typed error
naming the rule) / ``can_x`` / ``x`` (returns the round after the step; the round it was
called on is unchanged). The table (:mod:`macau_tables.games.tiles.table`) decides and
journals the events and keeps the round it applies them to; its settlement is the pure
function :func:`macau_tables.games.tiles.settlement.settle` of the round dealt and set.

Order of a round (PG-4.4, PG-4.6, PG-2.1, PG-1.2, PG-1.4, PG-8.1; TW-2b … TW-2g, TW-5c):
open (banker, capital, the house's co-bank, the dealing announced) → shuffle → bets,
co-bankers, rearranging (players first, the banker last) → dice (re-shaken if cocked) →
deal → exposed tiles → every seat's holder sets → the banker sets → settle.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any, Literal

from macau_tables.core import snapshot
from macau_tables.core.errors import BetNotAllowed, InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.errors import passes as _can
from macau_tables.core.money import Money, currency_by_code
from macau_tables.core.rng import Rng
from macau_tables.tiles import FULL_SET, Hand, Setting, Tile, TileRules
from macau_tables.tiles.hands import make_setting

#: this module was ``macau_tables.games.tileround``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tileround")

__all__ = [
    "DEALER",
    "HOUSE",
    "HOUSE_BANK",
    "HOUSE_COMMISSION",
    "POT",
    "Bet",
    "BetTally",
    "ExposedEffect",
    "Phase",
    "Regulation",
    "Rotation",
    "RoundOptions",
    "SeatResult",
    "TileRound",
    "wallet",
    "woodpile_for",
]


HOUSE = "house"  # the casino as a participant (co-bank, setting authority)
DEALER = "dealer"  # the dealer sets a seat nobody may hold (PG-7.5 gap fill)
HOUSE_BANK = "house:bank"  # the house's share of the bank
HOUSE_COMMISSION = "house:commission"
POT = "table:pot"  # clearing account of a settlement; always nets to zero


def wallet(person: str) -> str:
    """The round's account of a participant (the table posts it to his stack)."""
    return HOUSE_BANK if person == HOUSE else f"player:{person}"


# --- what a regulation supplies ------------------------------------------------------------


class SeatResult(Enum):
    """A seat's result against the banker (PG-6.3/6.4, TW-6c)."""

    PLAYER = "player"  # the seat's bets win
    BANKER = "banker"  # the seat's bets lose
    PUSH = "push"  # stand-off


class ExposedEffect(Enum):
    """What exposed tiles do (PG-2.2, PG-2.3, PG-R3, TW-4)."""

    PLAY_ON = "play_on"
    SEAT_OUT = "seat_out"  # the seat's bets are returned
    DEAL_VOID = "deal_void"  # reshuffle, shake again; bets stay


@dataclass(frozen=True)
class Regulation:
    """The rules of one regulation, as data and small functions (see paigow.py / taiwan.py)."""

    game: str  # journal game name: "paigow" or "taiwan"
    title: str
    tiles: TileRules
    commission: Fraction  # PG-4.2: 4%; TW-8: 5%
    places: tuple[int, ...]  # PG-1.4: (8,); TW-2d: (8, 4)
    compare_seat: Callable[[Setting, Setting], SeatResult]
    exposed_effect: Callable[[int, bool], ExposedEffect]  # (count, is_banker_stack)
    cobanker_may_bet: bool  # PG: not forbidden; TW-5e: forbidden
    forced_setting: Callable[[Sequence[Tile], TileRules], Setting] | None  # TW-6b
    bank_commission_default: Literal["net", "per_bet"]  # PG-R5 / TW-R3
    records_compensation: bool  # PG-7.2 / PG-R8 (TW has no such rule)
    places_rule: str  # PG-1.4 / TW-2d, cited when a round asks for other places
    banker_last_rule: str  # PG-8.1 / TW-6a, cited when the banker sets too early
    player_commission_default: Literal["round", "bet"] = "round"  # PG-4.2 / TW-8
    rearrange_limit: Literal["seats", "people"] = "seats"  # PG-2.1 門 / TW-2f 閒家只限兩人
    larger_stake_sets_banker: bool = True  # PG-3.4 / TW-R5 (TW: off unless the option)
    void_deal_rule: str = "PG-R3"  # cited when a void deal freezes the table
    one_seat_per_holder: bool = True  # PG-7.5 / PG-R7; TW-R6: no such limit in TW
    #: The shared mechanics cite Pai Gow's articles; a regulation maps each to its own
    #: (a Taiwan round's refusal cites the Taiwan text: PG-4.7 -> TW-2g).
    cite: Mapping[str, str] = field(default_factory=dict)

    def rule(self, pg_id: str) -> str:
        """The ID this regulation gives the rule that Pai Gow numbers ``pg_id``."""
        return self.cite.get(pg_id, pg_id)


@dataclass(frozen=True)
class RoundOptions:
    """Rule-set options; the defaults are the Readings.

    - ``settlement``: ``"running"`` (PG-R4 default, TW-R3) or ``"cover"`` (PG-R4 option);
    - ``house_layer``: ``"proportional"`` (PG-R4a default: banker and house share the core
      bank's result in proportion to capital) or ``"after_banker"`` (the house as a layer
      after the banker);
    - ``bank_commission``: ``"net"`` (PG-R5: on each bank participant's net win) or
      ``"per_bet"`` (TW-R3: on each bet the bank wins); ``None`` = the regulation's default;
    - ``bind_banker``: TW-R1 option, the forced setting binds the banker too;
    - ``player_commission``: the base of a player's commission, ``"round"`` (PG-4.2
      「每局抽水…所贏金額」: a person's wins of the round together, rounded down once) or
      ``"bet"`` (each winning bet on its own, TW-8 "todas as apostas ganhas"); ``None`` =
      the regulation's default (PG round, TW bet);
    - ``larger_stake_sets_banker``: PG-3.4, the larger of the banker's and the house's
      capital sets the banker's tiles; ``None`` = the regulation's default (PG yes; TW-R5:
      no, the option turns it on);
    - ``one_seat_per_holder``: PG-7.5, nobody holds more than one seat — the next-largest
      bettor holds the second (PG-R7); ``None`` = the regulation's default (PG yes; TW-R6:
      no, the largest bettor holds every place where his bet is the largest, and the
      option is for a house that applies PG-7.5's limit);
    - ``min_bet`` / ``max_bet``: table limits in minor units (0 = none).
    """

    settlement: Literal["running", "cover"] = "running"
    house_layer: Literal["proportional", "after_banker"] = "proportional"
    bank_commission: Literal["net", "per_bet"] | None = None
    bind_banker: bool = False
    min_bet: int = 0
    max_bet: int = 0
    player_commission: Literal["round", "bet"] | None = None
    larger_stake_sets_banker: bool | None = None
    one_seat_per_holder: bool | None = field(default=None, metadata=snapshot.OMIT_DEFAULT)

    def __post_init__(self) -> None:
        """The table limits: whole numbers of minor units, 0 or positive, the minimum not
        above the maximum (no text sets them: no rule ID)."""
        for name in ("min_bet", "max_bet"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InvalidInput(f"{name} is a whole number of minor units >= 0, not {value!r}")
        if self.max_bet and self.min_bet > self.max_bet:
            raise InvalidInput(f"min_bet {self.min_bet} is above max_bet {self.max_bet}")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "settlement": self.settlement,
            "house_layer": self.house_layer,
            "bank_commission": self.bank_commission,
            "bind_banker": self.bind_banker,
            "min_bet": self.min_bet,
            "max_bet": self.max_bet,
        }
        # Written only when set, so journals of rounds that do not use them stay as they were.
        if self.player_commission is not None:
            out["player_commission"] = self.player_commission
        if self.larger_stake_sets_banker is not None:
            out["larger_stake_sets_banker"] = self.larger_stake_sets_banker
        if self.one_seat_per_holder is not None:
            out["one_seat_per_holder"] = self.one_seat_per_holder
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RoundOptions:
        opts = cls(**data)
        if opts.settlement not in ("running", "cover"):
            raise InvalidInput(f"settlement must be running or cover, not {opts.settlement!r}")
        if opts.house_layer not in ("proportional", "after_banker"):
            raise InvalidInput("house_layer must be proportional or after_banker")
        if opts.bank_commission not in (None, "net", "per_bet"):
            raise InvalidInput("bank_commission must be net or per_bet")
        if opts.player_commission not in (None, "round", "bet"):
            raise InvalidInput("player_commission must be round or bet", rule="PG-4.2")
        if opts.larger_stake_sets_banker not in (None, True, False):
            raise InvalidInput("larger_stake_sets_banker must be true or false", rule="TW-R5")
        if opts.one_seat_per_holder not in (None, True, False):
            raise InvalidInput("one_seat_per_holder must be true or false", rule="TW-R6")
        return opts


# --- values of the round -------------------------------------------------------------------


class Phase(Enum):
    SHUFFLE = "shuffle"  # waiting for the shuffle (PG-1.1)
    BETTING = "betting"  # bets, co-bank, rearranging, then the dice (PG-4.6, PG-2.1)
    SETTING = "setting"  # tiles dealt; seats set, then the banker (PG-8.1)


@dataclass(frozen=True, slots=True)
class Bet:
    """A bet on a seat (PG-4.6), in minor units of the round's currency."""

    person: str
    seat: int
    amount: int


class BetTally:
    """A round's bets (``TileRound.bets``, only ever added to while the round lasts)
    summed the way the rules ask of them, so that a bet costs the same on an empty table
    and on a full one: what each person has bet, on which seats (PG-2.1: who may rearrange,
    standing for how many seats; TW-5e: a co-banker's bets), and each seat's bettors with
    what each has on it, in the order they first bet there (PG-7.1 / PG-R7: the holder).
    Its size is the people times the seats, whatever the bets.

    Derived data, never in a snapshot (the round's cache, ``compare=False``): a round made
    from another by a bet (``replace``) reads only the bets added since — into a copy, the
    earlier round's tally left as it was (:attr:`TileRound.tally`)."""

    __slots__ = ("first", "last", "on_seat", "seats_of", "seen", "staked")

    def __init__(self) -> None:
        self.seen = 0  # the bets read
        self.first: Bet | None = None  # the first and the last of them (to know the tuple)
        self.last: Bet | None = None
        self.staked: dict[str, int] = {}  # person -> his bets' total (minor units)
        self.seats_of: dict[str, dict[int, None]] = {}  # person -> the seats he bet on
        self.on_seat: dict[int, dict[str, int]] = {}  # seat -> its bettors' totals

    def of(self, bets: tuple[Bet, ...]) -> bool:
        """Whether ``bets`` begin with the bets read (rounds only add bets at the end)."""
        if len(bets) < self.seen:
            return False
        return self.seen == 0 or (bets[0] is self.first and bets[self.seen - 1] is self.last)

    def read(self, bets: tuple[Bet, ...]) -> BetTally:
        """This tally if it has read ``bets``; else a copy that reads the ones added."""
        if self.seen == len(bets):
            return self
        t = BetTally()
        t.seen, t.first = self.seen, self.first
        t.staked = dict(self.staked)
        t.seats_of = {p: dict(s) for p, s in self.seats_of.items()}
        t.on_seat = {s: dict(b) for s, b in self.on_seat.items()}
        for b in bets[self.seen :]:
            t.staked[b.person] = t.staked.get(b.person, 0) + b.amount
            t.seats_of.setdefault(b.person, {})[b.seat] = None
            seat = t.on_seat.setdefault(b.seat, {})
            seat[b.person] = seat.get(b.person, 0) + b.amount
        t.seen, t.first, t.last = len(bets), bets[0], bets[-1]
        return t


# --- the round -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TileRound:
    """One round at a Pai Gow / Taiwan Pai Kao table, as far as it has gone.

    Amounts are minor units of ``currency``. ``pile`` is the stacks on the table when the
    round opened (all 8; the four a first 4-place round left, TW-R2) and ``carried`` the
    tiles that round turned face up (TW-2d). ``hands``, ``exposed``, ``settings`` and
    ``setters`` are keyed by seat in the order the round reached them; never changed in
    place (each step builds the round after it).
    """

    regulation: Regulation
    options: RoundOptions
    round_no: int
    places: int
    banker: str
    banker_seat: int
    banker_capital: int
    house_capital: int
    currency: str
    pile: tuple[int, ...] = tuple(range(8))
    carried: tuple[str, ...] = ()
    phase: Phase = Phase.SHUFFLE
    tiles: tuple[Tile, ...] = ()
    stack_order: tuple[int, ...] = ()
    cobankers: tuple[tuple[str, int], ...] = ()
    bets: tuple[Bet, ...] = ()
    rearranged_by: tuple[str, ...] = ()
    dice: tuple[int, ...] | None = None
    hands: Mapping[int, tuple[Tile, ...]] = field(default_factory=dict)
    exposed: Mapping[int, int] = field(default_factory=dict)
    seats_out: frozenset[int] = frozenset()
    settings: Mapping[int, Setting] = field(default_factory=dict)
    setters: Mapping[int, str] = field(default_factory=dict)
    void_deals: int = 0  # PG-2.3 / PG-R3: deals voided this round (bets frozen since)
    # the bets summed (derived: a cache, never in a snapshot; read through ``tally``)
    tally_: BetTally | None = field(default=None, compare=False, repr=False)

    @property
    def tally(self) -> BetTally:
        """The round's bets summed (:class:`BetTally`), up to the last."""
        t = self.tally_
        t = t.read(self.bets) if t is not None and t.of(self.bets) else BetTally().read(self.bets)
        if t is not self.tally_:
            object.__setattr__(self, "tally_", t)  # (a cache of a frozen value)
        return t

    # ---- opening (PG-4.4, PG-3.1, TW-5c, TW-5e) ----------------------------------------

    @classmethod
    def open(
        cls,
        regulation: Regulation,
        *,
        banker: str,
        banker_seat: int,
        banker_capital: Money,
        house_capital: Money | None = None,
        places: int = 8,
        round_no: int = 1,
        options: RoundOptions | None = None,
        carried: TileRound | None = None,
    ) -> TileRound:
        """Open a round: PG-4.4 / TW-5c the capital on the table and the dealing announced.

        ``carried`` is a settled first round of a 4-place woodpile (TW-2d, TW-R2): this
        round deals its remaining four stacks, with its 16 tiles face up. Whether the
        banker has the capital, and whether the opening follows the bank's rotation
        (PG-4.1, PG-4.9 / TW-5a, TW-5d), is the table's to check (it holds the chips and
        the rotation: :class:`Rotation`).
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
        rnd = cls(
            regulation=regulation,
            options=opts,
            round_no=round_no,
            places=places,
            banker=banker,
            banker_seat=banker_seat,
            banker_capital=banker_capital.minor,
            house_capital=house.minor,
            currency=currency.code,
        )
        if carried is None:
            return rnd
        if carried.places != 4 or len(carried.pile) != 8:
            raise RuleViolation(
                "only a first 4-place round leaves stacks for the next", rule="TW-R2"
            )
        if not carried.can_settle() or places != 4:
            raise RuleViolation(
                "the second 4-place round follows a settled first one", rule="TW-2d"
            )
        used = carried.used_stacks()
        pile = tuple(i for i in carried.stack_order if i not in used)
        face_up = tuple(str(t) for s in sorted(carried.hands) for t in carried.hands[s])
        return replace(
            rnd,
            pile=pile,
            carried=face_up,
            tiles=carried.tiles,
            stack_order=pile,
            phase=Phase.BETTING,
        )

    # ---- convenience views --------------------------------------------------------------

    def _r(self, pg_id: str) -> str:
        """The regulation's own ID for a rule the shared mechanics cite by Pai Gow's."""
        return self.regulation.rule(pg_id)

    def money(self, minor: int) -> Money:
        return Money(minor, currency_by_code(self.currency))

    @property
    def bank_capital(self) -> Money:
        """PG-4.5 / TW-5c: the capital in play, banker + house + co-bankers."""
        total = self.banker_capital + self.house_capital
        total += sum(c for _p, c in self.cobankers)
        return self.money(total)

    def bank_participants(self) -> list[tuple[str, Money]]:
        """The bank's participants and their capital: the banker, the house's co-bank
        (PG-3.1, TW-5e), then the co-banking players in the order they joined."""
        out: list[tuple[str, Money]] = []
        if self.banker_capital:
            out.append((self.banker, self.money(self.banker_capital)))
        if self.house_capital:
            out.append((HOUSE, self.money(self.house_capital)))
        return out + [(p, self.money(c)) for p, c in self.cobankers]

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

    def shuffle(self, rng: Rng) -> TileRound:
        """The dealer shuffles face down and builds the woodpile (PG-1.1, TW-2a)."""
        self.verify_shuffle()
        return self.shuffle_tiles(tuple(rng.shuffle(FULL_SET)))

    def shuffle_tiles(self, tiles: Sequence[Tile]) -> TileRound:
        """The woodpile in stack order (stack i = tiles[4i:4i+4]): a shuffle drawn from a
        server seed, a live table's, or a physical woodpile keyed in as dealt."""
        self.verify_shuffle()
        if sorted(tiles) != sorted(FULL_SET):
            raise InvalidInput("a shuffle is the 32 tiles of one set", rule="T-1")
        return replace(self, tiles=tuple(tiles), stack_order=self.pile, phase=Phase.BETTING)

    def keyed(self, tiles: Sequence[Tile]) -> TileRound:
        """A physical woodpile as far as the hands keyed in make it known (PG-1.4 / TW-2c
        at a live table): the tiles replace the unknown order, before the dice deal them."""
        if self.phase is not Phase.BETTING or sorted(tiles) != sorted(FULL_SET):
            raise InvalidInput("the keyed woodpile is the 32 tiles of one set", rule="T-1")
        return replace(self, tiles=tuple(tiles))

    # ---- PG-3.2 / PG-3.3 / TW-5e: co-banking players -------------------------------------

    def verify_join_bank(self, person: str, capital: Money) -> None:
        self._verify_before_dice("PG-4.7")
        if person in (self.banker, HOUSE):
            raise BetNotAllowed(f"{person} is already in the bank", rule=self._r("PG-3.2"))
        if any(p == person for p, _ in self.cobankers):
            raise BetNotAllowed(f"{person} already co-banks this round", rule=self._r("PG-3.3"))
        if not self.regulation.cobanker_may_bet and person in self.tally.staked:
            raise BetNotAllowed(
                f"{person} bets on a place: a co-banker may not bet on other places",
                rule="TW-5e",
            )
        self._verify_amount(capital)

    def can_join_bank(self, person: str, capital: Money) -> bool:
        return _can(self.verify_join_bank, person, capital)

    def join_bank(self, person: str, capital: Money) -> TileRound:
        """PG-3.2: co-bank with one's own capital (PG-3.3: nobody joins it), after the
        banker in the order joined (正庄先行, TW-5e)."""
        self.verify_join_bank(person, capital)
        return replace(self, cobankers=(*self.cobankers, (person, capital.minor)))

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
        self._verify_amount(amount)

    def can_place_bet(self, person: str, seat: int, amount: Money) -> bool:
        return _can(self.verify_place_bet, person, seat, amount)

    def place_bet(self, person: str, seat: int, amount: Money) -> TileRound:
        """PG-4.6: bets lie on the table before the dice; several bettors per seat (PG-7.1,
        TW-3b); PG-4.8 / TW-2h: each is settled by the seat it lies on."""
        self.verify_place_bet(person, seat, amount)
        return replace(self, bets=(*self.bets, Bet(person, seat, amount.minor)))

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

    def _verify_amount(self, amount: Money) -> None:
        if not amount.is_positive():
            raise InvalidInput("an amount must be positive")
        if amount.currency.code != self.currency:
            raise InvalidInput(f"this table plays in {self.currency}")

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
            if person not in self.tally.staked:
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
        seats_of = self.tally.seats_of
        choices = [sorted(seats_of.get(p, ())) for p in people]
        return min(len(set(pick)) for pick in itertools.product(*choices))

    def can_rearrange(self, person: str, order: Sequence[int]) -> bool:
        return _can(self.verify_rearrange, person, order)

    def rearrange(self, person: str, order: Sequence[int]) -> TileRound:
        """PG-2.1 / TW-2f: players (at most two) then the banker, one hand, before the dice."""
        self.verify_rearrange(person, order)
        return replace(self, stack_order=tuple(order), rearranged_by=(*self.rearranged_by, person))

    # ---- PG-1.2 / PG-1.3 / PG-1.5 / TW-2b / TW-2e: the dice, the deal -------------------

    def verify_shake(self) -> None:
        if self.phase is Phase.SHUFFLE:
            raise OutOfOrder("the tiles are not shuffled yet", rule=self._r("PG-1.1"))
        if self.phase is not Phase.BETTING:
            raise OutOfOrder("the dice are shaken once per deal", rule=self._r("PG-1.2"))

    def can_shake(self) -> bool:
        return _can(self.verify_shake)

    def shake(self, rng: Rng) -> TileRound:
        """PG-1.2: the banker shakes four dice; nobody shakes for him (PG-4.1, TW-2b)."""
        self.verify_shake()
        return self.shake_dice(rng.dice(4))

    def shake_dice(self, dice: Sequence[int], *, valid: bool = True) -> TileRound:
        """Four dice as they lie; ``valid=False`` when a die is cocked or left the shaker:
        the banker shakes again (PG-1.5, TW-2e). Valid dice deal (PG-1.4): every stack,
        four tiles to each seat, whatever the players."""
        self.verify_shake()
        if len(dice) != 4 or not all(1 <= d <= 6 for d in dice):
            raise InvalidInput("four dice, each 1 to 6", rule=self._r("PG-1.2"))
        if not valid:
            return self
        thrown = replace(self, dice=tuple(dice))
        stacks = thrown.used_stacks()
        hands = {
            seat: thrown.tiles[4 * stacks[k] : 4 * stacks[k] + 4]
            for k, seat in enumerate(thrown.dealing_order())
        }
        return replace(thrown, hands=hands, phase=Phase.SETTING)

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

    def stacks_for(self, dice: Sequence[int]) -> dict[int, int]:
        """seat → the stack it receives with these dice (PG-1.3, PG-1.4, TW-2c)."""
        first = (sum(dice) - 1) % self.places  # PG-R1 / TW-2b, as first_steps
        stacks = self.used_stacks()
        return {self.seat_at(first + k): stacks[k] for k in range(self.places)}

    # ---- PG-2.2 / PG-2.3 / PG-R3 / TW-4: exposed tiles -----------------------------------

    def verify_report_exposed(self, seat: int, count: int) -> None:
        if self.phase is not Phase.SETTING or self.settings:
            raise OutOfOrder(
                "tiles are exposed in the deal, before any setting", rule=self._r("PG-2.2")
            )
        if seat not in self.hands or not 1 <= count <= 4:
            raise InvalidInput("a seat of this deal and 1 to 4 tiles")

    def report_exposed(self, seat: int, count: int) -> TileRound:
        """The dealer reports tiles turned face up in the deal; the regulation decides."""
        self.verify_report_exposed(seat, count)
        total = self.exposed.get(seat, 0) + count
        exposed = {**self.exposed, seat: total}
        effect = self.regulation.exposed_effect(total, seat == self.banker_seat)
        if effect is ExposedEffect.SEAT_OUT:
            return replace(self, exposed=exposed, seats_out=self.seats_out | {seat})
        if effect is ExposedEffect.DEAL_VOID:
            # PG-2.3 / PG-R3: the deal (是次派牌), not the round, is void: the tiles are
            # reshuffled and the dice shaken again; bets, capital and co-bank stay exactly
            # as they were (PG-4.7) — see _verify_before_dice.
            return replace(
                self,
                phase=Phase.SHUFFLE,
                dice=None,
                hands={},
                exposed={},
                seats_out=frozenset(),
                void_deals=self.void_deals + 1,
            )
        return replace(self, exposed=exposed)

    @property
    def deal_void(self) -> bool:
        """Whether the deal was voided and not dealt again yet (PG-2.3 / PG-R3)."""
        return self.phase is Phase.SHUFFLE and self.void_deals > 0

    # ---- PG-5 / PG-7 / PG-8 / TW-3 / TW-6: setting ---------------------------------------

    def active_seats(self) -> list[int]:
        """Player seats with bets and tiles in play, in settlement order."""
        bet_seats = self.tally.on_seat
        return [s for s in self.settlement_order() if s in bet_seats and s not in self.seats_out]

    def holder(self, seat: int) -> str | None:
        """PG-7.1 / PG-R7 / TW-3b: the largest bettor on the seat holds it (ties: the
        earliest). PG-7.5: nobody holds two seats — the next-largest bettor holds the second
        (seats taken in settlement order). TW-R6: the Taiwan text has no PG-7.5 (TW-3c
        limits each place to one holder, not each person to one place): the largest bettor
        holds every place where his bet is the largest, unless the option
        ``one_seat_per_holder`` applies PG-7.5's limit."""
        return self.holders().get(seat)

    def holders(self) -> dict[int, str]:
        """Every active seat's holder (see :meth:`holder`), in settlement order."""
        one_seat = self.options.one_seat_per_holder
        if one_seat is None:
            one_seat = self.regulation.one_seat_per_holder
        holders: dict[int, str] = {}
        on_seat = self.tally.on_seat
        for s in self.active_seats():
            totals = on_seat[s]
            ranked = sorted(totals, key=lambda p: -totals[p])  # stable: ties -> earliest
            taken = set(holders.values()) if one_seat else set()
            # Gap fill: when every bettor of the seat holds another seat, the dealer sets it
            # by the house way (a stated choice; the text is silent).
            holders[s] = next((p for p in ranked if p not in taken), DEALER)
        return holders

    def banker_authority(self) -> str:
        """PG-3.4 / PG-R10: the banker sets unless the house's co-bank capital is larger.
        TW-R5: the Taiwan text has no such article (TW-3c 庄家則不在此限): the banker sets
        his own tiles, unless the option ``larger_stake_sets_banker`` turns PG-3.4 on."""
        rule = self.options.larger_stake_sets_banker
        if rule is None:
            rule = self.regulation.larger_stake_sets_banker
        if rule and self.house_capital > self.banker_capital:
            return HOUSE
        return self.banker

    def verify_set_seat(self, person: str, seat: int, front: Sequence[Tile]) -> None:
        if self.phase is not Phase.SETTING:
            raise OutOfOrder("tiles are set after the deal", rule=self._r("PG-5.1"))
        if self.banker_seat in self.settings:
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

    def set_seat(self, person: str, seat: int, front: Sequence[Tile]) -> TileRound:
        """PG-5.1 / TW-6a: the holder splits the four tiles; ``front`` names two of them (the
        dealer puts the lower hand in front, PG-5.2). May be changed until PG-8.2."""
        self.verify_set_seat(person, seat, front)
        return self._with_setting(person, seat, front)

    def verify_set_banker(self, person: str, front: Sequence[Tile]) -> None:
        if self.phase is not Phase.SETTING:
            raise OutOfOrder("tiles are set after the deal", rule=self._r("PG-5.1"))
        if self.banker_seat in self.settings:
            raise RuleViolation("the banker has set already", rule=self._r("PG-8.2"))
        unset = [s for s in self.active_seats() if s not in self.settings]
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
            and not self.follows_forced(self.banker_seat, front)
        ):
            raise RuleViolation("the forced setting binds the banker here", rule="TW-R1")

    def can_set_banker(self, person: str, front: Sequence[Tile]) -> bool:
        return _can(self.verify_set_banker, person, front)

    def set_banker(self, person: str, front: Sequence[Tile]) -> TileRound:
        """PG-8.1 / TW-6a: the banker sets after every seat, then turns his tiles (PG-8.2)."""
        self.verify_set_banker(person, front)
        return self._with_setting(person, self.banker_seat, front)

    def set_tiles(self, person: str, seat: int, front: Sequence[Tile]) -> TileRound:
        """A seat's setting or the banker's, whichever ``seat`` is (a journal's setting)."""
        if seat == self.banker_seat:
            return self.set_banker(person, front)
        return self.set_seat(person, seat, front)

    def _verify_split(self, seat: int, front: Sequence[Tile]) -> None:
        tiles = list(self.hands[seat])
        if len(front) != 2:
            raise InvalidInput("name the two tiles of one hand", rule=self._r("PG-5.1"))
        for t in front:
            if t not in tiles:
                raise InvalidInput(f"{t} is not a tile of seat {seat}", rule=self._r("PG-5.1"))
            tiles.remove(t)

    def split(self, seat: int, pair: Sequence[Tile]) -> Setting:
        """The setting of a seat's four tiles with ``pair`` as one hand (PG-5.2: the lower
        hand in front)."""
        rest = list(self.hands[seat])
        for t in pair:
            rest.remove(t)
        r = self.regulation.tiles
        return make_setting(Hand(pair[0], pair[1], r), Hand(rest[0], rest[1], r))

    def follows_forced(self, seat: int, pair: Sequence[Tile]) -> bool:
        """TW-6b / TW-R1: the rule concerns the back only (閒家須盡量將後對擺大): a back
        equal to the highest two-tile hand of the four tiles follows it, whatever front
        that leaves."""
        forced = self.regulation.forced_setting
        assert forced is not None
        want = forced(self.hands[seat], self.regulation.tiles)
        got = self.split(seat, pair)
        return got.back.value.key == want.back.value.key

    def _with_setting(self, person: str, seat: int, pair: Sequence[Tile]) -> TileRound:
        setting = self.split(seat, pair)
        return replace(
            self,
            settings={**self.settings, seat: setting},
            setters={**self.setters, seat: person},
        )

    # ---- PG-8.3 / TW-6b: the settlement's turn -------------------------------------------

    def verify_settle(self) -> None:
        if self.phase is not Phase.SETTING or self.banker_seat not in self.settings:
            raise OutOfOrder("settle after the banker has set and turned", rule=self._r("PG-8.1"))

    def can_settle(self) -> bool:
        return _can(self.verify_settle)


# --- the bank's rotation (PG-4.1, PG-4.3, PG-4.9, PG-R6, PG-R11, TW-5a … TW-5d) --------------


@dataclass(frozen=True)
class Rotation:
    """Who banks next, and with what capital. Seats are numbered counter-clockwise; "the
    seat on the right" of seat ``s`` is the next one counter-clockwise (PG-1.3: right to
    left). ``banker_seat`` 0 is the house (PG-R6 gap fill).

    The bank passes from round to round only through this value: :meth:`verify_keep`
    checks a keeping banker's capital (PG-4.1, PG-4.9, PG-R11 / TW-5a, TW-5d), and
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

    def after_round(self, capital_left: int) -> Rotation:
        """The round is settled: ``capital_left`` stays on the table (PG-4.9)."""
        return replace(self, rounds_held=self.rounds_held + 1, capital=capital_left)

    def must_pass(self) -> bool:
        """PG-R6: after two rounds the bank moves on (unless all consent)."""
        return self.rounds_held >= 2


def woodpile_for(
    rnd: TileRound, hands: Mapping[int, Sequence[Tile]], dice: Sequence[int]
) -> list[Tile]:
    """A 32-tile woodpile that deals ``hands`` (seat → its four tiles) with these ``dice``;
    the other seats get the remaining tiles. For a round recomputed from its facts
    (``paigow settle``) and for staging tests."""
    first = (sum(dice) - 1) % rnd.places
    rest = list(FULL_SET)
    for seat_tiles in hands.values():
        for t in seat_tiles:
            if t not in rest:
                raise InvalidInput(f"tile {t} is used more often than the set holds", rule="T-1")
            rest.remove(t)
    stacks: list[list[Tile]] = [[] for _ in range(8)]
    pile = list(rnd.stack_order or rnd.pile)
    for k in range(rnd.places):
        seat = rnd.seat_at(first + k)
        stacks[pile[k]] = list(hands.get(seat) or [rest.pop() for _ in range(4)])
    for s in range(8):
        if not stacks[s]:
            stacks[s] = [rest.pop() for _ in range(4)]
    return [t for s in stacks for t in s]
