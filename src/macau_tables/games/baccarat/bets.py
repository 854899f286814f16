"""The baccarat layout by the rules, as pure functions of the table's bets: BA-11 leaving
with bets, BA-12 the bets left on after a tie (BA-R2), BA-13 each bet's limits (BA-18 the
Banker's multiples), BA-14 the Banker/Player differential, BA-15 the spots, BA-16 who
squeezes a side's cards.

A bet on the layout is a :class:`~macau_tables.games.baccarat.hand.Bet`: one stake (a hold)
of a player on one bet at one spot; a player's stakes at a spot add up to his bet there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from macau_tables.core.errors import BetNotAllowed, InvalidInput, OutOfOrder, RuleViolation
from macau_tables.core.money import Currency, Money
from macau_tables.games.baccarat.hand import Bet, Hand
from macau_tables.games.baccarat.rules import BaccaratBetKind, BaccaratRules, Side, TieChoice

__all__ = [
    "HoldIndex",
    "check_added",
    "check_amount",
    "check_change",
    "check_differential",
    "check_leave",
    "check_spot",
    "check_tie_change",
    "differential",
    "merged",
    "side_kind",
    "signed",
    "squeeze_holders",
]


def merged(holds: Iterable[Bet]) -> list[Bet]:
    """The layout: one entry per player, bet and spot (its stakes added up; the first
    stake's hold id and carried flag)."""
    out: dict[tuple[str, BaccaratBetKind, int], Bet] = {}
    for b in holds:
        key = (b.player, b.kind, b.spot)
        old = out.get(key)
        out[key] = (
            b
            if old is None
            else Bet(b.player, b.kind, old.amount + b.amount, b.spot, old.carried, old.id)
        )
    return list(out.values())


def signed(kind: BaccaratBetKind, minor: int) -> int:
    """A stake's part in the BA-14 differential: Banker counts up, Player down, the other
    bets not at all."""
    if kind is BaccaratBetKind.BANKER:
        return minor
    if kind is BaccaratBetKind.PLAYER:
        return -minor
    return 0


class HoldIndex:
    """The holds on the layout (``BaccaratTable.holds``, in the order placed) looked up the
    way a bet needs them, so that a bet costs the same on an empty layout and on a full one:
    each player's stakes by bet and spot (BA-12, BA-13) and the Banker minus Player total
    kept as a running figure (BA-14).

    Derived data, never in a snapshot: built from the holds, then kept in step with them by
    :meth:`add` and :meth:`remove`, which ``apply`` calls beside each change; a table that
    puts another list in their place (a hand settled or voided, a player gone, a correction,
    a snapshot restored) gets an index of it at its next use (``_holds_ix``)."""

    __slots__ = ("fresh", "holds", "net", "size", "spots", "totals")

    def __init__(self, holds: list[Bet]) -> None:
        self.holds = holds
        self.size = 0  # the holds indexed
        self.net = 0  # BA-14: Banker stakes minus Player stakes, minor units
        self.spots: dict[tuple[str, BaccaratBetKind, int], list[Bet]] = {}
        self.totals: dict[tuple[str, BaccaratBetKind, int], int] = {}  # a spot's stakes, minor
        self.fresh: dict[tuple[str, BaccaratBetKind, int], int] = {}  # its stakes not carried
        for b in holds:
            self.add(b)

    def of(self, holds: list[Bet]) -> bool:
        """Whether this is the index of ``holds`` (its size a check that nothing changed
        the list behind the index's back)."""
        return self.holds is holds and self.size == len(holds)

    def add(self, b: Bet) -> None:
        self.size += 1
        self.net += signed(b.kind, b.amount.minor)
        key = (b.player, b.kind, b.spot)
        self.spots.setdefault(key, []).append(b)
        self.totals[key] = self.totals.get(key, 0) + b.amount.minor
        self.fresh[key] = self.fresh.get(key, 0) + (not b.carried)

    def remove(self, b: Bet) -> None:
        self.size -= 1
        self.net -= signed(b.kind, b.amount.minor)
        key = (b.player, b.kind, b.spot)
        left = [x for x in self.spots[key] if x.id != b.id]
        if left:
            self.spots[key] = left
            self.totals[key] -= b.amount.minor
            self.fresh[key] -= not b.carried
        else:
            del self.spots[key], self.totals[key], self.fresh[key]

    def at(self, player: str, kind: BaccaratBetKind, spot: int) -> list[Bet]:
        """The stakes of ``player`` on ``kind`` at ``spot``, in the order placed."""
        return list(self.spots.get((player, kind, spot), ()))

    def stake(self, player: str, kind: BaccaratBetKind, spot: int) -> int:
        """``player``'s ``kind`` bet at ``spot``: its stakes' sum, minor units."""
        return self.totals.get((player, kind, spot), 0)

    def carried(self, player: str, kind: BaccaratBetKind, spot: int) -> bool:
        """Whether ``player``'s ``kind`` bet at ``spot`` is all left on after a tie (BA-12)."""
        key = (player, kind, spot)
        return key in self.spots and self.fresh[key] == 0


def check_spot(
    rules: BaccaratRules, seats: Mapping[str, int | None], player: str, spot: int
) -> None:
    """BA-15: standing players may not bet on the spots reserved for seated players
    (read: a seat's spot is its seated player's alone)."""
    last = rules.seats + rules.standing_spots
    if isinstance(spot, bool) or not isinstance(spot, int) or not 1 <= spot <= last:
        raise InvalidInput(f"spot {spot}: the layout has spots 1–{last}")
    if spot <= rules.seats and seats[player] != spot:
        who = "a standing player" if seats[player] is None else "another seat's player"
        raise BetNotAllowed(
            f"spot {spot} is reserved for its seated player, not {who}", rule="BA-15"
        )


def check_amount(rules: BaccaratRules, kind: BaccaratBetKind, amount: Money) -> None:
    """BA-13 the table's limit for each bet; BA-18 house note (BA-R5 option): Banker bets
    in multiples of the minimum."""
    lim = rules.limit(kind)
    if amount.currency != rules.currency:
        raise InvalidInput(f"{amount} is not in {rules.currency}")
    if not lim.minimum <= amount <= lim.maximum:
        raise BetNotAllowed(
            f"{kind} bets from {lim.minimum} to {lim.maximum}, not {amount}", rule="BA-13"
        )
    if (
        kind is BaccaratBetKind.BANKER
        and rules.banker_multiples_of_minimum
        and amount.minor % lim.minimum.minor
    ):
        raise BetNotAllowed(f"Banker bets in multiples of the minimum {lim.minimum}", rule="BA-18")


def differential(bets: Iterable[Bet], currency: Currency) -> Money:
    """BA-14: total Banker stakes minus total Player stakes, in absolute value."""
    return Money(abs(sum(signed(b.kind, b.amount.minor) for b in bets)), currency)


def check_differential(rules: BaccaratRules, net: int) -> None:
    """BA-14: unequal Banker and Player stakes are accepted up to the table's limit (``net``:
    the Banker stakes minus the Player stakes the layout would hold, minor units)."""
    limit = rules.differential_limit
    if limit is not None and (diff := Money(abs(net), rules.currency)) > limit:
        raise BetNotAllowed(
            f"the Banker/Player difference would be {diff}, over the table's {limit}",
            rule="BA-14",
        )


def check_tie_change(
    rules: BaccaratRules,
    kind: BaccaratBetKind,
    to_kind: BaccaratBetKind,
    before: Money,
    amount: Money,
) -> None:
    """BA-12 / BA-R2: after a tie, the house's alternatives for the bets left on."""
    choices = rules.tie_choices
    if amount.is_zero():
        if TieChoice.WITHDRAW not in choices:
            raise BetNotAllowed("after a tie these bets may not be withdrawn here", rule="BA-R2")
        return
    if TieChoice.CHANGE in choices:
        return  # BA-12 (3): reduced or not, or moved Player ↔ Banker
    if TieChoice.INCREASE in choices and to_kind is kind and amount >= before:
        return  # SJM: only increased (BA-18 house note)
    raise BetNotAllowed(
        "after a tie these bets may only be "
        + " or ".join(sorted(str(c) for c in choices))
        + " here",
        rule="BA-R2",
    )


def check_added(
    rules: BaccaratRules,
    holds: HoldIndex,
    player: str,
    kind: BaccaratBetKind,
    amount: Money,
    spot: int,
) -> None:
    """A stake of ``amount`` added to ``player``'s ``kind`` bet at ``spot``: the bet it makes
    within its limits (BA-13, BA-18), the differential after it (BA-14), and a bet left on
    after a tie only as the house lets it change (BA-12 / BA-R2)."""
    before = Money(holds.stake(player, kind, spot), rules.currency)
    if holds.carried(player, kind, spot):
        check_tie_change(rules, kind, kind, before, before + amount)
    check_amount(rules, kind, before + amount)
    check_differential(rules, holds.net + signed(kind, amount.minor))


def check_change(
    rules: BaccaratRules,
    holds: HoldIndex,
    player: str,
    kind: BaccaratBetKind,
    amount: Money,
    to: BaccaratBetKind,
    spot: int,
) -> Money:
    """``player``'s ``kind`` bet at ``spot`` set to ``amount`` (zero: taken down), moved to
    ``to`` (only between Player and Banker, BA-12): its limits (BA-13), the differential
    (BA-14), a bet left on after a tie as the house lets it change (BA-R2). The stake the
    bet had."""
    if (player, kind, spot) not in holds.spots:
        raise InvalidInput(f"you have no {kind} bet on spot {spot}")
    before = Money(holds.stake(player, kind, spot), rules.currency)
    if to is not kind and (
        {kind, to} != {BaccaratBetKind.PLAYER, BaccaratBetKind.BANKER}
        or (player, to, spot) in holds.spots
    ):
        raise BetNotAllowed(f"a {kind} bet cannot move to {to} here", rule="BA-12")
    if not isinstance(amount, Money) or amount.is_negative():
        raise InvalidInput(f"a bet cannot be negative: {amount}")
    if holds.carried(player, kind, spot):
        check_tie_change(rules, kind, to, before, amount)
    if not amount.is_zero():
        check_amount(rules, to, amount)
        net = holds.net - signed(kind, before.minor) + signed(to, amount.minor)
        check_differential(rules, net)
    return before


def check_leave(rules: BaccaratRules, hand: Hand | None, holds: Iterable[Bet], player: str) -> None:
    """A player leaves unless he holds cards (BA-16) or has bets in the hand being dealt
    (BA-11); his bets not yet dealt on are returned, but a bet left on after a tie only where
    the table lets it be withdrawn (BA-12 / BA-R2)."""
    mine = [b for b in holds if b.player == player]
    if hand is not None:
        if player in hand.holders.values():
            raise RuleViolation(
                "you hold the cards of this hand and may not leave the table", rule="BA-16"
            )
        if mine and not hand.demonstration:
            raise OutOfOrder(
                "your bets are in play in this hand: you may leave once it is settled",
                rule="BA-11",
            )
    if any(b.carried for b in mine) and TieChoice.WITHDRAW not in rules.tie_choices:
        raise BetNotAllowed(
            "your bet left on after the tie may not be withdrawn at this table: "
            "it stays for the next hand",
            rule="BA-R2",
        )


def side_kind(side: Side) -> BaccaratBetKind:
    """The bet on a side (BA-6, BA-13)."""
    return BaccaratBetKind.PLAYER if side is Side.PLAYER else BaccaratBetKind.BANKER


def squeeze_holders(
    rules: BaccaratRules, layout: Iterable[Bet], seats: Mapping[str, int | None]
) -> dict[Side, str | None]:
    """BA-16: the seated player with the largest bet on a side handles that side's cards
    (BA-R6; equal bets: the lower seat). None: the dealer opens them."""
    holders: dict[Side, str | None] = {Side.PLAYER: None, Side.BANKER: None}
    if not rules.squeeze or rules.continuous_shuffler:  # BA-7.2 face up
        return holders
    bets = list(layout)
    for side in Side:
        best: tuple[int, int] | None = None
        for b in bets:
            seat = seats.get(b.player)
            if b.kind is side_kind(side) and seat is not None and b.spot == seat:
                key = (-b.amount.minor, seat)
                if best is None or key < best:
                    best, holders[side] = key, b.player
    return holders
