"""Money: exact integer minor units with a currency — never a float.

Design
------
* :class:`Money` holds an ``int`` count of minor units (avos for MOP, cents for HKD) and a
  :class:`Currency`. It is a small frozen value: hashable, ordered within one currency,
  ``str(m) == "MOP 12.34"`` and ``Money.parse(str(m)) == m``.
* Floats (and bools) are refused with ``TypeError`` wherever an amount or a factor enters:
  ``Money(1.5)``, ``Money.of(1.5)``, ``m * 1.5``, ``m.times(0.04)``. Exact inputs are ``int``,
  ``str``, :class:`~decimal.Decimal` (for major units) and :class:`~fractions.Fraction`
  (for rates).
* Arithmetic between currencies raises :class:`CurrencyMismatch`; equality between them is
  simply ``False`` (so that ``Money`` can live in sets and dict keys).
* Every product with a non-integer factor goes through :meth:`Money.times`, which computes
  the exact rational product and rounds it **once**, by a named :class:`Rounding`. The
  default is :attr:`Rounding.DOWN` (toward zero): commission is "exact, rounded down to the
  minor unit" (PG-R5, BA-R5).
* :meth:`Money.allocate` splits an amount in proportion to integer weights with no money
  created or lost (the parts sum exactly to the whole); it shares a bank's result between
  banker and house in proportion to capital (PG-R4a).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import Enum
from fractions import Fraction

from macau_tables.core.errors import CurrencyMismatch, InvalidInput

__all__ = [
    "HKD",
    "MOP",
    "Currency",
    "Money",
    "Rounding",
    "rate",
    "sum_money",
]


@dataclass(frozen=True, slots=True)
class Currency:
    """A currency: ISO code, digits of its minor unit, and display symbol."""

    code: str
    minor_digits: int
    symbol: str

    def __post_init__(self) -> None:
        if not re.fullmatch(r"[A-Z]{3}", self.code):
            raise InvalidInput(f"currency code must be three capital letters, not {self.code!r}")
        if type(self.minor_digits) is not int or self.minor_digits < 0:
            raise InvalidInput(f"minor_digits must be an int >= 0, not {self.minor_digits!r}")

    @property
    def scale(self) -> int:
        """Minor units per major unit (100 for MOP)."""
        scale: int = 10**self.minor_digits
        return scale

    def __str__(self) -> str:
        return self.code


MOP = Currency("MOP", 2, "MOP$")
HKD = Currency("HKD", 2, "HK$")

_KNOWN: tuple[Currency, ...] = (MOP, HKD)


def currency_by_code(code: str) -> Currency:
    """The known currency with this ISO code (``"MOP"``, ``"HKD"``), e.g. read from a journal."""
    for cur in _KNOWN:
        if cur.code == code:
            return cur
    raise InvalidInput(f"unknown currency {code!r}: choose {', '.join(c.code for c in _KNOWN)}")


class Rounding(Enum):
    """How an exact rational amount of minor units becomes an integer.

    ``DOWN`` is the package default (PG-R5, BA-R5). ``HALF_UP`` rounds ties away from zero
    (as :data:`decimal.ROUND_HALF_UP`); ``HALF_EVEN`` rounds ties to the even neighbour.
    """

    DOWN = "down"  # toward zero
    UP = "up"  # away from zero
    FLOOR = "floor"  # toward -infinity
    CEILING = "ceiling"  # toward +infinity
    HALF_UP = "half_up"  # nearest; ties away from zero
    HALF_EVEN = "half_even"  # nearest; ties to even


def _round(value: Fraction, rounding: Rounding) -> int:
    """Round an exact rational to an integer by ``rounding``."""
    q, r = divmod(value.numerator, value.denominator)  # floor division; 0 <= r < den
    if r == 0:
        return q
    positive = value > 0
    if rounding is Rounding.FLOOR:
        return q
    if rounding is Rounding.CEILING:
        return q + 1
    if rounding is Rounding.DOWN:
        return q if positive else q + 1
    if rounding is Rounding.UP:
        return q + 1 if positive else q
    twice = 2 * r
    if twice != value.denominator:  # not a tie: nearest
        return q + 1 if twice > value.denominator else q
    if rounding is Rounding.HALF_UP:
        return q + 1 if positive else q
    if rounding is Rounding.HALF_EVEN:
        return q if q % 2 == 0 else q + 1
    raise TypeError(f"not a Rounding: {rounding!r}")


def _require_int(value: object, what: str) -> int:
    """Return ``value`` if it is a true ``int`` (not a bool); otherwise ``TypeError``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, not {type(value).__name__} ({value!r})")
    return value


def _exact_fraction(value: object, what: str) -> Fraction:
    """``int`` / ``Fraction`` / ``Decimal`` as an exact ``Fraction``; floats are refused."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal):
        if not value.is_finite():
            raise InvalidInput(f"{what} must be finite, not {value}")
        return Fraction(value)
    return Fraction(_require_int(value, what))


def rate(value: str | Fraction | int | Decimal) -> Fraction:
    """A non-negative rate as an exact fraction.

    ``rate("4%") == Fraction(1, 25)``; ``"0.05"``, ``"1/20"``, ``"2.5%"``, ``Fraction`` and
    ``Decimal`` are accepted too. Floats raise ``TypeError``; bad text raises
    :class:`InvalidInput`.
    """
    if isinstance(value, str):
        text = value.strip()
        percent = text.endswith("%")
        body = text[:-1].strip() if percent else text
        if not re.fullmatch(r"[+-]?(\d+(\.\d+)?|\d+/\d+)", body):
            raise InvalidInput(f"not a rate: {value!r} (try '4%', '0.04' or '1/25')")
        try:
            result = Fraction(body)
        except ZeroDivisionError:
            raise InvalidInput(f"not a rate: {value!r} (zero denominator)") from None
        if percent:
            result /= 100
    else:
        result = _exact_fraction(value, "rate")
    if result < 0:
        raise InvalidInput(f"a rate may not be negative: {value!r}")
    return result


_NUMBER = re.compile(r"(?P<int>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?P<frac>\d+))?")


@dataclass(frozen=True, slots=True, order=False)
class Money:
    """An exact amount: ``minor`` integer minor units of ``currency``.

    ``Money(1234)`` is MOP 12.34. Frozen and hashable; ``<``/``<=``/``>``/``>=`` compare
    within one currency (across currencies they raise :class:`CurrencyMismatch`).
    """

    minor: int
    currency: Currency = MOP

    def __post_init__(self) -> None:
        _require_int(self.minor, "Money.minor")
        if not isinstance(self.currency, Currency):
            raise TypeError(f"currency must be a Currency, not {self.currency!r}")

    # --- construction ---------------------------------------------------------------

    @classmethod
    def zero(cls, currency: Currency = MOP) -> Money:
        """Nothing, in ``currency``."""
        return cls(0, currency)

    @classmethod
    def of(cls, major: int | str | Decimal, currency: Currency = MOP) -> Money:
        """An amount in **major** units, exactly: ``Money.of(12)``, ``Money.of("12.34")``.

        A value finer than the minor unit (``Money.of("0.001")``) raises
        :class:`InvalidInput`; a float raises ``TypeError``.
        """
        if isinstance(major, str):
            return cls.parse(major, currency)
        if isinstance(major, Decimal):
            if not major.is_finite():
                raise InvalidInput(f"not an amount: {major}")
            scaled = Fraction(major) * currency.scale
            if scaled.denominator != 1:
                raise InvalidInput(
                    f"{major} has more than {currency.minor_digits} decimals for {currency.code}"
                )
            return cls(int(scaled), currency)
        return cls(_require_int(major, "Money.of amount") * currency.scale, currency)

    @classmethod
    def parse(cls, text: str, currency: Currency | None = None) -> Money:
        """Parse an amount written in major units.

        Accepted: ``"12.34"``, ``"12"``, ``"-3.50"``, ``"1,234.50"``, ``"MOP 12.34"``,
        ``"MOP$12.34"``, ``"12.34 MOP"``, ``"-MOP$3.50"``, ``"MOP -3.50"`` (codes are not
        case-sensitive). Without a code the amount is in ``currency`` (default MOP); if
        ``currency`` is given and the text names another, :class:`CurrencyMismatch`.
        Anything else, including more decimals than the currency has, is
        :class:`InvalidInput`.
        """
        if not isinstance(text, str):
            raise TypeError(f"Money.parse takes a str, not {type(text).__name__}")
        known = (*_KNOWN, currency) if currency is not None else _KNOWN
        rest = text.strip()
        sign = 1
        found: Currency | None = None

        def take_sign() -> None:
            nonlocal rest, sign
            if rest[:1] in ("-", "+"):
                if rest[0] == "-":
                    sign = -sign
                rest = rest[1:].lstrip()
                if rest[:1] in ("-", "+"):
                    raise InvalidInput(f"not an amount: {text!r} (two signs)")

        take_sign()
        # A leading symbol or code (symbols first: "MOP$" before "MOP").
        for cur in known:
            for mark in (cur.symbol, cur.code):
                if mark and rest.upper().startswith(mark.upper()):
                    found, rest = cur, rest[len(mark) :].lstrip()
                    break
            if found is not None:
                break
        if found is not None:
            if sign == -1 and rest[:1] in ("-", "+"):
                raise InvalidInput(f"not an amount: {text!r} (two signs)")
            take_sign()
        # A trailing code ("12.34 MOP").
        if found is None:
            for cur in known:
                if rest.upper().endswith(cur.code) and rest[: -len(cur.code)].endswith(" "):
                    found, rest = cur, rest[: -len(cur.code)].rstrip()
                    break
        number = _NUMBER.fullmatch(rest)
        if number is None:
            raise InvalidInput(f"not an amount: {text!r} (try 'MOP 12.34' or '1,234.50')")
        target = found if found is not None else (currency if currency is not None else MOP)
        if currency is not None and target != currency:
            raise CurrencyMismatch(f"{text!r} is in {target.code}, expected {currency.code}")
        digits = target.minor_digits
        frac = number.group("frac") or ""
        if len(frac) > digits:
            raise InvalidInput(
                f"{text!r} has more than {digits} decimals for {target.code}"
                if digits
                else f"{text!r}: {target.code} has no minor unit"
            )
        whole = int(number.group("int").replace(",", ""))
        minor = whole * target.scale + int(frac.ljust(digits, "0") or "0")
        return cls(sign * minor, target)

    # --- display ---------------------------------------------------------------------

    def _digits(self, grouping: bool) -> str:
        whole, part = divmod(abs(self.minor), self.currency.scale)
        head = f"{whole:,}" if grouping else str(whole)
        d = self.currency.minor_digits
        return f"{head}.{part:0{d}d}" if d else head

    def __str__(self) -> str:
        """``"MOP 12.34"``, ``"MOP -3.50"``: the canonical text, read back by :meth:`parse`."""
        sign = "-" if self.minor < 0 else ""
        return f"{self.currency.code} {sign}{self._digits(grouping=False)}"

    def format(self, symbol: bool = True) -> str:
        """Display text with thousands separators: ``"MOP$1,234.50"``, ``"-MOP$3.50"``.

        With ``symbol=False``, just the number: ``"1,234.50"``. Both forms parse back.
        """
        sign = "-" if self.minor < 0 else ""
        return f"{sign}{self.currency.symbol if symbol else ''}{self._digits(grouping=True)}"

    # --- arithmetic ------------------------------------------------------------------

    def _same(self, other: Money) -> None:
        if other.currency != self.currency:
            raise CurrencyMismatch(f"cannot combine {self.currency} and {other.currency}")

    def __add__(self, other: Money) -> Money:
        if not isinstance(other, Money):
            return NotImplemented
        self._same(other)
        return Money(self.minor + other.minor, self.currency)

    def __sub__(self, other: Money) -> Money:
        if not isinstance(other, Money):
            return NotImplemented
        self._same(other)
        return Money(self.minor - other.minor, self.currency)

    def __neg__(self) -> Money:
        return Money(-self.minor, self.currency)

    def __pos__(self) -> Money:
        return self

    def __abs__(self) -> Money:
        return Money(abs(self.minor), self.currency)

    def __mul__(self, factor: int) -> Money:
        """``m * 3``: integer factors only; use :meth:`times` for rates and odds."""
        return Money(
            self.minor * _require_int(factor, "a Money factor (use .times)"), self.currency
        )

    __rmul__ = __mul__

    def times(self, factor: Fraction | int, rounding: Rounding = Rounding.DOWN) -> Money:
        """The exact product ``self × factor``, rounded once to the minor unit.

        ``Money(99).times(Fraction(1, 25)) == Money(3)`` (3.96 avos, toward zero).
        """
        if not isinstance(rounding, Rounding):
            raise TypeError(f"rounding must be a Rounding, not {rounding!r}")
        exact = self.minor * _exact_fraction(factor, "a Money factor")
        return Money(_round(exact, rounding), self.currency)

    def commission(
        self, commission_rate: Fraction | str | int, rounding: Rounding = Rounding.DOWN
    ) -> Money:
        """Commission at ``commission_rate`` (``"4%"`` or ``Fraction(1, 25)``) on this amount.

        Exact, rounded down to the minor unit by default (PG-R5: 4% on Pai Gow wins;
        BA-R5: 5% on Banker wins).
        """
        return self.times(rate(commission_rate), rounding)

    def allocate(self, weights: Sequence[int]) -> list[Money]:
        """Split this amount in proportion to non-negative integer ``weights``.

        The parts always sum exactly to ``self``, and each part is within one minor unit of
        its exact share ``self × w / Σw``. Remainder rule (largest remainder): each part
        first gets the floor of its exact share of ``abs(self)``; the minor units left over
        go one each to the parts with the largest fractional remainders, ties to the
        earliest weight. A negative amount is split as its absolute value and negated, so
        a loss is shared the same way as a win (PG-R4a). A zero weight always gets zero.
        """
        ws = [_require_int(w, "an allocation weight") for w in weights]
        if not ws:
            raise InvalidInput("allocate needs at least one weight")
        if any(w < 0 for w in ws):
            raise InvalidInput(f"allocation weights must be >= 0: {ws}")
        total = sum(ws)
        if total == 0:
            raise InvalidInput("allocation weights must not all be zero")
        amount = abs(self.minor)
        shares = [divmod(amount * w, total) for w in ws]
        left = amount - sum(q for q, _ in shares)
        by_remainder = sorted(range(len(ws)), key=lambda i: (-shares[i][1], i))
        bonus = set(by_remainder[:left])
        sign = -1 if self.minor < 0 else 1
        return [
            Money(sign * (q + (1 if i in bonus else 0)), self.currency)
            for i, (q, _) in enumerate(shares)
        ]

    # --- predicates and ordering -----------------------------------------------------

    def is_zero(self) -> bool:
        return self.minor == 0

    def is_positive(self) -> bool:
        return self.minor > 0

    def is_negative(self) -> bool:
        return self.minor < 0

    def _key(self, other: object) -> int:
        if not isinstance(other, Money):
            raise TypeError(f"cannot compare Money with {type(other).__name__}")
        self._same(other)
        return other.minor

    def __lt__(self, other: Money) -> bool:
        return self.minor < self._key(other)

    def __le__(self, other: Money) -> bool:
        return self.minor <= self._key(other)

    def __gt__(self, other: Money) -> bool:
        return self.minor > self._key(other)

    def __ge__(self, other: Money) -> bool:
        return self.minor >= self._key(other)


def sum_money(amounts: Iterable[Money], currency: Currency = MOP) -> Money:
    """The sum of ``amounts`` (all in ``currency``); ``Money.zero(currency)`` when empty."""
    total = Money.zero(currency)
    for amount in amounts:
        total += amount
    return total
