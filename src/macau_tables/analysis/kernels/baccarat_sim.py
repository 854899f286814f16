"""Baccarat simulation kernel (issue #7): whole Macau shoes, or a continuous shuffler, in numba.

The readable engine (:mod:`macau_tables.games.baccarat`) stays the definition of every rule;
this module plays the same procedure on arrays, and ``tests/analysis/test_baccarat_sim.py``
demands identical hands, card for card, from both on the same shuffles.

Cards are codes ``0 … 51``: ``(rank - 1) * 4 + SUITS.index(suit)``, which is also the
engine's sort order of :class:`~macau_tables.games.baccarat.Card` (rank, then suit ``c d h
s``). The BA-5 values, the BA-R1 burn counts and the BA-9 drawing tables are built from the
engine's own functions (:func:`~macau_tables.games.baccarat.player_draws`,
:func:`~macau_tables.games.baccarat.banker_draws`) and passed to the kernels as arrays, so
the drawing rules are written once.

A shoe (``continuous_shuffler`` false) is played as the engine plays it:

- BA-2.1 / BA-R1: the shoe is a uniform shuffle of ``decks`` packs (numpy's
  ``Generator.permuted``, row by row, from the chunk's stream); the cut card goes
  ``cut_from_end`` cards from the end; the burn takes ``decks`` cards, or (``first_card``)
  the first card turned plus as many cards as it shows (tens and faces 10).
- BA-2.2: ``demonstration_hands`` hands are then dealt with no bets. They take cards from the
  shoe like any hand but are not rounds: they are not in ``rounds``, the counts or the
  series (the :class:`Trace` of an explicit run lists them, flagged).
- BA-7.1 / BA-9: Player, Banker, Player, Banker, then the third cards.
- BA-3.1: the hand in which a card at or behind the cut card is dealt (third cards
  included) is the last (``last``) or is followed by one more hand (``one_more``); then a
  new shoe is shuffled. With the BA-2.1 minimum of 12 cards behind the cut card a shoe never
  runs out (at most 6 + 6 cards follow it).

A continuous shuffler (BA-2.3 / BA-7.2 / BA-R4) deals each hand from the full set: no cut
card, burn, demonstration or last hand. Exactly as the engine's machine does, each card is
``sorted(full set minus this hand's cards)[j]`` for a uniform ``j`` (the engine's
``Rng.below``); here ``j`` comes from ``Generator.integers``.

Per hand every BA-13 bet is decided (a demonstration hand excepted), with the PAR sheet's
labels and nets (:func:`bet_nets`): ``player`` and ``banker`` ``win``/``lose``/``push``
(BA-11, BA-12 a tie pushes them), ``tie`` and the pairs ``win``/``lose`` (BA-12, BA-13);
BA-17 payouts; Banker's ``win`` nets ``1 - commission`` (BA-18, 19/20 by default), or with
the no-commission option (BA-R7) 1, and ``"win on 6"`` (a Banker win on a total of 6) 1/2.
Nets are per unit, exact: BA-R5's rounding to the minor unit is a matter of stake sizes,
not of the game's odds.

Counts are int64 inside numba (no overflow below 9.2e18 hands) and Python ints outside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt
from numba import njit

from macau_tables.analysis.kernels.rng import Generator, chunk_generator, next_uint64
from macau_tables.analysis.simresult import ChunkResult
from macau_tables.core.errors import InvalidInput
from macau_tables.games.baccarat import (
    GAME,
    NO_COMMISSION_BANKER_SIX,
    PAYS,
    SUITS,
    BaccaratRules,
    BetKind,
    BurnMode,
    Card,
    LastHand,
    banker_draws,
    full_set,
    player_draws,
)

__all__ = [
    "BET_NAMES",
    "LOSE",
    "OPTION_NAMES",
    "PUSH",
    "WIN",
    "WIN_SIX",
    "Trace",
    "bet_nets",
    "card_code",
    "code_card",
    "rules_from_options",
    "run_continuous",
    "run_shoes",
    "shoe_codes",
    "simulate_chunk",
]

I8 = npt.NDArray[np.int8]
I32 = npt.NDArray[np.int32]
I64 = npt.NDArray[np.int64]
B1 = npt.NDArray[np.bool_]

# --- labels and nets (the PAR sheet's) -------------------------------------------------------

WIN, LOSE, PUSH = "win", "lose", "push"
WIN_SIX = "win on 6"  # BA-R7: a Banker win with a total of 6 (pays 1:2); the PAR sheet's label

#: the BA-13 bets, named as the engine's BetKind values (and the PAR sheet's lines)
BET_NAMES: tuple[str, ...] = tuple(
    str(k)
    for k in (BetKind.BANKER, BetKind.PLAYER, BetKind.TIE, BetKind.BANKER_PAIR, BetKind.PLAYER_PAIR)
)

#: series codes of ``series["outcome"]`` (BA-11, BA-12)
PLAYER_WINS, BANKER_WINS, TIE = 0, 1, 2

#: the options ``simulate_chunk`` reads (BaccaratRules fields, plus ``series``)
OPTION_NAMES = frozenset(
    {
        "decks",
        "cut_from_end",
        "burn",
        "last_hand",
        "demonstration_hands",
        "continuous_shuffler",
        "commission",
        "no_commission",
        "series",
    }
)


def _int_option(options: Mapping[str, object], name: str, default: int, rule: str) -> int:
    v = options.get(name, default)
    if isinstance(v, bool) or not isinstance(v, int | np.integer):
        raise InvalidInput(f"{name} must be an integer, not {v!r}", rule=rule)
    return int(v)


def _bool_option(options: Mapping[str, object], name: str, rule: str | None) -> bool:
    v = options.get(name, False)
    if not isinstance(v, bool | np.bool_):
        raise InvalidInput(f"{name} must be true or false, not {v!r}", rule=rule)
    return bool(v)


def _commission(v: object) -> Fraction:
    """BA-18: the commission, exact: a Fraction, an int, or text ``"1/20"`` / ``"0.05"``."""
    if isinstance(v, bool | float):
        raise InvalidInput(f"commission {v!r}: give it exactly, e.g. '1/20'", rule="BA-18")
    if isinstance(v, Fraction | int):
        c = Fraction(v)
    elif isinstance(v, str):
        try:
            c = Fraction(v.strip())
        except (ValueError, ZeroDivisionError):
            raise InvalidInput(f"commission {v!r}: try '1/20'", rule="BA-18") from None
    else:
        raise InvalidInput(f"commission {v!r}: try '1/20'", rule="BA-18")
    if not 0 <= c < 1:
        raise InvalidInput(f"commission {c}: from 0 to less than 1", rule="BA-18")
    return c


def rules_from_options(options: Mapping[str, object]) -> tuple[BaccaratRules, bool]:
    """The table's :class:`BaccaratRules` from simulation options, and whether to keep series.

    Options mirror the BaccaratRules fields (``decks``, ``cut_from_end``, ``burn``,
    ``last_hand``, ``demonstration_hands``, ``continuous_shuffler``, ``commission`` as a
    Fraction or ``"num/den"``, ``no_commission``) plus ``series``; anything else is refused.
    BaccaratRules itself checks them (BA-1, BA-2.1, BA-2.2) and raises the engine's errors.
    """
    unknown = sorted(set(options) - OPTION_NAMES)
    if unknown:
        raise InvalidInput(
            f"unknown baccarat option(s) {', '.join(unknown)}: "
            f"one of {', '.join(sorted(OPTION_NAMES))}"
        )
    defaults = BaccaratRules()
    try:
        burn = BurnMode(str(options.get("burn", defaults.burn)))
    except ValueError:
        raise InvalidInput(
            f"burn {options['burn']!r}: 'decks' or 'first_card'", rule="BA-R1"
        ) from None
    try:
        last = LastHand(str(options.get("last_hand", defaults.last_hand)))
    except ValueError:
        raise InvalidInput(
            f"last_hand {options['last_hand']!r}: 'one_more' or 'last'", rule="BA-3.1"
        ) from None
    rules = BaccaratRules(
        decks=_int_option(options, "decks", defaults.decks, "BA-1"),
        cut_from_end=_int_option(options, "cut_from_end", defaults.cut_from_end, "BA-2.1"),
        burn=burn,
        last_hand=last,
        demonstration_hands=_int_option(
            options, "demonstration_hands", defaults.demonstration_hands, "BA-2.2"
        ),
        continuous_shuffler=_bool_option(options, "continuous_shuffler", "BA-2.3"),
        commission=_commission(options.get("commission", defaults.commission)),
        no_commission=_bool_option(options, "no_commission", "BA-R7"),
    )
    return rules, _bool_option(options, "series", None)


def bet_nets(rules: BaccaratRules) -> dict[str, dict[str, Fraction]]:
    """Each BA-13 bet's outcome labels and nets per unit staked (BA-17, BA-18, BA-R7)."""
    one = Fraction(1)
    banker_win = Fraction(PAYS[BetKind.BANKER])
    banker: dict[str, Fraction] = {}
    if rules.no_commission:  # BA-R7: 1:1, but 1:2 on a Banker six
        banker[WIN] = banker_win
        banker[WIN_SIX] = Fraction(NO_COMMISSION_BANKER_SIX)
    else:  # BA-18: the house takes the commission on the win
        banker[WIN] = banker_win * (1 - rules.commission)
    banker |= {LOSE: -one, PUSH: Fraction(0)}
    return {
        str(BetKind.BANKER): banker,
        str(BetKind.PLAYER): {WIN: Fraction(PAYS[BetKind.PLAYER]), LOSE: -one, PUSH: Fraction(0)},
        str(BetKind.TIE): {WIN: Fraction(PAYS[BetKind.TIE]), LOSE: -one},
        str(BetKind.BANKER_PAIR): {WIN: Fraction(PAYS[BetKind.BANKER_PAIR]), LOSE: -one},
        str(BetKind.PLAYER_PAIR): {WIN: Fraction(PAYS[BetKind.PLAYER_PAIR]), LOSE: -one},
    }


# --- cards as codes, and the rule tables taken from the engine -------------------------------


def card_code(card: Card) -> int:
    """``0 … 51``: ``(rank - 1) * 4 + suit``; ordered as the engine sorts cards."""
    return (card.rank - 1) * 4 + SUITS.index(card.suit)


def code_card(code: int) -> Card:
    return Card(code // 4 + 1, SUITS[code % 4])


def shoe_codes(cards: Sequence[Card]) -> I8:
    """A shoe (the engine's ``ShoeShuffled`` order) as card codes."""
    return np.array([card_code(c) for c in cards], dtype=np.int8)


_CARDS = [code_card(c) for c in range(52)]
RANK: I64 = np.array([c.rank for c in _CARDS], dtype=np.int64)  # BA-13 pairs: same rank
VALUE: I64 = np.array([c.value for c in _CARDS], dtype=np.int64)  # BA-5
BURN_COUNT: I64 = np.array([c.burn_count for c in _CARDS], dtype=np.int64)  # BA-R1
#: BA-9.1 / BA-9.2: PLAYER_DRAWS[player two-card total, banker two-card total]
PLAYER_DRAWS: B1 = np.array(
    [[player_draws(pt, bt) for bt in range(10)] for pt in range(10)], dtype=np.bool_
)
#: BA-9.3 / BA-9.4: BANKER_DRAWS[banker total, player total, 0 if Player stood else 1 + value
#: of Player's third card]
BANKER_DRAWS: B1 = np.array(
    [
        [[banker_draws(bt, pt, None if t == 0 else t - 1) for t in range(11)] for pt in range(10)]
        for bt in range(10)
    ],
    dtype=np.bool_,
)

#: the histogram a kernel fills: index outcome * 8 + banker_six * 4 + player_pair * 2 +
#: banker_pair
HIST_SIZE = 24

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
    bitgen: Any, words: npt.NDArray[np.uint64], used: I64, s: int
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
                words[k] = next_uint64(bitgen)
            h = 0
        x = (words[h >> 1] >> np.uint64(32 * (h & 1))) & _MASK32
        used[0] = h + 1
        r = lemire_below(x, su, np.uint64(32))
        if r >= 0:
            return int(r)


@njit(cache=True, nogil=True)
def _fisher_yates(
    bitgen: Any, words: npt.NDArray[np.uint64], used: I64, cards: I8
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
                    words[k] = next_uint64(bitgen)
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
def _shuffles(gen: Generator, base: I8, n: int) -> I8:  # pragma: no cover
    """``n`` shuffles of ``base`` from one generator's stream (for the tests)."""
    words, used = _new_stream()
    out = np.empty((n, base.shape[0]), dtype=np.int8)
    for r in range(n):
        out[r] = base
        _fisher_yates(gen.bit_generator, words, used, out[r])
    return out


@njit(cache=True, nogil=True)
def _belows(gen: Generator, highs: I64) -> I64:  # pragma: no cover
    """One bounded draw below each ``highs[i]``, in order, from one stream (for the tests)."""
    words, used = _new_stream()
    out = np.empty(highs.shape[0], dtype=np.int64)
    for i in range(highs.shape[0]):
        out[i] = _below(gen.bit_generator, words, used, highs[i])
    return out


def shuffled_shoes(gen: Generator, cards: npt.ArrayLike, n: int) -> I8:
    """``n`` successive Fisher-Yates shuffles of ``cards`` (int8 codes) from ``gen``'s raw
    words, as :func:`simulate_chunk` shuffles its shoes."""
    return _shuffles(gen, np.ascontiguousarray(cards, dtype=np.int8), n)


def bounded_draws(gen: Generator, highs: npt.ArrayLike) -> I64:
    """``below(highs[i])`` for each ``i`` in order from ``gen``'s raw words (the stream
    :func:`simulate_chunk` draws from)."""
    return _belows(gen, np.ascontiguousarray(highs, dtype=np.int64))


def lemire_table(bits: int, s: int) -> I64:
    """:func:`lemire_below` of every ``bits``-bit input (``-1``: rejected): the exhaustive
    uniformity check's data."""
    return _lemire_all(np.uint64(bits), np.uint64(s))


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


@njit(cache=True, nogil=True)
def _play_shoes(
    shoes: I8,
    decks: int,
    cut_from_end: int,
    burn_first_card: bool,
    one_more: bool,
    demos: int,
    target: int,
    value: I64,
    rank: I64,
    burn_count: I64,
    p_draws: B1,
    b_draws: B1,
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
    ``hand_base``; the trace (if sized) from row 0."""
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
        pos = 1 + burn_count[shoe[0]] if burn_first_card else decks
        cut_out = pos - 1 >= cut_index
        if trace:
            t_burn[s] = pos
        demos_left = demos  # BA-2.2
        hands_left = -1  # BA-3.1: unset until the cut card comes out
        in_shoe = 0
        while True:
            if pos + 6 > n_cards:
                raise ValueError("the shoe ran out: cut card under 12 cards from the end")
            p1 = shoe[pos]  # BA-7.1: Player, Banker, Player, Banker
            b1 = shoe[pos + 1]
            p2 = shoe[pos + 2]
            b2 = shoe[pos + 3]
            pos += 4
            pt = _mod10(value[p1] + value[p2])
            bt = _mod10(value[b1] + value[b2])
            # the third cards without branches (the draws are coin flips to a branch
            # predictor): the next card is read whether or not it is dealt, and counted in
            # only if BA-9 draws it (the shoe always holds 6 more cards, checked above)
            p_draw = p_draws[pt, bt]  # BA-9.1 / BA-9.2
            p_next = shoe[pos]
            p_value = value[p_next] if p_draw else 0
            third = value[p_next] + 1 if p_draw else 0
            p3 = p_next if p_draw else -1
            pf = _mod10(pt + p_value)
            pos += np.int64(p_draw)
            b_draw = b_draws[bt, pt, third]  # BA-9.3 / BA-9.4
            b_next = shoe[pos]
            b3 = b_next if b_draw else -1
            bf = _mod10(bt + (value[b_next] if b_draw else 0))
            pos += np.int64(b_draw)
            if pos - 1 >= cut_index:
                cut_out = True  # BA-3.1: the cut card came out in this hand
            # BA-11 / BA-12: 0 Player (higher), 1 Banker (higher), 2 tie
            outcome = np.int64(pf < bf) + 2 * np.int64(pf == bf)
            demo = demos_left > 0
            if trace:
                t_player[rows, 0] = p1
                t_player[rows, 1] = p2
                t_player[rows, 2] = p3
                t_banker[rows, 0] = b1
                t_banker[rows, 1] = b2
                t_banker[rows, 2] = b3
                t_shoe[rows] = shoe_base + s + 1
                t_demo[rows] = demo
                t_outcome[rows] = outcome
                rows += 1
            if demo:  # BA-2.2: dealt with no bets
                demos_left -= 1
                continue
            six = (outcome == 1) & (bf == 6)  # BA-R7
            ppair = rank[p1] == rank[p2]  # BA-13
            bpair = rank[b1] == rank[b2]
            hist[outcome * 8 + six * 4 + ppair * 2 + bpair] += 1
            if series:
                i = hand_base + hands
                s_outcome[i] = outcome
                s_six[i] = six
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
) -> int:
    """BA-2.3 / BA-7.2 / BA-R4: ``target`` hands, each from the full set; ``draws[h, k]`` is
    the index (below ``52 * decks - k``) of the hand's k-th card among the cards left."""
    series = s_outcome.shape[0] > 0
    trace = t_player.shape[0] > 0
    removed = np.empty(6, np.int64)
    codes = np.empty(6, np.int64)
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


@njit(cache=True, nogil=True)
def _simulate_shoes(
    gen: Generator,
    base: I8,
    target: int,
    decks: int,
    cut_from_end: int,
    burn_first_card: bool,
    one_more: bool,
    demos: int,
    value: I64,
    rank: I64,
    burn_count: I64,
    p_draws: B1,
    b_draws: B1,
    hist: I64,
    s_outcome: I8,
    s_six: B1,
    s_ppair: B1,
    s_bpair: B1,
    s_shoe: I32,
) -> int:  # pragma: no cover - compiled; checked by the tests
    """``target`` hands from whole shoes, all in here: each shoe is ``base`` shuffled by
    :func:`_fisher_yates` from ``gen``'s raw words, then played by :func:`_play_shoes` (the
    code the engine comparison checks card for card). The GIL is released throughout."""
    words, used = _new_stream()
    shoes = np.empty((1, base.shape[0]), dtype=np.int8)
    no_i8 = np.empty((0, 3), dtype=np.int8)
    no_i32 = np.empty(0, dtype=np.int32)
    no_b1 = np.empty(0, dtype=np.bool_)
    no_o = np.empty(0, dtype=np.int8)
    hands = 0
    started = 0
    while hands < target:
        row = shoes[0]
        row[:] = base
        _fisher_yates(gen.bit_generator, words, used, row)
        played, n_shoes, _ = _play_shoes(
            shoes, decks, cut_from_end, burn_first_card, one_more, demos, target - hands,
            value, rank, burn_count, p_draws, b_draws, hist,
            s_outcome, s_six, s_ppair, s_bpair, s_shoe, hands, started,
            no_i8, no_i8, no_i32, no_b1, no_o, no_i32, no_i32,
        )  # fmt: skip
        hands += played
        started += n_shoes
    return hands


@njit(cache=True, nogil=True)
def _simulate_continuous(
    gen: Generator,
    target: int,
    decks: int,
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
    batch: int,
) -> int:  # pragma: no cover - compiled; checked by the tests
    """BA-R4: ``target`` hands from a continuous shuffler, all in here: per hand six bounded
    draws (the k-th below ``52 * decks - k``; the unused ones are skipped over), played by
    :func:`_play_continuous` in batches of ``batch`` hands."""
    words, used = _new_stream()
    draws = np.empty((batch, 6), dtype=np.int64)
    no_i8 = np.empty((0, 3), dtype=np.int8)
    no_i32 = np.empty(0, dtype=np.int32)
    no_b1 = np.empty(0, dtype=np.bool_)
    no_o = np.empty(0, dtype=np.int8)
    n_cards = 52 * decks
    hands = 0
    while hands < target:
        n = min(batch, target - hands)
        for h in range(n):
            for k in range(6):
                draws[h, k] = _below(gen.bit_generator, words, used, n_cards - k)
        _play_continuous(
            draws, decks, n, value, rank, p_draws, b_draws, hist,
            s_outcome, s_six, s_ppair, s_bpair, s_shoe, hands,
            no_i8, no_i8, no_i32, no_b1, no_o,
        )  # fmt: skip
        hands += n
    return hands


# --- Python side: buffers, results -----------------------------------------------------------


@dataclass(frozen=True)
class Trace:
    """Hand by hand, what an explicit run dealt (demonstration hands included, flagged).

    ``player``/``banker``: card codes per hand, ``-1`` where no third card; ``outcome``:
    0 Player, 1 Banker, 2 tie; ``shoe``: 1-based shoe number. Per shoe: ``burns`` (cards
    burned at its start, BA-2.1) and ``hands`` (hands with bets, demonstrations excluded).
    """

    player: I8
    banker: I8
    shoe: I32
    demonstration: B1
    outcome: I8
    burns: I32
    hands: I32


class _Buffers:
    """Counts, optional series and optional trace of one run."""

    def __init__(self, rounds: int, series: bool, trace_rows: int = 0, shoes: int = 0) -> None:
        n = rounds if series else 0
        self.hist: I64 = np.zeros(HIST_SIZE, dtype=np.int64)
        self.s_outcome: I8 = np.zeros(n, dtype=np.int8)
        self.s_six: B1 = np.zeros(n, dtype=np.bool_)
        self.s_ppair: B1 = np.zeros(n, dtype=np.bool_)
        self.s_bpair: B1 = np.zeros(n, dtype=np.bool_)
        self.s_shoe: I32 = np.zeros(n, dtype=np.int32)
        self.t_player: I8 = np.full((trace_rows, 3), -1, dtype=np.int8)
        self.t_banker: I8 = np.full((trace_rows, 3), -1, dtype=np.int8)
        self.t_shoe: I32 = np.zeros(trace_rows, dtype=np.int32)
        self.t_demo: B1 = np.zeros(trace_rows, dtype=np.bool_)
        self.t_outcome: I8 = np.zeros(trace_rows, dtype=np.int8)
        self.t_burn: I32 = np.zeros(shoes, dtype=np.int32)
        self.t_hands: I32 = np.zeros(shoes, dtype=np.int32)
        self.series = series

    def series_args(self) -> tuple[I8, B1, B1, B1, I32]:
        return self.s_outcome, self.s_six, self.s_ppair, self.s_bpair, self.s_shoe

    def trace_args(self) -> tuple[I8, I8, I32, B1, I8]:
        return self.t_player, self.t_banker, self.t_shoe, self.t_demo, self.t_outcome

    def result(self, rules: BaccaratRules, rounds: int) -> ChunkResult:
        series: dict[str, np.ndarray] = {}
        if self.series:
            series = {
                "outcome": self.s_outcome[:rounds],
                "banker_six": self.s_six[:rounds],
                "player_pair": self.s_ppair[:rounds],
                "banker_pair": self.s_bpair[:rounds],
                "shoe": self.s_shoe[:rounds],
            }
        return ChunkResult(
            GAME, rounds, _counts(self.hist, rules.no_commission), bet_nets(rules), series
        )

    def trace(self, rows: int, shoes: int) -> Trace:
        return Trace(
            self.t_player[:rows],
            self.t_banker[:rows],
            self.t_shoe[:rows],
            self.t_demo[:rows],
            self.t_outcome[:rows],
            self.t_burn[:shoes],
            self.t_hands[:shoes],
        )


def _counts(hist: I64, no_commission: bool) -> dict[str, dict[str, int]]:
    """The kernel's histogram → count of decisions per bet and label."""
    h = hist.reshape(3, 2, 2, 2)  # outcome, banker six, player pair, banker pair
    total = int(hist.sum())
    player, banker, tie = (int(h[i].sum()) for i in range(3))
    six = int(h[BANKER_WINS, 1].sum())
    ppair = int(h[:, :, 1, :].sum())
    bpair = int(h[:, :, :, 1].sum())
    banker_counts = {WIN: banker - six, WIN_SIX: six} if no_commission else {WIN: banker}
    banker_counts |= {LOSE: player, PUSH: tie}
    return {
        str(BetKind.BANKER): banker_counts,
        str(BetKind.PLAYER): {WIN: player, LOSE: banker, PUSH: tie},
        str(BetKind.TIE): {WIN: tie, LOSE: total - tie},
        str(BetKind.BANKER_PAIR): {WIN: bpair, LOSE: total - bpair},
        str(BetKind.PLAYER_PAIR): {WIN: ppair, LOSE: total - ppair},
    }


def _check_rounds(rounds: int) -> None:
    if isinstance(rounds, bool) or not isinstance(rounds, int | np.integer) or rounds < 0:
        raise InvalidInput(f"rounds must be a non-negative integer, not {rounds!r}")


def _shoe_call(
    rules: BaccaratRules, shoes: I8, target: int, buf: _Buffers, hand_base: int, shoe_base: int
) -> tuple[int, int, int]:
    hands, used, rows = _play_shoes(
        shoes,
        rules.decks,
        rules.cut_from_end,
        rules.burn is BurnMode.FIRST_CARD,
        rules.last_hand is LastHand.ONE_MORE,
        rules.demonstration_hands,
        target,
        VALUE,
        RANK,
        BURN_COUNT,
        PLAYER_DRAWS,
        BANKER_DRAWS,
        buf.hist,
        *buf.series_args(),
        hand_base,
        shoe_base,
        *buf.trace_args(),
        buf.t_burn,
        buf.t_hands,
    )
    return int(hands), int(used), int(rows)


def _machine_call(
    rules: BaccaratRules, draws: I64, target: int, buf: _Buffers, hand_base: int
) -> None:
    _play_continuous(
        draws,
        rules.decks,
        target,
        VALUE,
        RANK,
        PLAYER_DRAWS,
        BANKER_DRAWS,
        buf.hist,
        *buf.series_args(),
        hand_base,
        *buf.trace_args(),
    )


# --- explicit sequences (the engine comparison) ----------------------------------------------


def run_shoes(
    shoes: npt.ArrayLike, options: Mapping[str, object], rounds: int | None = None
) -> tuple[ChunkResult, Trace]:
    """Play the given shoes in order (rows of card codes, each a whole shoe in dealing order,
    e.g. :func:`shoe_codes` of the engine's ``ShoeShuffled`` cards) until ``rounds`` hands, or
    to the end of the last shoe when None. Returns the counts (and series, if asked) and the
    hand-by-hand :class:`Trace`."""
    rules, series = rules_from_options(options)
    if rules.continuous_shuffler:
        raise InvalidInput("a continuous shuffler has no shoe: use run_continuous", rule="BA-2.3")
    arr = np.ascontiguousarray(np.asarray(shoes, dtype=np.int64))
    if arr.ndim == 1:
        arr = arr[None, :]
    fresh = np.sort(shoe_codes(full_set(rules.decks))).astype(np.int64)
    if arr.ndim != 2 or arr.shape[1] != fresh.shape[0]:
        raise InvalidInput(f"a shoe holds exactly {rules.decks} decks", rule="BA-1")
    if not (np.sort(arr, axis=1) == fresh).all():
        raise InvalidInput(f"a shoe holds exactly {rules.decks} decks", rule="BA-1")
    codes = arr.astype(np.int8)
    per_shoe = arr.shape[1] // 4 + 1
    target = arr.shape[0] * per_shoe if rounds is None else rounds
    _check_rounds(target)
    buf = _Buffers(target, series, trace_rows=arr.shape[0] * per_shoe, shoes=arr.shape[0])
    hands, used, rows = _shoe_call(rules, codes, target, buf, 0, 0)
    if rounds is not None and hands < rounds:
        raise InvalidInput(f"{arr.shape[0]} shoe(s) give {hands} hands, not {rounds}")
    return buf.result(rules, hands), buf.trace(rows, used)


def run_continuous(
    draws: npt.ArrayLike, options: Mapping[str, object]
) -> tuple[ChunkResult, Trace]:
    """BA-R4: one hand per row of ``draws``; ``draws[h, k]`` (below ``52 * decks - k``) picks
    the hand's k-th card among the cards left, as the engine's machine does with
    ``Rng.below`` (unused slots are ignored)."""
    rules, series = rules_from_options(options)
    if not rules.continuous_shuffler:
        raise InvalidInput("run_continuous is for a continuous shuffler", rule="BA-2.3")
    arr = np.ascontiguousarray(np.asarray(draws, dtype=np.int64))
    if arr.ndim != 2 or arr.shape[1] != 6:
        raise InvalidInput("draws: one row of 6 indices per hand")
    highs = 52 * rules.decks - np.arange(6)
    if ((arr < 0) | (arr >= highs)).any():
        raise InvalidInput(f"draws[:, k] must lie in [0, {52 * rules.decks} - k)", rule="BA-R4")
    n = arr.shape[0]
    buf = _Buffers(n, series, trace_rows=n)
    _machine_call(rules, arr, n, buf, 0)
    return buf.result(rules, n), buf.trace(n, 0)


# --- simulation -------------------------------------------------------------------------------

#: hands drawn per batch on a machine (inside the kernel; the stream does not depend on it)
HANDS_PER_BATCH = 16_384

#: local workers may be threads: the kernel releases the GIL for a whole chunk
#: (``analysis.simulation`` reads this)
NOGIL = True


def simulate_chunk(
    seed: int, chunk: int, rounds: int, options: Mapping[str, object]
) -> ChunkResult:
    """``rounds`` hands with bets, drawn only from ``chunk_generator(seed, chunk)``.

    One compiled call plays the whole chunk, releasing the GIL. The random stream is the
    generator's raw 64-bit words, each split into two 32-bit draws (low half first), made
    uniform below ``n`` by Lemire's method (:func:`lemire_below`). Shoes: each a
    Fisher-Yates shuffle of the sorted shoe (as ``core.rng.Rng.permutation``: position ``i``
    from the last down to 1 swaps with ``below(i + 1)``), played to the end (BA-3.1), the
    last one stopped mid-shoe once ``rounds`` hands are in. Continuous shuffler: six draws
    per hand, the k-th below ``52 * decks - k`` (BA-R4). Deterministic in
    ``(seed, chunk, rounds, options)``; a chunk's first n hands do not depend on ``rounds``.
    """
    rules, series = rules_from_options(options)
    _check_rounds(rounds)
    rounds = int(rounds)
    gen = chunk_generator(seed, chunk)
    buf = _Buffers(rounds, series)
    if rules.continuous_shuffler:
        _simulate_continuous(
            gen, rounds, rules.decks, VALUE, RANK, PLAYER_DRAWS, BANKER_DRAWS, buf.hist,
            *buf.series_args(), HANDS_PER_BATCH,
        )  # fmt: skip
    else:
        base = _sorted_shoe(rules.decks)
        _simulate_shoes(
            gen, base, rounds, rules.decks, rules.cut_from_end,
            rules.burn is BurnMode.FIRST_CARD, rules.last_hand is LastHand.ONE_MORE,
            rules.demonstration_hands, VALUE, RANK, BURN_COUNT, PLAYER_DRAWS, BANKER_DRAWS,
            buf.hist, *buf.series_args(),
        )  # fmt: skip
    return buf.result(rules, rounds)


@cache
def _sorted_shoe(decks: int) -> I8:
    """The card codes of ``decks`` decks, sorted: the shoe before its shuffle. Read-only."""
    base = np.sort(shoe_codes(full_set(decks)))
    base.setflags(write=False)
    return base


def prepare(options: Mapping[str, object]) -> None:
    """Load (or compile) the kernels once, before workers start: forked workers and threads
    then share them instead of each loading numba's cache again."""
    simulate_chunk(0, 0, 1, options)
