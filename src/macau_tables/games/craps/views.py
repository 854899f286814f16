"""What a craps table shows: who may act now (:func:`pending`: the shooter's throw, each
player's optional bets, the dealer's key-in), what each viewer sees (:func:`view`: the layout
and the dice are public; a player's chips his and the staff's; a shooter's seed never, only
its commitment), and the state replay must rebuild (:func:`snapshot`).
"""

from __future__ import annotations

from typing import Any

from macau_tables.core.journal import JsonValue
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.contract import Actor, Pending
from macau_tables.games.craps.bets import OpenBet, label
from macau_tables.games.craps.rules import GAME
from macau_tables.games.craps.state import CrapsState

__all__ = [
    "bet_json",
    "pending",
    "snapshot",
    "view",
]


def pending(t: CrapsState) -> tuple[Pending, ...]:
    """The shooter's throw (required; on a time-out he passes the dice, CR-R7), every
    seated player's optional bets (CR-R6, CR-12), and the dealer's key-in (CR-R1)."""
    out: list[Pending] = []
    if t.shooter is not None:
        ops = ("throw", "pass_dice") if t._can_draw() else ("pass_dice",)
        out.append(Pending(Actor.player(t.shooter), ops, "pass_dice", "CR-R7"))
    for player in t.seats:
        actor = Actor.player(player)
        bet_ops = ["place_bet", "buy_in"]
        ix = t._bets_ix
        mine = len(ix.players.get(player, ()))
        if mine > ix.working.get(player, 0):  # a bet not working may come down (CR-R6)
            bet_ops.append("take_down")
        if mine:
            bet_ops.append("increase_bet")
        if not ix.working.get(player):  # CR-R6: no contract bet working
            bet_ops.append("leave")
        out.append(Pending(actor, tuple(bet_ops), None, "CR-R6", required=False))
    if t.shooter is not None and t.rules.dealer != "auto":  # CR-R1
        keyed = not t._can_draw()
        out.append(
            Pending(Actor.DEALER, ("throw_dice", "void_throw"), None, "CR-R1", required=keyed)
        )
    return tuple(out)


def bet_json(b: OpenBet) -> dict[str, JsonValue]:
    """A bet on the layout as a view shows it."""
    return {"id": b.id, "player": b.player, "bet": b.kind, "label": label(b),
            "amount": b.amount.minor, "point": b.point, "on": b.parent}  # fmt: skip


def view(t: CrapsState, viewer: Viewer) -> dict[str, JsonValue]:
    """What ``viewer`` may see: the layout and the dice are public; a player's chips are
    seen by him and the staff; the shooter's seed is never shown (only its commitment)."""
    staff = viewer.role in (ViewerRole.DEALER, ViewerRole.SUPERVISOR)
    stacks = t._stacks
    seats: list[JsonValue] = []
    for seat in sorted(t._seats):
        player = t._seats[seat]
        row: dict[str, JsonValue] = {"seat": seat, "player": player}
        if staff or (viewer.role is ViewerRole.PLAYER and viewer.name == player):
            row["stack"] = stacks[player]
        seats.append(row)
    last: JsonValue = None
    if t.last_roll is not None and t.last_throw is not None:
        last = {
            "roll": t.last_roll.roll,
            "dice": list(t.last_throw.dice),
            "total": t.last_roll.total,
            "point_before": t.last_roll.point_before,
            "point_after": t.last_roll.point_after,
        }
    label_, commitment = t._seed_label, t._commitment
    out: dict[str, JsonValue] = {
        "game": GAME,
        "table_id": t.table_id,
        "rules": t.rules.to_json(),
        "phase": t.phase.value,
        "point": t.point,
        "rolls": t.rolls,
        "throws": t.throws,
        "shooter": t.shooter,
        "shooter_seed": ({"label": label_, "commitment": commitment} if commitment else None),
        "seats": seats,
        "bets": [bet_json(b) for b in t.bets],
        "last_roll": last,
        "next_limits": None if t.next_limits is None else t.next_limits.limits_json(),
        "pending": [p.to_json() for p in pending(t)],
    }
    if viewer.role is ViewerRole.PLAYER and viewer.name in stacks:
        out["you"] = {
            "player": viewer.name,
            "stack": stacks[viewer.name],
            "on_layout": t.on_layout(viewer.name).minor,
        }
    return out


def snapshot(t: CrapsState) -> dict[str, Any]:
    """The whole state as plain data, for equality after replay: the supervisor's view,
    every stack, the next bet id and the journal head (never a seed)."""
    return {
        **view(t, Viewer.SUPERVISOR),
        "stacks": dict(sorted(t._stacks.items())),
        "next_bet_id": t.next_bet_id,
        "head": t.journal.head,
    }
