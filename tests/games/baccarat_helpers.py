"""Helpers for the baccarat tests: tables with a stacked shoe."""

from __future__ import annotations

from collections import Counter

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
        t.join(name, Money.of(buy_in), seat=seat)
    burn = rules.decks
    t.load_shoe(stacked_shoe(front, rules.decks, burn))
    t.cut()
    t.burn()
    return t


def mop(n: int | str) -> Money:
    return Money.of(n)
