"""A craps table's state (:class:`CrapsState`, the base of ``CrapsTable``) and what each
event does to it (:meth:`CrapsState.apply`, the one place it changes): the seats and the
stacks, the bets on the layout and their index (CR-2.2 the odds on each flat bet, CR-R6 the
contract bets working), the point (CR-2.1), the shooter and his committed seed (CR-R7), the
throws and rolls, the limits from the next round.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from macau_tables.core.errors import InvalidInput, JournalError
from macau_tables.core.journal import Event
from macau_tables.core.money import Money
from macau_tables.games import contract
from macau_tables.games.contract import accounts
from macau_tables.games.craps import events
from macau_tables.games.craps.bets import BET_KINDS, OpenBet
from macau_tables.games.craps.dice import Dice
from macau_tables.games.craps.rules import GAME, CrapsPhase, CrapsRules
from macau_tables.games.kernel import Table

__all__ = [
    "BetIndex",
    "CrapsState",
    "is_working",
]


def is_working(bet: OpenBet) -> bool:
    """CR-R6: a Pass or Come bet with its point is a contract bet, working until decided."""
    return bet.point is not None and BET_KINDS[bet.kind].contract


class BetIndex:
    """The bets on the layout (``CrapsTable._bets``) looked up the way the operations
    and ``pending`` need them, so that a bet costs the same on an empty layout and on a
    full one: each player's bets (in the order placed), the odds laid on each flat bet
    (CR-2.2, CR-3.2), and how many of a player's bets are contract bets working (CR-R6:
    they may not come down, and hold their player's cash-out).

    Derived data, never in a snapshot: built from the layout, then kept in step with it
    by :meth:`add`, :meth:`remove` and :meth:`replace`, which ``apply`` calls beside each
    change; a table that puts a new layout in its place (a void or a correction, a
    snapshot restored) gets an index of it at its next use (``CrapsTable._bets_ix``)."""

    __slots__ = ("bets", "odds", "players", "size", "working")

    def __init__(self, bets: dict[int, OpenBet]) -> None:
        self.bets = bets
        self.size = 0  # the bets indexed
        self.players: dict[str, dict[int, None]] = {}  # player -> his bets' ids
        self.odds: dict[int, dict[int, None]] = {}  # flat bet id -> the odds' ids on it
        self.working: dict[str, int] = {}  # player -> his contract bets working
        for bet in bets.values():
            self.add(bet)

    def of(self, bets: dict[int, OpenBet]) -> bool:
        """Whether this is the index of ``bets`` (its size a check that nothing changed
        the layout behind the index's back)."""
        return self.bets is bets and self.size == len(bets)

    def add(self, bet: OpenBet) -> None:
        self.size += 1
        self.players.setdefault(bet.player, {})[bet.id] = None
        if bet.parent is not None:
            self.odds.setdefault(bet.parent, {})[bet.id] = None
        if is_working(bet):
            self.working[bet.player] = self.working.get(bet.player, 0) + 1

    def remove(self, bet: OpenBet) -> None:
        self.size -= 1
        mine = self.players[bet.player]
        del mine[bet.id]
        if not mine:
            del self.players[bet.player]
        if bet.parent is not None:
            on = self.odds[bet.parent]
            del on[bet.id]
            if not on:
                del self.odds[bet.parent]
        if is_working(bet):
            self.working[bet.player] -= 1

    def replace(self, old: OpenBet, new: OpenBet) -> None:
        """A bet changed in place (its point set, its stake increased)."""
        self.working[old.player] = (
            self.working.get(old.player, 0) - is_working(old) + is_working(new)
        )

    def of_player(self, player: str) -> tuple[int, ...]:
        return tuple(self.players.get(player, ()))

    def odds_on(self, bet_id: int) -> int | None:
        return next(iter(self.odds.get(bet_id, ())), None)


class CrapsState(Table):
    """A craps table's state, what the operations of
    :class:`~macau_tables.games.craps.table.CrapsTable` and the settlement of a roll read,
    and :meth:`apply`."""

    rules: CrapsRules
    #: replay: the commitments journalled by shooter label (a seed given later is trusted)
    _replay_commitments: dict[str, str] | None

    def _init_state(self) -> None:
        self._draw_cache: tuple[str, int, Dice] | None = None
        table_id = self._table_id
        self._wagers = accounts.wagers(table_id)
        self._house = accounts.house(table_id)
        self._stack_prefix = f"stack:{table_id}:"
        self._seats: dict[int, str] = {}  # seat number -> player
        self._stacks: dict[str, int] = {}  # player -> chips at the table (minor units)
        self.shooter: str | None = None
        self.shooters = 0  # shooters so far (the label of the current one's seed)
        self.point: int | None = None
        self.rolls = 0
        self.throws = 0  # rolls and void throws
        self.next_bet_id = 1
        self._bets: dict[int, OpenBet] = {}
        self._bet_index: BetIndex | None = None  # derived from _bets: _bets_ix
        # CR-R9: the flat bets on the layout whose odds were taken down (not made again)
        self._odds_down: set[int] = set()
        self.last_roll: events.RollSettled | None = None
        self.last_throw: events.DiceThrown | None = None
        # The shooter's server seed: its label and commitment are public (SeedCommitted); the
        # seed stays in the keyring (by commitment) until it is revealed. Never in a view.
        self._seed_label: str | None = None
        self._commitment: str | None = None
        # Supervisor corrections (the kernel): holds re-issued by a void or a correction,
        # new limits waiting for the next round, and whether a round is under way (a bet
        # or a void throw since the last roll).
        self._hold_aliases: dict[str, str] = {}
        self._next_limits: contract.LimitsChanged | None = None
        self._round_open = False

    @property
    def events(self) -> tuple[Event, ...]:
        """The events of this table, in order (the journal's, without the hash chain)."""
        return tuple(self._events)

    @property
    def phase(self) -> CrapsPhase:
        """CR-2.1: a come-out roll while no point is on; else the point phase."""
        return CrapsPhase.COME_OUT if self.point is None else CrapsPhase.POINT

    @property
    def seats(self) -> tuple[str, ...]:
        """The players at the table, in seat order."""
        return tuple(self._seats[s] for s in sorted(self._seats))

    def seat_of(self, player: str) -> int:
        for seat, name in self._seats.items():
            if name == player:
                return seat
        raise InvalidInput(f"{player} has no seat at this table")

    @property
    def bets(self) -> tuple[OpenBet, ...]:
        """The bets on the layout, oldest first."""
        return tuple(self._bets.values())

    def bet(self, bet_id: int) -> OpenBet:
        if isinstance(bet_id, bool) or not isinstance(bet_id, int) or bet_id not in self._bets:
            raise InvalidInput(f"no bet #{bet_id} on the layout")
        return self._bets[bet_id]

    @property
    def _bets_ix(self) -> BetIndex:
        """The index of the layout (built again when the layout was replaced)."""
        ix = getattr(self, "_bet_index", None)
        if ix is None or not ix.of(self._bets):
            ix = self._bet_index = BetIndex(self._bets)
        return ix

    def bets_of(self, player: str) -> tuple[OpenBet, ...]:
        """The player's bets on the layout, oldest first."""
        return tuple(self._bets[i] for i in self._bets_ix.of_player(player))

    def odds_on(self, bet_id: int) -> OpenBet | None:
        """The odds laid on bet ``bet_id``, if any."""
        odds = self._bets_ix.odds_on(bet_id)
        return None if odds is None else self._bets[odds]

    def balance(self, player: str) -> Money:
        """The chips ``player`` has at the table (his stack), not counting bets."""
        return Money(self._stacks.get(player, 0), self.rules.currency)

    stack = balance

    def on_layout(self, player: str) -> Money:
        return Money(sum(b.amount.minor for b in self.bets_of(player)), self.rules.currency)

    def hold(self, bet_id: int) -> str:
        """The ledger hold of a bet: unique per table (and across tables); a bet whose
        hold a supervisor's void or correction re-issued has its new id."""
        base = f"{self._table_id}:{bet_id}"
        return self._hold_aliases.get(base, base)

    @property
    def _seed(self) -> bytes | None:
        """The current shooter's seed, if this engine knows it (secret)."""
        return self._keyring.get(self._commitment) if self._commitment else None

    def apply(self, ev: Event) -> None:
        """The only place the table's state changes."""
        match ev:
            case contract.TableOpened():
                if ev.game != GAME or len(self._journal):
                    raise JournalError(f"{ev.kind}: not the opening of a craps table")
            case events.PlayerJoined():
                self._seats[ev.seat] = ev.player
                self._stacks[ev.player] = 0
            case events.PlayerLeft():
                del self._seats[ev.seat]
            case events.BetPlaced():
                self._round_open = True
                parent = self._bets[ev.on] if ev.on is not None else None
                cur = self.rules.currency
                ix = self._bets_ix
                placed = self._bets[ev.bet_id] = OpenBet(
                    ev.bet_id, ev.player, ev.bet, Money(ev.amount, cur),
                    parent.point if parent else None, ev.on,
                )  # fmt: skip
                ix.add(placed)
                self.next_bet_id = ev.bet_id + 1
            case events.BetIncreased():
                self._round_open = True
                bet = self._bets[ev.bet_id]
                more = Money(ev.amount, self.rules.currency)
                ix = self._bets_ix
                self._bets[ev.bet_id] = dataclasses.replace(bet, amount=bet.amount + more)
                ix.replace(bet, self._bets[ev.bet_id])
            case events.BetTakenDown():
                ix = self._bets_ix
                for bet_id in ev.bet_ids:
                    gone = self._bets.pop(bet_id)
                    ix.remove(gone)
                    on = gone.parent
                    if on is not None and self.rules.odds_increases == "refused":  # CR-R9
                        self._odds_down.add(on)
                self._odds_down.difference_update(ev.bet_ids)
            case events.DiceThrown():
                self.throws, self.rolls, self.last_throw = ev.throw, ev.roll, ev
            case events.ThrowVoided():
                self.throws = ev.throw
            case events.RollSettled():
                ix = self._bets_ix
                for p in ev.points:
                    old = self._bets[p["bet"]]
                    self._bets[p["bet"]] = dataclasses.replace(old, point=p["point"])
                    ix.replace(old, self._bets[p["bet"]])
                for r in ev.results:
                    ix.remove(self._bets.pop(r["bet"]))
                    self._odds_down.discard(r["bet"])
                self.point, self.last_roll = ev.point_after, ev
                self._round_open = False
                self._limits_now()
            case events.DicePassed():
                self.shooter = ev.to
                self.shooters = ev.shooter
            case contract.SeedCommitted():
                self._seed_label, self._commitment = ev.label, ev.commitment
            case contract.SeedRevealed():
                self._seed_label = self._commitment = None
            case contract.LimitsChanged():
                self._next_limits = ev
                if not self._round_open:
                    self._limits_now()
            case (
                events.ChipsBought()
                | contract.TimedOut()
                | contract.RoundVoided()
                | contract.RoundCorrected()
                | contract.Checkpoint()
            ):
                pass  # a buy-in moves chips only (below); a time-out is a record; a void
                # or a correction: the state follows the effective history (the kernel's)
            case _:
                raise JournalError(f"{ev.kind} is not a craps event")
        if isinstance(ev, events._MoneyEvent):
            for account, minor in ev.postings:
                if account.startswith(self._stack_prefix):
                    player = account[len(self._stack_prefix) :]
                    self._stacks[player] = self._stacks.get(player, 0) + minor
            if isinstance(ev, events.PlayerLeft):
                del self._stacks[ev.player]

    def _limits_now(self) -> None:
        """New limits take effect at a round boundary (no bet since the last roll)."""
        if self._next_limits is not None:
            ev, cur = self._next_limits, self.rules.currency
            self.rules = dataclasses.replace(
                self.rules, min_bet=Money(ev.min_bet, cur), max_bet=Money(ev.max_bet, cur)
            )
            self._next_limits = None

    def _money_fields(
        self,
        postings: Mapping[str, int],
        opens: Sequence[int] = (),
        closes: Sequence[int] = (),
    ) -> dict[str, Any]:
        """The money fields of an event: postings (sorted, zeros dropped) and holds."""
        return {
            "currency": self.rules.currency.code,
            "postings": tuple((acc, m) for acc, m in sorted(postings.items()) if m),
            "opens": tuple(self.hold(i) for i in opens),
            "closes": tuple(self.hold(i) for i in closes),
        }

    def _can_draw(self) -> bool:
        """Whether the shooter's dice can be drawn from his seed (or, in replay, taken as
        journalled for a committed seed not yet revealed)."""
        return self._seed is not None or (
            self._commitment is not None and self._replay_commitments is not None
        )
