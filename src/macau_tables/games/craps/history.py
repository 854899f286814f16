"""A craps journal read back: the command each event starts with (replay re-runs it and
demands the same events), and where the last round starts (what a supervisor's void takes
back: the bets since the roll before, and the last roll).
"""

from __future__ import annotations

from collections.abc import Sequence

from macau_tables.core.journal import Event
from macau_tables.games.contract import (
    Actor,
    Command,
    Role,
    RoundVoided,
    SeedCommitted,
    SeedRevealed,
    effective_events,
)
from macau_tables.games.craps import events

__all__ = [
    "command_of",
    "round_start",
]


def command_of(ev: Event) -> Command | None:
    """The command whose first event is ``ev`` (replay); None for a derived event."""
    match ev:
        case events.PlayerJoined():
            return Command(Actor.player(ev.player), "sit",
                           {"amount": ev.amount, "seat": ev.seat})  # fmt: skip
        case events.ChipsBought():
            return Command(Actor.player(ev.player), "buy_in", {"amount": ev.amount})
        case events.BetPlaced():
            return Command(Actor.player(ev.player), "place_bet",
                           {"bet": ev.bet, "amount": ev.amount, "on": ev.on})  # fmt: skip
        case events.BetIncreased():
            return Command(Actor.player(ev.player), "increase_bet",
                           {"bet_id": ev.bet_id, "amount": ev.amount})  # fmt: skip
        case events.BetTakenDown(reason="taken down"):
            return Command(Actor.player(ev.player), "take_down", {"bet_id": ev.bet_ids[0]})
        case events.BetTakenDown(reason="leaving") | events.PlayerLeft():
            return Command(Actor.player(ev.player), "leave")
        case events.DicePassed(reason="left") if ev.player is not None:
            return Command(Actor.player(ev.player), "leave")
        case events.DicePassed(reason="passed") if ev.player is not None:
            return Command(Actor.player(ev.player), "pass_dice")
        case events.DiceThrown():
            actor = Actor.parse(ev.actor)
            if actor.role is Role.PLAYER:
                return Command(actor, "throw", {"dice": list(ev.dice)})
            return Command(actor, "throw_dice",
                           {"dice": list(ev.dice), "cocked": list(ev.cocked)})  # fmt: skip
        case events.ThrowVoided():
            return Command(Actor.parse(ev.actor), "void_throw", {"reason": ev.reason})
    return None


def round_start(journalled: Sequence[Event], first: int) -> int | None:
    """Where the table's last round starts in the effective history (``journalled``: the
    journal's from entry ``first`` on): the bets made since the roll before the last one
    (and void throws), and the last roll if it came after them; None if there is nothing
    to void (a join, a leave, a time-out or a void since)."""
    start: int | None = None
    rolled = False
    voided = max(
        (s for s, e in enumerate(journalled, start=first) if isinstance(e, RoundVoided)),
        default=0,
    )
    for seq, ev in reversed(effective_events(journalled, first)):
        if seq < voided:  # a round before a void is not the last one
            break
        derived = isinstance(ev, events.RollSettled | SeedRevealed | SeedCommitted) or (
            isinstance(ev, events.DicePassed) and ev.reason == events.SEVEN_OUT
        )
        if derived:
            if rolled or start is not None:
                break
            continue
        if isinstance(ev, events.DiceThrown):
            if rolled or start is not None:
                break
            rolled, start = True, seq
        elif isinstance(ev, events.BetPlaced | events.BetIncreased | events.ThrowVoided) or (
            isinstance(ev, events.BetTakenDown) and ev.reason == events.TAKEN_DOWN
        ):
            start = seq
        else:
            break
    return start
