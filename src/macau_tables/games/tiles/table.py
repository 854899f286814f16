"""A Pai Gow (PG) / Taiwan Pai Kao (TW) table: the rounds, the bank and the money, under the
live-table contract (:mod:`macau_tables.games.contract`).

The round's rules stay where they are stated, in :mod:`.rounds` (the round as a value,
:class:`~macau_tables.games.tiles.rounds.TileRound`, each step verified), :mod:`.settlement` (its
settlement, a pure function), :mod:`paigow` and :mod:`taiwan`. This module is the one
engine that plays them — the server's tables, the terminal game and ``settle`` alike
(:mod:`.facts`) — with its events, and the table around the rounds:

* **the bank** — PG-4.1 / TW-5a two rounds at a time, PG-4.3 / TW-5b / PG-R6 declining and
  the turn passing right (an empty seat counts as declining; the player who receives a
  *declined* bank must himself have bet in the previous round, PG-R6 / TW-R7), PG-4.9 /
  TW-5d / PG-R11 the capital a keeping banker carries (never less than what is left on the
  table, :meth:`Rotation.verify_keep <macau_tables.games.tiles.rounds.Rotation.verify_keep>`),
  and the house banking a round when no seat will (PG-R6 gap fill);
* **the woodpile** — one server seed per woodpile, committed (``SeedCommitted``) before any
  bet or rearrangement, the order derived with ``Rng.for_event(seed, table, "woodpile:<n>")``
  and the dice with ``"woodpile:<n>:dice:<round>:<try>"``; the seed is revealed
  (``SeedRevealed``) when the woodpile is used up: after its round at 8 places, after the
  second round at 4 places (TW-2d / TW-R2), or when a deal is void (PG-2.3 / PG-R3);
* **what each one sees** — a seat's four tiles are dealt face down, private to the seat's
  holder (and the staff); the banker's to the banker; tiles exposed in the deal (PG-2.2,
  TW-4) are public; the settlement turns every hand up (PG-8.3, TW-6b); a setting is private
  to the one who made it until then;
* **money** — bets and co-bank capital are holds (``wagers:<table>`` and ``bank:<table>``),
  the banker's and the house's capital are holds on ``bank:<table>``; the settlement closes
  every hold of the round and posts the round's result (the arithmetic of
  :func:`~macau_tables.games.tiles.settlement.settle`) into the table's accounts: players'
  ``stack:<table>:<name>``, ``commission:<table>``, ``house:<table>``.

One journal per table: every round's events follow the previous round's in the one hash
chain (a round is the run of events between two ``BankOpened``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, Self

from macau_tables.core import snapshot
from macau_tables.core.errors import (
    InsufficientFunds,
    InvalidInput,
    OutOfOrder,
    RuleViolation,
)
from macau_tables.core.journal import Event, Journal, JsonValue
from macau_tables.core.money import Money
from macau_tables.core.rng import Rng, commitment
from macau_tables.core.visibility import Viewer
from macau_tables.games.contract import (
    Actor,
    Command,
    Pending,
    Role,
    SeedCommitted,
    SeedRevealed,
    TableOpened,
)
from macau_tables.games.kernel import (
    AMOUNT,
    FLAG,
    JSON,
    TEXT,
    Arg,
    ArgType,
    NewLimits,
    Table,
    can,
    operation,
    optional,
)
from macau_tables.games.tiles import bank, checkpoints, history, posting, seats, views
from macau_tables.games.tiles.events import (
    BankDeclined,
    BankOpened,
    BetPlaced,
    ChipsBought,
    ChipsCashed,
    CoBankJoined,
    DiceShaken,
    HandsKeyed,
    PlayerLeft,
    PlayerSat,
    StacksRearranged,
    TilesDealt,
    TilesExposed,
    TilesSet,
    WoodpileBuilt,
    WoodpileEnded,
)
from macau_tables.games.tiles.rounds import (
    HOUSE,
    Phase,
    Rotation,
    TileRound,
)
from macau_tables.games.tiles.rules import (
    RESERVED,
    SUPERSEDED_CITATIONS,
    TilePhase,
    TileTableRules,
    WoodpileOrder,
    woodpile_order,
)
from macau_tables.games.tiles.settlement import settle as settle_round
from macau_tables.games.tiles.state import TileState
from macau_tables.tiles import Setting, Tile, parse_tiles

__all__ = [
    "PaiGowTable",
    "TaiwanTable",
    "TileTable",
]


#: this module was ``macau_tables.games.tiletable``: its classes keep the names its snapshots gave
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")


# --- the table -------------------------------------------------------------------------------


def _seat(value: Any, table: Table) -> int:
    assert isinstance(table, TileTable)
    return table._seat_arg(value)


#: a seat's number: a whole number, or the table's seat rule (PG-1.4 / TW-3a) as its error
SEAT = ArgType("a seat number", _seat)


class TileTable(TileState):
    """A Pai Gow or Taiwan Pai Kao table under the contract (``TableEngine``).

    Open one with :func:`open_table`; drive it with :meth:`execute` and :meth:`pending`.
    ``seeds`` (commitment → seed) are server seeds the engine may use (replay; a server
    recovering a live table). ``order_of`` derives a woodpile from its seed (default
    :func:`woodpile_order`; tests substitute it to build two hidden orders behind one
    commitment).
    """

    game: ClassVar[str] = "tiles"
    RULES = TileTableRules
    rules: TileTableRules
    SUPERSEDED_CITATIONS: ClassVar[Mapping[str, frozenset[str]]] = MappingProxyType(
        SUPERSEDED_CITATIONS
    )

    def __init__(
        self,
        rules: TileTableRules,
        table_id: str,
        *,
        seeds: Mapping[str, bytes] | None = None,
        planned: Mapping[str, str] | None = None,
        order_of: WoodpileOrder = woodpile_order,
        header: Mapping[str, Any] | None = None,
    ) -> None:
        self.rules = rules
        self.regulation = rules.regulation
        super().__init__(rules, table_id, journal_game=rules.game, header=header, seeds=seeds)
        # replay of a timed-out shuffle: the journal's commitments by woodpile label
        self._planned: dict[str, str] = dict(planned or {})
        self._order_of = order_of
        self._init_state()
        self._open()

    def game_name(self) -> str:
        return self.rules.game

    # ---- the contract's properties -------------------------------------------------------

    # ---- who acts --------------------------------------------------------------------------

    def bank_candidate(self) -> int | None:
        """The seat the bank is offered to now (PG-4.3, PG-R6), or None (the house banks)."""
        return bank.candidate(self)

    def bank_offer(self) -> tuple[int | None, bool, int]:
        """(the seat offered the bank, whether it is the banker's keep, the least capital:
        PG-4.9 / TW-5d / PG-R11 what is left on the table for a keeping banker, else 1)."""
        return bank.offer(self)

    def _setters(self) -> list[tuple[Actor, int]]:
        """Seats still to set, with who sets them: the seats first, then the banker."""
        return views.setters(self)

    def pending(self) -> tuple[Pending, ...]:
        """Who may act now, and the rules' default if they don't (see the contract)."""
        return views.pending(self)

    # ---- apply: the only place the state changes -----------------------------------------------

    # ---- seats and chips ---------------------------------------------------------------------

    def _player(self, actor: Actor) -> str:
        if actor.role is not Role.PLAYER:
            raise RuleViolation(f"only a player may do this, not {actor}", rule=self._r("PG-4.6"))
        return actor.name

    def _amount(self, value: Money, what: str) -> int:
        """A positive amount of the table's currency, in minor units."""
        if not isinstance(value, Money) or value.currency != self.currency:
            raise InvalidInput(f"{what} is an amount in {self.currency.code}, not {value!r}")
        if not value.is_positive():
            raise InvalidInput(f"{what} must be positive, not {value}")
        return value.minor

    def verify_sit(self, actor: Actor, seat: object) -> None:
        player = self._player(actor)
        if player in RESERVED:
            raise InvalidInput(f"{player!r} is reserved for the table's parties")
        if (
            not isinstance(seat, int)
            or isinstance(seat, bool)
            or not 1 <= seat <= self.rules.places
        ):
            raise InvalidInput(f"a seat is 1 to {self.rules.places}", rule=self._r("PG-1.4"))
        if seat in self._seats:
            # PG-7.4 / TW-3c: one person to a seat's tiles (每一門祇可有一位博彩人牌及組合牌)
            raise RuleViolation(
                f"seat {seat} is taken by {self._seats[seat]}", rule=self._r("PG-7.4")
            )
        if self._seat_of(player) is not None:
            raise RuleViolation(f"{player} already has seat {self._seat_of(player)}")

    can_sit = can(verify_sit)

    def _seat_arg(self, value: Any) -> int:
        """A seat's number as a command gives it: a whole number, or the seat rule's error
        (PG-1.4 / TW-3a: the table's places are numbered)."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise InvalidInput(
                f"a seat is 1 to {self.rules.places}, not {value!r}", rule=self._r("PG-1.4")
            )
        return value

    @operation(
        actor=Role.PLAYER,
        rule="PG-1.4",
        args=(Arg("seat", SEAT), Arg("amount", optional(AMOUNT), None)),
    )
    def sit(self, actor: Actor, seat: int, amount: Money | None = None) -> tuple[Event, ...]:
        """A player takes an empty seat, with ``amount`` of chips from the wallet if given."""
        self.verify_sit(actor, seat)
        if amount is not None:
            self._amount(amount, "a buy-in")
        out = self._emit(PlayerSat(actor.name, seat))
        if amount is not None:
            out += self.buy_in(actor, amount)
        return out

    def verify_buy_in(self, actor: Actor, amount: Money) -> None:
        player = self._player(actor)
        if self._seat_of(player) is None:
            raise RuleViolation(f"{player} has no seat at this table")
        self._amount(amount, "a buy-in")

    @operation(actor=Role.PLAYER, args=(Arg("amount", AMOUNT),))
    def buy_in(self, actor: Actor, amount: Money) -> tuple[Event, ...]:
        """Chips from the player's wallet (the ledger refuses more than it holds)."""
        self.verify_buy_in(actor, amount)
        return self._emit(
            ChipsBought(self._table_id, actor.name, amount.minor, self.rules.currency)
        )

    def verify_cash_out(self, actor: Actor, amount: Money) -> None:
        player = self._player(actor)
        value = self._amount(amount, "a cash-out")
        if value > self._stacks.get(player, 0):
            raise InsufficientFunds(f"{player} has {self.stack(player)} at the table")

    @operation(actor=Role.PLAYER, args=(Arg("amount", AMOUNT),))
    def cash_out(self, actor: Actor, amount: Money) -> tuple[Event, ...]:
        """Chips back to the wallet (never what is in play: that is held, not in the stack)."""
        self.verify_cash_out(actor, amount)
        return self._emit(
            ChipsCashed(self._table_id, actor.name, amount.minor, self.rules.currency)
        )

    def verify_leave(self, actor: Actor) -> None:
        player = self._player(actor)
        if self._seat_of(player) is None:
            raise RuleViolation(f"{player} has no seat at this table")
        if self.in_play(player):
            rule = self._r("PG-4.7")
            raise RuleViolation(
                f"{player} has {Money(self.in_play(player), self.currency)} in play this round; "
                "it stays on the table until the round is settled",
                rule=rule,
            )

    can_leave = can(verify_leave)

    @operation(actor=Role.PLAYER, rule="PG-4.7")
    def leave(self, actor: Actor) -> tuple[Event, ...]:
        """Cash out the whole stack and stand up (refused while money is in play)."""
        self.verify_leave(actor)
        player = actor.name
        seat = self._seat_of(player)
        assert seat is not None
        out: list[Event] = []
        if self._stacks.get(player, 0) > 0:
            out.append(
                ChipsCashed(self._table_id, player, self._stacks[player], self.rules.currency)
            )
        out.append(PlayerLeft(player, seat))
        return self._emit(*out)

    # ---- the bank (PG-4.1, PG-4.3, PG-4.4, PG-4.9, PG-R6, TW-5a … TW-5d) ---------------------

    def _verify_candidate(self, actor: Actor) -> str:
        if self._phase is not TilePhase.BANK:
            raise OutOfOrder("the bank is taken between rounds", rule=self._r("PG-4.4"))
        player = self._player(actor)
        seat = self.bank_candidate()
        if seat is None or self._seats.get(seat) != player:
            who = "nobody" if seat is None else f"{self._seats[seat]} at seat {seat}"
            rule = self._r("PG-4.3")
            raise RuleViolation(f"the bank is offered to {who}, not {player}", rule=rule)
        return player

    def verify_open_bank(self, actor: Actor, capital: Money) -> None:
        player = self._verify_candidate(actor)
        value = self._amount(capital, "the bank's capital")
        rule = self._r("PG-4.4")
        if value > self._stacks.get(player, 0):
            raise InsufficientFunds(
                f"{player} has {self.stack(player)} to put on the table, not {capital}",
                rule=rule,
            )
        o = self._offer
        if o.keep:
            Rotation(
                self.rules.places, o.turn, o.rounds_held, o.floor, self.regulation
            ).verify_keep(value, False)

    can_open_bank = can(verify_open_bank)

    @operation(actor=Role.PLAYER, rule="PG-4.4", args=(Arg("capital", AMOUNT),))
    def open_bank(self, actor: Actor, capital: Money) -> tuple[Event, ...]:
        """PG-4.4 / TW-5c: the banker puts the capital on the table; a round opens."""
        self.verify_open_bank(actor, capital)
        seat = self.bank_candidate()
        assert seat is not None
        return self._emit(
            self._bank_opened(actor.name, seat, capital.minor, self.rules.house_capital)
        )

    def _bank_opened(self, banker: str, seat: int, capital: int, house: int) -> BankOpened:
        n = self._round_no + 1
        holds = [f"bank-{n}-{banker}"] + ([f"bank-{n}-house"] if house else [])
        return BankOpened(
            self._table_id, n, banker, seat, capital, house, self.rules.currency, tuple(holds)
        )

    def verify_decline_bank(self, actor: Actor) -> None:
        self._verify_candidate(actor)

    can_decline_bank = can(verify_decline_bank)

    @operation(actor=Role.PLAYER, rule="PG-4.3")
    def decline_bank(self, actor: Actor) -> tuple[Event, ...]:
        """PG-4.3 / TW-5b: decline the bank (a banker passes it on, PG-R6)."""
        self.verify_decline_bank(actor)
        seat = self.bank_candidate()
        assert seat is not None
        return self._emit(BankDeclined(actor.name, seat))

    def verify_house_banks(self, actor: Actor) -> None:
        if actor != Actor.DEALER:
            raise RuleViolation("the dealer opens the house's bank", rule=self._r("PG-R6"))
        if self._phase is not TilePhase.BANK:
            raise OutOfOrder("the bank is taken between rounds", rule=self._r("PG-4.4"))
        if self.bank_candidate() is not None:
            raise RuleViolation("a seat may still take the bank", rule=self._r("PG-R6"))
        if not self._seats or not self.rules.house_bank_capital:
            raise RuleViolation("the house banks only for seated players, when allowed")

    @operation(actor=Role.DEALER, rule="PG-R6")
    def house_banks(self, actor: Actor) -> tuple[Event, ...]:
        """PG-R6 gap fill: no seat takes the bank — the house banks this round at the seat
        whose turn it was."""
        self.verify_house_banks(actor)
        seat = self._offer.turn
        return self._emit(self._bank_opened(HOUSE, seat, self.rules.house_bank_capital, 0))

    # ---- the woodpile (PG-1.1, TW-2a) ----------------------------------------------------------

    def verify_shuffle(self, actor: Actor) -> None:
        if actor != Actor.DEALER:
            raise RuleViolation("the dealer shuffles", rule=self._r("PG-1.1"))
        if self._phase is not TilePhase.SHUFFLE:
            raise OutOfOrder(
                "the tiles are shuffled after the bank opens, before bets", rule=self._r("PG-1.1")
            )

    @operation(
        actor=Role.DEALER, rule="PG-1.1", args=(Arg("seed", optional(TEXT), None),), rng=True
    )
    def shuffle(
        self, actor: Actor, seed: str | None = None, rng: Rng | None = None
    ) -> tuple[Event, ...]:
        """PG-1.1 / TW-2a: a new woodpile from a server seed (``seed`` in hex, else drawn
        from ``rng``); only its commitment is published."""
        self.verify_shuffle(actor)
        if seed is not None:
            if not isinstance(seed, str):
                raise InvalidInput("a seed is hex text")
            try:
                raw = bytes.fromhex(seed)
            except ValueError as exc:
                raise InvalidInput("a seed is hex text") from exc
        elif rng is not None:
            raw = rng.source.random_bits(256).to_bytes(32, "big")
        elif self._planned.get(f"woodpile:{self._woodpiles + 1}") in self._keyring:
            raw = self._keyring[self._planned[f"woodpile:{self._woodpiles + 1}"]]  # (replay)
        else:
            raise InvalidInput("a shuffle needs a seed or a random source")
        if len(raw) < 32:
            raise InvalidInput("a server seed has at least 32 bytes")
        c = commitment(raw)
        self._keyring[c] = raw  # the seed stays in the vault until revealed
        return self._emit(SeedCommitted(f"woodpile:{self._woodpiles + 1}", c))

    @operation(actor=Role.DEALER, rule="PG-1.1")
    def build_woodpile(self, actor: Actor) -> tuple[Event, ...]:
        """PG-1.1 / TW-2a at a live table: the dealer builds a physical woodpile; the system
        never knows its order — the dealer keys in the hands as dealt (``shake`` with the
        banker's dice and ``hands``), and T-1 refuses a tile the set does not have."""
        self.verify_shuffle(actor)
        return self._emit(WoodpileBuilt(f"woodpile:{self._woodpiles + 1}", str(actor)))

    # ---- bets, co-bank, rearranging (PG-2.1, PG-3.2, PG-4.6, TW-2f, TW-2g, TW-5e) -------------

    def verify_place_bet(self, actor: Actor, seat: int, amount: Money) -> None:
        rnd = self._verify_betting("PG-4.7")
        player = self._player(actor)
        if self._seat_of(player) is None:
            raise RuleViolation(f"{player} has no seat at this table")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InvalidInput(f"a seat is a number, not {seat!r}")
        value = self._amount(amount, "a bet")
        rnd.verify_place_bet(player, seat, amount)
        if value > self._stacks.get(player, 0):
            raise InsufficientFunds(
                f"{player} has {self.stack(player)} at the table, not {amount}",
                rule=self._r("PG-4.6"),
            )

    can_place_bet = can(verify_place_bet)

    @operation(actor=Role.PLAYER, rule="PG-4.6", args=(Arg("seat", SEAT), Arg("amount", AMOUNT)))
    def place_bet(self, actor: Actor, seat: int, amount: Money) -> tuple[Event, ...]:
        """PG-4.6 / TW-2g: a bet on a seat before the dice (its id is its hold)."""
        self.verify_place_bet(actor, seat, amount)
        bet_id = f"bet-{self._bet_count + 1}"
        cur = self.rules.currency
        ev = BetPlaced(self._table_id, bet_id, actor.name, seat, amount.minor, cur)
        return self._emit(ev)

    def verify_join_bank(self, actor: Actor, capital: Money) -> None:
        rnd = self._verify_betting("PG-4.7")
        player = self._player(actor)
        if self._seat_of(player) is None:
            raise RuleViolation(f"{player} has no seat at this table")
        value = self._amount(capital, "co-bank capital")
        rnd.verify_join_bank(player, capital)
        if value > self._stacks.get(player, 0):
            raise InsufficientFunds(
                f"{player} has {self.stack(player)} at the table", rule=self._r("PG-3.2")
            )

    @operation(actor=Role.PLAYER, rule="PG-3.2", args=(Arg("capital", AMOUNT),))
    def join_bank(self, actor: Actor, capital: Money) -> tuple[Event, ...]:
        """PG-3.2 / TW-5e: co-bank after the banker."""
        self.verify_join_bank(actor, capital)
        hold = f"bank-{self._round_no}-{actor.name}"
        return self._emit(
            CoBankJoined(self._table_id, hold, actor.name, capital.minor, self.rules.currency)
        )

    def verify_rearrange(self, actor: Actor, order: object) -> None:
        player = self._player(actor)
        if not isinstance(order, list | tuple) or not all(
            isinstance(i, int) and not isinstance(i, bool) for i in order
        ):
            raise InvalidInput("a rearrangement is a list of stack numbers", rule=self._r("PG-R2"))
        self._verify_rearrange_by(player, order)

    @operation(actor=Role.PLAYER, rule="PG-2.1", args=(Arg("order", JSON),))
    def rearrange(self, actor: Actor, order: object) -> tuple[Event, ...]:
        """PG-2.1 / TW-2f: players (two at most), then the banker, before the dice."""
        self.verify_rearrange(actor, order)
        assert isinstance(order, list | tuple)
        return self._emit(StacksRearranged(actor.name, tuple(order)))

    # ---- the dice and the deal (PG-1.2 … PG-1.5, TW-2b … TW-2e) -------------------------------

    def verify_shake(self, actor: Actor, keyed: bool = False) -> TileRound:
        rnd = self._verify_betting("PG-1.2")
        if keyed and actor == Actor.DEALER:
            pass  # a live table: the dealer keys in the dice the banker shook
        elif actor != self._banker_actor():
            rule = "PG-4.1" if self.regulation.game == "paigow" else "TW-2b"
            raise RuleViolation("nobody shakes the dice for the banker", rule=rule)
        rnd.verify_shake()
        return rnd

    @operation(
        actor=(Role.PLAYER, Role.DEALER),
        rule="PG-1.2",
        args=(Arg("dice", JSON, None), Arg("cocked", FLAG, False), Arg("hands", JSON, None)),
        rng=True,
    )
    def shake(
        self,
        actor: Actor,
        dice: object = None,
        cocked: object = False,
        rng: Rng | None = None,
        hands: object = None,
    ) -> tuple[Event, ...]:
        """PG-1.2 / TW-2b: the banker's four dice, then the deal (each seat's tiles face down,
        private to its holder). Without ``dice`` they derive from the woodpile's seed;
        ``cocked`` (keyed-in dice only) means a cocked die: shaken again (PG-1.5, TW-2e).
        At a live table the dealer keys in the dice the banker shook; from a physical
        woodpile (:meth:`build_woodpile`) also the ``hands`` as dealt, ``{seat: [4 tiles]}``
        for every seat (PG-1.4)."""
        del rng  # the dice derive from the woodpile's seed, never from another source
        self._verify_betting("PG-1.2")
        if self._keyed_pile and dice is None:
            raise InvalidInput(
                "a physical woodpile: key in the banker's dice and the hands as dealt",
                rule=self._r("PG-1.2"),
            )
        rnd = self.verify_shake(actor, keyed=dice is not None)
        if not isinstance(cocked, bool):
            raise InvalidInput("cocked is true or false")
        keyed: dict[int, tuple[Tile, ...]] | None = None
        if hands is not None and not self._keyed_pile:
            raise InvalidInput(
                "this woodpile comes from its server seed: hands are keyed in only from a "
                "physical woodpile (build_woodpile)",
                rule=self._r("PG-1.4"),
            )
        if self._keyed_pile and not cocked:
            keyed = seats.keyed_hands(self, rnd, hands)
        elif hands is not None:
            raise InvalidInput("a cocked throw deals nothing: no hands", rule=self._r("PG-1.5"))
        if dice is None:
            if cocked:
                raise InvalidInput("only keyed-in dice can be cocked", rule=self._r("PG-1.5"))
            seed = self._keyring[self._commitment]
            label = f"{self._label}:dice:{self._round_no}:{self._dice_tries + 1}"
            got = Rng.for_event(seed, self._table_id, label).dice(4)
            by_hand = False
        else:
            if (
                not isinstance(dice, list | tuple)
                or len(dice) != 4
                or not all(
                    isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= 6 for d in dice
                )
            ):
                raise InvalidInput("four dice, each 1 to 6", rule=self._r("PG-1.2"))
            got, by_hand = tuple(dice), True
        who = self._banker
        out: list[Event] = []
        if keyed is not None:
            rows = {str(seat): tuple(str(t) for t in ts) for seat, ts in sorted(keyed.items())}
            out += self._emit(HandsKeyed(self._label, got, rows, str(actor)))
        out += self._emit(DiceShaken(who, got, not cocked, by_hand))
        if not cocked:
            rnd = self._need_round()  # (dealt)
            for seat in rnd.dealing_order():
                holder = rnd.banker if seat == rnd.banker_seat else (rnd.holder(seat) or "")
                tiles = tuple(str(t) for t in rnd.hands[seat])
                out += self._emit(TilesDealt(seat, holder, tiles))
        return tuple(out)

    # ---- exposed tiles (PG-2.2, PG-2.3, PG-R3, TW-4) ------------------------------------------

    def verify_report_exposed(self, actor: Actor, seat: object, tiles: object) -> None:
        if actor != Actor.DEALER:
            raise RuleViolation(
                "the dealer reports tiles exposed in the deal", rule=self._r("PG-2.2")
            )
        if self._phase is not TilePhase.SETTING:
            raise OutOfOrder("tiles are exposed in the deal", rule=self._r("PG-2.2"))
        rnd = self._need_round()
        if not isinstance(seat, int) or isinstance(seat, bool) or seat not in rnd.hands:
            raise InvalidInput("a seat of this deal")
        if not isinstance(tiles, list | tuple) or not all(isinstance(t, str) for t in tiles):
            raise InvalidInput("the exposed tiles, e.g. ['6-6']")
        rnd.verify_report_exposed(seat, len(tiles))
        left = [str(t) for t in rnd.hands[seat]]
        for t in self._exposed.get(seat, []):
            left.remove(t)
        for tile in parse_tiles(list(tiles)):
            if str(tile) not in left:
                raise InvalidInput(
                    f"{tile} is not a face-down tile of seat {seat}", rule=self._r("PG-2.2")
                )
            left.remove(str(tile))

    @operation(actor=Role.DEALER, rule="PG-2.2", args=(Arg("seat", JSON), Arg("tiles", JSON)))
    def report_exposed(self, actor: Actor, seat: object, tiles: object) -> tuple[Event, ...]:
        """The dealer reports tiles turned up in the deal: they are public; the regulation
        decides the effect (PG-2.3: a seat out, or the deal void and the woodpile revealed)."""
        self.verify_report_exposed(actor, seat, tiles)
        assert isinstance(seat, int)
        assert isinstance(tiles, list | tuple)
        names = tuple(str(t) for t in parse_tiles(list(tiles)))
        out = list(self._emit(TilesExposed(seat, names)))
        rnd = self._need_round()
        if rnd.phase is Phase.SHUFFLE:  # PG-R3: a new woodpile; this one is over
            out += self._reveal()
        return tuple(out)

    def _reveal(self) -> tuple[Event, ...]:
        if self._keyed_pile:
            return self._emit(WoodpileEnded(self._label))
        seed = self._keyring[self._commitment]
        return self._emit(SeedRevealed(self._label, seed.hex()))

    # ---- setting (PG-5, PG-7, PG-8.1, TW-6a, TW-6b) --------------------------------------------

    def verify_set_tiles(self, actor: Actor, seat: object, front: object) -> None:
        # (once the banker has set, the round refuses any setting: PG-8.2 / TW-6a)
        if self._phase not in (TilePhase.SETTING, TilePhase.SETTLE):
            raise OutOfOrder(
                "tiles are set after the deal, before the settlement", rule=self._r("PG-5.1")
            )
        rnd = self._need_round()
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise InvalidInput(f"a seat is a number, not {seat!r}")
        if not isinstance(front, list | tuple) or not all(isinstance(t, str) for t in front):
            raise InvalidInput("front names two tiles, e.g. ['6-6', '1-2']", rule=self._r("PG-5.1"))
        who = seats.setter_of(self, actor, seat)
        pair = list(parse_tiles(list(front)))
        if seat == rnd.banker_seat:
            rnd.verify_set_banker(who, pair)
        else:
            rnd.verify_set_seat(who, seat, pair)

    can_set_tiles = can(verify_set_tiles)

    @operation(
        actor=(Role.PLAYER, Role.DEALER),
        rule="PG-5.1",
        args=(Arg("seat", JSON), Arg("front", JSON)),
    )
    def set_tiles(self, actor: Actor, seat: object, front: object) -> tuple[Event, ...]:
        """PG-5.1 / TW-6a: split a seat's four tiles (``front`` names one hand's two tiles);
        the banker last (PG-8.1)."""
        self.verify_set_tiles(actor, seat, front)
        assert isinstance(seat, int)
        assert isinstance(front, list | tuple)
        rnd = self._need_round()
        who = seats.setter_of(self, actor, seat)
        setting = rnd.split(seat, list(parse_tiles(list(front))))
        return self._emit(
            TilesSet(
                who,
                seat,
                tuple(str(t) for t in setting.front.tiles),
                tuple(str(t) for t in setting.back.tiles),
            )
        )

    def default_setting(self, seat: int) -> Setting:
        """``seats.default_setting``."""
        return seats.default_setting(self, seat)

    def allowed_settings(self, seat: int) -> list[Setting]:
        """``seats.allowed_settings``."""
        return seats.allowed_settings(self, seat)

    # ---- the settlement (PG-6, PG-8.3, PG-R4, PG-R5, TW-6b, TW-6c, TW-8) ----------------------

    def verify_settle(self, actor: Actor) -> None:
        if actor != Actor.DEALER:
            raise RuleViolation("only the dealer turns the hands", rule=self._r("PG-8.3"))
        if self._phase is not TilePhase.SETTLE:
            raise OutOfOrder("settle after the banker has set", rule=self._r("PG-8.1"))

    @operation(actor=Role.DEALER, rule="PG-8.3")
    def settle(self, actor: Actor) -> tuple[Event, ...]:
        """Turn every hand up, compare, settle, close every hold of the round; reveal the
        woodpile's seed when it is used up. The arithmetic is the pure
        :func:`~macau_tables.games.tiles.settlement.settle` of the round as it stands."""
        self.verify_settle(actor)
        rnd = self._need_round()
        ev = posting.settled_event(self, rnd, settle_round(rnd))
        out = list(self._emit(ev))
        if self.rules.places == 8 or self._woodpile_rounds >= 2:
            out += self._reveal()
        return tuple(out)

    # ---- time-outs (the rules' defaults; the kernel's time_out) --------------------------------

    def _time_out(self, pending: Pending, rng: Rng | None) -> None:
        """The default's own events: the house way (or the forced setting) sets a seat's
        tiles; the dealer shuffles, the banker's dice are shaken, the bank is declined or
        the house banks, the hands are settled."""
        actor, op = pending.actor, pending.default
        if op == "set_tiles":
            seat = next(s for a, s in self._setters() if a == actor)
            front = [str(t) for t in self.default_setting(seat).front.tiles]
            self.set_tiles(actor, seat, front)
        elif op == "shuffle":
            self.shuffle(actor, None, rng)
        elif op == "shake":
            self.shake(actor)
        elif op == "decline_bank":
            self.decline_bank(actor)
        elif op == "house_banks":
            self.house_banks(actor)
        else:
            assert op == "settle", op
            self.settle(actor)

    # ---- the supervisor's void of the last round (contract: RoundVoided) ----------------------
    #
    # The last round — from its bank's opening, settled or not — did not happen: every bet and
    # the bank's capital (the co-bankers' too) are refunded, its settlement reversed
    # (``contract.money_delta``). Its woodpile is not dealt from again (its tiles were dealt):
    # a woodpile still in use ends with the void — its seed revealed (``table.seed_revealed``),
    # a physical one ended (``table.woodpile_ended``) — and the next round builds or
    # shuffles a new one. Round numbers, bet and hold ids and woodpile labels go on from the
    # journal's (never used twice). The dealer's own void of a deal for exposed tiles (PG-2.3 /
    # PG-R3: the bets stay) is another thing: ``report_exposed``.

    #: the events of a round, from its bank's opening to its settlement (what a void undoes)

    def _void_span(self) -> tuple[int, list[Event]]:
        return history.void_span(self)

    def _void_followers(self) -> list[Event]:
        """The woodpile in use ends with the void: its seed revealed, a physical one ended."""
        if self._label and self._keyed_pile:
            return [WoodpileEnded(self._label)]
        if self._label:
            return [SeedRevealed(self._label, self._keyring[self._commitment].hex())]
        return []

    # ---- a supervisor's new limits, from the next round (contract: LimitsChanged) -------------
    #
    # The limits are the round options' ``min_bet`` / ``max_bet``: a player's bet on a place
    # (PG-4.6, TW-2g; no text sets them, so no rule ID). A round takes its options when its
    # bank opens (``TileRound.open``): a change made during a round waits for its settlement,
    # one made between rounds applies to the next bank. The bank's capital is no limit's
    # business: the banker puts up what he will (PG-4.4, TW-5c) and the bank never wins or
    # loses more than it (PG-4.5).

    def _check_limits(self, new: NewLimits) -> None:
        """A supervisor's new limits of a player's bet: positive amounts in the table's
        currency, the minimum not above the maximum."""
        what = "a tile table's limits are a player's bet on a place (min_bet, max_bet) only"
        new.main_only(what, rule=self._r("PG-4.6"))
        for what, amount in (("min_bet", new.min_bet), ("max_bet", new.max_bet)):
            if not isinstance(amount, Money) or amount.currency != self.currency:
                raise InvalidInput(f"{what} is an amount in {self.currency.code}, not {amount!r}")
            if not amount.is_positive():
                raise InvalidInput(f"{what} must be positive, not {amount}")
        self._limited(new.min_bet.minor, new.max_bet.minor)  # the rule set validates

    # ---- the supervisor's correction of a keyed-in deal (contract: RoundCorrected) ------------
    #
    # At a live table the dealer keys in the banker's dice and every seat's tiles as dealt
    # (``shake {dice, hands}``). A second supervisor corrects that key-in in the last round:
    # the rules re-run it with the corrected dice and hands from the state before it (the
    # wrongly keyed tiles go back to the woodpile: T-1 counts only the right ones), then the
    # round's later operations as far as the rules still take them (a setting of tiles a seat
    # no longer holds is dropped: the seat sets again; the settlement waits for every
    # setting). The event's money is the difference (``contract.money_delta``); a hold the
    # wrong settlement closed and the right round leaves open is re-issued.

    #: keyed-in operations a supervisor may correct, and the arguments he may change
    CORRECTABLE: ClassVar[Mapping[str, tuple[str, ...]]] = MappingProxyType(
        {"shake": ("dice", "hands")}
    )

    #: the operations of a round after its keyed deal (a correction re-runs them)
    FOLLOWING_OPS: ClassVar[frozenset[str]] = frozenset(
        {"set_tiles", "time_out", "report_exposed", "settle"}
    )

    def _keyed_at(self, of_seq: int, event: Event) -> bool:
        return isinstance(event, HandsKeyed)

    def _opening(self) -> TileTable:
        opened = self._events[0]
        assert isinstance(opened, TableOpened)
        return type(self)(
            self._rules_of(opened), self._table_id, seeds=self._keyring,
            planned=self._planned, order_of=self._order_of, header=self._journal.header,
        )  # fmt: skip

    def _folding(self, fresh: TileTable) -> None:
        fresh._planned, fresh._order_of = self._planned, self._order_of

    def _rename_holds(self, new: Mapping[str, str]) -> None:
        self._bets = [(_renamed(b, new), p, s, a) for b, p, s, a in self._bets]
        self._holds = [_renamed(h, new) for h in self._holds]
        self._cobank = [(_renamed(h, new), p, c) for h, p, c in self._cobank]

    def _count_mark(self) -> Any:
        return (self._woodpiles, self._bet_count)  # the counts before the window

    def _counted(self, real: Sequence[Event], mark: Any = None) -> None:
        """The counters never go back below the journal's: no id or label is used twice
        (the counts before the window are the snapshot's, which counted every event before
        it)."""
        woodpiles, bet_count = mark
        piles = woodpiles + sum(isinstance(e, SeedCommitted | WoodpileBuilt) for e in real)
        self._woodpiles = max(self._woodpiles, piles)
        rounds = [e.round_no for e in real if isinstance(e, BankOpened)]
        self._round_no = max(self._round_no, *rounds) if rounds else self._round_no
        bets = bet_count + sum(isinstance(e, BetPlaced) for e in real)
        self._bet_count = max(self._bet_count, bets)

    def _correction_hint(self) -> str:
        return "the dice and hands, e.g. {'dice': [1, 2, 3, 4]}"

    # ---- snapshots (the kernel's checkpoint) -------------------------------------------------

    #: a snapshot leaves out the kernel's parts, a replay's scaffolding, the woodpile order
    #: function and a cache
    SNAPSHOT_SKIP: ClassVar[frozenset[str]] = Table.SNAPSHOT_SKIP | {
        "_planned",
        "_order_of",
        "_last_json",
    }

    @classmethod
    def _restored(cls, encoded: Any, journal: Journal, seeds: Mapping[str, bytes]) -> Self:
        table = super()._restored(encoded, journal, seeds)
        table._planned, table._order_of = {}, woodpile_order
        return table

    def _reset_caches(self) -> None:
        self._last_json = None

    def _replaying(self, window: Journal) -> None:
        """The window's woodpiles' commitments, as :func:`open_for_replay` takes a whole
        journal's."""
        self._planned = _planned(window.events)

    def _legacy_digest(self) -> str | None:
        """The digest this state had in the layout of a journal written before
        (:func:`legacy_digest`): a replayed checkpoint that cites it stands."""
        return checkpoints.legacy_digest(self)

    # ---- replay: the command that starts with an event ----------------------------------------

    def _command_of(self, ev: Event) -> Command | None:
        return history.command_of(self, ev)

    # ---- views -------------------------------------------------------------------------------

    def view(self, viewer: Viewer) -> dict[str, JsonValue]:
        """What ``viewer`` may see now (JSON-plain). Never the woodpile's order; another"""
        return views.view(self, viewer)


class PaiGowTable(TileTable):
    """A Pai Gow table (Portaria 96/85/M)."""

    game: ClassVar[str] = "paigow"


class TaiwanTable(TileTable):
    """A Taiwan Pai Kao table (Portaria 15/90/M)."""

    game: ClassVar[str] = "taiwan"


def _renamed(hold: str, aliases: Mapping[str, str]) -> str:
    """A hold's id after a correction re-issued it (``aliases``: base id → new id)."""
    return aliases.get(hold.split("~")[0], hold)


def _planned(events: Iterable[Event]) -> dict[str, str]:
    """The woodpiles' commitments in ``events``, by label (replay of a timed-out shuffle)."""
    return {ev.label: ev.commitment for ev in events if isinstance(ev, SeedCommitted)}
