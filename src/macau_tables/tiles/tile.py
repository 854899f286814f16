"""The 32 Chinese dominoes (T-1) and their names.

**T-1** One set has 32 tiles of 21 kinds. Table I of both regulations ranks the single
tiles 1 (天, Teen, ``6-6``) to 17 (細雞, Gee Joon 3, ``1-2``); tiles of one rank are equal
(``4-5`` and ``3-6`` are both rank 12, 雜九). A tile's points are its pips.

A :class:`Tile` is a value: the two copies of ``6-6`` are equal tiles. The full set
:data:`FULL_SET` lists the 32 physical tiles, each kind as many times as it has copies.

Notation (accepted by :meth:`Tile.parse`, see ../shared/rules/README.md): pips low first
(``"6-6"``, ``"1-2"``; ``"5-4"``, ``"45"`` and ``"4/5"`` are accepted too), the Chinese name
(``"天"``, ``"虎頭"``, simplified ``"虎头"``), the Cantonese romanisation of the TW text
(``"Tin"``, ``"Fu T'au"``) or a common English name (``"Teen"``, ``"Gee Joon 6"``). A name
shared by two tiles (``"雜九"`` is ``4-5`` or ``3-6``) raises :class:`AmbiguousName`,
listing the choices.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property

from macau_tables.core.errors import AmbiguousName, InvalidInput
from macau_tables.core.snapshot import snapshot_text_class


@dataclass(frozen=True)
class TileKind:
    """One line of Table I (T-1)."""

    rank: int
    chinese: str
    short: str  # the name used in hand names: 天牌九, 板七, 雜九五 …
    cantonese: str
    english: str
    pips: tuple[tuple[int, int], ...]
    aliases: tuple[str, ...] = field(default=())

    @property
    def copies_each(self) -> int:
        """Ranks 1–11 have two identical tiles; ranks 12–17 one tile of each pip pattern."""
        return 2 if len(self.pips) == 1 and self.rank <= 11 else 1


# T-1, Table I of PG (seed 000) and TW (seed 001), highest first.
TABLE_I: tuple[TileKind, ...] = (
    TileKind(1, "天", "天牌", "Tin", "Teen", ((6, 6),), ("天牌", "Heaven", "Tien")),
    TileKind(2, "地", "地牌", "Tei", "Day", ((1, 1),), ("地牌", "Earth", "Dei")),
    TileKind(3, "人", "人牌", "Ian", "Yun", ((4, 4),), ("人牌", "Man", "Yan")),
    TileKind(
        4, "鵝", "鵝牌", "Ngó", "Gor", ((1, 3),), ("和", "爺", "鹅", "娥", "Goose", "Harmony")
    ),
    TileKind(5, "梅", "梅牌", "Mui", "Mooy", ((5, 5),), ("梅花", "梅牌", "Plum", "Mooy")),
    TileKind(6, "長三", "長牌", "Cheóng-Sám", "Chong", ((3, 3),), ("長", "长三", "長衫", "Long")),
    TileKind(7, "板", "板", "Pán Táng", "Bon", ((2, 2),), ("板凳", "板発", "Bench")),
    TileKind(8, "虎頭", "虎頭", "Fu T'au", "Foo", ((5, 6),), ("斧頭", "虎头", "斧头", "Axe")),
    TileKind(
        9, "紅頭", "紅頭", "Hông T'au", "Ping", ((4, 6),), ("紅頭十", "红头", "屏風", "Partition")
    ),
    TileKind(
        10, "高腳七", "高腳七", "Kou-Keók Ch'at", "Tit", ((1, 6),), ("高脚七", "Long leg seven")
    ),
    TileKind(
        11, "拎六", "拎六", "Ling Lam Lôk", "Look", ((1, 5),), ("伶冧六", "擰冧六", "Mallet six")
    ),
    TileKind(12, "雜九", "雜九", "Cháp Káu", "Chop Gow", ((4, 5), (3, 6)), ("杂九", "Mixed nine")),
    TileKind(13, "雜八", "雜八", "Cháp Pát", "Chop Bot", ((3, 5), (2, 6)), ("杂八", "Mixed eight")),
    TileKind(
        14, "雜七", "雜七", "Cháp Ch'at", "Chop Chit", ((3, 4), (2, 5)), ("杂七", "Mixed seven")
    ),
    TileKind(
        15, "大雞六", "大雞", "Tái-Kái Lôk", "Gee Joon 6", ((2, 4),), ("大雞", "二四", "大鸡")
    ),
    TileKind(16, "雜五", "雜五", "Cháp Ng", "Chop Ng", ((1, 4), (2, 3)), ("杂五", "Mixed five")),
    TileKind(17, "細雞", "細雞", "Sai Kâi", "Gee Joon 3", ((1, 2),), ("細雞", "丁三", "细鸡")),
)

_KIND_BY_PIPS: dict[tuple[int, int], TileKind] = {p: k for k in TABLE_I for p in k.pips}


@snapshot_text_class
@dataclass(frozen=True, order=True)
class Tile:
    """A tile by its pips, low first (T-1). ``str(Tile.parse("6-6")) == "6-6"``."""

    low: int
    high: int

    def __post_init__(self) -> None:
        if (self.low, self.high) not in _KIND_BY_PIPS:
            raise InvalidInput(f"no Pai Gow tile has pips {self.low}-{self.high}", rule="T-1")

    @classmethod
    def parse(cls, text: str) -> Tile:
        """Read pip notation or a name; see the module docstring."""
        return parse_tile(text)

    @cached_property
    def kind(self) -> TileKind:
        return _KIND_BY_PIPS[(self.low, self.high)]

    @property
    def rank(self) -> int:
        """Table I rank, 1 (天) to 17 (細雞)."""
        return self.kind.rank

    @property
    def points(self) -> int:
        return self.low + self.high

    @property
    def chinese(self) -> str:
        return self.kind.chinese

    @property
    def english(self) -> str:
        return self.kind.english

    @property
    def is_gee_joon(self) -> bool:
        """``2-4`` (大雞六) and ``1-2`` (細雞), the two Gee Joon tiles."""
        return self.kind.rank in (15, 17)

    def label(self) -> str:
        """Pips and Chinese name, e.g. ``"6-6 天"``."""
        return f"{self} {self.chinese}"

    def __str__(self) -> str:
        return f"{self.low}-{self.high}"

    def __repr__(self) -> str:
        return f"Tile({self})"


#: The 32 physical tiles (T-1), in Table I order; identical copies appear twice.
FULL_SET: tuple[Tile, ...] = tuple(
    Tile(*p) for k in TABLE_I for p in k.pips for _ in range(k.copies_each)
)

#: The 21 kinds of tile, one each, in Table I order.
DISTINCT_TILES: tuple[Tile, ...] = tuple(Tile(*p) for k in TABLE_I for p in k.pips)


def _norm(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return re.sub(r"[\s\-'’`.()]", "", stripped).casefold()


def _build_names() -> dict[str, tuple[Tile, ...]]:
    names: dict[str, list[Tile]] = {}
    for kind in TABLE_I:
        tiles = [Tile(*p) for p in kind.pips]
        for name in (kind.chinese, kind.cantonese, kind.english, *kind.aliases):
            bucket = names.setdefault(_norm(name), [])
            bucket.extend(t for t in tiles if t not in bucket)
    # "Gee Joon" alone names either Gee Joon tile.
    names.setdefault(_norm("Gee Joon"), []).extend([Tile(2, 4), Tile(1, 2)])
    return {k: tuple(v) for k, v in names.items()}


_NAMES = _build_names()
_PIPS_RE = re.compile(r"^\s*([1-6])\s*[-/+|]?\s*([1-6])\s*$")


def parse_tile(text: str) -> Tile:
    """Read a tile (T-1) from pips or a name; an ambiguous name lists its choices."""
    m = _PIPS_RE.match(text)
    if m:
        a, b = sorted((int(m.group(1)), int(m.group(2))))
        return Tile(a, b)
    found = _NAMES.get(_norm(text))
    if not found:
        raise InvalidInput(  # T-1: none of the 32 tiles
            f"unknown tile {text!r}: use pips such as 6-6 or a name such as 天", rule="T-1"
        )
    if len(found) > 1:
        raise AmbiguousName(text, [str(t) for t in found], rule="T-1")
    return found[0]


def parse_tiles(texts: list[str] | tuple[str, ...]) -> tuple[Tile, ...]:
    """Parse several tiles; one argument may also hold several, separated by commas or spaces.

    Each argument is first read whole (so ``"Gee Joon 6"`` is one tile), then split.
    """
    tiles: list[Tile] = []
    for text in texts:
        for chunk in (c for c in text.split(",") if c.strip()):
            try:
                tiles.append(parse_tile(chunk))
            except AmbiguousName:
                raise
            except InvalidInput:
                words = chunk.split()
                if len(words) < 2:
                    raise
                tiles.extend(parse_tile(w) for w in words)
    return tuple(tiles)
