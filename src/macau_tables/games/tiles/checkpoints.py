"""The digests of the checkpoints of tile tables whose rounds were the round machine's: a
journal written then replays today and takes the digest its checkpoint had
(``checkpoint(cited=...)``, the kernel's).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from macau_tables.core import snapshot
from macau_tables.core.journal import Event
from macau_tables.games import contract
from macau_tables.games.contract import (
    LimitsChanged,
    SeedCommitted,
    SeedRevealed,
    TableOpened,
)
from macau_tables.games.tiles import events
from macau_tables.games.tiles import legacy as tilegame
from macau_tables.games.tiles.rounds import (
    HOUSE,
)
from macau_tables.games.tiles.rules import TileTableRules
from macau_tables.games.tiles.state import TileState
from macau_tables.tiles import FULL_SET, parse_tiles

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")


__all__ = [
    "legacy_digest",
]


# --- checkpoints of journals written before (the round machine's layout) ---------------------
#
# A table's state held its rounds as the round machine kept them (each with its own journal
# of ``tiles.*`` events) until the round became a :class:`TileRound`: a checkpoint of a journal
# written then is the digest of the state in that layout. Its replay finds the same state
# and takes the digest it had (``checkpoint(cited=...)``): :func:`legacy_digest` rebuilds the
# round in play and the last one settled as the round machine held them, through today's
# rules, from the table's history.


def legacy_digest(table: TileState) -> str | None:
    """The digest of ``table``'s state in the layout of a table whose rounds were the round
    machine's (``macau_tables.games.tiles.legacy``); None when the journal does not reach back
    to the table's opening (a window from a snapshot) or a woodpile's seed is not known.

    The seats, the woodpile in use and the limits are followed through the whole history;
    the rounds themselves are rebuilt from the last settled one on (from the round that
    began its woodpile, when it went on with a first 4-place round's, TW-2d)."""
    journal = table.journal
    if journal.first or not len(journal):
        return None
    opening = journal.events[0]
    assert isinstance(opening, TableOpened)
    options = TileTableRules.from_json(opening.rules).round
    waiting: LimitsChanged | None = None
    reg, places, vault = table.regulation, table.rules.places, table.seed_vault()
    history = [ev for _seq, ev in contract.effective_events(journal.events, 0)]
    start = _legacy_start(history, table.round is not None)
    seats: dict[int, str] = {}
    label = ""
    in_round = False
    cur: tilegame.OldRound | None = None
    prev: tilegame.OldRound | None = None
    for i, ev in enumerate(history):
        match ev:
            case events.PlayerSat(player=player, seat=seat):
                seats[seat] = player
            case events.PlayerLeft(seat=seat):
                seats.pop(seat, None)
            case LimitsChanged():
                waiting = ev
                if not in_round:
                    options = dataclasses.replace(options, min_bet=ev.min_bet, max_bet=ev.max_bet)
                    waiting = None
            case events.BankOpened():
                in_round = True
                if i < start:
                    continue
                opened = tilegame.RoundOpened(
                    reg.game, ev.round_no, places, ev.banker, ev.seat, ev.capital,
                    0 if ev.banker == HOUSE else ev.house_capital, ev.currency,
                    tuple(sorted((p, 10**15) for p in seats.values())), options.to_json(),
                    (), (), (),
                )  # fmt: skip
                carried = prev if label and prev is not None else None
                cur = tilegame.OldRound.start(reg, opened, carried)
            case SeedCommitted(label=name, commitment=c):
                label = name
                if cur is not None:
                    if c not in vault:
                        return None
                    order = table._order_of(vault[c], table.table_id, name)
                    cur.apply(tilegame.TilesShuffled(tuple(str(FULL_SET[i]) for i in order)))
            case events.WoodpileBuilt(label=name):
                label = name
                if cur is not None:
                    cur.apply(tilegame.TilesShuffled(tuple(str(t) for t in sorted(FULL_SET))))
            case events.HandsKeyed(dice=dice, hands=hands) if cur is not None:
                keyed = {int(s): tuple(parse_tiles(list(ts))) for s, ts in hands.items()}
                cur.round = cur.round.keyed(table._woodpile_with(cur.round, dice, keyed))
            case SeedRevealed() | events.WoodpileEnded():
                label = ""
            case events.RoundSettled():
                in_round = False
                if cur is not None:
                    cur.apply(tilegame.RoundSettled((), (), (), (), (), ()))  # (computed again)
                    prev, cur = cur, None
                if waiting is not None:
                    options = dataclasses.replace(
                        options, min_bet=waiting.min_bet, max_bet=waiting.max_bet
                    )
                    waiting = None
            case _ if cur is not None and (old := _old_event(ev)) is not None:
                cur.apply(old)
            case _:
                pass
    if (cur is None) != (table.round is None) or (prev is None) != (table._prev is None):
        return None
    rounds = {"_round": cur, "_prev": prev}
    state = {k: v for k, v in vars(table).items() if k not in table.SNAPSHOT_SKIP}
    encoded = snapshot.encode({k: None if k in rounds else v for k, v in state.items()})
    pairs = [[k, tilegame.encoded_round(rounds[k]) if k in rounds else v] for k, v in encoded["d"]]
    return snapshot.digest(tilegame.renamed({"d": pairs}))


def _legacy_start(history: Sequence[Event], in_play: bool) -> int:
    """Where :func:`legacy_digest` starts rebuilding rounds: the opening of the last settled
    round (the one before the round in play, if any), or of the round that began its
    woodpile when it went on with another's (TW-2d / TW-R2)."""
    opens = [i for i, ev in enumerate(history) if isinstance(ev, events.BankOpened)]
    if not opens:
        return len(history)
    k = max(len(opens) - (2 if in_play else 1), 0)

    def shuffles(k: int) -> bool:
        end = opens[k + 1] if k + 1 < len(opens) else len(history)
        return any(
            isinstance(ev, SeedCommitted | events.WoodpileBuilt) for ev in history[opens[k] : end]
        )

    while k > 0 and not shuffles(k):
        k -= 1
    return opens[k]


def _old_event(ev: Event) -> Event | None:
    """A table's event as the round machine recorded it (None: no part of its journal)."""
    match ev:
        case events.CoBankJoined(player=p, capital=c):
            return tilegame.CoBankJoined(p, c)
        case events.BetPlaced(player=p, seat=s, amount=a):
            return tilegame.BetPlaced(p, s, a)
        case events.StacksRearranged(player=p, order=o):
            return tilegame.StacksRearranged(p, o)
        case events.DiceShaken(dice=d, valid=v):
            return tilegame.DiceShaken(d, v)
        case events.TilesExposed(seat=s, tiles=ts):
            return tilegame.TilesExposed(s, len(ts))
        case events.TilesSet(player=p, seat=s, front=f, back=b):
            return tilegame.SeatSet(p, s, f, b)
        case _:
            return None
