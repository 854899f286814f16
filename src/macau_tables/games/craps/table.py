"""The craps table (:class:`CrapsTable`): seats and chips, bets (CR-R6, CR-12), the throw
(CR-1, CR-R1), the point cycle (CR-2.1), the shooter (CR-R7) and the settlement of a roll.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Self

from macau_tables.core.errors import (
    BetNotAllowed,
    InsufficientFunds,
    InvalidInput,
    OutOfOrder,
    ReplayMismatch,
)
from macau_tables.core.journal import Event, Journal, JsonValue
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games import contract
from macau_tables.games.contract import (
    Actor,
    Command,
    Pending,
    Role,
    accounts,
    revealed_seeds,
)
from macau_tables.games.craps import history, placing, settlement, views
from macau_tables.games.craps.bets import (
    BET_KINDS,
    CrapsBetKind,
    OpenBet,
    bet_kind,
)
from macau_tables.games.craps.bets import label as bet_label
from macau_tables.games.craps.dice import Dice
from macau_tables.games.craps.events import (
    FIRST_SHOOTER,
    LEAVING,
    LEFT,
    PASSED,
    SEVEN_OUT,
    TAKEN_DOWN,
    BetIncreased,
    BetPlaced,
    BetTakenDown,
    ChipsBought,
    DicePassed,
    DiceThrown,
    PlayerJoined,
    PlayerLeft,
    ThrowVoided,
)
from macau_tables.games.craps.rules import GAME, MAX_SEATS, CrapsRules, winnings
from macau_tables.games.craps.state import CrapsState, is_working
from macau_tables.games.kernel import (
    AMOUNT,
    TEXT,
    WHOLE,
    Alias,
    Arg,
    ArgType,
    NewLimits,
    Table,
    can,
    operation,
    optional,
)

__all__ = [
    "CrapsTable",
    "placed_id",
]


# === The table ==============================================================================


def _as_actor(actor: Actor | str) -> Actor:
    """An :class:`Actor`, or a player's name as a shorthand for ``Actor.player(name)``."""
    if isinstance(actor, Actor):
        return actor
    if isinstance(actor, str):
        return Actor.player(actor)
    raise InvalidInput(f"an actor is an Actor or a player's name, not {actor!r}")


def _dice(value: object, _t: object) -> Dice:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidInput(f"dice are two numbers 1 to 6, not {value!r}", rule="CR-1")
    return Dice(value[0], value[1])


def _cocked(value: object, _t: object) -> tuple[bool, bool]:
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise InvalidInput("cocked is [true/false, true/false]", rule="CR-R1")
    return (value[0], value[1])


def placed_id(events: Sequence[Event]) -> int:
    """The bet id of a ``place_bet``'s events (its ``BetPlaced``)."""
    ev = events[0]
    if not isinstance(ev, BetPlaced):
        raise InvalidInput(f"not a bet placed: {ev.kind}")
    return ev.bet_id


_DICE = ArgType("two dice, 1 to 6", _dice)
_COCKED = ArgType("[true/false, true/false]", _cocked)


class CrapsTable(CrapsState):
    """A craps table (the contract of :mod:`macau_tables.games.contract`).

    Players join with chips from their wallets (:meth:`join`), place, increase and take down
    bets (CR-R6, CR-12), and leave with their chips (:meth:`leave`); the shooter throws
    (:meth:`throw`: dice from his server seed, ``Rng.for_event(seed, table, "throw:<n>")``)
    or passes the dice (:meth:`pass_dice`); at a live table the dealer keys in the dice
    (:meth:`throw_dice`) and declares void throws (:meth:`void_throw`). Each operation is
    ``verify_x`` / ``can_x`` / ``x``; ``x`` applies the events it emits through
    :meth:`apply`, the only place the state changes. The engine owns no ledger: its money
    events carry postings (``Ledger.project(table.events)`` is the table's money).
    """

    game: ClassVar[str] = GAME
    RULES = CrapsRules
    rules: CrapsRules
    #: ``join`` was a craps table's name for taking a seat (clients still send it)
    ALIASES: ClassVar[Sequence[Alias]] = (Alias("join", "sit"),)
    #: a snapshot writes the re-issued holds as ``_aliases``
    SNAPSHOT_NAMES: ClassVar[Mapping[str, str]] = MappingProxyType({"_hold_aliases": "_aliases"})

    def __init__(
        self,
        players: Sequence[str] = (),
        rules: CrapsRules | None = None,
        *,
        table_id: str = "craps",
        header: Mapping[str, Any] | None = None,
        rng: Rng | None = None,
    ) -> None:
        """Open a table (``table.opened`` with the rules) and seat ``players`` in seat order,
        without chips (:meth:`buy_in`); the first takes the dice (CR-R7), his seed committed
        if ``rng`` is given (else the dealer keys in the dice)."""
        if isinstance(players, str):
            raise InvalidInput("players are a list of names, not one string")
        rules = rules if rules is not None else CrapsRules()
        if not isinstance(rules, CrapsRules):
            raise InvalidInput(f"a craps table takes CrapsRules, not {type(rules).__name__}")
        super().__init__(rules, table_id, journal_game=GAME, header=header)
        # Replay: commitments journalled by shooter label, and given dice trusted for a
        # shooter whose seed is not (yet) revealed.
        self._replay_commitments: dict[str, str] | None = None
        self._init_state()
        self._open()
        for name in players:
            self.sit(name, Money.zero(self.rules.currency), rng=rng)

    @classmethod
    def _create(
        cls, rules: CrapsRules, table_id: str, header: Mapping[str, Any], seeds: Mapping[str, bytes]
    ) -> CrapsTable:
        table = cls((), rules, table_id=table_id, header=header)
        table._keyring.update(seeds)
        return table

    @classmethod
    def seated(
        cls,
        players: Sequence[str],
        rules: CrapsRules | None = None,
        *,
        chips: Money | None = None,
        table_id: str = "craps",
        rng: Rng | None = None,
    ) -> CrapsTable:
        """A table with ``players`` joined in seat order, each with ``chips`` (none if None);
        the first of them has the dice (CR-R7). Without ``rng`` no seed is committed: the
        dealer keys in the dice (:meth:`throw_dice`)."""
        table = cls((), rules, table_id=table_id)
        for name in players:
            table.sit(name, chips if chips is not None else Money.zero(table.rules.currency),
                      rng=rng)  # fmt: skip
        return table

    # --- the contract's reading of the state -------------------------------------------------

    def label(self, bet: OpenBet) -> str:
        """``"Come 6"``, ``"Pass Line odds 4"``, ``"Field"``."""
        return bet_label(bet)

    def winnings(self, bet: OpenBet, dice: Dice) -> Money:
        """What ``bet`` wins if ``dice`` decide it as a win: its kind's pay table, applied."""
        return winnings(self.rules, bet, dice)

    # --- pending and views ---------------------------------------------------------------

    def pending(self) -> tuple[Pending, ...]:
        """The shooter's throw, every seated player's optional bets, the dealer's key-in
        (``views.pending``)."""
        return views.pending(self)

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        """What ``viewer`` may see (``views.view``): the layout and the dice are public; a
        player's chips are seen by him and the staff; never the shooter's seed."""
        return views.view(self, viewer)

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data, for equality after replay (never a seed)."""
        return views.snapshot(self)

    # --- apply: the only place the state changes -----------------------------------------------

    # --- supervisor corrections (the kernel's void_round, correct_round) -----------------

    CORRECTABLE: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"throw_dice": ("dice", "cocked")}
    )

    def _folding(self, fresh: CrapsTable) -> None:
        """A fold knows every seed the journal revealed and the shooters' commitments."""
        fresh._keyring = {**self._keyring, **revealed_seeds(self._events)}
        fresh._replay_commitments = {
            ev.label: ev.commitment for ev in self._events if isinstance(ev, contract.SeedCommitted)
        }

    def _counted(self, real: Sequence[Event], mark: Any = None) -> None:
        """Counters (throws, shooters, bet ids) never go back below the journal's, so a seed
        label, a throw's draw or a hold id is never used twice."""
        for ev in real:
            if isinstance(ev, DiceThrown | ThrowVoided):
                self.throws = max(self.throws, ev.throw)
            elif isinstance(ev, DicePassed):
                self.shooters = max(self.shooters, ev.shooter)
            elif isinstance(ev, BetPlaced):
                self.next_bet_id = max(self.next_bet_id, ev.bet_id + 1)

    def _restated(self) -> None:
        """A shooter's seed that the journal revealed is spent (the dealer keys in his
        dice)."""
        if self._commitment is not None and self._commitment in revealed_seeds(self._events):
            self._seed_label = self._commitment = None

    def _reset_caches(self) -> None:
        self._draw_cache = None
        self._bet_index = None

    @classmethod
    def _restored(cls, encoded: Any, journal: Journal, seeds: Mapping[str, bytes]) -> Self:
        table = super()._restored(encoded, journal, seeds)
        table._replay_commitments = None
        return table

    def round_start(self) -> int | None:
        """Where the table's last round starts in the effective history (``history``)."""
        return history.round_start(self._events, self._journal.first)

    def _void_span(self) -> tuple[int, list[Event]]:
        """The last round: its bets refunded, its roll (if any) undone."""
        start = self.round_start()
        if start is None:
            raise OutOfOrder("there is no round to void: nothing was bet or thrown since")
        return start, [ev for seq, ev in self._effective() if seq >= start]

    def _check_limits(self, new: NewLimits) -> None:
        """Table limits (a rule-set option) change at the next round boundary. Craps has
        one pair, the flat bets' (odds have only the cap of CR-2.2)."""
        what = "craps limits are the flat bets' min_bet and max_bet (odds: the cap, CR-2.2)"
        new.main_only(what, rule="CR-2.2")
        self._amount(new.min_bet)
        self._amount(new.max_bet)
        dataclasses.replace(self.rules, min_bet=new.min_bet, max_bet=new.max_bet)  # validates

    # --- checks shared by the operations ---------------------------------------------------------

    def _amount(self, amount: Money, *, zero: bool = False) -> None:
        if not isinstance(amount, Money):
            raise InvalidInput(f"an amount is Money, not {type(amount).__name__}")
        if amount.currency != self.rules.currency:
            raise InvalidInput(f"this table plays in {self.rules.currency}, not {amount}")
        if amount.is_negative() or (amount.is_zero() and not zero):
            raise InvalidInput(f"an amount must be positive, not {amount}")

    def _player(self, actor: Actor | str) -> str:
        """The seated player who acts (a player, by name)."""
        who = _as_actor(actor)
        if who.role is not Role.PLAYER:
            raise OutOfOrder(f"only a player may do this, not the {who.role}")
        if who.name not in self._stacks:
            raise InvalidInput(f"{who.name} has no seat at this table")
        return who.name

    def _own(self, actor: Actor | str, bet_id: int) -> OpenBet:
        player = self._player(actor)
        bet = self.bet(bet_id)
        if bet.player != player:
            raise OutOfOrder(f"bet #{bet_id} is {bet.player}'s, not {player}'s")
        return bet

    def _funds(self, player: str, amount: Money) -> None:
        if amount.minor > self._stacks.get(player, 0):
            raise InsufficientFunds(
                f"{player} has {self.balance(player)} in chips, not enough for {amount}"
            )

    # --- joining, buying chips and leaving (cash-out) ------------------------------------------

    def verify_sit(self, actor: Actor | str, amount: Money, *, seat: int | None = None) -> None:
        """A player sits with ``amount`` of chips from his wallet (CR-1: any number may play)."""
        who = _as_actor(actor)
        if who.role is not Role.PLAYER:
            raise OutOfOrder(f"only a player may sit at the table, not the {who.role}")
        if who.name in self._stacks:
            raise InvalidInput(f"{who.name} is seated already (seat {self.seat_of(who.name)})")
        self._amount(amount, zero=True)
        if seat is not None:
            if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_SEATS:
                raise InvalidInput(f"a seat is 1 to {MAX_SEATS}, not {seat!r}")
            if seat in self._seats:
                raise InvalidInput(f"seat {seat} is taken by {self._seats[seat]}")
        elif len(self._seats) >= MAX_SEATS:
            raise InvalidInput(f"the table is full ({MAX_SEATS} seats)")

    @operation(
        actor=Role.PLAYER,
        rule="CR-R7",
        args=(Arg("amount", AMOUNT, None), Arg("seat", optional(WHOLE), None)),
        rng=True,
    )
    def sit(
        self,
        actor: Actor | str,
        amount: Money | None = None,
        *,
        seat: int | None = None,
        rng: Rng | None = None,
    ) -> tuple[Event, ...]:
        """Sit at ``seat`` (the lowest free one by default) with chips bought from the
        wallet; at an empty table the player takes the dice (CR-R7) and his seed is
        committed (with ``rng``)."""
        amount = Money.zero(self.rules.currency) if amount is None else amount
        self.verify_sit(actor, amount, seat=seat)
        start = len(self._journal)
        player = _as_actor(actor).name
        if seat is None:
            seat = next(s for s in range(1, MAX_SEATS + 1) if s not in self._seats)
        stack = accounts.stack(self._table_id, player)
        ev = PlayerJoined(
            player=player, seat=seat, amount=amount.minor,
            **self._money_fields({accounts.wallet(player): -amount.minor, stack: amount.minor}),
        )  # fmt: skip
        self._emit(ev)
        if self.shooter is None:
            self._hand_dice(None, FIRST_SHOOTER, rng)
        return self._since(start)

    def verify_buy_in(self, actor: Actor | str, amount: Money) -> None:
        self._player(actor)
        self._amount(amount)

    @operation(actor=Role.PLAYER, args=(Arg("amount", AMOUNT),))
    def buy_in(self, actor: Actor | str, amount: Money) -> tuple[Event, ...]:
        """More chips from the player's wallet to his stack."""
        self.verify_buy_in(actor, amount)
        player = _as_actor(actor).name
        ev = ChipsBought(
            player=player, amount=amount.minor,
            **self._money_fields({accounts.wallet(player): -amount.minor,
                                  accounts.stack(self._table_id, player): amount.minor}),
        )  # fmt: skip
        return self._emit(ev)

    def verify_leave(self, actor: Actor | str) -> None:
        """CR-R6: a Pass or Come bet with a point is a contract bet; it stays until decided,
        and so does its player's cash-out (the engine's reading of what a casino does: the
        bet cannot be returned, and the house does not pay a bet before its decision)."""
        player = self._player(actor)
        if not self._bets_ix.working.get(player):
            return
        working = [b for b in self.bets_of(player) if is_working(b)]
        if working:
            names = ", ".join(f"{bet_label(b)} ({b.amount})" for b in working)
            raise BetNotAllowed(
                f"{player} has a contract bet working: {names}; it stays on the layout "
                "until decided, then the chips can be cashed out (CR-R6)",
                rule=BET_KINDS[working[0].kind].rule,
            )

    can_leave = can(verify_leave)

    @operation(actor=Role.PLAYER, rule="CR-R6", rng=True)
    def leave(self, actor: Actor | str, *, rng: Rng | None = None) -> tuple[Event, ...]:
        """Cash out: every bet on the layout comes back (CR-R6: all may be taken down once
        no contract bet is working), the dice pass on if the player is the shooter (CR-R7),
        and his chips go back to his wallet."""
        self.verify_leave(actor)
        start = len(self._journal)
        player = _as_actor(actor).name
        mine = self.bets_of(player)
        if mine:
            self._emit(self._returned(player, [b.id for b in mine], LEAVING))
        if self.shooter == player:
            self._hand_dice(player, LEFT, rng)
        amount = self._stacks[player]
        ev = PlayerLeft(
            player=player, seat=self.seat_of(player), amount=amount,
            **self._money_fields({accounts.stack(self._table_id, player): -amount,
                                  accounts.wallet(player): amount}),
        )  # fmt: skip
        self._emit(ev)
        return self._since(start)

    def _returned(self, player: str, ids: Sequence[int], reason: str) -> BetTakenDown:
        total = sum(self._bets[i].amount.minor for i in ids)
        return BetTakenDown(
            player=player, bet_ids=tuple(ids), reason=reason,
            **self._money_fields(
                {self._wagers: -total, accounts.stack(self._table_id, player): total},
                closes=ids,
            ),
        )  # fmt: skip

    # --- CR-R6 placing, increasing and taking down bets -------------------------------------

    # When.ANY_ROLL: CR-12 — the bets of CR-4 to CR-11 may be placed at any time.

    def verify_place_bet(
        self,
        actor: Actor | str,
        bet: str | CrapsBetKind,
        amount: Money,
        *,
        on: int | None = None,
    ) -> None:
        """Raise the error naming the rule if the player may not place this bet now."""
        player = self._player(actor)
        kind = bet if isinstance(bet, CrapsBetKind) else bet_kind(bet)
        self._amount(amount)
        if kind.on is None:
            if on is not None:
                raise InvalidInput(f"{kind.label} is not laid on another bet")
            placing.check_timing(kind, self.point)
        else:
            placing.check_odds(self.rules, kind, player, on, self._bets, self._odds_down, amount)
        placing.check_limits(self.rules, kind, amount)
        self._funds(player, amount)

    can_place_bet = can(verify_place_bet)

    @operation(
        actor=Role.PLAYER,
        rule="CR-R6",
        args=(Arg("bet", TEXT), Arg("amount", AMOUNT), Arg("on", optional(WHOLE), None)),
    )
    def place_bet(
        self,
        actor: Actor | str,
        bet: str | CrapsBetKind,
        amount: Money,
        *,
        on: int | None = None,
    ) -> tuple[Event, ...]:
        """Place a bet: its stake moves from the player's stack to the wagers (a hold)."""
        self.verify_place_bet(actor, bet, amount, on=on)
        player = _as_actor(actor).name
        kind = bet if isinstance(bet, CrapsBetKind) else bet_kind(bet)
        bet_id = self.next_bet_id
        ev = BetPlaced(
            bet_id=bet_id, player=player, bet=kind.name, amount=amount.minor, on=on,
            **self._money_fields({accounts.stack(self._table_id, player): -amount.minor,
                                  self._wagers: amount.minor}, opens=(bet_id,)),
        )  # fmt: skip
        return self._emit(ev)

    def verify_increase_bet(self, actor: Actor | str, bet_id: int, amount: Money) -> None:
        """CR-R6 / CR-12 / CR-R9: the player's bet grows (``placing.check_increase``)."""
        bet = self._own(actor, bet_id)
        self._amount(amount)
        placing.check_increase(self.rules, bet, self.point, self._bets, amount)
        self._funds(bet.player, amount)

    can_increase_bet = can(verify_increase_bet)

    @operation(actor=Role.PLAYER, rule="CR-12", args=(Arg("bet_id", WHOLE), Arg("amount", AMOUNT)))
    def increase_bet(self, actor: Actor | str, bet_id: int, amount: Money) -> tuple[Event, ...]:
        self.verify_increase_bet(actor, bet_id, amount)
        player = self._bets[bet_id].player
        ev = BetIncreased(
            bet_id=bet_id, player=player, amount=amount.minor,
            **self._money_fields({accounts.stack(self._table_id, player): -amount.minor,
                                  self._wagers: amount.minor}),
        )  # fmt: skip
        return self._emit(ev)

    def verify_take_down(self, actor: Actor | str, bet_id: int) -> None:
        """CR-R6: a Pass or Come bet with a point is a contract bet; all else may come down."""
        bet = self._own(actor, bet_id)
        kind = BET_KINDS[bet.kind]
        if kind.contract and bet.point is not None:
            raise BetNotAllowed(
                f"the {bet_label(bet)} bet has a point: a contract bet cannot be taken "
                "down (CR-R6)",
                rule=kind.rule,
            )

    can_take_down = can(verify_take_down)

    @operation(actor=Role.PLAYER, rule="CR-R6", args=(Arg("bet_id", WHOLE),))
    def take_down(self, actor: Actor | str, bet_id: int) -> tuple[Event, ...]:
        """Return the bet's stake (and its odds', which come down with it) to the stack."""
        self.verify_take_down(actor, bet_id)
        odds = self.odds_on(bet_id)
        ids = (bet_id,) if odds is None else (bet_id, odds.id)
        return self._emit(self._returned(self._bets[bet_id].player, ids, TAKEN_DOWN))

    # --- CR-1 the throw; CR-R1 void throws and cocked dice; CR-R7 the shooter ---------------

    def _shooter_acts(self, actor: Actor | str) -> str:
        who = _as_actor(actor)
        if self.shooter is None:
            raise OutOfOrder("nobody has the dice: the table is empty", rule="CR-1")
        if who.role is not Role.PLAYER or who.name != self.shooter:
            raise OutOfOrder(f"{self.shooter} has the dice, not {who} (CR-R7)", rule="CR-1")
        return who.name

    def _drawn(self) -> Dice | None:
        """The next throw's dice from the shooter's seed, or None if the seed is unknown."""
        seed = self._seed
        if seed is None or self._commitment is None:
            return None
        cached = self._draw_cache
        if cached is not None and cached[:2] == (self._commitment, self.throws):
            return cached[2]
        rng = Rng.for_event(seed, self._table_id, f"throw:{self.throws + 1}")
        d1, d2 = rng.dice(2)
        self._draw_cache = (self._commitment, self.throws, Dice(d1, d2))
        return self._draw_cache[2]

    def verify_throw(self, actor: Actor | str, *, dice: Dice | None = None) -> None:
        """CR-1: only one player, the shooter, throws (CR-R7: until a seven-out); his dice
        come from his committed seed. ``dice`` (replay) must be the seed's."""
        self._shooter_acts(actor)
        if self.rules.dealer == "live":
            raise OutOfOrder(
                "this table is dealer-operated: the dealer keys in every throw's dice; the "
                "RNG throws none",
                rule="CR-R1",
            )
        if not self._can_draw():
            raise OutOfOrder(
                "no seed is committed for this shooter: the dealer keys in the dice",
                rule="CR-1",
            )
        drawn = self._drawn()
        if drawn is None and dice is None:
            raise InvalidInput("the seed of this shooter is not known: give the dice", rule="CR-1")
        if dice is not None and drawn is not None and dice != drawn:
            raise InvalidInput(
                f"the dice {dice} are not those of the shooter's seed ({drawn})", rule="CR-1"
            )

    can_throw = can(verify_throw)

    @operation(actor=Role.PLAYER, rule="CR-1", args=(Arg("dice", optional(_DICE), None),), rng=True)
    def throw(
        self, actor: Actor | str, *, dice: Dice | None = None, rng: Rng | None = None
    ) -> tuple[Event, ...]:
        """CR-1: the shooter throws: two dice from ``Rng.for_event(seed, table, "throw:<n>")``
        (the RNG path never produces a cocked die or a die off the table, CR-R1). ``rng``
        draws the next shooter's seed after a seven-out."""
        self.verify_throw(actor, dice=dice)
        drawn = self._drawn() or dice
        assert drawn is not None
        return self._thrown(drawn, (False, False), _as_actor(actor), rng)

    def verify_throw_dice(
        self, d1: int, d2: int, *, cocked: tuple[bool, bool] = (False, False),
        by: Actor = Actor.DEALER,
    ) -> None:  # fmt: skip
        """CR-1, CR-R1: the dealer keys in the dice as thrown at a live table."""
        if not isinstance(by, Actor) or by.role not in (Role.DEALER, Role.SUPERVISOR):
            raise OutOfOrder(f"the dealer keys in the dice, not {by}", rule="CR-R1")
        if self.rules.dealer == "auto":
            raise OutOfOrder(
                "this table is auto-dealt: its dice are the shooter's, from the RNG; none are "
                "keyed in",
                rule="CR-R1",
            )
        if self.shooter is None:
            raise OutOfOrder("nobody has the dice: the table is empty", rule="CR-1")
        Dice(d1, d2)
        if len(cocked) != 2 or not all(isinstance(c, bool) for c in cocked):
            raise InvalidInput(f"cocked is two true/false values, not {cocked!r}", rule="CR-R1")

    can_throw_dice = can(verify_throw_dice)

    def throw_dice(
        self,
        d1: int,
        d2: int,
        *,
        cocked: tuple[bool, bool] = (False, False),
        by: Actor = Actor.DEALER,
        rng: Rng | None = None,
    ) -> tuple[Event, ...]:
        """CR-1: the dice as read at a live table, keyed in by the dealer; ``cocked`` marks a
        die not lying flat whose face "most evidently up" the dealer declared (CR-R1)."""
        self.verify_throw_dice(d1, d2, cocked=cocked, by=by)
        return self._thrown(Dice(d1, d2), (cocked[0], cocked[1]), by, rng)

    @operation(
        "throw_dice",
        actor=(Role.DEALER, Role.SUPERVISOR),
        rule="CR-R1",
        args=(Arg("dice", _DICE), Arg("cocked", _COCKED, (False, False))),
        rng=True,
        actor_param="by",
    )
    def _keyed_throw(
        self,
        dice: Dice,
        cocked: tuple[bool, bool] = (False, False),
        by: Actor = Actor.DEALER,
        rng: Rng | None = None,
    ) -> tuple[Event, ...]:
        """``throw_dice`` as a command gives it: the dice as a pair."""
        return self.throw_dice(dice.d1, dice.d2, cocked=cocked, by=by, rng=rng)

    def _thrown(
        self, dice: Dice, cocked: tuple[bool, bool], actor: Actor, rng: Rng | None
    ) -> tuple[Event, ...]:
        assert self.shooter is not None
        start = len(self._journal)
        ev = DiceThrown(
            self.throws + 1, self.rolls + 1, self.shooter, str(actor), (dice.d1, dice.d2), cocked
        )
        self._emit(ev)
        settled = settlement.settle(self, dice)
        self._emit(settled)
        if settled.point_before is not None and dice.total == 7:
            # CR-R7: the shooter keeps the dice until a seven-out; then the next seat.
            self._hand_dice(self.shooter, SEVEN_OUT, rng)
        return self._since(start)

    def verify_void_throw(self, *, by: Actor = Actor.DEALER) -> None:
        """CR-1 / CR-R1: the dealer declares a void throw; it touches no bet. Only at a table
        whose dice are physical: an auto-dealt table's RNG throw is never voided."""
        if not isinstance(by, Actor) or by.role not in (Role.DEALER, Role.SUPERVISOR):
            raise OutOfOrder(f"the dealer declares a void throw, not {by}", rule="CR-R1")
        if self.rules.dealer == "auto":
            raise OutOfOrder(
                "this table is auto-dealt: its RNG throw never leaves the table and is never "
                "voided",
                rule="CR-R1",
            )
        if self.shooter is None:
            raise OutOfOrder("nobody has the dice: the table is empty", rule="CR-1")

    can_void_throw = can(verify_void_throw)

    @operation(
        actor=(Role.DEALER, Role.SUPERVISOR),
        rule="CR-R1",
        args=(Arg("reason", TEXT, "a die left the table"),),
        actor_param="by",
    )
    def void_throw(
        self, reason: str = "a die left the table", *, by: Actor = Actor.DEALER
    ) -> tuple[Event, ...]:
        """CR-1, CR-R1: one or both dice off the table — void, logged, thrown again."""
        self.verify_void_throw(by=by)
        if not isinstance(reason, str) or not reason.strip() or len(reason) > 200:
            raise InvalidInput("a void throw's reason is a short text", rule="CR-R1")
        assert self.shooter is not None
        return self._emit(ThrowVoided(self.throws + 1, self.shooter, str(by), reason))

    def verify_pass_dice(self, actor: Actor | str) -> None:
        """A shooter may pass the dice between throws (CR-R7, the engine's reading: the point
        and every bet stay, and the next shooter throws for the point)."""
        self._shooter_acts(actor)

    can_pass_dice = can(verify_pass_dice)

    @operation(actor=Role.PLAYER, rule="CR-R7", rng=True)
    def pass_dice(self, actor: Actor | str, *, rng: Rng | None = None) -> tuple[Event, ...]:
        """The shooter hands the dice to the next seat clockwise (CR-R7); his seed is
        revealed and the next shooter's committed (with ``rng``)."""
        self.verify_pass_dice(actor)
        start = len(self._journal)
        self._hand_dice(_as_actor(actor).name, PASSED, rng)
        return self._since(start)

    def _next_seat(self, after: str | None) -> int | None:
        """The next occupied seat clockwise after ``after``'s seat (he is skipped)."""
        seats = sorted(s for s, p in self._seats.items() if p != after)
        if not seats:
            return None
        if after is None:
            return seats[0]
        mine = self.seat_of(after)
        return next((s for s in seats if s > mine), seats[0])

    def _hand_dice(self, frm: str | None, reason: str, rng: Rng | None) -> DicePassed:
        """The dice pass (CR-R7): the event, the old seed revealed, the new one committed."""
        seat = min(self._seats) if reason == FIRST_SHOOTER else self._next_seat(frm)
        to = self._seats[seat] if seat is not None else None
        if frm is not None and reason in (PASSED, SEVEN_OUT) and to is None:
            to, seat = frm, self.seat_of(frm)  # alone at the table: the dice come back
        ev = DicePassed(frm, to, seat, self.shooters + (to is not None), reason)
        old_label, old_commitment = self._seed_label, self._commitment
        self._emit(ev)
        if old_commitment is not None:
            seed = self._keyring.get(old_commitment)
            if seed is None:
                raise ReplayMismatch(
                    f"the seed committed for {old_label} is not revealed, or does not match "
                    "its commitment",
                    rule="CR-1",
                )
            assert old_label is not None
            self._emit(contract.SeedRevealed(old_label, seed.hex()))
        if to is not None and self.rules.dealer != "live":  # CR-R1: the RNG throws none
            label = f"shooter:{ev.shooter}"
            committed = self._new_seed(label, rng)
            if committed is not None:
                self._emit(contract.SeedCommitted(label, committed))
        return ev

    def _new_seed(self, label: str, rng: Rng | None) -> str | None:
        """The commitment of the next shooter's seed (the seed goes to the keyring): in
        replay, the journalled one; else drawn from ``rng``; None if there is neither. (A
        table replayed at a server's start-up goes on live: a shooter after the journal's
        last one draws his seed, and throws.)"""
        if self._replay_commitments is not None and label in self._replay_commitments:
            return self._replay_commitments[label]
        if rng is None:
            return None
        seed = rng.below(1 << 256).to_bytes(32, "big")
        c = commitment(seed)
        self._keyring[c] = seed
        return c

    # --- settlement of one roll ------------------------------------------------------------

    # --- time-outs ---------------------------------------------------------------------------

    def _time_out(self, pending: Pending, rng: Rng | None) -> None:
        """A shooter who does not throw passes the dice (CR-R7)."""
        self._hand_dice(pending.actor.name, PASSED, rng)

    # --- snapshots (the kernel's checkpoint) ----------------------------------------------------

    #: a snapshot leaves out the kernel's parts, a cache, the layout's index (derived) and a
    #: replay's scaffolding
    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = Table.SNAPSHOT_SKIP | {
        "_draw_cache",
        "_bet_index",
        "_replay_commitments",
    }

    def _snapshot_skip(self) -> frozenset[str]:
        """The CR-R9 taken-down odds only when there are some (a table without them writes
        the snapshot, and its checkpoint's digest, as a table did before it kept them)."""
        return self.SNAPSHOT_SKIP | ({"_odds_down"} if not self._odds_down else set())

    def _load(self, encoded: Any) -> None:
        super()._load(encoded)
        if not hasattr(self, "_odds_down"):
            self._odds_down = set()  # written only when some (_snapshot_skip)

    def _replaying(self, window: Journal) -> None:
        """The window's shooters' commitments, as :meth:`open_for_replay` takes a whole
        journal's."""
        self._replay_commitments = {
            ev.label: ev.commitment
            for ev in window.events
            if isinstance(ev, contract.SeedCommitted)
        }

    # --- replay: the command that starts with an event ------------------------------------------

    def _command_of(self, ev: Event) -> Command | None:
        """The command whose first event is ``ev`` (replay; ``history``)."""
        return history.command_of(ev)
