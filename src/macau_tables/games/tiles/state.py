"""What each event does to a tile table's state: :func:`apply`, the one place the state of a
:class:`~macau_tables.games.tiles.table.TileTable` changes (its ``apply``). The seats and
the chips; the bank offered and taken (PG-4.1, PG-4.3, PG-4.9, PG-R6, TW-5a … TW-5d); the
woodpile shuffled or built (PG-1.1, TW-2a, TW-2d); the round's bets, co-bank, stacks, dice,
deal, exposed tiles and settings (the round's own steps, :class:`TileRound`); the settlement
(PG-6, PG-8.3, TW-6b) and the bank's rotation after it; the limits from the next round.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from macau_tables.core import snapshot
from macau_tables.core.errors import InvalidInput, OutOfOrder, ReplayMismatch
from macau_tables.core.journal import Event
from macau_tables.core.ledger import movement_of
from macau_tables.core.money import Money
from macau_tables.games import contract
from macau_tables.games.contract import (
    accounts,
)
from macau_tables.games.tiles import events
from macau_tables.games.tiles.rounds import HOUSE, Phase, Rotation, TileRound
from macau_tables.games.tiles.rules import TilePhase, _Offer
from macau_tables.tiles import FULL_SET, parse_tiles

if TYPE_CHECKING:
    from macau_tables.games.tiles.table import TileTable

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = ["apply"]


def apply(t: TileTable, ev: Event) -> None:
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


def _apply_money(t: TileTable, ev: Event) -> None:
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


def _open_round(t: TileTable, ev: events.BankOpened) -> None:
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


def _shuffle(t: TileTable, label: str, c: str) -> None:
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


def _settled(t: TileTable, ev: events.RoundSettled) -> None:
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
