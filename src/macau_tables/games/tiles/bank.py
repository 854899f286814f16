"""Whose turn it is to bank at a tile table: PG-4.1 / TW-5a two rounds at a time, PG-4.3 /
TW-5b / PG-R6 the turn passing right past those who decline (an empty seat, or one with
nothing to bank, counts as declining), and a declined bank offered only to a person who
himself bet in the previous round (PG-R6 / TW-R7).
"""

from __future__ import annotations

from macau_tables.core import snapshot
from macau_tables.games.tiles.state import TileState

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = ["candidate", "offer"]


def candidate(t: TileState) -> int | None:
    """The seat the bank is offered to now (PG-4.3, PG-R6), or None (the house banks)."""
    places = t.rules.places
    o = t._offer
    for k in range(places):
        seat = (o.turn - 1 + k) % places + 1
        player = t._seats.get(seat)
        if seat in o.declined or player is None or t._stacks.get(player, 0) <= 0:
            continue  # an empty seat, or one with nothing to bank, counts as declining
        if o.keep and k == 0:
            return seat
        if k > 0 and not _bet_last_round(t, player):
            continue  # PG-4.3 / TW-5b: a declined bank goes to a person who bet
        return seat
    return None


def _bet_last_round(t: TileState, player: str) -> bool:
    """PG-R6 / TW-R7: whether ``player`` himself bet in the previous round, on any seat
    (another player's bet on his seat does not count: the condition is on the person,
    惟獲過莊的閒家必須曾在上一局投注 / 但該人必須在此之前曾經投注)."""
    prev = t._prev
    return prev is not None and player in prev.tally.staked


def offer(t: TileState) -> tuple[int | None, bool, int]:
    """(the seat offered the bank, whether it is the banker's keep, the least capital:
    PG-4.9 / TW-5d / PG-R11 what is left on the table for a keeping banker, else 1)."""
    o = t._offer
    return candidate(t), o.keep, o.floor if o.keep else 1
