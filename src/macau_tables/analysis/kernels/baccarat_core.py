"""The baccarat simulation kernel's compiled code (numba): the random draws, the shoe and the
machine, and the two entry points :func:`shoes_entry` / :func:`continuous_entry`.

Split from :mod:`~macau_tables.analysis.kernels.baccarat_sim` so that the Python
side imports without numba: a process that finds the kernel compiled ahead of time
(:mod:`~macau_tables.analysis.kernels.native`) never imports this module. Every rule is
documented, and checked against the engine, in ``baccarat_sim``; this module holds the code
only.

The entry points take every array as an address (an ``int``, ``arr.ctypes.data``) and its
size, and allocate nothing: the same compiled code runs through numba's dispatcher (this
module, JIT, cached) or from the shared library :mod:`~macau_tables.analysis.kernels.native`
builds from these very functions, called with :mod:`ctypes`. The random words come from
the numpy bit generator at ``bitgen`` (its ``bitgen_t``, see
:func:`~macau_tables.analysis.kernels.rng.bitgen_address`) through its own ``next_uint64``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from llvmlite import ir  # type: ignore[import-untyped]
from numba import carray, njit, types  # type: ignore[attr-defined]
from numba.core.extending import intrinsic

I8 = npt.NDArray[np.int8]
U8 = npt.NDArray[np.uint8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

#: the histogram a kernel fills: index outcome * 8 + banker_six * 4 + player_pair * 2 +
#: banker_pair
HIST_SIZE = 24

# --- raw memory: the bit generator, arrays at addresses -----------------------------------------


def _next_raw(tyctx: Any, bitgen: Any) -> Any:  # pragma: no cover - compiled
    """The next raw 64-bit word of the numpy bit generator whose ``bitgen_t`` is at address
    ``bitgen``: ``bitgen->next_uint64(bitgen->state)`` (numpy's ``bitgen_t``: ``state``
    first, then ``next_uint64``; the same words as ``random_raw()`` in Python)."""
    sig = types.uint64(bitgen)

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        i64 = ir.IntType(64)
        base = builder.inttoptr(args[0], i64.as_pointer())
        state = builder.load(base)
        fn_address = builder.load(builder.gep(base, [ir.Constant(i64, 1)]))
        fn = builder.inttoptr(fn_address, ir.FunctionType(i64, [i64]).as_pointer())
        return builder.call(fn, [state])

    return sig, codegen


next_raw: Any = intrinsic(_next_raw)


def _pointer_cast(dtype: Any) -> Any:
    """An intrinsic: an integer address as a ``CPointer(dtype)`` (for ``carray``)."""

    def cast(tyctx: Any, address: Any) -> Any:  # pragma: no cover - compiled
        sig = types.CPointer(dtype)(address)  # type: ignore[no-untyped-call]

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.inttoptr(args[0], context.get_value_type(signature.return_type))

        return sig, codegen

    return intrinsic(cast)


_p_i8 = _pointer_cast(types.int8)
_p_u8 = _pointer_cast(types.uint8)
_p_i32 = _pointer_cast(types.int32)
_p_i64 = _pointer_cast(types.int64)
_p_u64 = _pointer_cast(types.uint64)
_p_b1 = _pointer_cast(types.boolean)

# --- random draws: Fisher-Yates on the generator's raw words, Lemire's bounded draws --------

#: raw 64-bit words fetched from the bit generator at a time (each gives two 32-bit draws)
WORDS_PER_REFILL = 256
_MASK32 = np.uint64(0xFFFFFFFF)


@njit(cache=True, nogil=True, inline="always")
def lemire_below(x: np.uint64, s: np.uint64, bits: np.uint64) -> np.int64:  # pragma: no cover
    """Lemire's unbiased bounded draw: a uniform ``bits``-bit ``x`` → a uniform integer in
    ``[0, s)``, or -1 (reject: draw again). ``m = x · s``; its low ``bits`` bits below
    ``2**bits mod s`` are rejected, leaving ``2**bits - 2**bits mod s`` values of ``x``,
    each result ``m >> bits`` hit by exactly ``2**bits // s`` of them. ``1 <= s <= 2**bits``,
    ``bits <= 32`` (the product must fit 64 bits). The simulations use ``bits = 32``; the
    tests check every ``x`` of smaller widths."""
    one = np.uint64(1)
    m = x * s
    low = m & ((one << bits) - one)
    if low < s:  # only then can it be under the threshold (2**bits mod s < s)
        threshold = ((one << bits) - s) % s
        if low < threshold:
            return np.int64(-1)
    return np.int64(m >> bits)


@njit(cache=True, nogil=True, inline="always")
def _below(
    bitgen: int, words: npt.NDArray[np.uint64], used: I64, s: int
) -> int:  # pragma: no cover
    """A uniform integer in ``[0, s)`` from the stream of 32-bit halves of the generator's
    raw words (low half first), rejecting as :func:`lemire_below` says. ``words`` is a
    buffer of raw words, ``used[0]`` the halves of it consumed (refilled when all are)."""
    n = words.shape[0]
    su = np.uint64(s)
    while True:
        h = used[0]
        if h == 2 * n:
            for k in range(n):
                words[k] = next_raw(bitgen)
            h = 0
        x = (words[h >> 1] >> np.uint64(32 * (h & 1))) & _MASK32
        used[0] = h + 1
        r = lemire_below(x, su, np.uint64(32))
        if r >= 0:
            return int(r)


@njit(cache=True, nogil=True)
def _fisher_yates(
    bitgen: int, words: npt.NDArray[np.uint64], used: I64, cards: I8
) -> None:  # pragma: no cover
    """Shuffle ``cards`` in place as ``core.rng.Rng.permutation`` does: for ``i`` from the
    last position down to 1, swap positions ``i`` and ``below(i + 1)``. The draws are
    :func:`_below`'s — the same halves in the same order — made faster: when the stream is
    at a word boundary, one word serves two positions, each half accepted at once if its
    low product is at least ``s`` (then it is at least the threshold ``2**32 mod s``);
    anything else (a refill, the rare half that needs the exact threshold) takes the
    general path, one half at a time."""
    n = words.shape[0]
    h = used[0]
    bits = np.uint64(32)
    i = cards.shape[0] - 1
    while i >= 1:
        if (h & 1) == 0 and h + 2 <= 2 * n and i >= 2:  # two draws from one word
            w = words[h >> 1]
            s = np.uint64(i + 1)
            m = (w & _MASK32) * s
            if (m & _MASK32) >= s:
                j = np.int64(m >> bits)
                t = cards[i]
                cards[i] = cards[j]
                cards[j] = t
                h += 1
                i -= 1
                s = np.uint64(i + 1)
                m = (w >> bits) * s
                if (m & _MASK32) >= s:
                    j = np.int64(m >> bits)
                    t = cards[i]
                    cards[i] = cards[j]
                    cards[j] = t
                    h += 1
                    i -= 1
                continue
        s = np.uint64(i + 1)
        while True:  # _below, one half at a time
            if h == 2 * n:
                for k in range(n):
                    words[k] = next_raw(bitgen)
                h = 0
            x = (words[h >> 1] >> np.uint64(32 * (h & 1))) & _MASK32
            h += 1
            r = lemire_below(x, s, bits)
            if r >= 0:
                break
        t = cards[i]
        cards[i] = cards[r]
        cards[r] = t
        i -= 1
    used[0] = h


@njit(cache=True, nogil=True)
def _new_stream() -> tuple[npt.NDArray[np.uint64], I64]:  # pragma: no cover
    words = np.empty(WORDS_PER_REFILL, dtype=np.uint64)
    used = np.full(1, 2 * WORDS_PER_REFILL, dtype=np.int64)  # empty: the first draw refills
    return words, used


@njit(cache=True, nogil=True)
def _shuffles(bitgen: int, base: I8, n: int) -> I8:  # pragma: no cover
    """``n`` shuffles of ``base`` from one generator's stream (for the tests)."""
    words, used = _new_stream()
    out = np.empty((n, base.shape[0]), dtype=np.int8)
    for r in range(n):
        out[r] = base
        _fisher_yates(bitgen, words, used, out[r])
    return out


@njit(cache=True, nogil=True)
def _belows(bitgen: int, highs: I64) -> I64:  # pragma: no cover
    """One bounded draw below each ``highs[i]``, in order, from one stream (for the tests)."""
    words, used = _new_stream()
    out = np.empty(highs.shape[0], dtype=np.int64)
    for i in range(highs.shape[0]):
        out[i] = _below(bitgen, words, used, highs[i])
    return out


@njit(cache=True)
def _lemire_all(bits: np.uint64, s: np.uint64) -> I64:  # pragma: no cover
    n = 1 << np.int64(bits)
    out = np.empty(n, dtype=np.int64)
    for x in range(n):
        out[x] = lemire_below(np.uint64(x), s, bits)
    return out


# --- the numba cores ---


@njit(cache=True, nogil=True, inline="always")
def _mod10(t: int) -> int:  # pragma: no cover
    """``t % 10`` for a sum of two card values (0 … 18, BA-5)."""
    return t - 10 if t >= 10 else t


# -------------------------------------------------------------------------


#: bits of a :data:`~macau_tables.analysis.kernels.baccarat_sim.HAND_TABLE` entry
HAND_PLAYER_DRAWS = 1  # BA-9.1 / BA-9.2: Player takes a third card
HAND_BANKER_DRAWS = 2  # BA-9.3 / BA-9.4: Banker takes a third card
HAND_HIST = 0b11100  # outcome * 8 + banker_six * 4: the hand's histogram index, pairs aside
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U4 = np.uint64(4)
_U5 = np.uint64(5)
_U10 = np.uint64(10)


@njit(cache=True, nogil=True, inline="always")
def _mod10u(t: np.uint64) -> np.uint64:  # pragma: no cover
    """``t % 10`` for an unsigned sum of two card values (0 … 18, BA-5)."""
    return t - _U10 if t >= _U10 else t


@njit(cache=True, nogil=True)
def _play_shoes(
    shoes: I8,
    decks: int,
    cut_from_end: int,
    burn_first_card: bool,
    one_more: bool,
    demos: int,
    target: int,
    value: U8,
    rank: U8,
    burn_count: I64,
    hand_table: U8,
    hist: I64,
    s_outcome: I8,
    s_six: B1,
    s_ppair: B1,
    s_bpair: B1,
    s_shoe: I32,
    hand_base: int,
    shoe_base: int,
    t_player: I8,
    t_banker: I8,
    t_shoe: I32,
    t_demo: B1,
    t_outcome: I8,
    t_burn: I32,
    t_hands: I32,
) -> tuple[int, int, int]:
    """Play whole shoes (rows of ``shoes``) until ``target`` hands; returns (hands, shoes
    started, trace rows). ``hist`` is added to; series (if sized) are written from
    ``hand_base``; the trace (if sized) from row 0.

    A hand is decided by one look-up: ``hand_table[player total, banker total, value of the
    next card, value of the card after]`` (uint8 [10, 10, 10, 10], built from the engine's
    BA-9 rules by ``baccarat_sim.hand_table``) holds whether each side draws
    (:data:`HAND_PLAYER_DRAWS`, :data:`HAND_BANKER_DRAWS`) and the hand's histogram index
    without the pairs (:data:`HAND_HIST`). The two cards after the first four are read
    whether or not they are dealt (the shoe always holds 6 more cards, checked below): no
    branch on the draws, which are coin flips to a branch predictor. ``value`` and
    ``rank`` are uint8[52] and positions unsigned, so that no index needs numba's
    negative-index wrap-around."""
    n_cards = shoes.shape[1]
    cut_index = n_cards - cut_from_end  # BA-2.1: the first card behind the cut card
    series = s_outcome.shape[0] > 0
    trace = t_player.shape[0] > 0
    hands = 0
    rows = 0
    s = 0
    while s < shoes.shape[0] and hands < target:
        shoe = shoes[s]
        # BA-2.1: burn as many cards as decks, or (BA-R1) the first card turned and as many
        # as it shows
        start = 1 + burn_count[shoe[0]] if burn_first_card else decks
        cut_out = start - 1 >= cut_index
        pos = np.uint64(start)
        last_ok = np.uint64(n_cards - 6)
        cut_u = np.uint64(cut_index)
        if trace:
            t_burn[s] = start
        demos_left = demos  # BA-2.2
        hands_left = -1  # BA-3.1: unset until the cut card comes out
        in_shoe = 0
        while True:
            if pos > last_ok:
                raise ValueError("the shoe ran out: cut card under 12 cards from the end")
            p1 = np.uint8(shoe[pos])  # BA-7.1: Player, Banker, Player, Banker
            b1 = np.uint8(shoe[pos + _U1])
            p2 = np.uint8(shoe[pos + _U2])
            b2 = np.uint8(shoe[pos + _U3])
            n1 = np.uint8(shoe[pos + _U4])
            n2 = np.uint8(shoe[pos + _U5])
            pt = _mod10u(np.uint64(value[p1]) + np.uint64(value[p2]))  # BA-5
            bt = _mod10u(np.uint64(value[b1]) + np.uint64(value[b2]))
            # BA-9, BA-11, BA-12, BA-R7
            e = hand_table[pt, bt, np.uint64(value[n1]), np.uint64(value[n2])]
            p_draw = np.uint64(e & HAND_PLAYER_DRAWS)
            b_draw = np.uint64(e >> 1) & _U1
            first = pos
            pos = pos + _U4 + p_draw + b_draw
            if pos > cut_u:
                cut_out = True  # BA-3.1: the cut card came out in this hand
            ppair = rank[p1] == rank[p2]  # BA-13
            bpair = rank[b1] == rank[b2]
            demo = demos_left > 0
            if trace:
                outcome = np.int64(e >> 3)
                t_player[rows, 0] = p1
                t_player[rows, 1] = p2
                t_player[rows, 2] = n1 if p_draw else -1
                t_banker[rows, 0] = b1
                t_banker[rows, 1] = b2
                t_banker[rows, 2] = shoe[first + _U4 + p_draw] if b_draw else -1
                t_shoe[rows] = shoe_base + s + 1
                t_demo[rows] = demo
                t_outcome[rows] = outcome
                rows += 1
            if demo:  # BA-2.2: dealt with no bets
                demos_left -= 1
                continue
            hist[np.uint64(e & HAND_HIST) | (np.uint64(ppair) << _U1) | np.uint64(bpair)] += 1
            if series:
                i = hand_base + hands
                s_outcome[i] = e >> 3
                s_six[i] = ((e >> 2) & 1) != 0
                s_ppair[i] = ppair
                s_bpair[i] = bpair
                s_shoe[i] = shoe_base + s + 1
            hands += 1
            in_shoe += 1
            if hands >= target:
                break
            if cut_out:  # BA-3.1: this hand is the last, or one more follows
                if hands_left < 0:
                    hands_left = 1 if one_more else 0
                else:
                    hands_left -= 1
                if hands_left <= 0:
                    break
        if trace:
            t_hands[s] = in_shoe
        s += 1
    return hands, s, rows


@njit(cache=True, nogil=True)
def _machine_card(j: int, decks: int, removed: I64, codes: I64, k: int) -> int:
    """BA-R4: the card ``sorted(full set minus the hand's first k cards)[j]``.

    The full set sorted is ``decks`` copies of code 0, then of code 1, …; a card taken out
    of it is marked by the last free slot of its code's block, kept in ``removed[:k]``
    ascending, and the j-th free slot is found by stepping over the marked ones."""
    p = j
    for i in range(k):
        if removed[i] <= p:
            p += 1
        else:
            break
    code = p // decks
    taken = 0
    for i in range(k):
        if codes[i] == code:
            taken += 1
    slot = code * decks + decks - 1 - taken
    i = k
    while i > 0 and removed[i - 1] > slot:
        removed[i] = removed[i - 1]
        i -= 1
    removed[i] = slot
    codes[k] = code
    return code


@njit(cache=True, nogil=True)
def _play_continuous(
    draws: I64,
    decks: int,
    target: int,
    value: I64,
    rank: I64,
    p_draws: B1,
    b_draws: B1,
    hist: I64,
    s_outcome: I8,
    s_six: B1,
    s_ppair: B1,
    s_bpair: B1,
    s_shoe: I32,
    hand_base: int,
    t_player: I8,
    t_banker: I8,
    t_shoe: I32,
    t_demo: B1,
    t_outcome: I8,
    scratch: I64,
) -> int:
    """BA-2.3 / BA-7.2 / BA-R4: ``target`` hands, each from the full set; ``draws[h, k]`` is
    the index (below ``52 * decks - k``) of the hand's k-th card among the cards left.
    ``scratch``: 12 int64 of working space (the kernels allocate nothing)."""
    series = s_outcome.shape[0] > 0
    trace = t_player.shape[0] > 0
    removed = scratch[:6]
    codes = scratch[6:12]
    for h in range(target):
        row = draws[h]
        p1 = _machine_card(row[0], decks, removed, codes, 0)  # BA-7.1
        b1 = _machine_card(row[1], decks, removed, codes, 1)
        p2 = _machine_card(row[2], decks, removed, codes, 2)
        b2 = _machine_card(row[3], decks, removed, codes, 3)
        k = 4
        pt = _mod10(value[p1] + value[p2])
        bt = _mod10(value[b1] + value[b2])
        pf = pt
        bf = bt
        p3 = -1
        b3 = -1
        third = 0
        if p_draws[pt, bt]:  # BA-9.1 / BA-9.2
            p3 = _machine_card(row[k], decks, removed, codes, k)
            k += 1
            third = value[p3] + 1
            pf = _mod10(pt + value[p3])
        if b_draws[bt, pt, third]:  # BA-9.3 / BA-9.4
            b3 = _machine_card(row[k], decks, removed, codes, k)
            bf = _mod10(bt + value[b3])
        if pf == bf:  # BA-11 / BA-12
            outcome = 2
        elif pf > bf:
            outcome = 0
        else:
            outcome = 1
        six = (outcome == 1) & (bf == 6)  # BA-R7
        ppair = rank[p1] == rank[p2]  # BA-13
        bpair = rank[b1] == rank[b2]
        hist[outcome * 8 + six * 4 + ppair * 2 + bpair] += 1
        if series:
            i = hand_base + h
            s_outcome[i] = outcome
            s_six[i] = six
            s_ppair[i] = ppair
            s_bpair[i] = bpair
            s_shoe[i] = 1  # the machine is loaded once (BA-2.3)
        if trace:
            t_player[h, 0] = p1
            t_player[h, 1] = p2
            t_player[h, 2] = p3
            t_banker[h, 0] = b1
            t_banker[h, 1] = b2
            t_banker[h, 2] = b3
            t_shoe[h] = 1
            t_demo[h] = False
            t_outcome[h] = outcome
    return target


# --- the entry points: addresses in, nothing allocated ----------------------------------------


@njit(cache=True, nogil=True)
def shoes_entry(
    bitgen: int,
    target: int,
    decks: int,
    cut_from_end: int,
    burn_first_card: int,
    one_more: int,
    demos: int,
    base: int,
    n_cards: int,
    value: int,
    rank: int,
    burn_count: int,
    hand_table: int,
    hist: int,
    n_series: int,
    s_outcome: int,
    s_six: int,
    s_ppair: int,
    s_bpair: int,
    s_shoe: int,
    words: int,
    n_words: int,
    used: int,
    shoe: int,
) -> int:  # pragma: no cover - compiled; checked by the tests
    """``target`` hands from whole shoes: each shoe is the sorted shoe ``base`` (``n_cards``
    int8 codes) copied to ``shoe`` and shuffled by :func:`_fisher_yates` from the bit
    generator ``bitgen`` (through the ``n_words`` raw words at ``words``, ``used`` their
    halves consumed: ``2 * n_words`` when empty), then played by :func:`_play_shoes` (the
    code the engine comparison checks card for card). Tables: ``value``, ``rank`` uint8[52],
    ``burn_count`` int64[52], ``hand_table`` uint8[10, 10, 10, 10] (see :func:`_play_shoes`);
    ``hist`` int64[HIST_SIZE] is added to; with ``n_series`` > 0 the series (int8, bool,
    bool, bool, int32 [n_series]) are written from hand 0. Returns the hands played."""
    base_a = carray(_p_i8(base), (n_cards,))
    shoes = carray(_p_i8(shoe), (1, n_cards))
    value_a = carray(_p_u8(value), (52,))
    rank_a = carray(_p_u8(rank), (52,))
    burn_a = carray(_p_i64(burn_count), (52,))
    hand_a = carray(_p_u8(hand_table), (10, 10, 10, 10))
    hist_a = carray(_p_i64(hist), (HIST_SIZE,))
    s_outcome_a = carray(_p_i8(s_outcome), (n_series,))
    s_six_a = carray(_p_b1(s_six), (n_series,))
    s_ppair_a = carray(_p_b1(s_ppair), (n_series,))
    s_bpair_a = carray(_p_b1(s_bpair), (n_series,))
    s_shoe_a = carray(_p_i32(s_shoe), (n_series,))
    words_a = carray(_p_u64(words), (n_words,))
    used_a = carray(_p_i64(used), (1,))
    no_i8 = carray(_p_i8(shoe), (0, 3))  # no trace
    no_i32 = carray(_p_i32(shoe), (0,))
    no_b1 = carray(_p_b1(shoe), (0,))
    no_o = carray(_p_i8(shoe), (0,))
    hands = 0
    started = 0
    while hands < target:
        row = shoes[0]
        for k in range(n_cards):  # not row[:] = base_a: that would link an allocating copy
            row[k] = base_a[k]
        _fisher_yates(bitgen, words_a, used_a, row)
        played, n_shoes, _ = _play_shoes(
            shoes, decks, cut_from_end, burn_first_card != 0, one_more != 0, demos,
            target - hands, value_a, rank_a, burn_a, hand_a, hist_a,
            s_outcome_a, s_six_a, s_ppair_a, s_bpair_a, s_shoe_a, hands, started,
            no_i8, no_i8, no_i32, no_b1, no_o, no_i32, no_i32,
        )  # fmt: skip
        hands += played
        started += n_shoes
    return hands


@njit(cache=True, nogil=True)
def continuous_entry(
    bitgen: int,
    target: int,
    decks: int,
    value: int,
    rank: int,
    p_draws: int,
    b_draws: int,
    hist: int,
    n_series: int,
    s_outcome: int,
    s_six: int,
    s_ppair: int,
    s_bpair: int,
    s_shoe: int,
    words: int,
    n_words: int,
    used: int,
    draws: int,
    batch: int,
    scratch: int,
) -> int:  # pragma: no cover - compiled; checked by the tests
    """BA-R4: ``target`` hands from a continuous shuffler: per hand six bounded draws (the
    k-th below ``52 * decks - k``; the unused ones are skipped over) into the int64
    ``[batch, 6]`` buffer at ``draws``, played by :func:`_play_continuous` ``batch`` hands
    at a time, with 12 int64 of working space at ``scratch``. The other arguments as
    :func:`shoes_entry`'s. Returns the hands played."""
    value_a = carray(_p_i64(value), (52,))
    rank_a = carray(_p_i64(rank), (52,))
    p_draws_a = carray(_p_b1(p_draws), (10, 10))
    b_draws_a = carray(_p_b1(b_draws), (10, 10, 11))
    hist_a = carray(_p_i64(hist), (HIST_SIZE,))
    s_outcome_a = carray(_p_i8(s_outcome), (n_series,))
    s_six_a = carray(_p_b1(s_six), (n_series,))
    s_ppair_a = carray(_p_b1(s_ppair), (n_series,))
    s_bpair_a = carray(_p_b1(s_bpair), (n_series,))
    s_shoe_a = carray(_p_i32(s_shoe), (n_series,))
    words_a = carray(_p_u64(words), (n_words,))
    used_a = carray(_p_i64(used), (1,))
    draws_a = carray(_p_i64(draws), (batch, 6))
    scratch_a = carray(_p_i64(scratch), (12,))
    no_i8 = carray(_p_i8(hist), (0, 3))  # no trace
    no_i32 = carray(_p_i32(hist), (0,))
    no_b1 = carray(_p_b1(hist), (0,))
    no_o = carray(_p_i8(hist), (0,))
    n_cards = 52 * decks
    hands = 0
    while hands < target:
        n = min(batch, target - hands)
        for h in range(n):
            for k in range(6):
                draws_a[h, k] = _below(bitgen, words_a, used_a, n_cards - k)
        _play_continuous(
            draws_a, decks, n, value_a, rank_a, p_draws_a, b_draws_a, hist_a,
            s_outcome_a, s_six_a, s_ppair_a, s_bpair_a, s_shoe_a, hands,
            no_i8, no_i8, no_i32, no_b1, no_o, scratch_a,
        )  # fmt: skip
        hands += n
    return hands
