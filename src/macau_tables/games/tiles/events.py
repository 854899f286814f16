"""A tile table's journal events: the seats and chips, the bank, the woodpile, the bets, the
dice and the deal, the settings and the settlement. A seat's tiles are dealt face down,
private to its holder; the settlement turns every hand up (PG-8.3, TW-6b).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from macau_tables.core import snapshot
from macau_tables.core.journal import Event, event_type
from macau_tables.core.ledger import Movement
from macau_tables.core.money import currency_by_code
from macau_tables.core.visibility import Audience
from macau_tables.games import contract, kernel
from macau_tables.games.contract import (
    accounts,
)
from macau_tables.games.tiles.rounds import (
    HOUSE,
)
from macau_tables.games.tiles.rules import RESERVED, BetOutcome, SettledBet

__all__ = [
    "BankDeclined",
    "BankOpened",
    "BetPlaced",
    "ChipsBought",
    "ChipsCashed",
    "CoBankJoined",
    "DiceShaken",
    "HandsKeyed",
    "PlayerLeft",
    "PlayerSat",
    "RoundSettled",
    "StacksRearranged",
    "TilesDealt",
    "TilesExposed",
    "TilesSet",
    "WoodpileBuilt",
    "WoodpileEnded",
]


#: this module was part of ``macau_tables.games.tiletable``: its classes keep the names its
#: snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")


# --- events ----------------------------------------------------------------------------------


def _mv(currency: str, postings: Sequence[tuple[str, int]], **kw: Any) -> Movement:
    return contract.movement(currency_by_code(currency), postings, **kw)


@event_type
class PlayerSat(Event):
    """A player takes a seat at the table (TW-3a: 8 or 4 places)."""

    kind: ClassVar[str] = "tiletable.player_sat"
    player: str
    seat: int


@event_type
class PlayerLeft(Event):
    """A player leaves his seat (never with a bet or capital in play: PG-4.7, TW-2g)."""

    kind: ClassVar[str] = "tiletable.player_left"
    player: str
    seat: int


@event_type
class ChipsBought(kernel.ChipsBought):
    """Chips from the player's wallet to his stack at the table (private: his money)."""

    kind: ClassVar[str] = "tiletable.chips_bought"
    MEMO: ClassVar[str] = "buys in"


@event_type
class ChipsCashed(kernel.ChipsCashed):
    """Chips from the player's stack back to his wallet (private: his money)."""

    kind: ClassVar[str] = "tiletable.chips_cashed"


@event_type
class BankDeclined(Event):
    """PG-4.3 / TW-5b / PG-R6: the seat whose turn it is declines (or a banker passes on)."""

    kind: ClassVar[str] = "tiletable.bank_declined"
    player: str
    seat: int


@event_type
class BankOpened(Event):
    """PG-4.4 / TW-5c: a round opens — the banker's capital (and the house's co-bank,
    PG-3.1 / TW-5e) put on the table. ``banker`` is ``"house"`` when the house banks."""

    kind: ClassVar[str] = "tiletable.bank_opened"
    table_id: str
    round_no: int
    banker: str
    seat: int
    capital: int
    house_capital: int
    currency: str
    holds: tuple[str, ...]  # banker's hold, then the house's (when it co-banks)

    def movement(self) -> Movement:
        posts: list[tuple[str, int]] = []
        src = (
            accounts.house(self.table_id)
            if self.banker == HOUSE
            else accounts.stack(self.table_id, self.banker)
        )
        posts += [(src, -self.capital), (accounts.bank(self.table_id), self.capital)]
        if self.house_capital:
            posts += [
                (accounts.house(self.table_id), -self.house_capital),
                (accounts.bank(self.table_id), self.house_capital),
            ]
        return _mv(self.currency, posts, opens=self.holds, memo=f"round {self.round_no} bank")


@event_type
class CoBankJoined(Event):
    """PG-3.2 / TW-5e: a player joins the bank with capital, after the banker."""

    kind: ClassVar[str] = "tiletable.cobank_joined"
    table_id: str
    hold: str
    player: str
    capital: int
    currency: str

    def movement(self) -> Movement:
        bank, memo = accounts.bank(self.table_id), f"{self.player} co-banks"
        return kernel.staked(
            self.currency, self.table_id, self.player, bank, self.capital, self.hold, memo
        )


@event_type
class BetPlaced(Event):
    """PG-4.6 / TW-2g: a bet on a seat, before the dice (``bet_id`` is its hold)."""

    kind: ClassVar[str] = "tiletable.bet_placed"
    table_id: str
    bet_id: str
    player: str
    seat: int
    amount: int
    currency: str

    def movement(self) -> Movement:
        wagers, memo = accounts.wagers(self.table_id), f"{self.player} bets on seat {self.seat}"
        return kernel.staked(
            self.currency, self.table_id, self.player, wagers, self.amount, self.bet_id, memo
        )


@event_type
class StacksRearranged(Event):
    """PG-2.1 / PG-R2 / TW-2f: an order of the face-down stacks, before the dice (public:
    the stacks move on the table; what they hold stays hidden)."""

    kind: ClassVar[str] = "tiletable.stacks_rearranged"
    player: str
    order: tuple[int, ...]


@event_type
class DiceShaken(Event):
    """PG-1.2 / TW-2b: the banker's four dice (public). ``keyed`` when a live table keyed
    them in; otherwise they derive from the woodpile's seed. ``valid`` False: a cocked die
    or one out of the shaker, shaken again (PG-1.5, TW-2e)."""

    kind: ClassVar[str] = "tiletable.dice_shaken"
    player: str
    dice: tuple[int, ...]
    valid: bool
    keyed: bool


@event_type
class TilesDealt(Event):
    """PG-1.4 / TW-2c: a seat's four tiles, face down — private to the seat's holder (the
    banker for the banker's seat) and the staff; ``holder`` is "" for a seat nobody holds."""

    kind: ClassVar[str] = "tiletable.tiles_dealt"
    seat: int
    holder: str
    tiles: tuple[str, ...]

    def audience(self) -> Audience:
        if self.holder and self.holder not in RESERVED:
            return Audience.private(self.holder)
        return Audience.STAFF


@event_type
class WoodpileBuilt(Event):
    """PG-1.1 / TW-2a at a live table: the dealer built a physical woodpile, face down, that
    the system never knows; the tiles are keyed in as dealt (:class:`HandsKeyed`). No
    server seed: nothing is committed or revealed (public)."""

    kind: ClassVar[str] = "tiletable.woodpile_built"
    label: str
    by: str


@event_type
class HandsKeyed(Event):
    """PG-1.4 / TW-2c at a live table: the four tiles each seat received from the physical
    woodpile, keyed in by the dealer with the banker's ``dice`` (PG-1.2); T-1 bounds them
    (no tile more often than the 32-tile set has it). Staff only: a seat's tiles reach its
    holder in its ``TilesDealt``."""

    kind: ClassVar[str] = "tiletable.hands_keyed"
    label: str
    dice: tuple[int, ...]
    hands: dict[str, tuple[str, ...]]
    by: str

    def audience(self) -> Audience:
        return Audience.STAFF


@event_type
class WoodpileEnded(Event):
    """A physical woodpile is used up (or its deal void, PG-R3): the next round builds a new
    one — the keyed-in counterpart of ``SeedRevealed`` (public)."""

    kind: ClassVar[str] = "tiletable.woodpile_ended"
    label: str


@event_type
class TilesExposed(Event):
    """PG-2.2 / PG-2.3 / PG-R3 / TW-4: tiles turned face up in the deal (public)."""

    kind: ClassVar[str] = "tiletable.tiles_exposed"
    seat: int
    tiles: tuple[str, ...]


@event_type
class TilesSet(Event):
    """PG-5.1 / TW-6a: a seat's four tiles split by its holder (the banker's by PG-3.4's
    authority), face down: private to the setter and the staff until the settlement."""

    kind: ClassVar[str] = "tiletable.tiles_set"
    player: str
    seat: int
    front: tuple[str, ...]
    back: tuple[str, ...]

    def audience(self) -> Audience:
        if self.player in RESERVED:
            return Audience.STAFF
        return Audience.private(self.player)


@event_type
class RoundSettled(Event):
    """PG-6 / PG-8.3 / TW-6b / TW-6c: every hand turned up and compared, every bet settled
    (PG-R4, PG-R5 / TW-R3), every hold of the round closed.

    ``hands`` and ``settings`` are public now; ``resets`` lists the TW-6b re-sets with the
    setting before and after; ``postings`` are in the table's account scheme.
    """

    kind: ClassVar[str] = "tiletable.round_settled"
    table_id: str
    round_no: int
    currency: str
    hands: tuple[tuple[int, tuple[str, ...]], ...]
    settings: tuple[tuple[int, tuple[str, ...], tuple[str, ...]], ...]
    resets: tuple[dict[str, Any], ...]
    results: tuple[dict[str, Any], ...]
    bank_shares: tuple[tuple[str, int], ...]
    commissions: tuple[tuple[str, int], ...]
    compensation: tuple[dict[str, Any], ...]
    postings: tuple[tuple[str, int], ...]
    closes: tuple[str, ...]

    def movement(self) -> Movement:
        return _mv(
            self.currency,
            self.postings,
            closes=self.closes,
            memo=f"round {self.round_no} settled",
        )

    def bets(self) -> tuple[SettledBet, ...]:
        """The results as typed records."""
        return tuple(
            SettledBet(
                bet_id=str(r["bet_id"]),
                player=str(r["player"]),
                seat=int(r["seat"]),
                amount=int(r["amount"]),
                outcome=BetOutcome(r["outcome"]),
                action=int(r["action"]),
                net=int(r["net"]),
                commission=int(r["commission"]),
                seat_result=str(r["seat_result"]),
            )
            for r in self.results
        )
