"""Baccarat's options (the Readings BA-R1 … BA-R7, :class:`BaccaratRules`), the bets (BA-13)
and the sides (BA-6), BA-2.1 the cut card, and the table's phases.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeAlias

from macau_tables.core.errors import (
    BetNotAllowed,
    InvalidInput,
)
from macau_tables.core.money import MOP, Currency, Money, Rounding
from macau_tables.games.baccarat.cards import MAX_DECKS, MIN_DECKS, MIN_SEATS

__all__ = [
    "GAME",
    "MIN_CUT_FROM_END",
    "TIE_FULL",
    "TIE_INCREASE_ONLY",
    "BaccaratBetKind",
    "BaccaratPhase",
    "BaccaratRules",
    "BetKind",
    "BetLimit",
    "BurnMode",
    "LastHand",
    "Side",
    "TieChoice",
    "check_cut",
    "with_limits",
]


GAME = "baccarat"


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


class BaccaratBetKind(StrEnum):
    """BA-13 the bets."""

    PLAYER = "player"
    BANKER = "banker"
    TIE = "tie"
    BANKER_PAIR = "banker_pair"
    PLAYER_PAIR = "player_pair"

    @classmethod
    def parse(cls, text: str) -> BaccaratBetKind:
        t = text.strip().lower().replace("-", "_").replace(" ", "_")
        aliases = {"p": "player", "b": "banker", "t": "tie", "bp": "banker_pair"}
        aliases |= {"pp": "player_pair", "閒": "player", "莊": "banker", "和": "tie"}
        try:
            return cls(aliases.get(t, t))
        except ValueError:
            raise InvalidInput(
                f"not a bet: {text!r} (player, banker, tie, banker_pair, player_pair)"
            ) from None


#: The name the analysis kernels import (kept: the craps engine's bet records are its own).
BetKind: TypeAlias = BaccaratBetKind


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
) -> dict[BaccaratBetKind, BetLimit]:
    def lim(a: int, b: int) -> BetLimit:
        return BetLimit(Money.of(a, currency), Money.of(b, currency))

    return {
        BaccaratBetKind.PLAYER: lim(*main),
        BaccaratBetKind.BANKER: lim(*main),
        BaccaratBetKind.TIE: lim(*tie),
        BaccaratBetKind.BANKER_PAIR: lim(*pair),
        BaccaratBetKind.PLAYER_PAIR: lim(*pair),
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
    limits: Mapping[BaccaratBetKind, BetLimit] = field(default_factory=_limits, hash=False)
    differential_limit: Money | None = field(default_factory=lambda: Money.of(20_000))  # BA-14
    currency: Currency = MOP

    def __post_init__(self) -> None:
        if not MIN_DECKS <= self.decks <= MAX_DECKS:
            raise InvalidInput(f"{self.decks} decks: 6 to 12", rule="BA-1")
        if self.seats < MIN_SEATS:
            raise InvalidInput(f"{self.seats} seats: seven or more", rule="BA-1")
        if not self.continuous_shuffler:
            check_cut(self.cut_from_end, self.decks)
        if not 0 <= self.demonstration_hands <= 3:
            raise InvalidInput("at most three demonstration hands", rule="BA-2.2")
        if not self.tie_choices:
            raise InvalidInput("a table offers at least one tie alternative", rule="BA-R2")
        if set(self.limits) != set(BaccaratBetKind):
            raise InvalidInput("a limit for every bet", rule="BA-13")
        for kind, lim in self.limits.items():
            _check_limit(f"{kind} bets", lim.minimum, lim.maximum, self.currency, "BA-13")
        if self.differential_limit is not None:
            d = self.differential_limit
            _check_limit("the Banker/Player difference", d, d, self.currency, "BA-14")

    def limit(self, kind: BaccaratBetKind) -> BetLimit:
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
        """The rule set :meth:`to_json` wrote. A missing, unknown or malformed key raises
        :class:`InvalidInput` naming it (never a ``KeyError``)."""
        if not isinstance(obj, Mapping):
            raise InvalidInput("baccarat rules: not an object")
        keys = set(cls().to_json())
        missing, unknown = sorted(keys - set(obj)), sorted(set(obj) - keys)
        if missing or unknown:
            what = "; ".join(
                part
                for part in (
                    f"missing {', '.join(missing)}" if missing else "",
                    f"unknown {', '.join(unknown)}" if unknown else "",
                )
                if part
            )
            raise InvalidInput(f"baccarat rules: {what}")
        try:
            code, digits, symbol = obj["currency"]
            cur = Currency(code, digits, symbol)
            diff = obj["differential_limit"]
            limits = obj["limits"]
            num, den = obj["commission"]
            for name in ("decks", "cut_from_end", "demonstration_hands", "seats", "standing_spots"):
                _require(obj[name], int, name)
            for name in ("continuous_shuffler", "banker_multiples_of_minimum", "no_commission"):
                _require(obj[name], bool, name)
            _require(obj["squeeze"], bool, "squeeze")
            return cls(
                decks=obj["decks"],
                cut_from_end=obj["cut_from_end"],
                burn=BurnMode(obj["burn"]),
                last_hand=LastHand(obj["last_hand"]),
                demonstration_hands=obj["demonstration_hands"],
                continuous_shuffler=obj["continuous_shuffler"],
                tie_choices=frozenset(TieChoice(c) for c in obj["tie_choices"]),
                commission=Fraction(
                    _require(num, int, "commission"), _require(den, int, "commission")
                ),
                commission_rounding=Rounding(obj["commission_rounding"]),
                banker_multiples_of_minimum=obj["banker_multiples_of_minimum"],
                no_commission=obj["no_commission"],
                squeeze=obj["squeeze"],
                seats=obj["seats"],
                standing_spots=obj["standing_spots"],
                limits={
                    BaccaratBetKind(k): BetLimit(
                        Money(_require(a, int, "limits"), cur),
                        Money(_require(b, int, "limits"), cur),
                    )
                    for k, (a, b) in limits.items()
                },
                differential_limit=(
                    None if diff is None else Money(_require(diff, int, "differential_limit"), cur)
                ),
                currency=cur,
            )
        except InvalidInput:
            raise
        except (KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as exc:
            raise InvalidInput(f"baccarat rules: malformed ({exc})") from exc


def _check_limit(what: str, low: Money, high: Money, currency: Currency, rule: str) -> None:
    """A table limit: positive amounts in the table's currency, the minimum not above the
    maximum (BA-13 each bet's limits, BA-14 the differential)."""
    for amount in (low, high):
        if not isinstance(amount, Money) or amount.currency != currency:
            raise InvalidInput(
                f"{what}: limits are amounts in {currency}, not {amount!r}", rule=rule
            )
        if not amount.is_positive():
            raise InvalidInput(f"{what}: a limit must be positive, not {amount}", rule=rule)
    if low > high:
        raise InvalidInput(f"{what}: the minimum {low} is above the maximum {high}", rule=rule)


def _require(value: Any, kind: type, name: str) -> Any:
    """A rules field of the right JSON type (``True`` is not an int here)."""
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidInput(f"baccarat rules: {name} must be {kind.__name__}, not {value!r}")
    return value


def with_limits(
    rules: BaccaratRules,
    min_bet: Money,
    max_bet: Money,
    bets: Mapping[str, tuple[Money, Money]],
    differential: Money | None,
) -> BaccaratRules:
    """The rule set with new limits: Player and Banker ``min_bet`` – ``max_bet``, the
    bets named in ``bets`` theirs, the others as they are (BA-13); the differential
    (BA-14) if given. Validated by the rule set (``BaccaratRules``)."""
    limits = dict(rules.limits)
    limits[BaccaratBetKind.PLAYER] = limits[BaccaratBetKind.BANKER] = BetLimit(min_bet, max_bet)
    for name, (low, high) in bets.items():
        try:
            kind = BaccaratBetKind(name)
        except ValueError:
            raise InvalidInput(
                f"no bet {name!r}: the limits of tie, banker_pair, player_pair", rule="BA-13"
            ) from None
        if kind in (BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER):
            raise InvalidInput("the Player and Banker limits are min_bet and max_bet", rule="BA-13")
        limits[kind] = BetLimit(low, high)
    diff = rules.differential_limit if differential is None else differential
    return dataclasses.replace(rules, limits=limits, differential_limit=diff)


# ==========================================================================================
# BA-2 Starting a shoe; BA-3 the last hand; BA-8 burning
# ==========================================================================================

MIN_CUT_FROM_END = 12  # BA-2.1: the cut card at least (about) 12 cards from the end


def check_cut(from_end: int, decks: int) -> None:
    """BA-2.1: never fewer than 12 cards behind the cut card (and at least a deck in play)."""
    if from_end < MIN_CUT_FROM_END:
        raise BetNotAllowed(
            f"the cut card goes at least {MIN_CUT_FROM_END} cards from the end, not {from_end}",
            rule="BA-2.1",
        )
    if from_end > 52 * decks - 52:
        raise InvalidInput(f"cut card {from_end} from the end leaves too few cards", rule="BA-2.1")


class BaccaratPhase(StrEnum):
    """Where a baccarat table is: between shoes, starting a shoe, or around a hand."""

    SHUFFLE = "shuffle"  # BA-2.1 / BA-3.1: a new shoe is needed
    CUT = "cut"  # BA-2.1
    BURN = "burn"  # BA-2.1: the cut card is in; the burn follows at once
    DEMONSTRATION = "demonstration"  # BA-2.2
    BETTING = "betting"
    DEALING = "dealing"  # BA-7 … BA-11
