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
from functools import lru_cache
from typing import TYPE_CHECKING

from macau_tables.core.errors import (
    HoldError,
    InsufficientFunds,
    InvalidInput,
    UnbalancedPostings,
)
from macau_tables.core.money import MOP, Currency, Money

if TYPE_CHECKING:
    from macau_tables.core.journal import Event

__all__ = [
    "CAGE",
    "GUARDED",
    "Ledger",
    "Movement",
    "Posting",
    "Transaction",
    "movement_of",
    "validate_account",
]

CAGE = "cage"
_ACCOUNT = re.compile(r"[a-z][a-z0-9_]*(?::[\w.\-]+)+")


def validate_account(account: str) -> str:
    """Return ``account`` if it is ``"kind:name"`` (more ``:name`` parts allowed) or ``cage``.

    The kind is lower-case ASCII; names are letters, digits, ``_``, ``.`` and ``-``.
    Anything else raises :class:`InvalidInput`.
    """
    if not isinstance(account, str):
        raise TypeError(f"an account name is a str, not {type(account).__name__}")
    if not _well_formed(account):
        raise InvalidInput(f"bad account name {account!r} (try 'player:alice' or 'cage')")
    return account


@lru_cache(maxsize=65_536)
def _well_formed(account: str) -> bool:
    # memoised: a table names the same few accounts in every posting of every hand
    return account == CAGE or _ACCOUNT.fullmatch(account) is not None


#: Accounts that may never go below zero: a player's wallet and his chips at a table.
GUARDED = ("player:", "stack:")


def _is_wallet(account: str) -> bool:
    """Player wallets and table stacks may not go negative."""
    return account.startswith(GUARDED)


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
        postings = self.postings
        if type(postings) is not tuple:
            postings = tuple(postings)
            object.__setattr__(self, "postings", postings)
        net: dict[Currency, int] = {}
        for posting in postings:
            if not isinstance(posting, Posting):
                raise TypeError(f"not a Posting: {posting!r}")
            amount = posting.amount
            net[amount.currency] = net.get(amount.currency, 0) + amount.minor
        if any(net.values()):
            off = [str(Money(minor, cur)) for cur, minor in net.items() if minor != 0]
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


@dataclass(frozen=True, slots=True)
class Movement:
    """What one event does with money: a balanced transaction and the holds it touches.

    A *hold* is a wager in play, named by an id unique within its table (e.g. a bet id).
    ``opens`` lists the holds the transaction places (stake into the table's wagers);
    ``closes`` the holds it settles or refunds. Each hold is opened once and closed once:
    :meth:`Ledger.move` refuses anything else, and the server's database enforces the same
    with unique constraints.
    """

    transaction: Transaction
    opens: tuple[str, ...] = ()
    closes: tuple[str, ...] = ()


def movement_of(event: Event) -> Movement | None:
    """The money ``event`` moves (its :meth:`~macau_tables.core.journal.Event.movement`),
    typed. The journal does not import the ledger, so the base event's hook is typed
    ``object``; an event whose hook gives anything but a :class:`Movement` or None is a
    programming error (:class:`TypeError`)."""
    mv = event.movement()
    if mv is None or isinstance(mv, Movement):
        return mv
    raise TypeError(f"{event.kind}.movement() gave a {type(mv).__name__}, not a Movement")


class Ledger:
    """Balances of every account touched, and the transactions posted, in order."""

    __slots__ = ("_balances", "_closed", "_history", "_open")

    def __init__(self) -> None:
        self._balances: dict[tuple[str, Currency], int] = {}
        self._history: list[Transaction] = []
        self._open: set[str] = set()
        self._closed: set[str] = set()

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

    # --- holds and projection ------------------------------------------------------------

    def verify_move(self, movement: Movement) -> None:
        """Refuse a movement that reopens a hold, closes one not open, or overdraws."""
        for hold in movement.opens:
            if hold in self._open or hold in self._closed:
                raise HoldError(f"hold {hold!r} was already placed")
        for hold in movement.closes:
            if hold not in self._open and hold not in movement.opens:
                what = "already settled" if hold in self._closed else "never placed"
                raise HoldError(f"hold {hold!r} is {what}")
        self.verify_post(movement.transaction)

    def move(self, movement: Movement) -> Movement:
        """Post ``movement``'s transaction and open / close its holds, atomically."""
        self.verify_move(movement)
        self.post(movement.transaction)
        self._open.update(movement.opens)
        self._open.difference_update(movement.closes)
        self._closed.update(movement.closes)
        return movement

    @property
    def open_holds(self) -> frozenset[str]:
        """Holds placed and not yet settled or refunded."""
        return frozenset(self._open)

    @classmethod
    def project(cls, events: Iterable[Event], ledger: Ledger | None = None) -> Ledger:
        """Post the movement of every event, in order, into ``ledger`` (a new one if None).

        This is the one way money follows a game: the CLI, the tests and the server all
        project the same events. Pass a ledger whose wallets are already funded (cage →
        ``player:*``) when the events buy chips from wallets.
        """
        out = cls() if ledger is None else ledger
        for ev in events:
            mv = movement_of(ev)
            if mv is not None:
                out.move(mv)
        return out

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
