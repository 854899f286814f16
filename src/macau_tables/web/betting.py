"""What a player may bet now, spot by spot, as the engine's own checks answer it.

The table page greys a chip that passes a spot's limit and marks a spot that takes no bet
now; neither is decided in the browser. For each spot this module asks the engine's
``verify_place_bet`` (the one source of the rules: BA-13 … BA-15 and the table limits;
CR-R6 timing, CR-2.2 / CR-R2 the odds cap, CR-R9 one odds bet; PG-4.6 / PG-4.7, TW-2g)
which amounts it accepts now, and answers the range — or, for a spot that takes nothing,
the refusal, with its rule. The accepted amounts of a spot are taken to be one interval
(true under the Readings' defaults; a house option such as BA-18's multiples of the
minimum or CR-R4's whole blocks makes some amounts inside it refused, which the server
then says when the bet is sent).

Craps also says, for each bet on the layout, whether it is working on the next roll
(CR-2.3: under the ``come_odds_on_come_out="off"`` option, Come odds are off on a come-out
roll; every other bet works on every roll, CR-R8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from macau_tables.core.errors import MacauTablesError
from macau_tables.core.money import Money

#: verify a bet of this many minor units now; raises the rule's error if it is refused
Verify = Callable[[int], None]


def _refusal(verify: Verify, amount: int) -> MacauTablesError | None:
    try:
        verify(amount)
    except MacauTablesError as exc:
        return exc
    return None


def room(verify: Verify, nominal_min: int, top: int) -> dict[str, Any]:
    """The amounts ``verify`` accepts in ``1 … top`` (``top``: the player's chips), found
    from ``nominal_min`` (the limits' minimum): ``{"open": True, "min", "max"}``, or
    ``{"open": False, "why", "rule"}`` with the refusal of the smallest bet the limits allow."""
    probe = max(1, nominal_min)
    refused = _refusal(verify, probe)
    if refused is not None:
        return {"open": False, "why": refused.message, "rule": refused.rule}
    lo, hi = 1, probe  # the smallest accepted amount: refused below it, accepted from it
    while lo < hi:
        mid = (lo + hi) // 2
        if _refusal(verify, mid) is None:
            hi = mid
        else:
            lo = mid + 1
    least = lo
    lo, hi = probe, max(probe, top)  # the largest accepted amount: accepted up to it
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _refusal(verify, mid) is None:
            lo = mid
        else:
            hi = mid - 1
    return {"open": True, "min": least, "max": lo}


def bet_room(engine: Any, player: str) -> dict[str, Any]:
    """``{"spots": {spot: room}, "working": {bet id: bool}}`` for ``player`` at ``engine``'s
    table (a baccarat, craps or tile table; any other game: no spots)."""
    from macau_tables.games.baccarat import BaccaratBetKind, BaccaratTable
    from macau_tables.games.craps import CrapsTable
    from macau_tables.games.tiles import TileTable

    if isinstance(engine, BaccaratTable):
        return {"spots": _baccarat(engine, player, BaccaratBetKind), "working": {}}
    if isinstance(engine, CrapsTable):
        return _craps(engine, player)
    if isinstance(engine, TileTable):
        return {"spots": _tiles(engine, player), "working": {}}
    return {"spots": {}, "working": {}}


def _baccarat(engine: Any, player: str, kinds: Any) -> dict[str, Any]:
    """BA-13 each bet, at the player's own spot (BA-15), within the table's limits."""
    if player not in engine.seats:
        return {}
    cur = engine.rules.currency
    top = engine.stacks.get(player, 0)
    out: dict[str, Any] = {}
    for kind in kinds:
        limit = engine.rules.limits.get(kind)
        low = limit.minimum.minor if limit is not None else 1

        def verify(amount: int, kind: Any = kind) -> None:
            engine.verify_place_bet(player, kind, Money(amount, cur))

        out[str(kind)] = room(verify, low, top)
    return out


def _craps(engine: Any, player: str) -> dict[str, Any]:
    """Every flat bet of Portaria 97/85/M (CR-R6: when it may be made) and, on each of the
    player's flat bets that takes odds, the odds (``odds:<bet id>``: CR-2.2 / CR-3.2, the
    cap of CR-R2, one odds bet CR-R9)."""
    from macau_tables.core.visibility import Viewer
    from macau_tables.games.craps import BET_KINDS

    view = engine.view(Viewer.player(player))
    cur = engine.rules.currency
    spots: dict[str, Any] = {}
    you = view.get("you")
    if isinstance(you, dict):
        top = int(you["stack"])
        for name, kind in BET_KINDS.items():
            if kind.on is not None:
                continue

            def verify(amount: int, name: str = name) -> None:
                engine.verify_place_bet(player, name, Money(amount, cur))

            spots[name] = room(verify, engine.rules.limits(kind)[0].minor, top)
        odds_of = {k.on: n for n, k in BET_KINDS.items() if k.on is not None}
        for bet in view["bets"]:
            odds = odds_of.get(bet["bet"])
            if odds is None or bet["player"] != player:
                continue

            def verify_odds(amount: int, odds: str = odds, on: int = bet["id"]) -> None:
                engine.verify_place_bet(player, odds, Money(amount, cur), on=on)

            spots[f"odds:{bet['id']}"] = {"bet": odds, **room(verify_odds, 1, top)}
    off = view["point"] is None and view["rules"]["come_odds_on_come_out"] == "off"
    # CR-2.3 option: Come odds are off on a come-out roll; every other bet works (CR-R8)
    working = {str(b["id"]): not (off and b["bet"] == "come_odds") for b in view["bets"]}
    return {"spots": spots, "working": working}


def _tiles(engine: Any, player: str) -> dict[str, Any]:
    """PG-4.6 / TW-2g a bet on each place but the banker's (PG-3.2: that is co-banking),
    within the table's limits (PG-R: none by default)."""
    from macau_tables.core.visibility import Viewer

    view = engine.view(Viewer.PUBLIC)
    places = int(view["rules"]["places"])
    low = int(view["rules"]["round"].get("min_bet") or 1)
    top = engine.stack(player).minor
    actor = _player_actor(player)
    out: dict[str, Any] = {}
    for seat in range(1, places + 1):

        def verify(amount: int, seat: int = seat) -> None:
            engine.verify_place_bet(actor, seat, Money(amount, engine.currency))

        out[f"seat:{seat}"] = room(verify, low, top)
    return out


def _player_actor(name: str) -> Any:
    from macau_tables.games.contract import Actor

    return Actor.player(name)
