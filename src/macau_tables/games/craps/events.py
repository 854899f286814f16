"""Craps' journal events: every decision and every throw; all public but the shooters'
server seeds (committed when a shooter takes the dice, revealed when he passes them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from macau_tables.core.journal import Event, event_type
from macau_tables.core.ledger import Movement
from macau_tables.core.money import Money, currency_by_code
from macau_tables.games.contract import (
    movement,
)
from macau_tables.games.craps.bets import Result

__all__ = [
    "FIRST_SHOOTER",
    "LEAVING",
    "LEFT",
    "PASSED",
    "SEVEN_OUT",
    "TAKEN_DOWN",
    "BetIncreased",
    "BetPlaced",
    "BetSettlement",
    "BetTakenDown",
    "ChipsBought",
    "DicePassed",
    "DiceThrown",
    "PlayerJoined",
    "PlayerLeft",
    "RollSettled",
    "ThrowVoided",
]


# === Journal events =======================================================================
#
# A craps journal opens with the contract's ``table.opened`` (game, table id, rules). Every
# event is public: the dice, the bets and the layout are on the table for all to see. The one
# secret is each shooter's server seed: only its commitment is published when he takes the
# dice (``table.seed_committed``), and the seed itself when he passes them
# (``table.seed_revealed``). Events that move money carry their postings in the contract's
# account scheme and the holds (bets) they open and close.


@dataclass(frozen=True, slots=True)
class _MoneyEvent(Event):
    """An event that moves money: postings ``(account, minor units)`` and the holds (one per
    bet, ``"<table>:<bet id>"``) it opens and closes. Fields set by keyword."""

    currency: str
    postings: tuple[tuple[str, int], ...]
    opens: tuple[str, ...]
    closes: tuple[str, ...]

    def movement(self) -> Movement | None:
        if not (self.postings or self.opens or self.closes):
            return None
        return movement(
            currency_by_code(self.currency),
            self.postings,
            opens=self.opens,
            closes=self.closes,
            memo=self.kind,
        )


@event_type
class PlayerJoined(_MoneyEvent):
    """A player sits at ``seat`` with ``amount`` of chips bought from his wallet."""

    kind: ClassVar[str] = "craps.player_joined"
    player: str
    seat: int
    amount: int


@event_type
class ChipsBought(_MoneyEvent):
    """More chips for a seated player: wallet → stack."""

    kind: ClassVar[str] = "craps.chips_bought"
    player: str
    amount: int


@event_type
class PlayerLeft(_MoneyEvent):
    """A player leaves the table (his bets returned first, his seat freed): his chips go
    back to his wallet (cash-out)."""

    kind: ClassVar[str] = "craps.player_left"
    player: str
    seat: int
    amount: int


@event_type
class BetPlaced(_MoneyEvent):
    kind: ClassVar[str] = "craps.bet_placed"
    bet_id: int
    player: str
    bet: str
    amount: int
    on: int | None


@event_type
class BetIncreased(_MoneyEvent):
    kind: ClassVar[str] = "craps.bet_increased"
    bet_id: int
    player: str
    amount: int


@event_type
class BetTakenDown(_MoneyEvent):
    """Bets returned to their player's stack: taken down (CR-R6), or returned when he
    leaves (``reason="leaving"``)."""

    kind: ClassVar[str] = "craps.bet_taken_down"
    player: str
    bet_ids: tuple[int, ...]  # the bet, then any odds laid on it
    reason: str


@event_type
class DiceThrown(Event):
    """Throw number ``throw`` (void throws counted) is roll number ``roll``. ``actor`` is the
    shooter (dice from his seed) or the dealer (dice keyed in at a live table)."""

    kind: ClassVar[str] = "craps.dice_thrown"
    throw: int
    roll: int
    shooter: str
    actor: str
    dice: tuple[int, int]
    cocked: tuple[bool, bool]  # CR-R1: a face declared by the dealer


@event_type
class ThrowVoided(Event):
    kind: ClassVar[str] = "craps.throw_voided"
    throw: int
    shooter: str
    actor: str
    reason: str


@event_type
class RollSettled(_MoneyEvent):
    """What the roll did: derived from the dice, journalled so the record reads alone."""

    kind: ClassVar[str] = "craps.roll_settled"
    roll: int
    total: int
    point_before: int | None
    point_after: int | None
    points: tuple[dict[str, Any], ...]  # {"bet", "point"}: line bets that got their point
    results: tuple[dict[str, Any], ...]  # {"bet", "player", "name", "result", "stake", "won"}

    @property
    def settlements(self) -> tuple[BetSettlement, ...]:
        """The decided bets as typed records."""
        cur = currency_by_code(self.currency)
        return tuple(
            BetSettlement(
                r["bet"],
                r["player"],
                r["name"],
                Result(r["result"]),
                Money(r["stake"], cur),
                Money(r["won"], cur),
            )
            for r in self.results
        )


@event_type
class DicePassed(Event):
    """The dice go from ``player`` to ``to`` (``None``: nobody), who is shooter number
    ``shooter``. ``reason``: ``"first shooter"``, ``"seven-out"`` (CR-R7), ``"passed"``
    (the shooter passed them, or timed out) or ``"left"`` (the shooter left the table)."""

    kind: ClassVar[str] = "craps.dice_passed"
    player: str | None
    to: str | None
    seat: int | None
    shooter: int
    reason: str


@dataclass(frozen=True)
class BetSettlement:
    """One bet decided by a roll: its result, stake and winnings (zero unless it won)."""

    bet_id: int
    player: str
    name: str
    result: Result
    stake: Money
    won: Money

    @property
    def paid(self) -> Money:
        """What goes back to the player: stake and winnings on a win, the stake on a push."""
        if self.result is Result.WIN:
            return self.stake + self.won
        return self.stake if self.result is Result.PUSH else Money.zero(self.stake.currency)


#: Reasons of :class:`BetTakenDown` and :class:`DicePassed`.
TAKEN_DOWN, LEAVING = "taken down", "leaving"
FIRST_SHOOTER, SEVEN_OUT, PASSED, LEFT = "first shooter", "seven-out", "passed", "left"
