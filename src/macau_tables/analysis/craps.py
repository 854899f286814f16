"""Exact craps PAR sheet (Portaria 97/85/M, ``../shared/rules/craps-1985.md``).

There is no second copy of the pay table here: every line is built from the engine's own
bet data (:func:`macau_tables.games.craps.iter_kinds`): a bet's :attr:`CrapsBetKind.resolve`
decides each of the 36 :data:`DICE_OUTCOMES` from each state the bet can be in, and
:meth:`CrapsRules.payout` says what a win pays. The states form an absorbing Markov chain
(come-out → a point → win / lose / push); :func:`absorb` solves it exactly over
:class:`~fractions.Fraction` (Gauss-Jordan on ``(I - Q) X = [R | 1]``), giving each
outcome's probability and the expected number of rolls to resolution.

A *position* is what the chain walks: the bets of one line as the engine's
:class:`OpenBet` values, each with its stake per unit of the line (:class:`Held`). A line
is one bet from placement (Pass Line, Field …), one odds bet on one point (its flat bet
rides along with stake 0, only to decide it, as ``WithItsBet`` needs, CR-2.2 / CR-3.2), or
a flat bet with the full odds the cap allows laid as soon as it has its point (CR-2.2,
CR-R2).

:func:`craps_par` with ``through_table=True`` is the plain path: the same chain, each
transition read off a real :class:`CrapsTable` (bets placed, dice thrown, the ledger's
results read back), so the exact sheet can be checked against the engine's settlement.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal, TypeAlias, TypeVar

from macau_tables.analysis.par import BetLine, Outcome, ParSheet, percent
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import Money
from macau_tables.games.craps import (
    BET_KINDS,
    DICE_OUTCOMES,
    FINAL,
    POINTS,
    ByNumber,
    CrapsBetKind,
    CrapsRules,
    CrapsTable,
    Decision,
    Dice,
    Odds,
    OpenBet,
    PerUnits,
    Result,
    When,
    iter_kinds,
    placed_id,
)

__all__ = [
    "CrapsLine",
    "End",
    "Held",
    "Position",
    "absorb",
    "craps_lines",
    "craps_par",
    "full_odds_stake",
    "step",
    "win_ratio",
]

PLAYER = "par"
_NOMINAL = Money(1)  # the OpenBet amount in a position: resolvers never read it


# === The chain's vocabulary ===================================================================


@dataclass(frozen=True)
class Held:
    """A bet of a position: the engine's bet and its stake per unit of the line (0 for a
    flat bet carried only so that the odds on it are decided with it, CR-2.2 / CR-3.2)."""

    bet: OpenBet
    stake: Fraction


Position: TypeAlias = tuple[Held, ...]  # flat bet first, then the odds on it (engine order)

Labels: TypeAlias = Literal["plain", "total", "point"]


@dataclass(frozen=True)
class End:
    """How a line ended: its result, net and total stake per unit of the line (the stake
    grows when full odds are laid), and what to label it by (``where`` + ``number``:
    ``"on"`` 12 for a Field win, ``"on point"`` 4 for a combination)."""

    result: Result
    net: Fraction
    stake: Fraction = Fraction(1)
    where: str = ""
    number: int | None = None


@dataclass(frozen=True)
class CrapsLine:
    """One line of the sheet: where its chain starts and how it is labelled.

    ``full_odds``: the odds kind laid at the cap (CR-2.2, CR-R2) as soon as the flat bet
    has its point (the "Pass + full odds" combinations); ``unit``: the stake of one unit
    of the line, for the table path (``"base"``, or ``"block"`` for a Big bet, CR-R4).
    """

    name: str
    rule: str
    pays: str
    start: Position
    labels: Labels = "plain"
    full_odds: str | None = None
    unit: Literal["base", "block"] = "base"
    notes: tuple[str, ...] = ()


S = TypeVar("S", bound=Hashable)


# === The exact solve ==========================================================================


def absorb(start: S, move: Callable[[S, Dice], S | End]) -> tuple[dict[End, Fraction], Fraction]:
    """Walk the chain from ``start`` over the 36 dice outcomes of every state it reaches, and
    solve it exactly: the probability of each :class:`End`, and the expected rolls to one.

    ``move(state, dice)`` returns the next state, or the :class:`End` that dice make.
    Raises :class:`InvalidInput` if some state can never be resolved.
    """
    index: dict[S, int] = {start: 0}
    states: list[S] = [start]
    q_rows: list[dict[int, Fraction]] = []
    r_rows: list[dict[End, Fraction]] = []
    ends: dict[End, int] = {}
    while len(q_rows) < len(states):
        state = states[len(q_rows)]
        q: dict[int, Fraction] = {}
        r: dict[End, Fraction] = {}
        for dice, p in DICE_OUTCOMES:
            nxt = move(state, dice)
            if isinstance(nxt, End):
                r[nxt] = r.get(nxt, Fraction(0)) + p
                ends.setdefault(nxt, len(ends))
            else:
                j = index.setdefault(nxt, len(states))
                if j == len(states):
                    states.append(nxt)
                q[j] = q.get(j, Fraction(0)) + p
        q_rows.append(q)
        r_rows.append(r)
    n, m = len(states), len(ends) + 1  # the last column: expected rolls
    # (I - Q) X = [R | 1], as one augmented matrix of exact fractions
    rows = [
        [(Fraction(i == j) - q_rows[i].get(j, Fraction(0))) for j in range(n)]
        + [r_rows[i].get(e, Fraction(0)) for e in ends]
        + [Fraction(1)]
        for i in range(n)
    ]
    for col in range(n):
        pivot = next((i for i in range(col, n) if rows[i][col] != 0), None)
        if pivot is None:
            raise InvalidInput("a craps bet in this rule set can never be resolved")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        inv = 1 / rows[col][col]
        rows[col] = [x * inv for x in rows[col]]
        for i in range(n):
            f = rows[i][col]
            if i != col and f != 0:
                rows[i] = [a - f * b for a, b in zip(rows[i], rows[col], strict=True)]
    solution = rows[0][n:]
    probabilities = {e: solution[k] for e, k in ends.items() if solution[k] != 0}
    return probabilities, solution[m - 1]


# === One roll of a position (the engine's own resolution and pay tables) ======================


def win_ratio(rules: CrapsRules, bet: OpenBet, dice: Dice) -> Fraction:
    """Winnings per unit staked when ``dice`` decide ``bet`` as a win: the pay table of
    :meth:`CrapsTable.winnings`, exact (no rounding).

    A Big bet (CR-9 … CR-11, CR-R4) is paid per full block of units: its ratio is that of a
    stake of exactly one block (``PerUnits.winnings`` of ``units × big_unit``).
    """
    payout = rules.payout(BET_KINDS[bet.kind])
    if isinstance(payout, PerUnits):
        block = rules.big_unit * payout.units
        return Fraction(payout.winnings(block, rules.big_unit).minor, block.minor)
    if isinstance(payout, ByNumber):
        payout = payout.odds_for(bet.point if payout.of == "point" else dice.total)
    return payout.ratio


def full_odds_stake(rules: CrapsRules, odds_kind: CrapsBetKind, point: int) -> Fraction:
    """The largest odds stake per unit of flat bet on ``point`` (CR-2.2, CR-3.2, CR-R2):
    the stake whose winnings equal the flat bet (``odds_cap="winnings"``), or the flat bet
    itself (``odds_cap="stake"``)."""
    if rules.odds_cap == "stake":
        return Fraction(1)
    payout = rules.payout(odds_kind)
    odds = payout.odds_for(point) if isinstance(payout, ByNumber) else payout
    if not isinstance(odds, Odds) or odds.ratio <= 0:
        raise InvalidInput(
            f"{odds_kind.label} on {point} pays {odds}: no cap on its stake", rule=odds_kind.rule
        )
    return 1 / odds.ratio


def _end(
    line: CrapsLine, result: Result, net: Fraction, stake: Fraction, dice: Dice, point: int | None
) -> End:
    """The labelled end of ``line`` (``point``: the flat bet's point before the roll)."""
    if line.labels == "total" and result is Result.WIN:
        return End(result, net, stake, "on", dice.total)
    if line.labels == "point":
        if point is None:
            return End(result, net, stake, "on the come-out")
        return End(result, net, stake, "on point", point)
    return End(result, net, stake)


def step(rules: CrapsRules, line: CrapsLine, position: Position, dice: Dice) -> Position | End:
    """One roll: every bet of ``position`` resolved by its kind's ``resolve``, flat bets
    before the odds on them (as ``CrapsTable._settle`` does); a line bet that gets its point
    moves to it (CR-2.1), and under ``line.full_odds`` the capped odds are laid on it."""
    decided: dict[int, Decision] = {}
    for held in position:
        decided[held.bet.id] = BET_KINDS[held.bet.kind].resolve(held.bet, dice, decided)
    final = [decided[h.bet.id].result in FINAL for h in position]
    if all(final):
        net = Fraction(0)
        for h in position:
            result = decided[h.bet.id].result
            if result is Result.WIN:
                net += h.stake * win_ratio(rules, h.bet, dice)
            elif result is Result.LOSE:
                net -= h.stake
        lead = next(h for h in position if h.stake)
        stake = sum((h.stake for h in position), Fraction(0))
        return _end(line, decided[lead.bet.id].result, net, stake, dice, position[0].bet.point)
    if any(final):
        raise InvalidInput(f"{line.name}: a bet decided without the bet it is laid on")
    moved: list[Held] = []
    for h in position:
        d = decided[h.bet.id]
        if d.result is not Result.POINT:
            moved.append(h)
            continue
        bet = dataclasses.replace(h.bet, point=d.point)
        moved.append(Held(bet, h.stake))
        if line.full_odds is not None and d.point is not None:
            kind = BET_KINDS[line.full_odds]
            odds = OpenBet(bet.id + 1, PLAYER, kind.name, _NOMINAL, d.point, bet.id)
            moved.append(Held(odds, h.stake * full_odds_stake(rules, kind, d.point)))
    return tuple(moved)


# === The lines ================================================================================


def _points_of(kind: CrapsBetKind) -> list[int]:
    """The points a flat bet can get: its own resolution of the 36 outcomes from placement."""
    bet = OpenBet(1, PLAYER, kind.name, _NOMINAL)
    got = {kind.resolve(bet, d, {}).point for d, _ in DICE_OUTCOMES}
    return sorted(p for p in got if p is not None)


def _payout_text(rules: CrapsRules, kind: CrapsBetKind, point: int | None = None) -> str:
    payout = rules.payout(kind)
    if point is not None and isinstance(payout, ByNumber) and payout.of == "point":
        return str(payout.odds_for(point))
    if isinstance(payout, PerUnits):
        # "7 for 6" would read as 1:6 in casino notation ("for" includes the stake); the
        # text 「六元投注金可贏取七元彩金」 is winnings of 7 on 6: 7:6 per full unit (CR-R4).
        return f"{payout.wins}:{payout.units} per full {payout.units} U"
    return str(payout)


def craps_lines(rules: CrapsRules | None = None) -> tuple[CrapsLine, ...]:
    """The lines of the sheet, in the engine's article order: every bet from placement,
    the odds / lay odds one line per point, then the full-odds combinations."""
    rules = rules or CrapsRules()
    kinds = list(iter_kinds())
    odds_on = {k.on: k for k in kinds if k.on is not None}
    lines: list[CrapsLine] = []
    for kind in kinds:
        if kind.on is None:
            payout = rules.payout(kind)
            by_total = isinstance(payout, ByNumber) and payout.of == "total"
            big = isinstance(payout, PerUnits)
            notes: tuple[str, ...] = ()
            if big:
                assert isinstance(payout, PerUnits)
                notes = (
                    f"net per stake of one block of {payout.units} U (CR-R4); a stake of k "
                    f"blocks and r U more wins {payout.wins}k + r",
                )
            start: Position = (Held(OpenBet(1, PLAYER, kind.name, _NOMINAL), Fraction(1)),)
            lines.append(
                CrapsLine(
                    kind.label, kind.rule, _payout_text(rules, kind), start,
                    labels="total" if by_total else "plain", unit="block" if big else "base",
                    notes=notes,
                )
            )  # fmt: skip
            continue
        flat = BET_KINDS[kind.on]
        for point in _points_of(flat):
            parent = OpenBet(1, PLAYER, flat.name, _NOMINAL, point)
            odds = OpenBet(2, PLAYER, kind.name, _NOMINAL, point, 1)
            start = (Held(parent, Fraction(0)), Held(odds, Fraction(1)))
            name = f"{kind.label} on {point}"
            lines.append(CrapsLine(name, kind.rule, _payout_text(rules, kind, point), start))
    for kind in kinds:
        if kind.when is When.COME_OUT and kind.name in odds_on:
            odds_kind = odds_on[kind.name]
            what = odds_kind.label.removeprefix(kind.label).strip()
            start = (Held(OpenBet(1, PLAYER, kind.name, _NOMINAL), Fraction(1)),)
            cap = "winnings ≤ flat bet" if rules.odds_cap == "winnings" else "stake ≤ flat bet"
            lines.append(
                CrapsLine(
                    f"{kind.label} + full {what}", f"{kind.rule}, {odds_kind.rule}",
                    f"{_payout_text(rules, kind)} + {what} at the cap ({cap})", start,
                    labels="point", full_odds=odds_kind.name,
                    notes=(
                        f"nets per unit of {kind.label}; the {what} laid at the cap "
                        f"(CR-2.2, CR-R2, odds_cap={rules.odds_cap!r}) once the point is set; "
                        "house edge column per unit of flat bet, combined_edge per unit of "
                        "expected total stake (mean_stake)",
                    ),
                )
            )  # fmt: skip
    return tuple(lines)


# === The plain path: each transition read off a real CrapsTable ==============================

# a table state: (kind, point, stake in minor units, counted in the line's net?) per bet
TableState: TypeAlias = tuple[tuple[str, int | None, int, bool], ...]


class _TablePath:
    """Plays one line's transitions on fresh :class:`CrapsTable` instances: bets placed
    through ``place_bet`` (timing and odds cap checked by the engine), dice thrown through
    ``throw_dice``, results and winnings read from the ``RollSettled`` event."""

    def __init__(self, rules: CrapsRules) -> None:
        cur = rules.currency
        self.rules = dataclasses.replace(rules, min_bet=Money(1, cur), max_bet=Money(10**15, cur))
        ratios: list[int] = [1]
        for kind in iter_kinds():
            payout = rules.payout(kind)
            table = payout.table if isinstance(payout, ByNumber) else ()
            default = payout.default if isinstance(payout, ByNumber) else payout
            for odds in [o for _, o in table] + [default]:
                if isinstance(odds, Odds):
                    ratios += [max(odds.win, 1), odds.per]
        # every capped stake (× per / win) and every winnings (× win / per) is whole
        self.base = math.lcm(*ratios)

    def unit(self, line: CrapsLine) -> int:
        if line.unit == "block":
            payout = self.rules.payout(BET_KINDS[line.start[0].bet.kind])
            assert isinstance(payout, PerUnits)
            return self.rules.big_unit.minor * payout.units
        return self.base

    def start(self, line: CrapsLine) -> TableState:
        unit = self.unit(line)
        state: list[tuple[str, int | None, int, bool]] = []
        for h in line.start:
            if h.stake:
                state.append((h.bet.kind, h.bet.point, _whole(h.stake * unit), True))
            else:  # a flat bet carried for its odds: large enough for the odds' cap
                kind = BET_KINDS[h.bet.kind]
                odds_kind = next(k for k in iter_kinds() if k.on == kind.name)
                assert h.bet.point is not None
                room = 1 / full_odds_stake(self.rules, odds_kind, h.bet.point)
                state.append((h.bet.kind, h.bet.point, unit * math.ceil(room), False))
        return tuple(state)

    def table(self, state: TableState) -> tuple[CrapsTable, list[int]]:
        t = CrapsTable.seated((PLAYER,), self.rules, chips=Money(10**18, self.rules.currency))
        ids: list[int] = []
        for name, point, minor, _ in state:
            kind = BET_KINDS[name]
            amount = Money(minor, self.rules.currency)
            if kind.on is not None:
                ids.append(placed_id(t.place_bet(PLAYER, kind, amount, on=ids[0])))
                continue
            if kind.when is When.POINT_ON and t.point is None:
                t.throw_dice(*_dice_for(POINTS[0]))
            ids.append(placed_id(t.place_bet(PLAYER, kind, amount)))
            if point is not None:
                t.throw_dice(*_dice_for(point))
            if t.bet(ids[-1]).point != point:
                raise InvalidInput(f"cannot set up {kind.label} on {point} at a table")
        return t, ids

    def move(self, line: CrapsLine, state: TableState, dice: Dice) -> TableState | End:
        t, ids = self.table(state)
        t.throw_dice(dice.d1, dice.d2)
        assert t.last_roll is not None
        results = {r["bet"]: r for r in t.last_roll.results}
        if all(i in results for i in ids):
            won = staked = 0
            for i, (_, _, _, counted) in zip(ids, state, strict=True):
                r = results[i]
                if counted:
                    won += {"win": r["won"], "lose": -r["stake"], "push": 0}[r["result"]]
                    staked += r["stake"]
            lead = next(i for i, s in zip(ids, state, strict=True) if s[3])
            unit = self.unit(line)
            result = Result(results[lead]["result"])
            net, stake = Fraction(won, unit), Fraction(staked, unit)
            return _end(line, result, net, stake, dice, state[0][1])
        if any(i in results for i in ids):
            raise InvalidInput(f"{line.name}: a bet decided without the bet it is laid on")
        moved: list[tuple[str, int | None, int, bool]] = []
        for i, (_, _, _, counted) in zip(ids, state, strict=True):
            bet = t.bet(i)
            moved.append((bet.kind, bet.point, bet.amount.minor, counted))
        got = {p["bet"]: p["point"] for p in t.last_roll.points}
        if line.full_odds is not None and ids[0] in got:
            kind = BET_KINDS[line.full_odds]
            stake = moved[0][2] * full_odds_stake(self.rules, kind, got[ids[0]])
            moved.append((kind.name, got[ids[0]], _whole(stake), True))
        return tuple(moved)


def _whole(x: Fraction) -> int:
    if x.denominator != 1:
        raise InvalidInput(f"a stake of {x} minor units is not whole")
    return x.numerator


def _dice_for(total: int) -> tuple[int, int]:
    return next((d.d1, d.d2) for d, _ in DICE_OUTCOMES if d.total == total)


# === The sheet ================================================================================

_ORDER = {Result.WIN: 0, Result.PUSH: 1, Result.LOSE: 2}


def _outcomes(probabilities: Mapping[End, Fraction]) -> tuple[Outcome, ...]:
    """Ends merged by (result, net, where): ``win on 2, 12`` / ``win on 3, 4, 9, 10, 11``."""
    groups: dict[tuple[Result, Fraction, str], tuple[list[int], Fraction]] = {}
    for end, p in probabilities.items():
        numbers, total = groups.get((end.result, end.net, end.where), ([], Fraction(0)))
        if end.number is not None:
            numbers.append(end.number)
        groups[(end.result, end.net, end.where)] = (numbers, total + p)
    rows: list[tuple[tuple[int, Fraction, int], str, Fraction, Fraction]] = []
    for (result, net, where), (numbers, p) in groups.items():
        numbers.sort()
        label = " ".join(x for x in (result.value, where, ", ".join(map(str, numbers))) if x)
        rows.append(((_ORDER[result], -net, numbers[0] if numbers else 0), label, net, p))
    rows.sort(key=lambda row: row[0])
    labels = [label for _, label, _, _ in rows]
    return tuple(
        Outcome(label if labels.count(label) == 1 else f"{label} ({net:+})", net, p)
        for _, label, net, p in rows
    )


def _bet_line(rules: CrapsRules, line: CrapsLine, table: _TablePath | None) -> BetLine:
    if table is None:
        probabilities, rolls = absorb(line.start, lambda s, d: step(rules, line, s, d))
    else:
        probabilities, rolls = absorb(table.start(line), lambda s, d: table.move(line, s, d))
    bet = BetLine(line.name, _outcomes(probabilities), line.rule, line.pays, {}, line.notes)
    loss = bet.house_edge  # per unit of the line (of the flat bet, for a combination)
    stake = sum((p * e.stake for e, p in probabilities.items()), Fraction(0))
    pushed = sum(
        (p * e.stake for e, p in probabilities.items() if e.result is Result.PUSH), Fraction(0)
    )
    edge = loss / stake  # per unit of expected total stake
    extras: dict[str, Fraction] = {}
    if line.full_odds is not None:
        extras["mean_stake"] = stake
        extras["combined_edge"] = edge
    extras["edge_per_roll"] = edge / rolls
    extras["mean_rolls"] = rolls
    if pushed:  # a pushed bet counted as never made
        extras["edge_excluding_push"] = loss / (stake - pushed)
    notes = line.notes
    payout = rules.payout(BET_KINDS[line.start[0].bet.kind])
    if line.unit == "block" and isinstance(payout, PerUnits):
        small = 1 - 2 * bet.probability(Result.WIN.value)  # a stake under one block: 1 to 1
        notes = (*notes, f"a stake under {payout.units} U wins even money: edge {percent(small)}")
    return dataclasses.replace(bet, extras=extras, notes=notes)


def craps_par(rules: CrapsRules | None = None, *, through_table: bool = False) -> ParSheet:
    """The exact PAR sheet of every bet of the Macau pay table under ``rules``.

    ``through_table=True`` computes the same sheet with every transition played on a real
    :class:`CrapsTable` (the plain, slow path; the figures must be identical).
    """
    rules = CrapsRules() if rules is None else rules
    if not isinstance(rules, CrapsRules):
        raise InvalidInput(f"craps_par takes CrapsRules, not {type(rules).__name__}")
    path = _TablePath(rules) if through_table else None
    lines = tuple(_bet_line(rules, line, path) for line in craps_lines(rules))
    return ParSheet(
        "craps",
        "Craps (Portaria 97/85/M): exact PAR sheet",
        rules.to_json(),
        lines,
        notes=_NOTES,
    )


_NOTES: tuple[str, ...] = (
    "Exact over the 36 dice outcomes from every state (come-out, each point) as an absorbing "
    "Markov chain; the resolution and pay tables are the engine's own (games.craps).",
    "Nets are per unit staked, exact; the table rounds fractional winnings to the minor unit "
    "(CrapsRules.rounding): the figures are those of stakes whose winnings are whole.",
    "Per bet resolved: a push (the bar 12 of Don't Pass / Don't Come, CR-3.1, CR-3.3) counts "
    "as a resolved bet (the standard convention); edge_excluding_push counts only bets "
    "decided by a win or a loss.",
    "edge_per_roll = house edge / mean_rolls, mean_rolls = the expected rolls from placement "
    "to resolution (a push roll included).",
    "Odds lines: the odds stake alone, on one point, decided with its flat bet (CR-2.2, "
    "CR-3.2); Come / Don't Come from placement (CR-2.3, CR-3.3).",
    "Big bets (CR-9 to CR-11): per stake of one whole block (CR-R4); a 7 loses (CR-R3).",
)
