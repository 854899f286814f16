"""The bets of Portaria 97/85/M as data, in article order (CR-2.1 … CR-11): when each may be
placed (CR-R6, CR-12), how a roll resolves it, and what it pays (pay tables as data).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from types import MappingProxyType
from typing import Literal, TypeAlias

from macau_tables.core.errors import (
    InvalidInput,
)
from macau_tables.core.money import Money, Rounding
from macau_tables.games.craps.dice import Dice

__all__ = [
    "BET_KINDS",
    "CRAPS",
    "DONT_BAR",
    "DONT_LOSES",
    "DONT_WINS",
    "EVEN",
    "FINAL",
    "LAY_ODDS",
    "LOSE",
    "NATURALS",
    "PUSH",
    "STANDS",
    "TAKE_ODDS",
    "WIN",
    "BeforeSeven",
    "ByNumber",
    "CrapsBetKind",
    "Decision",
    "DoLine",
    "DontLine",
    "HardWay",
    "Odds",
    "OneRoll",
    "OpenBet",
    "Payout",
    "PerUnits",
    "Resolver",
    "Result",
    "When",
    "WithItsBet",
    "bet_kind",
    "iter_kinds",
    "label",
    "payout_from_text",
]


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
class CrapsBetKind:
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

_K = CrapsBetKind

_KINDS: tuple[CrapsBetKind, ...] = (
    # CR-2.1 Pass Line: even money; made on a come-out only, a contract once it has a point.
    _K("pass", "Pass Line", "CR-2.1", When.COME_OUT, DoLine(), EVEN, contract=True,
            aliases=("passline", "pass_line", "line")),
    # CR-2.2 Pass Line odds: true odds, winnings capped at the flat bet (CR-R2).
    _K("pass_odds", "Pass Line odds", "CR-2.2", When.ON_A_POINT, WithItsBet(), TAKE_ODDS,
            on="pass"),
    # CR-2.3 Come: as Pass Line from the next roll, with odds as CR-2.2.
    _K("come", "Come", "CR-2.3", When.POINT_ON, DoLine(), EVEN, contract=True),
    _K("come_odds", "Come odds", "CR-2.3", When.ON_A_POINT, WithItsBet(), TAKE_ODDS,
            on="come"),
    # CR-3.1 Don't Pass: bar 12, even money.
    _K("dont_pass", "Don't Pass", "CR-3.1", When.COME_OUT, DontLine(), EVEN,
            aliases=("dp", "dontpass", "don't_pass")),
    # CR-3.2 Don't Pass odds (the lay), capped as CR-R2 reads it.
    _K("dont_pass_odds", "Don't Pass lay odds", "CR-3.2", When.ON_A_POINT, WithItsBet(),
            LAY_ODDS, on="dont_pass"),
    # CR-3.3 Don't Come: as Don't Pass from the next roll, with lay odds as CR-3.2.
    _K("dont_come", "Don't Come", "CR-3.3", When.POINT_ON, DontLine(), EVEN,
            aliases=("dc", "dontcome", "don't_come")),
    _K("dont_come_odds", "Don't Come lay odds", "CR-3.3", When.ON_A_POINT, WithItsBet(),
            LAY_ODDS, on="dont_come"),
    # CR-4 Field: one roll; 3, 4, 9, 10, 11 even money; 2 and 12 double.
    _K("field", "Field", "CR-4", When.ANY_ROLL, OneRoll(frozenset({2, 3, 4, 9, 10, 11, 12})),
            ByNumber("total", ((2, Odds(2)), (12, Odds(2))), EVEN)),
    # CR-5 Hard ways: hard 6 and 8 win 9 to 1, hard 4 and 10 win 7 to 1.
    _K("hard4", "Hard 4", "CR-5", When.ANY_ROLL, HardWay(4), Odds(7), aliases=("h4",)),
    _K("hard6", "Hard 6", "CR-5", When.ANY_ROLL, HardWay(6), Odds(9), aliases=("h6",)),
    _K("hard8", "Hard 8", "CR-5", When.ANY_ROLL, HardWay(8), Odds(9), aliases=("h8",)),
    _K("hard10", "Hard 10", "CR-5", When.ANY_ROLL, HardWay(10), Odds(7), aliases=("h10",)),
    # CR-6 Big 7: one roll, 4.5 to 1 (CR-R5: read literally).
    _K("big7", "Big 7", "CR-6", When.ANY_ROLL, OneRoll(frozenset({7})), Odds(9, 2),
            aliases=("big_7", "seven", "7")),
    # CR-7 11: one roll, 15 to 1.
    _K("eleven", "11", "CR-7", When.ANY_ROLL, OneRoll(frozenset({11})), Odds(15),
            aliases=("11", "yo")),
    # CR-8 Any Craps: one roll, 7 to 1.
    _K("any_craps", "Any Craps", "CR-8", When.ANY_ROLL, OneRoll(CRAPS), Odds(7),
            aliases=("craps", "anycraps", "any")),
    # CR-9 Big 6 / Big 8: 7 per full 6 units, even money on the rest (CR-R3, CR-R4).
    _K("big6", "Big 6", "CR-9", When.ANY_ROLL, BeforeSeven(6), PerUnits(6, 7),
            aliases=("big_6",)),
    _K("big8", "Big 8", "CR-9", When.ANY_ROLL, BeforeSeven(8), PerUnits(6, 7),
            aliases=("big_8",)),
    # CR-10 Big 5 / Big 9: 7 per full 5 units, even money on the rest (CR-R4).
    _K("big5", "Big 5", "CR-10", When.ANY_ROLL, BeforeSeven(5), PerUnits(5, 7),
            aliases=("big_5",)),
    _K("big9", "Big 9", "CR-10", When.ANY_ROLL, BeforeSeven(9), PerUnits(5, 7),
            aliases=("big_9",)),
    # CR-11 Big 4 / Big 10: 9 per full 5 units, even money on the rest ("under 6" read as
    # "under 5", CR-R4).
    _K("big4", "Big 4", "CR-11", When.ANY_ROLL, BeforeSeven(4), PerUnits(5, 9),
            aliases=("big_4",)),
    _K("big10", "Big 10", "CR-11", When.ANY_ROLL, BeforeSeven(10), PerUnits(5, 9),
            aliases=("big_10",)),
)  # fmt: skip

#: Every bet of the regulation by name.
BET_KINDS: Mapping[str, CrapsBetKind] = MappingProxyType({k.name: k for k in _KINDS})
_BY_ALIAS: dict[str, str] = {
    alias: k.name for k in _KINDS for alias in (k.name, *k.aliases, k.name.replace("_", ""))
}


def label(bet: OpenBet) -> str:
    """A bet as the layout names it: ``"Come 6"``, ``"Pass Line odds 4"``, ``"Field"``."""
    kind = BET_KINDS[bet.kind]
    return kind.label if bet.point is None else f"{kind.label} {bet.point}"


def bet_kind(name: str) -> CrapsBetKind:
    """The bet named ``name`` or one of its aliases (``"dp"``, ``"11"``, ``"craps"`` …)."""
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    if key in _BY_ALIAS:
        return BET_KINDS[_BY_ALIAS[key]]
    raise InvalidInput(f"no bet called {name!r}; bets: {', '.join(BET_KINDS)}")


def iter_kinds() -> Iterable[CrapsBetKind]:
    """The bets of the regulation, in article order."""
    return iter(_KINDS)
