"""Baccarat road maps (路紙) — pure functions of a shoe's sequence of results.

The statute (../shared/rules/baccarat.md) does not regulate the road maps; every Macau
baccarat table shows them and players expect them, so they are derived here from the results
of the hands (BA-11 the higher total wins, BA-12 equal totals are a tie, BA-13 the pairs):

* Bead Plate (珠盤路): every hand, ties included, in order, top to bottom, column by column.
* Big Road (大路): Banker and Player results in streaks (one column per streak), ties marked
  on the previous cell (ties before the first Banker/Player result are marked on the first
  cell), pairs marked on the cell; a streak longer than the column turns right at the bottom
  or when the cell below is taken (the "dragon tail", 長龍).
* Big Eye Boy (大眼仔), Small Road (小路), Cockroach Pig (曱甴路): derived roads that compare
  the Big Road with the column 1, 2 or 3 to the left. Red (紅) for "regular", blue (藍) for
  "choppy":

  - for a result that starts a new Big Road column: red when the two columns before it have
    the same length (columns c-1 and c-1-k), blue otherwise;
  - for a result further down its column (row r ≥ 1): look at the column k to the left: red
    when it has a cell in row r, blue when its last cell is in row r-1, red when it is
    shorter still ("two empty cells in a row").

  A derived road starts once the columns it compares exist: Big Eye Boy at the second cell
  of the second column (else the first cell of the third column), Small Road one column later,
  Cockroach Pig two columns later. Derivations use the Big Road's streaks (logical columns),
  not the dragon-tailed drawing.

Notation of a shoe (used by ``macau-tables baccarat roads``): one upper-case letter per hand,
``B`` (Banker wins, 莊), ``P`` (Player wins, 閒), ``T`` (tie, 和), each optionally followed by
lower-case marks: ``b`` Banker pair, ``p`` Player pair, ``n`` a natural. Spaces, commas and
``|`` are ignored. Example: ``BPbPTBnBpb``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from macau_tables.core.errors import InvalidInput

Outcome = Literal["B", "P", "T"]
Colour = Literal["R", "B"]  # red (regular), blue (choppy)

ROWS = 6  # every road is drawn six cells high

OUTCOMES: tuple[Outcome, ...] = ("B", "P", "T")


@dataclass(frozen=True)
class RoadHand:
    """What the roads need from one hand: its result and its marks (BA-11, BA-12, BA-13)."""

    outcome: Outcome
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False

    def __str__(self) -> str:
        return (
            self.outcome
            + ("b" if self.banker_pair else "")
            + ("p" if self.player_pair else "")
            + ("n" if self.natural else "")
        )


def parse_shoe(text: str) -> list[RoadHand]:
    """Parse the shoe notation (see the module docstring): ``"BPbPTBn"`` → hands."""
    hands: list[RoadHand] = []
    current: dict[str, bool] | None = None
    outcome: Outcome | None = None

    def flush() -> None:
        if outcome is not None and current is not None:
            hands.append(RoadHand(outcome, **current))

    for ch in text:
        if ch in " ,|\t\n":
            continue
        if ch in "BPT":
            flush()
            outcome = ch  # type: ignore[assignment]
            current = {"banker_pair": False, "player_pair": False, "natural": False}
        elif ch in "bpn":
            if current is None:
                raise InvalidInput(f"mark {ch!r} before any hand in {text!r}")
            key = {"b": "banker_pair", "p": "player_pair", "n": "natural"}[ch]
            if current[key]:
                raise InvalidInput(f"mark {ch!r} repeated on one hand in {text!r}")
            current[key] = True
        else:
            raise InvalidInput(
                f"unexpected {ch!r} in {text!r}: use B, P, T with marks b, p, n (e.g. BPbPTBn)"
            )
    flush()
    return hands


def format_shoe(hands: Iterable[RoadHand]) -> str:
    """The inverse of :func:`parse_shoe`."""
    return "".join(str(h) for h in hands)


# --- Bead Plate (珠盤路) ---------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """One drawn cell of a road at (column, row); ``index`` is the hand's index in the shoe."""

    col: int
    row: int
    mark: str
    index: int


def bead_plate(hands: Sequence[RoadHand]) -> list[Cell]:
    """Every hand in order, down each column of six, then the next column."""
    return [Cell(i // ROWS, i % ROWS, str(h), i) for i, h in enumerate(hands)]


# --- Big Road (大路) --------------------------------------------------------------------------


@dataclass
class BigRoadEntry:
    """One Banker or Player result on the Big Road, with the ties marked on it."""

    outcome: Literal["B", "P"]
    index: int  # hand index in the shoe
    column: int  # logical column (streak number), 0-based
    depth: int  # position in the streak, 0-based
    col: int = 0  # drawn position (after the dragon tail)
    row: int = 0
    ties: int = 0  # ties marked on this cell (after it; leading ties on the first cell)
    banker_pair: bool = False
    player_pair: bool = False
    natural: bool = False

    def mark(self) -> str:
        return (
            self.outcome
            + ("b" if self.banker_pair else "")
            + ("p" if self.player_pair else "")
            + ("n" if self.natural else "")
            + (f"{self.ties}T" if self.ties else "")
        )


def layout(streak_of: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """Draw streak entries ``(column, depth)`` on a grid six rows high, with the dragon tail.

    A streak goes down from row 0; at the bottom, or when the cell below is taken, it turns
    right and runs along its row. A new streak starts at row 0 of the column after the one
    where the previous streak started (further right while that cell is taken).
    """
    taken: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []
    start_col = -1
    pos: tuple[int, int] = (0, 0)
    turned = False
    for _column, depth in streak_of:
        if depth == 0:
            start_col += 1
            while (start_col, 0) in taken:
                start_col += 1
            pos = (start_col, 0)
            turned = False
        else:
            c, r = pos
            if not turned and r + 1 < ROWS and (c, r + 1) not in taken:
                pos = (c, r + 1)
            else:
                turned = True
                pos = (c + 1, r)
        taken.add(pos)
        out.append(pos)
    return out


@dataclass
class BigRoad:
    entries: list[BigRoadEntry] = field(default_factory=list)
    leading_ties: int = 0  # ties before the first Banker/Player result

    def columns(self) -> list[list[BigRoadEntry]]:
        """The streaks (logical columns)."""
        cols: list[list[BigRoadEntry]] = []
        for e in self.entries:
            if e.depth == 0:
                cols.append([])
            cols[-1].append(e)
        return cols


def big_road(hands: Sequence[RoadHand]) -> BigRoad:
    road = BigRoad()
    streaks: list[tuple[int, int]] = []
    for i, h in enumerate(hands):
        if h.outcome == "T":
            if road.entries:
                road.entries[-1].ties += 1
            else:
                road.leading_ties += 1
            continue
        if road.entries and road.entries[-1].outcome == h.outcome:
            column, depth = road.entries[-1].column, road.entries[-1].depth + 1
        else:
            column = road.entries[-1].column + 1 if road.entries else 0
            depth = 0
        entry = BigRoadEntry(
            h.outcome,
            i,
            column,
            depth,
            banker_pair=h.banker_pair,
            player_pair=h.player_pair,
            natural=h.natural,
        )
        if not road.entries:
            entry.ties = road.leading_ties
        road.entries.append(entry)
        streaks.append((column, depth))
    for entry, (c, r) in zip(road.entries, layout(streaks), strict=True):
        entry.col, entry.row = c, r
    return road


# --- Derived roads: Big Eye Boy (大眼仔), Small Road (小路), Cockroach Pig (曱甴路) -------------

DERIVED: dict[str, int] = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}


def derived_colour(lengths: Sequence[int], column: int, depth: int, k: int) -> Colour | None:
    """The derived-road colour of the Big Road entry at (column, depth); None before it starts.

    ``lengths`` are the lengths of the Big Road streaks up to and including ``column``
    (only those to the left matter).
    """
    if depth == 0:
        if column - 1 - k < 0:
            return None
        return "R" if lengths[column - 1] == lengths[column - 1 - k] else "B"
    if column - k < 0:
        return None
    left = lengths[column - k]
    if left >= depth + 1:
        return "R"  # the column to the left has a cell in this row
    if left == depth:
        return "B"  # its last cell is one row up: the first empty cell
    return "R"  # two empty cells in a row


def derived_marks(road: BigRoad, k: int) -> list[tuple[int, Colour]]:
    """``(hand index, colour)`` for each Big Road entry that produces a mark."""
    lengths: list[int] = []
    marks: list[tuple[int, Colour]] = []
    for e in road.entries:
        if e.depth == 0:
            lengths.append(1)
        else:
            lengths[-1] += 1
        colour = derived_colour(lengths, e.column, e.depth, k)
        if colour is not None:
            marks.append((e.index, colour))
    return marks


def derived_road(road: BigRoad, k: int) -> list[Cell]:
    """The derived road drawn like the Big Road: same colour continues the column."""
    marks = derived_marks(road, k)
    streaks: list[tuple[int, int]] = []
    column, depth, prev = -1, 0, ""
    for _, colour in marks:
        if colour == prev:
            depth += 1
        else:
            column, depth = column + 1, 0
        prev = colour
        streaks.append((column, depth))
    return [
        Cell(c, r, colour, index)
        for (index, colour), (c, r) in zip(marks, layout(streaks), strict=True)
    ]


def predictions(hands: Sequence[RoadHand]) -> dict[str, dict[str, Colour | None]]:
    """The "next hand" cells (問路): the mark each derived road would get if the next hand were
    Banker or Player (None when that road would not yet show a mark)."""
    out: dict[str, dict[str, Colour | None]] = {}
    for name, k in DERIVED.items():
        out[name] = {}
        for outcome in ("B", "P"):
            road = big_road([*hands, RoadHand(outcome)])
            lengths = [len(c) for c in road.columns()]
            last = road.entries[-1]
            out[name][outcome] = derived_colour(lengths, last.column, last.depth, k)
    return out


# --- Shoe statistics ------------------------------------------------------------------------


@dataclass(frozen=True)
class ShoeStats:
    hands: int
    banker: int
    player: int
    tie: int
    banker_pairs: int
    player_pairs: int
    naturals: int
    longest_banker_streak: int
    longest_player_streak: int


def shoe_stats(hands: Sequence[RoadHand]) -> ShoeStats:
    road = big_road(hands)
    streak = {"B": 0, "P": 0}
    for col in road.columns():
        streak[col[0].outcome] = max(streak[col[0].outcome], len(col))
    return ShoeStats(
        hands=len(hands),
        banker=sum(h.outcome == "B" for h in hands),
        player=sum(h.outcome == "P" for h in hands),
        tie=sum(h.outcome == "T" for h in hands),
        banker_pairs=sum(h.banker_pair for h in hands),
        player_pairs=sum(h.player_pair for h in hands),
        naturals=sum(h.natural for h in hands),
        longest_banker_streak=streak["B"],
        longest_player_streak=streak["P"],
    )


# --- All five roads at once -----------------------------------------------------------------


@dataclass(frozen=True)
class Roads:
    hands: tuple[RoadHand, ...]
    bead_plate: tuple[Cell, ...]
    big_road: BigRoad
    big_eye_boy: tuple[Cell, ...]
    small_road: tuple[Cell, ...]
    cockroach_pig: tuple[Cell, ...]
    predictions: dict[str, dict[str, Colour | None]]
    stats: ShoeStats

    def to_json(self) -> dict[str, object]:
        def cells(cs: Iterable[Cell]) -> list[dict[str, object]]:
            return [{"col": c.col, "row": c.row, "mark": c.mark, "hand": c.index} for c in cs]

        return {
            "shoe": format_shoe(self.hands),
            "bead_plate": cells(self.bead_plate),
            "big_road": {
                "leading_ties": self.big_road.leading_ties,
                "cells": [
                    {
                        "col": e.col,
                        "row": e.row,
                        "outcome": e.outcome,
                        "ties": e.ties,
                        "banker_pair": e.banker_pair,
                        "player_pair": e.player_pair,
                        "natural": e.natural,
                        "hand": e.index,
                        "streak": e.column,
                    }
                    for e in self.big_road.entries
                ],
            },
            "big_eye_boy": cells(self.big_eye_boy),
            "small_road": cells(self.small_road),
            "cockroach_pig": cells(self.cockroach_pig),
            "next_hand": self.predictions,
            "stats": self.stats.__dict__,
        }


def roads(hands: Sequence[RoadHand]) -> Roads:
    br = big_road(hands)
    return Roads(
        hands=tuple(hands),
        bead_plate=tuple(bead_plate(hands)),
        big_road=br,
        big_eye_boy=tuple(derived_road(br, 1)),
        small_road=tuple(derived_road(br, 2)),
        cockroach_pig=tuple(derived_road(br, 3)),
        predictions=predictions(hands),
        stats=shoe_stats(hands),
    )


def grid(cells: Iterable[tuple[int, int, str]], width: int | None = None) -> list[list[str]]:
    """Cells ``(col, row, text)`` as six rows of text (for drawing); ``""`` where empty.

    With ``width``, only the last ``width`` columns are kept (the road scrolls left).
    """
    cs = list(cells)
    ncols = max((c for c, _, _ in cs), default=-1) + 1
    first = max(0, ncols - width) if width is not None else 0
    rows = [["" for _ in range(first, max(ncols, first))] for _ in range(ROWS)]
    for c, r, text in cs:
        if c >= first:
            rows[r][c - first] = text
    return rows
