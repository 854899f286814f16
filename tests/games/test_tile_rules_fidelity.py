"""Pai Gow / Taiwan Pai Kao rules where an audit against the original texts found the engine
departing from them, each test written from the regulation's words — at the tile table, the
one engine (``games.tiletable``), its round and its settlement.

Taiwan hands (TW rules: no 地九王, Gee Joon never converts):
  TW_BANKER  6-6 4-5 4-4 5-6 -> 人牌九 / 天九王
  TW_WIN     2-2 2-2 3-3 3-3 -> 雙板 / 雙長三: beats TW_BANKER both ways
  TW_LOSE    1-3 1-6 5-5 4-6 -> 鵝牌四 / 梅牌七: loses to TW_BANKER both ways
"""

from __future__ import annotations

import pytest

from macau_tables.core.errors import MacauTablesError, OutOfOrder, RuleViolation
from macau_tables.core.money import Money
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import TilePhase, TileTable
from macau_tables.games.tiles.facts import deal, opened_table, report_exposed
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import HOUSE, Phase, Rotation, RoundOptions
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import FULL_SET

from .tile_helpers import (
    bet,
    join,
    m,
    nets,
    opened,
    rearrange,
    rnd_of,
    set_tiles,
    settle,
    staged,
    tiles,
    woodpile,
)

TW_BANKER = ("6-6", "4-5", "4-4", "5-6")
TW_WIN = ("2-2", "2-2", "3-3", "3-3")
TW_LOSE = ("1-3", "1-6", "5-5", "4-6")
PG_MID = ("1-5", "3-4", "1-6", "2-5")  # 拎六三 / 高腳七四
PG_STRONG = ("6-6", "4-5", "1-1", "3-6")  # 地九王 / 天九王
PG_WEAK = ("1-3", "3-3", "5-5", "4-6")  # 0 / 0


def wallet_changes(result: Settlement) -> dict[str, int]:
    return nets(result)


def settle_tw(t: TileTable, fronts: dict[int, tuple[str, str]]) -> Settlement:
    rnd = rnd_of(t)
    for seat, front in fronts.items():
        holder = rnd.holder(seat)
        assert holder is not None
        set_tiles(t, holder, seat, tiles(*front))
    set_tiles(t, rnd.banker_authority(), rnd.banker_seat, tiles("4-4", "5-6"))
    return settle(t)


def commissions(t: TileTable) -> dict[str, int]:
    settled = t.last_settlement
    assert settled is not None
    return dict(settled.commissions)


def shares(t: TileTable) -> dict[str, int]:
    settled = t.last_settlement
    assert settled is not None
    return dict(settled.bank_shares)


# --- TW-5c / TW-R3: the commission inside the running balance -------------------------------


def test_tw_5c_tw_r3_the_banker_never_loses_more_than_his_capital_commission_included() -> None:
    """TW-5c 「庄家每局不能贏或輸多於其置於証上之賭注」; TW-R3: the house takes its 5% out of
    each win as the bank collects it (場方自彩金抽水). Capital 100: the bank collects 100 from
    place 2, of which the house takes 5; it then owes 200 to place 3 and has 195 to pay.
    The banker loses his 100, no more."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN},
        bets=[("a", 2, 100), ("b", 3, 200)], capital=100, wallets={"bank": 100},
    )  # fmt: skip
    result = settle_tw(t, {2: ("1-3", "4-6"), 3: ("2-2", "2-2")})
    paid = {r.person: r for r in result.results}
    assert (paid["a"].outcome, paid["a"].action.minor) == ("lose", 10000)
    assert (paid["b"].outcome, paid["b"].action.minor) == ("win", 19500)
    assert paid["b"].commission.minor == 975  # the player's 5% of his 195 (TW-8)
    moves = wallet_changes(result)
    assert moves["player:bank"] == -10000  # exactly the capital, commission included
    assert moves["house:commission"] == 500 + 975
    assert result.bank_net_result().minor == -10000
    assert t.stack("bank").is_zero()  # all he had, nothing more


def test_tw_5c_tw_r3_the_bank_wins_at_most_its_capital_net_of_commission() -> None:
    """TW-5c: the banker's win never exceeds his capital either; TW-R3: the result is net
    of commission. Capital 100 against a losing bet of 200: the bank collects 105.26, the
    house takes its 5% (5.26), the banker wins 100."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE}, bets=[("a", 2, 200)], capital=100,
    )  # fmt: skip
    result = settle_tw(t, {2: ("1-3", "4-6")})
    assert result.results[0].action.minor == 10526
    moves = wallet_changes(result)
    assert (moves["player:bank"], moves["player:a"], moves["house:commission"]) == (
        10000, -10526, 526,
    )  # fmt: skip


# --- TW-5e / TW-8: a co-bank's commission falls on the layer that took the win ------------------


@pytest.mark.parametrize("house_layer", ["proportional", "after_banker"])
def test_tw_5e_tw_8_a_cobank_layer_that_took_nothing_pays_nothing(house_layer: str) -> None:
    """TW-5e: co-bankers are paid or collected after the banker (正庄先行). Banker 1000,
    co-banker 1000, the bank wins 100: the banker takes the win and pays its 5; the
    co-banker took nothing and pays nothing."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE}, bets=[("a", 2, 100)], capital=1000,
        cobank=[("cob", 1000)], options=RoundOptions(house_layer=house_layer),  # type: ignore[arg-type]
    )  # fmt: skip
    result = settle_tw(t, {2: ("1-3", "4-6")})
    assert commissions(t) == {"bank": 500}
    moves = wallet_changes(result)
    assert moves["player:bank"] == 9500
    assert moves.get("player:cob", 0) == 0


def test_tw_5e_tw_r3_option_house_after_banker_the_banker_pays_the_commission() -> None:
    """``house_layer="after_banker"``: banker 1000, house 1000; the bank wins 100. The
    banker's layer takes the whole win and pays its 5%; the house's layer took nothing."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE}, bets=[("a", 2, 100)], capital=1000,
        house=1000, options=RoundOptions(house_layer="after_banker"),
    )  # fmt: skip
    moves = wallet_changes(settle_tw(t, {2: ("1-3", "4-6")}))
    assert (moves["player:bank"], moves.get("house:bank", 0)) == (9500, 0)
    assert moves["house:commission"] == 500


def test_tw_r3_never_commission_on_the_house_share() -> None:
    """TW-R3 / PG-R4a: banker 1000 and house 1000 share in proportion; the bank wins 100:
    50 each; the banker pays 5% of his 50, the house pays nothing on its own share."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE}, bets=[("a", 2, 100)], capital=1000, house=1000,
    )  # fmt: skip
    moves = wallet_changes(settle_tw(t, {2: ("1-3", "4-6")}))
    assert commissions(t) == {"bank": 250}
    assert (moves["player:bank"], moves["house:bank"], moves["house:commission"]) == (
        4750, 5000, 250,
    )  # fmt: skip


# --- TW-6b / TW-R1: only a back that is not the highest is re-set ------------------------------


def test_tw_6b_tw_r1_a_player_with_the_highest_back_is_not_reset() -> None:
    """TW-6b 「閒家須盡量將後對擺大。如客人未依此例，荷官將代為重擺」 concerns the back.
    ``6-6 1-6 3-4 2-3`` set 天牌九 (the highest back possible) / 雜七二 follows it and
    keeps its front: against the banker's 拎六二 / 梅八 that is a push (the higher front
    高腳七二 would have won)."""
    t = staged(
        TAIWAN, hands={1: ("1-5", "2-4", "3-5", "5-5"), 2: ("6-6", "1-6", "3-4", "2-3")},
        bets=[("a", 2, 100)],
    )  # fmt: skip
    set_tiles(t, "a", 2, tiles("3-4", "2-3"))
    set_tiles(t, "bank", 1, tiles("1-5", "2-4"))
    result = settle(t)
    assert result.resets == ()
    assert result.seat_results[2].value == "push"


def test_tw_6b_tw_r1_a_lower_back_is_reset_to_the_highest_back() -> None:
    """TW-6b: the dealer re-sets a player whose back is not the highest possible."""
    t = staged(
        TAIWAN, hands={1: ("1-5", "2-4", "3-5", "5-5"), 2: ("6-6", "1-6", "3-4", "2-3")},
        bets=[("a", 2, 100)],
    )  # fmt: skip
    set_tiles(t, "a", 2, tiles("6-6", "2-3"))  # 天雜五七 / 雜七八: back not the highest
    set_tiles(t, "bank", 1, tiles("1-5", "2-4"))
    result = settle(t)
    assert result.resets == (2,)
    assert result.settings[2].back.value.name == "天牌九"
    settled = t.last_settlement
    assert settled is not None
    assert settled.results[0]["seat_result"] == "player"  # 高腳七二 front, the higher


# --- PG-7.2 / PG-R8: compensation is the round settled again ---------------------------------


def test_pg_7_2_pg_r8_compensation_is_bounded_by_the_bank_capital() -> None:
    """PG-R8: what the bettor would have received with the better setting, the round
    settled again (running balance, capital). Bank capital 10; bettor o (50, placed first)
    lost 10 (the bank wins at most 10); with the better setting he would have won 10 less
    4%: the holder owes 10 − 0.40 + 10 = 19.60."""
    comp_hand = ("1-1", "3-6", "4-6", "5-6")  # (5-6 3-6 / 1-1 4-6) loses; (1-1 5-6 / …) wins
    t = staged(
        PAIGOW, hands={1: PG_MID, 2: comp_hand}, bets=[("o", 2, 50), ("a", 2, 100)], capital=10
    )
    set_tiles(t, "a", 2, tiles("5-6", "3-6"))
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    result = settle(t)
    assert [(c["holder"], c["bettor"], c["owed"]) for c in result.compensation] == [
        ("a", "o", 1960)
    ]


# --- PG-2.1 counts seats; TW-2f counts people ------------------------------------------------


def _rearranging(reg: object, bets: list[tuple[str, int]]) -> TileTable:
    people = {p for p, _ in bets} | {"b"}
    t = opened(reg, dict.fromkeys(people, 100))  # type: ignore[arg-type]
    for person, seat in bets:
        bet(t, person, seat, m(10))
    return t


def test_pg_2_1_at_most_two_seats_rearrange_several_bettors_of_a_seat_count_once() -> None:
    """PG-2.1 「每局拮牌的閒家不得超過兩門」: two seats (門). Two bettors of seat 2 and one of
    seat 3 may all rearrange; a bettor of a third seat may not."""
    t = _rearranging(PAIGOW, [("x", 2), ("y", 2), ("z", 3), ("w", 4)])
    order = (7, 6, 5, 4, 3, 2, 1, 0)
    for person in ("x", "y", "z"):
        rearrange(t, person, order)
    with pytest.raises(RuleViolation, match="PG-2.1"):
        rearrange(t, "w", order)


def test_tw_2f_at_most_two_players_rearrange() -> None:
    """TW-2f 「閒家只限兩人」: two people, even of one place."""
    t = _rearranging(TAIWAN, [("x", 2), ("y", 2), ("z", 3)])
    order = (7, 6, 5, 4, 3, 2, 1, 0)
    rearrange(t, "x", order)
    rearrange(t, "y", order)
    with pytest.raises(RuleViolation, match="TW-2f"):
        rearrange(t, "z", order)


# --- PG-4.9 / TW-5d: the capital may grow, never shrink ---------------------------------------


def _kept(reg, capital: int, result_seat_wins: bool) -> TileTable:  # type: ignore[no-untyped-def]
    """Bank 100 at seat 3; one bet of 80 that loses (or wins): the banker may keep the
    bank with what is left on the table (180, or 20)."""
    t = staged(
        reg, hands={3: TW_BANKER, 4: TW_WIN if result_seat_wins else TW_LOSE}, banker_seat=3,
        capital=capital, bets=[("a", 4, 80)], dice=(1, 1, 1, 1),
    )  # fmt: skip
    rnd = rnd_of(t)
    set_tiles(t, "a", 4, rnd.hands[4][:2])
    set_tiles(t, "bank", 3, tiles("4-4", "5-6"))
    settle(t)
    return t


@pytest.mark.parametrize(("reg", "rule"), [(PAIGOW, "PG-4.9"), (TAIWAN, "TW-5d")])
def test_pg_4_9_tw_5d_a_continuing_banker_may_not_reduce_his_capital(reg, rule) -> None:  # type: ignore[no-untyped-def]
    """PG-4.9 「都不得減少新的博彩本金」 / TW-5d: the banker who won keeps capital plus
    winnings on the table; he may add, never take off. Enforced when the next round opens."""
    banker = Actor.player("bank")
    t = _kept(reg, 100, result_seat_wins=False)
    seat, keep, least = t.bank_offer()
    assert (seat, keep) == (3, True)
    assert least > 10000  # what is left on the table: 100 and his win
    with pytest.raises(RuleViolation, match=rule):
        t.execute(Command(banker, "open_bank", {"capital": 10000}))
    assert t.can_open_bank(banker, Money(least, t.currency))
    assert t.can_open_bank(banker, Money(least + 7000, t.currency))  # may increase
    t.execute(Command(banker, "open_bank", {"capital": least}))
    assert rnd_of(t).banker_capital == least
    # PG-4.1 / TW-5a: after a second round the bank passes on (unless all consent:
    # Rotation.keep(consent=True), tested with the rotation)
    t.execute(Command(Actor.DEALER, "build_woodpile", {}))
    bet(t, "a", 4, m(10))
    deal(t, (1, 1, 1, 1), woodpile=list(FULL_SET))
    rnd = rnd_of(t)
    set_tiles(t, "a", 4, rnd.hands[4][:2])
    set_tiles(t, "bank", 3, rnd.hands[3][:2])
    settle(t)
    assert t.bank_offer()[:2] == (4, False)
    rot = Rotation(8, 3, regulation=reg).after_round(18000).after_round(18000)
    with pytest.raises(RuleViolation, match=reg.rule("PG-4.1")):
        rot.keep(18000)
    assert rot.keep(18000, consent=True).capital == 18000


# --- PG-2.3 / PG-R3: a void deal repeats the shuffle and the dice only --------------------------


def test_pg_2_3_pg_r3_a_void_deal_keeps_bets_capital_and_cobank_as_they_were() -> None:
    """PG-2.3 「是次派牌無效」: the deal is void, not the round; PG-4.7: after the dice no bet
    or capital changes. Only the shuffle and the dice repeat."""
    t = staged(
        PAIGOW, hands={1: PG_MID}, bets=[("ann", 2, 10)], cobank=[("cob", 50)],
        wallets={"ann": 1000, "new": 1000},
    )  # fmt: skip
    report_exposed(t, 1, 2)
    assert rnd_of(t).phase is Phase.SHUFFLE and t.phase is TilePhase.SHUFFLE
    t.execute(Command(Actor.DEALER, "build_woodpile", {}))
    with pytest.raises(OutOfOrder, match="PG-R3"):
        bet(t, "ann", 2, m(400))  # no raise
    with pytest.raises(OutOfOrder, match="PG-R3"):
        bet(t, "new", 3, m(10))  # no newcomer
    with pytest.raises(OutOfOrder, match="PG-R3"):
        join(t, "new", m(10))  # nobody joins the bank
    with pytest.raises(OutOfOrder, match="PG-R3"):
        rearrange(t, "ann", tuple(range(7, -1, -1)))
    deal(t, (1, 2, 3, 4), woodpile=list(FULL_SET))
    rnd = rnd_of(t)
    assert rnd.phase is Phase.SETTING
    assert [(b.person, b.seat, b.amount) for b in rnd.bets] == [("ann", 2, 1000)]
    assert rnd.cobankers == (("cob", 5000),) and rnd.bank_capital == m(1050)


# --- TW-R5: no PG-3.4 in Taiwan Pai Kao -------------------------------------------------------


def test_tw_r5_tw_3c_the_banker_sets_his_tiles_whatever_the_house_cobank() -> None:
    """TW-3c 「庄家則不在此限」, TW-R5: a TW banker with capital 100 and a house co-bank of 500
    sets his own tiles; PG-3.4 gives that to the larger capital; TW's option turns it on."""
    tw = staged(TAIWAN, hands={}, bets=[("a", 2, 10)], capital=100, house=500)
    assert rnd_of(tw).banker_authority() == "bank"
    pg = staged(PAIGOW, hands={}, bets=[("a", 2, 10)], capital=100, house=500)
    assert rnd_of(pg).banker_authority() == HOUSE
    opt = staged(
        TAIWAN, hands={}, bets=[("a", 2, 10)], capital=100, house=500,
        options=RoundOptions(larger_stake_sets_banker=True),
    )  # fmt: skip
    rnd = rnd_of(opt)
    assert rnd.banker_authority() == HOUSE
    set_tiles(opt, "a", 2, list(rnd.hands[2][:2]))
    with pytest.raises(RuleViolation, match="TW-R5"):
        set_tiles(opt, "bank", 1, list(rnd.hands[1][:2]))


# --- PG-4.2: 4% of what a person won in the round ----------------------------------------------


def test_pg_4_2_commission_on_a_persons_wins_of_the_round() -> None:
    """PG-4.2 「博彩場所每局抽水，金額為所贏金額的百分之四」: per round, on the amount won.
    Two wins of 0.49: 4% of the round's 0.98 = 3.92 avos, rounded down once: 3 (each win
    alone would give 1 + 1). Option ``player_commission="bet"``: 1 + 1."""
    for base, want in ((None, 3), ("round", 3), ("bet", 2)):
        t = opened(
            PAIGOW, {"bank": 100, "ann": 100}, banker="bank",
            options=RoundOptions(player_commission=base),  # type: ignore[arg-type]
        )  # fmt: skip
        dice = (1, 2, 3, 4)
        gongs = ("6-6", "2-6", "1-1", "4-4")  # 地罡 / 天罡: beats PG_MID both ways
        pile = woodpile(rnd_of(t), {1: PG_MID, 2: PG_STRONG, 3: gongs}, dice)
        bet(t, "ann", 2, Money(49))
        bet(t, "ann", 3, Money(49))
        deal(t, dice, woodpile=pile)
        set_tiles(t, "ann", 2, tiles("1-1", "3-6"))
        set_tiles(t, "dealer", 3, tiles("1-1", "4-4"))  # PG-7.5: ann holds seat 2 only
        set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
        result = settle(t)
        assert [r.outcome for r in result.results] == ["win", "win"]
        assert sum(r.commission.minor for r in result.results) == want
        assert sum(r.net.minor for r in result.results) == 98 - want


# --- Also: a Taiwan round's refusals cite the Taiwan text -------------------------------------


def test_tw_every_refusal_of_a_taiwan_round_cites_a_taiwan_rule() -> None:
    """A rule's ID comes from the game's regulation: drive a TW table into every refusal."""
    refusals: list[MacauTablesError] = []

    def refused(op, *args) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(MacauTablesError) as info:
            op(*args)
        refusals.append(info.value)

    chips = {"bank": m(1000), "a": m(100), "b": m(100), "c": m(100), "cob": m(100)}

    def open_with(capital: int, places: int = 8) -> TileTable:
        return opened_table(
            "taiwan", banker="bank", banker_seat=1, capital=m(capital), chips=chips,
            places=places,
        )  # fmt: skip

    refused(open_with, 0)
    refused(open_with, 5000)
    refused(open_with, 10, 6)
    t = open_with(100)
    refused(bet, t, "a", 2, m(10))  # before the shuffle
    refused(join, t, "cob", m(10))
    refused(rearrange, t, "bank", tuple(range(8)))
    refused(deal, t, (1, 2, 3, 4))
    t.execute(Command(Actor.DEALER, "build_woodpile", {}))
    refused(t.execute, Command(Actor.DEALER, "build_woodpile", {}))  # once
    refused(bet, t, "a", 1, m(10))  # the banker's place
    refused(bet, t, "a", 9, m(10))  # no such place
    refused(bet, t, "bank", 2, m(10))  # the bank against itself
    refused(bet, t, "a", 2, m(500))  # more than he has
    refused(join, t, "bank", m(10))  # already in the bank
    refused(join, t, "cob", m(500))
    join(t, "cob", m(10))
    refused(join, t, "cob", m(10))  # twice
    refused(bet, t, "cob", 2, m(10))  # a co-banker bets on another place
    for p, seat in (("a", 2), ("b", 3), ("c", 4)):
        bet(t, p, seat, m(10))
    refused(join, t, "a", m(10))  # a bettor co-banks
    refused(rearrange, t, "a", (0, 0, 1, 2, 3, 4, 5, 6))  # not a permutation
    refused(rearrange, t, "cob", tuple(range(8)))  # no bet
    rearrange(t, "a", tuple(range(8)))
    refused(rearrange, t, "a", tuple(range(8)))  # twice
    rearrange(t, "b", tuple(range(8)))
    refused(rearrange, t, "c", tuple(range(8)))  # a third player
    rearrange(t, "bank", tuple(range(8)))
    refused(rearrange, t, "bank", tuple(range(8)))  # after the banker
    refused(set_tiles, t, "a", 2, list(FULL_SET[:2]))  # before the deal
    refused(t.execute, Command(Actor.DEALER, "report_exposed", {"seat": 2, "tiles": ["6-6"]}))
    refused(t.execute, Command(Actor.player("bank"), "shake", {"dice": [0, 1, 2, 3]}))
    cocked = {"dice": [1, 2, 3, 4], "cocked": True, "hands": {"1": ["6-6"] * 4}}
    refused(t.execute, Command(Actor.DEALER, "shake", cocked))  # a cocked throw deals nothing
    deal(t, (1, 2, 3, 4), woodpile=list(FULL_SET))
    rnd = rnd_of(t)
    refused(deal, t, (1, 2, 3, 4))  # once per deal
    refused(bet, t, "a", 2, m(10))  # after the dice
    refused(join, t, "c", m(10))
    refused(set_tiles, t, "bank", 1, list(rnd.hands[1][:2]))  # before the places
    refused(t.execute, Command(Actor.DEALER, "settle", {}))
    refused(set_tiles, t, "b", 2, list(rnd.hands[2][:2]))  # not the holder
    refused(set_tiles, t, "a", 5, list(rnd.hands[5][:2]))  # no bets there
    refused(set_tiles, t, "a", 1, list(rnd.hands[1][:2]))  # the banker's place
    refused(set_tiles, t, "a", 2, list(rnd.hands[3][:2]))  # not his tiles
    for seat in (2, 3, 4):
        set_tiles(t, rnd.holder(seat), seat, list(rnd.hands[seat][:2]))  # type: ignore[arg-type]
    set_tiles(t, "bank", 1, list(rnd.hands[1][:2]))
    refused(set_tiles, t, "bank", 1, list(rnd.hands[1][:2]))  # once
    refused(set_tiles, t, "a", 2, list(rnd.hands[2][:2]))  # after the banker turned
    refused(report_exposed, t, 2, 1)  # after the setting
    bound = staged(TAIWAN, hands={1: PG_STRONG}, bets=[("a", 2, 10)],
                   options=RoundOptions(bind_banker=True))  # fmt: skip
    set_tiles(bound, "a", 2, list(rnd_of(bound).hands[2][:2]))
    refused(set_tiles, bound, "bank", 1, tiles("1-1", "3-6"))  # TW-R1 option
    rot = Rotation(8, 3, regulation=TAIWAN).after_round(100).after_round(100)
    refused(rot.keep, 100)
    refused(Rotation(8, 3, regulation=TAIWAN).after_round(100).keep, 50)
    ruled = [e for e in refusals if e.rule is not None]
    assert len(ruled) >= 40
    assert [str(e) for e in ruled if not e.rule.startswith(("TW-", "T-"))] == []  # type: ignore[union-attr]


def test_tw_3a_tw_2d_a_four_place_round_has_no_fifth_place() -> None:
    """TW-3a: 8 or 4 places, the banker's included; at a 4-place round place 5 takes no bet."""
    for places, seat in ((4, 5), (8, 9)):
        t = opened(TAIWAN, {"b": 100, "a": 100}, places=places)
        with pytest.raises(RuleViolation, match="TW-3a"):
            bet(t, "a", seat, m(10))
        bet(t, "a", places, m(10))


# --- TW-R3: the bank's commission falls on each layer in proportion to what it took ----------


def test_tw_r3_commission_falls_on_each_layer_in_proportion() -> None:
    """TW-R3: banker (capital 100) and co-banker (100); the bank wins one bet of 150. The
    layers take it banker first (正庄先行, TW-5e): 100 and 50. The house's 5% of the bet,
    7.50, falls on them in proportion to what each took: 5% of 100 and 5% of 50 — 5.00 and
    2.50 — so they keep 95.00 and 47.50 (never 0 and 7.50)."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE}, bets=[("a", 2, 150)], capital=100,
        cobank=[("cob", 100)],
    )  # fmt: skip
    moves = wallet_changes(settle_tw(t, {2: ("1-3", "4-6")}))
    assert shares(t) == {"bank": 10000, "cob": 5000}
    assert commissions(t) == {"bank": 500, "cob": 250}
    assert (moves["player:bank"], moves["player:cob"]) == (9500, 4750)
    assert (moves["player:a"], moves["house:commission"]) == (-15000, 750)


def test_tw_r3_commission_in_proportion_in_a_round_with_wins_and_losses() -> None:
    """TW-R3 with PG-R4 / PG-R4a: banker 100, co-banker 100. In settlement order the bank
    first collects 150 from place 2 — the banker's layer takes 100 of it, the co-banker's
    50, and they pay 5% of that: 5.00 and 2.50 — then pays 100 to place 3. The round's
    result before commission, 50, is shared in layers (banker first): the banker 50, the
    co-banker 0. After commission: banker +45.00; the co-banker, who took 50 of the bet the
    bank won and gave it back to place 3, −2.50."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN},
        bets=[("a", 2, 150), ("b", 3, 100)], capital=100, cobank=[("cob", 100)],
    )  # fmt: skip
    result = settle_tw(t, {2: ("1-3", "4-6"), 3: ("2-2", "2-2")})
    assert [(r.person, r.outcome, r.action.minor) for r in result.results] == [
        ("a", "lose", 15000), ("b", "win", 10000),
    ]  # fmt: skip
    assert shares(t) == {"bank": 5000, "cob": 0}
    assert commissions(t) == {"bank": 500, "cob": 250}
    moves = wallet_changes(result)
    assert (moves["player:bank"], moves["player:cob"]) == (4500, -250)
    assert moves["house:commission"] == 750 + 500  # the bank's 5% of 150, b's 5% of 100


def test_tw_r3_tw_5c_a_layer_never_loses_more_than_its_capital_commission_included() -> None:
    """TW-R3 / TW-5c: banker 100, co-banker 100. The bank collects 150 from place 2 (the
    layers take 100 and 50 and pay 5.00 and 2.50), then owes 400 to place 3 and pays the
    342.50 it has (its capital 200 and its net gain 142.50). Each layer loses exactly its
    capital, commission included: the banker's share of the loss is 95.00 and his
    commission 5.00, the co-banker's 97.50 and 2.50."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN},
        bets=[("a", 2, 150), ("b", 3, 400)], capital=100, cobank=[("cob", 100)],
    )  # fmt: skip
    result = settle_tw(t, {2: ("1-3", "4-6"), 3: ("2-2", "2-2")})
    assert [r.action.minor for r in result.results] == [15000, 34250]
    assert commissions(t) == {"bank": 500, "cob": 250}
    assert shares(t) == {"bank": -9500, "cob": -9750}
    moves = wallet_changes(result)
    assert (moves["player:bank"], moves["player:cob"]) == (-10000, -10000)


def test_tw_r3_option_net_commission_stays_pg_r5() -> None:
    """``bank_commission="net"`` (PG-R5 as the TW-R3 option): the same round with wins and
    losses as above; the result, 50, is shared in layers (banker 50, co-banker 0) and each
    pays 5% of his net win: the banker 2.50, the co-banker nothing."""
    t = staged(
        TAIWAN, hands={1: TW_BANKER, 2: TW_LOSE, 3: TW_WIN},
        bets=[("a", 2, 150), ("b", 3, 100)], capital=100, cobank=[("cob", 100)],
        options=RoundOptions(bank_commission="net"),
    )  # fmt: skip
    moves = wallet_changes(settle_tw(t, {2: ("1-3", "4-6"), 3: ("2-2", "2-2")}))
    assert shares(t) == {"bank": 5000, "cob": 0}
    assert commissions(t) == {"bank": 250}
    assert (moves["player:bank"], moves.get("player:cob", 0)) == (4750, 0)


# --- PG-R8: every other bettor of the seat, whatever his own outcome ---------------------------


def test_pg_r8_a_bettor_without_action_is_compensated() -> None:
    """PG-7.2 / PG-R8: bank capital 10. Seat 2 (first in settlement order): x loses 10 and
    the bank has won its capital, so seat 3's bets have no action when seat 3 loses. On
    seat 3 o bet 50 (placed first) and a 100 (the holder, the larger bet); a set the
    losing way where (1-1 5-6 / 3-6 4-6) wins. Settled again with that setting the bank,
    holding 20, pays o 20 (placed first), less 4% (PG-4.2): 19.20. o got nothing (no
    action), so a owes him 19.20."""
    comp_hand = ("1-1", "3-6", "4-6", "5-6")  # (5-6 3-6 / 1-1 4-6) loses; (1-1 5-6 / …) wins
    t = staged(
        PAIGOW, hands={1: PG_MID, 2: PG_WEAK, 3: comp_hand},
        bets=[("x", 2, 10), ("o", 3, 50), ("a", 3, 100)], capital=10,
    )  # fmt: skip
    set_tiles(t, "x", 2, tiles("1-3", "3-3"))  # 0 / 0: loses
    set_tiles(t, "a", 3, tiles("5-6", "3-6"))
    set_tiles(t, "bank", 1, tiles("1-5", "3-4"))
    result = settle(t)
    assert [(r.person, r.outcome) for r in result.results] == [
        ("x", "lose"), ("o", "no_action"), ("a", "no_action"),
    ]  # fmt: skip
    owed = [(c["holder"], c["bettor"], c["better"], c["owed"]) for c in result.compensation]
    assert owed == [("a", "o", "player", 1920)]
