"""A baccarat journal read back: the command each event starts with (replay re-runs it and
demands the same events), and the history the table's state follows after a supervisor's
void or correction.

A supervisor voids the last hand settled (every bet of it refunded: its settlement becomes
the hand's BA-R3 void; its cards stay out of the shoe) or a hand being dealt (the rules' own
BA-10 void), and corrects a keyed-in card of the last hand: the keyed event at ``of_seq``
(``deal`` or ``draw``) is re-run with the corrected cards, then the hand's later keyed draws
and reveals as far as the rules still take them (a third card the corrected hand no longer
draws goes back to the shoe; one it now needs is keyed in by the dealer). The money of
either is the difference (``contract.money_delta``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from macau_tables.core.errors import OutOfOrder, SeedNotRevealed
from macau_tables.core.journal import Event, JsonValue, event_from_json
from macau_tables.games.baccarat import events
from macau_tables.games.contract import (
    Actor,
    Checkpoint,
    Command,
    LimitsChanged,
    RoundCorrected,
    RoundVoided,
)

__all__ = [
    "command_of",
    "effective",
    "void_span",
]


def command_of(ev: Event, seeds: Mapping[str, bytes]) -> Command | None:
    """The command that starts with ``ev`` in a journal (replay), None for derived events.
    A shuffle is replayed with its seed, known by its commitment (``seeds``)."""
    match ev:
        case events.PlayerJoined():
            return Command(Actor.player(ev.player), "sit", {"seat": ev.seat, "amount": ev.buy_in})
        case events.ChipsBought():
            return Command(Actor.player(ev.player), "buy_in", {"amount": ev.amount})
        case events.PlayerLeft():
            return Command(Actor.player(ev.player), "leave")
        case events.ShoeShuffled():
            seed = seeds.get(ev.commitment)
            if seed is None:
                raise SeedNotRevealed(
                    f"shoe {ev.shoe}: its seed (commitment {ev.commitment[:16]}…) is not "
                    "revealed in this journal (nor given)"
                )
            return Command(
                Actor.parse(ev.by), "shuffle", {"seed": seed.hex(), "new_set": ev.new_set}
            )
        case events.ShoeLoaded():
            args: dict[str, JsonValue] = {"cards": list(ev.cards), "new_set": ev.new_set}
            return Command(Actor.parse(ev.by), "load_shoe", args)
        case events.ShoeOpened():
            return Command(Actor.parse(ev.by), "open_shoe", {"new_set": ev.new_set})
        case events.CardsKeyed():
            return Command(Actor.parse(ev.by), ev.op, _plain(ev.args))
        case events.ShoeEnded():
            return Command(Actor.parse(ev.by), "end_shoe")
        case events.CutCardPlaced():
            return Command(Actor.parse(ev.by), "cut", {"from_end": ev.from_end})
        case events.CardsBurned():
            return Command(Actor.parse(ev.by), "burn", {"count": ev.count})
        case events.BetPlaced():
            return Command(
                Actor.player(ev.player),
                "place_bet",
                {"bet": ev.bet, "amount": ev.amount, "spot": ev.spot},
            )
        case events.BetChanged():
            return Command(
                Actor.player(ev.player),
                "change_bet",
                {"bet": ev.bet, "amount": ev.amount, "to_bet": ev.to_bet, "spot": ev.spot},
            )
        case events.CardsDealt():
            return Command(Actor.parse(ev.by), "deal")
        case events.CardsRevealed():
            return Command(Actor.player(ev.by), "reveal", {"side": ev.side})
        case events.CardExposed():
            return Command(Actor.parse(ev.by), "expose_card")
        case events.DealingErrorCorrected():
            return Command(Actor.parse(ev.by), "correct_error", {"description": ev.description})
        case events.HandVoided():
            return Command(Actor.parse(ev.by), "void_hand", {"reason": ev.reason})
    return None


def _plain(obj: Mapping[str, Any]) -> dict[str, JsonValue]:
    """Plain JSON built by a ``to_json`` typed loosely."""
    return dict(obj)


def effective(journalled: Sequence[Event], first: int) -> list[tuple[int, Event]]:
    """The history the table's state follows, as ``(seq, event)`` (see
    ``contract.effective_events``), except that a baccarat void keeps the hand: its
    settlement at ``from_seq`` is replaced by the hand's void (BA-R3). ``journalled`` are the
    journal's from entry ``first`` on (a snapshot's state before it)."""
    out: list[tuple[int, Event]] = []
    for seq, ev in enumerate(journalled, start=first):
        if isinstance(ev, Checkpoint):
            continue
        if isinstance(ev, RoundVoided):
            out = [
                (s, events.voided(e, ev.reason, ev.approved_by))
                if s == ev.from_seq and isinstance(e, events.HandSettled)
                else (s, e)
                for s, e in out
            ]
        elif isinstance(ev, RoundCorrected):
            out = [(s, e) for s, e in out if s < ev.of_seq]
            out.extend((seq, event_from_json(json.loads(json.dumps(j)))) for j in ev.rerun)
        else:
            out.append((seq, ev))
    return out


def void_span(history: Sequence[tuple[int, Event]]) -> tuple[int, list[Event]]:
    """BA-R3: the last hand settled, if nothing was bet, dealt or keyed since; a void
    turns its settlement into the hand's void (every bet returned)."""
    for seq, ev in reversed(history):
        if isinstance(ev, events.HandSettled):
            if not ev.results:
                raise OutOfOrder("the last hand had no bets: there is nothing to void")
            return seq, [ev]
        if isinstance(
            ev,
            events.HandVoided
            | events.BetPlaced
            | events.BetChanged
            | events.CardsDealt
            | events.CardsKeyed
            | events.PlayerLeft
            | LimitsChanged,
        ):
            break  # a limits change is an operation of its own: void first, then change
    raise OutOfOrder(
        "there is no hand to void: the last hand was voided, or bets or cards came since",
        rule="BA-R3",
    )
