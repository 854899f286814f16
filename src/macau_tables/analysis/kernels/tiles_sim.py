"""Pai Gow (PG) and Taiwan Pai Kao (TW) round simulation: numba cores on explicit arrays.

Nothing in the kernel knows a rule by itself. Everything rule-bound is a lookup table built
once, in Python, from the readable code, so the kernel cannot drift from the engine:

* ``setting[h] = (front rank, back rank)``: for each of the C(32, 4) = 35,960 four-tile
  hands (T-1, T-4), indexed by the colex rank of its four physical tiles (positions in
  :data:`macau_tables.tiles.FULL_SET`), the setting a strategy of
  :mod:`macau_tables.tiles.strategies` chooses (``house-way``, ``max-back``) or, for TW
  players, the regulation's forced setting (TW-6b / TW-R1), as the engine's dense ranks
  (:func:`macau_tables.tiles.rank_of`, T-2: 1 is 至尊, equal hands share a rank);
* ``front_cmp[p, b]`` / ``back_cmp[p, b]``: the game's ``compare_hand`` on a hand of rank
  ``p`` against one of rank ``b`` (+1 the player's hand wins, -1 the banker's, 0 equal).
  PG: a copy goes to the banker (PG-6.1), 0 against 0 in front goes to the banker (PG-6.2);
  TW: equal hands are equal (TW-6c, TW-9a);
* ``seat_tab[f + 1, b + 1]``: the game's ``compare_seat`` for a front result ``f`` and a
  back result ``b`` (PG-6.3 / PG-6.4; TW-6c "if one pair is equal, the other decides").

A round (:func:`play_orders`) takes a woodpile order (the 32 physical tiles, stack ``i`` =
positions ``4i … 4i+3``, as ``rounds.TileRound`` deals it) and a four-dice total, and deals as
the engine does (PG-1.2 / PG-1.4 / PG-R1, TW-2b / TW-2d): the banker sits at seat 1, the seat
reached by counting the total from the banker (``(total - 1) mod places`` seats on) takes
the first stack of the pile, the others follow counter-clockwise. TW four-place shoes
(TW-2d / TW-R2) play two rounds per shuffle: the first deals stacks 0-3, the second, after
its own dice, stacks 4-7. (The 16 tiles of the first round are public in the second, TW-R2;
the strategies here set from a seat's four tiles alone, so they do not use them.)

Each player seat's result against the banker is a code: +1 the player wins, -1 the banker
wins, 0 a push. :func:`simulate_chunk` draws the woodpiles and dice from
:func:`macau_tables.analysis.kernels.rng.chunk_generator` and tallies them as a
:class:`~macau_tables.analysis.simresult.ChunkResult` (lines described at
:func:`simulate_chunk`). The bank's capital is taken as never binding (PG-4.5 / TW-5c cap
no unit bet here).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, TypeVar, cast

import numpy as np
import numpy.typing as npt
from numba import njit

from macau_tables.analysis.kernels.rng import chunk_generator
from macau_tables.analysis.simresult import ChunkResult, cross_key
from macau_tables.core.errors import InvalidInput
from macau_tables.games.tiles import paigow, taiwan
from macau_tables.games.tiles.rounds import Regulation, SeatResult
from macau_tables.tiles import FULL_SET, Hand, Setting, Tile, TileRules, rank_of, ranking
from macau_tables.tiles.hands import Comparison
from macau_tables.tiles.strategies import MAX_BACK, STRATEGIES, strategy

F = TypeVar("F", bound=Callable[..., Any])

I8 = npt.NDArray[np.int8]
I16 = npt.NDArray[np.int16]
I64 = npt.NDArray[np.int64]

HANDS = 35_960  # C(32, 4) four-tile hands (T-1)
OPTIMAL = "optimal"
GAMES: Mapping[str, Regulation] = {"paigow": paigow.PAIGOW, "taiwan": taiwan.TAIWAN}
#: Rounds drawn and played per batch inside :func:`simulate_chunk` (bounded memory).
BATCH = 1 << 16


def _jit(func: F) -> F:
    """``numba.njit(cache=True)``, keeping the Python signature for the type checker."""
    return cast(F, njit(cache=True)(func))


# --- the tables (built once per rule set / strategy, from the readable code) ---------------


def _binomials() -> I64:
    table = np.zeros((33, 5), dtype=np.int64)
    for n in range(33):
        for k in range(5):
            table[n, k] = _comb(n, k)
    return table


def _comb(n: int, k: int) -> int:
    if k > n:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


BINOM = _binomials()


def hand_index(positions: tuple[int, ...] | list[int]) -> int:
    """Colex rank, 0 … 35,959, of four distinct physical tiles (positions in FULL_SET)."""
    a, b, c, d = sorted(positions)
    if not 0 <= a < b < c < d < 32:
        raise InvalidInput("four different tiles of the set, positions 0 to 31", rule="T-1")
    return _comb(a, 1) + _comb(b, 2) + _comb(c, 3) + _comb(d, 4)


def _setting_ranks(setting: Setting, rules: TileRules) -> tuple[int, int]:
    return rank_of(setting.front.value, rules), rank_of(setting.back.value, rules)


def chooser(
    rules: TileRules, name: str, vs: str = "house-way", commission: Fraction | None = None
) -> Callable[[tuple[Tile, ...]], Setting]:
    """How a seat playing ``name`` sets four tiles: a strategy of the registry
    (``house-way``, ``max-back``); ``forced``, the TW regulation's forced setting (TW-6b /
    TW-R1); or ``optimal``, the player's exact best response to a banker playing ``vs`` with
    this ``commission`` (:func:`macau_tables.analysis.tiles.best_setting`: what
    ``paigow_par``'s ``optimal`` player plays)."""
    if name == "forced":
        forced = taiwan.TAIWAN.forced_setting
        assert forced is not None
        return lambda ts: forced(ts, rules)
    if name == OPTIMAL:
        from macau_tables.analysis.tiles import best_setting

        return lambda ts: best_setting(ts, rules, vs=vs, commission=commission)
    chosen = strategy(name)
    return lambda ts: chosen.choose(ts, rules)


def _game_of(rules: TileRules) -> str:
    for game, reg in GAMES.items():
        if reg.tiles == rules:
            return game
    raise InvalidInput(f"no game is played under the rule set {rules.name!r}", rule="T-2")


def _build_hand_classes() -> dict[str, I16]:
    from macau_tables.analysis.tiles import _class_of

    out = np.zeros(HANDS, dtype=np.int16)
    for combo in itertools.combinations(range(32), 4):
        out[hand_index(combo)] = _class_of([FULL_SET[i] for i in combo])
    return {"cls": out}


@cache
def hand_classes() -> I16:
    """``(35960,)``: the hand class (:mod:`macau_tables.analysis.tiles`, multisets of tile
    types) of every four-tile hand, by colex index. From the table cache; read-only."""
    from macau_tables.analysis import tablecache
    from macau_tables.analysis.tiles import TABLE_SOURCES

    z = tablecache.arrays(
        "tile-hand-classes", {}, (*TABLE_SOURCES, "analysis/kernels/tiles_sim.py"),
        _build_hand_classes,
    )  # fmt: skip
    cls: I16 = z["cls"]
    return cls


@cache
def setting_table(
    rules: TileRules, name: str, vs: str = "house-way", commission: Fraction | None = None
) -> I16:
    """``(35960, 2)`` int16: for every four-tile hand, (front rank, back rank) of the setting
    :func:`chooser` gives. Built once per hand *class* (8,130 multisets of tiles) from the
    readable strategy — ``optimal`` from the one exact counting pass of
    :func:`macau_tables.analysis.tiles.best_response` — and kept in the table cache
    (:mod:`macau_tables.analysis.tablecache`), so a process reads it in milliseconds.
    Read-only."""
    from macau_tables.analysis.tiles import COMMISSION, class_table

    game = _game_of(rules)
    c = COMMISSION[game] if commission is None else Fraction(commission)
    key = name.strip().lower().replace("_", "-")
    by_class = class_table(game, key, vs=vs, commission=c)  # type: ignore[arg-type]
    table: I16 = np.ascontiguousarray(by_class[hand_classes()], dtype=np.int16)
    table.setflags(write=False)
    return table


@dataclass(frozen=True)
class CompareTables:
    """A regulation's comparison rules as tables over the dense ranks (see module doc)."""

    front: I8  # (R+1, R+1): row/column 0 unused
    back: I8
    seat: I8  # (3, 3): [front code + 1, back code + 1] -> seat code


_SEAT_CODE = {SeatResult.PLAYER: 1, SeatResult.BANKER: -1, SeatResult.PUSH: 0}


def _hand_code(game: str, player: Hand, banker: Hand, *, front: bool) -> int:
    """The engine's own hand comparison, as +1 (player), -1 (banker), 0 (equal)."""
    if game == "paigow":  # PG-6.1, PG-6.2: a copy, and 0 against 0 in front, to the banker
        return _SEAT_CODE[paigow.compare_hand(player, banker, front=front)]
    c = taiwan.compare_hand(player, banker)  # TW-6c / TW-9a: no banker advantage
    return {Comparison.HIGHER: 1, Comparison.LOWER: -1, Comparison.EQUAL: 0}[c]


@cache
def compare_tables(game: str) -> CompareTables:
    """Build the hand and seat tables of ``game`` from its ``compare_hand`` /
    ``compare_seat`` (PG-6.1 … PG-6.4; TW-6c, TW-9a), on one hand of each dense rank."""
    reg = GAMES[game]
    rules = reg.tiles
    reps: dict[int, Hand] = {}
    for h in ranking(rules):
        reps.setdefault(h.rank, Hand(h.tiles[0], h.tiles[1], rules))
    size = max(reps) + 1
    tables = {}
    witness: dict[tuple[bool, int], tuple[Hand, Hand]] = {}
    for is_front in (True, False):
        t = np.zeros((size, size), dtype=np.int8)
        for p, ph in reps.items():
            for b, bh in reps.items():
                code = _hand_code(game, ph, bh, front=is_front)
                t[p, b] = code
                witness.setdefault((is_front, code), (ph, bh))
        t.setflags(write=False)
        tables[is_front] = t
    seat = np.zeros((3, 3), dtype=np.int8)
    for f in (-1, 0, 1):
        for b in (-1, 0, 1):
            if (True, f) in witness and (False, b) in witness:
                pf, bf = witness[(True, f)]
                pb, bb = witness[(False, b)]
                result = reg.compare_seat(Setting(pf, pb), Setting(bf, bb))
                seat[f + 1, b + 1] = _SEAT_CODE[result]
    seat.setflags(write=False)
    return CompareTables(tables[True], tables[False], seat)


# --- the numba cores --------------------------------------------------------------------------


@_jit
def shuffle_orders(swaps: npt.NDArray[np.uint8]) -> I8:
    """Woodpile orders from Fisher-Yates draws (as ``core.rng.Rng.permutation``): row ``r``
    starts as 0 … 31; for ``i`` from 31 down to 1, swap positions ``i`` and
    ``swaps[r, 31 - i]`` (a uniform draw in ``0 … i``)."""
    n = swaps.shape[0]
    out = np.empty((n, 32), dtype=np.int8)
    for r in range(n):
        for i in range(32):
            out[r, i] = i
        for k in range(31):
            i = 31 - k
            j = swaps[r, k]
            t = out[r, i]
            out[r, i] = out[r, j]
            out[r, j] = t
    return out


@_jit
def _hand_at(order: I8, stack: int, binom: I64) -> int:
    """Colex index of the four tiles of stack ``stack`` of a woodpile order."""
    a = order[4 * stack]
    b = order[4 * stack + 1]
    c = order[4 * stack + 2]
    d = order[4 * stack + 3]
    # sorting network for four values
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return int(binom[a, 1] + binom[b, 2] + binom[c, 3] + binom[d, 4])


@_jit
def _play(
    orders: I8,
    totals: I64,
    places: int,
    player_set: I16,
    banker_set: I16,
    front_cmp: I8,
    back_cmp: I8,
    seat_tab: I8,
    binom: I64,
    out: I8,
) -> None:
    """Play ``len(totals)`` rounds; ``out[r, s - 2]`` is seat ``s``'s result (seats 2 …
    ``places``; the banker is seat 1). Round ``r`` uses woodpile ``r // (8 // places)``."""
    per_shoe = 8 // places
    pf = np.zeros(8, dtype=np.int16)
    pb = np.zeros(8, dtype=np.int16)
    for r in range(totals.shape[0]):
        shoe = r // per_shoe
        base = (r % per_shoe) * places  # TW-R2: the second round deals stacks 4-7
        first = (totals[r] - 1) % places  # PG-R1 / TW-2b: counted from the banker as 1
        bf = 0
        bb = 0
        for k in range(places):
            seat = (first + k) % places  # 0 is the banker's seat (seat 1)
            h = _hand_at(orders[shoe], base + k, binom)
            if seat == 0:
                bf = banker_set[h, 0]
                bb = banker_set[h, 1]
            else:
                pf[seat] = player_set[h, 0]
                pb[seat] = player_set[h, 1]
        for seat in range(1, places):
            f = front_cmp[pf[seat], bf]
            b = back_cmp[pb[seat], bb]
            out[r, seat - 1] = seat_tab[f + 1, b + 1]


@_jit
def _tally(out: I8, player: I64, bank: I64) -> None:
    """Add seat results to ``player[code + 1]`` and each round's (banker wins, banker
    losses) to ``bank[wins, losses]``."""
    for r in range(out.shape[0]):
        won = 0
        lost = 0
        for s in range(out.shape[1]):
            c = out[r, s]
            player[c + 1] += 1
            if c < 0:
                won += 1
            elif c > 0:
                lost += 1
        bank[won, lost] += 1


# --- options ----------------------------------------------------------------------------------

OPTION_KEYS = frozenset(
    {"game", "places", "player_strategy", "banker_strategy", "commission", "bank_line",
     "bank_commission", "series"}
)  # fmt: skip


@dataclass(frozen=True)
class TileSimOptions:
    """Validated options of a tile-game simulation.

    - ``game``: ``"paigow"`` (default) or ``"taiwan"``;
    - ``places``: 8 (PG-1.4; TW default) or 4 (TW-2d, TW-R2: two rounds per shuffle);
    - ``player_strategy``: PG ``"house-way"`` (default), ``"max-back"`` or ``"optimal"``
      (the exact best response to the banker's strategy and the commission, as
      ``analysis.tiles.paigow_par`` plays it; its table comes from one exact counting
      pass, made once and kept in the table cache); TW players are bound to the forced
      setting (TW-6b / TW-R1): ``"forced"`` (default; ``"max-back"`` is the same setting),
      anything else raises;
    - ``banker_strategy``: ``"house-way"`` (default) or ``"max-back"`` (``"forced"`` is
      accepted for it: TW-R1's option binding the banker); not ``"optimal"``;
    - ``commission``: charged on a win, an exact fraction (int, Fraction or ``"4/100"``;
      PG-4.2: 4/100 and TW-8: 5/100 by default);
    - ``bank_line``: also count the bank's net per round (line ``"bank"``, see
      :func:`simulate_chunk`); off by default, the PAR sheets have no such line;
    - ``bank_commission``: ``"net"`` (PG-R5, PG default) or ``"per_bet"`` (TW-R3, TW
      default), for the bank line;
    - ``series``: keep the per-round ``seat_result`` array.
    """

    game: str
    places: int
    player_strategy: str
    banker_strategy: str
    commission: Fraction
    bank_line: bool
    bank_commission: str
    series: bool

    @property
    def regulation(self) -> Regulation:
        return GAMES[self.game]

    @property
    def player_seats(self) -> int:
        return self.places - 1

    def player_table(self) -> I16:
        """The players' setting table (``optimal``: the best response to this banker)."""
        rules = self.regulation.tiles
        if self.player_strategy == OPTIMAL:
            return setting_table(rules, OPTIMAL, self.banker_strategy, self.commission)
        return setting_table(rules, self.player_strategy)

    @property
    def line_name(self) -> str:
        """The PAR line this pairing is (``analysis.tiles.paigow_par`` / ``taiwan_par``)."""
        if self.player_strategy == "forced":
            return f"forced player vs banker {self.banker_strategy}"
        return f"player {self.player_strategy} vs banker {self.banker_strategy}"


def _strategy_name(value: object, key: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{key} must be a strategy name, not {value!r}")
    name = value.strip().lower().replace("_", "-")
    if name == "forced":
        return name
    # ``optimal`` is not in the readable registry (tiles.strategies): it is computed by
    # analysis.tiles, imported only when a seat plays it (:func:`chooser`)
    registry = {**STRATEGIES, OPTIMAL: None}
    if name not in registry:
        raise InvalidInput(
            f"unknown setting strategy {name!r}: choose {' or '.join(sorted(registry))}"
        )
    return name


def _flag(options: Mapping[str, object], key: str) -> bool:
    value = options.get(key, False)
    if not isinstance(value, bool):
        raise InvalidInput(f"{key} must be true or false, not {value!r}")
    return value


def parse_options(options: Mapping[str, object]) -> TileSimOptions:
    """Check ``options`` (see :class:`TileSimOptions`); bad input raises
    :class:`~macau_tables.core.errors.InvalidInput` naming the rule where there is one."""
    unknown = set(options) - OPTION_KEYS
    if unknown:
        raise InvalidInput(f"unknown tile simulation options {sorted(unknown)}")
    game = options.get("game", "paigow")
    if not isinstance(game, str) or game not in GAMES:
        raise InvalidInput(f"game must be paigow or taiwan, not {game!r}")
    reg = GAMES[game]
    places = options.get("places", 8)
    if isinstance(places, bool) or not isinstance(places, int) or places not in reg.places:
        raise InvalidInput(
            f"{reg.title} deals to {' or '.join(map(str, reg.places))} places, not {places!r}",
            rule=reg.places_rule,
        )
    if reg.forced_setting is not None:
        player = _strategy_name(options.get("player_strategy", "forced"), "player_strategy")
        if player not in ("forced", MAX_BACK.name):
            raise InvalidInput(
                f"players must make the back the highest hand (the forced setting), "
                f"not play {player}",
                rule="TW-6b",
            )
        player = "forced"
    else:
        player = _strategy_name(options.get("player_strategy", "house-way"), "player_strategy")
        if player == "forced":
            raise InvalidInput("Pai Gow players set freely: use max-back", rule="PG-5.1")
    banker = _strategy_name(options.get("banker_strategy", "house-way"), "banker_strategy")
    if banker == "forced":
        banker = MAX_BACK.name
    if banker == OPTIMAL:
        raise InvalidInput(
            "the banker's best response is not simulated: the registry's optimal is a "
            "player's (analysis.tiles.paigow_par / taiwan_par count it exactly)"
        )
    commission = options.get("commission", reg.commission)
    if isinstance(commission, str):
        try:
            commission = Fraction(commission)
        except ValueError:
            raise InvalidInput(f"commission {commission!r} is not a fraction") from None
    rule = "PG-4.2" if game == "paigow" else "TW-8"
    if isinstance(commission, bool) or not isinstance(commission, int | Fraction):
        raise InvalidInput(f"commission must be an exact fraction, not {commission!r}", rule=rule)
    commission = Fraction(commission)
    if not 0 <= commission < 1:
        raise InvalidInput(f"commission must lie in [0, 1), not {commission}", rule=rule)
    bank_commission = options.get("bank_commission", reg.bank_commission_default)
    if bank_commission not in ("net", "per_bet"):
        raise InvalidInput(
            f"bank_commission must be net or per_bet, not {bank_commission!r}", rule="PG-R5"
        )
    return TileSimOptions(
        game,
        places,
        player,
        banker,
        commission,
        _flag(options, "bank_line"),
        str(bank_commission),
        _flag(options, "series"),
    )


# --- running on explicit sequences (the engine comparison) ------------------------------------


def shoes_for(rounds: int, places: int) -> int:
    """Woodpiles needed for ``rounds`` rounds: one per round, or one per two at 4 places."""
    per = 8 // places
    return (rounds + per - 1) // per


def play_orders(orders: npt.ArrayLike, totals: npt.ArrayLike, options: Mapping[str, object]) -> I8:
    """Play rounds on given woodpiles and dice totals; return the seat results.

    ``orders``: ``(shoes, 32)`` positions in FULL_SET, woodpile order (stack ``i`` is
    ``order[4i:4i+4]``); ``totals``: one four-dice total (4-24) per round. With 8 places
    round ``r`` plays woodpile ``r``; with 4 places (TW-R2) rounds ``2k`` and ``2k+1`` play
    woodpile ``k`` (stacks 0-3, then 4-7). Returns ``(rounds, places - 1)`` int8: column
    ``s - 2`` is seat ``s`` (the banker is seat 1): +1 player wins, -1 banker wins, 0 push.
    """
    opts = parse_options(options)
    o = np.asarray(orders, dtype=np.int64)
    t = np.ascontiguousarray(totals, dtype=np.int64)
    if t.ndim != 1 or (t.size and (t.min() < 4 or t.max() > 24)):
        raise InvalidInput("one four-dice total, 4 to 24, per round", rule="PG-1.2")
    shoes = shoes_for(t.size, opts.places)
    if o.ndim != 2 or o.shape != (shoes, 32):
        raise InvalidInput(f"{shoes} woodpiles of 32 tiles for {t.size} rounds", rule="PG-1.4")
    if o.size and not (np.sort(o, axis=1) == np.arange(32)).all():
        raise InvalidInput("each woodpile is the 32 tiles of one set", rule="T-1")
    return _play_checked(np.ascontiguousarray(o, dtype=np.int8), t, opts)


def _play_checked(orders: I8, totals: I64, opts: TileSimOptions) -> I8:
    rules = opts.regulation.tiles
    cmp = compare_tables(opts.game)
    out = np.empty((totals.size, opts.player_seats), dtype=np.int8)
    _play(
        orders,
        totals,
        opts.places,
        opts.player_table(),
        setting_table(rules, opts.banker_strategy),
        cmp.front,
        cmp.back,
        cmp.seat,
        BINOM,
        out,
    )
    return out


# --- the chunk ----------------------------------------------------------------------------------

#: The PAR line's labels by seat code + 1 (``analysis.tiles``: win / loss / push).
PLAYER_LABELS = ("loss", "push", "win")


def bank_label(won: int, lost: int) -> str:
    """The bank line's label for a round where the bank won ``won`` seats and lost ``lost``."""
    return f"won{won}_lost{lost}"


def bank_net(won: int, lost: int, commission: Fraction, mode: str) -> Fraction:
    """The bank's net for one round, one unit on every player seat: ``per_bet`` (TW-R3)
    charges the commission on each bet the bank wins; ``net`` (PG-R5) on the round's net win.
    """
    if mode == "per_bet":
        return won * (1 - commission) - lost
    net = Fraction(won - lost)
    return net * (1 - commission) if net > 0 else net


def tally(seat_results: npt.ArrayLike, options: Mapping[str, object]) -> ChunkResult:
    """Count seat results (from :func:`play_orders`) as :func:`simulate_chunk` does."""
    opts = parse_options(options)
    out = np.ascontiguousarray(seat_results, dtype=np.int8)
    if out.ndim != 2 or out.shape[1] != opts.player_seats or not np.isin(out, (-1, 0, 1)).all():
        raise InvalidInput(f"seat results are codes -1, 0, 1 for {opts.player_seats} seats")
    player = np.zeros(3, dtype=np.int64)
    bank = np.zeros((8, 8), dtype=np.int64)
    _tally(out, player, bank)
    return _result(out.shape[0], player, bank, opts, out)


def _result(rounds: int, player: I64, bank: I64, opts: TileSimOptions, series: I8) -> ChunkResult:
    c = opts.commission
    line = opts.line_name
    counts = {line: {label: int(player[i]) for i, label in enumerate(PLAYER_LABELS)}}
    nets = {line: {"win": 1 - c, "loss": Fraction(-1), "push": Fraction(0)}}
    if opts.bank_line:
        counts["bank"], nets["bank"] = {}, {}
        for won in range(opts.places):
            for lost in range(opts.places - won):
                n = int(bank[won, lost])
                if n:
                    counts["bank"][bank_label(won, lost)] = n
                    nets["bank"][bank_label(won, lost)] = bank_net(
                        won, lost, c, opts.bank_commission
                    )
    out_series: dict[str, np.ndarray[Any, Any]] = {}
    if opts.series:
        out_series["seat_result"] = series
    # the seats of a round share the banker's hand: second moments of the per-round counts
    # (from the bank's won/lost table) let the statistics use rounds as clusters
    moments: dict[str, int] = {}
    seats = opts.player_seats
    for won in range(opts.places):
        for lost in range(opts.places - won):
            n = int(bank[won, lost])
            if not n:
                continue
            # bank[won, lost]: the banker won ``won`` seats (player losses), lost ``lost``
            per_round = {"win": lost, "loss": won, "push": seats - won - lost}
            for a in PLAYER_LABELS:
                for b in PLAYER_LABELS:
                    if a <= b:
                        key = cross_key(a, b)
                        moments[key] = moments.get(key, 0) + n * per_round[a] * per_round[b]
    cross = {line: moments}
    return ChunkResult(opts.game, rounds, counts, nets, out_series, cross)


def simulate_chunk(
    seed: int, chunk: int, rounds: int, options: Mapping[str, object]
) -> ChunkResult:
    """Play ``rounds`` rounds drawn from ``chunk_generator(seed, chunk)``; deterministic in
    ``(seed, chunk, rounds, options)``.

    Per batch of rounds the generator draws the woodpiles (Fisher-Yates draws, PG-1.1 /
    TW-2a), then four dice per round (PG-1.2 / TW-2b); :func:`play_orders`' core deals and
    compares. Lines of the result:

    - the pairing's PAR line, named as :func:`macau_tables.analysis.tiles.paigow_par` /
      ``taiwan_par`` name it (``"player house-way vs banker house-way"``, ``"forced player
      vs banker house-way"``): one decision per player seat per round (7 × rounds at 8
      places, 3 × rounds at 4), labels ``"win"`` (net ``1 - commission``, PG-4.2 / TW-8),
      ``"loss"`` (-1), ``"push"`` (0). The seats of one round share the banker's hand, so
      their results are positively correlated: the standard error of the mean is larger
      than ``std_dev / sqrt(decisions)`` (see tests/analysis/test_tiles_sim.py);
    - with ``bank_line``, ``"bank"``: one decision per round, the bank's net against one
      unit on every player seat, labelled ``won{w}_lost{l}`` (seats won and lost by the
      bank), commission per ``bank_commission`` (PG-R5 on the round's net win, TW-R3 on
      each bet won).

    ``series["seat_result"]`` (only with ``series``): ``(rounds, places - 1)`` int8, column
    ``s - 2`` is seat ``s`` (the banker is seat 1): 1 player wins, -1 banker wins, 0 push.
    """
    opts = parse_options(options)
    for name, value in (("seed", seed), ("chunk", chunk), ("rounds", rounds)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidInput(f"{name} must be a whole number >= 0, not {value!r}")
    gen = chunk_generator(seed, chunk)
    highs = np.arange(32, 1, -1, dtype=np.uint8)  # draw k is uniform in 0 … 31 - k
    player = np.zeros(3, dtype=np.int64)
    bank = np.zeros((8, 8), dtype=np.int64)
    kept: list[I8] = []
    done = 0
    while done < rounds:
        n = min(BATCH, rounds - done)  # BATCH is even: a 4-place shoe never straddles two
        swaps = gen.integers(0, highs, size=(shoes_for(n, opts.places), 31), dtype=np.uint8)
        dice = gen.integers(1, 7, size=(n, 4), dtype=np.int64)
        out = _play_checked(shuffle_orders(swaps), dice.sum(axis=1), opts)
        _tally(out, player, bank)
        if opts.series:
            kept.append(out)
        done += n
    series = np.concatenate(kept) if kept else np.zeros((0, opts.player_seats), np.int8)
    return _result(rounds, player, bank, opts, series)


def prepare(options: Mapping[str, object]) -> None:
    """Build (or read from the table cache) the setting and comparison tables of
    ``options`` and load the compiled cores, once, in the process that then forks the
    workers (``analysis.simulation.run``): the workers inherit them."""
    opts = parse_options(options)
    opts.player_table()
    setting_table(opts.regulation.tiles, opts.banker_strategy)
    compare_tables(opts.game)
    simulate_chunk(0, 0, 2, options)
