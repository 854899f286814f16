"""Road maps against hand-worked shoes (the results come from BA-11, BA-12 and BA-13)."""

from __future__ import annotations

import pytest

from macau_tables.core.errors import InvalidInput
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.baccarat import BaccaratBetKind, BaccaratRules, BaccaratTable
from macau_tables.games.baccarat.roads import (
    bead_plate,
    big_road,
    derived_road,
    format_shoe,
    grid,
    parse_shoe,
    predictions,
    roads,
    shoe_stats,
)


def cells(road: list) -> list[tuple[int, int, str]]:  # type: ignore[type-arg]
    return [(c.col, c.row, c.mark) for c in road]


def test_notation_round_trip_and_errors() -> None:
    hands = parse_shoe("B Pb, Tpn|BBpn")
    assert format_shoe(hands) == "BPbTpnBBpn"
    assert [h.outcome for h in hands] == ["B", "P", "T", "B", "B"]
    assert hands[1].banker_pair
    assert hands[2].player_pair
    assert hands[2].natural
    for bad in ("bB", "BX", "Bbb"):
        with pytest.raises(InvalidInput):
            parse_shoe(bad)


def test_bead_plate_every_hand_down_then_across() -> None:
    """Bead Plate: ties included, six to a column."""
    hands = parse_shoe("BbTPpTBBP")
    assert cells(bead_plate(hands)) == [
        (0, 0, "Bb"),
        (0, 1, "T"),
        (0, 2, "Pp"),
        (0, 3, "T"),
        (0, 4, "B"),
        (0, 5, "B"),
        (1, 0, "P"),
    ]


def test_big_road_ties_at_the_start_of_a_shoe() -> None:
    """Ties before any Banker/Player result are marked on the first cell."""
    road = big_road(parse_shoe("TTBPP"))
    assert road.leading_ties == 2
    assert [(e.col, e.row, e.mark()) for e in road.entries] == [
        (0, 0, "B2T"),
        (1, 0, "P"),
        (1, 1, "P"),
    ]
    only_ties = big_road(parse_shoe("TTT"))
    assert only_ties.entries == []
    assert only_ties.leading_ties == 3


def test_big_road_ties_and_pairs_on_the_previous_cell() -> None:
    road = big_road(parse_shoe("BbTPpTTB"))
    assert [(e.col, e.row, e.mark()) for e in road.entries] == [
        (0, 0, "Bb1T"),
        (1, 0, "Pp2T"),
        (2, 0, "B"),
    ]


def test_big_road_long_streak_turns_right_dragon_tail() -> None:
    """A streak turns right at the bottom; the next streak turns when the cell below is taken.

    Worked by hand:  8 × B, 6 × P, B

        col 0 1 2
        row0 B P B
        row1 B P
        row2 B P
        row3 B P
        row4 B P P      ← the 6th P turns right: the cell below (1,5) is the B's tail
        row5 B B B      ← the B streak's 7th and 8th results run along the bottom
    """
    road = big_road(parse_shoe("BBBBBBBB" + "PPPPPP" + "B"))
    assert [(e.col, e.row, e.outcome) for e in road.entries] == [
        *((0, r, "B") for r in range(6)),
        (1, 5, "B"),
        (2, 5, "B"),
        *((1, r, "P") for r in range(5)),
        (2, 4, "P"),
        (2, 0, "B"),
    ]
    assert [len(c) for c in road.columns()] == [8, 6, 1]  # streaks are kept whole
    stats = shoe_stats(parse_shoe("BBBBBBBB" + "PPPPPP" + "B"))
    assert stats.longest_banker_streak == 8
    assert stats.longest_player_streak == 6


# Worked by hand: BBPBBBPPB → Big Road streaks  B B | P | B B B | P P | B
#   lengths c0=2, c1=1, c2=3, c3=2, c4=1
SHOE = "BBPBBBPPB"


def test_big_eye_boy_first_entries() -> None:
    """Big Eye Boy (k=1) starts at column 2 row 0 (column 1 has no second cell):
    c2r0 c1≠c0 → B; c2r1 c1 ends on row 0 → B; c2r2 two empty → R; c3r0 c2≠c1 → B;
    c3r1 c2 has row 1 → R; c4r0 c3≠c2 → B."""
    br = big_road(parse_shoe(SHOE))
    marks = [c.mark for c in derived_road(br, 1)]
    assert marks == ["B", "B", "R", "B", "R", "B"]
    assert cells(derived_road(br, 1)) == [
        (0, 0, "B"),
        (0, 1, "B"),
        (1, 0, "R"),
        (2, 0, "B"),
        (3, 0, "R"),
        (4, 0, "B"),
    ]


def test_small_road_first_entries() -> None:
    """Small Road (k=2) starts at column 2 row 1: c0 has row 1 → R; c2r2 c0 ends on row 1
    → B; c3r0 c2≠c0 → B; c3r1 c1 ends on row 0 → B; c4r0 c3≠c1 → B."""
    br = big_road(parse_shoe(SHOE))
    assert [c.mark for c in derived_road(br, 2)] == ["R", "B", "B", "B", "B"]
    assert [c.index for c in derived_road(br, 2)] == [4, 5, 6, 7, 8]


def test_cockroach_pig_first_entries() -> None:
    """Cockroach Pig (k=3) starts at column 3 row 1: c0 has row 1 → R; c4r0 c3 = c0 → R."""
    br = big_road(parse_shoe(SHOE))
    assert cells(derived_road(br, 3)) == [(0, 0, "R"), (0, 1, "R")]


def test_next_hand_prediction_cells() -> None:
    """問路: if the next hand is Banker it goes under c4 (row 1): BEB c3 has row 1 → R,
    Small c2 → R, Cockroach c1 ends on row 0 → B. If Player, a new column: compare c4 (1)
    with c3 (2) → B, c2 (3) → B, c1 (1) → R."""
    assert predictions(parse_shoe(SHOE)) == {
        "big_eye_boy": {"B": "R", "P": "B"},
        "small_road": {"B": "R", "P": "B"},
        "cockroach_pig": {"B": "B", "P": "R"},
    }
    assert predictions(parse_shoe("B")) == {
        name: {"B": None, "P": None} for name in ("big_eye_boy", "small_road", "cockroach_pig")
    }


def test_choppy_and_even_shoes_are_all_red() -> None:
    """Regular patterns give red: a perfect chop, and streaks of equal length."""
    for shoe in ("BPBPBPBPBP", "BBPPBBPPBBPP"):
        br = big_road(parse_shoe(shoe))
        for k in (1, 2, 3):
            assert {c.mark for c in derived_road(br, k)} == {"R"}, (shoe, k)


def test_derived_roads_use_streaks_not_the_dragon_tail() -> None:
    """A turned streak still counts its full length: after 8 B, P P → BEB c1r1: c0 has a
    row 1 → R (its first mark)."""
    br = big_road(parse_shoe("BBBBBBBBPP"))
    assert cells(derived_road(br, 1)) == [(0, 0, "R")]


def test_shoe_stats_and_json() -> None:
    hands = parse_shoe("TBbnPpTBPn")
    s = shoe_stats(hands)
    assert (s.hands, s.banker, s.player, s.tie) == (6, 2, 2, 2)
    assert (s.banker_pairs, s.player_pairs, s.naturals) == (1, 1, 2)
    data = roads(hands).to_json()
    assert data["shoe"] == "TBbnPpTBPn"
    assert data["stats"]["banker_pairs"] == 1


def test_grid_scrolls_to_the_last_columns() -> None:
    g = grid([(0, 0, "a"), (5, 1, "b")], width=3)
    assert len(g) == 6
    assert g[1] == ["", "", "b"]


def test_roads_of_a_dealt_shoe_match_the_results() -> None:
    """The table's roads are those of its hand results (BA-11, BA-12, BA-13)."""
    t = BaccaratTable(BaccaratRules(decks=6))
    t.sit("alice", Money.of(10_000), seat=1)
    t.start_shoe(Rng.seeded("roads"))
    for _ in range(30):
        t.place_bet("alice", BaccaratBetKind.PLAYER, Money.of(100))
        t.play_hand()
        for b in list(t.bets):
            t.withdraw_bet(b.player, b.kind)
    r = t.roads()
    assert len(r.bead_plate) == 30
    outcomes = "".join(res.outcome for res in t.shoe_results())
    assert "".join(c.mark[0] for c in r.bead_plate) == outcomes
    assert len(r.big_road.entries) == outcomes.count("B") + outcomes.count("P")
