"""When a craps bet may be made and how much, as pure functions of the layout and the
rules: CR-R6 / CR-12 the timing of each bet, CR-2.2 / CR-3.2 / CR-R2 the odds' cap, CR-R9 one
odds bet on a flat bet, the table's limits and CR-R4 the Big bets' blocks.
"""

from __future__ import annotations

from collections.abc import Mapping

from macau_tables.core.errors import BetNotAllowed, InvalidInput
from macau_tables.core.money import Money
from macau_tables.games.craps.bets import (
    BET_KINDS,
    ByNumber,
    CrapsBetKind,
    Odds,
    OpenBet,
    PerUnits,
    When,
    label,
)
from macau_tables.games.craps.rules import CrapsRules

__all__ = [
    "check_increase",
    "check_limits",
    "check_odds",
    "check_odds_cap",
    "check_timing",
]


def check_timing(kind: CrapsBetKind, point: int | None) -> None:
    """CR-R6 / CR-12: may a bet of ``kind`` be made now (``point``: the point, if on)?"""
    if kind.when is When.COME_OUT and point is not None:
        raise BetNotAllowed(
            f"{kind.label} bets are made on a come-out roll only; the point is {point} (CR-R6)",
            rule=kind.rule,
        )
    if kind.when is When.POINT_ON and point is None:
        raise BetNotAllowed(f"{kind.label} bets need a point (CR-R6)", rule=kind.rule)
    # When.ANY_ROLL: CR-12 — the bets of CR-4 to CR-11 may be placed at any time.


def check_odds_cap(rules: CrapsRules, kind: CrapsBetKind, flat: OpenBet, stake: Money) -> None:
    """CR-2.2 / CR-3.2, CR-R2: the odds may win at most the flat bet (or, under
    ``odds_cap="stake"``, the odds stake may not exceed it)."""
    if rules.odds_cap == "stake":
        if stake > flat.amount:
            raise BetNotAllowed(
                f"odds of {stake} exceed the {label(flat)} bet of {flat.amount} "
                "(CR-R2, odds_cap='stake')",
                rule=kind.rule,
            )
        return
    payout = rules.payout(kind)
    odds = payout.odds_for(flat.point) if isinstance(payout, ByNumber) else payout
    if not isinstance(odds, Odds):
        raise InvalidInput(f"{kind.label} needs odds, not {payout}")
    if stake.minor * odds.ratio > flat.amount.minor:
        most = Money(int(flat.amount.minor / odds.ratio), stake.currency)
        raise BetNotAllowed(
            f"odds of {stake} at {odds} would win more than the {label(flat)} bet of "
            f"{flat.amount}; at most {most} (CR-R2)",
            rule=kind.rule,
        )


def check_limits(rules: CrapsRules, kind: CrapsBetKind, total: Money) -> None:
    """A bet of ``total`` within the table's limits for ``kind`` (odds have none of their own:
    only the cap of CR-2.2); CR-R4 a Big bet in whole blocks where the house refuses odd
    amounts."""
    if kind.on is not None:
        return
    low, high, whose = rules.limits(kind)
    if total < low:
        raise BetNotAllowed(
            f"{kind.label} of {total} is below the {whose} minimum {low} ({whose} limits)"
        )
    if total > high:
        raise BetNotAllowed(
            f"{kind.label} of {total} is above the {whose} maximum {high} ({whose} limits)"
        )
    payout = rules.payout(kind)
    if isinstance(payout, PerUnits) and rules.big_odd_amounts == "refused":
        block = rules.big_unit * payout.units
        if total.minor % block.minor:
            raise BetNotAllowed(
                f"{kind.label} is bet in blocks of {block} at this table, not {total} "
                "(CR-R4, big_odd_amounts='refused')",
                rule="CR-R4",
            )


def check_odds(
    rules: CrapsRules,
    kind: CrapsBetKind,
    player: str,
    on: int | None,
    bets: Mapping[int, OpenBet],
    odds_down: set[int],
    amount: Money,
) -> None:
    """Odds of ``amount`` laid by ``player`` on his flat bet ``on`` (CR-2.2, CR-2.3, CR-3.2,
    CR-3.3): once it has its point (CR-R6), one odds bet a flat bet (CR-R9; not made again
    once taken down, where the house refuses it), within the cap (CR-R2)."""
    assert kind.on is not None
    if on is None:
        raise BetNotAllowed(
            f"{kind.label} must name the {BET_KINDS[kind.on].label} bet it is on", rule=kind.rule
        )
    flat = bets.get(on) if isinstance(on, int) else None
    if flat is None or flat.player != player or flat.kind != kind.on:
        raise BetNotAllowed(
            f"{player} has no {BET_KINDS[kind.on].label} bet #{on} for {kind.label}",
            rule=kind.rule,
        )
    if flat.point is None:
        raise BetNotAllowed(
            f"odds need a point: the {label(flat)} bet has none yet (CR-R6)", rule=kind.rule
        )
    if any(b.parent == on for b in bets.values()):
        more = "; increase it" if rules.odds_increases == "allowed" else ""
        raise BetNotAllowed(
            f"the {label(flat)} bet has its one odds bet already (CR-R9){more}", rule=kind.rule
        )
    if on in odds_down and rules.odds_increases == "refused":
        raise BetNotAllowed(
            f"the odds on the {label(flat)} bet were taken down: they are not made again on "
            "that bet (CR-R9)",
            rule=kind.rule,
        )
    check_odds_cap(rules, kind, flat, amount)


def check_increase(
    rules: CrapsRules, bet: OpenBet, point: int | None, bets: Mapping[int, OpenBet], more: Money
) -> None:
    """CR-R6: a line bet may grow only before it has a point; the bets of CR-4 to CR-11 at
    any time (CR-12); odds are one bet, not increased (CR-R9), unless the house allows it
    (``odds_increases="allowed"``: within the cap)."""
    kind = BET_KINDS[bet.kind]
    if kind.on is None:
        check_timing(kind, point)
        if kind.when is not When.ANY_ROLL and bet.point is not None:
            raise BetNotAllowed(
                f"the {label(bet)} bet has its point; a line bet may not be increased after "
                "its point (CR-R6)",
                rule=kind.rule,
            )
    else:
        if rules.odds_increases == "refused":
            raise BetNotAllowed(
                f"the {label(bet)} bet is its flat bet's one odds bet: it is not increased (CR-R9)",
                rule=kind.rule,
            )
        assert bet.parent is not None
        check_odds_cap(rules, kind, bets[bet.parent], bet.amount + more)
    check_limits(rules, kind, bet.amount + more)
