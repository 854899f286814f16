"""Two-tile hands (T-2), four-tile settings (T-4), for the rule sets ``pg1985`` and ``tw1990``.

**T-2** Highest first: the Gee Joon pair 至尊 (``2-4`` + ``1-2``); the pairs 寶 in Table I
order; 天九王 (Teen + 9), 地九王 (Day + 9, PG only: TW-7b), 天罡 (Teen + 8), 地罡
(Day + 8); then points, (sum of pips) mod 10, 9 best (PG-5.4, TW-7b). Within equal points
the hand with the better single tile wins (PG-5.4, TW-7b). Two hands of one category and
value are *equal*: who gets a copy is the game's business (PG-6.1 gives it to the banker,
TW-6c / TW-9a make it a stand-off), so :func:`compare` returns
:attr:`Comparison.EQUAL` and nothing more.

In PG a single Gee Joon tile counts 3 or 6, whichever makes the hand larger (PG-5.5, for
every seat including the banker: PG-R9); in TW it never converts (TW-9b).

Ranks are *dense*: rank 1 is 至尊 and equal hands share a rank, so the ranks run 1 … N
with N the number of distinct values: 107 in pg1985 and 118 in tw1990. The printed Tables
II (106 and 111 entries) list these values in order but not all of them: PG's omits one of
大雞八 (``2-4``+``1-4``) / 雜五八 (``1-4``+``1-2``), TW's omits the seven hands that
細雞 ``1-2`` (never converted in TW) makes with 天, 地, 人, 梅, 紅頭, 虎頭 and ``2-5``.
See docs/tiles.md and T-3 for the printing errors.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

from macau_tables.core.errors import InvalidInput
from macau_tables.tiles.tile import FULL_SET, Tile, parse_tiles

# --- rule sets -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TileRules:
    """What differs between the two regulations in valuing two-tile hands."""

    name: str
    title: str
    gee_joon_converts: bool  # PG-5.5 / PG-R9: yes; TW-9b: no
    day_nine_wong: bool  # PG-5.4: 地九王 exists; TW-7b: no 地九王
    gong_names: tuple[str, str]  # 天罡/地罡 in the PG text, 天槓/地槓 in the TW text


PG1985 = TileRules(
    name="pg1985",
    title="Pai Gow, Portaria 96/85/M",
    gee_joon_converts=True,
    day_nine_wong=True,
    gong_names=("天罡", "地罡"),
)
TW1990 = TileRules(
    name="tw1990",
    title="Taiwan Pai Kao, Portaria 15/90/M",
    gee_joon_converts=False,
    day_nine_wong=False,
    gong_names=("天槓", "地槓"),
)
RULE_SETS: dict[str, TileRules] = {r.name: r for r in (PG1985, TW1990)}


def tile_rules(name: str | TileRules) -> TileRules:
    """The rule set called ``name`` (``pg1985`` or ``tw1990``)."""
    if isinstance(name, TileRules):
        return name
    try:
        return RULE_SETS[name.strip().lower()]
    except KeyError:
        raise InvalidInput(
            f"unknown rule set {name!r}: choose {' or '.join(RULE_SETS)}", rule="T-2"
        ) from None


# --- values of two-tile hands (T-2) --------------------------------------------------------


class Category(Enum):
    """The kinds of two-tile hand, highest first (T-2)."""

    GEE_JOON = "gee_joon"  # 至尊
    PAIR = "pair"  # 寶
    WONG = "wong"  # 天九王, 地九王
    GONG = "gong"  # 天罡, 地罡
    POINTS = "points"


class Comparison(Enum):
    """The result of comparing two hands. EQUAL is a copy; the game decides who takes it."""

    HIGHER = 1
    EQUAL = 0
    LOWER = -1


_NUMERALS = "密一二三四五六七八九"  # 0 is 密 in Tables II ("鵝牌密")


@dataclass(frozen=True)
class HandValue:
    """The value of a two-tile hand under one rule set.

    ``key`` orders hands: a larger key is a higher hand, equal keys are equal hands (a copy).
    ``points`` is the hand's point value for POINTS hands (after PG's Gee Joon conversion)
    and ``None`` for the other categories, which are never worth points (PG-6.2).
    """

    category: Category
    points: int | None
    best: Tile
    key: tuple[int, int, int]
    name: str
    english: str

    def compare(self, other: HandValue) -> Comparison:
        if self.key > other.key:
            return Comparison.HIGHER
        if self.key < other.key:
            return Comparison.LOWER
        return Comparison.EQUAL


def _point_options(tile: Tile, rules: TileRules) -> tuple[int, ...]:
    """PG-5.5 / PG-R9: a lone Gee Joon tile counts 3 or 6; TW-9b: never converts."""
    if rules.gee_joon_converts and tile.is_gee_joon:
        return (3, 6)
    return (tile.points,)


def _order(a: Tile, b: Tile) -> tuple[Tile, Tile]:
    """Best tile first (T-1 rank), then by pips, so a hand prints the same way every time."""
    return (a, b) if (a.rank, b) <= (b.rank, a) else (b, a)


@cache
def evaluate(a: Tile, b: Tile, rules: TileRules = PG1985) -> HandValue:
    """Value of the two-tile hand ``a`` + ``b`` under ``rules`` (T-2)."""
    hi, lo = _order(a, b)
    if {hi.rank, lo.rank} == {15, 17}:  # T-2.1: 大雞六 + 細雞
        return HandValue(Category.GEE_JOON, None, hi, (6, 0, 0), "至尊", "Gee Joon")
    if hi.rank == lo.rank:  # T-2.2: pairs, in Table I order (mixed pairs: same rank)
        return HandValue(
            Category.PAIR,
            None,
            hi,
            (5, 18 - hi.rank, 0),
            f"雙{hi.chinese}",
            f"Pair of {hi.english}",
        )
    if hi.rank in (1, 2):  # T-2.3: 天 or 地 with a 9 (wong) or an 8 (gong)
        heaven = hi.rank == 1
        if lo.rank == 12 and (heaven or rules.day_nine_wong):  # TW-7b: no 地九王 in TW
            return HandValue(
                Category.WONG,
                None,
                hi,
                (4, 4 if heaven else 3, 0),
                "天九王" if heaven else "地九王",
                "Teen Wong" if heaven else "Day Wong",
            )
        if lo.points == 8 and not lo.is_gee_joon:  # 人 (4-4) or 雜八 (3-5, 2-6)
            return HandValue(
                Category.GONG,
                None,
                hi,
                (4, 2 if heaven else 1, 0),
                rules.gong_names[0 if heaven else 1],
                "Teen Gong" if heaven else "Day Gong",
            )
    # T-2.4 / T-2.5: points mod 10, then the best single tile (PG-5.4, TW-7b).
    points = max(
        (x + y) % 10
        for x, y in itertools.product(_point_options(hi, rules), _point_options(lo, rules))
    )
    return HandValue(
        Category.POINTS,
        points,
        hi,
        (3, points, 18 - hi.rank),
        f"{hi.kind.short}{_NUMERALS[points]}",
        f"{hi.english} {points}",
    )


def compare(a: HandValue, b: HandValue) -> Comparison:
    """Compare two hand values: HIGHER, LOWER or EQUAL (a copy)."""
    return a.compare(b)


@dataclass(frozen=True)
class Hand:
    """Two tiles under a rule set; the best tile is stored first."""

    first: Tile
    second: Tile
    rules: TileRules = PG1985

    def __post_init__(self) -> None:
        hi, lo = _order(self.first, self.second)
        object.__setattr__(self, "first", hi)
        object.__setattr__(self, "second", lo)

    @classmethod
    def of(cls, tiles: Iterable[Tile | str], rules: TileRules | str = PG1985) -> Hand:
        parsed = tuple(t if isinstance(t, Tile) else parse_tiles([t])[0] for t in tiles)
        if len(parsed) != 2:
            raise InvalidInput(f"a hand has two tiles, not {len(parsed)}", rule="T-2")
        check_tiles_available(parsed)
        return cls(parsed[0], parsed[1], tile_rules(rules))

    @property
    def tiles(self) -> tuple[Tile, Tile]:
        return (self.first, self.second)

    @property
    def value(self) -> HandValue:
        return evaluate(self.first, self.second, self.rules)

    @property
    def rank(self) -> int:
        """Dense rank, 1 = 至尊; equal hands share a rank."""
        return rank_of(self.value, self.rules)

    def compare(self, other: Hand) -> Comparison:
        if self.rules != other.rules:
            raise InvalidInput("cannot compare hands of different rule sets", rule="T-2")
        return self.value.compare(other.value)

    def __str__(self) -> str:
        return f"{self.first} {self.second}"


# --- the ranking of all 496 two-tile hands -------------------------------------------------


@dataclass(frozen=True)
class RankedHand:
    """One of the C(32, 2) = 496 two-tile hands (T-1), with its dense rank."""

    tiles: tuple[Tile, Tile]
    rank: int
    value: HandValue


@cache
def _rank_table(rules: TileRules) -> dict[tuple[int, int, int], int]:
    keys = sorted({evaluate(a, b, rules).key for a, b in itertools.combinations(FULL_SET, 2)})
    return {key: i for i, key in enumerate(reversed(keys), start=1)}


def rank_of(value: HandValue, rules: TileRules) -> int:
    """Dense rank of a hand value: 1 is the highest (至尊)."""
    return _rank_table(rules)[value.key]


def class_count(rules: TileRules) -> int:
    """Number of distinct hand values (ranks) under ``rules``."""
    return len(_rank_table(rules))


@cache
def ranking(rules: TileRules = PG1985) -> tuple[RankedHand, ...]:
    """All 496 two-tile hands, best first; equal hands share a rank (T-2)."""
    hands = []
    for a, b in itertools.combinations(FULL_SET, 2):
        hi, lo = _order(a, b)
        value = evaluate(hi, lo, rules)
        hands.append(RankedHand((hi, lo), rank_of(value, rules), value))
    hands.sort(key=lambda h: (h.rank, h.tiles[0].rank, h.tiles[0], h.tiles[1].rank, h.tiles[1]))
    return tuple(hands)


# --- four-tile hands: the three settings (T-4) ---------------------------------------------


@dataclass(frozen=True)
class Setting:
    """A four-tile hand split into a front (the lower hand) and a back (the higher) (T-4)."""

    front: Hand
    back: Hand

    @property
    def tiles(self) -> tuple[Tile, Tile, Tile, Tile]:
        return (*self.front.tiles, *self.back.tiles)

    def __str__(self) -> str:
        return f"{self.front} / {self.back}"


def make_setting(pair_a: Hand, pair_b: Hand) -> Setting:
    """Place two hands: the lower is the front, the higher the back (T-4, PG-5.2, TW-6b).

    When both rank equal either may be called front; ``pair_a`` is kept as the front.
    """
    if pair_a.compare(pair_b) is Comparison.HIGHER:
        return Setting(front=pair_b, back=pair_a)
    return Setting(front=pair_a, back=pair_b)


# The three ways to split positions 0-3 into two pairs (T-4).
SPLITS: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (
    ((0, 1), (2, 3)),
    ((0, 2), (1, 3)),
    ((0, 3), (1, 2)),
)


def settings(tiles: Sequence[Tile], rules: TileRules | str = PG1985) -> tuple[Setting, ...]:
    """The three settings of four tiles, each as (front, back) (T-4)."""
    if len(tiles) != 4:
        raise InvalidInput(f"a seat's hand has four tiles, not {len(tiles)}", rule="T-4")
    check_tiles_available(tiles)
    r = tile_rules(rules)
    return tuple(
        make_setting(Hand(tiles[i], tiles[j], r), Hand(tiles[k], tiles[m], r))
        for (i, j), (k, m) in SPLITS
    )


def check_tiles_available(tiles: Sequence[Tile]) -> None:
    """Refuse a group of tiles that one set of 32 cannot hold (T-1)."""
    for tile in set(tiles):
        have = FULL_SET.count(tile)
        if tiles.count(tile) > have:
            raise InvalidInput(
                f"the set has {have} tile{'s' if have > 1 else ''} {tile}, not {tiles.count(tile)}",
                rule="T-1",
            )
