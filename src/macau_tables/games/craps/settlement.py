"""What a craps roll decides: every bet on the layout resolved by the dice (odds after the
bet they are on, CR-2.2 / CR-3.2; CR-2.3 come odds off on a come-out where the house says),
paid by its pay table (rules.winnings), and the point moved (CR-2.1).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from macau_tables.core.money import Money
from macau_tables.games.contract import accounts
from macau_tables.games.craps.bets import BET_KINDS, PUSH, Decision, OpenBet, Result, label
from macau_tables.games.craps.dice import POINTS, Dice
from macau_tables.games.craps.events import RollSettled
from macau_tables.games.craps.rules import CrapsRules, winnings
from macau_tables.games.craps.state import CrapsState

__all__ = [
    "decide",
    "point_after",
    "settle",
]


def decide(
    rules: CrapsRules, bets: Iterable[OpenBet], dice: Dice, point: int | None
) -> dict[int, Decision]:
    """Each bet's decision by ``dice`` (``point``: the point before the roll): odds after the
    bet they are on (``WithItsBet``); CR-2.3 come odds off on the come-out (returned) at a
    table that says so."""
    decided: dict[int, Decision] = {}
    layout = list(bets)
    flats = [b for b in layout if b.parent is None]
    odds = [b for b in layout if b.parent is not None]
    for bet in (*flats, *odds):
        decided[bet.id] = BET_KINDS[bet.kind].resolve(bet, dice, decided)
        if (
            bet.kind == "come_odds"
            and point is None
            and rules.come_odds_on_come_out == "off"
            and decided[bet.id].result in (Result.WIN, Result.LOSE)
        ):
            decided[bet.id] = PUSH  # CR-2.3 option: off on the come-out, returned
    return decided


def point_after(point: int | None, total: int) -> int | None:
    """CR-2.1: a come-out point number sets the point; the point or a 7 ends it."""
    if point is None:
        return total if total in POINTS else None
    return None if total in (point, 7) else point


def settle(t: CrapsState, dice: Dice) -> RollSettled:
    """The roll's settlement: every bet decided, paid from the house to the players'
    stacks (a win, its stake and winnings; a push, its stake), lost to the house, or left
    standing; the line bets that got their point; the point moved."""
    cur = t.rules.currency
    bets = t._bets
    decided = decide(t.rules, bets.values(), dice, t.point)
    postings: dict[str, int] = {}

    def post(account: str, minor: int) -> None:
        postings[account] = postings.get(account, 0) + minor

    points: list[dict[str, Any]] = []
    results: list[dict[str, Any]] = []
    closes: list[int] = []
    wagers, house = accounts.wagers(t.table_id), accounts.house(t.table_id)
    for bet_id in sorted(decided):
        bet, d = bets[bet_id], decided[bet_id]
        stack = accounts.stack(t.table_id, bet.player)
        if d.result is Result.POINT:
            points.append({"bet": bet_id, "point": d.point})
            continue
        if d.result is Result.STANDS:
            continue
        won = Money.zero(cur)
        post(wagers, -bet.amount.minor)
        if d.result is Result.WIN:
            won = winnings(t.rules, bet, dice)
            post(stack, bet.amount.minor + won.minor)
            post(house, -won.minor)
        elif d.result is Result.LOSE:
            post(house, bet.amount.minor)
        else:  # PUSH
            post(stack, bet.amount.minor)
        closes.append(bet_id)
        results.append(
            {
                "bet": bet_id,
                "player": bet.player,
                "name": label(bet),
                "result": d.result.value,
                "stake": bet.amount.minor,
                "won": won.minor,
            }
        )
    return RollSettled(
        roll=t.rolls,
        total=dice.total,
        point_before=t.point,
        point_after=point_after(t.point, dice.total),
        points=tuple(points),
        results=tuple(results),
        **t._money_fields(postings, closes=closes),
    )
