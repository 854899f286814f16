"""Exact baccarat enumeration, compiled: every ordered deal of six cards from a composition.

The kernel walks the hand as BA-7.1 deals it (Player, Banker, Player, Banker), then Player's
third card (BA-9.1 / BA-9.2) and Banker's (BA-9.3 / BA-9.4), over card *values* (BA-5: ten,
jack, queen and king are one class worth 0), weighting each sequence of values by the number
of ordered ways to draw it from the shoe. The drawing rules are not written here: they come
in as tables built from the engine's :func:`~macau_tables.games.baccarat.player_draws` and
:func:`~macau_tables.games.baccarat.banker_draws` (:func:`draw_tables`), so the engine stays
the one definition of BA-9.

Counting convention (the standard one): a hand is counted out of the
``n (n-1) (n-2) (n-3) (n-4) (n-5)`` ordered deals of six cards from the ``n`` in the shoe; a
hand that uses four or five cards counts every ordering of the unused ones, i.e. its ordered
draws are multiplied by ``(n-4)(n-5)`` or ``(n-5)``.

Overflow (int64): every count the kernel forms is a product of a falling factorial — the
ways to draw the cards already dealt (``n (n-1) … (n-k+1)`` at most) times the orderings of
the unused ones — so each term, and each sum of terms over disjoint deals, is at most the
total ``n (n-1) … (n-5) < n**6``. The callers allow at most 12 decks (BA-1), ``n <= 624``, and
``624**6 ≈ 5.9e16 < 2**63 - 1 ≈ 9.2e18`` (indeed any ``n <= 1448`` would fit). The wrapper
:func:`totals_matrix` checks ``n`` before calling, and returns Python ints.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
from numba import njit

from macau_tables.games.baccarat import banker_draws, player_draws

#: the most cards the int64 argument above allows the kernel to be called with (12 decks)
MAX_CARDS = 12 * 52
#: index of "Player did not draw" in the Banker table's last axis (values 0–9 are 0–9)
STOOD = 10


@cache
def draw_tables() -> tuple[np.ndarray, np.ndarray]:
    """BA-9 as data, read off the engine: ``player[pt, bt]`` (does Player draw on two-card
    totals ``pt``, ``bt``), ``banker[bt, pt, third]`` (does Banker draw; ``third`` is the
    value of Player's third card, or :data:`STOOD`)."""
    player = np.zeros((10, 10), dtype=np.bool_)
    banker = np.zeros((10, 10, 11), dtype=np.bool_)
    for pt in range(10):
        for bt in range(10):
            player[pt, bt] = player_draws(pt, bt)
            banker[bt, pt, STOOD] = banker_draws(bt, pt, None)
            for third in range(10):
                banker[bt, pt, third] = banker_draws(bt, pt, third)
    player.setflags(write=False)
    banker.setflags(write=False)
    return player, banker


@njit(cache=True)
def _totals_kernel(counts: np.ndarray, pdraw: np.ndarray, bdraw: np.ndarray) -> np.ndarray:
    """``out[pt, bt]``: the number of ordered six-card deals whose hand ends with Player on
    ``pt`` and Banker on ``bt``. ``counts[v]`` is the number of cards of value ``v`` (0–9);
    it is changed while the kernel runs and restored when it returns."""
    c = counts
    n = c.sum()
    rest4 = (n - 4) * (n - 5)  # orderings of the two unused cards of a four-card hand
    rest5 = n - 5  # … of the one unused card of a five-card hand
    out = np.zeros((10, 10), dtype=np.int64)
    for p1 in range(10):  # BA-7.1: Player, Banker, Player, Banker
        w1 = c[p1]
        if w1 == 0:
            continue
        c[p1] -= 1
        for b1 in range(10):
            w2 = w1 * c[b1]
            if w2 == 0:
                continue
            c[b1] -= 1
            for p2 in range(10):
                w3 = w2 * c[p2]
                if w3 == 0:
                    continue
                c[p2] -= 1
                pt = (p1 + p2) % 10
                for b2 in range(10):
                    w4 = w3 * c[b2]
                    if w4 == 0:
                        continue
                    c[b2] -= 1
                    bt = (b1 + b2) % 10
                    if pdraw[pt, bt]:  # BA-9.1
                        for p3 in range(10):
                            w5 = w4 * c[p3]
                            if w5 == 0:
                                continue
                            pt3 = (pt + p3) % 10
                            if bdraw[bt, pt, p3]:  # BA-9.3
                                c[p3] -= 1
                                for b3 in range(10):
                                    out[pt3, (bt + b3) % 10] += w5 * c[b3]
                                c[p3] += 1
                            else:  # BA-9.4
                                out[pt3, bt] += w5 * rest5
                    elif bdraw[bt, pt, 10]:  # BA-9.3 (6): Player stood, Banker draws
                        for b3 in range(10):
                            out[pt, (bt + b3) % 10] += w4 * c[b3] * rest5
                    else:  # BA-9.2 / BA-9.4: both stand
                        out[pt, bt] += w4 * rest4
                    c[b2] += 1
                c[p2] += 1
            c[b1] += 1
        c[p1] += 1
    return out


def totals_matrix(value_counts: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """``m[pt][bt]``: ordered six-card deals from a shoe with ``value_counts[v]`` cards of
    value ``v`` (0–9, BA-5) that end with Player on ``pt`` and Banker on ``bt`` — exact
    Python ints. The shoe must hold 6 to :data:`MAX_CARDS` cards (callers validate the
    composition against BA-1 first; this only guards the int64 argument)."""
    if len(value_counts) != 10 or any(v < 0 for v in value_counts):
        raise ValueError(f"ten non-negative counts by value, not {value_counts!r}")
    n = sum(value_counts)
    if not 6 <= n <= MAX_CARDS:
        raise ValueError(f"{n} cards: the kernel counts shoes of 6 to {MAX_CARDS} cards")
    pdraw, bdraw = draw_tables()
    counts = np.array(value_counts, dtype=np.int64)
    out = _totals_kernel(counts, pdraw, bdraw)
    return tuple(tuple(int(x) for x in row) for row in out.tolist())
