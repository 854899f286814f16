"""Craps (花旗骰) — Portaria 97/85/M, as read in ``../shared/rules/craps-1985.md``.

The module follows the regulation: first the values (dice and the 36 chance outcomes, pay
tables as data), then the bets article by article (CR-2.1 … CR-12) as :class:`BetKind`
data, then the options (:class:`CrapsRules`, whose defaults are the Readings), the journal
events, and the table (:class:`CrapsTable`) with its operations, the throw (CR-1), the
point cycle (CR-2.1), the shooter (CR-R7), settlement through :mod:`core.ledger`, and
replay.

Every :class:`BetKind` has exactly one place for each of

* **when it may be placed** — :attr:`BetKind.when` (CR-R6, CR-12);
* **how a roll resolves it** — :attr:`BetKind.resolve` (a small frozen rule object);
* **what it pays** — :attr:`BetKind.pays` (a pay table value; ``CrapsRules.pays`` may
  override it, so a casino paying Big 7 at 4 to 1 writes ``pays={"big7": Odds(4)}``).

"Wins N times the bet" (贏取投注額的N倍彩金) means winnings of N × the stake (N to 1); a
winning bet also gets its stake back. Money is integer minor units; the only products that
can fall between minor units are fractional odds (Big 7 at 4.5 to 1, odds 3:2 and 6:5, the
lay 1:2 …): they are rounded once, toward zero, by ``CrapsRules.rounding`` (the regulation
is silent; :attr:`Rounding.DOWN` is the package default, as for commission, PG-R5 / BA-R5).
The Big bets (CR-9 … CR-11, CR-R4) are computed in whole units and need no rounding.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeAlias

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    JournalError,
    OutOfOrder,
)
from macau_tables.core.errors import passes as _can
from macau_tables.core.journal import Event, Journal, event, register_replayer
from macau_tables.core.ledger import CAGE, Ledger, Posting, Transaction
from macau_tables.core.money import MOP, Currency, Money, Rounding, currency_by_code
from macau_tables.core.rng import Rng

__all__ = [
    "BET_KINDS",
    "DICE_OUTCOMES",
    "HOUSE",
    "LAYOUT",
    "POINTS",
    "TOTAL_PROBABILITIES",
    "BetIncreased",
    "BetKind",
    "BetPlaced",
    "BetTakenDown",
    "ByNumber",
    "ChipsBought",
    "CrapsRules",
    "CrapsTable",
    "Decision",
    "Dice",
    "DiceThrown",
    "Odds",
    "OpenBet",
    "Payout",
    "PerUnits",
    "Phase",
    "Result",
    "RollSettled",
    "TableOpened",
    "ThrowVoided",
    "bet_kind",
    "iter_kinds",
    "payout_from_text",
    "replay",
]

GAME = "craps"
HOUSE = "bank:house"  # the house's bank: pays winnings, takes losing stakes
LAYOUT = "table:craps"  # stakes lying on the layout, between placing and settlement


# === Values: the dice and the chance outcomes (CR-1) =====================================


@dataclass(frozen=True, order=True)
class Dice:
    """The two dice of one throw (CR-1), in the order read; ``str`` is ``"3-4"``."""

    d1: int
    d2: int

    def __post_init__(self) -> None:
        for die in (self.d1, self.d2):
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise InvalidInput(f"a die shows 1 to 6, not {die!r}", rule="CR-1")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """``"3-4"``, ``"3 4"``, ``"3,4"`` or ``"34"`` → ``Dice(3, 4)``."""
        m = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", text)
        if m is None:
            raise InvalidInput(f"not two dice: {text!r} (try '3-4')", rule="CR-1")
        return cls(int(m.group(1)), int(m.group(2)))

    def __str__(self) -> str:
        return f"{self.d1}-{self.d2}"

    @property
    def total(self) -> int:
        return self.d1 + self.d2

    @property
    def is_pair(self) -> bool:
        """Both dice alike: the "hard" way of an even total (CR-5)."""
        return self.d1 == self.d2


#: The 36 equally likely outcomes of a fair throw, with exact probabilities: the chance
#: node shared by the engine and the analysis code (the RNG path draws d1 then d2).
DICE_OUTCOMES: tuple[tuple[Dice, Fraction], ...] = tuple(
    (Dice(a, b), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
)

#: The probability of each total 2 … 12.
TOTAL_PROBABILITIES: Mapping[int, Fraction] = MappingProxyType(
    {t: sum((p for d, p in DICE_OUTCOMES if d.total == t), Fraction(0)) for t in range(2, 13)}
)

#: The point numbers (CR-2.1).
POINTS: tuple[int, ...] = (4, 5, 6, 8, 9, 10)


# === Pay tables as data ===================================================================


@dataclass(frozen=True)
class Odds:
    """Wins ``win`` for every ``per`` staked: ``Odds(9, 2)`` is 4.5 to 1, text ``"9:2"``."""

    win: int
    per: int = 1

    def __post_init__(self) -> None:
        if self.win < 0 or self.per < 1:
            raise InvalidInput(f"bad odds {self.win}:{self.per}")

    @property
    def ratio(self) -> Fraction:
        return Fraction(self.win, self.per)

    def winnings(self, stake: Money, rounding: Rounding) -> Money:
        """The winnings on ``stake``: exact, rounded once by ``rounding`` (module docstring)."""
        return stake.times(self.ratio, rounding)

    def __str__(self) -> str:
        return f"{self.win}:{self.per}"


@dataclass(frozen=True)
class ByNumber:
    """Odds that depend on a number: the bet's point (odds, CR-2.2) or the total (Field)."""

    of: Literal["point", "total"]
    table: tuple[tuple[int, Odds], ...]
    default: Odds | None = None

    def odds_for(self, number: int | None) -> Odds:
        for n, odds in self.table:
            if n == number:
                return odds
        if self.default is None:
            raise InvalidInput(f"no odds for {self.of} {number}")
        return self.default

    def __str__(self) -> str:
        parts = [f"{n}={o}" for n, o in self.table]
        if self.default is not None:
            parts.append(f"*={self.default}")
        return f"{self.of} " + ",".join(parts)


@dataclass(frozen=True)
class PerUnits:
    """CR-R4: wins ``wins`` units for each full ``units`` units staked, even money on the rest.

    With the unit U = 1 pataca, Big 6 (``PerUnits(6, 7)``) pays MOP 11 on MOP 10 (7 for the
    full 6, 4 for the rest) and MOP 4 on MOP 4 (a bet under 6 wins even money).
    Text: ``"7/6U"``.
    """

    units: int
    wins: int

    def winnings(self, stake: Money, unit: Money) -> Money:
        block = unit * self.units
        full, rest = divmod(stake.minor, block.minor)
        return unit * (self.wins * full) + Money(rest, stake.currency)

    def __str__(self) -> str:
        return f"{self.wins}/{self.units}U"


Payout: TypeAlias = Odds | ByNumber | PerUnits


def payout_from_text(text: str) -> Payout:
    """Read back ``str(payout)``: ``"9:2"``, ``"7/6U"``, ``"total 2=2:1,12=2:1,*=1:1"``."""
    text = text.strip()
    if m := re.fullmatch(r"(\d+):(\d+)", text):
        return Odds(int(m.group(1)), int(m.group(2)))
    if m := re.fullmatch(r"(\d+)/(\d+)U", text):
        return PerUnits(int(m.group(2)), int(m.group(1)))
    if m := re.fullmatch(r"(point|total) (.+)", text):
        table: list[tuple[int, Odds]] = []
        default: Odds | None = None
        for part in m.group(2).split(","):
            key, _, value = part.partition("=")
            odds = payout_from_text(value)
            if not isinstance(odds, Odds):
                raise InvalidInput(f"not a pay table: {text!r}")
            if key == "*":
                default = odds
            else:
                table.append((int(key), odds))
        of: Literal["point", "total"] = "point" if m.group(1) == "point" else "total"
        return ByNumber(of, tuple(table), default)
    raise InvalidInput(f"not a pay table: {text!r} (try '9:2', '7/6U' or 'point 4=2:1,…')")


EVEN = Odds(1)


# === How a roll resolves a bet ============================================================


class Result(Enum):
    """What one roll does to one bet."""

    STANDS = "stands"  # no decision: the bet stays as it is
    POINT = "point"  # a line bet gets its point (CR-2.1, CR-2.3, CR-3.1, CR-3.3)
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"  # stake returned (CR-3.1: 12 on the come-out)


@dataclass(frozen=True)
class Decision:
    result: Result
    point: int | None = None


STANDS = Decision(Result.STANDS)
WIN = Decision(Result.WIN)
LOSE = Decision(Result.LOSE)
PUSH = Decision(Result.PUSH)
FINAL = frozenset({Result.WIN, Result.LOSE, Result.PUSH})


@dataclass(frozen=True)
class OpenBet:
    """A bet on the layout: its kind (by name), stake, own point and, for odds, parent."""

    id: int
    player: str
    kind: str
    amount: Money
    point: int | None = None
    parent: int | None = None


Resolver: TypeAlias = Callable[[OpenBet, Dice, Mapping[int, Decision]], Decision]


class When(Enum):
    """When a bet may be placed (CR-R6, CR-12)."""

    COME_OUT = "on a come-out roll"  # Pass Line, Don't Pass (CR-R6)
    POINT_ON = "while a point is on"  # Come, Don't Come (CR-R6)
    ON_A_POINT = "once its bet has a point"  # odds and lay odds (CR-R6)
    ANY_ROLL = "on any roll"  # CR-4 … CR-11 (CR-12), working on the come-out too (CR-R8)


@dataclass(frozen=True)
class BetKind:
    """One bet of the regulation, as data (see the module docstring)."""

    name: str
    label: str
    rule: str
    when: When
    resolve: Resolver
    pays: Payout
    contract: bool = False  # CR-R6: cannot be taken down once it has a point
    on: str | None = None  # odds: the kind of flat bet they are laid on
    aliases: tuple[str, ...] = ()


# --- CR-2.1 / CR-2.3 / CR-3.1 / CR-3.3 the line bets ---------------------------------------

NATURALS = frozenset({7, 11})  # CR-2.1 come-out winners for Pass
CRAPS = frozenset({2, 3, 12})  # CR-2.1 come-out losers for Pass
DONT_WINS = frozenset({2, 3})  # CR-3.1
DONT_BAR = frozenset({12})  # CR-3.1 "12 pushes"
DONT_LOSES = frozenset({7, 11})  # CR-3.1


@dataclass(frozen=True)
class DoLine:
    """CR-2.1 (Pass Line) and CR-2.3 (Come, the same from the next roll)."""

    def __call__(self, bet: OpenBet, dice: Dice, _: Mapping[int, Decision]) -> Decision:
        t = dice.total
        if bet.point is None:
            if t in NATURALS:
                return WIN
            if t in CRAPS:
                return LOSE
            return Decision(Result.POINT, t)
        if t == bet.point:
            return WIN
        return LOSE if t == 7 else STANDS


@dataclass(frozen=True)
class DontLine:
    """CR-3.1 (Don't Pass, bar 12) and CR-3.3 (Don't Come, the same from the next roll)."""

    def __call__(self, bet: OpenBet, dice: Dice, _: Mapping[int, Decision]) -> Decision:
        t = dice.total
        if bet.point is None:
            if t in DONT_WINS:
                return WIN
            if t in DONT_BAR:
                return PUSH
            if t in DONT_LOSES:
                return LOSE
            return Decision(Result.POINT, t)
        if t == 7:
            return WIN
        return LOSE if t == bet.point else STANDS


@dataclass(frozen=True)
class WithItsBet:
    """CR-2.2 / CR-3.2: odds are decided with the bet they are laid on (same roll, same way)."""

    def __call__(self, bet: OpenBet, dice: Dice, decided: Mapping[int, Decision]) -> Decision:
        parent = decided.get(bet.parent) if bet.parent is not None else None
        if parent is not None and parent.result in FINAL:
            return parent
        return STANDS


# --- CR-4 / CR-6 / CR-7 / CR-8 one-roll bets --------------------------------------------------


@dataclass(frozen=True)
class OneRoll:
    """Decided by the next roll: wins on ``wins``, loses on anything else."""

    wins: frozenset[int]

    def __call__(self, bet: OpenBet, dice: Dice, _: Mapping[int, Decision]) -> Decision:
        return WIN if dice.total in self.wins else LOSE


# --- CR-5 hard ways ------------------------------------------------------------------------


@dataclass(frozen=True)
class HardWay:
    """CR-5: wins on the pair totalling ``number``; loses on a 7 or ``number`` the easy way."""

    number: int

    def __call__(self, bet: OpenBet, dice: Dice, _: Mapping[int, Decision]) -> Decision:
        if dice.total == self.number:
            return WIN if dice.is_pair else LOSE
        return LOSE if dice.total == 7 else STANDS


# --- CR-9 … CR-11 Big bets -----------------------------------------------------------------


@dataclass(frozen=True)
class BeforeSeven:
    """CR-9 … CR-11: wins if ``number`` comes before a 7; a 7 loses (CR-R3); else stands."""

    number: int

    def __call__(self, bet: OpenBet, dice: Dice, _: Mapping[int, Decision]) -> Decision:
        if dice.total == self.number:
            return WIN
        return LOSE if dice.total == 7 else STANDS


# --- The bets of the regulation, in article order -------------------------------------------

#: CR-2.2 true odds on the point; CR-3.2 the lay, their inverse.
TAKE_ODDS = ByNumber("point", ((4, Odds(2)), (10, Odds(2)), (5, Odds(3, 2)), (9, Odds(3, 2)),
                               (6, Odds(6, 5)), (8, Odds(6, 5))))  # fmt: skip
LAY_ODDS = ByNumber("point", ((4, Odds(1, 2)), (10, Odds(1, 2)), (5, Odds(2, 3)), (9, Odds(2, 3)),
                              (6, Odds(5, 6)), (8, Odds(5, 6))))  # fmt: skip

_KINDS: tuple[BetKind, ...] = (
    # CR-2.1 Pass Line: even money; made on a come-out only, a contract once it has a point.
    BetKind("pass", "Pass Line", "CR-2.1", When.COME_OUT, DoLine(), EVEN, contract=True,
            aliases=("passline", "pass_line", "line")),
    # CR-2.2 Pass Line odds: true odds, winnings capped at the flat bet (CR-R2).
    BetKind("pass_odds", "Pass Line odds", "CR-2.2", When.ON_A_POINT, WithItsBet(), TAKE_ODDS,
            on="pass"),
    # CR-2.3 Come: as Pass Line from the next roll, with odds as CR-2.2.
    BetKind("come", "Come", "CR-2.3", When.POINT_ON, DoLine(), EVEN, contract=True),
    BetKind("come_odds", "Come odds", "CR-2.3", When.ON_A_POINT, WithItsBet(), TAKE_ODDS,
            on="come"),
    # CR-3.1 Don't Pass: bar 12, even money.
    BetKind("dont_pass", "Don't Pass", "CR-3.1", When.COME_OUT, DontLine(), EVEN,
            aliases=("dp", "dontpass", "don't_pass")),
    # CR-3.2 Don't Pass odds (the lay), capped as CR-R2 reads it.
    BetKind("dont_pass_odds", "Don't Pass lay odds", "CR-3.2", When.ON_A_POINT, WithItsBet(),
            LAY_ODDS, on="dont_pass"),
    # CR-3.3 Don't Come: as Don't Pass from the next roll, with lay odds as CR-3.2.
    BetKind("dont_come", "Don't Come", "CR-3.3", When.POINT_ON, DontLine(), EVEN,
            aliases=("dc", "dontcome", "don't_come")),
    BetKind("dont_come_odds", "Don't Come lay odds", "CR-3.3", When.ON_A_POINT, WithItsBet(),
            LAY_ODDS, on="dont_come"),
    # CR-4 Field: one roll; 3, 4, 9, 10, 11 even money; 2 and 12 double.
    BetKind("field", "Field", "CR-4", When.ANY_ROLL, OneRoll(frozenset({2, 3, 4, 9, 10, 11, 12})),
            ByNumber("total", ((2, Odds(2)), (12, Odds(2))), EVEN)),
    # CR-5 Hard ways: hard 6 and 8 win 9 to 1, hard 4 and 10 win 7 to 1.
    BetKind("hard4", "Hard 4", "CR-5", When.ANY_ROLL, HardWay(4), Odds(7), aliases=("h4",)),
    BetKind("hard6", "Hard 6", "CR-5", When.ANY_ROLL, HardWay(6), Odds(9), aliases=("h6",)),
    BetKind("hard8", "Hard 8", "CR-5", When.ANY_ROLL, HardWay(8), Odds(9), aliases=("h8",)),
    BetKind("hard10", "Hard 10", "CR-5", When.ANY_ROLL, HardWay(10), Odds(7), aliases=("h10",)),
    # CR-6 Big 7: one roll, 4.5 to 1 (CR-R5: read literally).
    BetKind("big7", "Big 7", "CR-6", When.ANY_ROLL, OneRoll(frozenset({7})), Odds(9, 2),
            aliases=("big_7", "seven", "7")),
    # CR-7 11: one roll, 15 to 1.
    BetKind("eleven", "11", "CR-7", When.ANY_ROLL, OneRoll(frozenset({11})), Odds(15),
            aliases=("11", "yo")),
    # CR-8 Any Craps: one roll, 7 to 1.
    BetKind("any_craps", "Any Craps", "CR-8", When.ANY_ROLL, OneRoll(CRAPS), Odds(7),
            aliases=("craps", "anycraps", "any")),
    # CR-9 Big 6 / Big 8: 7 per full 6 units, even money on the rest (CR-R3, CR-R4).
    BetKind("big6", "Big 6", "CR-9", When.ANY_ROLL, BeforeSeven(6), PerUnits(6, 7),
            aliases=("big_6",)),
    BetKind("big8", "Big 8", "CR-9", When.ANY_ROLL, BeforeSeven(8), PerUnits(6, 7),
            aliases=("big_8",)),
    # CR-10 Big 5 / Big 9: 7 per full 5 units, even money on the rest (CR-R4).
    BetKind("big5", "Big 5", "CR-10", When.ANY_ROLL, BeforeSeven(5), PerUnits(5, 7),
            aliases=("big_5",)),
    BetKind("big9", "Big 9", "CR-10", When.ANY_ROLL, BeforeSeven(9), PerUnits(5, 7),
            aliases=("big_9",)),
    # CR-11 Big 4 / Big 10: 9 per full 5 units, even money on the rest ("under 6" read as
    # "under 5", CR-R4).
    BetKind("big4", "Big 4", "CR-11", When.ANY_ROLL, BeforeSeven(4), PerUnits(5, 9),
            aliases=("big_4",)),
    BetKind("big10", "Big 10", "CR-11", When.ANY_ROLL, BeforeSeven(10), PerUnits(5, 9),
            aliases=("big_10",)),
)  # fmt: skip

#: Every bet of the regulation by name.
BET_KINDS: Mapping[str, BetKind] = MappingProxyType({k.name: k for k in _KINDS})
_BY_ALIAS: dict[str, str] = {
    alias: k.name for k in _KINDS for alias in (k.name, *k.aliases, k.name.replace("_", ""))
}


def bet_kind(name: str) -> BetKind:
    """The bet named ``name`` or one of its aliases (``"dp"``, ``"11"``, ``"craps"`` …)."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key in _BY_ALIAS:
        return BET_KINDS[_BY_ALIAS[key]]
    raise InvalidInput(f"no bet called {name!r}; bets: {', '.join(BET_KINDS)}")


# === Options: CrapsRules (the Readings are the defaults) ===================================


@dataclass(frozen=True)
class CrapsRules:
    """The options of one table.

    * ``odds_cap`` (CR-2.2, CR-R2): ``"winnings"`` — the odds (and the lay) may win at most
      the flat bet, as 其額外彩金不可多於原注額 says; ``"stake"`` — the odds stake may not
      exceed the flat bet ("single odds").
    * ``big_unit`` (CR-R4): the unit U of the Big bets' unit payouts (one pataca).
    * ``rounding``: how fractional odds are rounded to the minor unit (module docstring).
    * ``pays``: pay tables that replace the Macau ones, by bet name (a casino variant).
    * ``min_bet`` / ``max_bet``: the table limits of a flat bet (odds have only the cap).
    """

    currency: Currency = MOP
    min_bet: Money = field(default_factory=lambda: Money.of(1))
    max_bet: Money = field(default_factory=lambda: Money.of(10_000))
    odds_cap: Literal["winnings", "stake"] = "winnings"
    big_unit: Money = field(default_factory=lambda: Money.of(1))
    rounding: Rounding = Rounding.DOWN
    pays: Mapping[str, Payout] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.odds_cap not in ("winnings", "stake"):
            raise InvalidInput(f"odds_cap is 'winnings' or 'stake', not {self.odds_cap!r}")
        for amount in (self.min_bet, self.max_bet, self.big_unit):
            if amount.currency != self.currency or not amount.is_positive():
                raise InvalidInput(f"limits and unit must be positive {self.currency}: {amount}")
        if self.min_bet > self.max_bet:
            raise InvalidInput(f"min_bet {self.min_bet} is above max_bet {self.max_bet}")
        for name in self.pays:
            if name not in BET_KINDS:
                raise InvalidInput(f"no bet called {name!r} to pay")
        object.__setattr__(self, "pays", MappingProxyType(dict(self.pays)))

    def payout(self, kind: BetKind) -> Payout:
        """The pay table of ``kind`` at this table (an override, else the Macau one)."""
        return self.pays.get(kind.name, kind.pays)

    def to_json(self) -> dict[str, Any]:
        return {
            "currency": self.currency.code,
            "min_bet": self.min_bet.minor,
            "max_bet": self.max_bet.minor,
            "odds_cap": self.odds_cap,
            "big_unit": self.big_unit.minor,
            "rounding": self.rounding.value,
            "pays": {name: str(p) for name, p in sorted(self.pays.items())},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> CrapsRules:
        try:
            cur = currency_by_code(obj["currency"])
            return cls(
                currency=cur,
                min_bet=Money(obj["min_bet"], cur),
                max_bet=Money(obj["max_bet"], cur),
                odds_cap=obj["odds_cap"],
                big_unit=Money(obj["big_unit"], cur),
                rounding=Rounding(obj["rounding"]),
                pays={name: payout_from_text(text) for name, text in obj["pays"].items()},
            )
        except (KeyError, ValueError, TypeError) as exc:
            raise JournalError(f"bad craps rules in the journal: {exc}") from exc


# === Journal events =======================================================================


@event
@dataclass(frozen=True)
class TableOpened(Event):
    kind: ClassVar[str] = "craps.table_opened"
    seats: tuple[str, ...]
    rules: dict[str, Any]


@event
@dataclass(frozen=True)
class ChipsBought(Event):
    kind: ClassVar[str] = "craps.chips_bought"
    player: str
    amount: int


@event
@dataclass(frozen=True)
class BetPlaced(Event):
    kind: ClassVar[str] = "craps.bet_placed"
    bet_id: int
    player: str
    bet: str
    amount: int
    on: int | None


@event
@dataclass(frozen=True)
class BetIncreased(Event):
    kind: ClassVar[str] = "craps.bet_increased"
    bet_id: int
    amount: int


@event
@dataclass(frozen=True)
class BetTakenDown(Event):
    kind: ClassVar[str] = "craps.bet_taken_down"
    bet_ids: tuple[int, ...]  # the bet, then any odds laid on it


@event
@dataclass(frozen=True)
class DiceThrown(Event):
    kind: ClassVar[str] = "craps.dice_thrown"
    roll: int
    shooter: str
    dice: tuple[int, int]
    cocked: tuple[bool, bool]  # CR-R1: a face declared by the dealer


@event
@dataclass(frozen=True)
class ThrowVoided(Event):
    kind: ClassVar[str] = "craps.throw_voided"
    shooter: str
    reason: str


@event
@dataclass(frozen=True)
class RollSettled(Event):
    """What the roll did: derived from the dice, journalled so the record reads alone."""

    kind: ClassVar[str] = "craps.roll_settled"
    roll: int
    total: int
    point_before: int | None
    point_after: int | None
    points: tuple[dict[str, Any], ...]  # {"bet", "point"}: line bets that got their point
    results: tuple[dict[str, Any], ...]  # {"bet", "player", "name", "result", "stake", "won"}
    shooter: str  # who holds the dice next (CR-R7)


# === The table ==============================================================================


class Phase(Enum):
    COME_OUT = "come-out"
    POINT = "point"


class CrapsTable:
    """A craps table: seats, the point, the bets on the layout, a ledger and a journal.

    The state changes only through its operations, each of which appends the event it
    returns; :func:`replay` rebuilds an identical table from the journal.
    """

    def __init__(
        self,
        seats: Sequence[str],
        rules: CrapsRules | None = None,
        *,
        header: Mapping[str, Any] | None = None,
    ) -> None:
        """Open a table with ``seats`` in seat order; the first seat shoots first (CR-R7)."""
        self.rules = rules or CrapsRules()
        names = tuple(seats)
        if not names:
            raise InvalidInput("a table needs a player to throw", rule="CR-1")
        for name in names:
            Posting(f"player:{name}", Money.zero(self.rules.currency))  # checks the name
        if len(set(names)) != len(names):
            raise InvalidInput(f"two seats with the same name: {names}")
        self.seats: tuple[str, ...] = names
        self.shooter_seat = 0
        self.point: int | None = None
        self.rolls = 0
        self.next_bet_id = 1
        self._bets: dict[int, OpenBet] = {}
        self.ledger = Ledger()
        self.journal = Journal(GAME, header)
        self.last_roll: RollSettled | None = None
        self._events: list[Event] = []
        self._append(TableOpened(names, self.rules.to_json()))

    def _append(self, ev: Event) -> Event:
        self.journal.append(ev)
        self._events.append(ev)
        return ev

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of this table, in order (the journal's, without the hash chain)."""
        return tuple(self._events)

    # --- reading the state --------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        """CR-2.1: a come-out roll while no point is on; else the point phase."""
        return Phase.COME_OUT if self.point is None else Phase.POINT

    @property
    def shooter(self) -> str:
        return self.seats[self.shooter_seat]

    @property
    def bets(self) -> tuple[OpenBet, ...]:
        """The bets on the layout, oldest first."""
        return tuple(self._bets.values())

    def bet(self, bet_id: int) -> OpenBet:
        if bet_id not in self._bets:
            raise InvalidInput(f"no bet #{bet_id} on the layout")
        return self._bets[bet_id]

    def bets_of(self, player: str) -> tuple[OpenBet, ...]:
        return tuple(b for b in self._bets.values() if b.player == player)

    def odds_on(self, bet_id: int) -> OpenBet | None:
        """The odds laid on bet ``bet_id``, if any."""
        return next((b for b in self._bets.values() if b.parent == bet_id), None)

    def balance(self, player: str) -> Money:
        return self.ledger.balance(f"player:{player}", self.rules.currency)

    def on_layout(self, player: str) -> Money:
        return Money(sum(b.amount.minor for b in self.bets_of(player)), self.rules.currency)

    def label(self, bet: OpenBet) -> str:
        """``"Come 6"``, ``"Pass Line odds 4"``, ``"Field"``."""
        kind = BET_KINDS[bet.kind]
        return kind.label if bet.point is None else f"{kind.label} {bet.point}"

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data (for equality after replay, and for ``--json``)."""
        cur = self.rules.currency
        return {
            "seats": list(self.seats),
            "shooter": self.shooter,
            "point": self.point,
            "rolls": self.rolls,
            "next_bet_id": self.next_bet_id,
            "rules": self.rules.to_json(),
            "bets": [
                {
                    "id": b.id,
                    "player": b.player,
                    "bet": b.kind,
                    "amount": b.amount.minor,
                    "point": b.point,
                    "on": b.parent,
                }
                for b in self._bets.values()
            ],
            "balances": {acc: m.minor for acc, m in self.ledger.balances(cur).items()},
            "head": self.journal.head,
        }

    def winnings(self, bet: OpenBet, dice: Dice) -> Money:
        """What ``bet`` wins if ``dice`` decide it as a win: its kind's pay table, applied."""
        payout = self.rules.payout(BET_KINDS[bet.kind])
        if isinstance(payout, PerUnits):  # CR-R4
            return payout.winnings(bet.amount, self.rules.big_unit)
        if isinstance(payout, ByNumber):
            payout = payout.odds_for(bet.point if payout.of == "point" else dice.total)
        return payout.winnings(bet.amount, self.rules.rounding)

    # --- money in ------------------------------------------------------------------------

    def _money(self, amount: Money) -> None:
        if not isinstance(amount, Money):
            raise TypeError(f"an amount is Money, not {type(amount).__name__}")
        if amount.currency != self.rules.currency:
            raise InvalidInput(f"this table plays in {self.rules.currency}, not {amount}")
        if not amount.is_positive():
            raise InvalidInput(f"an amount must be positive, not {amount}")

    def _seated(self, player: str) -> None:
        if player not in self.seats:
            raise InvalidInput(f"{player!r} has no seat at this table ({', '.join(self.seats)})")

    def verify_buy_in(self, player: str, amount: Money) -> None:
        self._seated(player)
        self._money(amount)

    def can_buy_in(self, player: str, amount: Money) -> bool:
        return _can(self.verify_buy_in, player, amount)

    def buy_in(self, player: str, amount: Money) -> ChipsBought:
        """Chips from the cage to ``player``'s wallet."""
        self.verify_buy_in(player, amount)
        self.ledger.post(Transaction.transfer(CAGE, f"player:{player}", amount, "buy-in"))
        ev = ChipsBought(player, amount.minor)
        self._append(ev)
        return ev

    # --- CR-R6 placing, increasing and taking down bets -------------------------------------

    def _timing(self, kind: BetKind) -> None:
        """CR-R6 / CR-12: may a bet of ``kind`` be made now?"""
        if kind.when is When.COME_OUT and self.point is not None:
            raise BetNotAllowed(
                f"{kind.label} bets are made on a come-out roll only; the point is "
                f"{self.point} (CR-R6)",
                rule=kind.rule,
            )
        if kind.when is When.POINT_ON and self.point is None:
            raise BetNotAllowed(f"{kind.label} bets need a point (CR-R6)", rule=kind.rule)
        # When.ANY_ROLL: CR-12 — the bets of CR-4 to CR-11 may be placed at any time.

    def _odds_cap(self, kind: BetKind, flat: OpenBet, stake: Money) -> None:
        """CR-2.2 / CR-3.2, CR-R2: the odds may win at most the flat bet (or, under
        ``odds_cap="stake"``, the odds stake may not exceed it)."""
        if self.rules.odds_cap == "stake":
            if stake > flat.amount:
                raise BetNotAllowed(
                    f"odds of {stake} exceed the {self.label(flat)} bet of {flat.amount} "
                    "(CR-R2, odds_cap='stake')",
                    rule=kind.rule,
                )
            return
        payout = self.rules.payout(kind)
        odds = payout.odds_for(flat.point) if isinstance(payout, ByNumber) else payout
        if not isinstance(odds, Odds):
            raise InvalidInput(f"{kind.label} needs odds, not {payout}")
        if stake.minor * odds.ratio > flat.amount.minor:
            most = Money(int(flat.amount.minor / odds.ratio), stake.currency)
            raise BetNotAllowed(
                f"odds of {stake} at {odds} would win more than the {self.label(flat)} bet of "
                f"{flat.amount}; at most {most} (CR-R2)",
                rule=kind.rule,
            )

    def _limits(self, kind: BetKind, total: Money) -> None:
        if kind.on is not None:
            return  # odds have no table limits of their own: only the cap of CR-2.2
        if total < self.rules.min_bet:
            raise BetNotAllowed(
                f"{kind.label} of {total} is below the table minimum "
                f"{self.rules.min_bet} (table limits)"
            )
        if total > self.rules.max_bet:
            raise BetNotAllowed(
                f"{kind.label} of {total} is above the table maximum "
                f"{self.rules.max_bet} (table limits)"
            )

    def _funds(self, player: str, amount: Money) -> None:
        tx = Transaction.transfer(f"player:{player}", LAYOUT, amount, "bet")
        if not self.ledger.can_post(tx):
            raise InsufficientFunds(f"{player} has {self.balance(player)}, not enough for {amount}")

    def verify_place_bet(
        self, player: str, bet: str | BetKind, amount: Money, *, on: int | None = None
    ) -> None:
        """Raise the error naming the rule if ``player`` may not place this bet now."""
        self._seated(player)
        kind = bet if isinstance(bet, BetKind) else bet_kind(bet)
        self._money(amount)
        if kind.on is None:
            if on is not None:
                raise InvalidInput(f"{kind.label} is not laid on another bet")
            self._timing(kind)
        else:
            if on is None:
                raise BetNotAllowed(
                    f"{kind.label} must name the {BET_KINDS[kind.on].label} bet it is on",
                    rule=kind.rule,
                )
            flat = self._bets.get(on)
            if flat is None or flat.player != player or flat.kind != kind.on:
                raise BetNotAllowed(
                    f"{player} has no {BET_KINDS[kind.on].label} bet #{on} for {kind.label}",
                    rule=kind.rule,
                )
            if flat.point is None:
                raise BetNotAllowed(
                    f"odds need a point: the {self.label(flat)} bet has none yet (CR-R6)",
                    rule=kind.rule,
                )
            if self.odds_on(on) is not None:
                raise BetNotAllowed(
                    f"the {self.label(flat)} bet has its one odds bet already; increase it",
                    rule=kind.rule,
                )
            self._odds_cap(kind, flat, amount)
        self._limits(kind, amount)
        self._funds(player, amount)

    def can_place_bet(
        self, player: str, bet: str | BetKind, amount: Money, *, on: int | None = None
    ) -> bool:
        return _can(self.verify_place_bet, player, bet, amount, on=on)

    def place_bet(
        self, player: str, bet: str | BetKind, amount: Money, *, on: int | None = None
    ) -> BetPlaced:
        """Place a bet (its stake moves from the wallet to the layout)."""
        self.verify_place_bet(player, bet, amount, on=on)
        kind = bet if isinstance(bet, BetKind) else bet_kind(bet)
        point = self._bets[on].point if on is not None else None
        ev = BetPlaced(self.next_bet_id, player, kind.name, amount.minor, on)
        self.ledger.post(
            Transaction.transfer(f"player:{player}", LAYOUT, amount, f"bet #{ev.bet_id}")
        )
        self._bets[ev.bet_id] = OpenBet(ev.bet_id, player, kind.name, amount, point, on)
        self.next_bet_id += 1
        self._append(ev)
        return ev

    def verify_increase_bet(self, bet_id: int, amount: Money) -> None:
        """CR-R6: a line bet may grow only before it has a point; odds within the cap;
        the bets of CR-4 to CR-11 at any time (CR-12)."""
        bet = self.bet(bet_id)
        kind = BET_KINDS[bet.kind]
        self._money(amount)
        if kind.on is None:
            self._timing(kind)
            if kind.when is not When.ANY_ROLL and bet.point is not None:
                raise BetNotAllowed(
                    f"the {self.label(bet)} bet has its point; a line bet may not be "
                    "increased after its point (CR-R6)",
                    rule=kind.rule,
                )
        else:
            assert bet.parent is not None
            self._odds_cap(kind, self._bets[bet.parent], bet.amount + amount)
        self._limits(kind, bet.amount + amount)
        self._funds(bet.player, amount)

    def can_increase_bet(self, bet_id: int, amount: Money) -> bool:
        return _can(self.verify_increase_bet, bet_id, amount)

    def increase_bet(self, bet_id: int, amount: Money) -> BetIncreased:
        self.verify_increase_bet(bet_id, amount)
        bet = self._bets[bet_id]
        self.ledger.post(
            Transaction.transfer(f"player:{bet.player}", LAYOUT, amount, f"bet #{bet_id} increased")
        )
        self._bets[bet_id] = dataclasses.replace(bet, amount=bet.amount + amount)
        ev = BetIncreased(bet_id, amount.minor)
        self._append(ev)
        return ev

    def verify_take_down(self, bet_id: int) -> None:
        """CR-R6: a Pass or Come bet with a point is a contract bet; all else may come down."""
        bet = self.bet(bet_id)
        kind = BET_KINDS[bet.kind]
        if kind.contract and bet.point is not None:
            raise BetNotAllowed(
                f"the {self.label(bet)} bet has a point: a contract bet cannot be taken "
                "down (CR-R6)",
                rule=kind.rule,
            )

    def can_take_down(self, bet_id: int) -> bool:
        return _can(self.verify_take_down, bet_id)

    def take_down(self, bet_id: int) -> BetTakenDown:
        """Return the bet's stake (and its odds', which come down with it)."""
        self.verify_take_down(bet_id)
        odds = self.odds_on(bet_id)
        ids = (bet_id,) if odds is None else (bet_id, odds.id)
        postings: list[Posting] = []
        for i in ids:
            bet = self._bets.pop(i)
            postings += [Posting(LAYOUT, -bet.amount), Posting(f"player:{bet.player}", bet.amount)]
        self.ledger.post(Transaction.of(postings, f"bet #{bet_id} taken down"))
        ev = BetTakenDown(ids)
        self._append(ev)
        return ev

    # --- CR-1 the throw; CR-R1 void throws and cocked dice; CR-R7 the shooter ---------------

    def verify_throw(self, by: str | None = None) -> None:
        """CR-1: only one player, the shooter, throws (CR-R7: until a seven-out)."""
        if by is not None and by != self.shooter:
            raise OutOfOrder(f"{self.shooter} has the dice, not {by} (CR-R7)", rule="CR-1")

    def can_throw(self, by: str | None = None) -> bool:
        return _can(self.verify_throw, by)

    def throw(self, rng: Rng, *, by: str | None = None) -> DiceThrown:
        """CR-1: the shooter throws two dice, drawn from ``rng`` (d1 then d2).

        The RNG path never produces a cocked die or a die off the table (CR-R1).
        """
        self.verify_throw(by)
        d1, d2 = rng.dice(2)
        return self.throw_dice(d1, d2, by=by)

    def throw_dice(
        self,
        d1: int,
        d2: int,
        *,
        cocked: tuple[bool, bool] = (False, False),
        by: str | None = None,
    ) -> DiceThrown:
        """CR-1: the dice as read at a live table; ``cocked`` marks a die not lying flat whose
        face "most evidently up" the dealer declared (CR-R1). Settles the roll."""
        self.verify_throw(by)
        dice = Dice(d1, d2)
        cocked = (bool(cocked[0]), bool(cocked[1]))
        self.rolls += 1
        ev = DiceThrown(self.rolls, self.shooter, (dice.d1, dice.d2), cocked)
        self._append(ev)
        self._settle(dice)
        return ev

    def verify_void_throw(self) -> None:
        """CR-1 / CR-R1: a void throw may always be declared; it touches no bet."""

    def void_throw(self, reason: str = "a die left the table") -> ThrowVoided:
        """CR-1, CR-R1: one or both dice off the table — void, logged, thrown again."""
        self.verify_void_throw()
        ev = ThrowVoided(self.shooter, reason)
        self._append(ev)
        return ev

    # --- Settlement of one roll ------------------------------------------------------------

    def _settle(self, dice: Dice) -> None:
        """Decide every bet on the layout by ``dice``, pay through the ledger, move the point
        (CR-2.1) and the dice (CR-R7), and journal what happened."""
        cur = self.rules.currency
        decided: dict[int, Decision] = {}
        flats = [b for b in self._bets.values() if b.parent is None]
        odds = [b for b in self._bets.values() if b.parent is not None]
        for bet in (*flats, *odds):  # odds after the bet they are on (WithItsBet)
            decided[bet.id] = BET_KINDS[bet.kind].resolve(bet, dice, decided)
        postings: list[Posting] = []
        points: list[dict[str, Any]] = []
        results: list[dict[str, Any]] = []
        for bet_id in sorted(decided):
            bet, d = self._bets[bet_id], decided[bet_id]
            wallet = f"player:{bet.player}"
            if d.result is Result.POINT:
                self._bets[bet_id] = dataclasses.replace(bet, point=d.point)
                points.append({"bet": bet_id, "point": d.point})
                continue
            if d.result is Result.STANDS:
                continue
            won = Money.zero(cur)
            if d.result is Result.WIN:
                won = self.winnings(bet, dice)
                postings += [
                    Posting(LAYOUT, -bet.amount),
                    Posting(wallet, bet.amount),
                    Posting(HOUSE, -won),
                    Posting(wallet, won),
                ]
            elif d.result is Result.LOSE:
                postings += [Posting(LAYOUT, -bet.amount), Posting(HOUSE, bet.amount)]
            else:  # PUSH
                postings += [Posting(LAYOUT, -bet.amount), Posting(wallet, bet.amount)]
            del self._bets[bet_id]
            results.append(
                {
                    "bet": bet_id,
                    "player": bet.player,
                    "name": self.label(bet),
                    "result": d.result.value,
                    "stake": bet.amount.minor,
                    "won": won.minor,
                }
            )
        self.ledger.post(Transaction.of(postings, f"craps roll {self.rolls}"))
        before = self.point
        # CR-2.1: a come-out point number sets the point; the point or a 7 ends it.
        if before is None:
            if dice.total in POINTS:
                self.point = dice.total
        elif dice.total == before:
            self.point = None
        elif dice.total == 7:
            self.point = None
            # CR-R7: the shooter keeps the dice until a seven-out; then the next seat.
            self.shooter_seat = (self.shooter_seat + 1) % len(self.seats)
        ev = RollSettled(
            self.rolls, dice.total, before, self.point, tuple(points), tuple(results), self.shooter
        )
        self.last_roll = ev
        self._append(ev)


# === Replay =================================================================================


def replay(journal: Journal) -> CrapsTable:
    """Rebuild the table from its journal without the RNG; the rebuilt journal must be
    event for event the same (a derived :class:`RollSettled` that differs is refused)."""
    events = journal.events
    if not events or not isinstance(events[0], TableOpened):
        raise JournalError("a craps journal starts with craps.table_opened")
    first = events[0]
    table = CrapsTable(first.seats, CrapsRules.from_json(first.rules), header=journal.header)
    cur = table.rules.currency
    log = table._events
    if log[0] != first:
        raise JournalError("entry 0: craps.table_opened does not match its rules")
    for index, ev in enumerate(events[1:], start=1):
        if isinstance(ev, ChipsBought):
            table.buy_in(ev.player, Money(ev.amount, cur))
        elif isinstance(ev, BetPlaced):
            table.place_bet(ev.player, ev.bet, Money(ev.amount, cur), on=ev.on)
        elif isinstance(ev, BetIncreased):
            table.increase_bet(ev.bet_id, Money(ev.amount, cur))
        elif isinstance(ev, BetTakenDown):
            table.take_down(ev.bet_ids[0])
        elif isinstance(ev, DiceThrown):
            table.throw_dice(*ev.dice, cocked=ev.cocked, by=ev.shooter)
        elif isinstance(ev, ThrowVoided):
            table.void_throw(ev.reason)
        elif not isinstance(ev, RollSettled):
            raise JournalError(f"entry {index}: {ev.kind} is not a craps event")
        if index >= len(log) or log[index] != ev:
            raise JournalError(f"entry {index}: {ev.kind} does not follow from the events before")
    if len(log) != len(events):
        raise JournalError("the journal ends in the middle of a roll")
    return table


def _replay(journal: Journal) -> object:
    return replay(journal)


register_replayer(GAME, _replay)


def iter_kinds() -> Iterable[BetKind]:
    """The bets of the regulation, in article order."""
    return iter(_KINDS)
