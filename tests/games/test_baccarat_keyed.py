"""A physical shoe keyed in card by card at a live table (BA-1, BA-7.1, BA-9): the dealer
opens the shoe, keys the deal's four cards and each third card the rules ask for; BA-1
refuses a card the shoe's decks cannot hold; replay re-runs the keyed operations."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from macau_tables.core.errors import InvalidInput, MacauTablesError, OutOfOrder, ReplayMismatch
from macau_tables.core.journal import Journal
from macau_tables.core.rng import Rng
from macau_tables.core.visibility import Viewer
from macau_tables.games.baccarat import (
    BaccaratRules,
    BaccaratTable,
    BurnMode,
    Card,
    CardsKeyed,
    HandSettled,
    Side,
    ThirdCardDealt,
    full_set,
    parse_cards,
    play_out,
    replay_baccarat,
    total,
)
from macau_tables.games.contract import Actor, Command
from tests.games.test_baccarat_table import _rechain

ALICE = Actor.player("alice")
D = Actor.DEALER


def _cmd(t: BaccaratTable, op: str, args: dict[str, Any] | None = None, who: Actor = D) -> Any:
    return t.execute(Command(who, op, args or {}))


def _live(decks: int = 6, squeeze: bool = False, **kw: Any) -> BaccaratTable:
    t = BaccaratTable(BaccaratRules(decks=decks, squeeze=squeeze, **kw))
    _cmd(t, "sit", {"seat": 1, "amount": 100_000}, ALICE)
    _cmd(t, "open_shoe")
    _cmd(t, "cut", {"from_end": 20})
    return t


def test_a_physical_shoe_has_no_seed_and_no_default_deal() -> None:
    t = _live()
    assert t.keyed
    kinds = [e.kind for e in t.journal.events]
    assert "table.seed_committed" not in kinds and "baccarat.shoe_opened" in kinds
    dealer = next(p for p in t.pending() if p.actor == D)
    assert dealer.default is None  # the clock cannot deal cards nobody keyed in


def test_ba_9_the_dealer_keys_each_third_card_the_rules_ask_for() -> None:
    """Player 2+3 = 5 draws (BA-9.1); Banker 0 draws whatever Player drew (BA-9.3)."""
    t = _live()
    _cmd(t, "place_bet", {"bet": "player", "amount": 10_000}, ALICE)
    _cmd(t, "deal", {"cards": ["2c", "Kh", "3d", "Qs"]})
    (p,) = t.pending()
    assert (p.actor, p.operations[0], p.rule) == (D, "draw", "BA-9.1")
    assert t.hand is not None and t.hand.player == list(parse_cards("2c 3d"))
    _cmd(t, "draw", {"card": "4h"})
    (p,) = t.pending()
    assert (p.operations[0], p.rule) == ("draw", "BA-9.3")
    events = _cmd(t, "draw", {"card": "5d"})
    settled = next(e for e in events if e.kind == "baccarat.hand_settled")
    assert (settled.player_total, settled.banker_total, settled.outcome) == (9, 5, "P")
    assert t.stacks["alice"] == 110_000  # BA-17: even money on Player
    with pytest.raises(OutOfOrder) as exc:
        _cmd(t, "draw", {"card": "6d"})
    assert exc.value.rule == "BA-9.1"


def test_ba_1_a_card_the_shoe_cannot_hold_is_refused_and_nothing_is_recorded() -> None:
    """Six decks hold six aces of spades: a seventh is refused (BA-1), the table unchanged."""
    t = _live(decks=6)
    _cmd(t, "deal", {"cards": ["As"] * 4})  # 2 against 2: both draw
    _cmd(t, "draw", {"card": "As"})
    _cmd(t, "draw", {"card": "As"})  # six aces of spades out of six decks
    before = (len(t.journal), t.snapshot())
    with pytest.raises(InvalidInput) as exc:
        _cmd(t, "deal", {"cards": ["As", "2c", "3c", "4c"]})
    assert exc.value.rule == "BA-1" and "As" in str(exc.value)
    assert (len(t.journal), t.snapshot()) == before
    _cmd(t, "deal", {"cards": ["Ad", "2c", "3c", "4c"]})  # an ace of diamonds is fine


@pytest.mark.parametrize(
    ("op", "args", "error", "rule"),
    [
        ("deal", {"cards": ["2c", "3c", "4c"]}, InvalidInput, "BA-7.1"),
        ("deal", {}, InvalidInput, "BA-7.1"),  # a physical shoe: the cards are keyed in
        ("deal", {"cards": ["2c", "3c", "4c", "1x"]}, InvalidInput, None),
        ("draw", {"card": "2c"}, OutOfOrder, "BA-9.1"),  # no third card is due
        ("expose_card", {}, InvalidInput, "BA-4"),
    ],
)
def test_bad_key_in_names_the_rule(
    op: str, args: dict[str, Any], error: type[MacauTablesError], rule: str | None
) -> None:
    t = _live()
    before = len(t.journal)
    with pytest.raises(error) as exc:
        _cmd(t, op, args)
    if rule is not None:
        assert exc.value.rule == rule
    assert len(t.journal) == before


def test_a_seeded_shoe_refuses_keyed_cards() -> None:
    t = BaccaratTable(BaccaratRules(decks=6))
    t.execute(Command(D, "shuffle"), Rng.seeded("s"))
    _cmd(t, "cut")
    with pytest.raises(InvalidInput) as exc:
        _cmd(t, "deal", {"cards": ["2c", "Kh", "3d", "Qs"]})
    assert exc.value.rule == "BA-7.1"


def test_ba_r1_the_first_card_turned_at_the_cut_is_keyed_in() -> None:
    t = BaccaratTable(BaccaratRules(decks=6, burn=BurnMode("first_card")))
    _cmd(t, "open_shoe")
    with pytest.raises(InvalidInput) as exc:
        _cmd(t, "cut", {"from_end": 20})
    assert exc.value.rule == "BA-R1"
    events = _cmd(t, "cut", {"from_end": 20, "first_card": "7h"})
    burned = next(e for e in events if e.kind == "baccarat.cards_burned")
    assert (burned.count, burned.shown) == (8, "7h")  # BA-R1: the card and seven more
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))  # the keyed cut replays
    assert again.snapshot() == t.snapshot()


def test_ba_4_an_exposed_card_is_keyed_in_and_burned_before_bets() -> None:
    t = _live()
    events = _cmd(t, "expose_card", {"card": "9c"})
    assert [e.kind for e in events][-2:] == ["baccarat.card_exposed", "baccarat.cards_burned"]
    assert t.position == 6 + 1  # six decks burned at the cut, then the exposed card


@pytest.mark.parametrize(
    ("deal", "side", "totals", "outcome", "stack"),
    [
        # Player 2+3 = 5 draws (BA-9.1); Banker K+7 = 7 stands (BA-9.4 (5)): 9 against 7
        ("2c Kd 3c 7d", Side.PLAYER, (9, 7), "P", 110_000),
        # Player K+7 = 7 stands (BA-9.2); Banker 2+3 = 5 draws as Player stood (BA-9.3 (6))
        ("Kc 2d 7c 3d", Side.BANKER, (7, 9), "B", 90_000),
    ],
)
def test_ba_4_exposed_card_while_a_third_card_is_due_the_hand_goes_on(
    deal: str, side: Side, totals: tuple[int, int], outcome: str, stack: int
) -> None:
    """BA-4 「陽反之牌及該局之投注仍然有效,牌局繼續進行」: from a physical shoe, the card that
    comes out face up while a third card is due is the next card of the shoe — that third
    card (BA-9), dealt face up, not burned. The bets stand and the hand goes on to its
    settlement; no void is needed."""
    t = _live()
    _cmd(t, "place_bet", {"bet": "player", "amount": 10_000}, ALICE)
    _cmd(t, "deal", {"cards": deal.split()})
    assert t.third_card_due() is side
    events = _cmd(t, "expose_card", {"card": "4d"})
    assert "baccarat.cards_burned" not in [e.kind for e in events]  # valid: not burned
    (third,) = [e for e in events if isinstance(e, ThirdCardDealt)]
    assert (third.side, third.card) == (str(side), "4d")  # the third card, face up
    (done,) = [e for e in events if isinstance(e, HandSettled)]
    assert ((done.player_total, done.banker_total), done.outcome) == (totals, outcome)
    assert t.stacks["alice"] == stack  # the Player bet stood: won or lost 1:1 (BA-17)
    r = t.results[-1]
    cards = parse_cards(deal)
    mine = r.player_cards if side is Side.PLAYER else r.banker_cards
    assert mine[2] == Card.parse("4d")
    assert (r.player_cards[:2], r.banker_cards[:2]) == ((cards[0], cards[2]), (cards[1], cards[3]))
    assert t.position == 6 + 5  # the cut's burn, the four cards and the exposed third card
    with pytest.raises(OutOfOrder):  # nothing more to key in for this hand
        _cmd(t, "draw", {"card": "5h"})
    _cmd(t, "deal", {"cards": ["9c", "Kh", "Td", "Qs"]})  # the next hand, from the next card
    assert t.results[-1].player_cards == (Card.parse("9c"), Card.parse("Td"))
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))  # the exposure replays
    assert again.snapshot() == t.snapshot()


def test_keyed_cards_are_staff_only_until_revealed() -> None:
    """BA-16: with the squeeze the holder sees her cards when she opens them; the keyed-in
    record (CardsKeyed) is the staff's."""
    t = _live(squeeze=True)
    _cmd(t, "place_bet", {"bet": "player", "amount": 10_000}, ALICE)
    _cmd(t, "deal", {"cards": ["9c", "Kh", "Td", "Qs"]})
    keyed = next(e for e in t.journal.events if isinstance(e, CardsKeyed))
    assert not keyed.audience().admits(Viewer.player("alice"))
    assert keyed.audience().admits(Viewer.DEALER)
    hand = t.view(Viewer.player("alice"))["hand"]
    assert isinstance(hand, dict) and hand["player"] == [None, None]


def _play(t: BaccaratTable, deal: str, thirds: str = "") -> None:
    """Deal keyed cards; the holder squeezes when due (BA-16), the dealer keys third cards."""
    _cmd(t, "deal", {"cards": deal.split()})
    extra = iter(thirds.split())
    while True:
        if (due := t.holder_due()) is not None:
            _cmd(t, "reveal", {"side": str(due[1])}, Actor.player(due[0]))
        elif t.third_card_due() is not None:
            _cmd(t, "draw", {"card": next(extra)})
        else:
            break
    assert next(extra, None) is None


def _keyed_session() -> BaccaratTable:
    t = _live(squeeze=True)
    _cmd(t, "place_bet", {"bet": "player", "amount": 10_000}, ALICE)
    _play(t, "2c Kh 3d Qs", "4h 5d")  # the player's third card face down to alice
    _cmd(t, "expose_card", {"card": "8s"})
    _cmd(t, "place_bet", {"bet": "banker", "amount": 20_000}, ALICE)
    _play(t, "9c 8h Td Jd")
    _cmd(t, "end_shoe")
    return t


def test_replay_re_derives_every_keyed_operation() -> None:
    t = _keyed_session()
    again = replay_baccarat(Journal.from_json(t.journal.to_json()))
    assert again.snapshot() == t.snapshot()
    assert again.journal.head == t.journal.head


def test_a_forged_keyed_card_is_refused_on_replay_with_ba_1() -> None:
    """A keyed card rewritten to a seventh ace of spades (chain recomputed): replay re-runs
    the keyed deal and BA-1 refuses it."""
    t = _live(decks=6)
    _cmd(t, "deal", {"cards": ["As"] * 4})
    _cmd(t, "draw", {"card": "As"})
    _cmd(t, "draw", {"card": "As"})
    _cmd(t, "deal", {"cards": ["Ad", "2c", "3c", "4c"]})
    data = t.journal.to_json()
    assert isinstance(data, dict)
    entries: Any = data["entries"]
    last = [r for r in entries if r["event"]["kind"] == "baccarat.cards_keyed"][-1]
    last["event"]["data"]["args"]["cards"][0] = "As"
    last["event"]["data"]["cards"][0] = "As"
    with pytest.raises(ReplayMismatch) as exc:
        replay_baccarat(Journal.from_json(_rechain(data)))
    assert exc.value.rule == "BA-1"


@settings(max_examples=60, deadline=None)
@given(st.permutations(list(full_set(6))).map(lambda cs: cs[:6]))
@example(list(parse_cards("2c Kh 3d Qs 4h 5d")))
def test_keying_the_cards_as_they_come_plays_the_hand_by_the_rules(cards: list[Card]) -> None:
    """Whatever comes out of the shoe, keying it in card by card (the deal, then ``draw``
    whenever the table asks) gives the hands of BA-7.1 / BA-9 (``play_out``)."""
    it = iter(cards)
    player, banker = play_out(lambda: next(it))
    t = _live()
    _cmd(t, "deal", {"cards": [str(c) for c in cards[:4]]})
    rest = iter(cards[4:])
    while t.third_card_due() is not None:
        _cmd(t, "draw", {"card": str(next(rest))})
    r = t.results[-1]
    assert (r.player_cards, r.banker_cards) == (player, banker)
    assert (r.player_total, r.banker_total) == (total(player), total(banker))
    assert Counter(t.shoe[6 : 6 + len(player) + len(banker)]) == Counter(player + banker)
