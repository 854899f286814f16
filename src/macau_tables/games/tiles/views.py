"""What a tile table shows: who may act now (:func:`pending`: the bank offered, PG-4.3; the
woodpile, PG-1.1; bets, co-bank and the stacks, PG-4.6, PG-3.2, PG-2.1; the dice, PG-1.2; the
settings, PG-5.1, PG-7.5, PG-8.1; the settlement, PG-8.3 — each with the rules' default on a
time-out), and what each viewer sees (:func:`view`: never the woodpile's order; another
seat's face-down tiles and settings only for the staff, until the settlement turns them up).
"""

from __future__ import annotations

from collections.abc import Sequence

from macau_tables.core import snapshot
from macau_tables.core.errors import passes as _can
from macau_tables.core.journal import JsonValue
from macau_tables.core.visibility import Viewer, ViewerRole
from macau_tables.games.contract import Actor, Pending
from macau_tables.games.tiles import bank, seats
from macau_tables.games.tiles.rounds import HOUSE
from macau_tables.games.tiles.rules import RESERVED, TilePhase
from macau_tables.games.tiles.state import TileState

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = ["pending", "setters", "view"]


def _ints(xs: Sequence[int] | set[int]) -> list[JsonValue]:
    return [int(x) for x in xs]


def setters(t: TileState) -> list[tuple[Actor, int]]:
    """Seats still to set, with who sets them: the seats first, then the banker."""
    rnd = t._round
    assert rnd is not None
    out: list[tuple[Actor, int]] = []
    for seat in rnd.active_seats():
        if seat in rnd.settings:
            continue
        holder = rnd.holder(seat)
        out.append((Actor.DEALER if holder in RESERVED else Actor.player(str(holder)), seat))
    if not out:
        authority = rnd.banker_authority()
        who = Actor.DEALER if authority in RESERVED else Actor.player(authority)
        out.append((who, rnd.banker_seat))
    return out


def pending(t: TileState) -> tuple[Pending, ...]:
    """Who may act now, and the rules' default if they don't (see the contract)."""
    rnd = t._round
    if t._phase is TilePhase.BANK:
        seat = bank.candidate(t)
        if seat is not None:
            rule = t._r("PG-4.3")
            return (
                Pending(
                    Actor.player(t._seats[seat]),
                    ("open_bank", "decline_bank"),
                    "decline_bank",
                    rule,
                ),
            )
        if t._seats and t.rules.house_bank_capital:
            return (Pending(Actor.DEALER, ("house_banks",), "house_banks", "PG-R6"),)
        return ()
    if t._phase is TilePhase.SHUFFLE:
        rule = t._r("PG-1.1")
        return (Pending(Actor.DEALER, ("shuffle", "build_woodpile"), "shuffle", rule),)
    assert rnd is not None
    if t._phase is TilePhase.BETTING:
        out: list[Pending] = []
        # PG-2.3 / PG-R3: after a void deal only the shuffle and the dice repeat — no
        # bet, no co-bank, no rearranging (the round refuses them: PG-4.7)
        frozen = rnd.void_deals > 0
        for _seat, player in sorted(t._seats.items()):
            if player == t._banker:
                continue
            chips = not frozen and t._stacks.get(player, 0) > 0
            ops = [
                op
                for op, ok in (
                    ("place_bet", chips),
                    ("join_bank", chips),
                    ("rearrange", _can(t._verify_rearrange_by, player)),
                )
                if ok
            ]
            if ops:
                out.append(Pending(Actor.player(player), tuple(ops), None, "", False))
        may_rearrange = t._banker != HOUSE and _can(t._verify_rearrange_by, t._banker)
        banker_ops = ("rearrange", "shake") if may_rearrange else ("shake",)
        rule = t._r("PG-1.2")
        if t._keyed_pile:  # the dealer keys in the banker's dice and the hands
            if may_rearrange:
                out.append(Pending(t._banker_actor(), ("rearrange",), None, rule, False))
            out.append(Pending(Actor.DEALER, ("shake",), None, rule))
            return tuple(out)
        out.append(Pending(t._banker_actor(), banker_ops, "shake", rule))
        return tuple(out)
    if t._phase is TilePhase.SETTING:
        due = setters(t)
        out = []
        if not rnd.settings:
            out.append(Pending(Actor.DEALER, ("report_exposed",), None, "", False))
        for who, seat in due:
            rule = seats.default_rule(t, seat, who)
            out.append(Pending(who, ("set_tiles",), "set_tiles", rule))
        return tuple(out)
    return (Pending(Actor.DEALER, ("settle",), "settle", t._r("PG-8.3")),)


def view(t: TileState, viewer: Viewer) -> dict[str, JsonValue]:
    """What ``viewer`` may see now (JSON-plain). Never the woodpile's order; another
    seat's face-down tiles and settings only for the staff."""
    staff = viewer.role in (ViewerRole.DEALER, ViewerRole.SUPERVISOR)
    me = viewer.name if viewer.role is ViewerRole.PLAYER else ""
    rnd = t._round
    out: dict[str, JsonValue] = {
        "game": t.rules.game,
        "table_id": t._table_id,
        "rules": t.rules.to_json(),
        "phase": t._phase.value,
        "round_no": t._round_no,
        "seats": {str(s): p for s, p in sorted(t._seats.items())},
        "next_limits": None if t._next_limits is None else t._next_limits.limits_json(),
        "pending": [p.to_json() for p in pending(t)],
        "woodpile": {
            "label": t._label,
            "commitment": t._commitment,
            "keyed": t._keyed_pile,
        },
    }
    if staff:
        out["stacks"] = dict(sorted(t._stacks.items()))
    elif me:
        out["stack"] = t._stacks.get(me, 0)
    if t._phase is TilePhase.BANK:
        seat, keep, least = bank.offer(t)
        out["bank_offer"] = {"seat": seat, "keep": keep, "min_capital": least}
    if rnd is not None:
        out["banker"] = t._banker
        out["banker_seat"] = t._banker_seat
        out["capital"] = rnd.bank_capital.minor
        out["house_capital"] = rnd.house_capital
        out["bets"] = [{"bet_id": b, "player": p, "seat": s, "amount": a} for b, p, s, a in t._bets]
        out["cobankers"] = [{"player": p, "capital": c} for _h, p, c in t._cobank]
        out["stack_order"] = list(rnd.stack_order)
        out["rearranged_by"] = list(rnd.rearranged_by)
        out["dice"] = list(rnd.dice) if rnd.dice else None
        if rnd.dice and t._phase in (TilePhase.SETTING, TilePhase.SETTLE):
            out["dealing_order"] = _ints(rnd.dealing_order())
            out["settlement_order"] = _ints(rnd.settlement_order())
            out["active_seats"] = _ints(rnd.active_seats())
            out["seats_out"] = _ints(sorted(rnd.seats_out))
            out["set"] = _ints(sorted(rnd.settings))
        hands: dict[str, JsonValue] = {}
        for seat, (holder, tiles) in sorted(t._dealt.items()):
            if staff or (me and holder == me):
                hands[str(seat)] = list(tiles)
        out["hands"] = hands
        out["exposed"] = {str(s): list(ts) for s, ts in sorted(t._exposed.items())}
        mine: dict[str, JsonValue] = {}
        for seat, (who, front, back) in sorted(t._set_by.items()):
            if staff or (me and who == me):
                mine[str(seat)] = {"front": list(front), "back": list(back)}
        out["settings"] = mine
    out["face_up"] = list(t._face_up)  # TW-2d: public
    if t._last is not None:
        if t._last_json is None:
            t._last_json = t._last.to_json()["data"]
        out["last_round"] = t._last_json  # (shared from view to view: read only)
    return out
