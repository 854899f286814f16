"""Exact counting kernel for one seat against the banker in Pai Gow and Taiwan Pai Kao.

The numbers this module works with (see :mod:`macau_tables.analysis.tiles` for the meaning):

* A **hand class** is a multiset of four tile *types*: the 21 kinds of :data:`DISTINCT_TILES`
  (T-1; 11 of them have two identical copies, 10 one). Identical tiles are the same value
  (:class:`~macau_tables.tiles.tile.Tile` is a value), so every physical four-tile hand of one
  class sets, ranks and compares the same way. From a pool with ``counts[t]`` tiles of type
  ``t`` there are ``prod_t C(counts[t], k[t])`` physical hands of class ``k``: its *weight*.
  The full set has 8,130 classes (the coefficient of x^4 in (1+x+x^2)^11 (1+x)^10), of
  weights summing to C(32, 4) = 35,960.
* A **setting code** is a pair ``(front, back)`` of small integers, *lower is better*: the
  dense rank of each two-tile hand (:func:`~macau_tables.tiles.hands.rank_of`, 1 = 至尊).
  In Pai Gow every front worth 0 points gets one code, worse than every real rank
  (``zero_front``): then PG-6.2 (the banker's 0 beats the player's 0 in front, whatever the
  tiles) is the ordinary rule PG-6.1 (a copy goes to the banker).
* :func:`pair_counts` walks every (first hand class, second hand class) pair that one pool
  can deal, weights it by the number of physical deals of the second class *given* the first
  (``prod_t C(counts[t] - k1[t], k2[t])``), and counts, for each of the first side's ``S``
  candidate settings, how many deals the first side wins, loses or pushes.

Exactness: all arithmetic is int64. A per-class count is at most C(28, 4) = 20,475 and a
weight at most 2^4 = 16, so nothing comes anywhere near 2^63; the callers multiply by the
first class's weight (at most 16) and sum in Python ints.

Only numpy and numba here; the engines and :mod:`macau_tables.analysis.tiles` supply the
codes. The kernel is checked against the readable engine (``paigow.compare_seat``,
``taiwan.compare_seat``) in tests/analysis/test_tiles_par.py.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np

from macau_tables.analysis.kernels.lazyjit import lazy_njit

#: Number of tile types (T-1: 21 kinds, DISTINCT_TILES order).
TYPES = 21

#: ``mode`` of :func:`pair_counts`: who the first side is and which comparison applies.
PG_FIRST_PLAYER = 0  # PG-6.1 / PG-6.3 / PG-6.4, the first side is the player
PG_FIRST_BANKER = 1  # the same rules, the first side is the banker (copies are his)
TW_SYMMETRIC = 2  # TW-6c / TW-9a: no banker advantage, an equal pair lets the other decide

WIN, LOSS, PUSH = 0, 1, 2  # the last axis of pair_counts' result, from the first side's view


@cache
def hand_classes(counts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every four-tile hand class a pool of ``counts`` (per type) can deal.

    Returns ``(k, types, mults, weight)``: ``k[i]`` the class's count of each type (n × 21),
    ``types[i, :]`` / ``mults[i, :]`` its distinct types and their multiplicities (n × 4,
    padded with type 0 / multiplicity 0), and ``weight[i]`` the number of physical hands
    of the class. Classes come in lexicographic order of ``types``, so the order is fixed.
    """
    rows: list[list[int]] = []
    for combo in itertools.combinations_with_replacement(range(TYPES), 4):
        k = [0] * TYPES
        for t in combo:
            k[t] += 1
        if all(k[t] <= counts[t] for t in range(TYPES)):
            rows.append(k)
    n = len(rows)
    kk = np.array(rows, dtype=np.int64).reshape(n, TYPES)
    types = np.zeros((n, 4), dtype=np.int64)
    mults = np.zeros((n, 4), dtype=np.int64)
    weight = np.ones(n, dtype=np.int64)
    for i, k in enumerate(rows):
        e = 0
        for t in range(TYPES):
            if k[t]:
                types[i, e], mults[i, e] = t, k[t]
                weight[i] *= _BINOM[counts[t], k[t]]
                e += 1
    for a in (kk, types, mults, weight):
        a.setflags(write=False)
    return kk, types, mults, weight


#: C(r, m) for r, m in 0..2 (a type never has more than two tiles, T-1).
_BINOM = np.array([[1, 0, 0], [1, 1, 0], [1, 2, 1]], dtype=np.int64)


def _pair_counts(
    counts: np.ndarray,
    first_k: np.ndarray,
    first_codes: np.ndarray,
    second_types: np.ndarray,
    second_mults: np.ndarray,
    second_codes: np.ndarray,
    mode: int,
) -> np.ndarray:  # pragma: no cover - compiled; checked against the engine by tests
    """Win/loss/push counts of each first-side class and candidate setting.

    ``counts`` (21,) the pool; ``first_k`` (n1, 21) the first side's classes; ``first_codes``
    (n1, S, 2) their S candidate settings as (front, back) codes; ``second_types`` /
    ``second_mults`` (n2, 4) the other side's classes (see :func:`hand_classes`);
    ``second_codes`` (n2, 2) the setting each plays. Returns int64 (n1, S, 3): the number of
    physical hands of the second side, dealt from the pool less the first class's tiles, on
    which the first side wins / loses / pushes.
    """
    n1 = first_k.shape[0]
    n_opt = first_codes.shape[1]
    n2 = second_types.shape[0]
    out = np.zeros((n1, n_opt, 3), dtype=np.int64)
    for i in prange(n1):  # numba.prange when compiled
        rem = np.empty(counts.shape[0], dtype=np.int64)
        for t in range(counts.shape[0]):
            rem[t] = counts[t] - first_k[i, t]
        for j in range(n2):
            w = 1
            for e in range(4):
                m = second_mults[j, e]
                if m == 0:
                    break
                r = rem[second_types[j, e]]
                if m > r:
                    w = 0
                    break
                if r == 2 and m == 1:
                    w *= 2
            if w == 0:
                continue
            sf = second_codes[j, 0]
            sb = second_codes[j, 1]
            for s in range(n_opt):
                ff = first_codes[i, s, 0]
                fb = first_codes[i, s, 1]
                if mode == PG_FIRST_PLAYER:
                    # the player wins a hand only when strictly higher (PG-6.1, PG-6.2)
                    won = (ff < sf) + (fb < sb)
                    res = WIN if won == 2 else (LOSS if won == 0 else PUSH)
                elif mode == PG_FIRST_BANKER:
                    # the banker wins a hand unless the player's is strictly higher
                    won = (ff <= sf) + (fb <= sb)
                    res = WIN if won == 2 else (LOSS if won == 0 else PUSH)
                else:
                    # TW-6c: +1 / -1 / 0 per hand; an equal hand lets the other decide
                    cf = (ff < sf) - (ff > sf)
                    cb = (fb < sb) - (fb > sb)
                    total = cf + cb
                    if cf * cb < 0 or total == 0:
                        res = PUSH
                    elif total > 0:
                        res = WIN
                    else:
                        res = LOSS
                out[i, s, res] += w
    return out


#: the loop over the first side's classes: ``range`` here; ``numba.prange`` in the parallel
#: build that benchmarks/bench_par_tiles.py measures (on this 2-core machine it
#: does not beat the serial kernel, so the serial build is the one used)
prange = range

pair_counts = lazy_njit(cache=True)(_pair_counts)
