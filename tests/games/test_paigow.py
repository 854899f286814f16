"""Pai Gow (Portaria 96/85/M) and Taiwan Pai Kao (Portaria 15/90/M): rule by rule, at the
tile table (``games.tiletable``: the one engine of the server, the terminal game and
``settle``), its round (``games.tileround``) and its settlement (``games.tilesettle``).

Hands used (worked by hand from T-2):
  STRONG  6-6 4-5 | 1-1 3-6  -> 地九王 / 天九王 (PG); beats MID both ways
  MID     1-5 3-4 | 1-6 2-5  -> 拎六三 (3) / 高腳七四 (4): the usual banker
  WEAK    1-3 3-3 | 5-5 4-6  -> 鵝牌密 (0) / 梅牌密 (0): loses to MID both ways
"""

from __future__ import annotations

import pytest

from macau_tables.core.errors import BetNotAllowed, InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.journal import Journal
from macau_tables.core.ledger import Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import DiceShaken, TilePhase, TilesSet, TileTable, replay
from macau_tables.games.tiles.facts import deal, report_exposed
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import DEALER, HOUSE, Phase, Rotation, RoundOptions, SeatResult
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.games.tiles.settlement import settle as settle_round
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import FULL_SET, Hand

from .tile_helpers import (
    bet,
    join,
    m,
    nets,
    opened,
    rearrange,
    rnd_of,
    set_all,
    set_tiles,
    settle,
    staged,
    tiles,
)

STRONG = ("6-6", "4-5", "1-1", "3-6")
MID = ("1-5", "3-4", "1-6", "2-5")
WEAK = ("1-3", "3-3", "5-5", "4-6")


def outcome(t: TileTable, seat: int) -> str:
    settled = t.last_settlement
    assert settled is not None
    return next(str(r["seat_result"]) for r in settled.results if r["seat"] == seat)


def shares(t: TileTable) -> dict[str, int]:
    settled = t.last_settlement
    assert settled is not None
    return dict(settled.bank_shares)


def commissions(t: TileTable) -> dict[str, int]:
    settled = t.last_settlement
    assert settled is not None
    return dict(settled.commissions)


# --- Art. 1: the dice and the deal ---------------------------------------------------------


def test_pg_r1_pg_1_2_the_total_counts_the_banker_as_one() -> None:
    """PG-1.2 / PG-R1: total 4 from banker seat 1 reaches seat 4, which takes stack 0."""
    t = staged(PAIGOW, hands={4: STRONG}, bets=[("ann", 4, 10)], dice=(1, 1, 1, 1))
    rnd = rnd_of(t)
    assert rnd.dealing_order() == [4, 5, 6, 7, 8, 1, 2, 3]
    assert sorted(map(str, rnd.hands[4])) == sorted(STRONG)
    assert rnd.hands[4] == rnd.tiles[0:4]
    assert rnd.settlement_order() == [4, 5, 6, 7, 8, 2, 3]


def test_pg_1_3_tw_2b_count_on_the_banker_then_his_right_is_first() -> None:
    """PG-1.3 / TW-2c: counter-clockwise, never altered. PG-R1: the banker takes the first
    stack; TW-2b: the seat on his right is first."""
    for reg in (PAIGOW, TAIWAN):
        rnd = rnd_of(staged(reg, hands={1: MID}, bets=[("ann", 2, 10)], dice=(2, 2, 2, 3)))
        assert rnd.dealing_order()[0] == 1  # total 9: (9 - 1) mod 8 = 0, the banker
        assert sorted(map(str, rnd.hands[1])) == sorted(MID)
        assert rnd.settlement_order()[0] == 2  # the seat on the banker's right


def test_pg_1_4_every_stack_is_dealt_whatever_the_players() -> None:
    """PG-1.4: all 32 tiles are dealt; PG-7.3: every tile stays on the table."""
    rnd = rnd_of(staged(PAIGOW, hands={}, bets=[("ann", 3, 10)]))
    assert len(rnd.hands) == 8
    assert sorted(t for h in rnd.hands.values() for t in h) == sorted(rnd.tiles)


def test_pg_1_5_tw_2e_a_cocked_die_is_shaken_again() -> None:
    """PG-1.5 / TW-2e: a cocked die or one out of the shaker: shake again."""
    t = opened(PAIGOW, {"b": 100, "a": 10})
    bet(t, "a", 2, m(10))
    (ev,) = deal(t, (1, 2, 3, 4), cocked=True)
    assert isinstance(ev, DiceShaken) and ev.valid is False
    assert rnd_of(t).phase is Phase.BETTING and rnd_of(t).hands == {}
    assert t.phase is TilePhase.BETTING
    deal(t, (6, 6, 6, 6), woodpile=list(FULL_SET))
    assert rnd_of(t).phase is Phase.SETTING


def test_pg_1_1_nothing_before_the_shuffle() -> None:
    """PG-1.1 / TW-2a: the dealer shuffles first; PG-9 / TW-1: a full set of 32 tiles."""
    t = opened(PAIGOW, {"b": 100, "b2": 10}, woodpile_built=False)
    with pytest.raises(OutOfOrder, match="PG-1.1"):
        bet(t, "b2", 2, m(1))
    t.execute(Command(Actor.DEALER, "build_woodpile", {}))
    pile = [*list(FULL_SET)[:31], *tiles("6-6")]
    with pytest.raises(InvalidInput, match="T-1"):
        deal(t, (1, 2, 3, 4), woodpile=pile)


# --- Art. 2: rearranging and exposed tiles -------------------------------------------------


def test_pg_2_1_tw_2f_two_players_then_the_banker_then_nobody() -> None:
    """PG-2.1 / TW-2f: at most two players, then the banker, then nobody."""
    t = opened(PAIGOW, dict.fromkeys(["b", "x", "y", "z"], 100))
    for p, seat in (("x", 2), ("y", 3), ("z", 4)):
        bet(t, p, seat, m(10))
    order = (7, 6, 5, 4, 3, 2, 1, 0)
    rearrange(t, "x", order)
    rearrange(t, "y", tuple(range(8)))
    with pytest.raises(RuleViolation, match="PG-2.1 at most two seats"):
        rearrange(t, "z", order)
    rearrange(t, "b", order)
    assert rnd_of(t).stack_order == order  # PG-R2: a permutation of the stacks
    with pytest.raises(RuleViolation, match="PG-2.1 after the banker"):
        rearrange(t, "x", tuple(range(8)))
    deal(t, (1, 2, 3, 4), woodpile=list(FULL_SET))
    rnd = rnd_of(t)
    assert rnd.hands[2] == rnd.tiles[4 * 7 : 4 * 7 + 4]  # seat 2 took stack 7
    assert rnd.hands[2] == tuple(FULL_SET[4 * 7 : 4 * 7 + 4])


def test_pg_r2_a_rearrangement_is_a_permutation() -> None:
    t = opened(PAIGOW, {"b": 1}, capital=1)
    with pytest.raises(InvalidInput, match="PG-R2"):
        rearrange(t, "b", (0, 0, 1, 2, 3, 4, 5, 6))


def test_pg_2_2_one_exposed_tile_plays_on() -> None:
    """PG-2.2: one tile exposed in the deal: the round continues."""
    t = staged(PAIGOW, hands={2: STRONG, 1: MID}, bets=[("ann", 2, 10)])
    report_exposed(t, 2, 1)
    assert 2 in rnd_of(t).active_seats()


def test_pg_2_3_pg_r3_two_exposed_in_a_player_seat_its_bets_return() -> None:
    """PG-2.3 / PG-R3: two exposed in a player seat: that seat takes no part."""
    t = staged(PAIGOW, hands={2: STRONG, 3: WEAK, 1: MID}, bets=[("ann", 2, 10), ("bob", 3, 10)])
    report_exposed(t, 2, 2)
    assert rnd_of(t).active_seats() == [3]
    set_all(t, {3: ("1-3", "3-3")}, ("1-5", "3-4"))
    result = settle(t)
    ann = next(r for r in result.results if r.person == "ann")
    assert (ann.outcome, ann.net.minor) == ("no_action", 0)
    assert outcome(t, 2) == "seat_out"


def test_pg_2_3_pg_r3_two_exposed_in_the_banker_stack_void_the_deal() -> None:
    """PG-2.3 / PG-R3: two exposed in the banker's stack: the deal is void, bets stay."""
    t = staged(PAIGOW, hands={1: MID}, bets=[("ann", 2, 10)])
    report_exposed(t, 1, 2)
    rnd = rnd_of(t)
    assert rnd.phase is Phase.SHUFFLE and rnd.hands == {}
    assert t.phase is TilePhase.SHUFFLE
    assert [b.person for b in rnd.bets] == ["ann"]  # bets stay
    with pytest.raises(OutOfOrder):
        deal(t, (1, 2, 3, 4), woodpile=list(FULL_SET))  # reshuffle first


def test_tw_4_tw_r4_exposed_tiles_never_void() -> None:
    """TW-4 / TW-R4: exposed tiles stay valid; nothing is voided."""
    t = staged(TAIWAN, hands={1: MID}, bets=[("ann", 2, 10)])
    report_exposed(t, 1, 2)
    report_exposed(t, 2, 3)
    assert rnd_of(t).phase is Phase.SETTING and rnd_of(t).active_seats() == [2]


# --- Art. 3: co-banking ---------------------------------------------------------------------


def test_pg_3_2_pg_r4a_cobanker_is_a_layer_after_the_core_bank() -> None:
    """Bank 100 + co-banker 100; the seat wins 150: banker loses 100, co-banker 50."""
    t = staged(
        PAIGOW, hands={2: STRONG, 1: MID}, bets=[("ann", 2, 150)], capital=100,
        cobank=[("cob", 100)],
    )  # fmt: skip
    set_all(t, {2: ("1-1", "3-6")}, ("1-5", "3-4"))
    settle(t)
    assert shares(t) == {"bank": -10000, "cob": -5000}


def test_pg_3_3_a_cobanker_joins_once_with_his_own_capital() -> None:
    """PG-3.3: a co-banker joins once, with his own capital (not beyond his chips: PG-3.2);
    PG-3.2: the banker is in the bank already."""
    t = opened(PAIGOW, {"b": 100, "cob": 50})
    with pytest.raises(RuleViolation, match="PG-3.2"):
        join(t, "cob", m(60))  # more than his chips
    join(t, "cob", m(50))
    with pytest.raises(BetNotAllowed, match="PG-3.3"):
        join(t, "cob", m(1))
    with pytest.raises(RuleViolation, match="PG-3.2"):
        join(t, "b", m(1))
    assert rnd_of(t).cobankers == (("cob", 5000),)


def test_tw_5e_a_cobanker_bets_on_no_other_place_but_may_in_pg() -> None:
    for reg, allowed in ((TAIWAN, False), (PAIGOW, True)):
        t = opened(reg, {"b": 100, "cob": 500})
        join(t, "cob", m(100))
        assert t.can_place_bet(Actor.player("cob"), 3, m(10)) is allowed
        if not allowed:
            with pytest.raises(BetNotAllowed, match="TW-5e"):
                bet(t, "cob", 3, m(10))


def test_pg_3_4_pg_r10_the_larger_capital_sets_the_banker_tiles() -> None:
    """PG-3.4 / PG-R10: the larger capital (banker or house) sets the banker's tiles."""
    t = staged(PAIGOW, hands={1: MID}, bets=[("ann", 2, 10)], capital=100, house=500)
    rnd = rnd_of(t)
    assert rnd.banker_authority() == HOUSE
    set_tiles(t, "ann", 2, list(rnd.hands[2])[:2])
    with pytest.raises(RuleViolation, match="PG-3.4"):
        set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    set_tiles(t, HOUSE, 1, tiles("1-5", "3-4"))
    assert rnd_of(t).setters[1] == HOUSE
    t2 = staged(PAIGOW, hands={1: MID}, bets=[("ann", 2, 10)], capital=600, house=500)
    assert rnd_of(t2).banker_authority() == "bank"


def test_pg_r10_house_way_sets_for_the_house() -> None:
    from macau_tables.games.tiles.paigow import banker_setting_by_house

    s = banker_setting_by_house(tiles(*STRONG))
    assert sorted(map(str, s.tiles)) == sorted(STRONG)


# --- Art. 4: bets, the cap, commission -----------------------------------------------------


def test_pg_4_6_pg_4_7_tw_2g_no_bet_after_the_dice() -> None:
    """PG-4.6 / PG-4.7 / TW-2g: bets before the dice; afterwards nothing changes."""
    for reg, rule in ((PAIGOW, "PG-4.7"), (TAIWAN, "TW-2g")):
        t = staged(reg, hands={}, bets=[("ann", 2, 10)], cobank=[("cob", 10)])
        with pytest.raises(OutOfOrder, match=rule):
            bet(t, "ann", 3, m(10))
        with pytest.raises(OutOfOrder, match=rule):
            join(t, "ann", m(10))


def test_pg_4_6_bets_need_the_money_and_a_player_seat() -> None:
    """PG-4.6: bets lie on a player seat and need the money; refused bets change nothing."""
    t = opened(PAIGOW, {"b": 100, "x": 30})
    bet(t, "x", 2, m(20))
    with pytest.raises(RuleViolation, match="PG-4.6"):
        bet(t, "x", 3, m(20))  # 40 > 30
    with pytest.raises(BetNotAllowed, match="PG-3.2"):
        bet(t, "x", 1, m(5))  # the banker's seat
    with pytest.raises(BetNotAllowed, match="PG-1.4"):
        bet(t, "x", 9, m(5))
    assert len(rnd_of(t).bets) == 1  # refused bets changed nothing
    assert t.stack("x") == m(10)


def test_pg_4_4_the_banker_must_have_his_capital() -> None:
    t = opened(PAIGOW, {"b": 99}, capital=99, woodpile_built=False)
    assert t.round is not None  # (a round opened with all he has)
    with pytest.raises(RuleViolation, match="PG-4.4"):
        opened(PAIGOW, {"b": 99}, capital=100)


def test_pg_r4_worked_example_running_balance() -> None:
    """PG-4.8 / TW-2h: each bet is settled by the seat it lies on.
    PG-R4: C = 100; seat 2 bets 100 and wins, seat 3 bets 100 and loses → bank 0."""
    t = staged(
        PAIGOW, hands={1: MID, 2: STRONG, 3: WEAK}, bets=[("s1", 2, 100), ("s2", 3, 100)],
        capital=100,
    )  # fmt: skip
    set_all(t, {2: ("1-1", "3-6"), 3: ("1-3", "3-3")}, ("1-5", "3-4"))
    result = settle(t)
    assert result.bank_result.minor == 0
    assert [(r.person, r.outcome, r.action.minor) for r in result.results] == [
        ("s1", "win", 10000), ("s2", "lose", 10000),
    ]  # fmt: skip


def test_pg_r4_worked_example_cover() -> None:
    """PG-R4 option cover: seat 2 covered, seat 3 not → bank −100, seat 3's bet returned."""
    t = staged(
        PAIGOW, hands={1: MID, 2: STRONG, 3: WEAK}, bets=[("s1", 2, 100), ("s2", 3, 100)],
        capital=100, options=RoundOptions(settlement="cover"),
    )  # fmt: skip
    set_all(t, {2: ("1-1", "3-6"), 3: ("1-3", "3-3")}, ("1-5", "3-4"))
    result = settle(t)
    assert result.bank_result.minor == -10000
    assert [(r.person, r.outcome, r.action.minor) for r in result.results] == [
        ("s1", "win", 10000), ("s2", "no_action", 0),
    ]  # fmt: skip


def test_pg_4_5_the_bank_runs_out_mid_settlement() -> None:
    """C = 100: seat 2 wins 60, seat 3 wins 60 (only 40 paid), seat 4 loses 50."""
    t = staged(
        PAIGOW,
        hands={1: MID, 2: STRONG, 3: ("6-6", "2-6", "1-1", "4-4"), 4: WEAK},
        bets=[("a", 2, 60), ("b", 3, 60), ("c", 4, 50)], capital=100,
    )  # fmt: skip
    set_all(t, {2: ("1-1", "3-6"), 3: ("1-1", "4-4"), 4: ("1-3", "3-3")}, ("1-5", "3-4"))
    result = settle(t)
    got = [(r.person, r.outcome, r.action.minor) for r in result.results]
    assert got == [("a", "win", 6000), ("b", "win", 4000), ("c", "lose", 5000)]
    assert result.bank_result.minor == -5000


def test_pg_4_2_pg_r5_four_percent_of_each_win_rounded_down() -> None:
    """PG-4.2: 4% of the amount won, rounded down (PG-R5)."""
    t = staged(PAIGOW, hands={1: MID, 2: STRONG}, bets=[("ann", 2, 99)], capital=1000)
    set_all(t, {2: ("1-1", "3-6")}, ("1-5", "3-4"))
    r = settle(t).results[0]
    assert (r.commission.minor, r.net.minor) == (396, 9504)  # 4% of 9900 avos


def test_pg_r5_bank_pays_on_its_net_win_never_the_house_share() -> None:
    """PG-3.1: the house co-banks. Bank 100 + house 300 win 200 net: shares 50 / 150;
    the banker pays 4% of 50 = 2."""
    t = staged(
        PAIGOW, hands={1: MID, 2: WEAK}, bets=[("ann", 2, 200)], capital=100, house=300,
    )  # fmt: skip
    set_all(t, {2: ("1-3", "3-3")}, ("1-5", "3-4"))
    result = settle(t)
    assert shares(t) == {"bank": 5000, HOUSE: 15000}
    assert commissions(t) == {"bank": 200}
    assert nets(result)["house:commission"] == 200
    assert nets(result)["player:bank"] == 4800


def test_pg_r4a_option_house_after_the_banker() -> None:
    t = staged(
        PAIGOW, hands={1: MID, 2: WEAK}, bets=[("ann", 2, 200)], capital=100, house=300,
        options=RoundOptions(house_layer="after_banker"),
    )  # fmt: skip
    set_all(t, {2: ("1-3", "3-3")}, ("1-5", "3-4"))
    settle(t)
    assert shares(t) == {"bank": 10000, HOUSE: 10000}


TW_BANKER = ("6-6", "4-5", "4-4", "5-6")  # set 人牌九 / 天九王
TW_WIN = ("2-2", "2-2", "3-3", "3-3")  # forced: 雙板 / 雙長三 — beats TW_BANKER
TW_LOSE = ("1-3", "1-6", "5-5", "4-6")  # forced: 鵝牌四 / 梅牌七 — loses to TW_BANKER


def _tw_pair(options: RoundOptions | None = None) -> tuple[TileTable, Settlement]:
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN},
        bets=[("a", 2, 100), ("b", 3, 100)], capital=1000, options=options,
    )  # fmt: skip
    set_all(t, {2: ("1-3", "4-6"), 3: ("2-2", "2-2")}, ("4-4", "5-6"))
    result = settle(t)
    assert result.resets == ()
    return t, result


def test_tw_8_tw_r3_five_percent_per_bet_the_bank_wins() -> None:
    """TW-8: 5% of each win; TW-R3: the bank is charged on each bet it wins (gross)."""
    t, result = _tw_pair()
    assert (outcome(t, 2), outcome(t, 3)) == ("banker", "player")
    assert result.bank_result.minor == 0  # won 100, paid 100
    assert commissions(t) == {"bank": 500}
    b = next(r for r in result.results if r.person == "b")
    assert b.commission.minor == 500
    net_opt, _ = _tw_pair(RoundOptions(bank_commission="net"))
    assert commissions(net_opt) == {}


# --- Art. 6: winning ------------------------------------------------------------------------

COPY_BANKER = ("6-6", "1-6", "1-1", "3-4")  # 天牌九 / 地牌九
COPY_PLAYER = ("6-6", "2-5", "1-1", "1-6")  # 天牌九 / 地牌九 — a copy of each


def _duel(reg, player, banker, pfront, bfront):  # type: ignore[no-untyped-def]
    t = staged(reg, hands={1: banker, 2: player}, bets=[("ann", 2, 10)])
    set_all(t, {2: pfront}, bfront)
    settle(t)
    return outcome(t, 2)


def test_pg_6_1_a_copy_goes_to_the_banker() -> None:
    """PG-6.1: a copy goes to the banker."""
    assert _duel(PAIGOW, COPY_PLAYER, COPY_BANKER, ("1-1", "1-6"), ("1-1", "3-4")) == "banker"


def test_tw_9a_tw_6c_both_equal_is_a_push() -> None:
    """TW-9a / TW-6c: no banker advantage; both pairs equal is a push."""
    assert _duel(TAIWAN, COPY_PLAYER, COPY_BANKER, ("1-1", "1-6"), ("1-1", "3-4")) == "push"


def test_tw_6c_one_pair_equal_the_other_decides() -> None:
    banker = ("1-1", "3-4", "4-4", "5-6")  # 人牌九 (front) / 地牌九 (back)
    player = ("1-3", "1-3", "4-4", "5-6")  # forced: 人牌九 (equal) / 雙鵝 (higher)
    assert _duel(TAIWAN, player, banker, ("4-4", "5-6"), ("4-4", "5-6")) == "player"
    assert _duel(PAIGOW, player, banker, ("4-4", "5-6"), ("4-4", "5-6")) == "push"


def test_pg_6_2_zero_fronts_go_to_the_banker_whatever_the_tiles() -> None:
    """PG-6.2: banker 0 against player 0 in front: the banker wins the front."""
    banker = ("5-5", "4-6", "2-2", "1-4")  # 梅牌密 (0) / 板牌九
    player = ("1-3", "3-3", "6-6", "1-6")  # 鵝牌密 (0, better tile) / 天牌九
    assert _duel(PAIGOW, player, banker, ("1-3", "3-3"), ("5-5", "4-6")) == "push"
    assert _duel(TAIWAN, player, banker, ("1-3", "3-3"), ("5-5", "4-6")) == "player"


def test_pg_6_2_a_back_of_zero_against_zero_is_compared_by_tile() -> None:
    """PG-6.2 names the front only: 0 against 0 in the back goes by best tile."""
    banker = ("5-5", "4-6", "5-5", "4-6")  # 梅牌密 / 梅牌密
    player = ("1-3", "3-3", "1-3", "3-3")  # 鵝牌密 / 鵝牌密
    assert _duel(PAIGOW, player, banker, ("1-3", "3-3"), ("5-5", "4-6")) == "push"


def test_pg_6_3_pg_6_4_both_hands_decide_one_each_pushes() -> None:
    """PG-6.3: both hands decide; PG-6.4: one each is a push."""
    assert _duel(PAIGOW, STRONG, MID, ("1-1", "3-6"), ("1-5", "3-4")) == "player"
    assert _duel(PAIGOW, WEAK, MID, ("1-3", "3-3"), ("1-5", "3-4")) == "banker"
    push = ("6-6", "4-5", "1-3", "3-3")  # 鵝牌密 (0) / 天九王
    assert _duel(PAIGOW, push, MID, ("1-3", "3-3"), ("1-5", "3-4")) == "push"


def test_pg_5_2_the_lower_hand_is_always_the_front() -> None:
    """PG-5.2: the dealer puts the smaller hand in front; PG-5.3: Tables I and II rank."""
    t = staged(PAIGOW, hands={1: MID, 2: STRONG}, bets=[("ann", 2, 10)])
    (ev,) = set_tiles(t, "ann", 2, tiles("6-6", "4-5"))  # names the higher hand
    assert isinstance(ev, TilesSet)
    assert ev.front == ("1-1", "3-6") and ev.back == ("6-6", "4-5")


# --- Art. 7 and 8: holders, setting order ---------------------------------------------------


def test_pg_7_1_pg_r7_the_largest_bettor_holds_ties_to_the_earliest() -> None:
    """PG-7.1 / PG-R7 / TW-3b: the largest bettor holds; ties to the earliest."""
    bets = [("a", 2, 10), ("b", 2, 30), ("c", 2, 30), ("a", 2, 5)]
    assert rnd_of(staged(PAIGOW, hands={}, bets=bets)).holder(2) == "b"
    rnd2 = rnd_of(staged(PAIGOW, hands={}, bets=[("a", 2, 10), ("b", 2, 10)]))
    assert rnd2.holder(2) == "a"


def test_pg_7_5_nobody_holds_two_seats() -> None:
    """PG-7.5: nobody sets two seats; the next-largest bettor holds the second."""
    rnd = rnd_of(staged(PAIGOW, hands={}, bets=[("a", 2, 50), ("a", 3, 50), ("b", 3, 10)]))
    assert (rnd.holder(2), rnd.holder(3)) == ("a", "b")
    alone = staged(PAIGOW, hands={}, bets=[("a", 2, 50), ("a", 3, 50)])
    assert (rnd_of(alone).holder(2), rnd_of(alone).holder(3)) == ("a", DEALER)
    setters = {p.actor for p in alone.pending() if p.operations == ("set_tiles",)}
    assert setters == {Actor.player("a"), Actor.DEALER}  # the dealer sets seat 3


def test_pg_7_4_only_the_holder_sets() -> None:
    """PG-7.4 / TW-3c: one setter per seat, the holder."""
    t = staged(PAIGOW, hands={2: STRONG}, bets=[("a", 2, 50), ("b", 2, 10)])
    with pytest.raises(RuleViolation, match="PG-7.4"):
        set_tiles(t, "b", 2, tiles("6-6", "4-5"))
    with pytest.raises(InvalidInput, match="PG-5.1"):
        set_tiles(t, "a", 2, tiles("6-6", "5-5"))


def test_pg_8_1_tw_6a_the_banker_sets_after_every_seat() -> None:
    for reg, rule in ((PAIGOW, "PG-8.1"), (TAIWAN, "TW-6a")):
        t = staged(reg, hands={1: MID, 2: STRONG}, bets=[("a", 2, 50)])
        with pytest.raises(OutOfOrder, match=rule):
            set_tiles(t, "bank", 1, tiles("1-5", "3-4"))


def test_pg_8_2_no_change_after_the_banker_turns() -> None:
    """PG-8.2: no change after the banker turns; PG-8.3: only the dealer reveals (settle)."""
    t = staged(PAIGOW, hands={1: MID, 2: STRONG}, bets=[("a", 2, 50)])
    set_tiles(t, "a", 2, tiles("6-6", "1-1"))
    set_tiles(t, "a", 2, tiles("6-6", "4-5"))  # may change before the banker
    assert [str(x) for x in rnd_of(t).settings[2].back.tiles] == ["6-6", "4-5"]
    assert t.last_settlement is None  # PG-8.3: nothing is revealed until the dealer settles
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    with pytest.raises(RuleViolation, match="PG-8.2"):
        set_tiles(t, "a", 2, tiles("6-6", "1-1"))
    with pytest.raises(RuleViolation, match="PG-8.3"):
        t.execute(Command(Actor.player("a"), "settle", {}))


def test_pg_7_2_pg_r8_the_holder_owes_when_a_better_setting_would_have_won() -> None:
    """1-1 3-6 4-6 5-6 against MID: (5-6 3-6 = 0 / 1-1 4-6 = 2) loses both; (1-1 5-6 =
    地牌三 / 4-6 3-6 = 紅頭九) wins both. Bettor b (MOP 20) lost 20 where he would have won
    20 less 4%: the holder owes him 20 + 19.20 = MOP 39.20. No money moves for it."""
    comp_hand = ("1-1", "3-6", "4-6", "5-6")
    t = staged(PAIGOW, hands={1: MID, 2: comp_hand}, bets=[("a", 2, 50), ("b", 2, 20)])
    set_tiles(t, "a", 2, tiles("5-6", "3-6"))
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    result = settle(t)
    assert outcome(t, 2) == "banker"
    settled = t.last_settlement
    assert settled is not None
    assert [(c["holder"], c["bettor"], c["better"], c["owed"]) for c in settled.compensation] == [
        ("a", "b", "player", 3920)
    ]
    assert nets(result)["player:b"] == -2000  # the record moves no money
    good = staged(PAIGOW, hands={1: MID, 2: comp_hand}, bets=[("a", 2, 50), ("b", 2, 20)])
    set_all(good, {2: ("1-1", "5-6")}, ("1-5", "3-4"))
    assert settle(good).compensation == ()


# --- TW-6b / TW-R1: forced setting -----------------------------------------------------------


def test_tw_6b_tw_r1_the_dealer_resets_a_player_who_did_not_max_the_back() -> None:
    t = staged(TAIWAN, hands={1: MID, 2: STRONG}, bets=[("a", 2, 50)])
    set_tiles(t, "a", 2, tiles("1-1", "3-6"))  # 地牌一 / 天九王: not the forced setting
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))  # the banker is free (TW-R1)
    result = settle(t)
    assert result.resets == (2,)
    back = result.settings[2].back
    assert back.value.name == "雙雜九"
    rnd = t.last_round
    assert rnd is not None
    assert (
        back.value
        == max(
            (Hand(a, b, back.rules) for a, b in _pairs(rnd.hands[2])), key=lambda h: h.value.key
        ).value
    )
    settled = t.last_settlement
    assert settled is not None
    ((reset,),) = [settled.resets]
    assert reset["seat"] == 2 and reset["before"] == [["1-1", "3-6"], ["6-6", "4-5"]]


def _pairs(ts):  # type: ignore[no-untyped-def]
    import itertools

    return list(itertools.combinations(ts, 2))


def test_tw_r1_option_binds_the_banker_too() -> None:
    t = staged(TAIWAN, hands={1: STRONG, 2: MID}, bets=[("a", 2, 50)],
               options=RoundOptions(bind_banker=True))  # fmt: skip
    set_tiles(t, "a", 2, tiles("1-5", "3-4"))
    with pytest.raises(RuleViolation, match="TW-R1"):
        set_tiles(t, "bank", 1, tiles("1-1", "3-6"))


# --- TW-2d / TW-R2: four places, two rounds from one woodpile --------------------------------


def test_tw_2d_tw_r2_a_four_place_woodpile_serves_two_rounds() -> None:
    first = staged(TAIWAN, hands={1: MID, 2: STRONG}, bets=[("a", 2, 50)], places=4)
    first_hands = dict(rnd_of(first).hands)
    assert len(first_hands) == 4
    set_all(first, {2: ("1-1", "3-6")}, ("1-5", "3-4"))
    settle(first)
    woodpile = rnd_of_last(first).tiles
    seat, keep, least = first.bank_offer()
    assert (seat, keep) == (1, True)  # PG-4.1: the banker may keep the bank
    first.execute(Command(Actor.player("bank"), "open_bank", {"capital": least}))
    second = rnd_of(first)
    assert len(second.carried) == 16  # the first round's tiles lie face up
    assert first.phase is TilePhase.BETTING  # no shuffle: the same woodpile (TW-R2)
    bet(first, "a", 3, m(10))
    deal(first, (1, 1, 1, 2))
    second_hands = rnd_of(first).hands
    used_first = sorted(str(t) for h in first_hands.values() for t in h)
    used_second = sorted(str(t) for h in second_hands.values() for t in h)
    assert sorted(used_first + used_second) == sorted(str(t) for t in woodpile)
    assert sorted(used_first + used_second) == sorted(str(t) for t in FULL_SET)
    with pytest.raises(RuleViolation, match="PG-1.4"):
        staged(PAIGOW, hands={}, bets=[("a", 2, 10)], places=4)


def rnd_of_last(t: TileTable):  # type: ignore[no-untyped-def]
    rnd = t.last_round
    assert rnd is not None
    return rnd


# --- rotation --------------------------------------------------------------------------------


def test_pg_4_1_tw_5a_two_rounds_unless_all_consent() -> None:
    """PG-4.1 / TW-5a: at most two rounds unless every other seat agrees."""
    rot = Rotation(8, 3).after_round(100).after_round(150)
    assert rot.must_pass()
    with pytest.raises(RuleViolation, match="PG-4.1"):
        rot.keep(150)
    assert rot.keep(150, consent=True).capital == 150


def test_pg_4_9_tw_5d_a_winner_keeps_capital_and_winnings() -> None:
    """PG-4.9 / TW-5d: capital plus winnings stay; may increase, never decrease."""
    rot = Rotation(8, 3).after_round(180)  # won 80 on 100
    with pytest.raises(RuleViolation, match="PG-4.9"):
        rot.keep(100)
    assert rot.keep(250).capital == 250  # may increase


def test_pg_r11_after_a_loss_continue_with_what_is_left() -> None:
    """PG-R11: after a loss the banker continues with what is left, and may add."""
    rot = Rotation(8, 3).after_round(40)
    assert rot.keep(40).capital == 40
    with pytest.raises(RuleViolation, match="PG-4.9"):
        rot.keep(30)


def _banked_round(
    bettors: dict[str, int], seated: dict[int, str], banker_seat: int = 3
) -> TileTable:
    """A table of ``seated`` players; the one at ``banker_seat`` banks a round in which
    ``bettors`` (name -> the seat he bets on) bet, and passes the bank on (PG-R6)."""
    banker = seated[banker_seat]
    t = staged(
        PAIGOW, hands={}, banker=banker, banker_seat=banker_seat,
        bets=[(p, s, 10) for p, s in bettors.items()],
    )  # fmt: skip
    for seat, person in seated.items():
        if person != banker and person not in bettors:
            t.execute(Command(Actor.player(person), "sit", {"seat": seat}))
            t.execute(Command(Actor.player(person), "buy_in", {"amount": 100_000}))
    assert t.seats() == seated
    rnd = rnd_of(t)
    for seat in rnd.active_seats():
        holder = rnd.holder(seat)
        assert holder is not None
        set_tiles(t, holder, seat, rnd.hands[seat][:2])
    set_tiles(t, rnd.banker_authority(), banker_seat, rnd.hands[banker_seat][:2])
    settle(t)
    if t.bank_offer()[1]:  # the banker may keep the bank: he passes it on
        t.execute(Command(Actor.player(banker), "decline_bank", {}))
    return t


def _decline(t: TileTable, *seats: int) -> None:
    for seat in seats:
        t.execute(Command(Actor.player(t.seats()[seat]), "decline_bank", {}))


def test_pg_4_3_tw_5b_pg_r6_declined_bank_passes_right_to_a_seat_that_bet() -> None:
    """PG-4.3 / TW-5b / PG-R6: a seat that declines passes the bank to the nearest seat on
    its right, whose player must have bet in the previous round (獲過莊的閒家必須曾在上一局投注)."""
    everyone = {s: f"p{s}" for s in range(1, 9)}
    t = _banked_round({"p4": 4, "p6": 6}, everyone)
    assert t.bank_candidate() == 4  # whose turn it is
    _decline(t, 4)
    assert t.bank_candidate() == 6  # p5 did not bet
    t = _banked_round({"p4": 4, "p5": 5}, everyone)
    _decline(t, 4)
    assert t.bank_candidate() == 5
    t = _banked_round({"p4": 4, "p6": 6}, everyone)
    _decline(t, 4, 6)
    assert t.bank_candidate() is None  # nobody else bet: the house banks (PG-R6 gap fill)
    assert [p.operations for p in t.pending()] == [("house_banks",)]
    # an empty seat counts as declining: the bank passes on to one that bet
    t = _banked_round({"p6": 6}, {3: "p3", 5: "p5", 6: "p6"})
    assert t.bank_candidate() == 6


def test_pg_r6_the_seat_whose_turn_it_is_banks_whether_or_not_it_bet() -> None:
    """PG-R6 (PG-4.1 每門均得輪流做莊, TW-5a): the seat whose turn it is may take the bank;
    only a seat that receives a *declined* bank must have bet in the previous round."""
    everyone = {s: f"p{s}" for s in range(1, 9)}
    assert _banked_round({"p5": 5}, everyone).bank_candidate() == 4
    assert _banked_round({"p2": 2}, everyone).bank_candidate() == 4
    assert _banked_round({"p2": 2}, everyone, banker_seat=8).bank_candidate() == 1  # round


# --- the journal ------------------------------------------------------------------------------


def test_replay_rebuilds_the_round_and_the_same_chain(tmp_path) -> None:  # type: ignore[no-untyped-def]
    t = staged(PAIGOW, hands={1: MID, 2: STRONG, 3: WEAK}, bets=[("a", 2, 50), ("b", 3, 70)])
    set_all(t, {2: ("1-1", "3-6"), 3: ("1-3", "3-3")}, ("1-5", "3-4"))
    settle(t)
    path = tmp_path / "round.json"
    t.journal.dump(path)
    again = replay(Journal.load(path))
    assert again.journal.head == t.journal.head
    assert again.last_settlement == t.last_settlement
    assert again.last_result() == t.last_result()
    ledger = Ledger()
    for p in ("a", "b", "bank"):  # the cage → wallet deposits the buy-ins draw on
        ledger.post(Transaction.transfer("cage", f"player:{p}", m(100_000)))
    Ledger.project(t.journal.events, ledger)
    assert ledger.balance("stack:facts:b").minor == 100_000_00 - 7000
    assert ledger.total().is_zero()
    assert SeatResult.PLAYER.value == outcome(t, 2)


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_the_settlement_is_a_function_of_the_round_it_leaves_as_it_was(game: str) -> None:
    """``settle(round)`` reads the round dealt and set and changes nothing — the dealer's
    TW-6b re-set included — and gives the same settlement each time; the table settles
    with it: its event records that settlement, and its round is the round as it was."""
    regulation = TAIWAN if game == "taiwan" else PAIGOW
    t = staged(regulation, hands={1: MID, 2: STRONG}, bets=[("a", 2, 50)])
    set_tiles(t, "a", 2, tiles("1-1", "3-6"))  # (not TW-6b's forced setting)
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    rnd = rnd_of(t)
    settings = dict(rnd.settings)
    first = settle_round(rnd)
    assert settle_round(rnd) == first
    assert rnd.settings == settings and rnd.phase is Phase.SETTING
    assert first.resets == ((2,) if game == "taiwan" else ())
    assert settle(t) == first
    assert t.last_round == rnd
    settled = t.last_settlement
    assert settled is not None
    assert dict(settled.bank_shares) == {p: v.minor for p, v in first.shares}
    assert [r["net"] for r in settled.results] == [r.net.minor for r in first.results]
    assert Money(sum(v for _a, v in settled.postings)).is_zero()
