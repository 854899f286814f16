"""A tile table's journal read back: the command each event starts with (replay re-runs it
and demands the same events), and the last round a supervisor's void takes back (from its
``BankOpened``, PG-4.4 / TW-5c).
"""

from __future__ import annotations

from macau_tables.core import snapshot
from macau_tables.core.errors import OutOfOrder, SeedNotRevealed
from macau_tables.core.journal import Event, JsonValue
from macau_tables.games import contract
from macau_tables.games.contract import Actor, Command
from macau_tables.games.tiles import events
from macau_tables.games.tiles.rounds import HOUSE
from macau_tables.games.tiles.rules import RESERVED
from macau_tables.games.tiles.state import TileState

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = [
    "ROUND_EVENTS",
    "command_of",
    "void_span",
]


def _round_start(t: TileState) -> int | None:
    """Where the table's last round starts in the effective history (its
    ``BankOpened``), None if there is none to void (a void since, or an event that is no
    part of a round: a seat taken or left, chips, the bank offered on)."""
    journalled, first = t._journal.events, t._journal.first
    voided = max(
        (s for s, e in enumerate(journalled, start=first) if isinstance(e, contract.RoundVoided)),
        default=0,
    )
    for seq, ev in reversed(contract.effective_events(journalled, first)):
        if seq < voided:
            return None
        if isinstance(ev, events.BankOpened):
            return seq
        if not isinstance(ev, ROUND_EVENTS):
            return None
    return None


def void_span(t: TileState) -> tuple[int, list[Event]]:
    """The last round: from its ``BankOpened`` on."""
    start = _round_start(t)
    if start is None:
        raise OutOfOrder(
            "there is no round to void: no bank was opened since the last void, or a seat, "
            "chips or the bank's offer came after it"
        )
    return start, [ev for seq, ev in t._effective() if seq >= start]


def command_of(t: TileState, ev: Event) -> Command | None:
    match ev:
        case events.PlayerSat(player=p, seat=s):
            return Command(Actor.player(p), "sit", {"seat": s})
        case events.ChipsBought(player=p, amount=a):
            return Command(Actor.player(p), "buy_in", {"amount": a})
        case events.ChipsCashed(player=p, amount=a):
            return Command(Actor.player(p), "cash_out", {"amount": a})
        case events.PlayerLeft(player=p):
            return Command(Actor.player(p), "leave", {})
        case events.BankDeclined(player=p):
            return Command(Actor.player(p), "decline_bank", {})
        case events.BankOpened(banker=b, capital=c):
            if b == HOUSE:
                return Command(Actor.DEALER, "house_banks", {})
            return Command(Actor.player(b), "open_bank", {"capital": c})
        case contract.SeedCommitted(commitment=c):
            seed = t._keyring.get(c)
            if seed is None:
                raise SeedNotRevealed(f"{ev.label}: its seed is not revealed in this journal")
            return Command(Actor.DEALER, "shuffle", {"seed": seed.hex()})
        case events.CoBankJoined(player=p, capital=c):
            return Command(Actor.player(p), "join_bank", {"capital": c})
        case events.BetPlaced(player=p, seat=s, amount=a):
            return Command(Actor.player(p), "place_bet", {"seat": s, "amount": a})
        case events.StacksRearranged(player=p, order=o):
            return Command(Actor.player(p), "rearrange", {"order": list(o)})
        case events.WoodpileBuilt(by=by):
            return Command(Actor.parse(by), "build_woodpile", {})
        case events.HandsKeyed(dice=d, hands=h, by=by):
            rows: dict[str, JsonValue] = {seat: [str(t) for t in ts] for seat, ts in h.items()}
            return Command(Actor.parse(by), "shake", {"dice": list(d), "hands": rows})
        case events.DiceShaken(dice=d, valid=v, keyed=k):
            args: dict[str, JsonValue] = {"dice": list(d), "cocked": not v} if k else {}
            return Command(t._banker_actor(), "shake", args)
        case events.TilesExposed(seat=s, tiles=ts):
            return Command(Actor.DEALER, "report_exposed", {"seat": s, "tiles": list(ts)})
        case events.TilesSet(player=p, seat=s, front=f):
            who = Actor.DEALER if p in RESERVED else Actor.player(p)
            return Command(who, "set_tiles", {"seat": s, "front": list(f)})
        case events.RoundSettled():
            return Command(Actor.DEALER, "settle", {})
    return None


#: the events of a round: what a void takes back, from the round's ``BankOpened`` on
ROUND_EVENTS: tuple[type[Event], ...] = (
    events.BankOpened,
    contract.SeedCommitted,
    events.WoodpileBuilt,
    events.CoBankJoined,
    events.BetPlaced,
    events.StacksRearranged,
    events.HandsKeyed,
    events.DiceShaken,
    events.TilesDealt,
    events.TilesExposed,
    events.TilesSet,
    contract.TimedOut,
    events.RoundSettled,
    contract.SeedRevealed,
    events.WoodpileEnded,
)
