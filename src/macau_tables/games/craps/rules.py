"""Craps' options (:class:`CrapsRules`): each a casino's choice, the Readings the defaults."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InvalidInput,
)
from macau_tables.core.money import MOP, Currency, Money, Rounding, currency_by_code
from macau_tables.games.craps.bets import (
    BET_KINDS,
    ByNumber,
    CrapsBetKind,
    OpenBet,
    Payout,
    PerUnits,
    payout_from_text,
)
from macau_tables.games.craps.dice import Dice

__all__ = [
    "BIG_ODD_AMOUNTS",
    "COME_ODDS_ON_COME_OUT",
    "DEALERS",
    "GAME",
    "MAX_SEATS",
    "ODDS_CAPS",
    "ODDS_INCREASES",
    "CrapsPhase",
    "CrapsRules",
    "winnings",
]


GAME = "craps"


# === Options: CrapsRules (the Readings are the defaults) ===================================

#: The option values a casino may choose, each with the Reading that is the default.
ODDS_CAPS = ("winnings", "stake")  # CR-2.2, CR-R2
BIG_ODD_AMOUNTS = ("even_money", "refused")  # CR-R4
ODDS_INCREASES = ("refused", "allowed")  # CR-R9
COME_ODDS_ON_COME_OUT = ("working", "off")  # CR-2.3
DEALERS = ("auto", "live")  # CR-R1: one source of results per table (or not declared)


@dataclass(frozen=True)
class CrapsRules:
    """The options of one table (each a casino's choice; the defaults are the Readings).

    * ``odds_cap`` (CR-2.2, CR-R2): ``"winnings"`` — the odds (and the lay) may win at most
      the flat bet, as 其額外彩金不可多於原注額 says; ``"stake"`` — the odds stake may not
      exceed the flat bet ("single odds").
    * ``big_unit`` (CR-R4): the unit U of the Big bets' unit payouts (one pataca).
    * ``big_odd_amounts`` (CR-R4): ``"even_money"`` — a Big bet that is not a whole number
      of blocks wins even money on the rest (the Reading); ``"refused"`` — a Big bet must
      be a whole number of blocks (6 U on Big 6/8, 5 U on Big 4/5/9/10).
    * ``odds_increases`` (CR-R9): ``"refused"`` — a flat bet with a point takes one odds
      (or lay) bet, once (可額外投注一次, CR-2.2, CR-3.2): it is not increased, and once taken
      down it is not made again on that flat bet; ``"allowed"`` — a house that allows more:
      the odds may grow within the cap between rolls, and be made again after they were
      taken down.
    * ``come_odds_on_come_out`` (CR-2.3): ``"working"`` — Come odds are decided with their
      Come bet on every roll (CR-2.3 gives them "as in CR-2.2", decided with their bet);
      ``"off"`` — on a come-out roll the odds are returned when their Come bet is decided.
    * ``dealer`` (CR-R1, one source of results per table): ``"auto"`` — an auto-dealt
      table: every throw is the shooter's, from his committed server seed (the RNG); no
      dice are keyed in and no throw is voided; ``"live"`` — a dealer-operated table: the
      dice are physical, the dealer keys in every throw's faces (a cocked die's face most
      evidently up included) and declares a void throw when a die leaves the table; no seed
      is drawn and the shooter's RNG throw is refused. ``None``: a rule set that does not
      declare it (written before the option): a shooter with a committed seed throws from
      it, the dealer may key in dice and declare void throws, as such tables were played.
      The server declares it for every table it opens (its ``dealer``). Written in the
      JSON only when declared.
    * ``rounding``: how fractional odds are rounded to the minor unit (module docstring).
    * ``pays``: pay tables that replace the Macau ones, by bet name (a casino variant).
    * ``min_bet`` / ``max_bet``: the table limits of a flat bet (odds have only the cap).
    * ``spot_limits``: limits of their own for some bet spots, by bet name — ``{"any_seven":
      (min, max)}``, e.g. a lower maximum on the one-roll bets; the other flat bets keep
      ``min_bet`` / ``max_bet``. The regulation sets no limits: the casino's (none by
      default). A supervisor's ``change_limits`` changes the table's pair, not these.
    """

    currency: Currency = MOP
    min_bet: Money = field(default_factory=lambda: Money.of(1))
    max_bet: Money = field(default_factory=lambda: Money.of(10_000))
    odds_cap: Literal["winnings", "stake"] = "winnings"
    big_unit: Money = field(default_factory=lambda: Money.of(1))
    big_odd_amounts: Literal["even_money", "refused"] = "even_money"
    odds_increases: Literal["refused", "allowed"] = "refused"
    come_odds_on_come_out: Literal["working", "off"] = "working"
    rounding: Rounding = Rounding.DOWN
    pays: Mapping[str, Payout] = field(default_factory=dict)
    spot_limits: Mapping[str, tuple[Money, Money]] = field(default_factory=dict)
    dealer: Literal["auto", "live"] | None = field(default=None, metadata=snapshot.OMIT_DEFAULT)

    def __post_init__(self) -> None:
        if self.dealer is not None and self.dealer not in DEALERS:
            raise InvalidInput(
                f"dealer is {' or '.join(map(repr, DEALERS))} (or not declared), "
                f"not {self.dealer!r}",
                rule="CR-R1",
            )
        for name, allowed, rule in (
            ("odds_cap", ODDS_CAPS, "CR-R2"),
            ("big_odd_amounts", BIG_ODD_AMOUNTS, "CR-R4"),
            ("odds_increases", ODDS_INCREASES, "CR-R9"),
            ("come_odds_on_come_out", COME_ODDS_ON_COME_OUT, "CR-2.3"),
        ):
            value = getattr(self, name)
            if value not in allowed:
                raise InvalidInput(
                    f"{name} is {' or '.join(map(repr, allowed))}, not {value!r}", rule=rule
                )
        for amount in (self.min_bet, self.max_bet, self.big_unit):
            if not isinstance(amount, Money):
                raise InvalidInput(f"limits and unit are Money, not {amount!r}")
            if amount.currency != self.currency or not amount.is_positive():
                raise InvalidInput(f"limits and unit must be positive {self.currency}: {amount}")
        if self.min_bet > self.max_bet:
            raise InvalidInput(f"min_bet {self.min_bet} is above max_bet {self.max_bet}")
        for name in self.pays:
            if name not in BET_KINDS:
                raise InvalidInput(f"no bet called {name!r} to pay")
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))
        for name, pair in self.spot_limits.items():
            if name not in BET_KINDS or BET_KINDS[name].on is not None:
                raise InvalidInput(
                    f"spot_limits: no flat bet called {name!r} (odds have only the cap, CR-2.2)"
                )
            if not isinstance(pair, tuple) or len(pair) != 2:
                raise InvalidInput(f"spot_limits: {name} is (min, max), not {pair!r}")
            for amount in pair:
                if not isinstance(amount, Money):
                    raise InvalidInput(f"spot_limits: {name}'s limits are Money, not {amount!r}")
                if amount.currency != self.currency or not amount.is_positive():
                    raise InvalidInput(
                        f"spot_limits: {name}'s limits must be positive {self.currency}: {amount}"
                    )
            if pair[0] > pair[1]:
                raise InvalidInput(f"spot_limits: {name}'s minimum {pair[0]} is above {pair[1]}")
        object.__setattr__(self, "spot_limits", MappingProxyType(dict(self.spot_limits)))

    def limits(self, kind: CrapsBetKind) -> tuple[Money, Money, str]:
        """A flat bet's minimum and maximum at this table, and whose they are (the spot's
        own, or the table's)."""
        if kind.name in self.spot_limits:
            low, high = self.spot_limits[kind.name]
            return low, high, "spot"
        return self.min_bet, self.max_bet, "table"

    def payout(self, kind: CrapsBetKind) -> Payout:
        """The pay table of ``kind`` at this table (an override, else the Macau one)."""
        return self.pays.get(kind.name, kind.pays)

    #: the keys of :meth:`to_json`, in order: :meth:`from_json` demands exactly these
    #: (and takes ``spot_limits`` and ``dealer`` besides, each written only when set: a
    #: rule set without them reads and writes as before)
    KEYS: ClassVar[tuple[str, ...]] = (
        "currency", "min_bet", "max_bet", "odds_cap", "big_unit", "big_odd_amounts",
        "odds_increases", "come_odds_on_come_out", "rounding", "pays",
    )  # fmt: skip
    OPTIONAL_KEYS: ClassVar[tuple[str, ...]] = ("spot_limits", "dealer")

    def to_json(self) -> dict[str, Any]:
        """The rule set as JSON (amounts in minor units; pay tables as text)."""
        return (
            {
                "currency": self.currency.code,
                "min_bet": self.min_bet.minor,
                "max_bet": self.max_bet.minor,
                "odds_cap": self.odds_cap,
                "big_unit": self.big_unit.minor,
                "big_odd_amounts": self.big_odd_amounts,
                "odds_increases": self.odds_increases,
                "come_odds_on_come_out": self.come_odds_on_come_out,
                "rounding": self.rounding.value,
                "pays": {name: str(p) for name, p in sorted(self.pays.items())},
            }
            | (
                {
                    "spot_limits": {
                        name: [low.minor, high.minor]
                        for name, (low, high) in sorted(self.spot_limits.items())
                    }
                }
                if self.spot_limits
                else {}
            )
            | ({"dealer": self.dealer} if self.dealer is not None else {})
        )

    @classmethod
    def from_json(cls, obj: object) -> CrapsRules:
        """Read :meth:`to_json` back. A missing, unknown or malformed key is an
        :class:`InvalidInput` naming it (one line, never a traceback)."""
        if not isinstance(obj, Mapping):
            raise InvalidInput(f"craps rules are a JSON object, not {type(obj).__name__}")
        missing = [k for k in cls.KEYS if k not in obj]
        unknown = sorted(set(obj) - set(cls.KEYS) - set(cls.OPTIONAL_KEYS))
        if missing or unknown:
            parts = [f"missing {', '.join(missing)}"] if missing else []
            parts += [f"unknown {', '.join(unknown)}"] if unknown else []
            raise InvalidInput(f"craps rules: {'; '.join(parts)}")

        def minor(key: str) -> int:
            value = obj[key]
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidInput(f"{key} is an amount in minor units, not {value!r}")
            return value

        try:
            cur = currency_by_code(obj["currency"])
            pays = obj["pays"]
            if not isinstance(pays, Mapping):
                raise InvalidInput(f"pays is an object, not {pays!r}")
            spots = obj.get("spot_limits", {})
            if not isinstance(spots, Mapping):
                raise InvalidInput(f"spot_limits is an object, not {spots!r}")

            def pair(name: str, value: object) -> tuple[Money, Money]:
                if not isinstance(value, list | tuple) or len(value) != 2:
                    raise InvalidInput(f"spot_limits: {name} is [min, max], not {value!r}")
                low, high = value
                for v in (low, high):
                    if isinstance(v, bool) or not isinstance(v, int):
                        raise InvalidInput(f"spot_limits: {name}'s limits are minor units")
                return Money(low, cur), Money(high, cur)

            return cls(
                currency=cur,
                min_bet=Money(minor("min_bet"), cur),
                max_bet=Money(minor("max_bet"), cur),
                odds_cap=obj["odds_cap"],
                big_unit=Money(minor("big_unit"), cur),
                big_odd_amounts=obj["big_odd_amounts"],
                odds_increases=obj["odds_increases"],
                come_odds_on_come_out=obj["come_odds_on_come_out"],
                rounding=Rounding(obj["rounding"]),
                pays={str(name): payout_from_text(str(text)) for name, text in pays.items()},
                spot_limits={str(name): pair(str(name), v) for name, v in spots.items()},
                dealer=obj.get("dealer"),
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise InvalidInput(f"craps rules: {exc}") from exc


class CrapsPhase(Enum):
    """CR-2.1: a come-out roll while no point is on; else the point phase."""

    COME_OUT = "come-out"
    POINT = "point"


#: Seats at one table: CR-1 lets any number play; the layout has room for this many.
MAX_SEATS = 20


def winnings(rules: CrapsRules, bet: OpenBet, dice: Dice) -> Money:
    """What ``bet`` wins if ``dice`` decide it as a win: its kind's pay table, applied
    (CR-R4 the Big bets by whole units; fractional odds rounded as the table rounds)."""
    payout = rules.payout(BET_KINDS[bet.kind])
    if isinstance(payout, PerUnits):  # CR-R4
        return payout.winnings(bet.amount, rules.big_unit)
    if isinstance(payout, ByNumber):
        payout = payout.odds_for(bet.point if payout.of == "point" else dice.total)
    return payout.winnings(bet.amount, rules.rounding)
