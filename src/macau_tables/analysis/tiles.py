"""Exact Pai Gow (PG, 1985) and Taiwan Pai Kao (TW, 1990) mathematics: one seat against the
banker over every deal, the ``optimal`` setting (an exact best response), and setting hints.

**What is counted.** One player seat against the banker, the deal uniform over the 32 tiles
(T-1): the player's four tiles are any 4 of 32, the banker's any 4 of the other 28, so there
are C(32, 4) · C(28, 4) = 35,960 · 20,475 = 736,281,000 equally likely ordered deals. (The
other six seats' tiles are unseen and, by symmetry, change nothing.) Every figure is an
exact integer count of those deals; probabilities and edges are :class:`~fractions.Fraction`.

**Comparison.** PG: PG-6.1 (a copy goes to the banker), PG-6.2 (the banker's 0 beats the
player's 0 in front, whatever the tiles; a pair, wong or gong is never 0), PG-6.3 / PG-6.4
(both hands win or lose the bet, one each is a push), hand values by T-2 with the Gee Joon
conversion of PG-5.5 / PG-R9. TW: TW-6c / TW-9a (no banker advantage; if one pair is
equal, the other decides; both equal is a push), T-2 without 地九王 and without the Gee Joon
conversion (TW-7b, TW-9b); players set by the forced rule (TW-6b read as TW-R1), the
banker freely. The counting kernel (:mod:`.kernels.tiles_exact`) is checked deal by deal
against ``games.paigow.compare_seat`` / ``games.taiwan.compare_seat`` in the tests.

**Conventions.**

* Edges are per unit staked by the side, in a one-on-one seat. The player's bet wins
  ``1 - commission`` (PG-4.2 4% / TW-8 5% of the amount won; for this analysis the
  commission is charged on each winning bet, as PG-R5 charges a player's win and TW-R3 the
  bank's per-bet default — not PG-R5's net-per-round charge on the bank, and without the
  rounding to the minor unit), loses 1, pushes 0. ``banker_edge`` is the banker's house
  edge in the same pairing, per unit of the player's stake: the banker wins the stake less
  commission when the player loses and pays 1 when the player wins, so
  ``banker_edge = P(win) - (1 - commission) · P(loss)`` (positive: the bank loses).
  The bank's capital limit (PG-4.5) never binds one unit against one seat.
* ``optimal`` is an exact best response to the *other side's* strategy in the same call:
  ``paigow_par(player="optimal", banker="house-way")`` sets each four-tile player hand in
  the way with the highest exact expected value over every banker hand of the remaining 28
  tiles (commission included); ``banker="optimal"`` is the banker's best response to the
  player's strategy (the banker knows the player's *strategy*, not the player's tiles).
  Both sides ``optimal`` is refused (that would be an equilibrium, not a best response).
  The registered strategy ``strategy("optimal")`` (:data:`OPTIMAL_STRATEGY`, in this
  module's :data:`STRATEGIES` beside the readable ones: ``tiles.strategies.Optimal`` built
  with :func:`best_setting`) is the player's best response to the house way, under the
  rules passed (pg1985: PG comparison, 4%; tw1990: TW comparison, 5%).
* **Tie-break** (optimal and :func:`hint`): among settings of exactly equal expected value,
  the one with the higher back, then the higher front (T-2; max-back's order); settings
  equal in both hands are the same play, and the first of the three settings of the tiles
  in canonical order (Table I rank, then pips) is returned.
* The other strategies (``max-back``, ``house-way``) are the readable ones of
  :mod:`macau_tables.tiles.strategies`, called once per hand class (below).

**Method.** Identical tiles are one value, so a four-tile hand is a multiset of the 21 tile
types (a *hand class*; 8,130 of them, weighted by the number of physical hands each
stands for). Each strategy is asked once per class for its setting, the setting is reduced
to two dense hand ranks with PG-6.2 folded in, and the numba kernel counts every pair of
classes, weighted by the physical deals it stands for. Commission touches only the
expected values, so win/loss/push are counted once.

**Built once.** The class tables (settings, ranks, each strategy's choice) and the full
set's counts — every class's three settings against a fixed strategy, the one pass that
gives the optimal response and every hint — are the same in every process: they are kept
in the table cache (:mod:`macau_tables.analysis.tablecache`), keyed by a hash of the code
that makes them (:data:`TABLE_SOURCES`), and a process that finds them there neither
rebuilds them nor imports numba.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache, cached_property
from types import MappingProxyType
from typing import Literal

import numpy as np

from macau_tables.analysis import tablecache
from macau_tables.analysis.kernels import tiles_exact as kx
from macau_tables.analysis.par import BetLine, ParSheet, frac_json, outcomes_from_counts
from macau_tables.core.errors import InvalidInput
from macau_tables.tiles import (
    PG1985,
    TW1990,
    Category,
    Setting,
    Tile,
    TileRules,
    evaluate,
    settings,
)
from macau_tables.tiles.hands import (
    SPLITS,
    Hand,
    check_tiles_available,
    class_count,
    make_setting,
    rank_of,
    tile_rules,
)
from macau_tables.tiles.strategies import STRATEGIES as _READABLE
from macau_tables.tiles.strategies import (
    Optimal,
    SettingStrategy,
    follows_forced_rule,
    forced_setting,
)
from macau_tables.tiles.strategies import strategy as _strategy
from macau_tables.tiles.tile import DISTINCT_TILES, FULL_SET

Game = Literal["paigow", "taiwan"]
Side = Literal["player", "banker"]

OPTIMAL = "optimal"
HOUSE_WAY = "house-way"
MAX_BACK = "max-back"

#: Default commissions: PG-4.2 (4%) and TW-8 (5%).
COMMISSION: dict[str, Fraction] = {"paigow": Fraction(4, 100), "taiwan": Fraction(5, 100)}
_COMMISSION_RULE = {"paigow": "PG-4.2", "taiwan": "TW-8"}
RULES: dict[str, TileRules] = {"paigow": PG1985, "taiwan": TW1990}

#: Tiles of each type in the full set (T-1), in DISTINCT_TILES order.
FULL_COUNTS: tuple[int, ...] = tuple(FULL_SET.count(t) for t in DISTINCT_TILES)
_TYPE: dict[Tile, int] = {t: i for i, t in enumerate(DISTINCT_TILES)}

#: C(32, 4) and C(28, 4): the player's and the banker's hands of one full set.
HANDS = math.comb(32, 4)
DEALS = math.comb(32, 4) * math.comb(28, 4)


# --- hand classes -------------------------------------------------------------------------------

#: The code the tables below are made from: a change to any of these files builds them
#: again (:mod:`macau_tables.analysis.tablecache`).
TABLE_SOURCES: tuple[str, ...] = (
    "tiles/*.py",
    "games/tiles/rounds.py",
    "games/tiles/paigow.py",
    "games/tiles/taiwan.py",
    "analysis/tiles.py",
    "analysis/tablecache.py",
    "analysis/kernels/tiles_exact.py",
    "analysis/kernels/lazyjit.py",
)


def _canonical(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Table I rank, then pips: the order the strategies use (tiles.strategies)."""
    return tuple(sorted(tiles, key=lambda t: (t.rank, t)))


@dataclass(frozen=True)
class _Universe:
    """The 8,130 hand classes of the full set (see :mod:`.kernels.tiles_exact`)."""

    k: np.ndarray  # (n, 21) count of each type
    types: np.ndarray  # (n, 4) distinct types
    mults: np.ndarray  # (n, 4) their multiplicities
    index: dict[int, int]  # the k vector as a base-3 number (:func:`_base3`) -> class

    @cached_property
    def tiles(self) -> tuple[tuple[Tile, ...], ...]:
        """Canonical representative tiles of every class."""
        return tuple(self.rep(i) for i in range(len(self.k)))

    def rep(self, cls: int) -> tuple[Tile, ...]:
        row = self.k[cls]
        return _canonical([DISTINCT_TILES[t] for t in range(kx.TYPES) for _ in range(int(row[t]))])


def _build_classes() -> dict[str, np.ndarray]:
    k, types, mults, _ = kx.hand_classes(FULL_COUNTS)  # small numbers: stored as int8
    return {"k": k.astype(np.int8), "types": types.astype(np.int8), "mults": mults.astype(np.int8)}


@cache
def _universe() -> _Universe:
    z = tablecache.arrays("tile-classes", {}, TABLE_SOURCES, _build_classes)
    k, types, mults = (z[name].astype(np.int64) for name in ("k", "types", "mults"))
    for a in (k, types, mults):
        a.setflags(write=False)
    codes = (k * _POWERS3).sum(axis=1)
    index = dict(zip(codes.tolist(), range(len(k)), strict=True))
    return _Universe(k, types, mults, index)


#: 3**t for each tile type: a class's counts (0–2 each, T-1) as one base-3 number
_POWERS3 = 3 ** np.arange(21, dtype=np.int64)


def _class_of(tiles: Sequence[Tile]) -> int:
    return _universe().index[sum(int(_POWERS3[_TYPE[t]]) for t in tiles)]


def _pool(counts: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The classes a pool can deal (indices into the universe) and their weights."""
    u = _universe()
    c = np.array(counts, dtype=np.int64)
    idx = np.flatnonzero((u.k <= c).all(axis=1))
    binom = np.array([[1, 0, 0], [1, 1, 0], [1, 2, 1]], dtype=np.int64)
    weight = binom[c[None, :], u.k[idx]].prod(axis=1)
    return idx, weight


Key = tuple[int, int, int]  # HandValue.key: larger is higher, equal is a copy


@dataclass(frozen=True)
class _Options:
    """The three settings (T-4) of every class under one game's rules: their T-2 keys, the
    engine's dense ranks and the kernel codes."""

    keys: np.ndarray  # (n, 3, 2, 3): (front key, back key) per option
    ranks: np.ndarray  # (n, 3, 2): (front rank, back rank), tiles.rank_of
    codes: np.ndarray  # (n, 3, 2): kernel codes (front, back), lower is better

    def values(self, cls: int) -> tuple[tuple[Key, Key], ...]:
        """(front key, back key) of each option of ``cls``."""
        return tuple((tuple(front), tuple(back)) for front, back in self.keys[cls].tolist())

    def order(self, cls: int) -> tuple[tuple[Key, Key], ...]:
        """(back key, front key) of each option: the tie-break."""
        return tuple((back, front) for front, back in self.values(cls))


@cache
def _two_tile(game: Game) -> tuple[dict[tuple[Tile, Tile], Key], dict[Key, tuple[int, int]]]:
    """T-2 key of every two-tile hand of two types, and each key's kernel codes as a front
    and as a back: the dense rank (1 best), and PG-6.2 in front: every points hand worth 0
    shares one code, worse than every rank (so a 0-0 front is a copy: the banker's)."""
    rules = RULES[game]
    keys = {
        (a, b): evaluate(a, b, rules).key
        for a in DISTINCT_TILES
        for b in DISTINCT_TILES
        if a != b or FULL_SET.count(a) == 2  # a lone tile makes no pair with itself (T-1)
    }
    zero = class_count(rules) + 1
    codes: dict[Key, tuple[int, int]] = {}
    for (a, b), key in keys.items():
        v = evaluate(a, b, rules)
        back = rank_of(v, rules)
        pg_zero = game == "paigow" and v.category is Category.POINTS and v.points == 0
        codes[key] = (zero if pg_zero else back, back)
    return keys, codes


def _build_options(game: Game) -> dict[str, np.ndarray]:
    keys_of, codes_of = _two_tile(game)
    reps = _universe().tiles
    n = len(reps)
    keys = np.zeros((n, 3, 2, 3), dtype=np.int64)
    ranks = np.zeros((n, 3, 2), dtype=np.int16)
    codes = np.zeros((n, 3, 2), dtype=np.int64)
    for i, tiles in enumerate(reps):
        for s, ((a, b), (c, d)) in enumerate(SPLITS):
            one, two = keys_of[tiles[a], tiles[b]], keys_of[tiles[c], tiles[d]]
            front, back = (two, one) if one > two else (one, two)  # make_setting (T-4)
            keys[i, s] = (front, back)
            ranks[i, s] = (codes_of[front][1], codes_of[back][1])
            codes[i, s] = (codes_of[front][0], codes_of[back][1])
    return {"keys": keys, "ranks": ranks, "codes": codes}


@cache
def _options(game: Game) -> _Options:
    z = tablecache.arrays(
        "tile-options", {"game": game}, TABLE_SOURCES, lambda: _build_options(game)
    )
    return _Options(z["keys"], z["ranks"], z["codes"])


def _setting(game: Game, cls: int, option: int) -> Setting:
    """Option ``option`` of class ``cls``: ``settings(tiles, rules)[option]`` (T-4)."""
    tiles = _universe().rep(cls)
    (a, b), (c, d) = SPLITS[option]
    rules = RULES[game]
    return make_setting(Hand(tiles[a], tiles[b], rules), Hand(tiles[c], tiles[d], rules))


def _values(setting: Setting) -> tuple[Key, Key]:
    return (setting.front.value.key, setting.back.value.key)


FORCED = "forced"


def _build_choices(name: str, game: Game) -> dict[str, np.ndarray]:
    rules = RULES[game]
    choose = forced_setting if name == FORCED else _strategy(name).choose
    opts = _options(game)
    out = np.zeros(len(opts.keys), dtype=np.int8)
    for i, tiles in enumerate(_universe().tiles):
        out[i] = opts.values(i).index(_values(choose(tiles, rules)))
    return {"choice": out}


@cache
def _choices(name: str, game: Game) -> np.ndarray:
    """The option (0–2) the readable strategy ``name`` plays with each class (``forced``:
    TW-6b's forced setting, :func:`~macau_tables.tiles.strategies.forced_setting`). Built
    once from the readable strategy, then read from the table cache."""
    key = {"name": name, "game": game}
    z = tablecache.arrays("tile-choices", key, TABLE_SOURCES, lambda: _build_choices(name, game))
    choice: np.ndarray = z["choice"].astype(np.int64)
    choice.setflags(write=False)
    return choice


def _fixed_codes(choice: np.ndarray, game: Game) -> np.ndarray:
    codes: np.ndarray = _options(game).codes[np.arange(len(choice)), choice]
    return codes


# --- counting -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Tally:
    """Exact counts of a pairing from the player's side: deals won, lost and pushed."""

    win: int
    loss: int
    push: int

    @property
    def total(self) -> int:
        return self.win + self.loss + self.push


def _commission(value: Fraction | int, rule: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, Fraction | int):
        raise InvalidInput(
            f"commission must be an exact Fraction, not {value!r} (money is never a float)",
            rule=rule,
        )
    c = Fraction(value)
    if not 0 <= c < 1:
        raise InvalidInput(f"commission must lie in [0, 1), not {c}", rule=rule)
    return c


def _ev_numerators(counts: np.ndarray, c: Fraction) -> list[list[int]]:
    """``q · EV`` (times the class's opponent total) of each option, exact ints: a win pays
    ``1 - c`` (``c = p/q``), a loss costs 1."""
    p, q = c.numerator, c.denominator
    return [[(q - p) * o[kx.WIN] - q * o[kx.LOSS] for o in row] for row in counts.tolist()]


def _best(evs: Sequence[int], order: Sequence[tuple[object, ...]]) -> int:
    """The option with the highest EV; ties: higher back, then higher front, then first."""
    best = 0
    for s in range(1, len(evs)):
        if (evs[s], order[s]) > (evs[best], order[best]):
            best = s
    return best


def _mode(game: Game, first: Side) -> int:
    if game == "taiwan":
        return kx.TW_SYMMETRIC
    return kx.PG_FIRST_PLAYER if first == "player" else kx.PG_FIRST_BANKER


def _kernel_counts(
    game: Game, counts: tuple[int, ...], first: str | None, other: str, mode: int
) -> np.ndarray:
    """``pair_counts`` over every class the pool ``counts`` can deal: the first side plays
    ``first``'s option (``(n, 1, 3)``) or, if None, each of the three (``(n, 3, 3)``),
    against ``other``; rows follow :func:`_pool`'s classes."""
    u, opts = _universe(), _options(game)
    idx, _ = _pool(counts)
    first_codes = (
        opts.codes[idx]
        if first is None
        else _fixed_codes(_choices(first, game), game)[idx][:, None, :]
    )
    out: np.ndarray = kx.pair_counts(
        np.array(counts, dtype=np.int64), u.k[idx], first_codes, u.types[idx], u.mults[idx],
        _fixed_codes(_choices(other, game), game)[idx], mode,
    )  # fmt: skip
    return out


def _full_counts(game: Game, first: str | None, other: str, mode: int) -> np.ndarray:
    """:func:`_kernel_counts` on the full set, counted once and kept in the table cache:
    every physical deal of the 32 tiles, so the same for every process and every hint."""
    key = {"game": game, "first": first, "other": other, "mode": mode}
    z = tablecache.arrays(
        "tile-counts",
        key,
        TABLE_SOURCES,
        lambda: {"counts": _kernel_counts(game, FULL_COUNTS, first, other, mode)},
    )
    out: np.ndarray = z["counts"]
    return out


@dataclass(frozen=True)
class _Result:
    tally: Tally
    best_response: np.ndarray | None  # option per universe class (-1: not in the pool)
    pool: np.ndarray


def _count(
    game: Game,
    counts: tuple[int, ...],
    player: str | None,
    banker: str | None,
    commission: Fraction,
) -> _Result:
    """Count a pairing over every deal of the pool ``counts``. ``player`` / ``banker``: the
    strategy each side plays (``forced``, ``max-back``, ``house-way``); ``None``: that side
    best-responds. The full set's counts come from the table cache."""
    u = _universe()
    opts = _options(game)
    idx, weight = _pool(counts)
    if player is None and banker is None:
        raise InvalidInput("optimal against optimal is not a best response: fix one side")
    first: Side = "banker" if banker is None else "player"
    fixed, other = (player, banker) if first == "player" else (None, player)
    assert other is not None
    mode = _mode(game, first)

    def kernel(first_strategy: str | None) -> np.ndarray:
        if counts == FULL_COUNTS:
            return _full_counts(game, first_strategy, other, mode)
        return _kernel_counts(game, counts, first_strategy, other, mode)

    if fixed is not None:
        out = kernel(fixed)
        w, l_, p = (int(x) for x in (weight[:, None] * out[:, 0, :]).sum(axis=0))
        return _Result(Tally(w, l_, p), None, idx)
    out = kernel(None)
    evs = _ev_numerators(out, commission)
    chosen = np.array([_best(evs[n], opts.order(i)) for n, i in enumerate(idx)], dtype=np.int64)
    picked = out[np.arange(len(idx)), chosen]
    won, lost, pushed = (int(x) for x in (weight[:, None] * picked).sum(axis=0))
    response = np.full(len(u.k), -1, dtype=np.int64)
    response[idx] = chosen
    tally = Tally(won, lost, pushed) if first == "player" else Tally(lost, won, pushed)
    return _Result(tally, response, idx)


def _norm(name: str) -> str:
    return name.strip().lower().replace("_", "-")


def _side(name: str) -> str | None:
    """A strategy name, checked, or None for ``optimal`` (the best response)."""
    key = _norm(name)
    if key == OPTIMAL:
        return None
    _strategy(key, STRATEGIES)  # unknown names raise InvalidInput listing the strategies
    return key


def _deviations(response: np.ndarray, pool: np.ndarray, game: Game, weights: np.ndarray) -> int:
    """Physical hands (of the pool) on which a best response differs in value from the
    house way."""
    hw = _choices(HOUSE_WAY, game)
    keys = _options(game).keys[pool]
    rows = np.arange(len(pool))
    differs = (keys[rows, response[pool]] != keys[rows, hw[pool]]).any(axis=(1, 2))
    return int(weights[differs].sum())


def _line(
    name: str, tally: Tally, commission: Fraction, rule: str, notes: tuple[str, ...]
) -> BetLine:
    total = tally.total
    outcomes = outcomes_from_counts(
        (
            ("win", 1 - commission, tally.win),
            ("loss", Fraction(-1), tally.loss),
            ("push", Fraction(0), tally.push),
        ),
        total,
    )
    extras = {
        "banker_edge": Fraction(tally.win, total) - (1 - commission) * Fraction(tally.loss, total),
        "p_win": Fraction(tally.win, total),
        "p_loss": Fraction(tally.loss, total),
        "p_push": Fraction(tally.push, total),
    }
    pays = f"1:1 less {frac_json(commission * 100)}% commission"
    return BetLine(name, outcomes, rule=rule, pays=pays, extras=extras, notes=notes)


def _pairing(
    game: Game,
    counts: tuple[int, ...],
    player: str,
    banker: str,
    commission: Fraction,
    rule: str,
) -> BetLine:
    player, banker = _norm(player), _norm(banker)
    p, b = _side(player), _side(banker)
    result = _count(game, counts, p, banker=b, commission=commission)
    notes: list[str] = []
    if result.best_response is not None:
        who, vs = ("player", banker) if p is None else ("banker", player)
        _, weight = _pool(counts)
        dev = _deviations(result.best_response, result.pool, game, weight)
        notes.append(
            f"optimal = the {who}'s exact best response to {vs}; it sets {dev:,} of "
            f"{int(weight.sum()):,} four-tile hands differently (in value) from house-way"
        )
    name = f"player {player} vs banker {banker}"
    return _line(name, result.tally, commission, rule, tuple(notes))


_PG_NOTES = (
    "one player seat against the banker; every ordered deal of the 32 tiles: the player's 4 "
    "of 32, the banker's 4 of the other 28 (C(32,4)·C(28,4) = 736,281,000)",
    "PG-6.1 copies and PG-6.2 the 0-0 front go to the banker; PG-5.5/PG-R9 Gee Joon 3 or 6",
    "net per unit staked; a winning bet pays 1 less commission (PG-4.2, charged per winning "
    "bet as PG-R5 does for players); banker_edge = P(win) - (1 - commission)·P(loss), the "
    "banker's edge per unit of the player's stake (positive: the bank loses)",
    "optimal: exact best response to the other side; ties go to the higher back, then the "
    "higher front",
)


def paigow_par(
    player: str = HOUSE_WAY,
    banker: str = HOUSE_WAY,
    commission: Fraction = COMMISSION["paigow"],
) -> ParSheet:
    """PG one player seat against the banker, exactly, over all 736,281,000 deals.

    ``player`` / ``banker``: ``max-back``, ``house-way`` or ``optimal`` (the exact best
    response to the other side, commission included; not both). ``commission``: PG-4.2's 4%
    by default (5% to compare with US figures).
    """
    c = _commission(commission, "PG-4.2")
    line = _pairing("paigow", FULL_COUNTS, player, banker, c, "PG-6")
    return ParSheet(
        game="paigow",
        title="Pai Gow (Portaria 96/85/M): one player seat against the banker, every deal",
        options={"player": player, "banker": banker, "commission": frac_json(c), "rules": "pg1985"},
        lines=(line,),
        total=DEALS,
        notes=_PG_NOTES,
    )


#: The pairings of :func:`paigow_comparison`, (player, banker).
PAIRINGS: tuple[tuple[str, str], ...] = (
    (HOUSE_WAY, HOUSE_WAY),
    (MAX_BACK, MAX_BACK),
    (MAX_BACK, HOUSE_WAY),
    (HOUSE_WAY, MAX_BACK),
    (OPTIMAL, HOUSE_WAY),
    (HOUSE_WAY, OPTIMAL),
    (OPTIMAL, MAX_BACK),
    (MAX_BACK, OPTIMAL),
)


def paigow_comparison(commission: Fraction = COMMISSION["paigow"]) -> ParSheet:
    """PG: one line per strategy pairing (:data:`PAIRINGS`), every line exact over all
    736,281,000 deals: the player's edge (``house_edge``) and the banker's (``banker_edge``)."""
    c = _commission(commission, "PG-4.2")
    lines = tuple(_pairing("paigow", FULL_COUNTS, p, b, c, "PG-6") for p, b in PAIRINGS)
    return ParSheet(
        game="paigow",
        title="Pai Gow (Portaria 96/85/M): setting strategies compared, every deal",
        options={"commission": frac_json(c), "rules": "pg1985"},
        lines=lines,
        total=DEALS,
        notes=_PG_NOTES,
    )


def _exposed_counts(exposed: Sequence[Tile]) -> tuple[int, ...]:
    """The 16 tiles left for TW-R2's second round, per type."""
    tiles = tuple(exposed)
    if not all(isinstance(t, Tile) for t in tiles):
        raise InvalidInput("exposed tiles must be Tile values", rule="TW-R2")
    if len(tiles) != 16:
        raise InvalidInput(
            f"a four-place round exposes 16 tiles (4 places × 4), not {len(tiles)}", rule="TW-R2"
        )
    check_tiles_available(tiles)  # T-1
    return tuple(n - tiles.count(t) for n, t in zip(FULL_COUNTS, DISTINCT_TILES, strict=True))


def taiwan_par(
    banker: str = HOUSE_WAY,
    commission: Fraction = COMMISSION["taiwan"],
    exposed: Sequence[Tile] | None = None,
) -> ParSheet:
    """TW one forced player (TW-6b / TW-R1) against the banker, exactly, over every deal.

    ``banker``: ``max-back`` (the players' own rule: the game is then symmetric),
    ``house-way`` or ``optimal`` (the banker's exact best response to forced players).
    TW-6c comparison, no banker advantage (TW-9a), ``commission`` TW-8's 5% by default.
    ``exposed``: the 16 tiles of a four-place shoe's first round (TW-2d, TW-R2); the
    figures are then those of the second round, dealt from the other 16 tiles
    (C(16,4)·C(12,4) = 900,900 deals), with an ``optimal`` banker who knows them.
    """
    c = _commission(commission, "TW-8")
    counts = FULL_COUNTS if exposed is None else _exposed_counts(exposed)
    banker = _norm(banker)
    b = _side(banker)
    result = _count("taiwan", counts, MAX_BACK, b, c)  # TW-R1: the forced setting
    notes: list[str] = []
    if result.best_response is not None:
        _, weight = _pool(counts)
        dev = _deviations(result.best_response, result.pool, "taiwan", weight)
        notes.append(
            f"optimal = the banker's exact best response to forced players; it sets {dev:,} "
            f"of {int(weight.sum()):,} four-tile hands differently (in value) from house-way"
        )
    line = _line(f"forced player vs banker {banker}", result.tally, c, "TW-6c", tuple(notes))
    pool_size = sum(counts)
    total = math.comb(pool_size, 4) * math.comb(pool_size - 4, 4)
    assert result.tally.total == total
    options: dict[str, str] = {"banker": banker, "commission": frac_json(c), "rules": "tw1990"}
    if exposed is not None:
        options["exposed"] = " ".join(str(t) for t in _canonical(exposed))
    return ParSheet(
        game="taiwan",
        title="Taiwan Pai Kao (Portaria 15/90/M): a forced player against the banker"
        + (", second round of a four-place shoe (TW-R2)" if exposed is not None else ""),
        options=options,
        lines=(line,),
        total=total,
        notes=(
            f"one player seat against the banker; every ordered deal of {pool_size} tiles: "
            f"player 4, banker 4 of the rest ({total:,} deals)",
            "players set by TW-6b/TW-R1 (back = the highest two-tile hand); TW-6c: an equal "
            "pair lets the other decide, no banker advantage (TW-9a); no 地九王, no Gee Joon "
            "conversion (TW-7b, TW-9b)",
            "net per unit staked; a winning bet pays 1 less commission (TW-8, per bet, TW-R3); "
            "banker_edge = P(win) - (1 - commission)·P(loss) per unit of the player's stake",
        ),
    )


# --- hints --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SettingEV:
    """One setting of a four-tile hand (T-4) with its exact value against every hand the
    opponent can hold from the other 28 tiles: ``win``/``loss``/``push`` are counts of those
    ``total`` hands from the hinted side's view, ``ev`` the expected net per unit staked
    (commission on a win)."""

    setting: Setting
    ev: Fraction
    win: int
    loss: int
    push: int
    total: int
    #: TW-6b / TW-R1: a setting a Taiwan player may not keep — the dealer re-sets it to
    #: this one, and ``ev`` and the counts are those of the re-set (what is really played).
    reset_to: Setting | None = None

    @property
    def allowed(self) -> bool:
        """Whether the player may keep this setting (TW-6b); always so in Pai Gow."""
        return self.reset_to is None

    @property
    def p_win(self) -> Fraction:
        return Fraction(self.win, self.total)

    @property
    def p_loss(self) -> Fraction:
        return Fraction(self.loss, self.total)

    @property
    def p_push(self) -> Fraction:
        return Fraction(self.push, self.total)


def _game(game: str) -> Game:
    g = game.strip().lower()
    if g == "paigow":
        return "paigow"
    if g == "taiwan":
        return "taiwan"
    raise InvalidInput(f"unknown game {game!r}: choose paigow or taiwan")


def hint(
    tiles: Sequence[Tile],
    *,
    vs: str | None = None,
    as_: Side = "player",
    game: str = "paigow",
    commission: Fraction | None = None,
) -> list[SettingEV]:
    """The three settings of ``tiles`` (T-4), best first, with exact EV and counts against
    every opponent hand of the remaining 28 tiles.

    ``as_``: whose tiles they are. ``vs``: the opponent's strategy (``max-back`` or
    ``house-way``); by default the house way, except a Taiwan Pai Kao banker's opponents,
    who play the forced setting (TW-R1). ``commission`` defaults to the game's (PG-4.2,
    TW-8). Ties are ordered as for ``optimal``: higher back, then higher front.

    A Taiwan player (TW-6b / TW-R1) is offered first the settings he may keep (the highest
    back); each setting he may not keep follows, marked with the dealer's re-set
    (``reset_to``) and valued as the re-set, which is what would be played.
    """
    g = _game(game)
    if as_ not in ("player", "banker"):
        raise InvalidInput(f"as_ must be 'player' or 'banker', not {as_!r}")
    c = _commission(COMMISSION[g] if commission is None else commission, _COMMISSION_RULE[g])
    if len(tiles) != 4:
        raise InvalidInput(f"a seat's hand has four tiles, not {len(tiles)}", rule="T-4")
    check_tiles_available(tiles)
    default = MAX_BACK if (g, as_) == ("taiwan", "banker") else HOUSE_WAY  # TW-R1
    opponent = _norm(default if vs is None else vs)
    if opponent == OPTIMAL:
        raise InvalidInput("hint against optimal is circular: choose max-back or house-way")
    ranked = _hint(_class_of(tiles), opponent, as_, g, c)
    if (g, as_) != ("taiwan", "player"):
        return ranked
    keep = [o for o in ranked if follows_forced_rule(o.setting, tiles, TW1990)]
    forced = forced_setting(tiles, TW1990)
    dealer = next(
        o
        for o in keep
        if (o.setting.front.value.key, o.setting.back.value.key)
        == (forced.front.value.key, forced.back.value.key)
    )
    resets = [
        replace(dealer, setting=o.setting, reset_to=dealer.setting) for o in ranked if o not in keep
    ]
    return keep + resets


def _hint(cls: int, opponent: str, as_: Side, game: Game, c: Fraction) -> list[SettingEV]:
    opts = _options(game)
    other = _side(opponent)
    assert other is not None
    # the class's row of the full set's counts (every opponent hand of the other 28 tiles)
    out = _full_counts(game, None, other, _mode(game, as_))[cls]
    evs = _ev_numerators(out[None], c)[0]
    # best first; the sort is stable under reverse, so exact equals keep their order (_best)
    order = opts.order(cls)
    ranked = sorted(range(3), key=lambda s: (evs[s], order[s]), reverse=True)
    total = int(out[0].sum())
    q = c.denominator
    return [
        SettingEV(
            _setting(game, cls, s),
            Fraction(evs[s], q * total),
            int(out[s, kx.WIN]),
            int(out[s, kx.LOSS]),
            int(out[s, kx.PUSH]),
            total,
        )
        for s in ranked
    ]


def best_setting(
    tiles: Sequence[Tile],
    rules: TileRules | str = PG1985,
    *,
    vs: str = HOUSE_WAY,
    commission: Fraction | None = None,
) -> Setting:
    """The player's exact best response to a banker playing ``vs``: the game is the rule
    set's (pg1985: Pai Gow, PG-6, 4%; tw1990: Taiwan Pai Kao, TW-6c, 5%). What
    ``strategy("optimal")`` plays."""
    r = tile_rules(rules)
    if r not in (PG1985, TW1990):
        raise InvalidInput(f"no game is played under the rule set {r.name!r}", rule="T-2")
    game: Game = "taiwan" if r == TW1990 else "paigow"
    return hint(tiles, vs=vs, as_="player", game=game, commission=commission)[0].setting


#: ``optimal`` as a setting strategy: the player's best response to the house way
#: (:class:`~macau_tables.tiles.strategies.Optimal` with :func:`best_setting`).
OPTIMAL_STRATEGY = Optimal(best_setting)

#: Every setting strategy by name: the readable ones (``tiles.strategies.STRATEGIES``) and
#: ``optimal``. Read-only.
STRATEGIES: Mapping[str, SettingStrategy] = MappingProxyType(
    {**_READABLE, OPTIMAL: OPTIMAL_STRATEGY}
)


def strategy(name: str) -> SettingStrategy:
    """The strategy called ``name`` (``max-back``, ``house-way``, ``optimal``; ``_`` for
    ``-`` accepted): ``tiles.strategies.strategy`` over :data:`STRATEGIES`."""
    return _strategy(name, STRATEGIES)


def optimal_table(
    game: str = "paigow",
    *,
    side: Side = "player",
    vs: str = HOUSE_WAY,
    commission: Fraction | None = None,
) -> dict[tuple[Tile, ...], Setting]:
    """The whole best response at once: for every four-tile hand (canonical order: Table I
    rank, then pips; one entry per multiset of tiles, 8,130 of them) the setting that
    ``side`` plays against ``vs`` — the same setting :func:`hint` puts first."""
    g = _game(game)
    c = _commission(COMMISSION[g] if commission is None else commission, _COMMISSION_RULE[g])
    response = best_response(g, side=side, vs=vs, commission=c)
    return {tiles: _setting(g, i, int(response[i])) for i, tiles in enumerate(_universe().tiles)}


@cache
def best_response(
    game: Game, *, side: Side = "player", vs: str = HOUSE_WAY, commission: Fraction
) -> np.ndarray:
    """The option (0–2 of T-4's settings, per hand class) that ``side`` plays in its exact
    best response to ``vs`` — :func:`optimal_table` as an array, from the full set's counts
    (one kernel pass, kept in the table cache). Read-only."""
    other = _side(vs)
    if other is None:
        raise InvalidInput("optimal against optimal is not a best response: fix one side")
    fixed = (None, other) if side == "player" else (other, None)
    result = _count(game, FULL_COUNTS, fixed[0], fixed[1], commission)
    assert result.best_response is not None
    out = result.best_response
    out.setflags(write=False)
    return out


def class_table(game: Game, name: str, *, vs: str = HOUSE_WAY, commission: Fraction) -> np.ndarray:
    """``(8130, 2)`` int16: (front rank, back rank) (:func:`~macau_tables.tiles.rank_of`) of
    the setting ``name`` plays with each hand class: ``forced`` (TW-6b), a registered
    strategy (``max-back``, ``house-way``), or ``optimal``, the player's best response to a
    banker playing ``vs`` with this commission. From the table cache; read-only."""
    key = _norm(name)
    if key == OPTIMAL:
        choice = best_response(game, side="player", vs=_norm(vs), commission=commission)
    else:
        if key != FORCED:
            _side(key)  # unknown names raise InvalidInput listing the strategies
        choice = _choices(key, game)
    ranks = _options(game).ranks
    out: np.ndarray = ranks[np.arange(len(choice)), choice]
    out.setflags(write=False)
    return out


def deal_result(
    player: Sequence[Tile],
    banker: Sequence[Tile],
    *,
    game: str = "paigow",
    player_strategy: str = HOUSE_WAY,
    banker_strategy: str = HOUSE_WAY,
) -> Literal["win", "loss", "push"]:
    """The counting kernel's verdict on one deal, from the player's side: its setting codes
    and comparison, exposed so tests can hold it against the engine's ``compare_seat``."""
    g = _game(game)
    check_tiles_available([*player, *banker])
    if len(player) != 4 or len(banker) != 4:
        raise InvalidInput("each side holds four tiles", rule="T-4")
    p, b = _side(player_strategy), _side(banker_strategy)
    if p is None or b is None:
        raise InvalidInput("deal_result takes fixed strategies (max-back, house-way)")
    u = _universe()
    i, j = _class_of(player), _class_of(banker)
    out = kx.pair_counts(
        np.array(FULL_COUNTS, dtype=np.int64), u.k[i : i + 1],
        _fixed_codes(_choices(p, g), g)[i : i + 1][:, None, :], u.types[j : j + 1],
        u.mults[j : j + 1], _fixed_codes(_choices(b, g), g)[j : j + 1], _mode(g, "player"),
    )[0, 0]  # fmt: skip
    labels: tuple[Literal["win", "loss", "push"], ...] = ("win", "loss", "push")
    return labels[int(np.flatnonzero(out)[0])]


def hand_structure_counts() -> dict[str, int]:
    """Four-tile hands of the full set by how many pairs (T-2: 寶 or 至尊) they hold:
    ``two_pair`` (two disjoint pairs), ``one_pair``, ``no_pair``, counted over the hand
    classes with their weights."""
    u = _universe()
    _, weight = _pool(FULL_COUNTS)
    out = {"two_pair": 0, "one_pair": 0, "no_pair": 0}
    pairs = (Category.PAIR, Category.GEE_JOON)
    for tiles, w in zip(u.tiles, weight, strict=True):
        three = settings(tiles, PG1985)
        if any(s.front.value.category in pairs and s.back.value.category in pairs for s in three):
            out["two_pair"] += int(w)
        elif any(h.value.category in pairs for s in three for h in (s.front, s.back)):
            out["one_pair"] += int(w)
        else:
            out["no_pair"] += int(w)
    return out
