"""Typed errors. Every error that a rule forbids names the rule's ID.

``str(error)`` is one line, ``"<RULE-ID> <message>"`` when a rule is broken, so that the CLI
can print it as it is (e.g. ``BetNotAllowed: CR-2.3 Come bets need a point``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class MacauTablesError(Exception):
    """Base of every error this package raises on purpose."""

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule} {message}" if rule else message)


class InvalidInput(MacauTablesError, ValueError):
    """Text that cannot be parsed into a value (a tile, an amount, dice …)."""


class AmbiguousName(InvalidInput):
    """A name that stands for several values; ``choices`` lists them."""

    def __init__(self, name: str, choices: list[str], *, rule: str | None = None) -> None:
        self.choices = choices
        super().__init__(
            f"{name!r} is ambiguous: it may be {' or '.join(choices)}; give the pips",
            rule=rule,
        )


class CurrencyMismatch(MacauTablesError, ValueError):
    """Arithmetic between amounts of different currencies."""


class RuleViolation(MacauTablesError):
    """An operation that the regulation forbids in the current state."""


class BetNotAllowed(RuleViolation):
    """A bet that may not be placed, increased or taken down now."""


class OutOfOrder(RuleViolation):
    """An operation attempted at the wrong stage of the round."""


class UnbalancedPostings(MacauTablesError, ValueError):
    """Ledger postings of one transaction that do not sum to zero."""


class JournalError(MacauTablesError):
    """A journal that cannot be read or replayed."""


class JournalTampered(JournalError):
    """A journal whose hash chain does not verify: an entry was edited, added or removed."""


class InsufficientFunds(RuleViolation):
    """A posting that would take a wallet below zero."""


class HoldError(MacauTablesError):
    """A wager placed twice, or settled when it is not in play (settled twice, never placed)."""


class LedgerMismatch(MacauTablesError):
    """A ledger whose rows differ from what a table's journal moved (postings per account,
    holds opened or closed)."""


class ReplayMismatch(JournalError):
    """A journal whose events do not follow from the rules: replay derived other events."""


class SeedNotRevealed(ReplayMismatch):
    """Replay reached a shoe, woodpile or shooter whose server seed is committed but not
    revealed in the journal (nor given): what follows cannot be re-derived yet. ``entry``
    is the index of the journal entry replay stopped at, when known."""

    entry: int | None = None


def passes(verify: Callable[..., None], *args: Any, **kwargs: Any) -> bool:
    """``can_x`` from ``verify_x``: True unless the verification refuses the operation
    (a rule forbids it, or the input is bad). The one implementation every engine uses."""
    try:
        verify(*args, **kwargs)
    except (RuleViolation, InvalidInput):
        return False
    return True
