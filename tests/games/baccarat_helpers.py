"""Helpers for the baccarat tests: tables with a stacked shoe."""

from __future__ import annotations

from collections import Counter

from macau_tables.core.journal import Event
from macau_tables.core.ledger import CAGE, Ledger, Transaction
from macau_tables.core.money import Money
from macau_tables.games.baccarat import (
    BaccaratRules,
    BaccaratTable,
    Card,
    full_set,
    parse_cards,
)

FILLER = "5c"


def stacked_shoe(front: str, decks: int = 6, burn: int | None = None) -> list[Card]:
    """A full shoe of ``decks`` decks whose first cards, after the ``burn`` burned at the start
    (``decks`` by default), are ``front``; the rest in pack order."""
    burn = decks if burn is None else burn
    want = list(parse_cards(front))
    rest = Counter(full_set(decks))
    rest.subtract(want)
    assert min(rest.values()) >= 0, "front uses more cards than the shoe has"
    pool = sorted(rest.elements(), key=lambda c: (c.rank == 5, c.rank, c.suit))
    return pool[:burn] + want + pool[burn:]


def table(
    front: str = "",
    *,
    rules: BaccaratRules | None = None,
    players: dict[str, int | None] | None = None,
    buy_in: int = 100_000,
) -> BaccaratTable:
    """A table ready for bets, its shoe stacked with ``front``; players ``name → seat``."""
    rules = rules or BaccaratRules(decks=6)
    t = BaccaratTable(rules)
    for name, seat in (players if players is not None else {"alice": 1, "bob": None}).items():
        t.sit(name, Money.of(buy_in), seat=seat)
    burn = rules.decks
    t.load_shoe(stacked_shoe(front, rules.decks, burn))
    t.cut()  # and the BA-2.1 burn
    return t


def ledger_of(t: BaccaratTable) -> Ledger:
    """The table's money: every joining player's wallet funded from the cage with what
    they bring, then ``Ledger.project`` of the journal."""
    ledger = Ledger()
    for ev in t.journal.events:
        data = ev.to_json()["data"]
        assert isinstance(data, dict)
        if ev.kind in ("baccarat.player_joined", "baccarat.chips_bought"):
            amount = data.get("buy_in", data.get("amount"))
            assert isinstance(amount, int)
            if amount:
                ledger.post(Transaction.transfer(CAGE, f"player:{data['player']}", Money(amount)))
    return Ledger.project(t.journal.events, ledger)


def settled(events: tuple[Event, ...] | list[Event]) -> Event:
    """The settlement among a hand's events."""
    (ev,) = [e for e in events if e.kind == "baccarat.hand_settled"]
    return ev


def mop(n: int | str) -> Money:
    return Money.of(n)
