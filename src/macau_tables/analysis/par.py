"""PAR sheets: exact outcome distributions of bets, as data every game's analysis returns.

A :class:`BetLine` is one bet (or, for the tile games, one strategy pairing) with its exact
outcome distribution: each :class:`Outcome` is a net result per unit staked (a Fraction:
``+1`` even money, ``+19/20`` a Banker win after 5% commission, ``-1`` a loss, ``0`` a push)
with an exact probability, and, where the figures come from counting deals, the exact
integer count. Everything derived (expected return, house edge, variance) is computed here
once, exactly; only the standard deviation, a square root, is a float.

A :class:`ParSheet` is the bets of one game under one rule set, with the options that
produced it, so that ``par … --json`` can be compared digit for digit with an independent
computation.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from macau_tables.core.errors import InvalidInput


def frac_json(x: Fraction) -> str:
    """An exact fraction as ``"n/d"`` (``"n"`` for an integer)."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def decimal(x: Fraction, places: int = 12) -> str:
    """An exact fraction printed as a decimal, rounded half-even at ``places`` digits."""
    scaled = x * 10**places
    q = round(scaled)  # Fraction.__round__ is exact, half-even
    sign = "-" if q < 0 else ""
    digits = str(abs(q)).rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}" if places else f"{sign}{digits}"


def percent(x: Fraction, places: int = 4) -> str:
    return decimal(x * 100, places) + "%"


@dataclass(frozen=True)
class Outcome:
    """One way a bet ends: ``net`` units won (negative: lost) per unit staked."""

    label: str
    net: Fraction
    probability: Fraction
    count: int | None = None  # exact number of deals/outcomes, when counted

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "label": self.label,
            "net": frac_json(self.net),
            "probability": frac_json(self.probability),
            "probability_decimal": decimal(self.probability),
        }
        if self.count is not None:
            out["count"] = self.count
        return out


@dataclass(frozen=True)
class BetLine:
    """One bet's exact distribution, and what follows from it.

    ``extras`` carries game-specific exact figures (craps: ``edge_per_roll``,
    ``mean_rolls``; tiles: ``banker_edge``), printed beside the standard columns.
    """

    name: str
    outcomes: tuple[Outcome, ...]
    rule: str | None = None
    pays: str | None = None  # the pay table entry as printed, e.g. "8:1", "7:6 per full 6 U"
    extras: Mapping[str, Fraction] = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        total = sum((o.probability for o in self.outcomes), Fraction(0))
        if total != 1:
            raise InvalidInput(f"{self.name}: outcome probabilities sum to {total}, not 1")

    def probability(self, label: str) -> Fraction:
        """The total probability of the outcomes with this label (0 if none)."""
        return sum((o.probability for o in self.outcomes if o.label == label), Fraction(0))

    @property
    def expected_return(self) -> Fraction:
        """Expected net result per unit staked (negative for a house game)."""
        return sum((o.net * o.probability for o in self.outcomes), Fraction(0))

    @property
    def house_edge(self) -> Fraction:
        """The house's expected win per unit staked: ``-expected_return``."""
        return -self.expected_return

    @property
    def variance(self) -> Fraction:
        ev = self.expected_return
        return sum((o.probability * (o.net - ev) ** 2 for o in self.outcomes), Fraction(0))

    @property
    def std_dev(self) -> float:
        return math.sqrt(self.variance)

    def to_json(self) -> dict[str, Any]:
        return {
            "bet": self.name,
            "rule": self.rule,
            "pays": self.pays,
            "outcomes": [o.to_json() for o in self.outcomes],
            "expected_return": frac_json(self.expected_return),
            "house_edge": frac_json(self.house_edge),
            "house_edge_percent": percent(self.house_edge, 6),
            "variance": frac_json(self.variance),
            "std_dev": round(self.std_dev, 9),
            "extras": {k: frac_json(v) for k, v in self.extras.items()},
            "extras_decimal": {k: decimal(v) for k, v in self.extras.items()},
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class ParSheet:
    """The bets of one game under one rule set."""

    game: str
    title: str
    options: Mapping[str, Any]
    lines: tuple[BetLine, ...]
    total: int | None = None  # the number of equally likely deals counted, if enumerated
    notes: tuple[str, ...] = ()

    def line(self, name: str) -> BetLine:
        for b in self.lines:
            if b.name == name:
                return b
        raise InvalidInput(f"no bet {name!r} in the {self.game} PAR sheet")

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "title": self.title,
            "options": dict(self.options),
            "total": self.total,
            "bets": [b.to_json() for b in self.lines],
            "notes": list(self.notes),
        }


def outcomes_from_counts(
    items: Iterable[tuple[str, Fraction, int]], total: int
) -> tuple[Outcome, ...]:
    """Build outcomes from exact counts out of ``total`` equally likely deals (zero counts
    are kept out)."""
    return tuple(
        Outcome(label, net, Fraction(count, total), count) for label, net, count in items if count
    )
