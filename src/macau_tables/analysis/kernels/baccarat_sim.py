"""Baccarat simulation kernel: whole Macau shoes, or a continuous shuffler, in numba.

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

The compiled code is :mod:`~macau_tables.analysis.kernels.baccarat_core`; this
module imports without numba. :func:`simulate_chunk` runs the core's entry points from the
shared library :mod:`~macau_tables.analysis.kernels.native` builds from them once (no numba
in the process at all), else through numba's dispatcher; the explicit runs
(:func:`run_shoes`, :func:`run_continuous`) always use the dispatcher.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

from macau_tables.analysis.kernels import native
from macau_tables.analysis.kernels.rng import Generator, bitgen_address, chunk_generator
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
U8 = npt.NDArray[np.uint8]
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
#: banker_pair (``baccarat_core.HIST_SIZE``)
HIST_SIZE = 24


def hand_table() -> U8:
    """The whole of a shoe hand after its first four cards, for the shoe kernel: entry
    ``[player total, banker total, v, w]`` (``v``, ``w``: the BA-5 values of the two cards
    that follow, dealt or not) is ``outcome * 8 + banker_six * 4`` (the histogram index
    without the pairs) plus 1 if Player draws (the card of value ``v``) plus 2 if Banker
    draws (the card of value ``w`` after a Player third card, else ``v``). Made from
    :data:`PLAYER_DRAWS` / :data:`BANKER_DRAWS` (the engine's BA-9 rules): BA-11 / BA-12
    the higher final total wins, equal ones tie; BA-R7 a Banker win on 6."""
    pt, bt, v, w = np.indices((10, 10, 10, 10))
    p_draw = PLAYER_DRAWS[pt, bt]
    third = np.where(p_draw, v + 1, 0)
    b_draw = BANKER_DRAWS[bt, pt, third]
    pf = (pt + np.where(p_draw, v, 0)) % 10
    bf = (bt + np.where(b_draw, np.where(p_draw, w, v), 0)) % 10
    outcome = np.where(pf == bf, TIE, np.where(pf > bf, PLAYER_WINS, BANKER_WINS))
    six = (outcome == BANKER_WINS) & (bf == 6)
    table = outcome * 8 + six * 4 + p_draw * 1 + b_draw * 2
    return np.ascontiguousarray(table, dtype=np.uint8)


#: :func:`hand_table`, and the BA-5 values and BA-13 ranks as uint8 (the shoe kernel's)
HAND_TABLE: U8 = hand_table()
VALUE_U8: U8 = VALUE.astype(np.uint8)
RANK_U8: U8 = RANK.astype(np.uint8)

# --- the compiled code: numba's dispatcher, or the same code built ahead of time ----------


def _core() -> Any:
    """:mod:`~macau_tables.analysis.kernels.baccarat_core` (imports numba: only when the
    dispatcher runs, i.e. the explicit runs, the tests' helpers, or no native library)."""
    from macau_tables.analysis.kernels import baccarat_core

    return baccarat_core


#: the simulation's entry points, built ahead of time by :mod:`.native` (all-integer
#: arguments: addresses and sizes)
_CORE_MODULE = "macau_tables.analysis.kernels.baccarat_core"
EXPORTS = (
    native.Export("macau_baccarat_shoes", _CORE_MODULE, "shoes_entry", 24),
    native.Export("macau_baccarat_continuous", _CORE_MODULE, "continuous_entry", 20),
)
#: the code the native library is made from (globs relative to the package)
NATIVE_SOURCES = ("analysis/kernels/baccarat_core.py",)


def _entries() -> tuple[Any, Any]:
    """(shoes, continuous) entry points: the native library's (loaded, or built once and
    then loaded; no numba import), else numba's dispatchers of the same functions."""
    lib = native.load("baccarat-sim", EXPORTS, NATIVE_SOURCES)
    if lib is not None:
        return lib["macau_baccarat_shoes"], lib["macau_baccarat_continuous"]
    core = _core()
    return core.shoes_entry, core.continuous_entry


def _at(a: npt.NDArray[Any]) -> int:
    """The address of a C-contiguous array's data, for the entry points."""
    assert a.flags.c_contiguous
    return int(a.ctypes.data)


def _checked(hands: int) -> int:
    if hands == native.FAILED:  # the compiled code raised (see _play_shoes): never on checked input
        raise ValueError("the baccarat kernel failed: cut card under 12 cards from the end?")
    return int(hands)


def shuffled_shoes(gen: Generator, cards: npt.ArrayLike, n: int) -> I8:
    """``n`` successive Fisher-Yates shuffles of ``cards`` (int8 codes) from ``gen``'s raw
    words, as :func:`simulate_chunk` shuffles its shoes."""
    base = np.ascontiguousarray(cards, dtype=np.int8)
    return _core()._shuffles(bitgen_address(gen), base, n)  # type: ignore[no-any-return]


def bounded_draws(gen: Generator, highs: npt.ArrayLike) -> I64:
    """``below(highs[i])`` for each ``i`` in order from ``gen``'s raw words (the stream
    :func:`simulate_chunk` draws from)."""
    h = np.ascontiguousarray(highs, dtype=np.int64)
    return _core()._belows(bitgen_address(gen), h)  # type: ignore[no-any-return]


def lemire_table(bits: int, s: int) -> I64:
    """``baccarat_core.lemire_below`` of every ``bits``-bit input (``-1``: rejected): the
    exhaustive uniformity check's data."""
    return _core()._lemire_all(np.uint64(bits), np.uint64(s))  # type: ignore[no-any-return]


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
    hands, used, rows = _core()._play_shoes(
        shoes,
        rules.decks,
        rules.cut_from_end,
        rules.burn is BurnMode.FIRST_CARD,
        rules.last_hand is LastHand.ONE_MORE,
        rules.demonstration_hands,
        target,
        VALUE_U8,
        RANK_U8,
        BURN_COUNT,
        HAND_TABLE,
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
    _core()._play_continuous(
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
        np.empty(12, dtype=np.int64),
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
#: raw 64-bit words fetched from the bit generator at a time (each gives two 32-bit draws)
WORDS_PER_REFILL = 256

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
    shoes_entry, continuous_entry = _entries()
    bitgen = bitgen_address(gen)
    words = np.empty(WORDS_PER_REFILL, dtype=np.uint64)
    used = np.full(1, 2 * WORDS_PER_REFILL, dtype=np.int64)  # empty: the first draw refills
    n_series = buf.s_outcome.shape[0]
    series_at = [_at(x) for x in buf.series_args()]
    tables = (_at(VALUE), _at(RANK))
    draw_tables = (_at(PLAYER_DRAWS), _at(BANKER_DRAWS))
    stream = (_at(words), WORDS_PER_REFILL, _at(used))
    if rules.continuous_shuffler:
        draws = np.empty((HANDS_PER_BATCH, 6), dtype=np.int64)
        scratch = np.empty(12, dtype=np.int64)
        hands = continuous_entry(
            bitgen, rounds, rules.decks, *tables, *draw_tables, _at(buf.hist), n_series,
            *series_at, *stream, _at(draws), HANDS_PER_BATCH, _at(scratch),
        )  # fmt: skip
    else:
        base = _sorted_shoe(rules.decks)
        shoe = np.empty(base.shape[0], dtype=np.int8)
        hands = shoes_entry(
            bitgen, rounds, rules.decks, rules.cut_from_end,
            int(rules.burn is BurnMode.FIRST_CARD), int(rules.last_hand is LastHand.ONE_MORE),
            rules.demonstration_hands, _at(base), base.shape[0], _at(VALUE_U8), _at(RANK_U8),
            _at(BURN_COUNT), _at(HAND_TABLE), _at(buf.hist), n_series, *series_at, *stream,
            _at(shoe),
        )  # fmt: skip
    if _checked(hands) != rounds:
        raise ValueError(f"the baccarat kernel played {hands} of {rounds} hands")
    return buf.result(rules, rounds)


@cache
def _sorted_shoe(decks: int) -> I8:
    """The card codes of ``decks`` decks, sorted: the shoe before its shuffle. Read-only."""
    base = np.sort(shoe_codes(full_set(decks)))
    base.setflags(write=False)
    return base


def prepare(options: Mapping[str, object]) -> None:
    """Load the kernels once, before workers start (the native library, built the first
    time; else numba's dispatcher, compiled or loaded from numba's cache): forked workers
    and threads then share them instead of each loading them again."""
    simulate_chunk(0, 0, 1, options)
