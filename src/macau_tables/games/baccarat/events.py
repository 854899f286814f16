"""Baccarat's journal events: every decision and every chance result; a hidden order never
appears (a card dealt face down is in no event until it is revealed).
"""

from __future__ import annotations

from typing import Any, ClassVar

from macau_tables.core.journal import (
    Event,
    event_type,
)
from macau_tables.core.ledger import Movement
from macau_tables.core.visibility import Audience
from macau_tables.games import contract, kernel
from macau_tables.games.baccarat.hand import BetResult, BetSettlement
from macau_tables.games.contract import (
    Actor,
    accounts,
)
from macau_tables.games.kernel import journal_currency

__all__ = [
    "BetChanged",
    "BetPlaced",
    "CardExposed",
    "CardsBurned",
    "CardsDealt",
    "CardsKeyed",
    "CardsRevealed",
    "ChipsBought",
    "CutCardPlaced",
    "DealingErrorCorrected",
    "HandSettled",
    "HandVoided",
    "PlayerJoined",
    "PlayerLeft",
    "ShoeEnded",
    "ShoeLoaded",
    "ShoeOpened",
    "ShoeShuffled",
    "ThirdCardDealt",
    "voided",
]


# ==========================================================================================
# Events (every decision and every chance result; hidden orders never appear)
# ==========================================================================================


@event_type
class PlayerJoined(kernel.Private, Event):
    """A player sits at ``seat`` (None: standing, BA-15) with ``buy_in`` chips bought from
    their wallet. Private to the player (and the staff): nobody else sees the amount."""

    kind: ClassVar[str] = "baccarat.player_joined"
    table_id: str
    player: str
    seat: int | None
    buy_in: int
    currency: str

    def movement(self) -> Movement | None:
        return kernel.buys_in(self.currency, self.table_id, self.player, self.buy_in, "buys in")


@event_type
class ChipsBought(kernel.ChipsBought):
    """More chips from the player's wallet (private to the player)."""

    kind: ClassVar[str] = "baccarat.chips_bought"


@event_type
class PlayerLeft(kernel.Private, Event):
    """A player leaves: the bets ``returned`` (not yet dealt on) come back to the stack,
    and the whole stack, ``cash_out``, goes to the wallet (private to the player)."""

    kind: ClassVar[str] = "baccarat.player_left"
    table_id: str
    player: str
    returned: tuple[str, ...]
    returned_amount: int
    cash_out: int
    currency: str

    def movement(self) -> Movement | None:
        stack = accounts.stack(self.table_id, self.player)
        return contract.movement(
            journal_currency(self.currency),
            [
                (accounts.wagers(self.table_id), -self.returned_amount),
                (stack, self.returned_amount - self.cash_out),
                (accounts.wallet(self.player), self.cash_out),
            ],
            closes=self.returned,
            memo=f"{self.player} cashes out",
        )


@event_type
class ShoeShuffled(Event):
    """BA-2.1 the shuffle; BA-3.1 the reshuffle after the last hand; BA-3.2 a new shoe.

    The order is not here: ``commitment`` is the SHA-256 of the server seed the order comes
    from (a ``SeedCommitted`` follows), revealed when the shoe ends. With a continuous
    shuffler (BA-2.3) the seed drives the machine's draws.
    """

    kind: ClassVar[str] = "baccarat.shoe_shuffled"
    shoe: int
    reason: str  # "BA-2.1" first shoe, "BA-3.1" after the last hand, "BA-3.2" changed
    new_set: bool  # BA-3.1: damaged cards, a new set
    by: str
    commitment: str


@event_type
class ShoeLoaded(Event):
    """A shoe shuffled elsewhere, keyed in card by card (tests, a physical shoe's record):
    staff only — the order is never public."""

    kind: ClassVar[str] = "baccarat.shoe_loaded"
    shoe: int
    reason: str
    new_set: bool
    by: str
    cards: tuple[str, ...]

    def audience(self) -> Audience:
        return Audience.STAFF


@event_type
class ShoeOpened(Event):
    """BA-1 / BA-2.1 at a live table: a physical shoe of the table's decks, shuffled at the
    table and unknown to the system; its cards are keyed in as they leave it
    (:class:`CardsKeyed`). No server seed: nothing is committed or revealed."""

    kind: ClassVar[str] = "baccarat.shoe_opened"
    shoe: int
    reason: str
    new_set: bool
    by: str


@event_type
class CardsKeyed(Event):
    """Cards of a physical shoe keyed in by the dealer as they leave it, at shoe positions
    ``position`` onwards, by the operation ``op`` with ``args`` (the deal's four cards, a
    third card, an exposed card, the first card turned at the cut). BA-1 bounds them (no card
    the shoe's decks cannot hold). Staff only: a card dealt face down becomes public when it
    is revealed (BA-16)."""

    kind: ClassVar[str] = "baccarat.cards_keyed"
    op: str
    args: dict[str, Any]
    position: int
    cards: tuple[str, ...]
    by: str

    def audience(self) -> Audience:
        return Audience.STAFF


@event_type
class ShoeEnded(Event):
    """BA-3.1 the last hand is over (the cards are reshuffled), or BA-3.2 the casino
    changes the shoe after a hand. The seed is revealed next (``SeedRevealed``)."""

    kind: ClassVar[str] = "baccarat.shoe_ended"
    shoe: int
    reason: str
    by: str


@event_type
class CutCardPlaced(Event):
    kind: ClassVar[str] = "baccarat.cut_card_placed"
    from_end: int
    by: str


@event_type
class CardsBurned(Event):
    """Cards burned face down: ``count`` of them; ``shown`` is the first card turned face
    up when BA-2.1's second method sets the count (BA-R1 ``first_card``), or the card a
    BA-4 exposure made public before its hand (burned under BA-8)."""

    kind: ClassVar[str] = "baccarat.cards_burned"
    count: int
    rule: str  # "BA-2.1" at the start of the shoe, "BA-8" before a hand
    shown: str | None
    by: str


@event_type
class BetPlaced(Event):
    """BA-13: a stake from the player's chips onto the layout (hold ``bet_id``)."""

    kind: ClassVar[str] = "baccarat.bet_placed"
    table_id: str
    bet_id: str
    player: str
    bet: str
    amount: int
    spot: int
    currency: str

    def movement(self) -> Movement | None:
        wagers, memo = accounts.wagers(self.table_id), f"bet {self.bet_id}"
        return kernel.staked(
            self.currency, self.table_id, self.player, wagers, self.amount, self.bet_id, memo
        )


@event_type
class BetChanged(Event):
    """A player's bet at a spot changed before the deal: the holds ``closes`` (the stakes
    there, ``old_amount`` in all) are replaced by one hold ``bet_id`` of ``amount`` on
    ``to_bet`` (``amount`` 0, ``bet_id`` None: taken down). BA-12 / BA-R2 after a tie."""

    kind: ClassVar[str] = "baccarat.bet_changed"
    table_id: str
    player: str
    bet: str
    spot: int
    to_bet: str
    amount: int
    old_amount: int
    closes: tuple[str, ...]
    bet_id: str | None
    rule: str
    currency: str

    def movement(self) -> Movement | None:
        return contract.movement(
            journal_currency(self.currency),
            [
                (accounts.wagers(self.table_id), self.amount - self.old_amount),
                (accounts.stack(self.table_id, self.player), self.old_amount - self.amount),
            ],
            opens=() if self.bet_id is None else (self.bet_id,),
            closes=self.closes,
            memo=f"bet change {self.player} spot {self.spot}",
        )


@event_type
class CardsDealt(Event):
    """BA-7.1: Player, Banker, Player, Banker, one at a time. Face down (``cards`` empty):
    nobody sees them until they are revealed; face up with a continuous shuffler (BA-7.2).
    ``holders``: who squeezes each side (BA-16), None for the dealer."""

    kind: ClassVar[str] = "baccarat.cards_dealt"
    hand: int
    demonstration: bool
    holders: dict[str, str | None]
    cut_card_out: bool  # BA-3.1: the cut card came out in this deal
    cards: tuple[str, ...]  # face up only (BA-7.2)
    by: str


@event_type
class CardsRevealed(Event):
    """BA-7.1 / BA-16 / BA-R6: the holder (or the dealer) opens a side's face-down cards;
    a third card on its own."""

    kind: ClassVar[str] = "baccarat.cards_revealed"
    side: str
    by: str
    cards: tuple[str, ...]


@event_type
class ThirdCardDealt(Event):
    """BA-9: a side's third card, face down to a holder (``card`` None until revealed) or
    face up (the dealer's, or a card already exposed, BA-4)."""

    kind: ClassVar[str] = "baccarat.third_card_dealt"
    side: str
    card: str | None
    rule: str  # "BA-9.1" or "BA-9.3"
    cut_card_out: bool


@event_type
class CardExposed(Event):
    """BA-4: the next card of the shoe came out face up by accident (now public)."""

    kind: ClassVar[str] = "baccarat.card_exposed"
    card: str
    by: str


@event_type
class DealingErrorCorrected(Event):
    """BA-10: a dealing error (or a third card drawn against the rules) corrected at once,
    as the dealer describes it; the hand goes on as the rules deal it."""

    kind: ClassVar[str] = "baccarat.dealing_error_corrected"
    description: str
    by: str


@event_type
class HandVoided(Event):
    """BA-10 / BA-R3: the hand is void, every bet returned (``returned``), the cards dealt
    discarded (the face-down ones unseen)."""

    kind: ClassVar[str] = "baccarat.hand_voided"
    table_id: str
    hand: int
    reason: str
    returned: tuple[dict[str, Any], ...]  # {"bet_id", "player", "stake"}
    by: str
    currency: str

    def movement(self) -> Movement | None:
        rows = [(str(r["player"]), int(r["stake"])) for r in self.returned]
        return contract.movement(
            journal_currency(self.currency),
            [(accounts.wagers(self.table_id), -sum(a for _, a in rows))]
            + [(accounts.stack(self.table_id, p), a) for p, a in rows],
            closes=tuple(str(r["bet_id"]) for r in self.returned),
            memo=f"hand {self.hand} void (BA-R3)",
        )


@event_type
class HandSettled(Event):
    """BA-11 / BA-12 the result; one row per bet (:class:`BetSettlement`): BA-17 payouts,
    BA-18 commission. A pushed bet stays on the layout (its hold stays open)."""

    kind: ClassVar[str] = "baccarat.hand_settled"
    table_id: str
    hand: int
    outcome: str
    player_total: int
    banker_total: int
    results: tuple[dict[str, Any], ...]
    shoe_over: bool  # BA-3.1
    currency: str

    def settlements(self) -> tuple[BetSettlement, ...]:
        """The rows, typed."""
        return tuple(BetSettlement.from_json(r) for r in self.results)

    def movement(self) -> Movement | None:
        t = self.table_id
        wagers, house, com = accounts.wagers(t), accounts.house(t), accounts.commission(t)
        pairs: list[tuple[str, int]] = []
        closes: list[str] = []
        for s in self.settlements():
            stack = accounts.stack(t, s.player)
            if s.result is BetResult.PUSH:
                continue
            closes.append(s.bet_id)
            if s.result is BetResult.WIN:
                pairs += [
                    (wagers, -s.stake),
                    (house, -s.won),
                    (com, s.commission),
                    (stack, s.stake + s.won - s.commission),
                ]
            elif s.result is BetResult.LOSE:
                pairs += [(wagers, -s.stake), (house, s.stake)]
            else:
                pairs += [(wagers, -s.stake), (stack, s.stake)]
        return contract.movement(
            journal_currency(self.currency),
            pairs,
            closes=closes,
            memo=f"hand {self.hand} settled",
        )


def voided(settled: HandSettled, reason: str, approved_by: str) -> HandVoided:
    """A settled hand's void (BA-R3), as a supervisor's void turns it: every bet of the
    hand returned, its cards discarded as they were."""
    returned = tuple(
        {"bet_id": s.bet_id, "player": s.player, "stake": s.stake} for s in settled.settlements()
    )
    return HandVoided(
        settled.table_id,
        settled.hand,
        reason,
        returned,
        str(Actor.supervisor(approved_by)),
        settled.currency,
    )
