"""The baccarat table (:class:`BaccaratTable`): seats and chips, the shoe (BA-2, BA-3, BA-8),
bets (BA-12 … BA-15), the deal (BA-7, BA-9, BA-16) and the settlement (BA-11 … BA-18).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    OutOfOrder,
    RuleViolation,
)
from macau_tables.core.journal import (
    Event,
    JsonValue,
)
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games import contract
from macau_tables.games.baccarat import bets as layout
from macau_tables.games.baccarat import dealing, history, views
from macau_tables.games.baccarat.cards import (
    Card,
    Composition,
    check_keyed,
    full_set,
    parse_cards,
    unseen,
)
from macau_tables.games.baccarat.events import (
    BetChanged,
    BetPlaced,
    CardExposed,
    CardsBurned,
    CardsKeyed,
    ChipsBought,
    CutCardPlaced,
    DealingErrorCorrected,
    HandSettled,
    HandVoided,
    PlayerJoined,
    PlayerLeft,
    ShoeLoaded,
    ShoeOpened,
    ShoeShuffled,
    voided,
)
from macau_tables.games.baccarat.hand import (
    Bet,
    HandResult,
    holder_due,
)
from macau_tables.games.baccarat.roads import Roads
from macau_tables.games.baccarat.rules import (
    GAME,
    BaccaratBetKind,
    BaccaratPhase,
    BaccaratRules,
    BurnMode,
    Side,
    check_cut,
    with_limits,
)
from macau_tables.games.baccarat.state import BaccaratState
from macau_tables.games.contract import (
    Actor,
    Command,
    Pending,
    Role,
)
from macau_tables.games.kernel import (
    AMOUNT,
    FLAG,
    HEX,
    TEXT,
    WHOLE,
    Alias,
    Arg,
    NewLimits,
    Table,
    can,
    operation,
    optional,
    parsed,
    parsed_list,
    supervisor_reason,
)

__all__ = [
    "DEALER",
    "SERVER_SEED_BYTES",
    "SYSTEM",
    "BaccaratTable",
]


# ==========================================================================================
# The table
# ==========================================================================================

SERVER_SEED_BYTES = 32
SYSTEM = str(Actor.SYSTEM)
DEALER = str(Actor.DEALER)


def _side(text: str) -> Side:
    try:
        return Side(text)
    except ValueError:
        raise InvalidInput("reveal: side is 'player' or 'banker'") from None


#: the roles that deal: the dealer, and the table itself (auto-dealing, time-outs)
_DEALERS = (Role.DEALER, Role.SYSTEM)
_BET = parsed(BaccaratBetKind.parse, "a bet's name (player, banker, tie, …)")
_SIDE = parsed(_side, "'player' or 'banker'")


def _as_player(who: str | Actor) -> Actor:
    return who if isinstance(who, Actor) else Actor.player(who)


def _is_dealer(actor: Actor) -> bool:
    return actor.role in (Role.DEALER, Role.SYSTEM)


class BaccaratTable(BaccaratState):
    """One baccarat table over shoes: players and their chips, bets, hands, and its journal.

    Drive it with :meth:`execute` (a :class:`~macau_tables.games.contract.Command`) or the
    operations themselves (``place_bet``, ``deal``, ``reveal`` …); both return the events
    appended. ``seeds`` are server seeds the table may use (keyed by their commitment), for
    replaying a journal whose shoes are not yet revealed. The kernel
    (:class:`~macau_tables.games.kernel.Table`) holds what every table shares.
    """

    game: ClassVar[str] = GAME
    RULES = BaccaratRules
    rules: BaccaratRules
    ROUND: ClassVar[str] = "hand"
    #: the names these acts had at a baccarat table (clients, and journals' corrections)
    ALIASES: ClassVar[Sequence[Alias]] = (
        Alias("join", "sit", {"buy_in": "amount"}),
        Alias("buy_chips", "buy_in"),
    )
    #: a snapshot writes the limits waiting for the next hand as ``next_limits``
    SNAPSHOT_NAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"_next_limits": "next_limits"})

    def __init__(
        self,
        rules: BaccaratRules | None = None,
        *,
        table_id: str = "baccarat-1",
        header: Mapping[str, Any] | None = None,
        seeds: Mapping[str, bytes] | None = None,
    ) -> None:
        super().__init__(
            rules or BaccaratRules(), table_id, journal_game=GAME, header=header, seeds=seeds
        )
        self._init_state()
        self._open()

    @classmethod
    def _create(
        cls,
        rules: BaccaratRules,
        table_id: str,
        header: Mapping[str, Any],
        seeds: Mapping[str, bytes],
    ) -> BaccaratTable:
        return cls(rules, table_id=table_id, header=header, seeds=seeds)

    # --- players: joining with chips, buying more, leaving (BA-1 seats, BA-15 standing) --------

    def _known(self, player: str) -> None:
        if player not in self.seats:
            raise InvalidInput(f"{player} is not at the table")

    def _player(self, actor: Actor) -> str:
        if actor.role is not Role.PLAYER:
            raise RuleViolation(f"only a player may do this, not the {actor.role}")
        return actor.name

    def verify_sit(self, player: str | Actor, amount: Money, seat: int | None = None) -> None:
        name = self._player(_as_player(player))
        if name in self.seats:
            raise InvalidInput(f"{name} is already at the table")
        if amount.currency != self.rules.currency or amount.is_negative():
            raise InvalidInput(f"a buy-in of {amount}: chips are bought with a positive amount")
        if seat is not None:
            if isinstance(seat, bool) or not 1 <= seat <= self.rules.seats:
                raise InvalidInput(f"seat {seat}: the table has seats 1–{self.rules.seats}")
            if seat in self.seats.values():
                raise InvalidInput(f"seat {seat} is taken")

    @operation(
        actor=Role.PLAYER,
        rule="BA-15",
        args=(Arg("amount", AMOUNT, None), Arg("seat", optional(WHOLE), None)),
        actor_param="player",
    )
    def sit(
        self, player: str | Actor, amount: Money | None = None, seat: int | None = None
    ) -> tuple[Event, ...]:
        """A player sits at ``seat`` (or stands, BA-15) with ``amount`` of chips bought from
        their wallet (none by default)."""
        amount = self._money(0) if amount is None else amount
        self.verify_sit(player, amount, seat)
        name = _as_player(player).name
        return self._emit(PlayerJoined(self._table_id, name, seat, amount.minor, self._cur))

    def verify_buy_in(self, player: str | Actor, amount: Money) -> None:
        name = self._player(_as_player(player))
        self._known(name)
        if amount.currency != self.rules.currency or not amount.is_positive():
            raise InvalidInput(f"chips are bought with a positive amount, not {amount}")

    @operation(actor=Role.PLAYER, args=(Arg("amount", AMOUNT),), actor_param="player")
    def buy_in(self, player: str | Actor, amount: Money) -> tuple[Event, ...]:
        """More chips from the player's wallet."""
        self.verify_buy_in(player, amount)
        name = _as_player(player).name
        return self._emit(ChipsBought(self._table_id, name, amount.minor, self._cur))

    def verify_leave(self, player: str | Actor) -> None:
        """A player may leave unless they hold cards (BA-16) or have bets in the hand being
        dealt; bets not yet dealt on are returned, but a bet left on after a tie only where
        the table lets it be withdrawn (BA-12 / BA-R2)."""
        name = self._player(_as_player(player))
        self._known(name)
        layout.check_leave(self.rules, self.hand, self.holds, name)

    can_leave = can(verify_leave)

    @operation(actor=Role.PLAYER, rule="BA-11", actor_param="player")
    def leave(self, player: str | Actor) -> tuple[Event, ...]:
        """The player leaves with every chip: bets not yet dealt on come back first."""
        self.verify_leave(player)
        name = _as_player(player).name
        mine = [b for b in self.holds if b.player == name]
        returned = sum(b.amount.minor for b in mine)
        return self._emit(
            PlayerLeft(
                self._table_id,
                name,
                tuple(b.id for b in mine),
                returned,
                self.stacks[name] + returned,
                self._cur,
            ),
        )

    def balance(self, player: str) -> Money:
        """The chips ``player`` has at the table (not counting bets on the layout)."""
        self._known(player)
        return self._money(self.stacks[player])

    def default_spot(self, player: str) -> int:
        """A seated player's own spot; a standing player's first standing spot (BA-15)."""
        seat = self.seats[player]
        return seat if seat is not None else self.rules.seats + 1

    # --- BA-2.1 / BA-3 the shoe: shuffle, cut, burn; BA-3.2 change of shoe ------------------

    def _dealer(self, actor: Actor, rule: str, *, supervisor: bool = False) -> None:
        if _is_dealer(actor) or (supervisor and actor.role is Role.SUPERVISOR):
            return
        raise RuleViolation(f"the dealer does this, not {actor}", rule=rule)

    def verify_shuffle(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-2.1")
        if self.phase is not BaccaratPhase.SHUFFLE:
            raise OutOfOrder(
                "a new shoe is shuffled when the last one is over (BA-3.1) or changed",
                rule="BA-3.2",
            )

    can_shuffle = can(verify_shuffle)

    def _reason(self) -> str:
        if self.shoe_number == 0:
            return "BA-2.1"
        return "BA-3.1" if self.hands_left == 0 else "BA-3.2"

    @operation(
        actor=_DEALERS,
        rule="BA-2.1",
        args=(Arg("seed", optional(HEX), None), Arg("new_set", FLAG, False)),
        rng=True,
        actor_param="by",
    )
    def shuffle(
        self,
        rng: Rng | None = None,
        *,
        seed: bytes | None = None,
        new_set: bool = False,
        by: Actor = Actor.DEALER,
    ) -> tuple[Event, ...]:
        """BA-2.1: shuffle a new shoe. A server seed (``seed``, or 32 bytes drawn from
        ``rng``) is committed; the order is ``Rng.for_event(seed, table_id, "shoe:<n>")``'s
        shuffle of the table's decks, and the seed is revealed when the shoe ends. Also the
        reshuffle after the last hand (BA-3.1) and a new shoe (BA-3.2); with a continuous
        shuffler the seed drives the machine (BA-2.3)."""
        self.verify_shuffle(by)
        if seed is None:
            if rng is None:
                raise InvalidInput("a shuffle needs a server seed or an Rng", rule="BA-2.1")
            seed = rng.source.random_bits(8 * SERVER_SEED_BYTES).to_bytes(SERVER_SEED_BYTES, "big")
        if len(seed) < SERVER_SEED_BYTES:
            raise InvalidInput(f"a server seed has at least {SERVER_SEED_BYTES} bytes")
        digest = commitment(seed)
        self._keyring[digest] = seed
        n = self.shoe_number + 1
        return self._emit(
            ShoeShuffled(n, self._reason(), new_set, str(by), digest),
            contract.SeedCommitted(f"shoe:{n}", digest),
        )

    @operation(
        actor=_DEALERS,
        rule="BA-1",
        args=(
            Arg("cards", parsed_list(parse_cards, "a list of cards such as 'Td'")),
            Arg("new_set", FLAG, False),
        ),
        actor_param="by",
    )
    def load_shoe(
        self, cards: Sequence[Card], *, new_set: bool = False, by: Actor = Actor.DEALER
    ) -> tuple[Event, ...]:
        """A shoe shuffled elsewhere (the shuffling machine of BA-1), keyed in in dealing
        order: exactly the table's decks (BA-1). Staff-only event; no seed to reveal."""
        self.verify_shuffle(by)
        if self.rules.continuous_shuffler:
            raise InvalidInput("a continuous shuffler is loaded with a seed", rule="BA-2.3")
        if Counter(cards) != Counter(full_set(self.rules.decks)):
            raise InvalidInput(f"a shoe holds exactly {self.rules.decks} decks", rule="BA-1")
        ev = ShoeLoaded(
            self.shoe_number + 1, self._reason(), new_set, str(by), tuple(str(c) for c in cards)
        )
        return self._emit(ev)

    @operation(actor=_DEALERS, rule="BA-2.1", args=(Arg("new_set", FLAG, False),), actor_param="by")
    def open_shoe(self, *, new_set: bool = False, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """A live table's physical shoe (BA-1, BA-2.1): the table's decks shuffled at the
        table; the system never knows the order — the dealer keys each card in as it leaves
        the shoe (``deal`` with the four cards, ``draw`` a third card, ``expose_card``,
        ``cut`` with the first card under BA-R1), and BA-1 refuses a card the shoe cannot
        hold. No server seed is committed: the record is the cards keyed in."""
        self.verify_shuffle(by)
        if self.rules.continuous_shuffler:
            raise InvalidInput("a continuous shuffler is loaded with a seed", rule="BA-2.3")
        if not isinstance(new_set, bool):
            raise InvalidInput("new_set is true or false")
        return self._emit(ShoeOpened(self.shoe_number + 1, self._reason(), new_set, str(by)))

    def _key_cards(self, op: str, args: dict[str, Any], cards: Sequence[Card], by: Actor) -> None:
        """Key ``cards`` in at the shoe's next positions (BA-1 checked before)."""
        self._emit(CardsKeyed(op, args, self.position, tuple(str(c) for c in cards), str(by)))

    def verify_end_shoe(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-3.2")
        if self.phase in (BaccaratPhase.SHUFFLE, BaccaratPhase.DEALING):
            raise OutOfOrder("the shoe is changed after a hand", rule="BA-3.2")
        if any(not b.carried for b in self.holds):
            raise OutOfOrder("the shoe is changed after a hand, before new bets", rule="BA-3.2")

    can_end_shoe = can(verify_end_shoe)

    @operation(actor=_DEALERS, rule="BA-3.2", actor_param="by")
    def end_shoe(self, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-3.2: the casino changes the shoe after a hand (and at the end of a session):
        the shoe's seed is revealed so that anyone can check it."""
        self.verify_end_shoe(by)
        start = len(self._journal)
        self._finish_shoe("BA-3.2", by)
        return self._since(start)

    def verify_cut(self, from_end: int | None = None, by: Actor = Actor.DEALER) -> None:
        if by.role is Role.PLAYER:
            self._known(by.name)  # BA-2.1: a player or the dealer cuts
        else:
            self._dealer(by, "BA-2.1")
        if self.phase is not BaccaratPhase.CUT:
            raise OutOfOrder("the cut comes after the shuffle", rule="BA-2.1")
        if from_end is not None and (isinstance(from_end, bool) or not isinstance(from_end, int)):
            raise InvalidInput(f"cut card position {from_end!r}: a number of cards")
        check_cut(self.rules.cut_from_end if from_end is None else from_end, self.rules.decks)

    can_cut = can(verify_cut)

    @operation(
        actor=(*_DEALERS, Role.PLAYER),
        rule="BA-2.1",
        args=(
            Arg("from_end", optional(WHOLE), None),
            Arg("first_card", optional(parsed(Card.parse, "a card such as 'Td'")), None),
        ),
        actor_param="by",
    )
    def cut(
        self,
        from_end: int | None = None,
        by: Actor | str = Actor.DEALER,
        *,
        first_card: Card | None = None,
    ) -> tuple[Event, ...]:
        """BA-2.1: a player or the dealer cuts; the cut card goes ``from_end`` cards from the
        end (the table's default when None), never fewer than 12. The dealer then burns as
        many cards as there are decks, face down, or turns the first card and burns as many
        as it shows (BA-R1 ``first_card``; from a physical shoe the dealer keys that card
        in: ``first_card``)."""
        actor = by if isinstance(by, Actor) else Actor.player(by)
        self.verify_cut(from_end, actor)
        turned = self.rules.burn is not BurnMode.DECKS
        if turned or first_card is not None:
            check_keyed(
                self.shoe,
                self.position,
                None if first_card is None else (first_card,),
                "cut",
                "BA-R1",
            )
        if first_card is not None and not turned:
            raise InvalidInput("this table burns by the decks: no first card", rule="BA-R1")
        at = self.rules.cut_from_end if from_end is None else from_end
        start = len(self._journal)
        if first_card is not None:
            args: dict[str, Any] = {"from_end": at, "first_card": str(first_card)}
            self._key_cards("cut", args, (first_card,), actor)
        # BA-2.1: as many cards burned as there are decks, face down; or BA-R1 the first
        # card turned, and as many burned as it shows (tens and faces: 10)
        first = self.shoe[self.position] if turned else None
        count = self.rules.decks if first is None else 1 + first.burn_count
        shown = None if first is None else str(first)
        self._emit(CutCardPlaced(at, str(actor)), CardsBurned(count, "BA-2.1", shown, SYSTEM))
        return self._since(start)

    def verify_burn(self, count: int, by: Actor = Actor.DEALER) -> None:
        """BA-8: the casino may burn cards at the start of any hand."""
        self._dealer(by, "BA-8")
        if self.rules.continuous_shuffler:
            raise OutOfOrder("a continuous shuffler burns no cards", rule="BA-R4")
        if self.phase is not BaccaratPhase.BETTING or any(not b.carried for b in self.holds):
            raise OutOfOrder("cards are burned at the start of a hand, before bets", rule="BA-8")
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise InvalidInput("burn one card or more", rule="BA-8")
        if self.cut_index is None or self.position + count > self.cut_index:
            raise RuleViolation("a burn may not reach the cut card", rule="BA-8")

    can_burn = can(verify_burn)

    @operation(actor=_DEALERS, rule="BA-8", args=(Arg("count", WHOLE),), actor_param="by")
    def burn(self, count: int, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-8: burn ``count`` cards face down at the start of a hand."""
        self.verify_burn(count, by)
        return self._emit(CardsBurned(count, "BA-8", None, str(by)))

    def composition(self) -> Composition:
        """The unseen cards as everyone at the table knows them: the full set less the
        cards turned face up in this shoe (what the next card is drawn from, for the
        analysis; burned face-down cards are unseen)."""
        return unseen(self.rules.decks, () if self.rules.continuous_shuffler else self.seen)

    # --- BA-4 exposed cards -------------------------------------------------------------------

    def verify_expose_card(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-4")
        if self.rules.continuous_shuffler:
            raise OutOfOrder("the machine deals face up", rule="BA-7.2")
        if self.phase not in (
            BaccaratPhase.BETTING,
            BaccaratPhase.DEALING,
            BaccaratPhase.DEMONSTRATION,
        ):
            raise OutOfOrder("no card is coming out of the shoe", rule="BA-4")
        if self.exposed is not None:
            raise OutOfOrder("the next card is already face up", rule="BA-4")
        if self.position >= len(self.shoe):
            raise OutOfOrder("the shoe is empty", rule="BA-4")

    can_expose_card = can(verify_expose_card)

    @operation(
        actor=_DEALERS,
        rule="BA-4",
        args=(Arg("card", optional(parsed(Card.parse, "a card such as 'Td'")), None),),
        actor_param="by",
    )
    def expose_card(self, by: Actor = Actor.DEALER, card: Card | None = None) -> tuple[Event, ...]:
        """BA-4: the next card comes out of the shoe face up by accident. During a hand it
        stays valid and the hand goes on (「牌局繼續進行」): if the hand draws it, it is that
        third card, face up, and the bets stand — a third card already due (a physical shoe
        waiting for it to be keyed in) is dealt at once. A card seen before the hand that
        would use it (between hands, or during a hand that does not draw it) is burned at
        the start of the next hand under BA-8 — at once between hands, after the settlement
        otherwise — so no bet is ever placed on a hand whose first card is known."""
        self.verify_expose_card(by)
        check_keyed(
            self.shoe, self.position, None if card is None else (card,), "expose_card", "BA-4"
        )
        start = len(self._journal)
        if card is not None:  # a physical shoe: the dealer keys the exposed card in
            self._key_cards("expose_card", {"card": str(card)}, (card,), by)
        card = self.shoe[self.position]
        self._emit(CardExposed(str(card), str(by)))
        if self.phase is not BaccaratPhase.DEALING:
            self._emit(CardsBurned(1, "BA-8", str(card), SYSTEM))
        else:  # BA-4: the hand goes on; a third card due now is this one (BA-9)
            dealing.advance(self)
        return self._since(start)

    # --- BA-13 … BA-15, BA-18 bets --------------------------------------------------------------

    def _spot_holds(self, player: str, kind: BaccaratBetKind, spot: int) -> list[Bet]:
        return self._holds_ix.at(player, kind, spot)

    def differential(self, bets: Iterable[Bet] | None = None) -> Money:
        """BA-14: total Banker stakes minus total Player stakes, in absolute value."""
        if bets is None:
            return Money(abs(self._holds_ix.net), self.rules.currency)
        return layout.differential(bets, self.rules.currency)

    def _check_betting(self, actor: Actor) -> str:
        player = self._player(actor)
        self._known(player)
        if self.phase is BaccaratPhase.DEMONSTRATION:
            raise BetNotAllowed("demonstration hands are dealt with no bets", rule="BA-2.2")
        if self.phase is not BaccaratPhase.BETTING:
            raise OutOfOrder(f"bets are placed before the deal (now: {self.phase})", rule="BA-7.1")
        return player

    def _check_stake(self, amount: Money) -> None:
        if not isinstance(amount, Money):
            raise InvalidInput(f"a bet is an amount of money, not {amount!r}")
        if not amount.is_positive():
            raise InvalidInput(f"a bet must be more than zero, not {amount.format()}")

    def _check_chips(self, player: str, needed: Money) -> None:
        if self._money(self.stacks[player]) < needed:
            raise InsufficientFunds(
                f"{needed.format()} is more than the {self._money(self.stacks[player]).format()} "
                "in chips in front of you"
            )

    def verify_place_bet(
        self, player: str | Actor, kind: BaccaratBetKind, amount: Money, spot: int | None = None
    ) -> None:
        """BA-13 … BA-15: a stake on a bet of the layout, from the player's chips."""
        name = self._check_betting(_as_player(player))
        self._check_stake(amount)
        spot = self.default_spot(name) if spot is None else spot
        layout.check_spot(self.rules, self.seats, name, spot)
        layout.check_added(self.rules, self._holds_ix, name, BaccaratBetKind(kind), amount, spot)
        self._check_chips(name, amount)

    can_place_bet = can(verify_place_bet)

    @operation(
        actor=Role.PLAYER,
        rule="BA-13",
        args=(
            Arg("bet", _BET, to="kind"),
            Arg("amount", AMOUNT),
            Arg("spot", optional(WHOLE), None),
        ),
        actor_param="player",
    )
    def place_bet(
        self, player: str | Actor, kind: BaccaratBetKind, amount: Money, spot: int | None = None
    ) -> tuple[Event, ...]:
        """BA-13: place ``amount`` on ``kind`` (added to the player's bet there, if any)."""
        self.verify_place_bet(player, kind, amount, spot)
        name = _as_player(player).name
        spot = self.default_spot(name) if spot is None else spot
        return self._emit(
            BetPlaced(
                self._table_id,
                self._bet_id(),
                name,
                str(BaccaratBetKind(kind)),
                amount.minor,
                spot,
                self._cur,
            )
        )

    def _bet_id(self) -> str:
        return f"{self._table_id}:{self.bets_placed + 1}"

    def verify_change_bet(
        self,
        player: str | Actor,
        kind: BaccaratBetKind,
        amount: Money,
        *,
        to_kind: BaccaratBetKind | None = None,
        spot: int | None = None,
    ) -> None:
        """BA-12 … BA-14: a bet changed before the deal, from (or back to) the chips."""
        name = self._check_betting(_as_player(player))
        kind = BaccaratBetKind(kind)
        spot = self.default_spot(name) if spot is None else spot
        to = kind if to_kind is None else BaccaratBetKind(to_kind)
        before = layout.check_change(self.rules, self._holds_ix, name, kind, amount, to, spot)
        if amount > before:
            self._check_chips(name, amount - before)

    can_change_bet = can(verify_change_bet)

    @operation(
        actor=Role.PLAYER,
        rule="BA-12",
        args=(
            Arg("bet", _BET, to="kind"),
            Arg("amount", AMOUNT),
            Arg("to_bet", optional(_BET), None, to="to_kind"),
            Arg("spot", optional(WHOLE), None),
        ),
        actor_param="player",
    )
    def change_bet(
        self,
        player: str | Actor,
        kind: BaccaratBetKind,
        amount: Money,
        *,
        to_kind: BaccaratBetKind | None = None,
        spot: int | None = None,
    ) -> tuple[Event, ...]:
        """Set the player's ``kind`` bet to ``amount`` (0 takes it down), optionally moving it
        between Player and Banker. For a bet left on after a tie this is BA-12's choice
        (1) withdraw or (3) change, as the table allows (BA-R2)."""
        self.verify_change_bet(player, kind, amount, to_kind=to_kind, spot=spot)
        name = _as_player(player).name
        kind = BaccaratBetKind(kind)
        spot = self.default_spot(name) if spot is None else spot
        old = self._spot_holds(name, kind, spot)
        rule = "BA-12" if all(b.carried for b in old) else "BA-13"
        to = kind if to_kind is None else BaccaratBetKind(to_kind)
        ev = BetChanged(
            self._table_id,
            name,
            str(kind),
            spot,
            str(to),
            amount.minor,
            sum(b.amount.minor for b in old),
            tuple(b.id for b in old),
            None if amount.is_zero() else self._bet_id(),
            rule,
            self._cur,
        )
        return self._emit(ev)

    @operation(
        actor=Role.PLAYER,
        rule="BA-12",
        args=(Arg("bet", _BET, to="kind"), Arg("spot", optional(WHOLE), None)),
        actor_param="player",
    )
    def withdraw_bet(
        self, player: str | Actor, kind: BaccaratBetKind, spot: int | None = None
    ) -> tuple[Event, ...]:
        """Take a bet down before the deal (after a tie: BA-12 (1))."""
        return self.change_bet(player, kind, Money.zero(self.rules.currency), spot=spot)

    # --- BA-7 dealing, BA-9 third cards, BA-16 squeeze ------------------------------------------

    def verify_deal(self, by: Actor = Actor.DEALER) -> None:
        self._dealer(by, "BA-7.1")
        if self.phase not in (BaccaratPhase.BETTING, BaccaratPhase.DEMONSTRATION):
            raise OutOfOrder(f"no hand can be dealt now ({self.phase})", rule="BA-7.1")
        if self.shoe_over:
            raise OutOfOrder("the last hand of the shoe is over", rule="BA-3.1")
        if not self.rules.continuous_shuffler and self.cards_left() < 6:
            raise OutOfOrder("fewer than six cards are left: change the shoe", rule="BA-3.2")

    can_deal = can(verify_deal)

    @operation(
        actor=_DEALERS,
        rule="BA-7.1",
        args=(
            Arg("cards", optional(parsed_list(parse_cards, "a list of cards such as 'Td'")), None),
        ),
        actor_param="by",
    )
    def deal(
        self,
        rng: Rng | None = None,
        *,
        by: Actor = Actor.DEALER,
        cards: Sequence[Card] | None = None,
    ) -> tuple[Event, ...]:
        """BA-7.1: two cards each, one at a time, Player first, face down (face up from a
        continuous shuffler, BA-7.2); betting is closed. Then the hand goes on as the rules
        deal it (reveals, BA-9 third cards, settlement) until a holder must squeeze (BA-16)
        or, from a physical shoe, a third card must be keyed in (:meth:`draw`).
        ``rng`` is not used: chance comes from the shoe's committed seed, or from a
        physical shoe whose four ``cards`` the dealer keys in, in dealing order (Player,
        Banker, Player, Banker)."""
        del rng
        self.verify_deal(by)
        if cards is not None and len(cards) != 4:
            raise InvalidInput(
                "the deal is four cards: Player, Banker, Player, Banker (BA-7.1)", rule="BA-7.1"
            )
        check_keyed(self.shoe, self.position, cards, "deal", "BA-7.1")
        start = len(self._journal)
        if cards is not None:
            self._key_cards("deal", {"cards": [str(c) for c in cards]}, cards, by)
        dealing.deal(self, by)
        return self._since(start)

    def third_card_due(self) -> Side | None:
        """From a physical shoe: the side whose third card (BA-9) the dealer must key in now."""
        return dealing.third_card_due(self)

    def verify_draw(self, card: Card, by: Actor = Actor.DEALER) -> None:
        side = self.third_card_due()
        rule = "BA-9.3" if side is Side.BANKER else "BA-9.1"
        self._dealer(by, rule)
        if side is None:
            raise OutOfOrder("no third card is to be keyed in now", rule=rule)
        check_keyed(self.shoe, self.position, (card,), "draw", rule)

    can_draw = can(verify_draw)

    @operation(
        actor=_DEALERS,
        rule="BA-9",
        args=(Arg("card", parsed(Card.parse, "a card such as 'Td'")),),
        actor_param="by",
    )
    def draw(self, card: Card, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-9: the third card the drawing rules require, keyed in from a physical shoe as it
        leaves it; the hand then goes on as the rules deal it."""
        self.verify_draw(card, by)
        start = len(self._journal)
        self._key_cards("draw", {"card": str(card)}, (card,), by)
        dealing.advance(self)
        return self._since(start)

    def holder_due(self) -> tuple[str, Side] | None:
        """The holder who must squeeze now (BA-16), and the side."""
        return None if self.hand is None else holder_due(self.hand)

    def verify_reveal(self, side: Side, by: str | Actor) -> None:
        actor = _as_player(by)
        due = self.holder_due()
        if due is None:
            raise OutOfOrder("no cards are waiting to be squeezed", rule="BA-16")
        holder, due_side = due
        if Side(side) is not due_side:
            raise OutOfOrder(f"the {due_side} cards are opened now, not the {side}", rule="BA-7.1")
        if actor.role is not Role.PLAYER or actor.name != holder:
            raise RuleViolation(f"{holder} holds the {due_side} cards, not {actor}", rule="BA-16")

    can_reveal = can(verify_reveal)

    @operation(
        actor=(Role.PLAYER, *_DEALERS), rule="BA-16", args=(Arg("side", _SIDE),), actor_param="by"
    )
    def reveal(self, side: Side, by: str | Actor) -> tuple[Event, ...]:
        """BA-16 / BA-R6: the holder opens their side's face-down cards; a third card is
        opened on its own, never together with the first two. The hand then goes on."""
        self.verify_reveal(side, by)
        start = len(self._journal)
        dealing.reveal(self, Side(side), _as_player(by).name)
        dealing.advance(self)
        return self._since(start)

    # --- BA-10 dealing errors, BA-R3 void hand -----------------------------------------------

    def _check_error(self, by: Actor, text: str, missing: str) -> None:
        """BA-10: the dealer (or a supervisor) acts on the hand being dealt, saying what."""
        self._dealer(by, "BA-10", supervisor=True)
        if self.phase is not BaccaratPhase.DEALING:
            raise OutOfOrder("no hand is being dealt", rule="BA-10")
        if not isinstance(text, str) or not text.strip():
            raise InvalidInput(missing, rule="BA-10")

    def verify_correct_error(self, description: str, by: Actor = Actor.DEALER) -> None:
        self._check_error(by, description, "describe the error corrected")

    can_correct_error = can(verify_correct_error)

    @operation(
        actor=(*_DEALERS, Role.SUPERVISOR),
        rule="BA-10",
        args=(Arg("description", TEXT),),
        actor_param="by",
    )
    def correct_error(self, description: str, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-10: a dealing error (or a third card drawn against the rules) corrected at once;
        the hand goes on as the rules deal it."""
        self.verify_correct_error(description, by)
        return self._emit(DealingErrorCorrected(description, str(by)))

    def verify_void_hand(self, reason: str, by: Actor = Actor.DEALER) -> None:
        self._check_error(by, reason, "say why the hand is void")

    can_void_hand = can(verify_void_hand)

    @operation(
        actor=(*_DEALERS, Role.SUPERVISOR),
        rule="BA-10",
        args=(Arg("reason", TEXT),),
        actor_param="by",
    )
    def void_hand(self, reason: str, by: Actor = Actor.DEALER) -> tuple[Event, ...]:
        """BA-10 / BA-R3: a hand that cannot be corrected is void: every bet is returned and
        the cards dealt are discarded (face-down ones unseen). It counts as a hand of the
        shoe: a void last hand (BA-3.1) ends the shoe (see docs/baccarat.md)."""
        self.verify_void_hand(reason, by)
        assert self.hand is not None
        returned = tuple(
            {"bet_id": b.id, "player": b.player, "stake": b.amount.minor} for b in self.holds
        )
        start = len(self._journal)
        self._emit(
            HandVoided(self._table_id, self.hand.number, reason, returned, str(by), self._cur)
        )
        dealing.after_hand(self)
        return self._since(start)

    # --- the supervisor's void and correction (the kernel's; the baccarat reading: history)

    CORRECTABLE: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"deal": ("cards",), "draw": ("card",)}
    )
    FOLLOWING_OPS: ClassVar[frozenset[str]] = frozenset({"draw", "reveal", "time_out"})

    def _effective(self) -> list[tuple[int, Event]]:
        """The effective history, a void keeping its hand (``history.effective``)."""
        return history.effective(self._events, self._journal.first)

    def _rename_holds(self, new: Mapping[str, str]) -> None:
        self.holds = [
            dataclasses.replace(b, id=new.get(b.id.split("~")[0], b.id)) for b in self.holds
        ]

    def _keyed_at(self, of_seq: int, event: Event) -> bool:
        return isinstance(event, CardsKeyed) and event.op in self.CORRECTABLE

    def _void_leaves(self, wrong: list[Event], approver: str, reason: str) -> list[Event]:
        settled = wrong[0]
        assert isinstance(settled, HandSettled)
        return [voided(settled, reason, approver)]

    def _void_span(self) -> tuple[int, list[Event]]:
        """BA-R3: the last hand settled, if nothing was bet, dealt or keyed since."""
        return history.void_span(self._effective())

    def verify_void_round(self, actor: Actor, requested_by: str) -> None:
        """A second supervisor voids the hand being dealt (BA-10) or the last hand settled
        before the next bet or deal (BA-R3)."""
        self._supervisor(actor, requested_by)
        if self.phase is BaccaratPhase.DEALING:
            self.verify_void_hand("void", actor)
        else:
            self._void_span()

    def void_round(
        self, actor: Actor, reason: str, *, request: int, requested_by: str
    ) -> tuple[Event, ...]:
        """Void the hand being dealt (the rules' BA-10 void, the request named in its
        reason) or the last hand settled: every bet of it refunded, its settlement reversed
        (BA-R3: its cards stay out of the shoe)."""
        self.verify_void_round(actor, requested_by)
        if self.phase is BaccaratPhase.DEALING:
            reason = supervisor_reason(reason)
            return self.void_hand(f"{reason} (request {request} by {requested_by})", actor)
        return super().void_round(actor, reason, request=request, requested_by=requested_by)

    def _check_limits(self, new: NewLimits) -> None:
        """BA-13: Player and Banker ``min_bet`` – ``max_bet``, other bets by name in
        ``bets``; BA-14: the differential; each a positive amount in the table's currency,
        the minimum not above the maximum (the rule set validates)."""
        with_limits(self.rules, new.min_bet, new.max_bet, new.bets, new.differential)

    # --- who acts now, and time-outs ---------------------------------------------------------

    def pending(self) -> tuple[Pending, ...]:
        """Who may act now, with which operations, and the rules' default on a time-out
        (:func:`views.pending <macau_tables.games.baccarat.views.pending>`)."""
        return views.pending(self)

    def _time_out(self, pending: Pending, rng: Rng | None) -> None:
        """The rules' default after a time-out: the table deals; the dealer cuts; the
        dealer opens the holder's cards (BA-16)."""
        if pending.default == "deal":
            dealing.deal(self, Actor.SYSTEM)
        elif pending.default == "cut":
            self.cut(None, Actor.SYSTEM)
        else:  # reveal: the dealer opens the holder's cards (BA-16)
            due = self.holder_due()
            assert due is not None
            dealing.reveal(self, due[1], DEALER)
            dealing.advance(self)

    # --- snapshots (the kernel's checkpoint) ----------------------------------------------------

    #: a snapshot leaves out the kernel's parts, the roads' cache and the holds' index
    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = Table.SNAPSHOT_SKIP | {"_roads_memo", "_hold_index"}

    def _reset_caches(self) -> None:
        self._roads_memo = None
        self._hold_index = None

    # --- replay: the command that starts with an event -------------------------------------------

    def _command_of(self, ev: Event) -> Command | None:
        """The command that starts with ``ev`` in a journal (replay; ``history``)."""
        return history.command_of(ev, self._keyring)

    # --- what each viewer sees -----------------------------------------------------------------

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        """What ``viewer`` may see now (``views``): never the shoe's order nor a face-down
        card; a player sees their own chips, the staff every player's."""
        return views.view(self, viewer)

    # --- conveniences (scripts, tests, benchmarks) ------------------------------------------------

    def start_shoe(self, rng: Rng, *, cut_from_end: int | None = None) -> list[Event]:
        """Shuffle, cut and burn (BA-2.1); with a continuous shuffler just load (BA-2.3)."""
        events = list(self.shuffle(rng))
        if self.phase is BaccaratPhase.CUT:
            events += self.cut(cut_from_end)
        return events

    def play_hand(self, rng: Rng | None = None) -> list[Event]:
        """Deal a whole hand, each holder squeezing in turn (BA-16), to its settlement."""
        del rng
        events = list(self.deal())
        while (due := self.holder_due()) is not None:
            events += self.reveal(due[1], due[0])
        return events

    def shoe_results(self, shoe: int | None = None) -> list[HandResult]:
        """The hands of a shoe (the current one by default) the road maps show."""
        return views.shoe_results(self, shoe)

    def roads(self) -> Roads:
        return views.shoe_roads(self)

    def snapshot(self) -> dict[str, Any]:
        """The public state as plain data (replay must rebuild it exactly); no hidden order."""
        return views.snapshot(self)
