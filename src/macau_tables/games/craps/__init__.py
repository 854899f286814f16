"""Craps (花旗骰) — Portaria 97/85/M, as read in ``../shared/rules/craps-1985.md``.

The module follows the regulation: first the values (dice and the 36 chance outcomes, pay
tables as data), then the bets article by article (CR-2.1 … CR-12) as :class:`CrapsBetKind`
data, then the options (:class:`CrapsRules`, whose defaults are the Readings), the journal
events, and the table (:class:`CrapsTable`) with its operations, the throw (CR-1), the
point cycle (CR-2.1), the shooter (CR-R7), settlement as money events, and replay.

Every :class:`CrapsBetKind` has exactly one place for each of

* **when it may be placed** — :attr:`CrapsBetKind.when` (CR-R6, CR-12);
* **how a roll resolves it** — :attr:`CrapsBetKind.resolve` (a small frozen rule object);
* **what it pays** — :attr:`CrapsBetKind.pays` (a pay table value; ``CrapsRules.pays`` may
  override it, so a casino paying Big 7 at 4 to 1 writes ``pays={"big7": Odds(4)}``).

"Wins N times the bet" (贏取投注額的N倍彩金) means winnings of N × the stake (N to 1); a
winning bet also gets its stake back. Money is integer minor units; the only products that
can fall between minor units are fractional odds (Big 7 at 4.5 to 1, odds 3:2 and 6:5, the
lay 1:2 …): they are rounded once, toward zero, by ``CrapsRules.rounding`` (the regulation
is silent; :attr:`Rounding.DOWN` is the package default, as for commission, PG-R5 / BA-R5).
The Big bets (CR-9 … CR-11, CR-R4) are computed in whole units and need no rounding.
"""

from __future__ import annotations

from macau_tables.core.snapshot import snapshot_home
from macau_tables.games.craps import (
    bets,
    dice,
    events,
    history,
    placing,
    replays,
    rules,
    settlement,
    table,
    views,
)
from macau_tables.games.craps.bets import (
    BET_KINDS,
    CRAPS,
    DONT_BAR,
    DONT_LOSES,
    DONT_WINS,
    EVEN,
    FINAL,
    LAY_ODDS,
    LOSE,
    NATURALS,
    PUSH,
    STANDS,
    TAKE_ODDS,
    WIN,
    BeforeSeven,
    ByNumber,
    CrapsBetKind,
    Decision,
    DoLine,
    DontLine,
    HardWay,
    Odds,
    OneRoll,
    OpenBet,
    Payout,
    PerUnits,
    Resolver,
    Result,
    When,
    WithItsBet,
    bet_kind,
    iter_kinds,
    label,
    payout_from_text,
)
from macau_tables.games.craps.dice import (
    DICE_OUTCOMES,
    POINTS,
    TOTAL_PROBABILITIES,
    Dice,
)
from macau_tables.games.craps.events import (
    FIRST_SHOOTER,
    LEAVING,
    LEFT,
    PASSED,
    SEVEN_OUT,
    TAKEN_DOWN,
    BetIncreased,
    BetPlaced,
    BetSettlement,
    BetTakenDown,
    ChipsBought,
    DicePassed,
    DiceThrown,
    PlayerJoined,
    PlayerLeft,
    RollSettled,
    ThrowVoided,
)
from macau_tables.games.craps.history import (
    command_of,
    round_start,
)
from macau_tables.games.craps.placing import (
    check_increase,
    check_limits,
    check_odds,
    check_odds_cap,
    check_timing,
)
from macau_tables.games.craps.replays import (
    open_for_replay,
    replay,
)
from macau_tables.games.craps.rules import (
    BIG_ODD_AMOUNTS,
    COME_ODDS_ON_COME_OUT,
    DEALERS,
    GAME,
    MAX_SEATS,
    ODDS_CAPS,
    ODDS_INCREASES,
    CrapsPhase,
    CrapsRules,
    winnings,
)
from macau_tables.games.craps.settlement import (
    decide,
    point_after,
    settle,
)
from macau_tables.games.craps.table import (
    CrapsTable,
    placed_id,
)
from macau_tables.games.craps.views import (
    bet_json,
    pending,
    snapshot,
    view,
)

__all__ = [
    "BET_KINDS",
    "BIG_ODD_AMOUNTS",
    "COME_ODDS_ON_COME_OUT",
    "CRAPS",
    "DEALERS",
    "DICE_OUTCOMES",
    "DONT_BAR",
    "DONT_LOSES",
    "DONT_WINS",
    "EVEN",
    "FINAL",
    "FIRST_SHOOTER",
    "GAME",
    "LAY_ODDS",
    "LEAVING",
    "LEFT",
    "LOSE",
    "MAX_SEATS",
    "NATURALS",
    "ODDS_CAPS",
    "ODDS_INCREASES",
    "PASSED",
    "POINTS",
    "PUSH",
    "SEVEN_OUT",
    "STANDS",
    "TAKEN_DOWN",
    "TAKE_ODDS",
    "TOTAL_PROBABILITIES",
    "WIN",
    "BeforeSeven",
    "BetIncreased",
    "BetPlaced",
    "BetSettlement",
    "BetTakenDown",
    "ByNumber",
    "ChipsBought",
    "CrapsBetKind",
    "CrapsPhase",
    "CrapsRules",
    "CrapsTable",
    "Decision",
    "Dice",
    "DicePassed",
    "DiceThrown",
    "DoLine",
    "DontLine",
    "HardWay",
    "Odds",
    "OneRoll",
    "OpenBet",
    "Payout",
    "PerUnits",
    "PlayerJoined",
    "PlayerLeft",
    "Resolver",
    "Result",
    "RollSettled",
    "ThrowVoided",
    "When",
    "WithItsBet",
    "bet_json",
    "bet_kind",
    "check_increase",
    "check_limits",
    "check_odds",
    "check_odds_cap",
    "check_timing",
    "command_of",
    "decide",
    "iter_kinds",
    "label",
    "open_for_replay",
    "payout_from_text",
    "pending",
    "placed_id",
    "point_after",
    "replay",
    "round_start",
    "settle",
    "snapshot",
    "view",
    "winnings",
]

# The game was one module, ``macau_tables.games.craps``: its snapshots (and the digests of the
# checkpoints journalled) name its classes so; every module of the package keeps that name.
for _module in (dice, bets, rules, events, placing, settlement, history, views, table, replays):
    snapshot_home(_module.__name__, __name__)
