"""What each event does to a tile table's state: :func:`apply`, the one place the state of a
:class:`~macau_tables.games.tiles.table.TileTable` changes (its ``apply``). The seats and
the chips; the bank offered and taken (PG-4.1, PG-4.3, PG-4.9, PG-R6, TW-5a … TW-5d); the
woodpile shuffled or built (PG-1.1, TW-2a, TW-2d); the round's bets, co-bank, stacks, dice,
deal, exposed tiles and settings (the round's own steps, :class:`TileRound`); the settlement
(PG-6, PG-8.3, TW-6b) and the bank's rotation after it; the limits from the next round.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence

from macau_tables.core import snapshot
from macau_tables.core.errors import InvalidInput, OutOfOrder, ReplayMismatch
from macau_tables.core.journal import Event, JsonValue
from macau_tables.core.ledger import movement_of
from macau_tables.core.money import Money
from macau_tables.games import contract
from macau_tables.games.contract import Actor, LimitsChanged, accounts
from macau_tables.games.kernel import Table
from macau_tables.games.tiles import events
from macau_tables.games.tiles.rounds import HOUSE, Phase, Regulation, Rotation, TileRound
from macau_tables.games.tiles.rules import TilePhase, TileTableRules, WoodpileOrder, _Offer
from macau_tables.games.tiles.settlement import Settlement
from macau_tables.games.tiles.settlement import settle as settle_round
from macau_tables.tiles import FULL_SET, Tile, parse_tiles

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = [
    "TileState",
    "apply_event",
]


def apply_event(t: TileState, ev: Event) -> None:
    """What ``ev`` does to the table's state (``TileTable.apply``, the only place it changes)."""
    match ev:
        case contract.TableOpened():
            if len(t._journal):
                raise OutOfOrder("a table opens once")
        case events.PlayerSat(player=player, seat=seat):
            t._seats[seat] = player
            t._stacks.setdefault(player, 0)
        case events.PlayerLeft(seat=seat):
            del t._seats[seat]
        case (
            events.ChipsBought() | events.ChipsCashed() | events.CoBankJoined() | events.BetPlaced()
        ):
            _apply_money(t, ev)
        case events.BankDeclined(seat=seat):
            o = t._offer
            if o.keep and seat == o.turn:  # a banker passes the bank on (PG-R6)
                t._offer = _Offer(turn=seat % t.rules.places + 1)
            else:
                o.declined.append(seat)
        case events.BankOpened():
            _open_round(t, ev)
        case contract.SeedCommitted(label=label, commitment=c):
            _shuffle(t, label, c)
        case events.WoodpileBuilt(label=label):
            rnd = t._need_round()
            t._round = rnd.shuffle_tiles(sorted(FULL_SET))  # the keyed hands replace it
            t._woodpiles += 1
            t._label, t._commitment = label, ""
            t._keyed_pile = True
            t._woodpile_rounds = 0
            t._dice_tries = 0
            t._phase = TilePhase.BETTING
        case events.HandsKeyed(dice=dice, hands=hands):
            rnd = t._need_round()
            keyed = {int(seat): tuple(parse_tiles(ts)) for seat, ts in hands.items()}
            t._round = rnd.keyed(t._woodpile_with(rnd, dice, keyed))
        case contract.SeedRevealed() | events.WoodpileEnded():
            t._keyed_pile = False
            t._woodpile_rounds = 0
            t._label = ""
            t._commitment = ""
            t._face_up = ()
            if t._round is not None and t._round.phase is Phase.SHUFFLE:
                t._phase = TilePhase.SHUFFLE  # PG-R3: a void deal, shuffled again
        case events.StacksRearranged(player=player, order=order):
            rnd = t._need_round()
            t._round = rnd.rearrange(t._person(player), order)
        case events.DiceShaken(dice=dice, valid=valid):
            rnd = t._need_round()
            t._round = rnd.shake_dice(dice, valid=valid)
            t._dice_tries += 1
            if valid:
                t._phase = TilePhase.SETTING
                t._woodpile_rounds += 1
        case events.TilesDealt(seat=seat, holder=holder, tiles=tiles):
            t._dealt[seat] = (holder, tiles)
        case events.TilesExposed(seat=seat, tiles=tiles):
            rnd = t._need_round().report_exposed(seat, len(tiles))
            t._round = rnd
            t._exposed.setdefault(seat, []).extend(tiles)
            if rnd.phase is Phase.SHUFFLE:  # PG-2.3 / PG-R3: the deal is void
                t._dealt = {}
                t._exposed = {}
                t._set_by = {}
                t._dice_tries = 0
                t._woodpile_rounds = 0
        case events.TilesSet(player=player, seat=seat, front=front, back=back):
            rnd = t._need_round()
            rnd = rnd.set_tiles(player, seat, list(parse_tiles(list(front))))
            t._round = rnd
            t._set_by[seat] = (player, front, back)
            if rnd.banker_seat in rnd.settings:
                t._phase = TilePhase.SETTLE
        case events.RoundSettled():
            _settled(t, ev)
        case contract.TimedOut(actor=actor, op=op, rule=rule):
            t._timed_out = (actor, op, rule)
        case contract.LimitsChanged():
            t._next_limits = ev
            if t._round is None:
                t._limits_now()
        case contract.RoundVoided() | contract.RoundCorrected() | contract.Checkpoint():
            pass  # the state follows the effective history (the kernel's _restate)
        case _:
            raise InvalidInput(f"{ev.kind} is not an event of a tile table")


def _apply_money(t: TileState, ev: Event) -> None:
    mv = movement_of(ev)
    assert mv is not None
    for posting in mv.transaction.postings:
        prefix = f"stack:{t._table_id}:"
        if posting.account.startswith(prefix):
            name = posting.account[len(prefix) :]
            t._stacks[name] = t._stacks.get(name, 0) + posting.amount.minor
    rnd = t._round
    match ev:
        case events.CoBankJoined(hold=hold, player=player, capital=capital):
            assert rnd is not None
            t._round = rnd.join_bank(player, Money(capital, t.currency))
            t._cobank.append((hold, player, capital))
        case events.BetPlaced(bet_id=bet_id, player=player, seat=seat, amount=amount):
            assert rnd is not None
            t._round = rnd.place_bet(player, seat, Money(amount, t.currency))
            t._bets.append((bet_id, player, seat, amount))
            t._bet_count += 1
        case _:
            pass


def _open_round(t: TileState, ev: events.BankOpened) -> None:
    _apply_money(t, ev)
    t._round_no = ev.round_no
    t._banker = ev.banker
    t._banker_seat = ev.seat
    t._holds = list(ev.holds)
    t._bets, t._cobank = [], []
    t._dealt, t._exposed, t._set_by = {}, {}, {}
    t._dice_tries = 0
    t._timed_out = None
    cur = t.currency
    carried = None
    if t._label and t._prev is not None:  # TW-2d / TW-R2: the same woodpile
        carried = t._prev
    # PG-R6 gap fill: when the house banks, its capital is the banker's (TileRound.open)
    house = Money(0 if ev.banker == HOUSE else ev.house_capital, cur)
    t._round = TileRound.open(
        t.regulation, banker=ev.banker, banker_seat=ev.seat,
        banker_capital=Money(ev.capital, cur), house_capital=house,
        places=t.rules.places, round_no=ev.round_no,
        options=t.rules.round, carried=carried,
    )  # fmt: skip
    t._phase = TilePhase.BETTING if carried is not None else TilePhase.SHUFFLE


def _shuffle(t: TileState, label: str, c: str) -> None:
    seed = t._keyring.get(c)
    if seed is None:
        raise ReplayMismatch(
            f"{label}: the seed of commitment {c[:16]}… is not known (it is revealed when "
            "the woodpile is used up; a live table's server keeps it)"
        )
    order = tuple(t._order_of(seed, t._table_id, label))
    if sorted(order) != list(range(len(FULL_SET))):
        raise InvalidInput(f"{label}: a woodpile is an order of the 32 tiles", rule="T-1")
    t._round = t._need_round().shuffle_tiles([FULL_SET[i] for i in order])
    t._woodpiles += 1
    t._label, t._commitment = label, c
    t._woodpile_rounds = 0
    t._dice_tries = 0
    t._phase = TilePhase.BETTING


def _settled(t: TileState, ev: events.RoundSettled) -> None:
    rnd = t._need_round()
    _apply_money(t, ev)
    rnd.verify_settle()
    t._last = ev
    t._last_json = None
    t._last_bettors = {seat for _b, _p, seat, _a in t._bets}
    t._prev = rnd
    if t.rules.places == 4 and t._woodpile_rounds == 1:
        # TW-2d: the used tiles lie face up for the next round
        t._face_up = tuple(t for _s, ts in ev.hands for t in ts)
    t._round = None
    t._bets, t._cobank, t._holds = [], [], []
    t._phase = TilePhase.BANK
    t._limits_now()
    places = t.rules.places
    o = t._offer
    if t._banker == HOUSE:  # the turn moves on past the seat it started at
        t._offer = _Offer(turn=o.turn % places + 1)
        return
    left = dict(ev.postings).get(accounts.stack(t._table_id, t._banker), 0)
    held = o.rounds_held + 1 if o.keep else 1
    rot = Rotation(places, t._banker_seat, held, left, t.regulation)
    if not rot.must_pass() and left > 0 and t._seats.get(t._banker_seat) == t._banker:
        t._offer = _Offer(turn=t._banker_seat, keep=True, floor=left, rounds_held=held)
    else:
        t._offer = _Offer(turn=t._banker_seat % places + 1)


class TileState(Table):
    """A tile table's state, what the operations of
    :class:`~macau_tables.games.tiles.table.TileTable` and the round's helpers (the views,
    the settings' defaults, the bank's offer, the settlement's postings) read, and
    :meth:`apply`."""

    rules: TileTableRules
    regulation: Regulation
    #: replay of a timed-out shuffle: the journal's commitments by woodpile label
    _planned: dict[str, str]
    #: how a woodpile's order comes from its seed (``woodpile_order``; tests give another)
    _order_of: WoodpileOrder

    def apply(self, ev: Event) -> None:
        """The only place the table's state changes (what each event does: above)."""
        apply_event(self, ev)

    def _init_state(self) -> None:
        """A new table's state (changed only by :meth:`apply`)."""
        self.regulation = self.rules.regulation
        self._phase = TilePhase.BANK  # state: changed only by apply()
        self._phase = TilePhase.BANK
        self._seats: dict[int, str] = {}
        self._stacks: dict[str, int] = {}
        self._offer = _Offer(turn=self.rules.first_bank)
        self._round: TileRound | None = None
        self._round_no = 0
        self._banker = ""
        self._banker_seat = 0
        self._woodpiles = 0
        self._label = ""
        self._commitment = ""
        self._woodpile_rounds = 0  # rounds dealt from the current woodpile
        self._bets: list[tuple[str, str, int, int]] = []  # (bet id, player, seat, amount)
        self._bet_count = 0
        self._holds: list[str] = []  # the round's bank holds
        self._cobank: list[tuple[str, str, int]] = []  # (hold, player, capital)
        self._dice_tries = 0
        self._dealt: dict[int, tuple[str, tuple[str, ...]]] = {}
        self._exposed: dict[int, list[str]] = {}
        self._set_by: dict[int, tuple[str, tuple[str, ...], tuple[str, ...]]] = {}
        self._face_up: tuple[str, ...] = ()  # TW-2d: the first 4-place round's tiles
        # the seats bet on in the previous round (kept in the state for the snapshots'
        # digests; the rotation asks who bet, by person: bank._bet_last_round)
        self._last_bettors: set[int] = set()
        self._last: events.RoundSettled | None = None
        # its data as the views show it, worked out at the first view after it: a view
        # is asked for far more often than a round ends (clients poll it), and the
        # settlement's JSON was most of a Pai Gow view's cost
        self._last_json: JsonValue = None
        self._prev: TileRound | None = None
        self._timed_out: tuple[str, str, str] | None = None
        self._keyed_pile = False  # a physical woodpile: the hands are keyed in as dealt
        # a supervisor's new limits, waiting for the round under way to end (its bets keep
        # the limits of its bank's opening: TileRound.options)
        self._next_limits: LimitsChanged | None = None
        # hold ids re-issued by voids and corrections (contract.hold_aliases), as they come
        self._hold_aliases: dict[str, str] = {}

    @property
    def phase(self) -> TilePhase:
        return self._phase

    @property
    def round(self) -> TileRound | None:
        """The round in play (:class:`~macau_tables.games.tiles.rounds.TileRound`), if any."""
        return self._round

    @property
    def round_no(self) -> int:
        return self._round_no

    @property
    def banker(self) -> str:
        return self._banker

    @property
    def banker_seat(self) -> int:
        return self._banker_seat

    @property
    def last_settlement(self) -> events.RoundSettled | None:
        return self._last

    @property
    def last_round(self) -> TileRound | None:
        """The last settled round, as it was when the dealer settled it (for reports: its
        settlement is :func:`~macau_tables.games.tiles.settlement.settle` of it)."""
        return self._prev if self._last is not None else None

    def last_result(self) -> Settlement | None:
        """The last settled round's settlement (:func:`~macau_tables.games.tiles.settlement.settle`
        of :attr:`last_round`: the settings as turned up, every bet, the bank's layers and
        the postings in the round's accounts), or None."""
        rnd = self.last_round
        return None if rnd is None else settle_round(rnd)

    def seats(self) -> dict[int, str]:
        return dict(self._seats)

    def stack(self, player: str) -> Money:
        """The player's chips at the table (held money — bets, capital — excluded)."""
        return Money(self._stacks.get(player, 0), self.currency)

    def in_play(self, player: str) -> int:
        """What the player has in play this round: bets, co-bank and bank capital."""
        total = sum(a for _b, p, _s, a in self._bets if p == player)
        total += sum(c for _h, p, c in self._cobank if p == player)
        if self._round is not None and player == self._banker:
            total += self._round.banker_capital
        return total

    def _seat_of(self, player: str) -> int | None:
        return next((s for s, p in self._seats.items() if p == player), None)

    def _r(self, pg_id: str) -> str:
        """The regulation's own ID for a rule cited by Pai Gow's number (``Regulation.rule``)."""
        return self.regulation.rule(pg_id)

    def _cite(self, rule: str) -> str:
        return self._r(rule) if rule else rule

    def _banker_actor(self) -> Actor:
        return Actor.DEALER if self._banker == HOUSE else Actor.player(self._banker)

    def _need_round(self) -> TileRound:
        if self._round is None:
            raise OutOfOrder("no round is in play", rule=self._r("PG-4.4"))
        return self._round

    def _person(self, player: str) -> str:
        return player

    def _woodpile_with(
        self, rnd: TileRound, dice: Sequence[int], hands: Mapping[int, Sequence[Tile]]
    ) -> tuple[Tile, ...]:
        """The woodpile as far as it is known: each seat's stack holds its keyed hand; the
        stacks dealt earlier keep their tiles; the stacks not dealt yet hold the rest of the
        set (in set order: nobody sees them before they are dealt and keyed in)."""
        tiles = list(rnd.tiles)
        dealt = rnd.stacks_for(dice)
        earlier = [s for s in range(8) if s not in rnd.stack_order]
        free = [s for s in rnd.stack_order if s not in dealt.values()]
        left = Counter(FULL_SET)
        left.subtract(t for s in earlier for t in tiles[4 * s : 4 * s + 4])
        for seat, stack in dealt.items():
            tiles[4 * stack : 4 * stack + 4] = hands[seat]
            left.subtract(hands[seat])
        rest = sorted(left.elements())
        for k, stack in enumerate(free):
            tiles[4 * stack : 4 * stack + 4] = rest[4 * k : 4 * k + 4]
        return tuple(tiles)

    def _verify_betting(self, rule: str) -> TileRound:
        if self._phase is TilePhase.SHUFFLE:  # PG-1.1 / TW-2a: the dealer shuffles first
            raise OutOfOrder("the tiles are not shuffled yet", rule=self._r("PG-1.1"))
        if self._phase is not TilePhase.BETTING:
            raise OutOfOrder(
                "bets, co-bank and rearranging come before the dice", rule=self._r(rule)
            )
        return self._need_round()

    def _verify_rearrange_by(self, player: str, order: Sequence[int] | None = None) -> None:
        rnd = self._verify_betting("PG-2.1")
        rnd.verify_rearrange(player, list(order if order is not None else rnd.stack_order))

    def _limited(self, min_bet: int, max_bet: int) -> TileTableRules:
        opts = dataclasses.replace(self.rules.round, min_bet=min_bet, max_bet=max_bet)
        return dataclasses.replace(self.rules, round=opts)

    def _limits_now(self) -> None:
        ev, self._next_limits = self._next_limits, None
        if ev is not None:
            self.rules = self._limited(ev.min_bet, ev.max_bet)
