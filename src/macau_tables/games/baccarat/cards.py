"""Baccarat's equipment: BA-1 the cards and the shoe, BA-5 their values, and the chance
structure the analysis draws from (a shoe's composition, the next card's probabilities).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import overload

from macau_tables.core.errors import (
    InvalidInput,
    JournalError,
)
from macau_tables.core.snapshot import snapshot_text_class

__all__ = [
    "MAX_DECKS",
    "MIN_DECKS",
    "MIN_SEATS",
    "RANKS",
    "SUITS",
    "Card",
    "Composition",
    "KeyedShoe",
    "check_keyed",
    "composition",
    "fresh_composition",
    "full_set",
    "parse_cards",
    "rank_probabilities",
    "unseen",
    "value_probabilities",
]


# ==========================================================================================
# BA-1 Equipment: 6 to 12 decks of 52 cards
# ==========================================================================================

RANKS = "A23456789TJQK"
SUITS = "cdhs"
MIN_DECKS, MAX_DECKS = 6, 12  # BA-1
MIN_SEATS = 7  # BA-1: seven or more seats


@snapshot_text_class
@dataclass(frozen=True, order=True)
class Card:
    """A playing card: ``rank`` 1 (ace) … 13 (king), ``suit`` one of ``c d h s``.

    ``Card.parse("Td")`` ↔ ``str(card) == "Td"`` (``"10d"`` is read too).
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not (isinstance(self.rank, int) and 1 <= self.rank <= 13) or self.suit not in SUITS:
            raise InvalidInput(f"not a card: rank {self.rank!r}, suit {self.suit!r}", rule="BA-1")

    @classmethod
    def parse(cls, text: str) -> Card:
        t = text.strip()
        if t[:2] == "10":
            t = "T" + t[2:]
        if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
            # BA-1: the shoe holds packs of 52 cards; anything else is none of them
            raise InvalidInput(f"not a card: {text!r} (try 'Td', 'As', '9h')", rule="BA-1")
        return cls(RANKS.index(t[0].upper()) + 1, t[1].lower())

    def __str__(self) -> str:
        return RANKS[self.rank - 1] + self.suit

    # --- BA-5 Values ----------------------------------------------------------------------
    @property
    def value(self) -> int:
        """BA-5: tens and face cards count 0, the others their face value (ace 1)."""
        return self.rank if self.rank < 10 else 0

    @property
    def burn_count(self) -> int:
        """BA-R1 burning by the first card: its face value, tens and faces counting 10."""
        return min(self.rank, 10)


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """``"Td 9h As"`` or ``["Td", "9h"]`` → cards."""
    items = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(Card.parse(t) for t in items)


def full_set(decks: int) -> tuple[Card, ...]:
    """BA-1: ``decks`` packs of 52 cards, in pack order."""
    return tuple(Card(r, s) for _ in range(decks) for s in SUITS for r in range(1, 14))


# --- Chance structure, for the analysis code ---------------------------------------------

Composition = tuple[int, ...]  # 13 counts, ace … king


def composition(cards: Iterable[Card]) -> Composition:
    """How many cards of each rank (ace … king)."""
    counts = Counter(c.rank for c in cards)
    return tuple(counts.get(r, 0) for r in range(1, 14))


def fresh_composition(decks: int) -> Composition:
    return (4 * decks,) * 13


def unseen(decks: int, seen: Iterable[Card]) -> Composition:
    """The composition of ``decks`` packs less the cards ``seen`` (turned face up): what the
    next card is drawn from as everyone at the table knows it (BA-R4: a continuous shuffler
    draws from the full set, nothing seen)."""
    return tuple(a - b for a, b in zip(fresh_composition(decks), composition(seen), strict=True))


class KeyedShoe(Sequence[Card]):
    """A physical shoe at a live table (BA-1): ``decks`` packs shuffled at the table, never
    known to the system; a position holds a card once the dealer keyed it in as it left the
    shoe. Burned face-down cards stay unknown. BA-1 bounds what can be keyed: no card more
    often than the shoe's decks hold it."""

    def __init__(self, decks: int) -> None:
        self.decks = decks
        self._cards: dict[int, Card] = {}

    def __len__(self) -> int:
        return 52 * self.decks

    @overload
    def __getitem__(self, index: int) -> Card: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Card, ...]: ...

    def __getitem__(self, index: int | slice) -> Card | tuple[Card, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        card = self._cards.get(index)
        if card is None:
            raise JournalError(f"card {index + 1} of the physical shoe was not keyed in")
        return card

    def known(self, index: int) -> bool:
        return index in self._cards

    def keyed(self) -> tuple[Card, ...]:
        """The cards keyed in so far, in shoe order."""
        return tuple(self._cards[i] for i in sorted(self._cards))

    def verify_key(self, position: int, cards: Sequence[Card]) -> None:
        """BA-1: ``cards`` can come out of this shoe at ``position`` onwards."""
        if position + len(cards) > len(self):
            raise InvalidInput(f"a shoe of {self.decks} decks has no more cards", rule="BA-1")
        if any(self.known(position + k) for k in range(len(cards))):
            raise InvalidInput("these cards of the shoe are keyed in already", rule="BA-1")
        seen = Counter(self._cards.values())
        for card in cards:
            seen[card] += 1
            if seen[card] > self.decks:
                raise InvalidInput(
                    f"{card}: a shoe of {self.decks} decks holds {self.decks} of it; this "
                    f"would be number {seen[card]}",
                    rule="BA-1",
                )

    def key(self, position: int, cards: Sequence[Card]) -> None:
        for k, card in enumerate(cards):
            self._cards[position + k] = card


def rank_probabilities(comp: Composition) -> dict[int, Fraction]:
    """The chance node of one card drawn from ``comp``: rank → exact probability."""
    total = sum(comp)
    if total == 0:
        raise InvalidInput("no cards left to draw")
    return {r: Fraction(n, total) for r, n in zip(range(1, 14), comp, strict=True) if n}


def value_probabilities(comp: Composition) -> dict[int, Fraction]:
    """The same chance node by BA-5 value (0 … 9)."""
    out: dict[int, Fraction] = {}
    for rank, p in rank_probabilities(comp).items():
        v = rank if rank < 10 else 0
        out[v] = out.get(v, Fraction(0)) + p
    return out


def check_keyed(
    shoe: Sequence[Card], position: int, cards: Sequence[Card] | None, what: str, rule: str
) -> None:
    """Cards keyed in (``cards``) only from a physical shoe, and then always; BA-1: cards
    this shoe can hold, at its next positions (``position`` on)."""
    if not isinstance(shoe, KeyedShoe):
        if cards is not None:
            raise InvalidInput(
                f"{what}: this shoe's cards come from its server seed; cards are keyed "
                "in only from a physical shoe (open_shoe)",
                rule=rule,
            )
        return
    if cards is None:
        raise InvalidInput(f"{what}: key in the card(s) from the physical shoe", rule=rule)
    shoe.verify_key(position, cards)
