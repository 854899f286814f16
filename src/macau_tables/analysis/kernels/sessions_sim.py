"""Numba cores of :mod:`macau_tables.analysis.sessions`: many betting sessions over one
compiled outcome series, and the craps dice-to-decisions pass.

Money is integer *sub-units*: every net of every column, times ``scale`` (the least common
multiple of the nets' denominators, see ``sessions.Rounds.scale``), is an integer, so
these loops are exact. ``sessions.play`` is the readable definition (Fractions, one session
at a time); the tests compare the two on random series.

A column ``j`` pays, on a stake of ``s`` whole units, ``x = s * m_num // m_den`` (the stake
of that part of the bet) and then ``(x // unit) * group + (x % unit) * rest`` sub-units,
rounded down to a multiple of ``quantum`` sub-units if that is not 0, ``count[r, j]`` times
in round ``r``. That one formula covers even money, 19/20 after
commission, the craps odds (stake floored to whole units, CR-2.2) and the Big bets' payouts
per full unit group (CR-R4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

F = TypeVar("F", bound=Callable[..., Any])

I64 = npt.NDArray[np.int64]
U8 = npt.NDArray[np.uint8]
I8 = npt.NDArray[np.int8]
B1 = npt.NDArray[np.bool_]

# systems (the same numbers as sessions.SYSTEM_CODES)
FLAT, MARTINGALE, PAROLI, DALEMBERT, FIBONACCI = 0, 1, 2, 3, 4
# how a session ended (sessions.ENDS)
COMPLETED, RUIN, STOP_LOSS, STOP_WIN = 0, 1, 2, 3


def _jit(func: F) -> F:
    """``numba.njit(cache=True)``, keeping the Python signature for the type checker."""
    return cast(F, njit(cache=True)(func))


@_jit
def _column_net(col: I64, s: int) -> int:
    x = s * col[0] // col[1]
    v = (x // col[2]) * col[3] + (x % col[2]) * col[4]
    if col[5] > 0:
        v = (v // col[5]) * col[5]  # rounded down to the minor unit (craps odds)
    return int(v)


@_jit
def _stake(system: int, level: int, base: int, steps: int, fib: I64, table_max: int) -> int:
    """The stake for a progression level, capped at the table maximum."""
    if system == FLAT:
        s = base
    elif system in (MARTINGALE, PAROLI):
        if level >= 62 or base > (table_max >> level):  # base * 2**level > table_max
            return table_max
        s = base << level
    elif system == DALEMBERT:
        s = base * level
    else:  # fib[-1] is the first Fibonacci number whose stake passes the table maximum
        s = table_max if level >= fib.shape[0] else base * fib[level]
    return min(s, table_max)


@_jit
def _next_level(system: int, level: int, sign: int, steps: int) -> int:
    """The next progression level after a decision won (+1), lost (-1) or pushed (0)."""
    if sign == 0 or system == FLAT:
        return level
    if system == MARTINGALE:
        return 0 if sign > 0 else min(level + 1, 62)
    if system == PAROLI:
        return (level + 1) % steps if sign > 0 else 0
    if system == DALEMBERT:
        return max(1, level - 1) if sign > 0 else level + 1
    # FIBONACCI
    return max(0, level - 2) if sign > 0 else level + 1


@_jit
def play_sessions(
    active: B1,
    counts: U8,
    columns: I64,
    cover: I64,
    scale: int,
    system: int,
    steps: int,
    fib: I64,
    base: int,
    table_max: int,
    bankroll: int,
    stop_loss: int,
    stop_win: int,
    length: int,
    sessions: int,
    keep: int,
) -> tuple[I64, I64, I8, I64]:
    """Play ``sessions`` sessions of ``length`` rounds, session ``i`` on rounds
    ``i*length …``; money in sub-units (``bankroll``, ``stop_loss``, ``stop_win``: 0 = none;
    ``columns[j]``: (m_num, m_den, unit, group, rest, quantum), the last three in sub-units; the
    player must hold ``scale * Σ_k s * cover[k, 0] // cover[k, 1]`` to place a stake ``s``).

    Returns final bankrolls, rounds played, how each ended, and the bankroll after every
    round of the first ``keep`` sessions (``paths[i, 0]`` the start; held flat after the end).
    """
    final = np.zeros(sessions, dtype=np.int64)
    played = np.zeros(sessions, dtype=np.int64)
    ended = np.zeros(sessions, dtype=np.int8)
    paths = np.zeros((keep, length + 1), dtype=np.int64)
    first_level = 1 if system == DALEMBERT else 0
    if keep > sessions:
        keep = sessions
    n_cols = columns.shape[0]
    for i in range(sessions):
        money = bankroll
        level = first_level
        end = COMPLETED
        r0 = i * length
        done = 0
        if i < keep:
            paths[i, 0] = money
        for k in range(length):
            r = r0 + k
            if active[r]:
                s = _stake(system, level, base, steps, fib, table_max)
                need = 0
                for c in range(cover.shape[0]):
                    need += s * cover[c, 0] // cover[c, 1]
                if need * scale > money:
                    end = RUIN
                    break
                net = 0
                for j in range(n_cols):
                    if counts[r, j]:
                        net += counts[r, j] * _column_net(columns[j], s)
                money += net
                sign = 1 if net > 0 else (-1 if net < 0 else 0)
                level = _next_level(system, level, sign, steps)
            done = k + 1
            if i < keep:
                paths[i, k + 1] = money
            if stop_loss > 0 and money <= bankroll - stop_loss:
                end = STOP_LOSS
                break
            if stop_win > 0 and money >= bankroll + stop_win:
                end = STOP_WIN
                break
        if i < keep:
            for k in range(done + 1, length + 1):
                paths[i, k] = money
        final[i] = money
        played[i] = done
        ended[i] = end
    return final, played, ended, paths


# --- craps: dice to line decisions -----------------------------------------------------------


@_jit
def craps_decisions(
    totals: I8, dont: bool, bigs: I64, start_rows: int
) -> tuple[I8, I8, I64, I64, I64]:
    """Cut a roll series into line decisions (CR-2.1 Pass Line, or CR-3.1 Don't Pass).

    Each decision starts on a come-out roll and ends when the line bet is decided. Returns,
    per decision: the line result (+1 win, -1 lose, 0 push: Don't Pass bars 12, CR-3.1),
    the point (0: decided on the come-out), the number of rolls, and for each Big number
    in ``bigs`` (CR-9 to CR-11, working on every roll, CR-R8; re-placed after each win;
    a 7 loses it, CR-R3; taken down unresolved when the line decision ends, CR-R6) how many
    times it won and lost during the decision.
    """
    n = totals.shape[0]
    cap = max(n, 1)  # at most one decision per roll
    result = np.zeros(cap, dtype=np.int8)
    point_of = np.zeros(cap, dtype=np.int8)
    rolls = np.zeros(cap, dtype=np.int64)
    big_won = np.zeros((cap, bigs.shape[0]), dtype=np.int64)
    big_lost = np.zeros((cap, bigs.shape[0]), dtype=np.int64)
    d = 0
    point = 0
    count = 0
    for r in range(start_rows, n):
        t = totals[r]
        count += 1
        for b in range(bigs.shape[0]):
            if t == bigs[b]:
                big_won[d, b] += 1
            elif t == 7:
                big_lost[d, b] += 1
        decided = 0
        res = 0
        if point == 0:
            if t == 7 or t == 11:
                decided, res = 1, 1
            elif t == 2 or t == 3:
                decided, res = 1, -1
            elif t == 12:
                decided, res = 1, -1
                if dont:
                    res = 1  # negated below: the bar, a push (CR-3.1)
            else:
                point = t
        elif t == point:
            decided, res = 1, 1
        elif t == 7:
            decided, res = 1, -1
        if decided:
            if dont:
                res = -res
                if point == 0 and t == 12:
                    res = 0
            result[d] = res
            point_of[d] = point
            rolls[d] = count
            d += 1
            point = 0
            count = 0
            if d == cap:
                break
    return result[:d], point_of[:d], rolls[:d], big_won[:d], big_lost[:d]
