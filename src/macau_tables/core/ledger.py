"""Double-entry ledger: money moves between named accounts and is never created or lost.

Design
------
* An account is a string ``"kind:name"`` (``player:alice``, ``bank:banker``, ``bank:house``,
  ``bank:cobank:bob``, ``house:commission``) or the bare ``cage``, where outside money
  enters and leaves (so the cage's balance is the negative of all chips in play).
* A :class:`Posting` is one account's change (positive = money into the account). A
  :class:`Transaction` is a frozen tuple of postings that sum to zero in each currency;
  this is checked when it is built (:class:`UnbalancedPostings`), so an unbalanced
  transaction cannot exist, and the ledger's total in each currency is always zero.
* :meth:`Ledger.post` is atomic: it computes every new balance first, checks them
  (``player:*`` wallets may not go below zero: :class:`InsufficientFunds`), and only then
  applies them. A refused transaction leaves the ledger exactly as it was.
* Following the package's operation pattern, ``verify_post`` raises, ``can_post`` answers
  a bool, and ``post`` verifies and applies.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from macau_tables.core.errors import InsufficientFunds, InvalidInput, UnbalancedPostings
from macau_tables.core.money import MOP, Currency, Money

__all__ = ["CAGE", "Ledger", "Posting", "Transaction", "validate_account"]

CAGE = "cage"
_ACCOUNT = re.compile(r"[a-z][a-z0-9_]*(?::[\w.\-]+)+")


def validate_account(account: str) -> str:
    """Return ``account`` if it is ``"kind:name"`` (more ``:name`` parts allowed) or ``cage``.

    The kind is lower-case ASCII; names are letters, digits, ``_``, ``.`` and ``-``.
    Anything else raises :class:`InvalidInput`.
    """
    if not isinstance(account, str):
        raise TypeError(f"an account name is a str, not {type(account).__name__}")
    if account != CAGE and not _ACCOUNT.fullmatch(account):
        raise InvalidInput(f"bad account name {account!r} (try 'player:alice' or 'cage')")
    return account


def _is_wallet(account: str) -> bool:
    """Player wallets may not go negative."""
    return account.startswith("player:")


@dataclass(frozen=True, slots=True)
class Posting:
    """A change of ``amount`` to ``account``; positive means money into the account."""

    account: str
    amount: Money

    def __post_init__(self) -> None:
        validate_account(self.account)
        if not isinstance(self.amount, Money):
            raise TypeError(f"a posting's amount is Money, not {type(self.amount).__name__}")

    def __str__(self) -> str:
        return f"{self.account} {self.amount}"


@dataclass(frozen=True, slots=True)
class Transaction:
    """Postings that sum to zero in each currency, with a memo.

    Built unbalanced, it raises :class:`UnbalancedPostings`. Use :meth:`of` to build one
    from any iterable of postings (a list passed here is stored as a tuple all the same).
    """

    postings: tuple[Posting, ...]
    memo: str = ""

    def __post_init__(self) -> None:
        postings = tuple(self.postings)
        for posting in postings:
            if not isinstance(posting, Posting):
                raise TypeError(f"not a Posting: {posting!r}")
        object.__setattr__(self, "postings", postings)
        net: dict[Currency, int] = {}
        for posting in postings:
            cur = posting.amount.currency
            net[cur] = net.get(cur, 0) + posting.amount.minor
        off = [str(Money(minor, cur)) for cur, minor in net.items() if minor != 0]
        if off:
            raise UnbalancedPostings(
                f"postings of {self.memo or 'a transaction'!r} are off by {', '.join(off)}"
            )

    @classmethod
    def transfer(cls, source: str, dest: str, amount: Money, memo: str = "") -> Transaction:
        """Move ``amount`` (>= 0) from ``source`` to ``dest``."""
        if amount.is_negative():
            raise InvalidInput(f"a transfer amount may not be negative: {amount}")
        if source == dest:
            raise InvalidInput(f"a transfer needs two accounts, not {source!r} twice")
        return cls((Posting(source, -amount), Posting(dest, amount)), memo)

    @classmethod
    def of(cls, postings: Iterable[Posting], memo: str = "") -> Transaction:
        """A transaction with the postings merged per account and currency.

        Accounts keep the order in which they first appear; accounts whose net change is
        zero are dropped (so a settlement where everything pushes is an empty transaction).
        """
        merged: dict[tuple[str, Currency], int] = {}
        for posting in postings:
            key = (posting.account, posting.amount.currency)
            merged[key] = merged.get(key, 0) + posting.amount.minor
        return cls(
            tuple(Posting(acc, Money(minor, cur)) for (acc, cur), minor in merged.items() if minor),
            memo,
        )

    def __str__(self) -> str:
        return f"{self.memo}: " + "; ".join(str(p) for p in self.postings)


class Ledger:
    """Balances of every account touched, and the transactions posted, in order."""

    __slots__ = ("_balances", "_history")

    def __init__(self) -> None:
        self._balances: dict[tuple[str, Currency], int] = {}
        self._history: list[Transaction] = []

    def _after(self, tx: Transaction) -> dict[tuple[str, Currency], int]:
        """The new balances of the accounts that ``tx`` touches."""
        new: dict[tuple[str, Currency], int] = {}
        for posting in tx.postings:
            key = (posting.account, posting.amount.currency)
            new[key] = new.get(key, self._balances.get(key, 0)) + posting.amount.minor
        return new

    def verify_post(self, tx: Transaction) -> None:
        """Raise :class:`InsufficientFunds` if ``tx`` would take a player wallet below zero."""
        if not isinstance(tx, Transaction):
            raise TypeError(f"post takes a Transaction, not {type(tx).__name__}")
        for (account, cur), minor in self._after(tx).items():
            if minor < 0 and _is_wallet(account):
                have = Money(self._balances.get((account, cur), 0), cur)
                raise InsufficientFunds(
                    f"{account} has {have}; {tx.memo or 'the transaction'!r} "
                    f"would leave it at {Money(minor, cur)}"
                )

    def can_post(self, tx: Transaction) -> bool:
        """Whether :meth:`post` would accept ``tx``."""
        try:
            self.verify_post(tx)
        except InsufficientFunds:
            return False
        return True

    def post(self, tx: Transaction) -> Transaction:
        """Apply ``tx`` atomically (all postings or none) and return it."""
        self.verify_post(tx)
        self._balances.update(self._after(tx))
        self._history.append(tx)
        return tx

    def balance(self, account: str, currency: Currency = MOP) -> Money:
        """The balance of ``account`` in ``currency`` (zero if never touched)."""
        validate_account(account)
        return Money(self._balances.get((account, currency), 0), currency)

    def balances(self, currency: Currency = MOP) -> dict[str, Money]:
        """Every account ever touched in ``currency``, with its balance, sorted by name."""
        return {
            acc: Money(minor, cur)
            for (acc, cur), minor in sorted(self._balances.items(), key=lambda kv: kv[0][0])
            if cur == currency
        }

    def total(self, currency: Currency = MOP) -> Money:
        """The sum of all balances in ``currency``: zero, always (double entry)."""
        return Money(
            sum(minor for (_, cur), minor in self._balances.items() if cur == currency), currency
        )

    @property
    def history(self) -> tuple[Transaction, ...]:
        """The transactions posted, oldest first."""
        return tuple(self._history)
