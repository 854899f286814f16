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
from macau_tables.games.baccarat.events import (
    BetChanged,
    BetPlaced,
    CardExposed,
    CardsBurned,
    CardsDealt,
    CardsKeyed,
    CardsRevealed,
    ChipsBought,
    CutCardPlaced,
    DealingErrorCorrected,
    HandSettled,
    HandVoided,
    PlayerJoined,
    PlayerLeft,
    ShoeEnded,
    ShoeLoaded,
    ShoeOpened,
    ShoeShuffled,
    voided,
)
from macau_tables.games.contract import (
    Actor,
    Checkpoint,
    Command,
    LimitsChanged,
    RoundCorrected,
    RoundVoided,
)

__all__ = ["command_of", "effective", "void_span"]


def command_of(ev: Event, seeds: Mapping[str, bytes]) -> Command | None:
    """The command that starts with ``ev`` in a journal (replay), None for derived events.
    A shuffle is replayed with its seed, known by its commitment (``seeds``)."""
    match ev:
        case PlayerJoined():
            return Command(Actor.player(ev.player), "sit", {"seat": ev.seat, "amount": ev.buy_in})
        case ChipsBought():
            return Command(Actor.player(ev.player), "buy_in", {"amount": ev.amount})
        case PlayerLeft():
            return Command(Actor.player(ev.player), "leave")
        case ShoeShuffled():
            seed = seeds.get(ev.commitment)
            if seed is None:
                raise SeedNotRevealed(
                    f"shoe {ev.shoe}: its seed (commitment {ev.commitment[:16]}…) is not "
                    "revealed in this journal (nor given)"
                )
            return Command(
                Actor.parse(ev.by), "shuffle", {"seed": seed.hex(), "new_set": ev.new_set}
            )
        case ShoeLoaded():
            args: dict[str, JsonValue] = {"cards": list(ev.cards), "new_set": ev.new_set}
            return Command(Actor.parse(ev.by), "load_shoe", args)
        case ShoeOpened():
            return Command(Actor.parse(ev.by), "open_shoe", {"new_set": ev.new_set})
        case CardsKeyed():
            return Command(Actor.parse(ev.by), ev.op, _plain(ev.args))
        case ShoeEnded():
            return Command(Actor.parse(ev.by), "end_shoe")
        case CutCardPlaced():
            return Command(Actor.parse(ev.by), "cut", {"from_end": ev.from_end})
        case CardsBurned():
            return Command(Actor.parse(ev.by), "burn", {"count": ev.count})
        case BetPlaced():
            return Command(
                Actor.player(ev.player),
                "place_bet",
                {"bet": ev.bet, "amount": ev.amount, "spot": ev.spot},
            )
        case BetChanged():
            return Command(
                Actor.player(ev.player),
                "change_bet",
                {"bet": ev.bet, "amount": ev.amount, "to_bet": ev.to_bet, "spot": ev.spot},
            )
        case CardsDealt():
            return Command(Actor.parse(ev.by), "deal")
        case CardsRevealed():
            return Command(Actor.player(ev.by), "reveal", {"side": ev.side})
        case CardExposed():
            return Command(Actor.parse(ev.by), "expose_card")
        case DealingErrorCorrected():
            return Command(Actor.parse(ev.by), "correct_error", {"description": ev.description})
        case HandVoided():
            return Command(Actor.parse(ev.by), "void_hand", {"reason": ev.reason})
    return None


def _plain(obj: Mapping[str, Any]) -> dict[str, JsonValue]:
    """Plain JSON built by a ``to_json`` typed loosely."""
    return dict(obj)


def effective(events: Sequence[Event], first: int) -> list[tuple[int, Event]]:
    """The history the table's state follows, as ``(seq, event)`` (see
    ``contract.effective_events``), except that a baccarat void keeps the hand: its
    settlement at ``from_seq`` is replaced by the hand's void (BA-R3). ``events`` are the
    journal's from entry ``first`` on (a snapshot's state before it)."""
    out: list[tuple[int, Event]] = []
    for seq, ev in enumerate(events, start=first):
        if isinstance(ev, Checkpoint):
            continue
        if isinstance(ev, RoundVoided):
            out = [
                (s, voided(e, ev.reason, ev.approved_by))
                if s == ev.from_seq and isinstance(e, HandSettled)
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
        if isinstance(ev, HandSettled):
            if not ev.results:
                raise OutOfOrder("the last hand had no bets: there is nothing to void")
            return seq, [ev]
        if isinstance(
            ev,
            HandVoided
            | BetPlaced
            | BetChanged
            | CardsDealt
            | CardsKeyed
            | PlayerLeft
            | LimitsChanged,
        ):
            break  # a limits change is an operation of its own: void first, then change
    raise OutOfOrder(
        "there is no hand to void: the last hand was voided, or bets or cards came since",
        rule="BA-R3",
    )
