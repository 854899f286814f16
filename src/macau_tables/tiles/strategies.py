"""Automatic setting strategies: how a seat with no human at it sets its four tiles.

The regulations rank hands (T-2) and split four tiles three ways (T-4); they do not say
how to choose. Bots, timed-out seats and the house need a choice. A strategy is a plain,
swappable object (:class:`SettingStrategy`): ``choose(tiles, rules) -> Setting``,
deterministic and pure. Three are defined here (see docs/strategies.md):

* ``max-back`` (:class:`MaxBack`): Taiwan Pai Kao's forced setting (TW-6b, read as
  TW-R1) applied under any rule set: the back is the highest of the six two-tile hands;
  between settings with an equal back, the higher front.
* ``house-way`` (:class:`HouseWay`): the Casino Canberra house way as published
  (../shared/reference/pai-gow-strategies.md): exceptions 4A–4I first, then rules 1, 2, 3,
  the first that applies. Every hand value comes from :func:`evaluate` under the rules in
  play, so the same text works for pg1985 (Gee Joon converts, PG-5.5) and tw1990 (it
  never does, TW-9b; no 地九王, TW-7b).
* ``optimal`` (:class:`Optimal`): the player's exact best response to the house way. The
  class is here; the best response is computed by :mod:`macau_tables.analysis.tiles` (it
  needs numpy and numba), which builds the strategy with its ``best_setting`` and keeps
  the registry that holds all three (``analysis.tiles.STRATEGIES``). This package never
  imports the analysis: :data:`STRATEGIES` here holds the two readable ones.

Every choice is independent of the order the tiles are given in: the tiles are first put
in a canonical order (Table I rank, then pips), and where two settings are equal in both
hands' values the first in that order is returned.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Protocol, runtime_checkable

from macau_tables.core.errors import InvalidInput, RuleViolation
from macau_tables.tiles.hands import (
    PG1985,
    Category,
    Hand,
    HandValue,
    Setting,
    TileRules,
    evaluate,
    make_setting,
    settings,
    tile_rules,
)
from macau_tables.tiles.tile import DISTINCT_TILES, FULL_SET, Tile

Key = tuple[int, int, int]  # HandValue.key: larger is higher, equal is a copy


# --- the protocol and the registry ------------------------------------------------------


@runtime_checkable
class SettingStrategy(Protocol):
    """Sets four tiles. ``choose`` must be deterministic and pure (no state, no chance)."""

    @property
    def name(self) -> str:
        """The registry name, e.g. ``"house-way"``."""
        ...

    def choose(self, tiles: Sequence[Tile], rules: TileRules) -> Setting:
        """One of the three settings (T-4) of exactly ``tiles``, valued under ``rules``."""
        ...


# --- shared helpers -----------------------------------------------------------------------


def _canonical(tiles: Sequence[Tile]) -> tuple[Tile, ...]:
    """Table I order, then pips: the same tiles in any order give the same tuple."""
    return tuple(sorted(tiles, key=lambda t: (t.rank, t)))


def _options(tiles: Sequence[Tile], rules: TileRules) -> tuple[Setting, ...]:
    """The three settings (T-4), built from the canonical order of the tiles."""
    return settings(_canonical(tiles), rules)


def _back_then_front(s: Setting) -> tuple[Key, Key]:
    return (s.back.value.key, s.front.value.key)


def _front_then_back(s: Setting) -> tuple[Key, Key]:
    return (s.front.value.key, s.back.value.key)


def _at_least(points: int, best_rank: int = 17) -> Key:
    """The lowest key of a hand of ``points`` whose best tile ranks ``best_rank`` or better.

    Every non-points hand (pairs, 至尊, wong, gong) has a larger key than any points hand,
    so ``value.key >= _at_least(9)`` reads "9 or better" in the house way's sense.
    """
    return (3, points, 18 - best_rank)


def _points(v: HandValue) -> int:
    if v.points is None:
        raise AssertionError(f"{v.name} is not a points hand")
    return v.points


# --- max-back: TW-6b's forced setting (TW-R1) -----------------------------------------------


@dataclass(frozen=True)
class MaxBack:
    """TW-6b / TW-R1: back = the highest two-tile hand; on an equal back, the higher front.

    TW-6b binds a player to "make the back the highest combination possible with the four
    tiles". The highest of the six two-tile hands is the back of the setting that holds it
    (nothing in the other two tiles can beat it). TW-R1 breaks a tie between settings whose
    backs are equal (e.g. ``6-6 4-5`` and ``6-6 3-6``, two 天九王) by the higher front. This
    works under any rule set: only :func:`evaluate` knows the rules.
    """

    name: str = "max-back"

    def choose(self, tiles: Sequence[Tile], rules: TileRules | str = PG1985) -> Setting:
        return _max_back(_canonical(tiles), tile_rules(rules))


@cache
def _max_back(tiles: tuple[Tile, ...], rules: TileRules) -> Setting:
    """Cached: the TW engine asks for every player's forced setting every round."""
    return max(settings(tiles, rules), key=_back_then_front)


MAX_BACK = MaxBack()


def forced_setting(tiles: Sequence[Tile], rules: TileRules | str) -> Setting:
    """TW-6b / TW-R1: the setting a bound seat must play (and the dealer re-sets to)."""
    return MAX_BACK.choose(tiles, rules)


def follows_forced_rule(setting: Setting, tiles: Sequence[Tile], rules: TileRules | str) -> bool:
    """Whether ``setting`` of ``tiles`` complies with TW-6b (as read in TW-R1).

    TW-6b concerns the back only (閒家須盡量將後對擺大): a setting whose back is the highest
    two-tile hand of the four tiles follows it, whichever front that leaves (TW-R1); only
    a lower back is re-set by the dealer. The comparison is by value, never by which
    physical tile went where (``4-5`` for ``3-6`` in a 天九王 is the same hand). The hands
    are re-valued under ``rules`` and the higher is taken as the back whatever the setting
    calls it (TW-6b: "the lower pair is the front, the higher the back").

    A setting that is not made of exactly ``tiles`` is an error (T-4), not a breach.
    """
    r = tile_rules(rules)
    forced = forced_setting(tiles, r)
    if Counter(setting.tiles) != Counter(tiles):
        raise InvalidInput(
            f"{setting} is not a setting of {' '.join(str(t) for t in tiles)}", rule="T-4"
        )
    high = max(evaluate(*setting.front.tiles, r).key, evaluate(*setting.back.tiles, r).key)
    return high == forced.back.value.key


def keepable_settings(tiles: Sequence[Tile], rules: TileRules | str) -> tuple[Setting, ...]:
    """TW-R1: the settings of ``tiles`` a bound player may keep (the dealer re-sets the
    others): those whose back is the highest two-tile hand. One or two settings (two when
    the highest hand can be made twice, e.g. ``6-6 1-6 3-4``: 天牌九 with either 7)."""
    r = tile_rules(rules)
    return tuple(s for s in _options(tiles, r) if follows_forced_rule(s, tiles, r))


def verify_forced_rule(setting: Setting, tiles: Sequence[Tile], rules: TileRules | str) -> None:
    """Raise :class:`RuleViolation` (TW-6b) naming the forced setting if ``setting`` breaks it."""
    if not follows_forced_rule(setting, tiles, rules):
        forced = forced_setting(tiles, rules)
        raise RuleViolation(
            f"the back must be the highest hand of the four tiles: set {forced}, not {setting}",
            rule="TW-6b",
        )


# --- house way: Casino Canberra (pai-gow-strategies.md) -------------------------------------
#
# Names (the reference file's table): 12 = Teen 6-6, 2 = Day 1-1, High 8 = 4-4,
# High 4 = 1-3, High 10 = 5-5, High 6 = 3-3, Low 4 = 2-2, 11 = 5-6, Low 10 = 4-6,
# High 7 = 1-6, Low 6 = 1-5, 9 = 4-5 / 3-6, Low 8 = 3-5 / 2-6, Low 7 = 3-4 / 2-5,
# 5 = 1-4 / 2-3, Gee Joon = 2-4 / 1-2. A bare number ("a 7", "an 8") is any tile of that
# many points other than a Gee Joon tile, unless stated next to the rule.


def _tiles(*pips: str) -> frozenset[Tile]:
    return frozenset(Tile(int(p[0]), int(p[2])) for p in pips)


TEEN, DAY = _tiles("6-6"), _tiles("1-1")
HIGH_8, HIGH_10, HIGH_6, LOW_4 = _tiles("4-4"), _tiles("5-5"), _tiles("3-3"), _tiles("2-2")
ELEVEN, LOW_10, LOW_6 = _tiles("5-6"), _tiles("4-6"), _tiles("1-5")
NINE, LOW_8, FIVE = _tiles("4-5", "3-6"), _tiles("3-5", "2-6"), _tiles("1-4", "2-3")
SEVEN = _tiles("1-6", "3-4", "2-5")  # High 7 or Low 7
EIGHT = HIGH_8 | LOW_8  # the 8s that make a gong with Teen or Day
SIX = HIGH_6 | LOW_6  # not Gee Joon 6: the exceptions name Gee Joon as such
FOUR = _tiles("1-3", "2-2")  # High 4 or Low 4
GEE_JOON = _tiles("2-4", "1-2")  # either Gee Joon tile, alone
ANY = frozenset(DISTINCT_TILES)

#: The "high nine" of rule 2: Teen or Day + a 7, i.e. 9 points whose best tile is Teen or
#: Day (the two best 9-point hands under T-2). "High 3" (rule 3b): 3 points whose best tile
#: is High 6 (3-3) or better — or any higher hand.
HIGH_NINE = _at_least(9, best_rank=2)
HIGH_3 = _at_least(3, best_rank=6)


def _is_high_nine(v: HandValue) -> bool:
    return v.category is Category.POINTS and v.points == 9 and v.best.rank <= 2


def _weak_low(v: HandValue) -> bool:
    """HW-2's proviso: "a low hand of 3 or less whose best tile ranks below High 6"."""
    return v.category is Category.POINTS and _points(v) <= 3 and v.best.rank > 6


@dataclass(frozen=True)
class Decision:
    """The house way's setting and the rule that chose it (``tie_break``: what settled a tie)."""

    setting: Setting
    rule: str
    tie_break: str | None = None


# --- HW-1 Pairs -----------------------------------------------------------------------------
#
# A "pair" is a same-rank pair (T-2.2: 6-6 6-6, 4-5 3-6 …) or the two Gee Joon tiles
# (T-2.1, 至尊), in both rule sets: 至尊 is the top hand in tw1990 too; only a lone Gee Joon
# tile's value differs (3 or 6 in PG, fixed in TW). The house way's pair names group the
# ranks by points: "4s" are High 4 or Low 4 pairs, "8s" High 8 or mixed 8 pairs, and so on.

#: The house way's pair names, by the Table I ranks of the pair's tiles.
PAIRS_BY_NAME: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"12s": (1,), "2s": (2,), "8s": (3, 13), "4s": (4, 7), "10s": (5, 9), "6s": (6, 11),
     "11s": (8,), "7s": (10, 14), "9s": (12,), "5s": (16,)}
)  # fmt: skip
PAIR_NAMES: Mapping[int, str] = MappingProxyType(
    {rank: name for name, ranks in PAIRS_BY_NAME.items() for rank in ranks}
)


def _pair_name(v: HandValue) -> str | None:
    if v.category is Category.GEE_JOON:
        return "Gee Joon"
    if v.category is Category.PAIR:
        return PAIR_NAMES[v.best.rank]
    return None


@dataclass(frozen=True)
class PairRule:
    """One sentence of HW-1: which pairs it covers and the splits good enough to split for.

    ``split_to`` lists (front at least, back at least) alternatives; empty: never split.
    "6/8 or better" is read hand by hand: the front at least a 6 and the back at least an
    8, where any pair, wong or gong counts as better than every points hand.
    """

    rule: str
    pairs: frozenset[str]
    split_to: tuple[tuple[Key, Key], ...]

    def splits_for(self, split: Setting) -> bool:
        return any(
            split.front.value.key >= front and split.back.value.key >= back
            for front, back in self.split_to
        )


PAIR_RULES: tuple[PairRule, ...] = (
    # HW-1a "Never split 4s, 5s, 6s, 10s, 11s or Gee Joon."
    PairRule("HW-1a", frozenset({"4s", "5s", "6s", "10s", "11s", "Gee Joon"}), ()),
    # HW-1b "Split 2s and 12s to make 6/8 or better."
    PairRule("HW-1b", frozenset({"2s", "12s"}), ((_at_least(6), _at_least(8)),)),
    # HW-1c "Split 9s to make 9/9 or better."
    PairRule("HW-1c", frozenset({"9s"}), ((_at_least(9), _at_least(9)),)),
    # HW-1d "Split 8s to make 7/9, or 8/8 or better."
    PairRule(
        "HW-1d", frozenset({"8s"}), ((_at_least(7), _at_least(9)), (_at_least(8), _at_least(8)))
    ),
    # HW-1e "Split 7s to make 7/high-nine or better."
    PairRule("HW-1e", frozenset({"7s"}), ((_at_least(7), HIGH_NINE),)),
)
#: HW-1f "Never split when keeping the pair makes both hands higher." Read strictly: the
#: kept front beats the split front and the kept back beats the split back (T-2).
KEEP_WHEN_BOTH_HIGHER = "HW-1f"


def hw1_pairs(options: Sequence[Setting], pair_rules: Sequence[PairRule]) -> Decision | None:
    """HW-1 Pairs. Applies to every hand holding a pair."""
    kept = next((s for s in options if _pair_name(s.back.value)), None)
    if kept is None:
        return None
    if _pair_name(kept.front.value):
        # Two pairs: splitting leaves two non-pair hands, and any pair beats those, so
        # keeping makes both hands higher: HW-1f always keeps both pairs.
        return Decision(kept, KEEP_WHEN_BOTH_HIGHER)
    name = _pair_name(kept.back.value)
    rule = next(p for p in pair_rules if name in p.pairs)
    if not rule.split_to:
        return Decision(kept, rule.rule)
    # The two splits of a pair are equal in value (the pair's tiles share a rank and points).
    split = max((s for s in options if s is not kept), key=_back_then_front)
    if not rule.splits_for(split):
        return Decision(kept, rule.rule)
    if kept.front.value.key > split.front.value.key and kept.back.value.key > split.back.value.key:
        return Decision(kept, KEEP_WHEN_BOTH_HIGHER)
    return Decision(split, rule.rule)


# --- HW-2 Wong, gong, high nine -----------------------------------------------------------

#: "Preference: high nine, then gong, then wong."
HW2_PREFERENCE: tuple[tuple[str, Callable[[HandValue], bool]], ...] = (
    ("high nine", _is_high_nine),
    ("gong", lambda v: v.category is Category.GONG),
    ("wong", lambda v: v.category is Category.WONG),
)
#: "Given a choice of 2 or 12 use the 12": Teen (rank 1) before Day (rank 2).
HW2_TILE_ORDER = (1, 2)


def hw2_wong_gong_high_nine(options: Sequence[Setting]) -> Decision | None:
    """HW-2. Applies when a setting holds a wong, a gong or a high nine (under the rules:
    in tw1990 Day + 9 is 1 point, not a wong, TW-7b).

    HW-2a: the first of high nine, gong, wong that can be made, made with the Teen if
    possible. Two settings can make the same hand with the same tile (Teen with ``1-6``
    or with ``3-4``): our choice, the higher front, then the higher back.
    HW-2b: "unless that leaves a low hand of 3 or less whose best tile ranks below High 6;
    then maximise the high hand": the highest back, then the higher front. In a hand with
    no pair the highest back is itself a wong, gong or high nine whenever one can be made,
    so HW-2b still plays one.
    """
    for _, makes in HW2_PREFERENCE:
        for rank in HW2_TILE_ORDER:
            chosen = [
                s
                for s in options
                if any(makes(h.value) and h.value.best.rank == rank for h in (s.front, s.back))
            ]
            if chosen:
                choice = max(chosen, key=_front_then_back)
                if _weak_low(choice.front.value):
                    return Decision(max(options, key=_back_then_front), "HW-2b")
                return Decision(choice, "HW-2a")
    return None


# --- HW-3 All other hands --------------------------------------------------------------------


def hw3_all_other_hands(options: Sequence[Setting]) -> Decision:
    """HW-3. No pair, no wong, gong or high nine: every hand here is a points hand.

    (a) Keep the settings with the largest total of the two hands' points.
    (b) If the best low hand among them (T-2) is at least a High 3, play its points.
    (c) Otherwise, if the best high hand has 7 or more points, play its points.
    (d) Otherwise play the largest low hand's points.
    (b)–(d) fix each hand's points; settings left with the same points "either way" are
    settled by (e): with a high hand of 7 or less, the higher-ranking tile goes in the low
    hand (the higher front by T-2), otherwise in the high hand (the higher back).
    **Gap fill (HW-3e-gap, ours):** the published (e) is cut off. If (e) leaves a tie —
    its hand is equal either way — the other hand decides: the higher back after a
    low-hand placement, the higher front after a high-hand placement.

    Reading (b)–(d) as choosing *points* and (e) as placing the tile is what makes the
    published exceptions 4E, 4F, 4H and 4I necessary: each reverses what (e) would do.
    """
    total = max(_points(s.front.value) + _points(s.back.value) for s in options)
    best_total = [s for s in options if _points(s.front.value) + _points(s.back.value) == total]
    best_low = max((s.front.value for s in best_total), key=lambda v: v.key)
    best_high = max(_points(s.back.value) for s in best_total)
    if best_low.key >= HIGH_3:
        rule, chosen = "HW-3b", [s for s in best_total if s.front.value.points == best_low.points]
    elif best_high >= 7:
        rule, chosen = "HW-3c", [s for s in best_total if s.back.value.points == best_high]
    else:
        most = max(_points(s.front.value) for s in best_total)
        rule, chosen = "HW-3d", [s for s in best_total if s.front.value.points == most]
    if len({_front_then_back(s) for s in chosen}) == 1:  # equal either way: nothing to settle
        return Decision(chosen[0], rule)
    # (e): with a high hand of 7 or less the better tile goes in the low hand, else the high.
    key = _front_then_back if _points(chosen[0].back.value) <= 7 else _back_then_front
    top = max(key(s)[0] for s in chosen)
    settled_by_e = sum(key(s)[0] == top for s in chosen) == 1
    return Decision(max(chosen, key=key), rule, "HW-3e" if settled_by_e else "HW-3e-gap")


# --- HW-4 Exceptions (take precedence over 1–3) --------------------------------------------


Outcome = Callable[[Setting], bool]


def _hands(front: Callable[[HandValue], bool], back: Callable[[HandValue], bool]) -> Outcome:
    return lambda s: front(s.front.value) and back(s.back.value)


def _pts(n: int) -> Callable[[HandValue], bool]:
    return lambda v: v.category is Category.POINTS and v.points == n


def _is(category: Category) -> Callable[[HandValue], bool]:
    return lambda v: v.category is category


@dataclass(frozen=True)
class HouseException:
    """One published exception: four slots the hand must fill (one tile each), the two slots
    whose tiles form one hand (the other two form the other), and the published outcome.

    The outcome ("3 / wong", "7 / 9") is checked under the rules in play: an exception whose
    grouping does not give its published values there (tw1990, where a Gee Joon tile does
    not convert) does not apply, and rules 1–3 decide.
    """

    rule: str
    text: str
    slots: tuple[frozenset[Tile], frozenset[Tile], frozenset[Tile], frozenset[Tile]]
    together: tuple[int, int]
    outcome: Outcome
    no_pair: bool = False


EXCEPTIONS: tuple[HouseException, ...] = (
    HouseException(
        "HW-4A", "Teen, Teen, 9, 11 → 3 / wong",
        (TEEN, TEEN, NINE, ELEVEN), (0, 2), _hands(_pts(3), _is(Category.WONG)),
    ),
    HouseException(
        "HW-4B", "High 8, High 10, 11, 7 → 7 / 9",
        (HIGH_8, HIGH_10, ELEVEN, SEVEN), (0, 2), _hands(_pts(7), _pts(9)),
    ),
    HouseException(
        "HW-4C", "Gee Joon, 6, 5, Teen or Day → 7 / 9",
        (GEE_JOON, SIX, FIVE, TEEN | DAY), (0, 1), _hands(_pts(7), _pts(9)),
    ),
    # "Make a 9": the 4 with the 5 (always 9 points); Gee Joon with the fourth tile.
    HouseException(
        "HW-4D", "Gee Joon, 4, 5, plus a tile making no pair → make a 9",
        (GEE_JOON, FOUR, FIVE, ANY), (1, 2),
        lambda s: 9 in (s.front.value.points, s.back.value.points), no_pair=True,
    ),
    # High 7 = High 8 + 9 (7 points, best tile High 8); Low 8 = Low 8 + Low 10.
    HouseException(
        "HW-4E", "High 8, Low 8, 9, Low 10 → High 7 & Low 8",
        (HIGH_8, LOW_8, NINE, LOW_10), (0, 2), _hands(_pts(7), _pts(8)),
    ),
    # High 3 = High 6 + 7; Low 9 = Low 6 + Gee Joon.
    HouseException(
        "HW-4F", "High 6, Low 6, Gee Joon, 7 → High 3 & Low 9",
        (HIGH_6, LOW_6, GEE_JOON, SEVEN), (0, 3), _hands(_pts(3), _pts(9)),
    ),
    HouseException(
        "HW-4G", "12 or 2, 8, 9, Low 4 → 3 / gong",
        (TEEN | DAY, EIGHT, NINE, LOW_4), (0, 1), _hands(_pts(3), _is(Category.GONG)),
    ),
    # "6" is High 6 (3-3): Low 6 is named separately. Low 1 = Low 6 + 5; High 7 = 6 + 11.
    HouseException(
        "HW-4H", "6, 11, Low 6, 5 → Low 1 / High 7",
        (HIGH_6, ELEVEN, LOW_6, FIVE), (0, 1), _hands(_pts(1), _pts(7)),
    ),
    # Low 2 = Low 8 + Low 4; High 7 = High 8 + 9.
    HouseException(
        "HW-4I", "High 8, Low 8, 9, Low 4 → Low 2 / High 7",
        (HIGH_8, LOW_8, NINE, LOW_4), (0, 2), _hands(_pts(2), _pts(7)),
    ),
)  # fmt: skip


def _has_pair(tiles: Sequence[Tile]) -> bool:
    ranks = [t.rank for t in tiles]
    return len(set(ranks)) < len(ranks) or {15, 17} <= set(ranks)


@cache
def exception_table(
    exceptions: tuple[HouseException, ...],
) -> Mapping[tuple[Tile, ...], tuple[tuple[HouseException, tuple[Tile, ...]], ...]]:
    """Every four-tile hand (canonical order) that some exception covers, with each way
    its tiles fill that exception's slots, in the exceptions' order."""
    table: dict[tuple[Tile, ...], list[tuple[HouseException, tuple[Tile, ...]]]] = {}
    for exc in exceptions:
        for filled in itertools.product(*(sorted(slot) for slot in exc.slots)):
            counts = Counter(filled)
            if any(n > FULL_SET.count(t) for t, n in counts.items()):
                continue
            if exc.no_pair and _has_pair(filled):
                continue
            table.setdefault(_canonical(filled), []).append((exc, filled))
    return MappingProxyType({k: tuple(v) for k, v in table.items()})


def hw4_exceptions(
    tiles: Sequence[Tile], rules: TileRules, exceptions: tuple[HouseException, ...]
) -> Decision | None:
    """HW-4 A–I: the first exception whose pattern the tiles fill and whose published
    outcome the grouping gives under ``rules``. If several fillings qualify (4D with two
    different 4s), the higher back, then the higher front."""
    matches = exception_table(exceptions).get(_canonical(tiles), ())
    for exc in exceptions:
        made = []
        for exc_, filled in matches:
            if exc_ is not exc:
                continue
            i, j = exc.together
            k, m = (n for n in range(4) if n not in exc.together)
            s = make_setting(Hand(filled[i], filled[j], rules), Hand(filled[k], filled[m], rules))
            if exc.outcome(s):
                made.append(s)
        if made:
            return Decision(max(made, key=_back_then_front), exc.rule)
    return None


#: Ours (not in the published text): a house way never plays a setting that another setting
#: of the same tiles beats or equals in both hands and beats in one.
NEVER_DOMINATED = "HW-0"


def never_dominated(decision: Decision, options: Sequence[Setting]) -> Decision:
    """HW-0 (ours): the published rules assume the values of pg1985. Under tw1990 (no
    地九王, TW-7b) HW-2a's "gong before wong, with the Teen" sets ``6-6 1-1 4-4 4-5`` as
    地牌一 / 天槓 though 地槓 / 天九王 beats it in both hands. When another setting is at
    least as high in both hands and higher in one, the house way plays it instead (of
    several, the higher back, then the higher front). Never applies under pg1985."""
    f, b = decision.setting.front.value.key, decision.setting.back.value.key
    better = [
        s
        for s in options
        if s.front.value.key >= f
        and s.back.value.key >= b
        and (s.front.value.key, s.back.value.key) != (f, b)
    ]
    if not better:
        return decision
    return Decision(max(better, key=_back_then_front), NEVER_DOMINATED)


@dataclass(frozen=True)
class HouseWay:
    """The Casino Canberra house way: HW-4 (exceptions) first, then HW-1, HW-2, HW-3;
    HW-0 (ours) replaces a dominated choice by the setting that dominates it.

    The rules are data (``pair_rules``, ``exceptions``): a casino's variant changes data.
    ``HouseWay(exceptions=())`` is the general rules alone.
    """

    name: str = "house-way"
    pair_rules: tuple[PairRule, ...] = PAIR_RULES
    exceptions: tuple[HouseException, ...] = EXCEPTIONS

    def decide(self, tiles: Sequence[Tile], rules: TileRules | str = PG1985) -> Decision:
        """The setting and the rule that chose it."""
        r = tile_rules(rules)
        options = _options(tiles, r)
        return never_dominated(
            hw4_exceptions(tiles, r, self.exceptions)
            or hw1_pairs(options, self.pair_rules)
            or hw2_wong_gong_high_nine(options)
            or hw3_all_other_hands(options),
            options,
        )

    def choose(self, tiles: Sequence[Tile], rules: TileRules | str = PG1985) -> Setting:
        return self.decide(tiles, rules).setting


HOUSE_WAY = HouseWay()


# --- optimal: the exact best response (built by macau_tables.analysis.tiles) ---------------


class BestSetting(Protocol):
    """A best response (``macau_tables.analysis.tiles.best_setting``): the setting of
    ``tiles`` (canonical order) with the highest exact expected value under ``rules``
    against the other side's strategy ``vs``."""

    def __call__(self, tiles: Sequence[Tile], rules: TileRules, *, vs: str) -> Setting: ...


@dataclass(frozen=True)
class Optimal:
    """``optimal``: the player's exact best response to a banker playing ``vs`` (the house
    way by default), computed by ``best_setting`` — in the registered strategy,
    :func:`macau_tables.analysis.tiles.best_setting` (``analysis.tiles.OPTIMAL_STRATEGY``,
    in ``analysis.tiles.STRATEGIES``).

    For each four tiles, the setting with the highest exact expected value over every hand
    the banker can hold from the other 28 tiles, commission included. The game follows the
    rule set: pg1985 is Pai Gow (PG-6.1 … PG-6.4, PG-4.2's 4%), tw1990 Taiwan Pai Kao
    (TW-6c, TW-8's 5%; there TW-6b binds players to the forced setting, so ``optimal`` is a
    what-if for a player, or the banker's view of the hand). Ties in expected value: the
    higher back, then the higher front, then the first of the canonical order.

    The analysis needs numpy and numba (the ``fast`` extra), so it is passed in rather than
    imported: this package imports without them. The first call builds the opponent's
    setting table (about two seconds); later calls take a few milliseconds.
    """

    best_setting: BestSetting
    name: str = "optimal"
    vs: str = "house-way"

    def choose(self, tiles: Sequence[Tile], rules: TileRules | str = PG1985) -> Setting:
        return self.best_setting(_canonical(tiles), tile_rules(rules), vs=self.vs)


#: The readable strategies by name. Read-only (engines keep no global mutable state): a new
#: strategy is added to this tuple or passed to :func:`strategy` in a registry of its own,
#: as ``macau_tables.analysis.tiles.STRATEGIES`` adds ``optimal``.
STRATEGIES: Mapping[str, SettingStrategy] = MappingProxyType(
    {s.name: s for s in (MAX_BACK, HOUSE_WAY)}
)


def strategy(name: str, registry: Mapping[str, SettingStrategy] = STRATEGIES) -> SettingStrategy:
    """The strategy called ``name`` (``max-back``, ``house-way``; ``_`` for ``-`` accepted)."""
    try:
        return registry[name.strip().lower().replace("_", "-")]
    except KeyError:
        raise InvalidInput(
            f"unknown setting strategy {name!r}: choose {' or '.join(sorted(registry))}"
        ) from None
