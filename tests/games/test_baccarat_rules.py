"""Baccarat, Macau statutory rules: a test per rule ID (../shared/rules/baccarat.md)."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from macau_tables.core.errors import BetNotAllowed, InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.journal import Journal, replay
from macau_tables.core.money import Money, Rounding
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    BANKER_DRAWS_AGAINST,
    TIE_INCREASE_ONLY,
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BaccaratTable,
    BurnMode,
    Card,
    CardsDealt,
    HandSettled,
    LastHand,
    ShoeEnded,
    Side,
    ThirdCardDealt,
    TieChoice,
    banker_draws,
    fresh_composition,
    full_set,
    outcome,
    parse_cards,
    play_out,
    player_draws,
    rank_probabilities,
    total,
    value_probabilities,
)
from tests.games.baccarat_helpers import ledger_of, mop, settled, stacked_shoe, table

# --- cards ---------------------------------------------------------------------------------


def test_card_parse_str_round_trip() -> None:
    for card in set(full_set(6)):
        assert Card.parse(str(card)) == card
    assert str(Card.parse("10d")) == "Td"
    for text in ("1x", "", "Zs", "A", "Asd"):  # BA-1: none of the 52 cards
        with pytest.raises(InvalidInput, match="BA-1") as info:
            Card.parse(text)
        assert info.value.rule == "BA-1"
    with pytest.raises(InvalidInput, match="BA-1"):
        Card(14, "s")


def test_ba_1_six_to_twelve_decks_and_seven_seats() -> None:
    """BA-1: 6 to 12 decks of 52 cards; seven or more seats."""
    assert len(full_set(8)) == 416
    for decks in (6, 12):
        BaccaratRules(decks=decks)
    for decks in (5, 13):
        with pytest.raises(InvalidInput, match="BA-1"):
            BaccaratRules(decks=decks)
    with pytest.raises(InvalidInput, match="BA-1"):
        BaccaratRules(seats=6)


def test_ba_5_values() -> None:
    """BA-5: tens and faces count 0; others their face value; totals mod 10."""
    assert [Card.parse(r + "s").value for r in "A23456789TJQK"] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0,
    ]  # fmt: skip
    assert total(parse_cards("9h 8d")) == 7
    assert total(parse_cards("Kh Qd")) == 0
    assert total(parse_cards("5h 5d Ts")) == 0


def test_ba_6_only_two_hands() -> None:
    """BA-6: only Banker and Player."""
    assert {s.value for s in Side} == {"player", "banker"}


# --- BA-9 the third card: exhaustive against the text --------------------------------------


def text_player_draws(p: int, b: int) -> bool:
    """BA-9.1 / BA-9.2 as written: draws on "1, 2, 3, 4, 5 or 10 points"; does not draw on
    "6, 7 or 8, 9", or when Banker's two cards make 8 or 9."""
    if p in (6, 7, 8, 9) or b in (8, 9):
        return False
    assert p in (1, 2, 3, 4, 5, 0)  # "10 points" is 0
    return True


def text_banker_draws(b: int, p: int, third: int | None) -> bool:
    """BA-9.3 / BA-9.4 as written ("10" points is 0; ``third`` None: Player did not draw)."""
    must = (
        (b in (1, 2, 0) and third is not None)  # 9.3 (1)
        or (b == 3 and third in (1, 2, 3, 4, 5, 6, 7, 9, 0))  # 9.3 (2)
        or (b == 4 and third in (2, 3, 4, 5, 6, 7))  # 9.3 (3)
        or (b == 5 and third in (4, 5, 6, 7))  # 9.3 (4)
        or (b == 6 and third in (6, 7))  # 9.3 (5)
        or (b in (1, 2, 3, 4, 5, 0) and third is None)  # 9.3 (6)
    )
    must_not = (
        (b == 3 and third == 8)  # 9.4 (1)
        or (b == 4 and third in (1, 8, 9, 0))  # 9.4 (2)
        or (b == 5 and third in (1, 2, 3, 8, 9, 0))  # 9.4 (3)
        or (b == 6 and (third in (1, 2, 3, 4, 5, 8, 9, 0) or third is None))  # 9.4 (4)
        or b in (7, 8, 9)  # 9.4 (5)
        or p in (8, 9)  # 9.4 (6)
    )
    if p in (8, 9) or b in (8, 9):
        return False  # naturals: nobody draws (9.2, 9.4 (6))
    assert must != must_not, (b, p, third)  # the statute's two lists are complementary
    return must


CASES = list(itertools.product(range(10), range(10), [None, *range(10)]))


def test_ba_9_exhaustive_third_card_decisions() -> None:
    """BA-9, BA-9.1, BA-9.2, BA-9.3, BA-9.4: for every Player two-card total, Banker
    two-card total and Player third card (or none): the engine's decision is the text's."""
    assert len(CASES) == 10 * 10 * 11
    for p, b, third in CASES:
        assert player_draws(p, b) == text_player_draws(p, b), (p, b)
        assert banker_draws(b, p, third) == text_banker_draws(b, p, third), (p, b, third)


def _two(t: int, suits: str) -> str:
    """Two cards (no pair) totalling ``t``."""
    return f"T{suits[0]} {_rank(t)}{suits[1]}"


def _rank(v: int) -> str:
    return "K" if v == 0 else "A23456789"[v - 1]


def _one(v: int, suit: str) -> str:
    return f"{_rank(v) if v else 'Q'}{suit}"


def test_ba_9_exhaustive_through_the_engine() -> None:
    """BA-7.1, BA-9: every realisable (Player total, Banker total, third card) dealt by the
    engine from a stacked shoe gives the cards the text says."""
    seen = 0
    for p, b, third in CASES:
        if text_player_draws(p, b) != (third is not None):
            continue
        pc, bc = _two(p, "hd").split(), _two(b, "sc").split()
        front = [pc[0], bc[0], pc[1], bc[1]]
        if third is not None:
            front.append(_one(third, "h"))
        front.append("Ad")  # a possible Banker third card
        t = table(" ".join(front), players={})
        t.play_hand()
        (res,) = t.results
        assert len(res.player_cards) == (3 if third is not None else 2)
        assert len(res.banker_cards) == (3 if text_banker_draws(b, p, third) else 2)
        assert [str(c) for c in res.player_cards[:2]] == pc  # BA-7.1 P, B, P, B
        assert [str(c) for c in res.banker_cards[:2]] == bc
        seen += 1
    assert seen == (100 - 48) + 48 * 10  # Player draws in 6 × 8 cases, each with 10 cards


def test_ba_9_table_is_data() -> None:
    """BA-9.3: the Banker drawing table reads as the text's lists."""
    assert BANKER_DRAWS_AGAINST[3] == frozenset(range(10)) - {8}
    assert BANKER_DRAWS_AGAINST[6] == {6, 7}


def test_ba_7_1_dealing_order_and_play_out() -> None:
    """BA-7.1: one card at a time, Player first, two each."""
    cards = iter(parse_cards("2h Ts 3h Ks 6h 7s"))
    player, banker = play_out(lambda: next(cards))
    assert [str(c) for c in player] == ["2h", "3h", "6h"]  # 5 draws (BA-9.1)
    assert [str(c) for c in banker] == ["Ts", "Ks", "7s"]  # 0 draws (BA-9.3)


def test_ba_11_higher_total_wins_and_ba_12_tie() -> None:
    """BA-11 the higher total wins; BA-12 equal totals tie."""
    assert outcome(7, 6) == "P"
    assert outcome(2, 9) == "B"
    assert outcome(5, 5) == "T"


# --- bets and payouts -------------------------------------------------------------------------

# P: 9h 9s (natural 8) ; B: Th 7c (7)  → Player wins, Player pair (9-9)
PLAYER_NATURAL_PAIR = "9h Th 9s 7c"
# P: Th 6h (6) ; B: 3s 3c (6) → tie, Banker pair; both stand
TIE_BANKER_PAIR = "Th 3s 6h 3c"
# B: 4s 3c (7) vs P: Th 5h (5) → Player draws 5d (0) → Banker 7 stands → Banker wins
BANKER_WINS = "Th 4s 5h 3c 5d"
# P: Th 2h (2) draws Td (2); B: 3s 3c (6) stands on third 0 → Banker wins with 6
BANKER_SIX = "Th 3s 2h 3c Td"


def _settle(t: BaccaratTable) -> HandSettled:
    ev = settled(t.play_hand())
    assert isinstance(ev, HandSettled)
    return ev


def test_ba_17_payouts_player_tie_pairs() -> None:
    """BA-17: Player 1:1, Banker Pair / Player Pair 11:1; BA-13 pairs by rank."""
    t = table(PLAYER_NATURAL_PAIR)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.place_bet("alice", BaccaratBetKind.PLAYER_PAIR, mop(100))
    t.place_bet("bob", BaccaratBetKind.BANKER_PAIR, mop(100))
    t.place_bet("bob", BaccaratBetKind.TIE, mop(100))
    ev = _settle(t)
    assert ev.outcome == "P"
    rows = {(r["player"], r["bet"]): r for r in ev.results}
    assert rows[("alice", "player")]["won"] == mop(100).minor
    assert rows[("alice", "player_pair")]["won"] == mop(1100).minor
    assert rows[("bob", "banker_pair")]["result"] == "lose"
    assert t.balance("alice") == mop(100_000 + 100 + 1100)
    assert t.balance("bob") == mop(100_000 - 200)
    assert ledger_of(t).total().is_zero()


def test_ba_13_pairs_same_rank_not_same_value() -> None:
    """BA-13: J-J is a pair, J-Q is not (both count 0); suits do not matter."""
    t = table("Jh Js Jd Qs")  # P: J J pair; B: J Q no pair — tie 0-0
    t.place_bet("alice", BaccaratBetKind.PLAYER_PAIR, mop(100))
    t.place_bet("alice", BaccaratBetKind.BANKER_PAIR, mop(100))
    t.place_bet("alice", BaccaratBetKind.TIE, mop(100))
    ev = _settle(t)
    rows = {r["bet"]: r["result"] for r in ev.results}
    assert rows == {"player_pair": "win", "banker_pair": "lose", "tie": "win"}


def test_ba_17_tie_pays_8_to_1_and_ba_12_player_banker_push() -> None:
    """BA-17 Tie 8:1; BA-12 Player and Banker bets are not lost on a tie."""
    t = table(TIE_BANKER_PAIR)
    t.place_bet("alice", BaccaratBetKind.BANKER, mop(200))
    t.place_bet("bob", BaccaratBetKind.TIE, mop(100))
    ev = _settle(t)
    assert ev.outcome == "T"
    rows = {r["bet"]: r for r in ev.results}
    assert rows["tie"]["won"] == mop(800).minor
    assert rows["banker"]["result"] == "push"
    assert t.bets[0].carried
    assert t.bets[0].amount == mop(200)
    assert t.balance("alice") == mop(100_000 - 200)  # still on the layout
    assert ledger_of(t).balance("wagers:baccarat-1") == mop(200)


def test_ba_18_commission_five_percent_rounded_down_ba_r5() -> None:
    """BA-18: 5% of the Banker win; BA-R5: exact, rounded down to the minor unit."""
    t = table(BANKER_WINS)
    t.place_bet("alice", BaccaratBetKind.BANKER, Money.parse("123.45"))
    ev = _settle(t)
    assert ev.outcome == "B"
    (row,) = ev.results
    assert row["commission"] == 617  # 5% of 123.45 = 6.1725 → 6.17
    assert t.balance("alice") == mop(100_000) + Money.parse("123.45") - Money(617)
    assert ledger_of(t).balance("commission:baccarat-1") == Money(617)
    assert ledger_of(t).total().is_zero()


def test_ba_r5_rounding_is_an_option() -> None:
    """BA-R5: the rounding is a table option (here half up)."""
    rules = BaccaratRules(decks=6, commission_rounding=Rounding.HALF_UP)
    t = table(BANKER_WINS, rules=rules)
    t.place_bet("alice", BaccaratBetKind.BANKER, Money.parse("123.50"))
    (row,) = _settle(t).results
    assert row["commission"] == 618  # 6.175 → 6.18


def test_ba_r7_no_commission_banker_six_pays_half() -> None:
    """BA-R7: no commission; a Banker win with 6 pays 1:2."""
    rules = BaccaratRules(decks=6, no_commission=True)
    t = table(BANKER_SIX, rules=rules)
    t.place_bet("alice", BaccaratBetKind.BANKER, mop(100))
    (row,) = _settle(t).results
    assert (row["won"], row["commission"]) == (mop(50).minor, 0)
    t2 = table(BANKER_WINS, rules=rules)  # Banker wins on 7: 1:1, no commission
    t2.place_bet("alice", BaccaratBetKind.BANKER, mop(100))
    (row2,) = _settle(t2).results
    assert (row2["won"], row2["commission"]) == (mop(100).minor, 0)


def test_ba_18_house_practice_banker_multiples_of_minimum() -> None:
    """BA-18 (house note, BA-R5 option): Banker bets only in multiples of the minimum."""
    t = table(rules=BaccaratRules(decks=6, banker_multiples_of_minimum=True))
    with pytest.raises(BetNotAllowed, match="BA-18"):
        t.verify_place_bet("alice", BaccaratBetKind.BANKER, mop(150))
    assert t.can_place_bet("alice", BaccaratBetKind.BANKER, mop(200))
    assert t.can_place_bet("alice", BaccaratBetKind.PLAYER, mop(150))  # Player: any amount above
    assert table().can_place_bet("alice", BaccaratBetKind.BANKER, mop(150))  # off by default


def test_ba_13_table_limits() -> None:
    """BA-13: each bet between the table's minimum and maximum."""
    t = table()
    with pytest.raises(BetNotAllowed, match="BA-13"):
        t.place_bet("alice", BaccaratBetKind.PLAYER, mop(50))
    with pytest.raises(BetNotAllowed, match="BA-13"):
        t.place_bet("alice", BaccaratBetKind.TIE, mop(3000))
    t.place_bet("alice", BaccaratBetKind.TIE, mop(2000))
    with pytest.raises(BetNotAllowed, match="BA-13"):  # adding goes over the maximum
        t.place_bet("alice", BaccaratBetKind.TIE, mop(1000))


def test_ba_14_differential_limit() -> None:
    """BA-14: the Banker–Player stake difference may not exceed the table's limit."""
    rules = BaccaratRules(decks=6, differential_limit=mop(1000))
    t = table(rules=rules)
    t.place_bet("alice", BaccaratBetKind.BANKER, mop(1000))
    with pytest.raises(BetNotAllowed, match="BA-14"):
        t.place_bet("bob", BaccaratBetKind.BANKER, mop(100))
    t.place_bet("bob", BaccaratBetKind.PLAYER, mop(900))  # difference now 100
    t.place_bet("bob", BaccaratBetKind.BANKER, mop(900))
    assert t.differential() == mop(1000)  # 1000 + 900 Banker against 900 Player
    with pytest.raises(BetNotAllowed, match="BA-14"):
        t.place_bet("alice", BaccaratBetKind.BANKER, mop(100))
    assert t.can_place_bet("alice", BaccaratBetKind.TIE, mop(1000))  # Tie does not count


def test_ba_15_standing_players_not_on_seated_spots() -> None:
    """BA-15: a standing player may not bet on a seated player's spot."""
    t = table()
    with pytest.raises(BetNotAllowed, match="BA-15"):
        t.place_bet("bob", BaccaratBetKind.PLAYER, mop(100), spot=1)
    with pytest.raises(BetNotAllowed, match="BA-15"):
        t.place_bet("bob", BaccaratBetKind.PLAYER, mop(100), spot=2)  # an empty seat: reserved
    t.place_bet("bob", BaccaratBetKind.PLAYER, mop(100), spot=9)  # a standing spot
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))  # her own seat
    assert {b.spot for b in t.bets} == {9, 1}


# --- BA-12 / BA-R2 ties -------------------------------------------------------------------


def _after_tie(rules: BaccaratRules) -> BaccaratTable:
    t = table(TIE_BANKER_PAIR, rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(500))
    _settle(t)
    assert t.bets[0].carried
    return t


def test_ba_12_full_alternatives_withdraw_keep_change() -> None:
    """BA-12 / BA-R2 `full`: withdraw, keep, or change (reduce, or move to Banker)."""
    t = _after_tie(BaccaratRules(decks=6))
    t.change_bet("alice", BaccaratBetKind.PLAYER, mop(300), to_kind=BaccaratBetKind.BANKER)
    assert [(b.kind, b.amount) for b in t.bets] == [(BaccaratBetKind.BANKER, mop(300))]
    assert t.balance("alice") == mop(100_000 - 300)
    t.withdraw_bet("alice", BaccaratBetKind.BANKER)
    assert t.bets == []
    assert t.balance("alice") == mop(100_000)


def test_ba_r2_increase_only_sjm() -> None:
    """BA-R2 `increase_only` (SJM house practice, BA-18 note): no withdraw, reduce or move."""
    t = _after_tie(BaccaratRules(decks=6, tie_choices=TIE_INCREASE_ONLY))
    with pytest.raises(BetNotAllowed, match="BA-R2"):
        t.withdraw_bet("alice", BaccaratBetKind.PLAYER)
    with pytest.raises(BetNotAllowed, match="BA-R2"):
        t.change_bet("alice", BaccaratBetKind.PLAYER, mop(300))
    with pytest.raises(BetNotAllowed, match="BA-R2"):
        t.change_bet("alice", BaccaratBetKind.PLAYER, mop(500), to_kind=BaccaratBetKind.BANKER)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))  # increase
    assert t.bets[0].amount == mop(600)


def test_ba_r2_table_without_keep_returns_the_bets() -> None:
    """BA-R2: a table that offers only withdrawal returns the tied bets."""
    rules = BaccaratRules(decks=6, tie_choices=frozenset({TieChoice.WITHDRAW}))
    t = table(TIE_BANKER_PAIR, rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(500))
    ev = _settle(t)
    assert ev.results[0]["result"] == "returned"
    assert t.bets == []
    assert t.balance("alice") == mop(100_000)


# --- BA-2 / BA-3 / BA-8 the shoe ------------------------------------------------------------


def test_ba_2_1_cut_card_never_fewer_than_12_from_the_end() -> None:
    """BA-2.1 / BA-R1: the cut card at least 12 cards from the end."""
    with pytest.raises(BetNotAllowed, match=r"BA-2\.1"):
        BaccaratRules(cut_from_end=11)
    t = BaccaratTable(BaccaratRules(decks=6))
    t.sit("alice", mop(100))
    t.shuffle(Rng.seeded("cut"))
    assert not t.can_cut(11)
    with pytest.raises(RuleViolation, match=r"BA-2\.1"):
        t.cut(11)
    t.cut(12, by="alice")
    assert t.cards_to_cut() == 312 - 12 - 6  # the burn (BA-2.1) follows the cut


def test_ba_2_1_shuffle_commits_the_order_and_burns_one_per_deck_face_down() -> None:
    """BA-2.1: 「將整套已洗勻的紙牌放入派牌盒內,牌面全部向下,然後莊荷按用牌多少副,銷去同數目之牌張」
    — the shuffled shoe goes in face down, and the dealer burns as many cards as there are
    decks. The shuffle publishes a commitment to its seed, never the order; the burned cards
    stay face down (a count, no card)."""
    t = BaccaratTable(BaccaratRules(decks=7))
    shuffled, committed = t.shuffle(Rng.seeded("x"))
    assert sorted(t.shoe) == sorted(full_set(7))
    assert t.shoe != full_set(7)
    for ev in (shuffled, committed):
        text = str(ev.to_json())
        assert not any(str(c) in text.split("'") for c in t.shoe[:20])
    assert committed.to_json()["data"]["commitment"] == shuffled.to_json()["data"]["commitment"]
    _, burned = t.cut()
    assert burned.to_json()["data"] == {"count": 7, "rule": "BA-2.1", "shown": None, "by": "system"}
    assert t.position == 7
    assert t.phase is BaccaratPhase.BETTING


def test_ba_2_1_burn_by_the_first_cards_value() -> None:
    """BA-2.1 「亦可選擇由第一張牌的牌面點數決定應銷去多少張牌」 / BA-R1 first_card: the first
    card is turned face up and its value says how many to burn (tens, faces 10)."""
    for first, n in (("7h", 7), ("Kd", 10), ("Ac", 1)):
        rules = BaccaratRules(decks=6, burn=BurnMode.FIRST_CARD)
        t = BaccaratTable(rules)
        t.load_shoe(stacked_shoe(first, 6, burn=0))
        _, burned = t.cut()
        data = burned.to_json()["data"]
        assert data["shown"] == first
        assert data["count"] == 1 + n
        assert t.position == 1 + n


def test_ba_2_1_burn_count_is_a_named_option_with_the_reading_as_default() -> None:
    """BA-2.1 gives the house two burns; BA-R1: the option ``burn`` with ``decks`` as the
    default, written in the table's rules."""
    assert BaccaratRules().burn is BurnMode.DECKS
    assert BaccaratRules().to_json()["burn"] == "decks"
    rules = BaccaratRules.from_json(BaccaratRules(burn=BurnMode.FIRST_CARD).to_json())
    assert rules.burn is BurnMode.FIRST_CARD


def test_ba_2_2_demonstration_hands_without_bets() -> None:
    """BA-2.2: up to three demonstration hands, dealt with no bets."""
    with pytest.raises(InvalidInput, match=r"BA-2\.2"):
        BaccaratRules(demonstration_hands=4)
    t = BaccaratTable(BaccaratRules(decks=6, demonstration_hands=2))
    t.sit("alice", mop(1000), seat=1)
    t.start_shoe(Rng.seeded("demo"))
    assert t.phase is BaccaratPhase.DEMONSTRATION
    with pytest.raises(BetNotAllowed, match=r"BA-2\.2"):
        t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.play_hand()
    t.play_hand()
    assert t.phase is BaccaratPhase.BETTING
    assert t.shoe_results() == []
    assert [r.demonstration for r in t.results] == [True, True]
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))


@pytest.mark.parametrize(("mode", "after"), [(LastHand.LAST, 0), (LastHand.ONE_MORE, 1)])
def test_ba_3_1_last_hand_after_the_cut_card(mode: LastHand, after: int) -> None:
    """BA-3.1: when the cut card comes out, that hand is the last, or one more is played;
    then the cards are reshuffled."""
    t = BaccaratTable(BaccaratRules(decks=6, last_hand=mode, cut_from_end=20))
    t.start_shoe(Rng.seeded(f"last-{mode}"))
    hands_after = None
    while t.phase is not BaccaratPhase.SHUFFLE:
        dealt = t.play_hand()
        if hands_after is not None:
            hands_after += 1
        elif dealt[0].to_json()["data"]["cut_card_out"] or any(
            e.to_json()["data"].get("cut_card_out") for e in dealt
        ):
            hands_after = 0
    assert hands_after == after
    assert t.cards_left() >= 20 - 6 - 6 * after
    shuffled, _ = t.shuffle(Rng.seeded("again"))  # BA-3.1 reshuffle
    assert shuffled.to_json()["data"]["reason"] == "BA-3.1"


NATURALS = "9h Th Ts Tc"  # Player 9, Banker 0: no third card (BA-9.2, BA-9.4 (6))


def _hands_after_a_burn_brings_out_the_cut_card(
    mode: LastHand, during_a_hand: bool
) -> tuple[BaccaratTable, list[HandSettled]]:
    """A shoe whose first card behind the cut card (Ac) is exposed (BA-4) — between hands,
    or during a hand that does not draw it — and so burned under BA-8 between hands: the cut
    card comes out in that burn. Then hands are dealt (and settled) while the table deals."""
    rules = BaccaratRules(decks=6, squeeze=True, last_hand=mode, cut_from_end=20)
    cut_index = 6 * 52 - 20
    front = " ".join([NATURALS, "Ac", NATURALS, NATURALS, NATURALS])
    t = BaccaratTable(rules)
    t.sit("alice", mop(100_000), seat=1)
    t.load_shoe(stacked_shoe(front, 6, burn=cut_index - 4))
    t.cut()
    t.burn(cut_index - 4 - 6)  # BA-8: up to the cut card, not beyond (four cards to it)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.deal()  # the last four cards before the cut card
    if during_a_hand:
        (exposed,) = t.expose_card()
    first = _settle_rest(t)
    assert not first.shoe_over
    if not during_a_hand:
        assert not t.cut_card_out  # the hand took the last card before it
        exposed, _burned = t.expose_card()
    assert exposed.to_json()["data"]["card"] == "Ac"
    assert t.cut_card_out and t.hand is None  # out in the burn, between hands
    assert t.can_deal()  # the burn is no hand: the next hand is still dealt
    hands = []
    while t.can_deal():
        t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
        t.deal()
        hands.append(_settle_rest(t))
    shoe_ended = t.journal.events[-1]
    assert isinstance(shoe_ended, ShoeEnded) and shoe_ended.reason == "BA-3.1"
    assert t.phase is BaccaratPhase.SHUFFLE
    return t, hands


@pytest.mark.parametrize("during_a_hand", [False, True], ids=["between-hands", "after-a-hand"])
def test_ba_r1_cut_card_in_a_burn_counts_for_the_next_hand_one_more(during_a_hand: bool) -> None:
    """BA-R1: a cut card that comes out between hands (in a burn, BA-4/BA-8) counts for the
    next hand; with ``one_more`` (BA-3.1 「只可多進行一局」) that hand and one more are dealt,
    and the shoe ends after the second."""
    t, hands = _hands_after_a_burn_brings_out_the_cut_card(LastHand.ONE_MORE, during_a_hand)
    assert [h.shoe_over for h in hands] == [False, True]
    assert [r.outcome for r in t.shoe_results()] == ["P", "P", "P"]  # three hands, no more


@pytest.mark.parametrize("during_a_hand", [False, True], ids=["between-hands", "after-a-hand"])
def test_ba_r1_cut_card_in_a_burn_counts_for_the_next_hand_last(during_a_hand: bool) -> None:
    """BA-R1: a cut card that comes out between hands (in a burn, BA-4/BA-8) counts for the
    next hand; with ``last`` (BA-3.1 「乃最後一局」) that hand is the last: it is dealt, and the
    shoe ends after it."""
    t, hands = _hands_after_a_burn_brings_out_the_cut_card(LastHand.LAST, during_a_hand)
    assert [h.shoe_over for h in hands] == [True]
    assert [r.outcome for r in t.shoe_results()] == ["P", "P"]  # two hands, no more


def test_ba_3_1_new_set_of_cards_recorded() -> None:
    """BA-3.1: damaged cards — a new set (recorded on the shuffle)."""
    t = BaccaratTable(BaccaratRules(decks=6))
    assert t.shuffle(Rng.seeded("n"), new_set=True)[0].to_json()["data"]["new_set"] is True


def test_ba_3_2_change_shoe_after_any_hand() -> None:
    """BA-3.2 「場方保留在任何一局完結後更換派牌盒」: the casino may change the shoe after any
    hand — not during one; the old shoe's seed is revealed."""
    rules = BaccaratRules(decks=6, squeeze=True)
    t = table(PLAYER_NATURAL_PAIR, rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.deal()
    assert not t.can_end_shoe()
    t.reveal(Side.PLAYER, "alice")
    assert t.phase is BaccaratPhase.BETTING
    ended = t.end_shoe()
    assert ended[0].to_json()["data"]["reason"] == "BA-3.2"
    shuffled, _ = t.shuffle(Rng.seeded("change"))
    assert shuffled.to_json()["data"]["reason"] == "BA-3.2"
    assert t.phase is BaccaratPhase.CUT


def test_ba_8_burn_at_the_start_of_any_hand() -> None:
    """BA-8: besides BA-2, cards may be burned at the start of any hand."""
    t = table("2h 3h 4h 5h 9h Th 9s 7c")
    (ev,) = t.burn(4)
    assert ev.to_json()["data"]["rule"] == "BA-8"
    t.play_hand()
    assert [str(c) for c in t.results[0].player_cards] == ["9h", "9s"]
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    with pytest.raises(OutOfOrder, match="BA-8"):
        t.burn(1)


# --- BA-2.3 / BA-7.2 / BA-R4 continuous shuffler -------------------------------------------


def test_ba_2_3_ba_7_2_ba_r4_continuous_shuffler() -> None:
    """BA-2.3: no BA-2.1 procedure; BA-7.2 face up, back into the machine; BA-R4 every hand
    from the full set, no cut card, burn or last hand."""
    rules = BaccaratRules(decks=6, continuous_shuffler=True, squeeze=True)
    t = BaccaratTable(rules)
    t.sit("alice", mop(10_000), seat=1)
    rng = Rng.seeded("csm")
    t.shuffle(rng)
    assert t.phase is BaccaratPhase.BETTING
    assert not t.can_burn(1)
    assert t.cards_to_cut() is None
    for _ in range(120):
        t.place_bet("alice", BaccaratBetKind.BANKER, mop(100))
        events = t.play_hand(rng)
        assert isinstance(events[0], CardsDealt)
        assert events[0].holders == {"player": None, "banker": None}  # face up
        for b in list(t.bets):
            t.withdraw_bet(b.player, b.kind)
    assert t.phase is BaccaratPhase.BETTING  # never a last hand
    assert t.composition() == fresh_composition(6)


# --- BA-4, BA-10, BA-16 incidents -----------------------------------------------------------


def test_ba_4_card_exposed_in_a_hand_that_draws_it_stays_valid() -> None:
    """BA-4 「牌局中途出自派牌盒之牌張偶有陽反,陽反之牌及該局之投注仍然有效,牌局繼續進行」: a card
    that comes out face up during the hand stays valid, and so do the hand's bets."""
    rules = BaccaratRules(decks=6, squeeze=True)
    t = table(BANKER_WINS, rules=rules)  # P 5 draws 5d; B 7 stands
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.deal()
    (exposed,) = t.expose_card()  # the next card, Player's third card, comes out face up
    assert exposed.to_json()["data"]["card"] == "5d"
    events = t.reveal(Side.PLAYER, "alice")
    third = next(e for e in events if isinstance(e, ThirdCardDealt))
    assert third.card == "5d"  # dealt face up: it is valid as it is
    ev = settled(events)
    assert isinstance(ev, HandSettled)
    assert ev.outcome == "B"
    assert [str(c) for c in t.results[0].player_cards] == ["Th", "5h", "5d"]
    assert t.balance("alice") == mop(100_000 - 100)  # the bet stood and lost


def test_ba_4_exposed_card_while_a_third_card_is_due_the_hand_goes_on_auto_dealt() -> None:
    """BA-4 「陽反之牌及該局之投注仍然有效,牌局繼續進行」 on a shoe the table deals itself: the
    hand waits only for a holder (BA-16), so the card that comes out while it waits is the
    next card of the shoe — here the Banker's third card, due once Player's face-down third
    card is opened. It is dealt face up, not burned, and the bets stand."""
    rules = BaccaratRules(decks=6, squeeze=True)
    # Player T+5 = 5 draws 2d (BA-9.1): 7; Banker 4+K = 4 draws on a 2 (BA-9.3 (3)): 9c, 3
    t = table("Th 4s 5h Kc 2d 9c", rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.deal()
    t.reveal(Side.PLAYER, "alice")  # Player's third card goes to alice face down
    assert t.hand is not None and t.hand.hidden[Side.PLAYER] == 1
    assert t.holder_due() == ("alice", Side.PLAYER)
    (exposed,) = t.expose_card()
    assert exposed.to_json()["data"]["card"] == "9c"
    events = t.reveal(Side.PLAYER, "alice")
    assert "baccarat.cards_burned" not in [e.kind for e in events]
    third = [e for e in events if isinstance(e, ThirdCardDealt)]
    assert [(e.side, e.card) for e in third] == [("banker", "9c")]  # face up
    ev = settled(events)
    assert isinstance(ev, HandSettled)
    assert (ev.player_total, ev.banker_total, ev.outcome) == (7, 3, "P")
    assert [str(c) for c in t.results[0].banker_cards] == ["4s", "Kc", "9c"]
    assert t.balance("alice") == mop(100_000 + 100)  # the bet stood and won 1:1


def _settle_rest(t: BaccaratTable) -> HandSettled:
    events: list = []  # type: ignore[type-arg]
    while (due := t.holder_due()) is not None:
        events += t.reveal(due[1], due[0])
    return settled(events)  # type: ignore[return-value]


def test_ba_4_ba_8_a_card_seen_before_its_hand_is_burned() -> None:
    """BA-4 keeps an exposed card valid in the hand it comes out in; a card seen before the
    hand that would use it — between hands, or during a hand that does not draw it — would
    let bets be placed on a known first card, so it is burned at the start of the next hand
    (BA-8 「場方保留於每局開始時是否銷去派牌盒上的紙牌的權利」). One rule, however it was seen."""
    # between hands: burned at once, the bets placed stand
    t = table("Ac " + PLAYER_NATURAL_PAIR)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    exposed, burned = t.expose_card()
    assert exposed.to_json()["data"]["card"] == "Ac"
    assert burned.to_json()["data"] == {"count": 1, "rule": "BA-8", "shown": "Ac", "by": "system"}
    t.place_bet("bob", BaccaratBetKind.PLAYER, mop(100))  # betting stays open
    _settle(t)
    assert [str(c) for c in t.results[0].player_cards] == ["9h", "9s"]
    assert t.balance("alice") == mop(100_100)
    # during a hand that does not draw it: burned after the settlement, before new bets
    rules = BaccaratRules(decks=6, squeeze=True)
    t = table(PLAYER_NATURAL_PAIR + " Ac " + TIE_BANKER_PAIR, rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.deal()
    (exposed,) = t.expose_card()
    assert exposed.to_json()["data"]["card"] == "Ac"
    events = t.reveal(Side.PLAYER, "alice")  # naturals: no third card
    kinds = [e.kind for e in events]
    assert kinds[-2:] == ["baccarat.hand_settled", "baccarat.cards_burned"]
    assert events[-1].to_json()["data"]["shown"] == "Ac"
    t.place_bet("alice", BaccaratBetKind.TIE, mop(100))
    ev = _settle_rest(t) if t.phase is BaccaratPhase.DEALING else _settle(t)
    assert ev.outcome == "T"  # the next hand starts after the burned card


def test_ba_10_ba_r3_void_hand_returns_every_bet() -> None:
    """BA-10 「至無法更正時,該局取消作廢」: an error that cannot be corrected voids the hand;
    BA-R3 every bet returned, the face-down cards never shown."""
    rules = BaccaratRules(decks=6, squeeze=True)
    t = table(PLAYER_NATURAL_PAIR, rules=rules)
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    t.place_bet("bob", BaccaratBetKind.TIE, mop(100))
    t.deal()
    t.correct_error("card flipped onto the wrong box, moved back")  # BA-10 corrected
    (ev,) = t.void_hand("third card drawn against the rules, cards mixed")
    assert len(ev.to_json()["data"]["returned"]) == 2
    assert t.balance("alice") == t.balance("bob") == mop(100_000)
    assert t.bets == []
    assert t.phase is BaccaratPhase.BETTING
    assert t.results[-1].outcome == "V"
    assert t.shoe_results() == []
    assert ledger_of(t).balance("wagers:baccarat-1").is_zero()
    assert "9h" not in str(t.view(Viewer.PUBLIC))


@pytest.mark.parametrize("mode", list(LastHand))
def test_ba_3_1_ba_10_a_void_last_hand_ends_the_shoe(mode: LastHand) -> None:
    """BA-3.1 「牌派至白咭牌時,乃最後一局或只可多進行一局。將白咭取出後,待該局完畢,重新洗牌」 with
    BA-10 「該局取消作廢」: the hand after the cut card (or, under ``last``, the cut card's own
    hand) is voided — it was played (進行) and is over (完畢), so the shoe ends and the cards
    are reshuffled; no extra hand is dealt again. Its bets are returned (BA-R3)."""
    rules = BaccaratRules(decks=6, squeeze=True, last_hand=mode, cut_from_end=20)
    t = BaccaratTable(rules)
    t.sit("alice", mop(100_000), seat=1)
    t.start_shoe(Rng.seeded(f"void-last-{mode}"))
    while True:
        to_cut = t.cards_to_cut()
        assert to_cut is not None
        if mode is LastHand.LAST and to_cut in (5, 6):  # not out on a third card (BA-8)
            t.burn(to_cut - 3)
            to_cut = 3
        last = (mode is LastHand.ONE_MORE and t.cut_card_out) or (
            mode is LastHand.LAST and to_cut <= 4
        )
        t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
        t.deal()
        assert t.phase is BaccaratPhase.DEALING  # alice squeezes: the hand waits
        if last:
            break
        _settle_rest(t)
        for b in list(t.bets):
            t.withdraw_bet(b.player, b.kind)
        assert t.phase is BaccaratPhase.BETTING
    events = t.void_hand("cards dropped on the floor")
    assert [e.kind for e in events] == [
        "baccarat.hand_voided",
        "baccarat.shoe_ended",
        "table.seed_revealed",
    ]
    assert t.phase is BaccaratPhase.SHUFFLE
    assert not t.can_deal()
    assert events[0].to_json()["data"]["returned"][0]["stake"] == mop(100).minor
    money = ledger_of(t)
    assert money.balance("wagers:baccarat-1").is_zero()
    assert money.balance("stack:baccarat-1:alice") == t.balance("alice")


def test_ba_16_ba_r6_squeeze_holder_reveals_third_card_alone() -> None:
    """BA-16 「由投注最大而坐位者持牌,持牌者不能離桌觀看,增得之牌不能與先派之兩張牌一同觀看」: the
    seated player with the largest bet handles the side's cards, may not leave, and opens
    the third card on its own; the cards never change (BA-R6)."""
    rules = BaccaratRules(decks=6, squeeze=True)
    front = "Th 4s 5h 3c 5d"  # P 5 draws 5d; B 7 stands
    t = table(front, rules=rules, players={"alice": 1, "carol": 2, "bob": None})
    t.place_bet("alice", BaccaratBetKind.PLAYER, mop(200))
    t.place_bet("carol", BaccaratBetKind.PLAYER, mop(300))
    t.place_bet("bob", BaccaratBetKind.PLAYER, mop(5000))  # standing: never the holder
    t.place_bet("alice", BaccaratBetKind.BANKER, mop(100), spot=1)
    (dealt,) = t.deal()
    assert isinstance(dealt, CardsDealt)
    assert dealt.holders == {"player": "carol", "banker": "alice"}
    assert dealt.cards == ()  # face down
    assert t.holder_due() == ("carol", Side.PLAYER)  # BA-7.1 Player's hand opened first
    with pytest.raises(RuleViolation, match="BA-16"):
        t.reveal(Side.PLAYER, "alice")
    with pytest.raises(RuleViolation, match="BA-16"):
        t.leave("carol")
    with pytest.raises(OutOfOrder, match=r"BA-7\.1"):
        t.reveal(Side.BANKER, "alice")
    (ev,) = t.reveal(Side.PLAYER, "carol")
    assert ev.to_json()["data"]["cards"] == ["Th", "5h"]
    first, third = t.reveal(Side.BANKER, "alice")
    assert first.to_json()["data"]["cards"] == ["4s", "3c"]
    assert third.to_json()["data"] == {
        "side": "player",
        "card": None,  # face down to its holder
        "rule": "BA-9.1",
        "cut_card_out": False,
    }
    assert t.holder_due() == ("carol", Side.PLAYER)  # the third card, on its own
    events = t.reveal(Side.PLAYER, "carol")
    assert events[0].to_json()["data"]["cards"] == ["5d"]
    assert settled(events).to_json()["data"]["outcome"] == "B"


# --- journal, replay, chance structure ----------------------------------------------------


def test_replay_rebuilds_identical_state() -> None:
    """Replay (core.journal) rebuilds the same table, through JSON too."""
    t = BaccaratTable(BaccaratRules(decks=6, squeeze=True, demonstration_hands=1))
    t.sit("alice", mop(5000), seat=3)
    rng = Rng.seeded("replay")
    t.start_shoe(rng)
    t.play_hand()
    for _ in range(10):
        t.place_bet("alice", BaccaratBetKind.BANKER, mop(100))
        t.place_bet("alice", BaccaratBetKind.PLAYER_PAIR, mop(100))
        t.play_hand()
        for b in list(t.bets):
            t.withdraw_bet(b.player, b.kind)
    t.end_shoe()  # BA-3.2: the shoe's seed is revealed
    again = replay(Journal.from_json(t.journal.to_json()))
    assert isinstance(again, BaccaratTable)
    assert again.snapshot() == t.snapshot()


def test_chance_structure_exact_probabilities() -> None:
    """The chance node of a card: exact fractions over a composition (for the analysis)."""
    probs = rank_probabilities(fresh_composition(8))
    assert sum(probs.values()) == 1
    assert probs[1] == Fraction(1, 13)
    values = value_probabilities(fresh_composition(8))
    assert values[0] == Fraction(4, 13)
    assert values[9] == Fraction(1, 13)
    t = table(PLAYER_NATURAL_PAIR)
    assert sum(t.composition()) == 312  # the burned cards are face down: unseen
    _settle(t)
    assert sum(t.composition()) == 312 - 4


def test_out_of_order_operations_name_the_rule() -> None:
    t = BaccaratTable()
    t.sit("alice", mop(1000))
    with pytest.raises(OutOfOrder, match=r"BA-7\.1"):
        t.place_bet("alice", BaccaratBetKind.PLAYER, mop(100))
    with pytest.raises(OutOfOrder, match=r"BA-2\.1"):
        t.cut()
    with pytest.raises(OutOfOrder, match=r"BA-7\.1"):
        t.deal()
