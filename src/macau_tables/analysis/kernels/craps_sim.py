"""Craps simulation kernel: a player program rolled millions of times, exactly.

The game is not typed a second time here. Every table the numba core reads is derived, once,
from the readable engine (:mod:`macau_tables.games.craps`):

* ``RES[kind, point, d1, d2]`` — what one roll does to a flat bet: each entry is the engine's
  own :attr:`CrapsBetKind.resolve` called on that bet and those dice (CR-2.1 … CR-11, CR-R3);
* ``ODDS_RES[odds kind, parent result]`` — the odds' :class:`WithItsBet` resolver asked about
  every decision of the bet they lie on (CR-2.2, CR-3.2);
* ``NEXT_POINT[point, d1, d2]`` — the table's point after a roll, read off a
  :class:`CrapsTable` that threw those dice (CR-2.1);
* ``WON[kind, point, total]`` — the winnings of the program's stake, from
  :meth:`CrapsTable.winnings` (pay tables, ``CrapsRules.pays``, the Big bets' unit payouts of
  CR-R4 and the rounding of fractional odds);
* the odds stakes — the largest whole-unit stake the engine's own cap check accepts
  (``CrapsTable.can_place_bet``: CR-2.2, CR-R2, option ``odds_cap``).

A :class:`CrapsProgram` says what the simulated player bets (amounts in whole currency units,
e.g. patacas): the flat bets by engine name, the odds and lay odds, how many Come/Don't Come
bets to keep working and when the bets of CR-12 go down. Before every roll the player places
what the program asks for and the timing rules allow (CR-R6, CR-12): Pass/Don't Pass on a
come-out, one Come/Don't Come per roll while a point is on (up to ``come_max`` with a point),
odds on every line bet with a point, the CR-4 … CR-11 bets whenever they are not on the
layout (one-roll bets therefore every roll). Nothing is ever taken down; the bankroll is
unlimited (sessions with a bankroll replay ``series``, see :mod:`analysis.sessions`).

Outputs follow the simulation contract (:class:`ChunkResult`): counts of decisions per line
and outcome label of the exact PAR sheet (:func:`analysis.craps.craps_par`; :func:`line_name`:
``"Pass Line"``, ``"Pass Line odds on 4"``, ``"Field"`` with ``"win on 2, 12"`` …), with the
exact net per unit staked of each label (the program's stake: a Big 6 of 6 units nets 7/6,
of 1 unit 1, CR-R4; a lay of 7 on 6 wins 5.83, rounded down to 583/700 per unit). A Pass Line
or Don't Pass with its odds at exactly the cap on every point is also counted as the sheet's
``"Pass Line + full odds"`` / ``"Don't Pass + full lay odds"`` (per unit of flat bet; e.g. the
default program, and a flat bet of 30 for the lay). With ``options["series"]`` also per-roll
and per-decision arrays (:data:`SERIES_DOC`). Money is integer minor units of the rules'
currency throughout.

Three entry points run the same core: :func:`simulate_chunk` (dice from
``kernels.rng.chunk_generator(seed, chunk)``), :func:`run_dice` (explicit dice, for tests) and,
for comparison, :func:`run_engine` (the same program played on the readable
:class:`CrapsTable`, roll by roll).

Overflow: counts are int64 (at most one decision per live bet per roll); per-roll money is at
most the stakes on the layout (bounded by ``max_bet``, 64 live bets) times the largest pay
ratio, far below 2**63 for any table limit under 10**12 minor units (checked when compiling).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Protocol, TypeAlias

import numpy as np
from numba import njit

from macau_tables.analysis.kernels.rng import chunk_generator
from macau_tables.analysis.simresult import ChunkResult
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import Money
from macau_tables.games.craps import (
    POINTS,
    ByNumber,
    CrapsBetKind,
    CrapsRules,
    CrapsTable,
    Decision,
    Dice,
    OpenBet,
    Result,
    When,
    bet_kind,
    iter_kinds,
    placed_id,
)

__all__ = [
    "KIND_NAMES",
    "RESULT_NAMES",
    "SERIES_DOC",
    "CompiledProgram",
    "CrapsProgram",
    "compile_program",
    "line_name",
    "run_dice",
    "run_engine",
    "simulate_chunk",
]

GAME = "craps"

#: The engine's bets, in article order; a kind code is an index into this tuple.
KINDS: tuple[CrapsBetKind, ...] = tuple(iter_kinds())
KIND_NAMES: tuple[str, ...] = tuple(k.name for k in KINDS)
_CODE: dict[str, int] = {name: i for i, name in enumerate(KIND_NAMES)}
NK = len(KINDS)

# Result codes of the kernel (RES, ODDS_RES): what one roll does to a bet.
STANDS, POINT, WIN, LOSE, PUSH = 0, 1, 2, 3, 4
_RESULT_CODE = {
    Result.STANDS: STANDS,
    Result.POINT: POINT,
    Result.WIN: WIN,
    Result.LOSE: LOSE,
    Result.PUSH: PUSH,
}
#: ``series["decision_result"]`` codes: 0 win, 1 lose, 2 push (result code − WIN).
RESULT_NAMES: tuple[str, ...] = ("win", "lose", "push")

# When codes (CR-R6, CR-12), the engine's When, as small ints for the kernel.
_WHEN_CODE = {When.COME_OUT: 0, When.POINT_ON: 1, When.ON_A_POINT: 2, When.ANY_ROLL: 3}
_PROPS_CODE = {"always": 0, "point": 1, "come_out": 2}

MAX_LIVE = 64  # live flat bets the kernel can hold (a full program needs 2 + 2·7 + 14 = 30)
_DICE_BLOCK = 1 << 20  # rolls drawn from the Generator at a time (fixed: part of the stream)
_DECISION_BLOCK = 1 << 18  # decision records per kernel call when recording series

SERIES_DOC = """\
per roll (length = rolls):
  die1, die2, total   int8   the dice (CR-1)
  placed              int64  minor units put on the layout before the roll (bets and odds)
  returned            int64  minor units paid back after the roll (stake + winnings, pushes)
  net                 int64  the roll's result: winnings on wins minus stakes lost
  decisions           int16  how many bets the roll decided (decision i belongs to roll
                             np.repeat(np.arange(rolls), decisions)[i])
per decision, in roll order:
  decision_kind       int8   index into KIND_NAMES
  decision_point      int8   the bet's point before the roll (0: none)
  decision_result     int8   0 win, 1 lose, 2 push (RESULT_NAMES)
  decision_stake      int64  minor units
  decision_won        int64  winnings in minor units (0 unless a win)"""


# === Tables derived from the engine =========================================================


def _dice_for(total: int) -> Dice:
    """Dice showing ``total`` (the easy way where there is one: 1-3 for 4, 4-6 for 10)."""
    a = max(1, total - 6)
    return Dice(a, total - a)


@dataclass(frozen=True)
class _Tables:
    res: np.ndarray  # int8 [NK, 13, 6, 6]: flat bet of kind k with point p (0: none)
    odds_res: np.ndarray  # int8 [NK, 5]: odds kind k when its parent's roll result is r
    next_point: np.ndarray  # int8 [13, 6, 6]: the table's point after the roll (0: off)
    odds_kind: np.ndarray  # int8 [NK]: the kind of odds laid on kind k, -1 if none
    when: np.ndarray  # int8 [NK]: _WHEN_CODE of each kind


@functools.cache
def _tables() -> _Tables:
    """Resolve every (kind, point, dice) through the engine's own CrapsBetKind data, once."""
    res = np.full((NK, 13, 6, 6), -1, dtype=np.int8)
    odds_res = np.full((NK, 5), -1, dtype=np.int8)
    odds_kind = np.full(NK, -1, dtype=np.int8)
    when = np.array([_WHEN_CODE[k.when] for k in KINDS], dtype=np.int8)
    for code, kind in enumerate(KINDS):
        if kind.on is not None:
            odds_kind[_CODE[kind.on]] = code
            continue
        for p in (0, *POINTS):
            bet = OpenBet(0, "sim", kind.name, Money.of(1), p or None)
            for a in range(1, 7):
                for b in range(1, 7):
                    d = kind.resolve(bet, Dice(a, b), {})
                    r = _RESULT_CODE[d.result]
                    if r == POINT and d.point != a + b:
                        raise AssertionError(f"{kind.name}: a point other than the total")
                    res[code, p, a - 1, b - 1] = r
    for code, kind in enumerate(KINDS):
        if kind.on is None:
            continue
        odds = OpenBet(1, "sim", kind.name, Money.of(1), 4, parent=0)
        for result, r in _RESULT_CODE.items():
            parent = Decision(result, 4 if result is Result.POINT else None)
            d = kind.resolve(odds, Dice(1, 1), {0: parent})
            odds_res[code, r] = _RESULT_CODE[d.result]
    # CR-2.1: the table's point after each roll, from each state, as the engine moves it.
    next_point = np.zeros((13, 6, 6), dtype=np.int8)
    for p in (0, *POINTS):
        for a in range(1, 7):
            for b in range(1, 7):
                t = CrapsTable.seated(("sim",))
                if p:
                    first = _dice_for(p)
                    t.throw_dice(first.d1, first.d2)
                t.throw_dice(a, b)
                next_point[p, a - 1, b - 1] = t.point or 0
    return _Tables(res, odds_res, next_point, odds_kind, when)


# === The player program =====================================================================

OddsSpec: TypeAlias = Literal["max"] | int | Mapping[int, int] | None


def _norm_odds(spec: object, what: str) -> str | tuple[tuple[int, int], ...] | None:
    if spec is None or spec == "max":
        return None if spec is None else "max"
    if isinstance(spec, bool) or not isinstance(spec, int | Mapping):
        raise InvalidInput(f"{what} is 'max', whole units, or {{point: units}}, not {spec!r}")
    items = dict.fromkeys(POINTS, spec) if isinstance(spec, int) else dict(spec)
    for p, units in items.items():
        if p not in POINTS:
            raise InvalidInput(f"{what}: {p!r} is not a point number {POINTS}", rule="CR-2.1")
        if isinstance(units, bool) or not isinstance(units, int) or units < 0:
            raise InvalidInput(f"{what} on {p}: whole units >= 0, not {units!r}")
    return tuple(sorted((p, u) for p, u in items.items() if u))


@dataclass(frozen=True)
class CrapsProgram:
    """What the simulated player bets before every roll (amounts in whole currency units).

    * ``stakes``: flat bets by engine name or alias (``"pass"``, ``"dont_pass"``, ``"come"``,
      ``"dont_come"``, ``"field"``, ``"hard6"``, ``"big7"``, ``"eleven"``, ``"any_craps"``,
      ``"big8"`` …) → units; given as a mapping or (name, units) pairs.
    * ``odds`` (Pass and Come odds, CR-2.2) and ``lay`` (Don't Pass/Don't Come lay, CR-3.2):
      ``"max"`` — the largest whole-unit stake within the table's cap (CR-R2, ``odds_cap``);
      an int — those units on every point; ``{point: units}``; ``None`` — no odds.
    * ``come_max`` / ``dont_come_max``: Come / Don't Come bets with a point kept working at
      most (a new one goes down on every point roll until there are that many).
    * ``props``: when the bets of CR-4 … CR-11 go down (CR-12): ``"always"``, only while a
      ``"point"`` is on, or only on a ``"come_out"``. Once down, they work until decided
      (CR-R8).

    ``CrapsProgram.of(pass_line=6, odds="max", field=1, big6=6, big8=6)`` builds one from
    keywords.
    """

    stakes: Mapping[str, int] | Sequence[tuple[str, int]] = ()
    odds: OddsSpec = None
    lay: OddsSpec = None
    come_max: int = 6
    dont_come_max: int = 6
    props: Literal["always", "point", "come_out"] = "always"

    def __post_init__(self) -> None:
        items = self.stakes.items() if isinstance(self.stakes, Mapping) else self.stakes
        stakes: dict[str, int] = {}
        for item in items:
            if not (isinstance(item, tuple | list) and len(item) == 2):
                raise InvalidInput(f"a program bet is (name, units), not {item!r}")
            name, units = item
            kind = bet_kind(str(name))
            if kind.on is not None:
                raise InvalidInput(
                    f"{kind.label} goes with its bet: use odds=/lay= (e.g. odds='max')",
                    rule=kind.rule,
                )
            if isinstance(units, bool) or not isinstance(units, int) or units <= 0:
                raise InvalidInput(f"{kind.label}: a stake is whole units > 0, not {units!r}")
            if kind.name in stakes:
                raise InvalidInput(f"{kind.label} is in the program twice")
            stakes[kind.name] = units
        ordered = tuple((k, stakes[k]) for k in KIND_NAMES if k in stakes)
        object.__setattr__(self, "stakes", ordered)
        object.__setattr__(self, "odds", _norm_odds(self.odds, "odds"))
        object.__setattr__(self, "lay", _norm_odds(self.lay, "lay"))
        for name in ("come_max", "dont_come_max"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
                raise InvalidInput(f"{name} is 1 to 6 (one per point number), not {value!r}")
        if self.props not in _PROPS_CODE:
            raise InvalidInput(f"props is one of {', '.join(_PROPS_CODE)}, not {self.props!r}")

    @classmethod
    def of(
        cls,
        *items: tuple[str, int],
        odds: OddsSpec = None,
        lay: OddsSpec = None,
        come_max: int = 6,
        dont_come_max: int = 6,
        props: Literal["always", "point", "come_out"] = "always",
        **stakes: int,
    ) -> CrapsProgram:
        """``CrapsProgram.of(pass_line=6, odds="max", big6=6)`` or ``.of(("pass", 6))``."""
        return cls((*items, *stakes.items()), odds, lay, come_max, dont_come_max, props)

    @property
    def flat(self) -> dict[str, int]:
        """The flat bets, engine name → units, in article order."""
        return dict(self.stakes)

    def to_json(self) -> dict[str, Any]:
        def odds(spec: object) -> object:
            if isinstance(spec, tuple):
                return {str(p): u for p, u in spec}
            return spec

        return {
            "stakes": self.flat,
            "odds": odds(self.odds),
            "lay": odds(self.lay),
            "come_max": self.come_max,
            "dont_come_max": self.dont_come_max,
            "props": self.props,
        }


#: The default: Pass Line 6 units with the largest odds the cap allows (3/4/5 units on
#: 4-10/5-9/6-8 under CR-2.2's cap: the odds win at most the flat bet).
DEFAULT_PROGRAM = CrapsProgram.of(pass_line=6, odds="max")


# === Compiling a program against a rule set =================================================


def _scratch_with_point(
    rules: CrapsRules, parent: CrapsBetKind, units: int, point: int
) -> tuple[CrapsTable, int]:
    """A table where a ``parent`` bet of ``units`` has the point ``point``: the engine then
    decides whether odds may be laid on it (its own cap check, CR-2.2 / CR-R2)."""
    t = CrapsTable.seated(("sim",), rules, chips=Money(rules.max_bet.minor * 100, rules.currency))
    if parent.when is When.POINT_ON:  # Come / Don't Come: a table point first
        d = _dice_for(4 if point != 4 else 5)
        t.throw_dice(d.d1, d.d2)
    bet_id = placed_id(t.place_bet("sim", parent, Money.of(units, rules.currency)))
    d = _dice_for(point)
    t.throw_dice(d.d1, d.d2)
    assert t.bet(bet_id).point == point
    return t, bet_id


def _odds_stakes(
    rules: CrapsRules, parent: CrapsBetKind, odds: CrapsBetKind, units: int, spec: object
) -> dict[int, int]:
    """Odds stake in whole units on each point (0: none), checked by the engine."""
    out: dict[int, int] = {}
    for p in POINTS:
        t, flat = _scratch_with_point(rules, parent, units, p)

        def ok(u: int, t: CrapsTable = t, flat: int = flat) -> bool:
            return t.can_place_bet("sim", odds, Money.of(u, rules.currency), on=flat)

        if spec == "max":
            lo, hi = 0, 1
            while ok(hi):  # the cap is monotone in the stake: double, then bisect
                lo, hi = hi, hi * 2
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (mid, hi) if ok(mid) else (lo, mid)
            out[p] = lo
        else:
            u = dict(spec).get(p, 0)  # type: ignore[call-overload]
            if u:  # raise the engine's own error (BetNotAllowed, CR-2.2 / CR-R2)
                t.verify_place_bet("sim", odds, Money.of(u, rules.currency), on=flat)
            out[p] = u
    return out


@dataclass(frozen=True)
class CompiledProgram:
    """A program as the arrays the kernel reads (stakes and winnings in minor units)."""

    program: CrapsProgram
    rules: CrapsRules
    kinds: np.ndarray  # int8: the program's flat kinds, in placement order
    stake: np.ndarray  # int64 [NK, 13]: flat stake at [k, 0]; odds stake at [odds k, point]
    won: np.ndarray  # int64 [NK, 13, 13]: winnings of kind k with point p on total t
    max_pointed: np.ndarray  # int64 [NK]: bets of a kind with a point kept working at most
    props: int
    labels: dict[str, dict[str, Fraction]]  # line -> label -> net per unit (all reachable)
    # (kind, result, point, total) -> the (line, label) pairs the decision counts under
    label_of: dict[tuple[int, int, int, int], tuple[tuple[str, str], ...]]


def line_name(kind: CrapsBetKind, point: int) -> str:
    """The PAR sheet's line (:func:`analysis.craps.craps_par`) a decision counts under: the
    bet's label (``"Pass Line"``, ``"Big 6"``), odds one line per point
    (``"Pass Line odds on 4"``, ``"Don't Come lay odds on 10"``)."""
    return kind.label if kind.on is None else f"{kind.label} on {point}"


def _by_total(rules: CrapsRules, kind: CrapsBetKind) -> bool:
    """A pay table by the dice total (the Field, CR-4): its wins are labelled by total."""
    payout = rules.payout(kind)
    return isinstance(payout, ByNumber) and payout.of == "total"


def _full_odds_lines(
    program: CrapsProgram, rules: CrapsRules, stake: np.ndarray
) -> list[tuple[int, int, str]]:
    """The PAR sheet's combination lines the program plays: a come-out line bet (Pass Line,
    Don't Pass) with its odds at exactly the cap on every point (CR-2.2, CR-3.2, CR-R2:
    :func:`analysis.craps.full_odds_stake`), e.g. ``"Pass Line + full odds"``: (flat kind,
    odds kind, line name)."""
    from macau_tables.analysis.craps import full_odds_stake

    out: list[tuple[int, int, str]] = []
    for name in program.flat:
        k = _CODE[name]
        kind, ok = KINDS[k], int(_tables().odds_kind[k])
        if kind.when is not When.COME_OUT or ok < 0:
            continue
        flat = int(stake[k, 0])
        if all(stake[ok, p] == flat * full_odds_stake(rules, KINDS[ok], p) for p in POINTS):
            what = KINDS[ok].label.removeprefix(kind.label).strip()
            out.append((k, ok, f"{kind.label} + full {what}"))
    return out


def _check(rules: CrapsRules, kind: CrapsBetKind, units: int) -> None:
    """The engine's own checks of a flat stake (table limits) in a phase the bet may be made."""
    t = CrapsTable.seated(("sim",), rules, chips=Money(rules.max_bet.minor * 100, rules.currency))
    if kind.when is When.POINT_ON:
        t.throw_dice(2, 2)
    t.verify_place_bet("sim", kind, Money.of(units, rules.currency))


def _compile(program: CrapsProgram, rules: CrapsRules) -> CompiledProgram:
    tabs = _tables()
    stake = np.zeros((NK, 13), dtype=np.int64)
    max_pointed = np.full(NK, 1 << 30, dtype=np.int64)
    max_pointed[_CODE["come"]] = program.come_max
    max_pointed[_CODE["dont_come"]] = program.dont_come_max
    cur = rules.currency
    if rules.max_bet.minor >= 10**12:
        raise InvalidInput("table maximum too large for the int64 kernel (10**12 minor units)")
    for name, units in program.flat.items():
        kind = KINDS[_CODE[name]]
        _check(rules, kind, units)
        stake[_CODE[name], 0] = Money.of(units, cur).minor
        okind = int(tabs.odds_kind[_CODE[name]])
        spec = program.odds if kind.contract else program.lay
        if okind >= 0 and spec is not None:
            for p, u in _odds_stakes(rules, kind, KINDS[okind], units, spec).items():
                stake[okind, p] = Money.of(u, cur).minor
    # Winnings and nets of every decision the program can reach, from the engine.
    won = np.zeros((NK, 13, 13), dtype=np.int64)
    ends: dict[tuple[int, int, int, int], Fraction] = {}  # (kind, result, point, total)
    pay = CrapsTable.seated(("sim",), rules)

    def reach(k: int, p: int, t: int, r: int, amount: int) -> None:
        if r == WIN:
            bet = OpenBet(0, "sim", KIND_NAMES[k], Money(amount, cur), p or None)
            won[k, p, t] = pay.winnings(bet, _dice_for(t)).minor
            net = Fraction(int(won[k, p, t]), amount)
        else:
            net = Fraction(-1 if r == LOSE else 0)
        ends[(k, r - WIN, p, t)] = net

    for k in range(NK):
        if not stake[k, 0]:
            continue
        ok = int(tabs.odds_kind[k])
        for p in (0, *POINTS):
            for a in range(6):
                for b in range(6):
                    r = int(tabs.res[k, p, a, b])
                    if r >= WIN:
                        reach(k, p, a + b + 2, r, int(stake[k, 0]))
                        if ok >= 0 and p and stake[ok, p]:
                            ro = int(tabs.odds_res[ok, r])
                            reach(ok, p, a + b + 2, ro, int(stake[ok, p]))
    # Labels as the PAR sheet's: win / lose / push; a pay table by total groups its winning
    # totals by net ("win on 2, 12", "win on 3, 4, 9, 10, 11").
    labels: dict[str, dict[str, Fraction]] = {}
    label_of: dict[tuple[int, int, int, int], tuple[tuple[str, str], ...]] = {}

    def count_as(key: tuple[int, int, int, int], name: str, label: str, net: Fraction) -> None:
        known = labels.setdefault(name, {}).setdefault(label, net)
        if known != net:
            raise AssertionError(f"{name} {label}: nets {known} and {net}")
        label_of[key] = (*label_of.get(key, ()), (name, label))

    for key, net in ends.items():
        k, r, p, _ = key
        label = RESULT_NAMES[r]
        if r == 0 and _by_total(rules, KINDS[k]):
            totals = sorted({e[3] for e, n in ends.items() if e[:2] == (k, 0) and n == net})
            label = "win on " + ", ".join(map(str, totals))
        count_as(key, line_name(KINDS[k], p), label, net)
    for k, ok, name in _full_odds_lines(program, rules, stake):
        combined: dict[tuple[int, int, int, int], tuple[str, Fraction]] = {}
        for (kk, r, p, t), net in ends.items():
            if kk != k:
                continue
            money = net * int(stake[k, 0])
            if p:
                ro = int(tabs.odds_res[ok, r + WIN]) - WIN
                money += ends[(ok, ro, p, t)] * int(stake[ok, p])
            where = "on point" if p else "on the come-out"
            combined[(k, r, p, t)] = (where, money / int(stake[k, 0]))
        for key, (where, net) in combined.items():
            r = key[1]
            label = f"{RESULT_NAMES[r]} {where}"
            if where == "on point":  # the points whose ends net the same: "lose on point 4, 10"
                same = {
                    e[2] for e, (w, n) in combined.items() if e[1] == r and (w, n) == (where, net)
                }
                label += " " + ", ".join(map(str, sorted(same)))
            count_as(key, name, label, net)
    kinds = np.array([_CODE[n] for n in program.flat], dtype=np.int8)
    return CompiledProgram(
        program, rules, kinds, stake, won, max_pointed, _PROPS_CODE[program.props], labels,
        label_of,
    )  # fmt: skip


_COMPILED: dict[tuple[CrapsProgram, str], CompiledProgram] = {}


def compile_program(
    program: CrapsProgram | None = None, rules: CrapsRules | None = None
) -> CompiledProgram:
    """The kernel's arrays for ``program`` at a table with ``rules`` (cached)."""
    program = program or DEFAULT_PROGRAM
    rules = rules or CrapsRules()
    key = (program, json.dumps(rules.to_json(), sort_keys=True))
    if key not in _COMPILED:
        _COMPILED[key] = _compile(program, rules)
    return _COMPILED[key]


# === The numba core =========================================================================


@njit(cache=True)
def _play(
    d1: np.ndarray,
    d2: np.ndarray,
    start: int,
    st: np.ndarray,  # int64 [2]: table point, number of live bets
    lk: np.ndarray,  # int8 [MAX_LIVE]: live flat bets: kind
    lp: np.ndarray,  # int8: point (0: none)
    ls: np.ndarray,  # int64: stake
    lo: np.ndarray,  # int64: odds stake laid on it (0: none)
    unpointed: np.ndarray,  # int64 [NK]: live bets of each kind without a point
    pointed: np.ndarray,  # int64 [NK]: with a point
    res: np.ndarray,
    odds_res: np.ndarray,
    next_point: np.ndarray,
    odds_kind: np.ndarray,
    when: np.ndarray,
    kinds: np.ndarray,
    stake: np.ndarray,
    won: np.ndarray,
    max_pointed: np.ndarray,
    props: int,
    counts: np.ndarray,  # int64 [NK, 3, 13, 13]: (kind, result, point, total)
    record: bool,
    r_placed: np.ndarray,
    r_returned: np.ndarray,
    r_net: np.ndarray,
    r_dec: np.ndarray,
    dk: np.ndarray,
    dp: np.ndarray,
    dr: np.ndarray,
    ds: np.ndarray,
    dw: np.ndarray,
) -> tuple[int, int]:
    """Play rolls ``start`` … of the dice; stop early when the decision buffer could fill.
    Returns (next roll, decisions recorded). The placement policy is CrapsProgram's."""
    point = st[0]
    n = st[1]
    nd = 0
    cap = dk.shape[0]
    i = start
    while i < d1.shape[0]:
        if record and cap - nd < MAX_LIVE * 2:
            break
        placed = 0
        # --- bets down before the roll (CR-R6, CR-12) ---
        for j in range(kinds.shape[0]):
            k = kinds[j]
            w = when[k]
            if w == 0 and point != 0:
                continue
            if w == 1 and point == 0:
                continue
            if w == 3 and ((props == 1 and point == 0) or (props == 2 and point != 0)):
                continue
            if unpointed[k] > 0 or pointed[k] >= max_pointed[k]:
                continue
            lk[n] = k
            lp[n] = 0
            ls[n] = stake[k, 0]
            lo[n] = 0
            unpointed[k] += 1
            placed += stake[k, 0]
            n += 1
        for j in range(n):  # odds on every line bet with a point (CR-2.2, CR-3.2)
            ok = odds_kind[lk[j]]
            if ok >= 0 and lp[j] != 0 and lo[j] == 0 and stake[ok, lp[j]] > 0:
                lo[j] = stake[ok, lp[j]]
                placed += lo[j]
        # --- the roll (CR-1) and its decisions ---
        a = d1[i] - 1
        b = d2[i] - 1
        t = a + b + 2
        net = 0
        returned = 0
        decided = 0
        m = 0
        for j in range(n):
            k = lk[j]
            p = lp[j]
            r = res[k, p, a, b]
            if r == 0:  # stands
                pass
            elif r == 1:  # the bet gets its point
                lp[m] = t
                unpointed[k] -= 1
                pointed[k] += 1
            else:
                if p == 0:
                    unpointed[k] -= 1
                else:
                    pointed[k] -= 1
                for side in range(2):
                    if side == 0:
                        kk = k
                        rr = r
                        s = ls[j]
                    else:
                        if lo[j] == 0:
                            break
                        kk = odds_kind[k]
                        rr = odds_res[kk, r]
                        s = lo[j]
                    counts[kk, rr - 2, p, t] += 1
                    w_ = 0
                    if rr == 2:
                        w_ = won[kk, p, t]
                        net += w_
                        returned += s + w_
                    elif rr == 3:
                        net -= s
                    else:
                        returned += s
                    if record:
                        dk[nd] = kk
                        dp[nd] = p
                        dr[nd] = rr - 2
                        ds[nd] = s
                        dw[nd] = w_
                        nd += 1
                    decided += 1
                continue
            # the bet stays: compact it into place m
            if r != 1:
                lp[m] = p
            lk[m] = k
            ls[m] = ls[j]
            lo[m] = lo[j]
            m += 1
        n = m
        point = next_point[point, a, b]
        if record:
            r_placed[i] = placed
            r_returned[i] = returned
            r_net[i] = net
            r_dec[i] = decided
        i += 1
    st[0] = point
    st[1] = n
    return i, nd


_ROLL_KEYS = ("die1", "die2", "total", "placed", "returned", "net", "decisions")
_DECISION_KEYS = (
    "decision_kind",
    "decision_point",
    "decision_result",
    "decision_stake",
    "decision_won",
)


class _State:
    """The game state between kernel calls: the point and the bets on the layout."""

    def __init__(self) -> None:
        self.st = np.zeros(2, dtype=np.int64)
        self.lk = np.zeros(MAX_LIVE, dtype=np.int8)
        self.lp = np.zeros(MAX_LIVE, dtype=np.int8)
        self.ls = np.zeros(MAX_LIVE, dtype=np.int64)
        self.lo = np.zeros(MAX_LIVE, dtype=np.int64)
        self.unpointed = np.zeros(NK, dtype=np.int64)
        self.pointed = np.zeros(NK, dtype=np.int64)
        self.counts = np.zeros((NK, 3, 13, 13), dtype=np.int64)


class _Run:
    """One simulation: feeds dice blocks to the kernel, collects counts and series."""

    def __init__(self, compiled: CompiledProgram, series: bool) -> None:
        self.c = compiled
        self.tabs = _tables()
        self.state = _State()
        self.series = series
        self.rolls = 0
        self.parts: dict[str, list[np.ndarray]] = {}
        cap = _DECISION_BLOCK if series else 1
        self.dec: tuple[np.ndarray, ...] = (
            np.zeros(cap, dtype=np.int8),
            np.zeros(cap, dtype=np.int8),
            np.zeros(cap, dtype=np.int8),
            np.zeros(cap, dtype=np.int64),
            np.zeros(cap, dtype=np.int64),
        )

    def feed(self, d1: np.ndarray, d2: np.ndarray) -> None:
        n = d1.shape[0]
        size = n if self.series else 0
        per_roll = [np.zeros(size, dtype=np.int64) for _ in range(3)]
        r_dec = np.zeros(size, dtype=np.int16)
        s, c, tb = self.state, self.c, self.tabs
        i = 0
        while i < n:
            i_next, nd = _play(
                d1, d2, i, s.st, s.lk, s.lp, s.ls, s.lo, s.unpointed, s.pointed,
                tb.res, tb.odds_res, tb.next_point, tb.odds_kind, tb.when,
                c.kinds, c.stake, c.won, c.max_pointed, c.props, s.counts,
                self.series, per_roll[0], per_roll[1], per_roll[2], r_dec, *self.dec,
            )  # fmt: skip
            if self.series:
                for name, arr in zip(_DECISION_KEYS, self.dec, strict=True):
                    self.parts.setdefault(name, []).append(arr[:nd].copy())
            i = i_next
        self.rolls += n
        if self.series:
            self.parts.setdefault("die1", []).append(d1.astype(np.int8))
            self.parts.setdefault("die2", []).append(d2.astype(np.int8))
            self.parts.setdefault("total", []).append((d1 + d2).astype(np.int8))
            for name, arr in zip(("placed", "returned", "net"), per_roll, strict=True):
                self.parts.setdefault(name, []).append(arr)
            self.parts.setdefault("decisions", []).append(r_dec)

    def result(self) -> ChunkResult:
        counts = _counts(self.c, self.state.counts)
        series: dict[str, np.ndarray] = {}
        if self.series:
            for key in (*_ROLL_KEYS, *_DECISION_KEYS):
                parts = self.parts.get(key, [])
                dtype = _DTYPES.get(key, np.int64)
                series[key] = np.concatenate(parts) if parts else np.zeros(0, dtype=dtype)
        return ChunkResult(GAME, self.rolls, counts, _nets(self.c), series)


def _counts(c: CompiledProgram, arr: np.ndarray) -> dict[str, dict[str, int]]:
    """Fold the kernel's (kind, result, point, total) counts into the PAR's labels."""
    out = {name: dict.fromkeys(labels, 0) for name, labels in c.labels.items()}
    for k, r, p, t in zip(*np.nonzero(arr), strict=True):
        ends = c.label_of.get((int(k), int(r), int(p), int(t)))
        if ends is None:
            raise AssertionError(f"kernel decision {KIND_NAMES[k]} {r} {p} {t} not reachable")
        for name, label in ends:
            out[name][label] += int(arr[k, r, p, t])
    return out


def _nets(c: CompiledProgram) -> dict[str, dict[str, Fraction]]:
    return {name: dict(labels) for name, labels in c.labels.items()}


# === Entry points ===========================================================================

_DTYPES: dict[str, type[np.integer[Any]]] = {
    "die1": np.int8,
    "die2": np.int8,
    "total": np.int8,
    "decisions": np.int16,
    "decision_kind": np.int8,
    "decision_point": np.int8,
    "decision_result": np.int8,
}
_OPTIONS = ("program", "rules", "odds_cap", "series")


def _from_options(options: Mapping[str, object]) -> tuple[CompiledProgram, bool]:
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise InvalidInput(
            f"unknown craps simulation option(s) {sorted(unknown)}; options: {', '.join(_OPTIONS)}"
        )
    program = options.get("program")
    if program is not None and not isinstance(program, CrapsProgram):
        if isinstance(program, Mapping | list | tuple):
            program = CrapsProgram(program)
        else:
            raise InvalidInput(f"program: a CrapsProgram or (bet, units) pairs, not {program!r}")
    rules = options.get("rules") or CrapsRules()
    if not isinstance(rules, CrapsRules):
        raise InvalidInput(f"rules: a CrapsRules, not {rules!r}")
    cap = options.get("odds_cap")
    if cap is not None:
        if cap not in ("winnings", "stake"):
            raise InvalidInput(f"odds_cap is 'winnings' or 'stake', not {cap!r}", rule="CR-R2")
        rules = dataclasses.replace(rules, odds_cap=cap)
    return compile_program(program, rules), bool(options.get("series", False))


def simulate_chunk(
    seed: int, chunk: int, rounds: int, options: Mapping[str, object]
) -> ChunkResult:
    """Roll ``rounds`` times from ``chunk_generator(seed, chunk)`` with the program of
    ``options`` (keys: ``program`` — a :class:`CrapsProgram` or (bet, units) pairs, default
    :data:`DEFAULT_PROGRAM`; ``rules`` — :class:`CrapsRules`; ``odds_cap`` — overrides the
    rules' option, CR-R2; ``series`` — fill the per-roll and per-decision arrays).

    The table starts on a come-out with no bets down; deterministic in (seed, chunk, rounds,
    options)."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 0:
        raise InvalidInput(f"rounds: a number of rolls >= 0, not {rounds!r}")
    compiled, series = _from_options(options)
    gen = chunk_generator(seed, chunk)
    run = _Run(compiled, series)
    left = rounds
    while left > 0:
        block = min(left, _DICE_BLOCK)
        run.feed(*draw_dice(gen, block))
        left -= block
    return run.result()


# --- Dice from the Generator's raw bits ------------------------------------------------------

_DIE1 = np.repeat(np.arange(1, 7, dtype=np.int8), 6)
_DIE2 = np.tile(np.arange(1, 7, dtype=np.int8), 6)
_THRESHOLD = (1 << 32) % 36  # Lemire: of 2**32 values, reject the 4 that would bias (CR-1)


@njit(cache=True)
def _dice_from_bits(raw: np.ndarray, d1: np.ndarray, d2: np.ndarray, start: int) -> int:
    """Fill ``d1``/``d2`` from ``start`` with fair throws, two per 64-bit word (high half
    first): the 36 outcomes are ``(v * 36) >> 32`` of a 32-bit ``v``, rejecting the words
    whose low product is under ``2**32 % 36`` (Lemire's method: exactly uniform).
    Returns how far the dice were filled."""
    i = start
    n = d1.shape[0]
    mask = np.uint64(0xFFFFFFFF)
    shift = np.uint64(32)
    six = np.uint64(36)
    threshold = np.uint64(_THRESHOLD)
    for j in range(raw.shape[0]):
        x = raw[j]
        for half in range(2):
            if i >= n:
                return i
            v = (x >> shift) if half == 0 else (x & mask)
            m = v * six
            if (m & mask) < threshold:
                continue
            outcome = m >> shift  # 0 … 35: die1 = outcome // 6 + 1, die2 = outcome % 6 + 1
            d1[i] = _DIE1[outcome]
            d2[i] = _DIE2[outcome]
            i += 1
    return i


class _Generator(Protocol):
    """A numpy Generator from :mod:`kernels.rng` (typed here without naming numpy.random,
    which only that module may use)."""

    @property
    def bit_generator(self) -> Any: ...


def draw_dice(gen: _Generator, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` fair throws (die1, die2 as int8 arrays) from ``gen``'s raw 64-bit output (about
    1.5x cheaper than ``gen.integers(1, 7, …)``); deterministic in the Generator's state."""
    d1 = np.empty(n, dtype=np.int8)
    d2 = np.empty(n, dtype=np.int8)
    filled = 0
    while filled < n:  # a rejection costs a half word: top up (rarely, by a few words)
        words = (n - filled + 1) // 2 + 1
        filled = _dice_from_bits(gen.bit_generator.random_raw(words), d1, d2, filled)
    return d1, d2


def _dice_arrays(dice: Iterable[tuple[int, int]] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    arr = np.asarray(list(dice) if not isinstance(dice, np.ndarray) else dice)
    if arr.size == 0:
        arr = arr.reshape(0, 2)
    if arr.ndim != 2 or arr.shape[1] != 2 or arr.dtype.kind not in "iu":
        raise InvalidInput("dice: a sequence of (die1, die2) integer pairs", rule="CR-1")
    if arr.size and (arr.min() < 1 or arr.max() > 6):
        raise InvalidInput("a die shows 1 to 6", rule="CR-1")
    return (
        np.ascontiguousarray(arr[:, 0], dtype=np.int8),
        np.ascontiguousarray(arr[:, 1], dtype=np.int8),
    )


def run_dice(
    dice: Iterable[tuple[int, int]] | np.ndarray,
    program: CrapsProgram | None = None,
    rules: CrapsRules | None = None,
    *,
    series: bool = False,
) -> ChunkResult:
    """The kernel on explicit dice ((die1, die2) pairs, an (n, 2) array): the same core as
    :func:`simulate_chunk`, for comparisons with the engine."""
    d1, d2 = _dice_arrays(dice)
    run = _Run(compile_program(program, rules), series)
    run.feed(d1, d2)
    return run.result()


def run_engine(
    dice: Iterable[tuple[int, int]] | np.ndarray,
    program: CrapsProgram | None = None,
    rules: CrapsRules | None = None,
    *,
    series: bool = False,
) -> ChunkResult:
    """The readable path: the same program played on a :class:`CrapsTable`, roll by roll
    (placement through ``place_bet``, resolution and payment by the engine), counted the
    same way. Slow; the reference the kernel is tested against."""
    c = compile_program(program, rules)
    d1s, d2s = _dice_arrays(dice)
    cur = c.rules.currency
    wallet = Money(c.rules.max_bet.minor * 1000, cur)
    table = CrapsTable.seated(("sim",), c.rules, chips=wallet)
    raw = np.zeros((NK, 3, 13, 13), dtype=np.int64)  # (kind, result, point, total)
    cols: dict[str, list[int]] = {}
    for a, b in zip(d1s.tolist(), d2s.tolist(), strict=True):
        if table.balance("sim") < wallet:
            table.buy_in("sim", wallet)
        placed = 0
        mine = table.bets_of("sim")
        for name, units in c.program.flat.items():
            kind = KINDS[_CODE[name]]
            if kind.when is When.COME_OUT and table.point is not None:
                continue  # CR-R6: Pass/Don't Pass on a come-out only
            if kind.when is When.POINT_ON and table.point is None:
                continue  # CR-R6: Come/Don't Come while a point is on
            if kind.when is When.ANY_ROLL and (
                (c.program.props == "point" and table.point is None)
                or (c.program.props == "come_out" and table.point is not None)
            ):
                continue
            same = [x for x in mine if x.kind == name]
            if any(x.point is None for x in same):
                continue
            if len(same) >= c.max_pointed[_CODE[name]]:
                continue
            flat = Money.of(units, cur)
            table.place_bet("sim", kind, flat)
            placed += flat.minor
        for bet in table.bets_of("sim"):
            okind = int(_tables().odds_kind[_CODE[bet.kind]])
            if okind < 0 or bet.point is None or table.odds_on(bet.id) is not None:
                continue
            amount = int(c.stake[okind, bet.point])
            if amount:
                table.place_bet("sim", KINDS[okind], Money(amount, cur), on=bet.id)
                placed += amount
        before = {x.id: x for x in table.bets}
        table.throw_dice(a, b)
        settled = table.last_roll
        assert settled is not None
        net = returned = 0
        decided = sorted(settled.results, key=lambda r: r["bet"])
        for r in decided:
            bet = before[r["bet"]]
            result = RESULT_NAMES.index(r["result"])
            point = bet.point or 0
            raw[_CODE[bet.kind], result, point, a + b] += 1
            won, stake = int(r["won"]), int(r["stake"])
            net += won if result == 0 else -stake if result == 1 else 0
            returned += stake + won if result != 1 else 0
            if series:
                cols.setdefault("decision_kind", []).append(_CODE[bet.kind])
                cols.setdefault("decision_point", []).append(point)
                cols.setdefault("decision_result", []).append(result)
                cols.setdefault("decision_stake", []).append(stake)
                cols.setdefault("decision_won", []).append(won)
        if series:
            for key, value in (
                ("die1", a),
                ("die2", b),
                ("total", a + b),
                ("placed", placed),
                ("returned", returned),
                ("net", net),
                ("decisions", len(decided)),
            ):
                cols.setdefault(key, []).append(value)  # fmt: skip
    out: dict[str, np.ndarray] = {}
    if series:
        out = {
            k: np.asarray(cols.get(k, []), dtype=_DTYPES.get(k, np.int64))
            for k in (*_ROLL_KEYS, *_DECISION_KEYS)
        }
    return ChunkResult(GAME, len(d1s), _counts(c, raw), _nets(c), out)
