"""A seat's four tiles at a tile table: as the dealer keys them in (PG-1.4 / TW-2c, from the
tiles the woodpile still holds: T-1), who sets them (PG-5.1 a seat's holder; PG-7.4 one of
its bettors for a seat nobody holds; PG-7.5 the dealer when all of them hold another; PG-3.4
the banker's by the house), and the rules' setting for a setter who does not act (PG-R10 the
house way; TW-6b / TW-R1 the forced setting of Taiwan Pai Kao).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from macau_tables.core import snapshot
from macau_tables.core.errors import InvalidInput, RuleViolation
from macau_tables.games.contract import Actor
from macau_tables.games.tiles.rounds import TileRound
from macau_tables.games.tiles.rules import RESERVED
from macau_tables.games.tiles.state import TileState
from macau_tables.tiles import FULL_SET, Setting, Tile, parse_tiles, settings
from macau_tables.tiles.strategies import strategy

#: this module was part of ``macau_tables.games.tiletable``
snapshot.snapshot_home(__name__, "macau_tables.games.tiletable")

__all__ = ["allowed_settings", "default_rule", "default_setting", "keyed_hands", "setter_of"]


def default_rule(t: TileState, seat: int, who: Actor) -> str:
    """The rule that makes :meth:`default_setting` a seat's time-out default."""
    rnd = t._need_round()
    if seat == rnd.banker_seat:
        # TW-R1: the banker sets freely, or bound by the option; PG-3.4 / PG-R10: the
        # house way sets the banker's tiles
        return "TW-R1" if t.regulation.forced_setting is not None else "PG-R10"
    if who == Actor.DEALER:
        # a seat whose bettors all hold another (PG-7.5 gap fill; TW-R6's option)
        return t._r("PG-7.5")
    # TW-6b: the dealer re-sets to the forced setting; PG-5.1: each seat's four tiles are
    # split into two hands — the house way splits them for a holder who does not
    return "TW-6b" if t.regulation.forced_setting is not None else "PG-5.1"


def keyed_hands(t: TileState, rnd: TileRound, hands: object) -> dict[int, tuple[Tile, ...]]:
    """PG-1.4 / TW-2c: every seat's four tiles as dealt, from the tiles this woodpile
    still holds (T-1: no tile more often than the set has it)."""
    rule = t._r("PG-1.4")
    if not isinstance(hands, Mapping):
        raise InvalidInput("hands maps each seat to its four tiles", rule=rule)
    out: dict[int, tuple[Tile, ...]] = {}
    for seat, names in hands.items():
        try:
            n = int(seat)
        except (TypeError, ValueError):
            raise InvalidInput(f"a seat is a number, not {seat!r}", rule=rule) from None
        if not isinstance(names, list | tuple) or not all(isinstance(t, str) for t in names):
            raise InvalidInput(f"seat {seat}: four tiles such as '6-6'", rule=rule)
        out[n] = tuple(parse_tiles(list(names)))
        if len(out[n]) != 4:
            raise InvalidInput(f"seat {seat}: four tiles, not {len(out[n])}", rule=rule)
    places = set(range(1, rnd.places + 1))
    if set(out) != places:
        raise InvalidInput(
            f"every stack is dealt (seats {sorted(places)}), whatever the players",
            rule=rule,
        )
    earlier = [s for s in range(8) if s not in rnd.stack_order]
    left = Counter(FULL_SET)
    left.subtract(t for s in earlier for t in rnd.tiles[4 * s : 4 * s + 4])
    for seat in sorted(out):
        for tile in out[seat]:
            left[tile] -= 1
            if left[tile] < 0:
                raise InvalidInput(
                    f"seat {seat}: {tile} is dealt more often than the 32-tile set "
                    "(and this woodpile) holds it",
                    rule="T-1",
                )
    return out


def setter_of(t: TileState, actor: Actor, seat: int) -> str:
    rnd = t._need_round()
    who = rnd.banker_authority() if seat == rnd.banker_seat else rnd.holder(seat)
    if who is None:
        raise RuleViolation(f"seat {seat} has no bets in play this round", rule=t._r("PG-5.1"))
    want = Actor.DEALER if who in RESERVED else Actor.player(who)
    if actor != want:
        rule = t._r("PG-7.4" if seat != rnd.banker_seat else "PG-3.4")
        raise RuleViolation(f"seat {seat} is set by {want}, not {actor}", rule=rule)
    return who


def _forced_here(t: TileState, seat: int) -> bool:
    """Whether the forced setting binds this seat's setter (TW-6b / TW-R1): a Taiwan
    player always, the banker only with the option ``bind_banker``."""
    rnd = t._need_round()
    if t.regulation.forced_setting is None:
        return False
    return seat != rnd.banker_seat or rnd.options.bind_banker


def default_setting(t: TileState, seat: int) -> Setting:
    """The rules' setting for a seat whose setter does not act: where the forced setting
    binds (TW-6b / TW-R1: a Taiwan player, and the banker under ``bind_banker``) the
    highest back, and of two such the higher front — a setting the rule accepts; else
    the house way (PG-R10 for the banker, the house's way of setting a seat)."""
    rnd = t._need_round()
    tiles = rnd.hands[seat]
    forced = t.regulation.forced_setting
    if forced is not None and _forced_here(t, seat):
        return forced(tiles, t.regulation.tiles)
    return strategy("house-way").choose(tiles, t.regulation.tiles)


def allowed_settings(t: TileState, seat: int) -> list[Setting]:
    """The settings a seat's setter may keep: all three, except where the forced setting
    binds (TW-6b / TW-R1): only those whose back is the highest."""
    rnd = t._need_round()
    options = settings(rnd.hands[seat], t.regulation.tiles)
    if not _forced_here(t, seat):
        return list(options)
    return [s for s in options if rnd.follows_forced(seat, s.front.tiles)]
