"""Craps' chance: CR-1 the two dice of a throw, the 36 outcomes with their exact
probabilities (the chance node the engine and the analysis share), and the point numbers.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from macau_tables.core.errors import (
    InvalidInput,
)

__all__ = [
    "DICE_OUTCOMES",
    "POINTS",
    "TOTAL_PROBABILITIES",
    "Dice",
]


# === Values: the dice and the chance outcomes (CR-1) =====================================


@dataclass(frozen=True, order=True)
class Dice:
    """The two dice of one throw (CR-1), in the order read; ``str`` is ``"3-4"``."""

    d1: int
    d2: int

    def __post_init__(self) -> None:
        for die in (self.d1, self.d2):
            if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
                raise InvalidInput(f"a die shows 1 to 6, not {die!r}", rule="CR-1")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """``"3-4"``, ``"3 4"``, ``"3,4"`` or ``"34"`` → ``Dice(3, 4)``."""
        m = re.fullmatch(r"\s*([1-6])\s*[-, ]?\s*([1-6])\s*", text)
        if m is None:
            raise InvalidInput(f"not two dice: {text!r} (try '3-4')", rule="CR-1")
        return cls(int(m.group(1)), int(m.group(2)))

    def __str__(self) -> str:
        return f"{self.d1}-{self.d2}"

    @property
    def total(self) -> int:
        return self.d1 + self.d2

    @property
    def is_pair(self) -> bool:
        """Both dice alike: the "hard" way of an even total (CR-5)."""
        return self.d1 == self.d2


#: The 36 equally likely outcomes of a fair throw, with exact probabilities: the chance
#: node shared by the engine and the analysis code (the RNG path draws d1 then d2).
DICE_OUTCOMES: tuple[tuple[Dice, Fraction], ...] = tuple(
    (Dice(a, b), Fraction(1, 36)) for a in range(1, 7) for b in range(1, 7)
)

#: The probability of each total 2 … 12.
TOTAL_PROBABILITIES: Mapping[int, Fraction] = MappingProxyType(
    {t: sum((p for d, p in DICE_OUTCOMES if d.total == t), Fraction(0)) for t in range(2, 13)}
)

#: The point numbers (CR-2.1).
POINTS: tuple[int, ...] = (4, 5, 6, 8, 9, 10)
