"""Players, betting systems and sessions, replayed on a simulation's outcome series.

One fast simulation (:mod:`macau_tables.analysis.simulation`, with ``options["series"]``)
records what happened each round: the baccarat winner, pairs and Banker sixes; the craps
dice; each tile seat's result against the bank. A *bet program* compiles those series into
:class:`Rounds` — per round, how many times each payout :class:`Column` of the player's bets
applies (and whether the player bets at all that round). A :class:`Player` (bankroll, base
bet, betting :class:`System`, stop-loss, stop-win, session length, table maximum) then plays
consecutive windows of those rounds as independent sessions, so thousands of sessions come
out of one simulation.

Money is exact: stakes and the bankroll are whole units (one pataca); every net is a
Fraction, and is what the engine would pay on that stake: a Banker win nets 19/20 of it
(BA-18; 5% of whole patacas needs no rounding, BA-R5), a 4% or 5% commission likewise
(PG-R5, TW-R3); craps odds winnings are rounded down to the minor unit as the engine rounds
them (a lay of 1 at 2:3 wins 0.66, CR-3.2, ``CrapsRules.rounding``).

The bet programs:

* :class:`BaccaratBets` — one of BA-13's bets, chosen by a selection: :class:`Always`
  (``Always("banker")``) or :class:`AfterStreak` (``AfterStreak("banker", "player", 2)``:
  Banker after two Players, ties skipped). Payouts BA-17, commission BA-18 or BA-R7.
* :class:`CrapsBets` — a line bet (Pass Line CR-2.1 or Don't Pass CR-3.1), optionally with
  the maximum odds (CR-2.2 / CR-3.2, the odds stake floored to whole units) and Big bets
  (CR-9 … CR-11, paid per full unit group, CR-R4) working while the line bet is up. A
  session round is one line decision.
* :class:`TileBets` — one tile seat played against the bank (``role="player"``) or the
  bank itself against every seat (``role="banker"``), commission PG-4.2 / PG-R5 or TW-8 /
  TW-R3.

The betting systems (:class:`Flat`, :class:`Martingale`, :class:`Paroli`,
:class:`DAlembert`, :class:`Fibonacci`, and :class:`Custom` for any Python function of the
:class:`History`) move a level after each decision won, lost or pushed; the stake is
``base × f(level)``, capped at the table maximum. The built-in systems run in a numba loop
(:mod:`macau_tables.analysis.kernels.sessions_sim`, exact integer sub-units);
:func:`play` is the readable definition, one session at a time.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from macau_tables.analysis.par import frac_json
from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import MOP
from macau_tables.games.baccarat import NO_COMMISSION_BANKER_SIX, PAYS, BetKind
from macau_tables.games.craps import BET_KINDS, LAY_ODDS, TAKE_ODDS, ByNumber, PerUnits

# --- payout columns and compiled rounds -----------------------------------------------------


@dataclass(frozen=True)
class Column:
    """One way part of a bet pays. On a stake of ``s`` whole units the part's stake is
    ``x = s * m_num // m_den`` and it nets ``(x // unit) * group + (x % unit) * rest``,
    rounded down to a multiple of ``quantum`` when one is given (the minor unit: craps
    odds winnings, as the engine rounds them, ``CrapsRules.rounding``)."""

    label: str
    group: Fraction
    rest: Fraction = Fraction(0)
    unit: int = 1
    m_num: int = 1
    m_den: int = 1
    quantum: Fraction | None = None

    def part(self, stake: int) -> int:
        return stake * self.m_num // self.m_den

    def net(self, stake: int) -> Fraction:
        x = self.part(stake)
        v = (x // self.unit) * self.group + (x % self.unit) * self.rest
        if self.quantum is not None:
            v = (v // self.quantum) * self.quantum
        return v


U8 = npt.NDArray[np.uint8]
B1 = npt.NDArray[np.bool_]


@dataclass(frozen=True)
class Rounds:
    """What a player's bets do in each round: ``counts[r, j]`` times column ``j``; no bet in
    a round where ``active[r]`` is false. ``cover``: the parts of a stake ``s`` the player
    must hold before betting, ``Σ s * num // den`` (e.g. ``(1, 1)`` the stake itself)."""

    game: str
    description: str
    columns: tuple[Column, ...]
    counts: U8
    active: B1
    cover: tuple[tuple[int, int], ...] = ((1, 1),)
    unit_name: str = "round"

    def __post_init__(self) -> None:
        if self.counts.ndim != 2 or self.counts.shape[1] != len(self.columns):
            raise InvalidInput("counts must have one column per payout column")
        if self.active.shape != (self.counts.shape[0],):
            raise InvalidInput("active must have one entry per round")

    def __len__(self) -> int:
        return int(self.counts.shape[0])

    @property
    def scale(self) -> int:
        """The sub-units per unit that make every net an integer (lcm of denominators)."""
        d = 1
        for c in self.columns:
            d = math.lcm(d, c.group.denominator, c.rest.denominator)
            if c.quantum is not None:
                d = math.lcm(d, c.quantum.denominator)
        return d

    def net(self, r: int, stake: int) -> Fraction:
        """The player's net result in round ``r`` on a stake of ``stake`` units."""
        row = self.counts[r]
        return sum(
            (int(row[j]) * c.net(stake) for j, c in enumerate(self.columns) if row[j]),
            Fraction(0),
        )

    def exposure(self, stake: int) -> int:
        """Units the player must hold to place a stake of ``stake``."""
        return sum(stake * num // den for num, den in self.cover)


def _one_hot(masks: Sequence[npt.NDArray[np.bool_]]) -> U8:
    return np.stack([m.astype(np.uint8) for m in masks], axis=1)


# --- baccarat --------------------------------------------------------------------------------

BACCARAT_BETS = tuple(k.value for k in BetKind)


def _check_bet(bet: str) -> str:
    if bet not in BACCARAT_BETS:
        raise InvalidInput(
            f"no baccarat bet {bet!r}: one of {', '.join(BACCARAT_BETS)}", rule="BA-13"
        )
    return bet


class Selection(Protocol):
    """Which baccarat bet, and in which rounds (a function of the outcomes only)."""

    @property
    def bet(self) -> str: ...

    def mask(self, outcome: npt.NDArray[np.int8]) -> B1: ...


@dataclass(frozen=True)
class Always:
    """Bet ``bet`` every round."""

    bet: str = "banker"

    def __post_init__(self) -> None:
        _check_bet(self.bet)

    def mask(self, outcome: npt.NDArray[np.int8]) -> B1:
        return np.ones(outcome.shape[0], dtype=np.bool_)

    def __str__(self) -> str:
        return f"always {self.bet}"


OUTCOME_CODES = {"player": 0, "banker": 1}  # series["outcome"]: 0 player, 1 banker, 2 tie


@dataclass(frozen=True)
class AfterStreak:
    """Bet ``bet`` only after ``length`` hands in a row won by ``after`` (ties are skipped:
    they neither count nor break the streak), e.g. Banker after two Players."""

    bet: str
    after: str
    length: int = 2

    def __post_init__(self) -> None:
        _check_bet(self.bet)
        if self.after not in OUTCOME_CODES:
            raise InvalidInput(f"a streak is of 'player' or 'banker' wins, not {self.after!r}")
        if self.length < 1:
            raise InvalidInput("a streak is at least one hand")

    def mask(self, outcome: npt.NDArray[np.int8]) -> B1:
        want = OUTCOME_CODES[self.after]
        out = np.zeros(outcome.shape[0], dtype=np.bool_)
        run = 0
        for r, o in enumerate(outcome.tolist()):
            out[r] = run >= self.length
            if o == want:
                run += 1
            elif o != 2:
                run = 0
        return out

    def __str__(self) -> str:
        return f"{self.bet} after {self.length} {self.after} wins"


@dataclass(frozen=True)
class BaccaratBets:
    """One BA-13 bet per round, as ``selection`` says. Payouts BA-17; a Banker win nets
    ``1 - commission`` (BA-18), or with ``no_commission`` (BA-R7) 1, but 1/2 on a six."""

    selection: Selection = field(default_factory=Always)
    commission: Fraction = Fraction(1, 20)
    no_commission: bool = False

    def compile(self, series: Mapping[str, np.ndarray]) -> Rounds:
        outcome = _need(series, "outcome", "baccarat")
        bet = self.selection.bet
        if bet in ("player", "banker"):
            mine, other = OUTCOME_CODES[bet], 1 - OUTCOME_CODES[bet]
            win = outcome == mine
            columns = [Column("win", Fraction(PAYS[BetKind(bet)]))]
            masks = [win]
            if bet == "banker":
                if self.no_commission:  # BA-R7
                    six = _need(series, "banker_six", "baccarat").astype(np.bool_)
                    masks = [win & ~six, win & six]
                    columns = [
                        Column("win", Fraction(1)),
                        Column("win_six", NO_COMMISSION_BANKER_SIX),
                    ]
                else:  # BA-18
                    columns = [Column("win", 1 - self.commission)]
            columns += [Column("lose", Fraction(-1)), Column("push", Fraction(0))]
            masks += [outcome == other, outcome == 2]  # BA-12: a tie pushes
        else:
            # BA-12 a tie; BA-13 the pairs
            win = outcome == 2 if bet == "tie" else _need(series, bet, "baccarat").astype(np.bool_)
            columns = [Column("win", Fraction(PAYS[BetKind(bet)])), Column("lose", Fraction(-1))]
            masks = [win, ~win]
        return Rounds(
            "baccarat", str(self.selection), tuple(columns), _one_hot(masks),
            self.selection.mask(outcome), unit_name="hand",
        )  # fmt: skip


def _need(series: Mapping[str, np.ndarray], key: str, game: str) -> np.ndarray:
    if key not in series:
        raise InvalidInput(
            f"the {game} series has no {key!r}: simulate with options['series'] = True"
        )
    return series[key]


# --- craps -----------------------------------------------------------------------------------

POINT_GROUPS = ((4, 10), (5, 9), (6, 8))
MINOR_UNIT = Fraction(1, MOP.scale)  # craps odds winnings are rounded down to it
BIG_NUMBERS = (4, 5, 6, 8, 9, 10)  # CR-9 … CR-11


def _big_payout(n: int) -> PerUnits:
    """CR-R4: Big ``n`` wins ``wins`` per full ``units`` staked, even money on the rest."""
    payout = BET_KINDS[f"big{n}"].pays
    assert isinstance(payout, PerUnits)
    return payout


@dataclass(frozen=True)
class CrapsBets:
    """A line bet with optional maximum odds and Big bets; one session round per decision.

    ``line``: ``"pass"`` (CR-2.1) or ``"dont_pass"`` (CR-3.1). ``odds``: ``"max"`` — the
    largest whole-unit odds stake whose winnings do not exceed the line bet (CR-2.2, and
    CR-R2 for the lay), or with ``odds_cap="stake"`` the line bet itself (CR-R2) —, or
    ``"none"``. ``bigs``: Big numbers (6, 8 …) bet ``big_ratio`` × the stake each, from the
    come-out roll while the line bet is up (CR-12, CR-R8), re-placed after each win and
    taken down when the line decision comes (CR-R6); each pays per full unit group (CR-R4).
    """

    line: Literal["pass", "dont_pass"] = "pass"
    odds: Literal["max", "none"] = "none"
    bigs: tuple[int, ...] = ()
    big_ratio: Fraction = Fraction(1)
    odds_cap: Literal["winnings", "stake"] = "winnings"

    def __post_init__(self) -> None:
        if self.line not in ("pass", "dont_pass"):
            raise InvalidInput(f"the line bet is pass or dont_pass, not {self.line!r}")
        if self.odds not in ("max", "none"):
            raise InvalidInput(f"odds are 'max' or 'none', not {self.odds!r}")
        if self.odds_cap not in ("winnings", "stake"):
            raise InvalidInput(f"odds_cap is 'winnings' or 'stake', not {self.odds_cap!r}")
        for n in self.bigs:
            if n not in BIG_NUMBERS:
                raise InvalidInput(f"no Big {n}: Big 4, 5, 6, 8, 9 or 10", rule="CR-9")
        if len(set(self.bigs)) != len(self.bigs):
            raise InvalidInput("each Big bet once")
        if self.big_ratio <= 0:
            raise InvalidInput("the Big bets' stake ratio must be positive")

    def __str__(self) -> str:
        parts = ["Pass Line" if self.line == "pass" else "Don't Pass"]
        if self.odds == "max":
            parts.append("max odds")
        if self.bigs:
            parts.append(" and ".join(f"Big {n}" for n in self.bigs))
        return " + ".join(parts)

    def _odds_table(self) -> ByNumber:
        return LAY_ODDS if self.line == "dont_pass" else TAKE_ODDS

    def odds_multiplier(self, point: int) -> Fraction:
        """The odds stake as a multiple of the line bet (before flooring to whole units)."""
        if self.odds_cap == "stake":
            return Fraction(1)  # CR-R2 option
        return 1 / self._odds_table().odds_for(point).ratio  # CR-2.2: winnings <= the bet

    def columns(self) -> tuple[Column, ...]:
        cols = [
            Column("line_win", Fraction(1)),
            Column("line_lose", Fraction(-1)),
            Column("line_push", Fraction(0)),
        ]
        if self.odds == "max":
            for group in POINT_GROUPS:
                m = self.odds_multiplier(group[0])
                pays = self._odds_table().odds_for(group[0]).ratio
                name = "/".join(map(str, group))
                cols.append(
                    Column(f"odds_win_{name}", pays, m_num=m.numerator, m_den=m.denominator,
                           quantum=MINOR_UNIT)
                )  # fmt: skip
            for group in POINT_GROUPS:
                m = self.odds_multiplier(group[0])
                name = "/".join(map(str, group))
                cols.append(
                    Column(
                        f"odds_lose_{name}", Fraction(-1), m_num=m.numerator, m_den=m.denominator
                    )
                )
        r = self.big_ratio
        for n in self.bigs:
            big = _big_payout(n)
            cols.append(
                Column(
                    f"big{n}_win",
                    Fraction(big.wins),
                    Fraction(1),
                    big.units,
                    r.numerator,
                    r.denominator,
                )
            )
            cols.append(
                Column(f"big{n}_lose", Fraction(-1), m_num=r.numerator, m_den=r.denominator)
            )
        return tuple(cols)

    def cover(self) -> tuple[tuple[int, int], ...]:
        parts = [(1, 1)]
        if self.odds == "max":
            m = max(self.odds_multiplier(g[0]) for g in POINT_GROUPS)
            parts.append((m.numerator, m.denominator))
        parts += [(self.big_ratio.numerator, self.big_ratio.denominator)] * len(self.bigs)
        return tuple(parts)

    def compile(self, series: Mapping[str, np.ndarray]) -> Rounds:
        from macau_tables.analysis.kernels.sessions_sim import craps_decisions

        totals = _need(series, "total", "craps").astype(np.int8)
        bigs = np.array(self.bigs, dtype=np.int64)
        result, point, _rolls, won, lost = craps_decisions(
            totals, self.line == "dont_pass", bigs, 0
        )
        return self.rounds_from(result, point, won, lost)

    def rounds_from(
        self,
        result: npt.NDArray[np.int8],
        point: npt.NDArray[np.int8],
        big_won: npt.NDArray[np.int64],
        big_lost: npt.NDArray[np.int64],
    ) -> Rounds:
        """Rounds from line decisions (result +1/-1/0 and point per decision) and Big bet
        wins/losses per decision (see ``kernels.sessions_sim.craps_decisions``)."""
        masks: list[npt.NDArray[np.bool_]] = [result > 0, result < 0, result == 0]
        counts = [m.astype(np.uint8) for m in masks]
        if self.odds == "max":
            for sign in (1, -1):
                for group in POINT_GROUPS:
                    on = np.isin(point, group) & (result == sign)
                    counts.append(on.astype(np.uint8))
        for b in range(len(self.bigs)):
            if big_won.shape[0] and max(int(big_won[:, b].max()), int(big_lost[:, b].max())) > 255:
                raise InvalidInput("a Big bet decided more than 255 times in one line decision")
            counts.append(big_won[:, b].astype(np.uint8))
            counts.append(big_lost[:, b].astype(np.uint8))
        matrix = np.stack(counts, axis=1) if len(result) else np.zeros((0, len(counts)), np.uint8)
        return Rounds(
            "craps", str(self), self.columns(), matrix.astype(np.uint8),
            np.ones(len(result), dtype=np.bool_), self.cover(), unit_name="line decision",
        )  # fmt: skip


# --- the tile games --------------------------------------------------------------------------


@dataclass(frozen=True)
class TileBets:
    """``role="player"``: one unit bet on seat ``seat`` (0 = the first player seat) against
    the bank: wins net ``1 - commission`` (PG-4.2 4%, TW-8 5%), loses -1, pushes 0
    (PG-6.3/PG-6.4, TW-6c). ``role="banker"``: the bank takes one bet of the stake on every
    player seat and must cover them all (PG-4.5, TW-5c); commission on the round's net win
    (``"net"``, PG-R5) or on each bet won (``"per_bet"``, TW-R3). Defaults: the game's."""

    game: Literal["paigow", "taiwan"] = "paigow"
    role: Literal["player", "banker"] = "player"
    seat: int = 0
    commission: Fraction | None = None
    bank_commission: Literal["net", "per_bet"] | None = None

    def __post_init__(self) -> None:
        if self.game not in ("paigow", "taiwan"):
            raise InvalidInput(f"the tile games are paigow and taiwan, not {self.game!r}")
        if self.role not in ("player", "banker"):
            raise InvalidInput(f"the role is player or banker, not {self.role!r}")

    def _rules(self) -> tuple[Fraction, str]:
        from macau_tables.games.tiles import paigow, taiwan

        reg = paigow.PAIGOW if self.game == "paigow" else taiwan.TAIWAN
        c = reg.commission if self.commission is None else self.commission
        mode = reg.bank_commission_default if self.bank_commission is None else self.bank_commission
        return c, mode

    def __str__(self) -> str:
        # seat_result column s is seat s + 2: the banker sits at seat 1 (PG-R1, TW-2b)
        return f"{self.game} {'bank' if self.role == 'banker' else f'seat {self.seat + 2}'}"

    def compile(self, series: Mapping[str, np.ndarray]) -> Rounds:
        seats = _need(series, "seat_result", self.game)
        if seats.ndim != 2:
            raise InvalidInput("seat_result must be (rounds, seats)")
        c, mode = self._rules()
        n = seats.shape[0]
        if self.role == "player":
            if not 0 <= self.seat < seats.shape[1]:
                raise InvalidInput(f"seat {self.seat}: 0 to {seats.shape[1] - 1}")
            res = seats[:, self.seat]
            cols: tuple[Column, ...] = (
                Column("win", 1 - c),
                Column("loss", Fraction(-1)),
                Column("push", Fraction(0)),
            )
            counts = _one_hot([res > 0, res < 0, res == 0])
            return Rounds(
                self.game, str(self), cols, counts, np.ones(n, np.bool_), unit_name="round"
            )
        won = (seats < 0).sum(axis=1)  # seats the bank beat
        lost = (seats > 0).sum(axis=1)
        k = seats.shape[1]
        if mode == "per_bet":  # TW-R3: commission on each bet the bank wins
            cols = (Column("seat_won", 1 - c), Column("seat_lost", Fraction(-1)))
            counts = np.stack([won, lost], axis=1).astype(np.uint8)
        else:  # PG-R5: on the round's net win
            diff = won - lost
            col_list, masks = [], []
            for d in range(-k, k + 1):
                if d > 0:
                    col_list.append(Column(f"net+{d}", 1 - c, m_num=d))
                elif d < 0:
                    col_list.append(Column(f"net{d}", Fraction(-1), m_num=-d))
                else:
                    col_list.append(Column("net0", Fraction(0)))
                masks.append(diff == d)
            cols, counts = tuple(col_list), _one_hot(masks)
        return Rounds(self.game, str(self), cols, counts, np.ones(n, np.bool_), ((k, 1),), "round")


# --- betting systems -------------------------------------------------------------------------


@dataclass
class History:
    """What a :class:`Custom` system sees: the session so far."""

    base: int
    bankroll: Fraction
    round: int = 0  # rounds elapsed in the session
    stakes: list[int] = field(default_factory=list)
    nets: list[Fraction] = field(default_factory=list)


class System(Protocol):
    """A betting system: a level that moves after each decision; the stake follows it."""

    @property
    def name(self) -> str: ...

    def start(self) -> int: ...

    def stake(self, level: int, base: int, history: History) -> int: ...

    def next(self, level: int, sign: int) -> int: ...


@dataclass(frozen=True)
class Flat:
    """The same stake every time."""

    name: str = "flat"

    def start(self) -> int:
        return 0

    def stake(self, level: int, base: int, history: History) -> int:
        return base

    def next(self, level: int, sign: int) -> int:
        return level


@dataclass(frozen=True)
class Martingale:
    """Double after a loss, back to the base after a win (level: losses in a row)."""

    name: str = "martingale"

    def start(self) -> int:
        return 0

    def stake(self, level: int, base: int, history: History) -> int:
        return base << level

    def next(self, level: int, sign: int) -> int:
        return level if sign == 0 else (0 if sign > 0 else level + 1)


@dataclass(frozen=True)
class Paroli:
    """Double after a win, up to ``steps`` wins in a row; back to the base after a loss or
    after the last step."""

    steps: int = 3
    name: str = "paroli"

    def __post_init__(self) -> None:
        if not 1 <= self.steps <= 60:
            raise InvalidInput("Paroli steps: 1 to 60")

    def start(self) -> int:
        return 0

    def stake(self, level: int, base: int, history: History) -> int:
        return base << level

    def next(self, level: int, sign: int) -> int:
        return level if sign == 0 else ((level + 1) % self.steps if sign > 0 else 0)


@dataclass(frozen=True)
class DAlembert:
    """One base unit more after a loss, one less after a win (never below one unit)."""

    name: str = "dalembert"

    def start(self) -> int:
        return 1

    def stake(self, level: int, base: int, history: History) -> int:
        return base * level

    def next(self, level: int, sign: int) -> int:
        return level if sign == 0 else (max(1, level - 1) if sign > 0 else level + 1)


def fibonacci(i: int) -> int:
    """1, 1, 2, 3, 5, 8 … (``fibonacci(0) == fibonacci(1) == 1``)."""
    a, b = 1, 1
    for _ in range(i):
        a, b = b, a + b
    return a


@dataclass(frozen=True)
class Fibonacci:
    """One step up the Fibonacci sequence after a loss, two steps down after a win."""

    name: str = "fibonacci"

    def start(self) -> int:
        return 0

    def stake(self, level: int, base: int, history: History) -> int:
        return base * fibonacci(level)

    def next(self, level: int, sign: int) -> int:
        return level if sign == 0 else (max(0, level - 2) if sign > 0 else level + 1)


@dataclass(frozen=True)
class Custom:
    """Any function of the session's :class:`History` returning the next stake in whole
    units (0: sit this round out). Runs in plain Python."""

    fn: Callable[[History], int]
    name: str = "custom"

    def start(self) -> int:
        return 0

    def stake(self, level: int, base: int, history: History) -> int:
        return self.fn(history)

    def next(self, level: int, sign: int) -> int:
        return level


SYSTEMS: Mapping[str, type[Flat | Martingale | Paroli | DAlembert | Fibonacci]] = {
    "flat": Flat,
    "martingale": Martingale,
    "paroli": Paroli,
    "dalembert": DAlembert,
    "fibonacci": Fibonacci,
}


def system(name: str) -> System:
    """A built-in system by name."""
    try:
        return SYSTEMS[name]()
    except KeyError:
        raise InvalidInput(f"no betting system {name!r}: one of {', '.join(SYSTEMS)}") from None


# --- the player and one session (the readable definition) ------------------------------------

ENDS = ("completed", "ruin", "stop_loss", "stop_win")


@dataclass(frozen=True)
class Player:
    """A bankroll in whole units, a base bet, a system, limits and a session length.

    The session ends on ruin (the bankroll cannot cover the next bet), on the stop-loss
    (bankroll ≤ start − stop_loss), on the stop-win (bankroll ≥ start + stop_win), or after
    ``session_rounds`` rounds. Stakes are capped at ``table_max`` (default 1000 × bet).
    """

    bankroll: int
    bet: int
    system: System = field(default_factory=Flat)
    stop_loss: int | None = None
    stop_win: int | None = None
    session_rounds: int = 100
    table_max: int | None = None

    def __post_init__(self) -> None:
        for name in ("bankroll", "bet", "session_rounds"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise InvalidInput(f"{name} must be a positive whole number, not {v!r}")
        for name in ("stop_loss", "stop_win", "table_max"):
            v = getattr(self, name)
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise InvalidInput(f"{name} must be a positive whole number, not {v!r}")
        if self.max_bet < self.bet:
            raise InvalidInput(f"the table maximum {self.max_bet} is below the bet {self.bet}")

    @property
    def max_bet(self) -> int:
        return self.table_max if self.table_max is not None else 1000 * self.bet


@dataclass(frozen=True)
class Session:
    final: Fraction
    rounds: int  # rounds played (until the end)
    end: str  # one of ENDS
    path: tuple[Fraction, ...]  # the bankroll at the start and after each round played
    bets: tuple[tuple[int, int], ...] = ()  # (round index in the series, stake) of each bet


def play(rounds: Rounds, player: Player, first: int = 0) -> Session:
    """One session on rounds ``first … first + session_rounds - 1`` (readable, exact)."""
    length = player.session_rounds
    if first < 0 or first + length > len(rounds):
        raise InvalidInput(f"rounds {first}…{first + length - 1} are not in the series")
    start = Fraction(player.bankroll)
    history = History(player.bet, start)
    level = player.system.start()
    path = [start]
    bets: list[tuple[int, int]] = []
    end = "completed"
    for k in range(length):
        r = first + k
        if rounds.active[r]:
            stake = min(player.system.stake(level, player.bet, history), player.max_bet)
            if stake < 0:
                raise InvalidInput(f"a stake of {stake}: stakes are whole units, 0 or more")
            if stake > 0:
                if rounds.exposure(stake) > history.bankroll:
                    end = "ruin"
                    break
                net = rounds.net(r, stake)
                history.bankroll += net
                history.stakes.append(stake)
                bets.append((r, stake))
                history.nets.append(net)
                level = player.system.next(level, (net > 0) - (net < 0))
        history.round = k + 1
        path.append(history.bankroll)
        if player.stop_loss is not None and history.bankroll <= start - player.stop_loss:
            end = "stop_loss"
            break
        if player.stop_win is not None and history.bankroll >= start + player.stop_win:
            end = "stop_win"
            break
    return Session(history.bankroll, history.round, end, tuple(path), tuple(bets))


# --- many sessions ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SessionReport:
    """Sessions of one player on one program: how they ended, final bankrolls, paths."""

    description: str
    player: Player
    finals: tuple[Fraction, ...]
    played: tuple[int, ...]
    ends: tuple[str, ...]
    paths: tuple[tuple[Fraction, ...], ...] = ()  # the first few sessions, for plots
    unit_name: str = "round"

    @property
    def sessions(self) -> int:
        return len(self.finals)

    def p(self, end: str) -> Fraction:
        """The fraction of sessions that ended this way (one of :data:`ENDS`)."""
        return Fraction(sum(1 for e in self.ends if e == end), self.sessions)

    @property
    def risk_of_ruin(self) -> Fraction:
        """Ruined (could not cover the next bet) or stopped by the stop-loss."""
        return self.p("ruin") + self.p("stop_loss")

    @property
    def mean_final(self) -> Fraction:
        return sum(self.finals, Fraction(0)) / self.sessions

    @property
    def mean_rounds(self) -> Fraction:
        return Fraction(sum(self.played), self.sessions)

    def percentile(self, q: float) -> Fraction:
        """Nearest-rank percentile of the final bankrolls (an actual session's figure)."""
        if not 0 <= q <= 100:
            raise InvalidInput(f"a percentile is 0 to 100, not {q}")
        ordered = sorted(self.finals)
        rank = max(1, math.ceil(q / 100 * len(ordered)))
        return ordered[rank - 1]

    def to_json(self) -> dict[str, Any]:
        p = self.player
        return {
            "program": self.description,
            "system": p.system.name,
            "bankroll": p.bankroll,
            "bet": p.bet,
            "stop_loss": p.stop_loss,
            "stop_win": p.stop_win,
            "session_rounds": p.session_rounds,
            "round_is": self.unit_name,
            "table_max": p.max_bet,
            "sessions": self.sessions,
            "ends": {e: frac_json(self.p(e)) for e in ENDS},
            "risk_of_ruin": float(self.risk_of_ruin),
            "p_ruin": float(self.p("ruin")),
            "p_stop_loss": float(self.p("stop_loss")),
            "p_stop_win": float(self.p("stop_win")),
            "mean_final": float(self.mean_final),
            "mean_final_exact": frac_json(self.mean_final),
            "mean_rounds": float(self.mean_rounds),
            "percentiles": {str(q): float(self.percentile(q)) for q in PERCENTILES},
        }


PERCENTILES = (5, 25, 50, 75, 95)
SYSTEM_CODES = {Flat: 0, Martingale: 1, Paroli: 2, DAlembert: 3, Fibonacci: 4}
LIMIT = 1 << 62


def run_sessions(
    rounds: Rounds,
    player: Player,
    sessions: int | None = None,
    *,
    method: Literal["auto", "fast", "readable"] = "auto",
    keep: int = 0,
) -> SessionReport:
    """Sessions on consecutive windows of ``rounds`` (all that fit, or ``sessions``).

    ``method``: ``"fast"`` (the numba loop: built-in systems only), ``"readable"``
    (:func:`play`, one at a time) or ``"auto"`` (fast when it can). ``keep``: how many
    sessions' bankroll paths to return (for plots).
    """
    length = player.session_rounds
    fit = len(rounds) // length
    n = fit if sessions is None else sessions
    if n < 1 or n > fit:
        raise InvalidInput(
            f"{n} sessions of {length} {rounds.unit_name}s need {n * length:,}; "
            f"the series has {len(rounds):,}"
        )
    code = SYSTEM_CODES.get(type(player.system))
    if method == "fast" and code is None:
        raise InvalidInput(f"the {player.system.name} system runs only in plain Python")
    if method == "readable" or code is None:
        played = [play(rounds, player, i * length) for i in range(n)]
        return SessionReport(
            rounds.description, player, tuple(s.final for s in played),
            tuple(s.rounds for s in played), tuple(s.end for s in played),
            tuple(s.path + (s.final,) * (length + 1 - len(s.path)) for s in played[:keep]),
            rounds.unit_name,
        )  # fmt: skip
    return _run_fast(rounds, player, n, code, keep)


def _run_fast(rounds: Rounds, player: Player, n: int, code: int, keep: int) -> SessionReport:
    from macau_tables.analysis.kernels.sessions_sim import play_sessions

    scale = rounds.scale
    top = player.max_bet
    per_round = sum(
        (
            int(rounds.counts[:, j].max(initial=0)) * abs(c.net(top))
            for j, c in enumerate(rounds.columns)
        ),
        Fraction(0),
    )
    bound = (player.bankroll + player.session_rounds * per_round + rounds.exposure(top)) * scale
    if bound >= LIMIT:
        raise InvalidInput("stakes this large could overflow the fast loop; use method='readable'")
    columns = np.array(
        [
            [
                c.m_num,
                c.m_den,
                c.unit,
                int(c.group * scale),
                int(c.rest * scale),
                0 if c.quantum is None else int(c.quantum * scale),
            ]
            for c in rounds.columns
        ],
        dtype=np.int64,
    ).reshape(len(rounds.columns), 6)
    cover = np.array(rounds.cover, dtype=np.int64).reshape(len(rounds.cover), 2)
    fib = [1, 1]
    while player.bet * fib[-1] <= top:
        fib.append(fib[-1] + fib[-2])
    steps = player.system.steps if isinstance(player.system, Paroli) else 1
    final, played, ended, paths = play_sessions(
        rounds.active, np.ascontiguousarray(rounds.counts), columns, cover, scale, code, steps,
        np.array(fib, dtype=np.int64), player.bet, top, player.bankroll * scale,
        (player.stop_loss or 0) * scale, (player.stop_win or 0) * scale,
        player.session_rounds, n, min(keep, n),
    )  # fmt: skip
    return SessionReport(
        rounds.description, player, tuple(Fraction(int(f), scale) for f in final),
        tuple(int(p) for p in played), tuple(ENDS[int(e)] for e in ended),
        tuple(tuple(Fraction(int(v), scale) for v in row) for row in paths),
        rounds.unit_name,
    )  # fmt: skip
