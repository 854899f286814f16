"""The bank's rotation, the holders and the defaults of a tile table, rule by rule:
PG-R6 / TW-R7 (a declined bank goes to a *person* who bet), PG-R7 / TW-R6 (who holds
several places), TW-R1 (the banker's default when the forced setting binds him) and
PG-R3 (after a void deal nothing on the table may change)."""

from __future__ import annotations

import pytest

from macau_tables.core.errors import RuleViolation
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng
from macau_tables.games.contract import Actor, Command, time_out
from macau_tables.games.tiles import TilePhase, TileTable
from macau_tables.games.tiles.facts import seated_table
from macau_tables.games.tiles.paigow import PAIGOW
from macau_tables.games.tiles.rounds import DEALER, HOUSE, RoundOptions
from macau_tables.games.tiles.taiwan import TAIWAN
from macau_tables.tiles import FULL_SET

from .tile_helpers import m, rnd_of, staged
from .tiletable_helpers import seated, step_default

ANN, BOB, CY, DEE = (Actor.player(p) for p in ("ann", "bob", "cy", "dee"))
DECLINED = {"paigow": "PG-4.3", "taiwan": "TW-5b"}


def _to_bank(t: TileTable, rng: Rng) -> None:
    while t.phase is not TilePhase.BANK:
        step_default(t, rng)


# --- PG-4.3 / PG-R6, TW-5b / TW-R7: a declined bank goes to a person who bet ----------------


def _banked(
    game: str, seats: dict[str, int], bets: dict[str, int], rng: Rng, banker: str = "bo"
) -> TileTable:
    """``banker`` at seat 3 banks a round at a table where ``seats`` sit; each of ``bets``
    bets on the seat given; the round plays out by the rules' defaults and the banker passes
    the bank on (PG-R6)."""
    chips = {banker: m(1000)} | {p: m(100) for p in seats}
    t = seated_table(game, banker=banker, banker_seat=3, chips=chips, seats=seats)
    t.execute(Command(Actor.player(banker), "open_bank", {"capital": 10_000}))
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    for person, seat in bets.items():
        t.execute(Command(Actor.player(person), "place_bet", {"seat": seat, "amount": 1_000}))
    _to_bank(t, rng)
    if t.bank_offer()[1]:
        t.execute(Command(Actor.player(banker), "decline_bank", {}))
    return t


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_tw_r7_declined_bank_needs_the_person_to_have_bet(game: str) -> None:
    """PG-R6 / TW-R7: the person who receives a declined bank must himself have bet in the
    previous round (獲過莊的閒家必須曾在上一局投注 / 但該人必須在此之前曾經投注): another
    player's bet on his seat does not count, and his own bet on another seat does."""
    rng = Rng.seeded("tw-r7", game)
    seats = {"dan": 4, "eve": 5, "fay": 6}
    dan = Actor.player("dan")
    # seat 4 declines; eve (seat 5) did not bet — fay's bet lay on seat 5 — so fay takes it
    t = _banked(game, seats, {"fay": 5}, rng)
    assert t.bank_candidate() == 4  # whose turn it is: no bet needed (PG-R6)
    t.execute(Command(dan, "decline_bank", {}))
    assert t.bank_candidate() == 6
    # eve bet (on seat 6, not her own): she takes it
    t = _banked(game, seats, {"eve": 6}, rng)
    t.execute(Command(dan, "decline_bank", {}))
    assert t.bank_candidate() == 5
    # an empty seat counts as declining; nobody who bet: the house banks (PG-R6 gap fill)
    t = _banked(game, {**seats, "gus": 7}, {"gus": 4}, rng)
    t.execute(Command(Actor.player("gus"), "leave", {}))
    t.execute(Command(dan, "decline_bank", {}))
    assert t.bank_candidate() is None
    assert [p.operations for p in t.pending()] == [("house_banks",)]
    t = _banked(game, {"fay": 6}, {"fay": 6}, rng)
    assert t.bank_candidate() == 6


@pytest.mark.parametrize("game", ["paigow", "taiwan"])
def test_pg_4_3_tw_r7_a_declined_bank_at_the_table_goes_to_the_person_who_bet(game: str) -> None:
    """At the table: ann banks; dee bets on cy's seat 3 and cy bets nothing; bob bets on
    his own. Ann passes the bank on, bob (whose turn it is) declines: cy did not bet, so
    the bank skips him to dee, who did (on seat 3, not on her own seat 4)."""
    t = seated(game, ("ann", "bob", "cy", "dee"))
    rng = Rng.seeded("declined", game)
    t.execute(Command(ANN, "open_bank", {"capital": 50_000}))
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(DEE, "place_bet", {"seat": 3, "amount": 1_000}))
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 1_000}))
    _to_bank(t, rng)
    if t.bank_offer()[1]:  # ann may keep the bank: she passes it on
        t.execute(Command(ANN, "decline_bank", {}))
    assert t.bank_candidate() == 2  # bob's turn: no bet needed (PG-R6)
    t.execute(Command(BOB, "decline_bank", {}))
    assert t.bank_candidate() == 4
    with pytest.raises(RuleViolation) as exc:
        t.execute(Command(CY, "open_bank", {"capital": 10_000}))
    assert exc.value.rule == DECLINED[game]
    (p,) = t.pending()
    assert p.actor == DEE
    t.execute(Command(DEE, "open_bank", {"capital": 10_000}))
    assert (t.banker, t.banker_seat) == ("dee", 4)


def test_pg_r6_from_the_house_the_bank_reaches_every_seat() -> None:
    """PG-R6: after the house banked, the bank is offered round the table — from the seat
    after the one whose turn it was, to the last one when every other seat declines (the
    8th included)."""
    rng = Rng.seeded("from-the-house")
    everyone = {f"p{s}": s for s in range(1, 9)}
    t = seated_table("paigow", banker="p1", banker_seat=1, chips={p: m(100) for p in everyone},
                     seats=everyone)  # fmt: skip
    t.execute(Command(Actor.player("p1"), "decline_bank", {}))
    assert t.bank_candidate() is None  # nobody bet before: the house banks at seat 1
    t.execute(Command(Actor.DEALER, "house_banks", {}))
    assert (t.banker, t.banker_seat) == (HOUSE, 1)
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(Actor.player("p8"), "place_bet", {"seat": 8, "amount": 1_000}))
    _to_bank(t, rng)
    assert t.bank_candidate() == 2  # whose turn it is
    t.execute(Command(Actor.player("p2"), "decline_bank", {}))
    assert t.bank_candidate() == 8  # seats 3 … 7 (and 1) did not bet: the 8th, the last
    # nobody left who bet: the house banks again
    lone = seated_table("paigow", banker="p1", banker_seat=1, chips={"p1": m(100), "p8": m(100)},
                        seats={"p8": 8})  # fmt: skip
    lone.execute(Command(Actor.player("p1"), "decline_bank", {}))
    lone.execute(Command(Actor.DEALER, "house_banks", {}))
    lone.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    _to_bank(lone, rng)
    lone.execute(Command(Actor.player("p1"), "leave", {}))
    assert lone.bank_candidate() is None


# --- PG-7.5 / PG-R7 against TW-3b / TW-R6: who holds several places ---------------------------


def test_tw_r6_the_largest_bettor_holds_every_place_where_his_bet_is_largest() -> None:
    """TW-3b / TW-R6: 下注最大者,有持牌權 on every place — no PG-7.5 in the Taiwan text. Pai
    Gow keeps PG-7.5 / PG-R7: the next-largest bettor holds the second seat."""
    bets = [("a", 2, 50), ("a", 3, 50), ("b", 3, 10)]
    tw = rnd_of(staged(TAIWAN, hands={}, bets=bets))
    assert (tw.holder(2), tw.holder(3)) == ("a", "a")
    alone = rnd_of(staged(TAIWAN, hands={}, bets=[("a", 2, 50), ("a", 3, 50)]))
    assert (alone.holder(2), alone.holder(3)) == ("a", "a")
    pg = rnd_of(staged(PAIGOW, hands={}, bets=bets))
    assert (pg.holder(2), pg.holder(3)) == ("a", "b")


def test_tw_r6_option_a_house_that_applies_pg_7_5() -> None:
    """TW-R6 option ``one_seat_per_holder``: a Taiwan house that applies PG-7.5's limit."""
    opts = RoundOptions(one_seat_per_holder=True)
    bets = [("a", 2, 50), ("a", 3, 50), ("b", 3, 10)]
    tw = rnd_of(staged(TAIWAN, hands={}, bets=bets, options=opts))
    assert (tw.holder(2), tw.holder(3)) == ("a", "b")
    alone = rnd_of(staged(TAIWAN, hands={}, bets=[("a", 2, 50), ("a", 3, 50)], options=opts))
    assert (alone.holder(2), alone.holder(3)) == ("a", DEALER)
    assert RoundOptions.from_json(opts.to_json()) == opts
    assert "one_seat_per_holder" not in RoundOptions().to_json()  # old journals unchanged


def test_tw_r6_at_the_table_one_player_sets_both_places_he_holds() -> None:
    """TW-R6 at a Taiwan table: bob's bets are the largest on seats 2 and 3: both are his to
    set (his four tiles each dealt to him), cy's smaller bet on seat 3 holds nothing."""
    t = seated("taiwan")
    rng = Rng.seeded("tw-r6")
    t.execute(Command(ANN, "open_bank", {"capital": 50_000}))
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 2_000}))
    t.execute(Command(BOB, "place_bet", {"seat": 3, "amount": 2_000}))
    t.execute(Command(CY, "place_bet", {"seat": 3, "amount": 1_000}))
    t.execute(Command(ANN, "shake", {}))
    setters = {p.actor for p in t.pending() if p.operations == ("set_tiles",)}
    assert setters == {BOB}
    for seat in (2, 3):
        front = [str(x) for x in t.allowed_settings(seat)[0].front.tiles]
        with pytest.raises(RuleViolation) as exc:
            t.execute(Command(CY, "set_tiles", {"seat": seat, "front": front}))
        assert exc.value.rule == "TW-3c"
        t.execute(Command(BOB, "set_tiles", {"seat": seat, "front": front}))
    rnd = t.round
    assert rnd is not None
    assert set(rnd.setters.values()) == {"bob"}


# --- TW-R1: the banker's default when the forced setting binds him ----------------------------


def test_tw_r1_bind_banker_the_bankers_time_out_is_a_setting_the_rule_accepts() -> None:
    """TW-R1 with ``bind_banker``: the banker's time-out default is the forced setting (the
    highest back, then the higher front), never the house way the rule would refuse. The
    banker's 6-6 6-6 4-4 1-3: the house way keeps 6-6 in each hand; the rule wants the
    pair of Teen (天牌) behind."""
    t = seated("taiwan", round=RoundOptions(bind_banker=True))
    t.execute(Command(ANN, "open_bank", {"capital": 50_000}))
    t.execute(Command(Actor.DEALER, "build_woodpile"))
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 1_000}))
    banker = ["6-6", "6-6", "4-4", "1-3"]
    rest = [str(x) for x in FULL_SET]
    for tile in banker:
        rest.remove(tile)
    tiles = banker + rest
    hands = {str(s): tiles[4 * (s - 1) : 4 * s] for s in range(1, 9)}
    t.execute(Command(Actor.DEALER, "shake", {"dice": [1, 2, 3, 4], "hands": hands}))
    rnd = t.round
    assert rnd is not None
    assert sorted(str(x) for x in rnd.hands[1]) == sorted(banker)
    rng = Rng.seeded("bind")
    while t.phase is TilePhase.SETTING:
        (p,) = [p for p in t.pending() if p.default is not None]
        t.execute(time_out(p), rng)
    rnd = t.round
    assert rnd is not None
    setting = rnd.settings[1]
    assert [str(x) for x in setting.back.tiles] == ["6-6", "6-6"]
    assert t.phase is TilePhase.SETTLE


# --- PG-2.3 / PG-R3: after a void deal nothing on the table may change ------------------------


def test_pg_r3_after_a_void_deal_pending_offers_no_bet_no_co_bank_no_rearranging() -> None:
    """PG-R3: two tiles of the banker's stack exposed — the deal is void, the tiles are
    shuffled and the dice shaken again; no bet may be placed, nobody may join the bank and
    the stacks stay as they were (PG-4.7): pending() offers only the banker's dice."""
    t = seated()
    rng = Rng.seeded("void-deal")
    t.execute(Command(ANN, "open_bank", {"capital": 50_000}))
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    t.execute(Command(BOB, "place_bet", {"seat": 2, "amount": 1_000}))
    t.execute(Command(ANN, "shake", {}))
    rnd = t.round
    assert rnd is not None
    two = [str(x) for x in rnd.hands[1][:2]]
    t.execute(Command(Actor.DEALER, "report_exposed", {"seat": 1, "tiles": two}))
    assert t.phase is TilePhase.SHUFFLE
    t.execute(Command(Actor.DEALER, "shuffle", {}), rng)
    assert t.phase is TilePhase.BETTING
    for p in t.pending():
        for op in p.operations:
            assert op not in ("place_bet", "join_bank", "rearrange"), p
    assert not t.can_place_bet(CY, 3, Money(1_000))
    (p,) = t.pending()
    assert (p.actor, p.operations, p.default) == (ANN, ("shake",), "shake")
