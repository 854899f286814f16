"""What a baccarat table shows: who may act now (:func:`pending`, the rules' defaults on a
time-out), what each viewer sees (:func:`view`: never the shoe's order nor a face-down card;
a player sees his own chips, the staff everyone's), the road maps of the shoe, and the
public state replay must rebuild (:func:`snapshot`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from macau_tables.core.journal import JsonValue
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.baccarat import dealing
from macau_tables.games.baccarat.hand import HandOutcome, HandResult, holder_due
from macau_tables.games.baccarat.roads import Roads, roads
from macau_tables.games.baccarat.rules import GAME, BaccaratPhase, BurnMode, Side
from macau_tables.games.baccarat.state import BaccaratState
from macau_tables.games.contract import Actor, Pending

__all__ = [
    "BET_OPERATIONS",
    "pending",
    "road_maps",
    "shoe_results",
    "shoe_roads",
    "snapshot",
    "view",
]

#: what a player may do between hands (BA-11 … BA-15)
BET_OPERATIONS = ("place_bet", "change_bet", "withdraw_bet", "buy_in", "leave")


def pending(t: BaccaratState) -> tuple[Pending, ...]:
    """Who may act now, with which operations, and the rules' default on a time-out.

    Betting has no deadline in the engine: bettors may bet (optional, no default) and
    the dealer's ``deal`` closes betting — on a time-out the table deals (BA-7.1), so
    the server's clock closes betting by timing the dealer out. A holder who does not
    squeeze is timed out and the dealer opens the cards (BA-16). A shuffle is chance
    the dealer (or the server, as ``system``) performs: it has no default.
    """
    players = [Actor.player(p) for p in t.seats]
    phase = t.phase
    if phase is BaccaratPhase.SHUFFLE:
        return (Pending(Actor.DEALER, ("shuffle", "load_shoe", "open_shoe"), None, "BA-2.1"),)
    # a physical shoe has no default deal: the dealer keys the cards in
    manual = t.keyed
    if phase is BaccaratPhase.CUT:
        turned = manual and t.rules.burn is not BurnMode.DECKS
        return (
            Pending(Actor.DEALER, ("cut",), None if turned else "cut", "BA-2.1"),
            *(Pending(p, ("cut",), None, "BA-2.1", required=False) for p in players),
        )
    if phase is BaccaratPhase.DEMONSTRATION:
        deal = None if manual else "deal"
        return (Pending(Actor.DEALER, ("deal", "expose_card"), deal, "BA-2.2"),)
    if phase is BaccaratPhase.BETTING:
        dealer_ops = ("deal", "burn", "expose_card", "end_shoe")
        return (
            *(Pending(p, BET_OPERATIONS, None, "BA-13", required=False) for p in players),
            Pending(Actor.DEALER, dealer_ops, None if manual else "deal", "BA-7.1"),
        )
    third = dealing.third_card_due(t)
    if third is not None:
        rule = "BA-9.3" if third is Side.BANKER else "BA-9.1"
        ops = ("draw", "expose_card", "correct_error", "void_hand")
        return (Pending(Actor.DEALER, ops, None, rule),)
    due = None if t.hand is None else holder_due(t.hand)
    dealer = Pending(
        Actor.DEALER, ("expose_card", "correct_error", "void_hand"), None, "BA-10", False
    )
    if due is not None:
        holder, _side = due
        return (Pending(Actor.player(holder), ("reveal",), "reveal", "BA-16"), dealer)
    return (dealer,)


def view(t: BaccaratState, viewer: Viewer) -> dict[str, JsonValue]:
    """What ``viewer`` may see now (JSON-plain): never the shoe's order nor a face-down
    card; a player sees their own chips, the staff every player's."""
    staff = viewer.role in (ViewerRole.DEALER, ViewerRole.SUPERVISOR)
    h = t.hand
    hand: dict[str, JsonValue] | None = None
    if h is not None:
        hand = {
            "number": h.number,
            "demonstration": h.demonstration,
            "player": list(h.shown(Side.PLAYER)),
            "banker": list(h.shown(Side.BANKER)),
            "holders": {str(s): h.holders.get(s) for s in Side},
        }
    players: list[JsonValue] = []
    for name, seat in t.seats.items():
        row: dict[str, JsonValue] = {"player": name, "seat": seat}
        if staff or (viewer.role is ViewerRole.PLAYER and viewer.name == name):
            row["chips"] = t.stacks[name]
        players.append(row)
    last: dict[str, JsonValue] | None = None
    if t.results and t.results[-1].outcome is not HandOutcome.VOID:
        r = t.results[-1]
        last = {
            "hand": r.number,
            "shoe": r.shoe,
            "demonstration": r.demonstration,
            "outcome": str(r.outcome),
            "player": [str(c) for c in r.player_cards],
            "banker": [str(c) for c in r.banker_cards],
            "player_total": r.player_total,
            "banker_total": r.banker_total,
        }
    elif t.results:
        last = {"hand": t.results[-1].number, "outcome": str(HandOutcome.VOID)}
    settled: list[JsonValue] = []
    if t.last_settled is not None:
        settled = [dict(r) for r in t.last_settled.results]
    return {
        "game": GAME,
        "table_id": t.table_id,
        "viewer": str(viewer),
        "rules": _plain(t.rules.to_json()),
        "phase": str(t.phase),
        "shoe": {
            "number": t.shoe_number,
            "commitment": t.shoe_commitment,
            "cards": len(t.shoe),
            "dealt": t.position,
            "to_cut": t.cards_to_cut(),
            "cut_card_out": t.cut_card_out,
            "burned_face_down": t.burned_face_down,
            "exposed": None if t.exposed is None else str(t.exposed),
            "continuous_shuffler": t.rules.continuous_shuffler,
            "keyed": t.keyed,
            "third_card_due": None if (third := dealing.third_card_due(t)) is None else str(third),
        },
        "players": players,
        "bets": [
            {
                "player": b.player,
                "bet": str(b.kind),
                "spot": b.spot,
                "stake": b.amount.minor,
                "carried": b.carried,
            }
            for b in t.bets
        ],
        "hand": hand,
        "last_hand": last,
        "last_settlement": settled,
        "roads": road_maps(t),  # (shared from view to view: read only)
        "next_limits": None if t.next_limits is None else t.next_limits.limits_json(),
        "pending": [p.to_json() for p in pending(t)],
    }


def shoe_results(t: BaccaratState, shoe: int | None = None) -> list[HandResult]:
    """The hands of a shoe (the current one by default), without demonstrations and
    void hands: what the road maps show."""
    n = t.shoe_number if shoe is None else shoe
    return [
        r
        for r in t.results
        if r.shoe == n and not r.demonstration and r.outcome is not HandOutcome.VOID
    ]


def shoe_roads(t: BaccaratState) -> Roads:
    """The road maps of the shoe's hands."""
    return roads([r.road_hand() for r in shoe_results(t)])


def road_maps(t: BaccaratState) -> JsonValue:
    """The road maps as JSON, worked out again only when a hand was recorded or a new shoe
    began (``results`` only grows, and its entries are frozen): they change only then, and
    working them out was most of a view's cost (at every view a player polls or is sent)."""
    key = (t.shoe_number, len(t.results))
    if t._roads_memo is None or t._roads_memo[0] != key:
        t._roads_memo = (key, _plain(shoe_roads(t).to_json()))
    return t._roads_memo[1]


def _plain(obj: Mapping[str, Any]) -> dict[str, JsonValue]:
    """Plain JSON built by a ``to_json`` typed loosely."""
    return dict(obj)


def snapshot(t: BaccaratState) -> dict[str, Any]:
    """The public state as plain data (replay must rebuild it exactly); no hidden order."""
    return {
        "view": view(t, Viewer.SUPERVISOR),
        "hands_left": t.hands_left,
        "demonstrations_left": t.demonstrations_left,
        "hand_number": t.hand_number,
        "discards": t.discards,
        "holds": [
            (b.id, b.player, str(b.kind), b.spot, b.amount.minor, b.carried) for b in t.holds
        ],
        "results": [(r.number, r.shoe, str(r.outcome), r.demonstration) for r in t.results],
        "head": t.journal.head,
    }
